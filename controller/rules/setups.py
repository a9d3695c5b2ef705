"""Set-ups that are dealt: Mangala IV's random start (docs/rules.md section 5).

A random set-up is dealt once and from then on is an explicit list of counts. The dealer uses the
project's own generator (`rng.Random30`), so a given seed deals the same board on CPython and on
MicroPython, whose `random` modules differ.
"""

from .variants import RulesError
from .rng import Random30

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
        seed = int(time.time() * 1000003)
    generator = Random30(seed)
    counts = [least] * size
    for _ in range(total - least * size):
        counts[generator.randrange(size)] += 1
    return counts
