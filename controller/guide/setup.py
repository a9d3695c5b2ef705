"""Guiding the set-up of a match's next hand (docs/rules.md 2.1) from the load cells.

    setup = HandSetup(match)            # after match.end_hand(), the match not over
    setup.update(counts, settled)       # each reading; setup.frame shows what to do
    setup.game                          # the new hand's Game, once the board is set

At the end of a hand every seed a player holds lies in their store. The arranger (the player
holding fewer) takes all of theirs and places them in their own pits, one at least in each: the
guide reads the arrangement from the load cells, whatever it is. Then the other player places
as many seeds in their own pits — with the `mirror` arrangement a copy pit for pit, the LEDs
showing too many / too few until it is one; with `free` any arrangement of one at least per
pit — and the rest of their seeds stay in their store, held aside for the hand. The arrangement
is checked by `Match.arrange`, which starts the hand.

Portable core: MicroPython subset. Counting mode only: digital sensors cannot read counts.
"""

from .events import ARRANGED, HAND_READY
from .frame import (Frame, PLAYER_COLOURS, TOO_MANY, TOO_FEW, DROP, PICK, MORE,
                    LESS)

ARRANGE = "arrange"      # the arranger places all their seeds
COPY = "copy"            # mirror: the other player copies the arrangement
PLACE = "place"          # free: the other player places as many seeds
READY = "ready"          # the hand has started


class HandSetup:
    """The set-up of the next hand, as a small state machine (see the module text)."""

    def __init__(self, match):
        rules = match.rules
        self.match = match
        self.n = rules.n
        self.size = 2 * rules.n + 2
        self.arranger = match.arranger
        self.other = 1 - match.arranger
        self.holdings = match.holdings[:]
        self.mirror = rules.options["arrangement"] == "mirror"
        self.phase = ARRANGE
        self.rows = [None, None]
        self.game = None
        self.events = []
        self.wrong = {}                 # place -> too many (+) or too few (-)
        self.frame = Frame(self.size)
        self._render()

    def _row(self, counts, player):
        return counts[player * self.n:player * self.n + self.n]

    def update(self, counts, settled=None):
        """Judge a settled reading (pits, then the stores); returns the frame to show."""
        if len(counts) != self.size:
            raise ValueError("a reading needs %d places, not %d" % (self.size, len(counts)))
        if settled is not None and False in settled:
            return self.frame           # hands on the board: wait until it rests
        arranger, other = self.arranger, self.other
        stores = 2 * self.n
        self.wrong = {}
        if self.phase == ARRANGE:
            for pit in range(other * self.n, other * self.n + self.n):
                if counts[pit]:
                    self.wrong[pit] = counts[pit]       # not yet: the arranger goes first
            row = self._row(counts, arranger)
            # every seed they hold placed: a reading between two drops shows the store empty
            # and a seed in each pit while the hand still holds some
            if not self.wrong and counts[stores + arranger] == 0 and min(row) >= 1 and \
                    sum(row) == self.holdings[arranger]:
                self.rows[arranger] = row
                self.events.append((ARRANGED, arranger, row))
                self.phase = COPY if self.mirror else PLACE
        if self.phase == COPY:
            target = counts[:]
            held = self.rows[arranger]
            for k in range(self.n):
                target[arranger * self.n + k] = held[k]
                target[other * self.n + k] = held[k]
            target[stores + arranger] = 0
            target[stores + other] = self.holdings[other] - sum(held)
            for place in range(self.size):
                if counts[place] != target[place]:
                    self.wrong[place] = counts[place] - target[place]
            if not self.wrong:
                self._start(held)
        elif self.phase == PLACE:
            row = self._row(counts, other)
            held = sum(self.rows[arranger])
            if (min(row) >= 1 and sum(row) == held
                    and counts[stores + other] == self.holdings[other] - held
                    and self._row(counts, arranger) == self.rows[arranger]):
                self._start(row)
        self._render()
        return self.frame

    def _start(self, other_row):
        self.rows[self.other] = other_row
        self.game = self.match.arrange(self.rows[self.arranger], other_row)
        self.phase = READY
        self.events.append((HAND_READY, self.rows[0], self.rows[1]))

    def _render(self):
        frame = Frame(self.size)
        if self.phase != READY:
            player = self.arranger if self.phase == ARRANGE else self.other
            colour = PLAYER_COLOURS[player]
            frame.set(2 * self.n + player, colour, PICK)        # take the seeds from here
            for pit in range(player * self.n, player * self.n + self.n):
                frame.set(pit, colour, DROP)                    # into these
        for place in self.wrong:
            if self.wrong[place] > 0:
                frame.set(place, TOO_MANY, MORE)
            else:
                frame.set(place, TOO_FEW, LESS)
        self.frame = frame
