"""A small random number generator that gives the same numbers on CPython and MicroPython.

MicroPython's `random` differs from CPython's, so nothing that must replay the same (a dealt
set-up, a benchmark's games, a seeded computer player) can use it. `Random30` is Lehmer's
multiplicative generator modulo the prime 2**30 - 35, with Schrage's method so that every
intermediate value stays below 2**30: a MicroPython small int, which needs no heap (a 32-bit
xorshift allocates a big int at every draw on a Pico). 40009 is a primitive root of the modulus,
so the period is the full 2**30 - 36 draws.

    >>> rng = Random30(7)
    >>> rng.randrange(6) in range(6)
    True
"""

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

MODULUS = const(1073741789)     # 2**30 - 35, prime
MULTIPLIER = const(40009)       # a primitive root: full period
_Q = const(26837)               # Schrage: MODULUS = MULTIPLIER * _Q + _R with _R < _Q
_R = const(20256)


class Random30:
    """`randrange(bound)` and `next()` from a seed; the same sequence on every runtime."""

    __slots__ = ("state",)

    def __init__(self, seed=1):
        state = seed % (MODULUS - 1) + 1        # 1 .. MODULUS-1: zero is a fixed point
        self.state = state

    def next(self):
        """The next number, 1 .. MODULUS-1."""
        x = self.state
        x = MULTIPLIER * (x % _Q) - _R * (x // _Q)
        if x < 0:
            x += MODULUS
        self.state = x
        return x

    def randrange(self, bound):
        """A number in 0 .. bound-1, every one equally likely (rejection, no modulo bias)."""
        limit = (MODULUS - 1) - (MODULUS - 1) % bound
        x = self.state
        while True:
            # next(), written out: this is the hot path of every random playout
            x = MULTIPLIER * (x % _Q) - _R * (x // _Q)
            if x < 0:
                x += MODULUS
            if x <= limit:
                self.state = x
                return (x - 1) % bound
