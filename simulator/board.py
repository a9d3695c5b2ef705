"""The physical board: individual seeds in pits and stores, and the hand that moves them.

    >>> import random
    >>> board = PhysicalBoard(6, [4] * 12, random.Random(1))
    >>> board.lift(2).seeds
    4
    >>> for pit in (3, 4, 5, 6):
    ...     _ = board.drop(pit)
    >>> board.counts()
    [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 0, 0]
    >>> board.total()
    48

Places: a board with n pits per row has 2n pits, numbered as in docs/rules.md section 1 (South owns
0..n-1, North n..2n-1, opposite(i) = 2n-1-i), and two stores: place 2n is South's store, 2n+1
North's. Every place has a load cell under it on the `pico-bridge` profile, hence 2n+2 channels.

Each seed has its own mass, drawn once when the board is made (normal around `seed_mass_g` with
coefficient of variation `spread`): counting by weight is only as good as the seeds are uniform, so
the sensing code must meet real spread, not ideal seeds.

What a player does with the hand (`lift`, `drop`, `take`, `put`, `move`, `knock`, `touch`) takes
simulated time. An operation does not advance the clock: it is *scheduled* on it, right after
whatever the hand was already doing (plus the time to travel between places), and logged as
`actions` (what was done) and `visits` (when the hand was in which place). The sensors read those
as the clock moves: a load cell sees a hand pressing in its pit for the whole visit and sees seeds
arrive or leave at the moment they do. Whoever drives the simulation steps the clock (normally
through sensor frames) until `busy_until_ms`. `counts()` is the truth once the hand has done
everything asked of it; `counts_now()` is what is physically in each place at the clock's time.

An operation that is impossible (a drop with an empty hand, taking more than a pit holds) raises
`BoardError` and changes nothing: the player that asked for it is wrong, not the board.

Host-only (the simulator is never loaded on a microcontroller).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from .clock import SimClock

# The smallest mass a drawn seed may have, as a fraction of the nominal mass. A normal draw with a
# large configured spread can go negative; a seed that weighs nothing or less is not a seed.
MIN_SEED_FRACTION = 0.01


class BoardError(ValueError):
    """An operation a player cannot do on the board as it stands (nothing was changed)."""


@dataclass(frozen=True)
class Durations:
    """How long the hand spends on each operation, in simulated milliseconds.

    The defaults are a careful, unhurried player, timed by hand on a real board: gathering every
    seed of a pit takes a moment of fingers in the pit; a sowing drops about four seeds a second;
    a capture into a store (grab, carry, release) takes about 600 ms including the carry.
    `travel_ms` is the hand moving between two places, in neither: the gap a digital sensor sees
    between two activations.
    """

    lift_ms: int = 400          # the hand in the pit, gathering every seed
    drop_ms: int = 250          # per seed dropped while sowing
    take_ms: int = 300          # per seed picked out one by one (a correction)
    put_ms: int = 250           # per seed put back (a correction)
    move_grab_ms: int = 300     # a move's hand in the source, gathering the seeds
    move_release_ms: int = 150  # a move's hand in the destination: grab + travel + this = 600
    knock_ms: int = 150         # the hand brushing a pit hard enough to knock a seed out
    travel_ms: int = 150        # between two places, the hand in none

    def __post_init__(self) -> None:
        for name in ("lift_ms", "drop_ms", "take_ms", "put_ms", "move_grab_ms",
                     "move_release_ms", "knock_ms"):
            _check_whole(getattr(self, name), name, 1)      # a visit has to last a while
        _check_whole(self.travel_ms, "travel_ms", 0)



class HandVisit(NamedTuple):
    """The hand in `place` from `start_ms` until (not including) `end_ms`."""

    place: int
    start_ms: int
    end_ms: int


class Action(NamedTuple):
    """One logged operation: what was done (`kind`), where, how many seeds moved, and when the
    hand started and finished it. `to_place` is None for operations that touch one place."""

    kind: str
    place: int
    to_place: int | None
    seeds: int
    start_ms: int
    end_ms: int


class _Transfer(NamedTuple):
    """Seeds arriving (positive) at or leaving (negative) a place at a moment in time."""

    time_ms: int
    place: int
    mass_g: float
    count: int


def south_store(n: int) -> int:
    """The place index of South's store on a board with `n` pits per row."""
    return 2 * n


def north_store(n: int) -> int:
    """The place index of North's store on a board with `n` pits per row."""
    return 2 * n + 1


