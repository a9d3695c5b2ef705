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

MODULUS = 1073741789            # 2**30 - 35, prime
MULTIPLIER = 40009              # a primitive root: full period
_Q = MODULUS // MULTIPLIER      # Schrage: MODULUS = MULTIPLIER * _Q + _R with _R < _Q
_R = MODULUS % MULTIPLIER


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
        span = MODULUS - 1
        limit = span - span % bound
        while True:
            x = self.next() - 1
            if x < limit:
                return x % bound
