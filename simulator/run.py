"""Whole games on the simulated board: players who see only the LEDs, real sensing and the
guide in between, on a simulated clock (host-only).

    result = play_game("layli-goobalay", seed=1, mistakes=0.05)
    result.completed, result.board_matches_engine, result.mistakes_made, ...

The board is a real board's: a board profile (`board_profile`: by default the shipped one of the
game's size) gives the seeds (their mass and mass spread) and, through its noise budget, each load
cell's counts per gram and noise (`LoadCells.from_budget`: a pit's 1 kg cell, a store's 5 kg).

Counting mode: the hand's work goes onto the physical board, the load cells weigh it with noise,
drift and spikes through datasheet HX711 models read as the Pico firmware reads them (a frame
every ~10.7 ms, a reading it cannot vouch for missing), `controller.sensing.CountingSensor`
turns the frames into counts, and the session (engine, guide, journal) turns counts into the
LED frame the players read. Activity mode: the digital pit sensors are polled and debounced by
`controller.sensing.ActivitySensor`, and each activation is a touch for the guide.

A player acts when the hand is free, after a reaction time, and — like a person waiting for the
light to move on — only once the LEDs have changed since their last action (or after a while).

With `faults` (per simulated hour), load cells break at random moments: stuck at the reading
they had (a hung converter), railed (a broken wire), far out of range, or reading below empty (a
cell pushed up, a store reading negative), each for a random time until someone reseats it. The
guide must show the fault on that place, and the players carry on, confirming by hand each step
that needs the broken place.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from controller.errors import UsageError
from controller.guide import OVER, SKIP
from controller.guide.events import HAND_OVER, SENSOR_FAULT, SKIP_OFFERED, STEP_DONE
from controller.guide.frame import BROKEN, DARK, FLASH, MORE, LESS, OFF
from controller.hardware.noise import noise_budget, problems as noise_problems
from controller.hardware.problems import ProfileError
from controller.hardware.profile import Profile, load, shipped
from controller.rules import Game
from controller.sensing import CountingSensor
from controller.sensing.activity import ActivitySensor
from controller.session import MemoryStorage, Session
from controller.session.loop import BoardLoop
from simulator.board import PhysicalBoard
from simulator.clock import SimClock
from simulator.players import LedPlayer
from simulator.sensors import (DigitalSensors, LoadCells, FAULT_STUCK, FAULT_OFFSET,
                               FAULT_OUT_OF_RANGE, RAW_MAX)

MISTAKE_PATTERNS = (FLASH, MORE, LESS)
REACTION_MS = 200          # from seeing the LEDs change to the hand moving
PATIENCE_MS = 1000         # how long a player waits for the LEDs to react (a sensor settles in
                           # about 0.25 s) before acting on what they show
STEP_MS = 50               # how often the loop lets the players look
TOUCH_MS = 300             # a touch outside the script
GAME_LIMIT_MS = 6 * 3600 * 1000
FAULT_MS = (20000, 90000)  # how long a broken cell stays broken before someone reseats it


@dataclass
class GameResult:
    completed: bool = False
    board_matches_engine: bool = False
    mistakes_made: int = 0
    mistakes_flagged: int = 0
    false_alarms: int = 0
    skip_aheads: int = 0
    hands: int = 0                  # a match's hands played
    hands_matching: int = 0         # ... whose board ended equal to the engine's
    faults_injected: int = 0
    faults_flagged: int = 0
    sim_ms: int = 0
    record: str = ""
    events: list = field(default_factory=list)


class _Watcher:
    """Keeps the score of mistakes: each one made must show on the LEDs before the guide accepts
    another step; a mistake shown while the real board is one the script allows is a false
    alarm."""

    def __init__(self, result: GameResult) -> None:
        self.result = result
        self.pending = False
        self.showing: dict[int, str] = {}       # place -> the mistake pattern it shows

    def made(self) -> None:
        self.result.mistakes_made += 1
        self.pending = True

    def saw(self, guide, events, truth: list[int], hand_empty: bool) -> None:
        frame = guide.frame
        shows = {p: frame.pattern(p) for p in range(guide.size)
                 if frame.pattern(p) in MISTAKE_PATTERNS}
        # a new mistake shows as a place that starts flashing or joins the difference view
        # (another may be on show already: a mistake made while one is put right)
        if any(self.showing.get(p) != pattern for p, pattern in shows.items()):
            if self.pending:
                self.result.mistakes_flagged += 1
                self.pending = False
            elif guide.consistent(truth) and guide.phase != SKIP:
                self.result.false_alarms += 1
        self.showing = shows
        if self.pending and any(event[0] == STEP_DONE for event in events):
            self.pending = False        # a step accepted with the mistake unshown: missed


class FaultPlan:
    """Breaks load cells at random moments (`per_hour` on average, one at a time) and mends each
    after FAULT_MS; counts the faults the guide showed (a "fault" event on that place while it
    lasted)."""

    KINDS = ("hung", "railed", FAULT_OUT_OF_RANGE, "negative")

    def __init__(self, cells: LoadCells, board: PhysicalBoard, per_hour: float,
                 rng: random.Random, result: GameResult) -> None:
        self.cells = cells
        self.board = board
        self.rng = rng
        self.mean_gap_ms = 3600000 / per_hour
        self.result = result
        self.current = None             # (channel, until_ms, flagged)
        self.next_ms = self._gap()

    def _gap(self) -> float:
        return self.rng.expovariate(1 / self.mean_gap_ms)

    def step(self, now_ms: int, events: list) -> None:
        if self.current is not None:
            channel, until, flagged = self.current
            if any(e[0] == SENSOR_FAULT and e[1] == channel for e in events):
                flagged = True
            self.current = (channel, until, flagged)
            if now_ms >= until:
                self.cells.clear_fault(channel)
                self.result.faults_flagged += flagged
                self.current = None
                self.next_ms = now_ms + self._gap()
        elif now_ms >= self.next_ms:
            self._break(now_ms)

    def _break(self, now_ms: int) -> None:
        cells, rng = self.cells, self.rng
        channel = rng.randrange(cells.channels)
        kind = rng.choice(self.KINDS)
        if kind == "hung":              # the converter stops at what it read last
            cells.inject_fault(channel, FAULT_STUCK, cells.sample()[channel])
        elif kind == "railed":
            cells.inject_fault(channel, FAULT_STUCK, RAW_MAX)
        elif kind == "negative":        # below empty whatever the place holds
            cells.inject_fault(channel, FAULT_OFFSET, -(sum(self.board.counts()) + 5))
        else:
            cells.inject_fault(channel, kind)
        self.result.faults_injected += 1
        self.current = (channel, now_ms + rng.uniform(*FAULT_MS), False)


class Hands:
    """A player's hands at the board: they look at the LEDs when free and after a reaction time,
    act once the LEDs have changed since their last action (or a while has passed), and carry
    the action out on the physical board."""

    def __init__(self, player: LedPlayer, board: PhysicalBoard,
                 confirm: Callable[[], object] | None = None,
                 patience_ms: int = PATIENCE_MS) -> None:
        self.player = player
        self.patience_ms = patience_ms      # LEDs unchanged this long: the step was missed
        self.board = board
        self.confirm = confirm              # the confirm button (None: the board has none)
        self.next_look = 0
        self.seen_frame = None
        self.waited_since = 0

    def turn(self, frame) -> bool:
        """Act on `frame` if it is time; True when the action was a mistake."""
        board = self.board
        now = board.clock.now_ms
        if not board.idle or now < self.next_look:
            return False
        view = _guidance(frame)
        if view == self.seen_frame and now - self.waited_since < self.patience_ms:
            return False
        player = self.player
        made = len(player.mistakes)
        player.hand = len(board.hand)
        action = player.next_action(frame, board.counts())
        if action[0] == "wait":
            self.next_look = now + REACTION_MS
            return False
        if action[0] == "confirm":
            if self.confirm is None:
                raise ValueError("the player pressed confirm on a board without the button")
            self.confirm()
        else:
            _perform(action, board)
        player.hand = len(board.hand)
        self.seen_frame = view
        self.waited_since = now
        self.next_look = board.busy_until_ms + REACTION_MS
        return len(player.mistakes) > made


def _guidance(frame) -> list:
    """What of `frame` tells a player that their action was seen: every place but those that
    only show a broken sensor (one breaking says nothing about the seed just dropped)."""
    return [place if place[1] != BROKEN else (OFF, DARK) for place in frame.places]


def board_profile(pits: int, sensing: str = "counting", name: str | None = None) -> Profile:
    """The profile of the board a game of `pits` pits a row is played on: `name` (a shipped
    profile or a .toml file), or else the shipped board of the smallest size that has that many
    pits, pico-bridge for counting sensing, pi-direct for activity. A UsageError (exit 2) for a
    board too small or one that cannot sense that way, and a ProfileError for one whose places
    cannot count its seeds (its calibration would refuse it, as a real board's would).

        >>> board_profile(6).name, board_profile(8).name, board_profile(7, "activity").name
        ('pico-bridge-2x6', 'pico-bridge-2x12', 'pi-direct-2x7')
    """
    if name is None:
        kind = "pico-bridge" if sensing == "counting" else "pi-direct"
        boards = [load(shipped_name) for shipped_name in shipped()
                  if shipped_name.startswith(kind + "-")]
        fitting = [profile for profile in boards if profile.pits >= pits]
        if not fitting:
            raise UsageError("no shipped board has %d pits a row" % pits)
        return min(fitting, key=lambda profile: profile.pits)
    profile = load(name)
    if profile.pits < pits:
        raise UsageError("the %s board has %d pits a row; the game needs %d" % (
            profile.name, profile.pits, pits))
    if sensing == "counting" and profile.sensors.kind != "load-cell":
        raise UsageError("the %s board has %s sensors, which cannot count: give a load-cell "
                         "board, or --sensing activity" % (profile.name, profile.sensors.kind))
    if sensing == "counting":
        problems = noise_problems(profile)
        if problems:
            raise ProfileError(problems)
    return profile


def play_game(variant: str = "layli-goobalay", seed: int = 0, mistakes: float = 0.0,
              sensing: str = "counting", options: dict | None = None,
              skip: bool = True, recording: dict | None = None,
              faults: float = 0.0, match: bool = False,
              profile: Profile | None = None) -> GameResult:
    """One game from the standard start to the collection, on the simulated board of
    `profile` (by default `board_profile`'s for the game's size and `sensing`). With a
    `recording` dict, the calibration and every sensor frame are kept in it (benchmarks replay
    them); with `faults`, load cells break that many times an hour (counting mode). With
    `match`, a whole match of hands (counting mode: docs/rules.md 2.1): at each hand's end the
    players set the next one up as the LEDs lead them, and `hands` and `hands_matching` say how
    many were played and how many ended with the board equal to the engine's."""
    rng = random.Random(seed)
    clock = SimClock()
    game = Game(variant, options)
    n = game.rules.n
    if profile is None:
        profile = board_profile(n, sensing)
    seeds = noise_budget(profile)
    board = PhysicalBoard(n, game.setup, rng, seeds.seed.mass_g, seeds.seed.mass_cv, clock=clock)
    session = Session(MemoryStorage(), variant, options, mode=sensing, match=match)
    # the players' own generator, apart from the sensors' noise
    player = LedPlayer(n, random.Random(seed * 31 + 17), mistakes, sensing)
    result = GameResult()
    watcher = _Watcher(result)
    if sensing == "counting":
        cells = LoadCells.from_budget(board, clock, rng, seeds)
        calibration = cells.calibration()
        sensor: CountingSensor | ActivitySensor = CountingSensor(calibration,
                                                                 max_count=sum(game.setup))
        if recording is not None:
            recording["calibration"] = calibration
            recording["frames"] = []
        frames = _recorded(cells.frames, None if recording is None else recording["frames"])
    else:
        frames = DigitalSensors(board, clock, rng).frames
        sensor = ActivitySensor(2 * n)
    # the board's loop, as every board's controller drives it
    loop = BoardLoop(session, sensor)
    read = _reader(frames, loop)
    hands = Hands(player, board, loop.confirm)
    plan = None
    if faults and sensing == "counting":
        # its own generator: the same game with and without faults plays the same moves
        plan = FaultPlan(cells, board, faults, random.Random(seed * 7 + 3), result)
    def over() -> bool:
        return session.match.over if session.match is not None else \
            session.guide.phase == OVER

    while not over() and clock.now_ms < GAME_LIMIT_MS:
        events = read(clock.now_ms + STEP_MS)
        if any(event[0] == HAND_OVER for event in events):
            _hand_over(session, board, result)
        if plan is not None:
            plan.step(clock.now_ms, events)
        watcher.saw(session.guide, events, board.counts(), not board.hand)
        result.events.extend(events)
        if any(event[0] == SKIP_OFFERED for event in events) and skip:
            # the players press CONFIRM, which takes the offer
            if loop.confirm():
                result.skip_aheads += 1
        if hands.turn(session.frame):     # (a match's set-up, between hands, or the guide's)
            watcher.made()
    # let the last seeds land and settle
    events = read(clock.now_ms + 1000)
    result.events.extend(events)
    if plan is not None and plan.current is not None:
        plan.step(plan.current[1], events)     # mended after the game: still counted
    result.completed = over()
    final = session.guide.board.places()
    result.board_matches_engine = result.completed and board.counts() == final and \
        final[-2:] == session.game.scores
    result.sim_ms = clock.now_ms
    from controller.rules.record import write_game
    result.record = write_game(session.game)
    return result


def _hand_over(session: Session, board: PhysicalBoard, result: GameResult) -> None:
    """A match's hand has just ended (its guide still the session's): counted, and whether
    the seeds on the board are where the engine has them (the pits empty, each store what
    its player now holds: the hand's score and any seeds held aside through it)."""
    final = session.guide.board.places()
    result.hands += 1
    holdings = session.match.holdings if session.match is not None else None
    if board.counts() == final and final[-2:] == holdings:
        result.hands_matching += 1


def _recorded(frames: Callable[[int], Iterable], kept: list | None) -> Callable[[int], Iterable]:
    """`frames` (the sensors' frames up to a time), each also kept in `kept` if given."""
    if kept is None:
        return frames

    def recorded(until_ms: int) -> Iterable:
        for frame in frames(until_ms):
            kept.append((frame.time_ms, frame.values))
            yield frame
    return recorded


def _reader(frames: Callable[[int], Iterable], loop: BoardLoop) -> Callable[[int], list]:
    """read(until_ms): the sensors' frames up to then through the board's loop; the events
    they made."""
    def read(until_ms: int) -> list:
        events: list = []
        for frame in frames(until_ms):
            loop.feed(frame.time_ms, frame.values)
            events.extend(loop.react())
        return events
    return read


def _perform(action: tuple, board: PhysicalBoard) -> None:
    """An action of `simulator.players` done by the hand on the physical board."""
    kind = action[0]
    if kind == "lift":
        board.lift(action[1])
    elif kind == "drop":
        board.drop(action[1], min(action[2], len(board.hand)))
    elif kind == "take":
        board.take(action[1], action[2])
    elif kind == "put":
        board.put(action[1], action[2])
    elif kind == "move":
        board.move(action[1], action[2], action[3])
    elif kind == "knock":
        board.drop(action[1])
        board.knock(action[1], action[2])
    elif kind == "touch":
        board.touch(action[1], TOUCH_MS)
    else:
        raise ValueError("unknown action %r" % (action,))


def run(variant: str, games: int, mistakes: float, seed: int, sensing: str = "counting",
        options: dict | None = None, faults: float = 0.0, match: bool = False,
        profile: Profile | None = None) -> dict:
    """`layli sim`'s report over `games` games (seeds seed, seed+1, ...) on `profile`'s board
    (`board_profile`'s by default); with `faults`, two more keys: faults_injected and
    faults_flagged. With `match`, `games` whole matches of hands, reported as MATCH_KEYS say."""
    start = time.perf_counter()
    if profile is None:
        profile = board_profile(Game(variant, options).rules.n, sensing)
    results = [play_game(variant, seed + k, mistakes, sensing, options, faults=faults,
                         match=match, profile=profile)
               for k in range(games)]
    wall = time.perf_counter() - start
    played = max(games, 1)
    report = {
        "games": games,
        "completed": sum(r.completed for r in results),
        "board_matches_engine": sum(r.board_matches_engine for r in results),
        "mistakes_made": sum(r.mistakes_made for r in results),
        "mistakes_flagged": sum(r.mistakes_flagged for r in results),
        "false_alarms": sum(r.false_alarms for r in results),
        "skip_aheads": sum(r.skip_aheads for r in results),
        "sim_seconds_per_game": round(sum(r.sim_ms for r in results) / 1000 / played, 1),
        "wall_seconds": round(wall, 2),
    }
    if match:
        report.update({
            "matches": games,
            "matches_completed": report["completed"],
            "hands": sum(r.hands for r in results),
            # a match's hands whose board ended equal to the engine's
            "board_matches_engine": sum(r.hands_matching for r in results),
            "sim_seconds_per_match": report["sim_seconds_per_game"],
        })
    if faults:
        report["faults_injected"] = sum(r.faults_injected for r in results)
        report["faults_flagged"] = sum(r.faults_flagged for r in results)
    return report