def place_count(n: int) -> int:
    """How many places (pits and stores, each with a sensor channel) a board has."""
    return 2 * n + 2


def draw_seed_masses(count: int, rng: random.Random, seed_mass_g: float,
                     spread: float) -> list[float]:
    """`count` seed masses in grams: normal around `seed_mass_g`, coefficient of variation
    `spread`, clipped to a small positive minimum."""
    sigma = seed_mass_g * spread
    floor = seed_mass_g * MIN_SEED_FRACTION
    return [max(rng.gauss(seed_mass_g, sigma), floor) for _ in range(count)]


class PhysicalBoard:
    """Seeds with individual masses in 2n pits and two stores, a hand, and a log of what the
    hand did when. See the module docstring for the model."""

    def __init__(self, n: int, counts: Sequence[int], rng: random.Random,
                 seed_mass_g: float = 5.0, spread: float = 0.02, *,
                 clock: SimClock | None = None, durations: Durations | None = None) -> None:
        """`counts`: 2n pit counts, or 2n+2 with the stores' counts last. `clock`: the run's
        clock (a fresh one at 0 ms when omitted). `durations`: how long the hand takes."""
        _check_whole(n, "n", 1)
        if seed_mass_g <= 0:
            raise ValueError("seed_mass_g must be positive, not %r" % (seed_mass_g,))
        if spread < 0:
            raise ValueError("spread must not be negative, not %r" % (spread,))
        self.n = n
        self.size = 2 * n                       # pits
        self.place_count = place_count(n)       # pits and stores
        self.south_store = south_store(n)
        self.north_store = north_store(n)
        self.seed_mass_g = float(seed_mass_g)   # nominal: what the sensors are calibrated to
        self.spread = float(spread)
        self.clock = SimClock() if clock is None else clock
        self.durations = Durations() if durations is None else durations
        counts = self._check_counts(counts)
        # Each place's seeds, as masses in grams. Order means nothing physically; operations
        # take from the end, so the last seeds in are the first out.
        self.places: list[list[float]] = [
            draw_seed_masses(count, rng, self.seed_mass_g, self.spread) for count in counts]
        self.hand: list[float] = []
        self.actions: list[Action] = []         # the action log: what was done
        self.visits: list[HandVisit] = []       # when the hand was where; never overlapping
        self._visit_starts: list[int] = []      # visits' start times, for bisect
        self._mass_g = [sum(seeds) for seeds in self.places]
        self._pending: deque[_Transfer] = deque()   # changes the clock has not reached yet
        self._free_at_ms: int | None = None         # when the hand finishes; None: never busy

    # ---- what is on the board -------------------------------------------------------------

    def counts(self) -> list[int]:
        """The true number of seeds in every place (2n pits, then South's and North's store),
        once the hand has done everything it was asked to."""
        return [len(seeds) for seeds in self.places]

    def total(self) -> int:
        """Every seed: in the places and in the hand. Operations never change it."""
        return sum(len(seeds) for seeds in self.places) + len(self.hand)

    def all_masses_g(self) -> list[float]:
        """Every seed's mass, places and hand, sorted: the same list after any operation."""
        masses = list(self.hand)
        for seeds in self.places:
            masses.extend(seeds)
        masses.sort()
        return masses

    def counts_now(self) -> list[int]:
        """The number of seeds physically in each place at the clock's current time (seeds the
        hand has been asked to move but has not reached yet are still where they were)."""
        counts = self.counts()
        now = self._settle()
        for transfer in self._pending:
            if transfer.time_ms > now:
                counts[transfer.place] -= transfer.count
        return counts

    def masses_now_g(self) -> list[float]:
        """The mass in grams resting in each place at the clock's current time: what the load
        cells weigh (without the hand's pressing, which the sensors add themselves)."""
        masses = self._mass_g[:]
        now = self._settle()
        for transfer in self._pending:
            if transfer.time_ms > now:
                masses[transfer.place] -= transfer.mass_g
        return masses

    # ---- where the hand is ------------------------------------------------------------------

    def visit_at(self, time_ms: int) -> HandVisit | None:
        """The hand's visit that covers `time_ms`, or None when the hand is in no place."""
        i = bisect_right(self._visit_starts, time_ms) - 1
        if i >= 0 and time_ms < self.visits[i].end_ms:
            return self.visits[i]
        return None

    @property
    def hand_at(self) -> int | None:
        """The place the hand is in now, or None."""
        visit = self.visit_at(self.clock.now_ms)
        return None if visit is None else visit.place

    @property
    def hand_since_ms(self) -> int | None:
        """When the hand got to the place it is in now, or None when it is in no place."""
        visit = self.visit_at(self.clock.now_ms)
        return None if visit is None else visit.start_ms

    @property
    def busy_until_ms(self) -> int:
        """When the hand finishes everything it was asked to do (now, if it already has)."""
        now = self.clock.now_ms
        return now if self._free_at_ms is None else max(now, self._free_at_ms)

    @property
    def idle(self) -> bool:
        """True when the hand has done everything asked of it by the clock's time."""
        return self._free_at_ms is None or self.clock.now_ms >= self._free_at_ms

    # ---- what a player does ---------------------------------------------------------------

    def lift(self, place: int) -> Action:
        """Take every seed of `place` into the hand (the start of a sowing or a relay)."""
        self._check_place(place, "place")
        count = len(self.places[place])
        if count == 0:
            raise BoardError("lift(%d): the place is empty" % place)
        visit = self._visit(place, self.durations.lift_ms)
        self._remove(place, count, visit.end_ms, into=self.hand)    # they leave with the hand
        return self._log("lift", place, None, count, visit, visit)

    def drop(self, place: int, k: int = 1) -> Action:
        """Drop `k` seeds from the hand into `place`, one after another (sowing)."""
        self._check_place(place, "place")
        self._check_seeds(k)
        if k > len(self.hand):
            raise BoardError("drop(%d, %d): the hand holds %d" % (place, k, len(self.hand)))
        visit = self._visit(place, self.durations.drop_ms * k)
        self._add(place, k, _middle(visit))         # they fall while the hand hovers
        return self._log("drop", place, None, k, visit, visit)

    def take(self, place: int, k: int) -> Action:
        """Pick `k` seeds out of `place` into the hand (correcting an extra seed)."""
        self._check_place(place, "place")
        self._check_seeds(k)
        if k > len(self.places[place]):
            raise BoardError("take(%d, %d): the place holds %d" % (
                place, k, len(self.places[place])))
        visit = self._visit(place, self.durations.take_ms * k)
        self._remove(place, k, visit.end_ms, into=self.hand)
        return self._log("take", place, None, k, visit, visit)

    def put(self, place: int, k: int) -> Action:
        """Put `k` seeds from the hand into `place` (correcting a missing seed)."""
        self._check_place(place, "place")
        self._check_seeds(k)
        if k > len(self.hand):
            raise BoardError("put(%d, %d): the hand holds %d" % (place, k, len(self.hand)))
        visit = self._visit(place, self.durations.put_ms * k)
        self._add(place, k, _middle(visit))
        return self._log("put", place, None, k, visit, visit)

    def move(self, src: int, dst: int, k: int) -> Action:
        """Carry `k` seeds from `src` to `dst` in one go (a capture into a store, an Uur's seed).
        The seeds pass through the hand; seeds it already held stay there."""
        self._check_place(src, "src")
        self._check_place(dst, "dst")
        self._check_seeds(k)
        if src == dst:
            raise BoardError("move(%d, %d, %d): source and destination are the same" % (
                src, dst, k))
        if k > len(self.places[src]):
            raise BoardError("move(%d, %d, %d): the source holds %d" % (
                src, dst, k, len(self.places[src])))
        grab = self._visit(src, self.durations.move_grab_ms)
        self._remove(src, k, grab.end_ms, into=self.hand)
        release = self._visit(dst, self.durations.move_release_ms)
        self._add(dst, k, _middle(release))
        return self._log("move", src, dst, k, grab, release)

    def knock(self, place: int, to_place: int) -> Action:
        """The hand brushes `place` and one of its seeds jumps into `to_place` (usually a
        neighbour): a mistake the sensors must catch. The hand is never in `to_place`."""
        self._check_place(place, "place")
        self._check_place(to_place, "to_place")
        if place == to_place:
            raise BoardError("knock(%d, %d): a seed must land somewhere else" % (
                place, to_place))
        if not self.places[place]:
            raise BoardError("knock(%d, %d): the place is empty" % (place, to_place))
        visit = self._visit(place, self.durations.knock_ms)
        moment = _middle(visit)
        self._remove(place, 1, moment, into=self.hand)
        self._add(to_place, 1, moment)      # it flies: out of one place, into the other at once
        return self._log("knock", place, to_place, 1, visit, visit)

    def touch(self, place: int, ms: int) -> Action:
        """Rest the hand in `place` for `ms` milliseconds without moving a seed (hesitating,
        pointing, straightening the seeds)."""
        self._check_place(place, "place")
        if isinstance(ms, bool) or not isinstance(ms, int) or ms < 1:
            raise BoardError("touch(%d, %r): the hand stays a whole number >= 1 of ms" % (
                place, ms))
        visit = self._visit(place, ms)
        return self._log("touch", place, None, 0, visit, visit)

    # ---- inside -----------------------------------------------------------------------------

    def _visit(self, place: int, ms: int) -> HandVisit:
        """Schedule the hand in `place` for `ms`: now, or after the hand's current work and the
        travel from there."""
        start = self.clock.now_ms
        if self._free_at_ms is not None:
            start = max(start, self._free_at_ms + self.durations.travel_ms)
        visit = HandVisit(place, start, start + ms)
        self.visits.append(visit)
        self._visit_starts.append(start)
        self._free_at_ms = visit.end_ms
        return visit

    def _remove(self, place: int, k: int, time_ms: int, into: list[float]) -> None:
        """Move the last `k` seeds of `place` to the end of `into`; the sensors see them leave
        at `time_ms`."""
        seeds = self.places[place]
        moved = seeds[len(seeds) - k:]
        del seeds[len(seeds) - k:]
        into.extend(moved)
        self._changed(place, time_ms, -sum(moved), -k)

    def _add(self, place: int, k: int, time_ms: int) -> None:
        """Move the last `k` seeds of the hand into `place`; the sensors see them land at
        `time_ms`."""
        hand = self.hand
        moved = hand[len(hand) - k:]
        del hand[len(hand) - k:]
        self.places[place].extend(moved)
        self._changed(place, time_ms, sum(moved), k)

    def _changed(self, place: int, time_ms: int, mass_g: float, count: int) -> None:
        # Sum afresh rather than add `mass_g`: a long game of small float additions would leave
        # an empty pit weighing a few nanograms.
        self._mass_g[place] = sum(self.places[place])
        self._pending.append(_Transfer(time_ms, place, mass_g, count))

    def _settle(self) -> int:
        """Forget changes the clock has passed (they are in `_mass_g` already); returns now.
        Transfers are appended in time order, because visits never overlap."""
        now = self.clock.now_ms
        pending = self._pending
        while pending and pending[0].time_ms <= now:
            pending.popleft()
        return now

    def _log(self, kind: str, place: int, to_place: int | None, seeds: int,
             first: HandVisit, last: HandVisit) -> Action:
        action = Action(kind, place, to_place, seeds, first.start_ms, last.end_ms)
        self.actions.append(action)
        return action

    def _check_place(self, place: int, name: str) -> None:
        if isinstance(place, bool) or not isinstance(place, int) or not (
                0 <= place < self.place_count):
            raise BoardError("%s must be a place 0..%d (pits 0..%d, stores %d and %d), not %r" % (
                name, self.place_count - 1, self.size - 1, self.south_store, self.north_store,
                place))

    def _check_seeds(self, k: int) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise BoardError("the number of seeds must be a whole number >= 1, not %r" % (k,))

    def _check_counts(self, counts: Sequence[int]) -> list[int]:
        counts = list(counts)
        if len(counts) == self.size:
            counts += [0, 0]                    # empty stores
        if len(counts) != self.place_count:
            raise ValueError("counts: %d values; a board with %d pits per row needs %d (pits) "
                             "or %d (pits and stores)" % (len(counts), self.n, self.size,
                                                          self.place_count))
        for i, count in enumerate(counts):
            _check_whole(count, "counts[%d]" % i, 0)
        return counts

    def __repr__(self) -> str:
        return "PhysicalBoard(n=%d, counts=%r, hand=%d)" % (self.n, self.counts(), len(self.hand))


def _middle(visit: HandVisit) -> int:
    return (visit.start_ms + visit.end_ms) // 2


def _check_whole(value: int, name: str, least: int) -> None:
    """A ValueError unless `value` is a whole number (not a bool) >= `least`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError("%s must be a whole number >= %d, not %r" % (name, least, value))


# A quick player's hands: they sow about six seeds a second (a careful one four, the defaults).
QUICK = Durations(lift_ms=250, drop_ms=120, take_ms=150, put_ms=120, move_grab_ms=150,
                  move_release_ms=80, knock_ms=100, travel_ms=60)
