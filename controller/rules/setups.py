"""Set-ups that are dealt: Mangala IV's random start (RULES.md section 5).

A random set-up is dealt once and from then on is an explicit list of counts. The dealer uses its
own small generator (xorshift32), so a given seed deals the same board on CPython and on
MicroPython, whose `random` modules differ.
"""

try:
    from .variants import RulesError
except ImportError:
    from variants import RulesError

MASK32 = 0xFFFFFFFF


class XorShift32:
    """Marsaglia's xorshift32: tiny, portable, the same numbers on every runtime."""

    def __init__(self, seed):
        self.state = (seed & MASK32) or 0x9E3779B9   # zero is a fixed point: avoid it

    def next(self):
        x = self.state
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        self.state = x
        return x

    def below(self, bound):
        """A number in 0 .. bound-1 (rejection sampling, no modulo bias)."""
        limit = MASK32 + 1 - (MASK32 + 1) % bound
        while True:
            x = self.next()
            if x < limit:
                return x % bound


def deal_random_setup(rules, seed=None, total=None, least=2):
    """Deal `total` stones (the variant's standard total) at random over the 2n pits, at least
    `least` per pit. `seed` makes the deal repeatable; None takes one from the clock."""
    size = rules.size
    if total is None:
        total = rules.variant.seeds * size
    if total < least * size:
        raise RulesError("cannot deal %d stones with at least %d in each of %d pits" % (
            total, least, size))
    if seed is None:
        import time
        seed = int(time.time() * 1000003) & MASK32
    generator = XorShift32(seed)
    counts = [least] * size
    for _ in range(total - least * size):
        counts[generator.below(size)] += 1
    return counts
