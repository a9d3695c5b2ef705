"""Following a step script on a board: the counts of every place after every step.

A step script (docs/rules.md section 7) is what the players physically do. `Board` carries the
counts of the 2n pits, the two stores and the hand, and applies one step at a time, checking that
the step is possible (a pick takes what the pit holds, a drop has a seed in hand...). The LED guide
uses it to know what the sensors should read after each step; the simulator's hands and the
tests replay scripts with it.

Portable core: MicroPython subset.
"""

from .variants import RulesError
from .game import SIDES, Step


def place_words(place, pits, players=SIDES):
    """"South's pit 3", "North's store": a place (pits 0..2n-1, then South's and North's store)
    as the players name it, on a board of `pits` pits a row (`players`: other names for South
    and North). Every message, page and log of the project names places so.

        >>> place_words(2, 6), place_words(13, 6)
        ("South's pit 3", "North's store")
    """
    if place >= 2 * pits:
        return "%s's store" % players[place - 2 * pits]
    return "%s's pit %d" % (players[place // pits], place % pits + 1)


def place_label(place, pits):
    """`S1`..`Sn`, `N1`..`Nn`, `S store`, `N store`: a place in short, as the wiring diagram,
    the drawings and the bring-up's questions label it (a person types it; every message
    names a place as the players do, `place_words`).

        >>> place_label(0, 6), place_label(11, 6), place_label(12, 6), place_label(13, 6)
        ('S1', 'N6', 'S store', 'N store')
    """
    if place >= 2 * pits:
        return "S store" if place == 2 * pits else "N store"
    return ("S%d" if place < pits else "N%d") % (place % pits + 1)


class Board:
    """Counts on a physical board: `pits` (2n), `stores` ([south, north]) and `hand`, and who
    owns each Uur (`uur`: an owner 0/1 or None per pit)."""

    __slots__ = ("pits", "stores", "hand", "uur")

    def __init__(self, pits, stores=None, hand=0, uur=None):
        self.pits = list(pits)
        self.stores = [0, 0] if stores is None else list(stores)
        self.hand = hand
        self.uur = [None] * len(self.pits) if uur is None else list(uur)

    def copy(self):
        return Board(self.pits, self.stores, self.hand, self.uur)

    def places(self):
        """Every place's count: the pits, then South's and North's store."""
        return self.pits + self.stores

    def total(self):
        """Every seed on the board, in the stores and in the hand."""
        return sum(self.pits) + self.stores[0] + self.stores[1] + self.hand

    def apply(self, step, mover):
        """Carry out one step; `mover` is whose store a capture fills. RulesError when the step
        is impossible from these counts."""
        kind = step[0]
        pits = self.pits
        if kind == Step.PICK:
            pit, count = step[1], step[2]
            if pits[pit] != count:
                raise RulesError("pick(%d, %d): the pit holds %d" % (pit, count, pits[pit]))
            pits[pit] = 0
            self.hand += count
        elif kind == Step.DROP:
            if self.hand < 1:
                raise RulesError("drop(%d) with an empty hand" % step[1])
            self.hand -= 1
            pits[step[1]] += 1
        elif kind == Step.UUR:
            pit, source = step[1], step[2]
            if pits[source] < 1:
                raise RulesError("uur(%d, %d): pit %d is empty" % (pit, source, source))
            pits[source] -= 1
            pits[pit] += 1
            self.uur[pit] = mover
            self.uur[source] = mover
        elif kind == Step.CAPTURE or kind == Step.COLLECT:
            pit, count = step[1], step[2]
            owner = mover if kind == Step.CAPTURE else step[3]
            if count < 1 or pits[pit] != count:   # a capture or collection empties the pit
                raise RulesError("%s(%d, %d): the pit holds %d" % (kind, pit, count, pits[pit]))
            pits[pit] = 0
            self.stores[owner] += count
        elif kind != Step.PASS:
            raise RulesError("unknown step %r" % (kind,))

    def touched(self, step, mover):
        """The places `step` changes (pits 0..2n-1, then South's and North's store), at most:
        every other place reads the same after it. `mover` as for `apply`."""
        kind = step[0]
        if kind == Step.PICK or kind == Step.DROP:
            return (step[1],)
        if kind == Step.UUR:
            return (step[1], step[2])
        if kind == Step.CAPTURE:
            return (step[1], len(self.pits) + mover)
        if kind == Step.COLLECT:
            return (step[1], len(self.pits) + step[3])
        return ()

    def count(self, place):
        """What `place` holds (a pit 0..2n-1, then South's and North's store)."""
        pits = self.pits
        return pits[place] if place < len(pits) else self.stores[place - len(pits)]

    def play(self, steps, mover):
        """Apply every step in order."""
        for step in steps:
            self.apply(step, mover)
