"""Virtual players: people at the board who see only the LEDs (host-only).

A `LedPlayer` reads the guide's frame — never the engine — and decides what a person's hand does
next, as an action tuple; `apply_action` carries an action out on a board of counts, and the
physical simulator carries the same actions out seed by seed. With a mistake rate the player
sometimes does the wrong thing, as people do, and puts it right when the LEDs show it:

- counting mode: a seed into the wrong pit, two seeds at once, a missed relay (the next player
  starts instead), a knocked pit (a seed jumps to a neighbour), the wrong seeds removed;
- activity mode (what a digital sensor can see): a seed into the wrong pit, a touch in a pit
  outside the script.

Actions: ("lift", place), ("drop", place, k), ("take", place, k) (seeds into the hand, to put
right), ("put", place, k) (from the hand), ("move", source, destination, k), ("touch", place),
("confirm",) (the confirm button), ("wait",).

A place whose sensor is broken shows its step in the fault colour, or the fault pattern alone:
the player does the step as usual and then presses confirm, vouching for it; with nothing else
to do and a broken place showing, they check it and confirm.
"""

from __future__ import annotations

import random

from controller.guide.frame import (DROP, PICK, TAKE, UUR_FROM, UUR_TO, FORCED, STEADY, FLASH,
                                    MORE, LESS, BROKEN, PLAYER_COLOURS, HINT, FAULT, Frame)

COUNTING_MISTAKES = ("wrong_pit", "two_at_once", "missed_relay", "knocked", "wrong_removed")
ACTIVITY_MISTAKES = ("wrong_pit", "stray_touch")


class LedPlayer:
    """Both players at one board, following the LEDs (the hand is shared: one acts at a time).

    `rate` is the chance that an action is done wrong; `rng` makes runs repeatable.
    """

    def __init__(self, n: int, rng: random.Random, rate: float = 0.0,
                 mode: str = "counting") -> None:
        self.n = n
        self.rng = rng
        self.rate = rate
        self.mode = mode
        self.hand = 0
        self.mistakes: list[tuple] = []       # (kind, action) of every mistake made
        self.misplaced: list[int] = []        # pits a seed went into by mistake (as a person
                                              # remembers: needed where sensors cannot count)
        self.vouch = False                    # a step at a broken place is done: confirm it

    def stores(self) -> tuple[int, int]:
        return (2 * self.n, 2 * self.n + 1)

    def next_action(self, frame: Frame, counts: list[int]) -> tuple:
        """What the hand does next, seeing `frame` (and the seeds in the pits, as a person
        sees them)."""
        if self.vouch:
            self.vouch = False
            return ("confirm",)
        flashing = frame.where(FLASH)
        if flashing:
            return self._put_right_flash(flashing[0], counts)
        more, less = frame.where(MORE), frame.where(LESS)
        if more or less:
            return self._put_right_difference(more, less, counts)
        action = self._guided(frame, counts)
        if action[0] in ("wait", "confirm") or self._setting_up(frame):
            return action
        if self.rate and self.rng.random() < self.rate:
            wrong = self._mistake(action, frame, counts)
            if wrong is not None:
                return wrong
        # the step as shown: if it touches a broken place, the sensors cannot see it done
        self.vouch = any(frame.colour(place) == FAULT for place in _places(action))
        return action

    # --- doing what the LEDs say ----------------------------------------------------------

    def _guided(self, frame: Frame, counts: list[int]) -> tuple:
        if self._setting_up(frame):
            return self._set_up(frame, counts, max(frame.where(PICK)))
        for kind, pattern in (("drop", DROP), ("lift", PICK), ("take_all", TAKE)):
            places = frame.where(pattern)
            if places:
                place = places[0]
                if kind == "drop":
                    return ("drop", place, 1) if self.hand else ("wait",)
                if kind == "lift":
                    return ("lift", place) if counts[place] else ("wait",)
                if not counts[place]:
                    return ("wait",)        # emptied already: the sensors are catching up
                store = self._lit_store(frame, frame.colour(place))
                return ("move", place, store, counts[place])
        sources, targets = frame.where(UUR_FROM), frame.where(UUR_TO)
        if sources and targets:
            return ("move", sources[0], targets[0], 1)
        return self._choose_move(frame, counts)

    def _setting_up(self, frame: Frame) -> bool:
        """The frame leads the set-up of a match's next hand: a store lit to take from."""
        return any(place >= 2 * self.n for place in frame.where(PICK))

    def _set_up(self, frame: Frame, counts: list[int], store: int) -> tuple:
        """A match's next hand set up (its store lit to take from, its pits to drop into):
        the first to arrange lifts every seed of their store and fills their pits one seed at
        a time, the emptiest first; with the free arrangement the other takes as many seeds
        from their store as the arranger placed and fills theirs the same way. (A mirror copy
        is led by the difference view: `_put_right_difference`.) Any arrangement with a seed
        in every pit is legal, so none of these is a mistake."""
        pits = frame.where(DROP)
        if self.hand:
            return ("drop", min(pits, key=lambda pit: counts[pit]), 1)
        other = range(self.n, 2 * self.n) if pits[0] < self.n else range(self.n)
        arranged = sum(counts[pit] for pit in other)
        if not arranged:                    # the first to arrange: all they hold
            return ("lift", store) if counts[store] else ("wait",)
        missing = arranged - sum(counts[pit] for pit in pits)
        if missing > 0 and counts[store]:
            return ("take", store, min(missing, counts[store]))
        return ("wait",)

    def _lit_store(self, frame: Frame, colour: str) -> int:
        if colour in PLAYER_COLOURS:
            return self.stores()[PLAYER_COLOURS.index(colour)]
        # the pit's sensor is broken, so it shows the fault colour: the store lit is the one
        lit = [store for store in self.stores() if frame.pattern(store) == STEADY]
        return lit[0] if lit else self.stores()[0]

    def _choose_move(self, frame: Frame, counts: list[int]) -> tuple:
        """The legal pits are lit in the mover's colour: pick one (a hint first)."""
        if self.hand:
            return ("wait",)        # seeds in hand: the lift is not seen yet, the LEDs catch up
        # a person lifts seeds they can see: a lit pit that is empty is the LEDs running
        # ahead of the board (a new game shown before the seeds are set out), so wait
        hinted = [p for p in frame.where(PICK) if frame.colour(p) == HINT and counts[p]]
        if hinted:
            return ("lift", hinted[0])
        legal = [p for p in range(2 * self.n)
                 if frame.pattern(p) in (STEADY, FORCED) and counts[p]]
        if not legal:
            # nothing to do but a broken place showing: look at it, it is right, confirm
            return ("confirm",) if frame.where(BROKEN) else ("wait",)
        return ("lift", self.rng.choice(legal))

    # --- putting mistakes right -----------------------------------------------------------

    def _put_right_flash(self, place: int, counts: list[int]) -> tuple:
        if self.mode == "activity" and place not in self.misplaced:
            return ("touch", place)             # a stray touch: touch again to acknowledge
        if place in self.misplaced:
            self.misplaced.remove(place)
        return ("take", place, 1) if counts[place] else ("wait",)

    def _put_right_difference(self, more: list[int], less: list[int], counts: list[int]):
        more = [place for place in more if counts[place]]   # "too many" in an empty pit:
        if more:                                             # the sensor, not the seeds
            return ("take", more[0], 1)
        if self.hand and less:
            return ("put", less[0], 1)
        return ("wait",)

    # --- doing the wrong thing ------------------------------------------------------------

    def _mistake(self, action: tuple, frame: Frame, counts: list[int]) -> tuple | None:
        kinds = ACTIVITY_MISTAKES if self.mode == "activity" else COUNTING_MISTAKES
        kind = self.rng.choice(kinds)
        pits = 2 * self.n
        if kind == "wrong_pit" and action[0] == "drop":
            wrong = (action[1] + self.rng.choice((1, -1))) % pits
            self.misplaced.append(wrong)
            return self._made(kind, ("drop", wrong, 1))
        if kind == "two_at_once" and action[0] == "drop" and self.hand >= 2:
            return self._made(kind, ("drop", action[1], 2))
        if kind == "knocked" and action[0] == "drop" and counts[action[1]]:
            neighbour = (action[1] + self.rng.choice((1, -1))) % pits
            return self._made(kind, ("knock", action[1], neighbour))
        if kind == "missed_relay" and action[0] == "lift" and frame.pattern(action[1]) == PICK:
            # the mover thinks the move is over and the other player lifts a pit of theirs
            row = range(pits // 2, pits) if action[1] < pits // 2 else range(0, pits // 2)
            own = [p for p in row if counts[p] and p != action[1]]
            if own:
                return self._made(kind, ("lift", self.rng.choice(own)))
        if kind == "wrong_removed" and action[0] == "move" and action[3] == counts[action[1]]:
            others = [p for p in range(pits) if counts[p] and p != action[1]]
            if others:
                wrong = self.rng.choice(others)
                return self._made(kind, ("move", wrong, action[2], counts[wrong]))
        if kind == "stray_touch":
            # outside the script: a touch in the pit the LEDs name is, to a digital sensor,
            # the step itself, which no guide could tell apart
            dark = [p for p in range(pits) if frame.pattern(p) == "dark"]
            if dark:
                return self._made(kind, ("touch", self.rng.choice(dark)))
        return None

    def _made(self, kind: str, action: tuple) -> tuple:
        self.mistakes.append((kind, action))
        return action


def _places(action: tuple) -> tuple:
    """The places an action's hand goes to."""
    if action[0] == "move":
        return (action[1], action[2])
    return (action[1],) if len(action) > 1 else ()


def apply_action(action: tuple, counts: list[int], player: LedPlayer) -> None:
    """Carry `action` out on a board of counts (places: pits, then the stores)."""
    kind = action[0]
    if kind == "lift":
        player.hand += counts[action[1]]
        counts[action[1]] = 0
    elif kind in ("drop", "put"):
        k = min(action[2], player.hand)
        counts[action[1]] += k
        player.hand -= k
    elif kind == "take":
        k = min(action[2], counts[action[1]])
        counts[action[1]] -= k
        player.hand += k
    elif kind == "move":
        k = min(action[3], counts[action[1]])
        counts[action[1]] -= k
        counts[action[2]] += k
    elif kind == "knock":
        # the dropped seed lands, and one seed of the pit jumps to its neighbour
        if player.hand:
            counts[action[1]] += 1
            player.hand -= 1
        counts[action[1]] -= 1
        counts[action[2]] += 1
