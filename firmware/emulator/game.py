"""A game on the emulated Pico, in bridge or standalone mode, with players who read only its
LED strip (host-only).

    LAYLI_PICO_KIT=/path/to/kit python firmware/emulator/game.py [--mode bridge|standalone]
        [--moves N] [--seed K] [--mistakes RATE] [--quick] [--power-cut]
        [--flash-in IMAGE] [--flash-out IMAGE] [--unplug MOVES:PLACE] [--json]

The firmware goes onto the emulated Pico (real MicroPython 1.27 on rp2040js, the board's
HX711s, LED strip, buttons and buzzer on its pins as datasheet models: README.md beside this
file) the way a maker installs it, `layli firmware deploy CONFIG --port ... --mpy` (mpremote),
and boots from main.py. The board is a `simulator.board.PhysicalBoard` whose load cells
(`simulator.sensors.LoadCells`) set what the emulated HX711s convert. The players
(`simulator.players.LedPlayer`) know nothing but what the emulated WS2812B strip shows:
`StripReader` reads each place's colour and rhythm off the LEDs of its ring, frame after
frame, as a person learns them from the legend (`controller.guide.pixels`), and they lift,
sow, capture, move an Uur's seed, make mistakes at `--mistakes` a step and put them right,
and press the board's confirm button (an emulated button).

- Bridge mode (pico-bridge-2x6): the host is the project's own, `controller.board.runner.Runner`
  over `controller.drivers.pico.PicoBridge` on the emulator's serial port; the Pico tells it
  of the confirm button.
- Standalone mode (pico-standalone-2x6, `--mode standalone`): the whole controller runs on
  the Pico, deployed with the load cells' calibration (`--calibration`). The players also
  hear its buzzer (`Ears`: a chirp for each move done, a buzz for a mistake). At the end the
  Pico is powered up again with CONFIRM held (safe mode) and its journal.jsonl read off the
  flash and replayed on the host's rules engine, which the board must equal. `--power-cut`
  cuts its power after the first seed of the game is sown: it resumes from its journal.

The emulator is paused and moved on TURN_MS at a time: each turn the load cells' signal goes
to the HX711 models, the Pico runs, (in bridge mode) the host reads what came over the serial
line and sends what the LEDs must show, the players look at the strip. Nothing waits on the
wall clock, so a loaded machine gives the same game, only slower (the emulator runs about 4
times slower than real time with the bridge at work, 7.5 times in standalone mode, where the
emulated CPU is busy 87% of the time).

It prints the moves played, the relay's laps and the kinds of step the game had (drop, pick,
capture, uur), the mistakes made and flagged, whether the board ended equal to the engine,
how often the players could not yet read a place's pattern, and the emulated and wall time;
every 5 emulated seconds a line on stderr says where it is. `--moves 0` plays the game to its
end; `--quick` gives the players quick hands (the tests'). Without `--flash-in` it deploys
first (1-3 minutes).
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import subprocess
import sys
import time
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from typing import Callable

from controller.drivers.pico import PicoBridge
from controller.drivers.serial_link import SerialLink
from controller.guide.events import CONFIRMED, MISTAKE, SENSOR_FAULT
from controller.guide.frame import COLOURS, DARK, DROP, FLASH, LESS, MORE, OFF, PATTERNS, Frame
from controller.guide.guide import AWAIT, OVER, SOWING
from controller.guide.pixels import PALETTE, level
from controller.session.loop import SOUNDS, Sound
from controller.hardware.firmware import firmware_config
from controller.hardware.profile import load
from controller.rules import Game, Step
from controller.board.runner import Runner
from controller.sensing import Calibration
from controller.session import MemoryStorage, Session, SYNC_MOVE
from simulator.board import QUICK, Durations, PhysicalBoard
from simulator.clock import SimClock
from simulator.players import LedPlayer
from simulator.run import Hands
from simulator.sensors import LoadCells

HERE = Path(__file__).resolve().parent
JOURNAL = "journal.jsonl"   # a standalone Pico's journal (firmware/standalone.py)
CALIBRATION = "calibration.json"    # its calibration, saved again at each completed move
FIRMWARE = HERE.parent
PROFILE = "pico-bridge-2x6"
VARIANT = "layli-goobalay"
TURN_MS = 10                # the emulator runs this long between two looks of the host's
PRESS_MS = 120              # how long a finger stays on the confirm button
SETTLE_MS = 1500            # after the last move: the seeds land, the sensing settles
RENDER_WINDOW_MS = 30       # a strip frame starts this long at most after the Pico's render
                            # time (its `ticks_ms` then; the packing, the DMA's start, a
                            # garbage collection of 25 ms between them)
STILL_MS = 40               # the Pico draws its frame this often (firmware/bridge.py
                            # RENDER_MS): a strip unchanged this long is looked at again
PATIENCE_MS = 3000          # the LEDs unchanged this long after a step: do it again
SURE_MS = 150               # a reading holds this long before the players go by it
LIMIT_MS = 20 * 60 * 1000   # of emulated time: a game that takes longer is stuck
BOOT_LIMIT_MS = 60_000      # from power-on to the readings flowing
WARM_UP_READINGS = 30       # readings before the game starts (the first are untrusted)
# the run's randomness (the board's, the load cells', the players'): with quick hands its
# first two moves have relays of several laps, a capture and a mistake put right (the test)
SEED = 3


def _emulated():
    spec = spec_from_file_location("layli_emulated", HERE / "emulated.py")
    module = module_from_spec(spec)
    sys.modules.setdefault("layli_emulated", module)
    spec.loader.exec_module(module)
    return module


# (colour, pattern) pairs a place may show: off is dark, and a dark pattern is off
CANDIDATES = [(OFF, DARK)] + [(colour, pattern) for colour in COLOURS if colour != OFF
                              for pattern in PATTERNS if pattern != DARK]


class StripReader:
    """What a player reads off the strip: each place's colour and pattern.

    A place's ring shows one colour at a strength that its pattern sets over time
    (`controller.guide.pixels.level`, scaled by the profile's brightness). One look gives a
    colour and a strength at a known moment, which several patterns may have then; each
    further look keeps the (colour, pattern) pairs that fit every look since the place last
    changed. When none fits any more, the place changed: the pairs that fit this look are
    the new start. A place is read once one pair is left, or as dark while dark fits (a
    person takes a dark ring for "nothing here"; a blink's first light changes the reading).
    The frame's render time is the Pico's `ticks_ms`, its uptime, which is the emulator's
    time since power-on; the LEDs latch a few ms after it (RENDER_WINDOW_MS). A strip that
    stays still is looked at again (AtTheBoard): the Pico writes only a drawing that changed.

    The strip must not be at the profile's current cap (then every colour is scaled down):
    at brightness 64 a whole 2 x 6 board lit draws about 1 A, under pico-bridge-2x6's 2 A."""

    def __init__(self, leds: list[list[int]], brightness: int) -> None:
        self.leds = leds
        self.brightness = brightness
        self.possible: list[set] = [set() for _ in leds]
        self.looks = 0
        self.torn = 0               # looks at a ring whose LEDs differ (a wiring or order bug)
        self.unknown = 0            # looks at a colour no pair gives (a renderer bug)
        # what (r, g, b) each colour shows at each strength
        self._shows: dict[tuple[int, int, int], set] = {}
        for colour in COLOURS:
            r, g, b = PALETTE[colour]
            for strength in range(brightness + 1):
                rgb = (r * strength >> 8, g * strength >> 8, b * strength >> 8)
                self._shows.setdefault(rgb, set()).add((colour, strength))

    def _strengths(self, t_ms: int, window_ms: int) -> dict[str, set]:
        """The strengths each pattern has at some moment of the `window_ms` before `t_ms`."""
        window = range(max(0, t_ms - window_ms), t_ms + 1)
        brightness = self.brightness
        return {pattern: {level(pattern, t) * brightness // 256 for t in window}
                for pattern in PATTERNS}

    def look(self, pixels: list, shown_ms: int, window_ms: int = RENDER_WINDOW_MS) -> None:
        """The strip shows `pixels` at `shown_ms` (the Pico's clock), rendered at some moment
        of the `window_ms` before."""
        self.looks += 1
        strengths = self._strengths(shown_ms, window_ms)
        for place, leds in enumerate(self.leds):
            ring = {tuple(pixels[i]) for i in leds}
            if len(ring) != 1:
                self.torn += 1
            shows = self._shows.get(min(ring), set())
            if not shows:
                self.unknown += 1
            fits = {(colour, pattern) for colour, pattern in CANDIDATES
                    if any((colour, s) in shows for s in strengths[pattern])}
            kept = self.possible[place] & fits
            self.possible[place] = kept if kept else fits

    def forget(self) -> None:
        """The strip went dark (its power was cut): nothing seen before holds."""
        self.possible = [set() for _ in self.leds]

    def frame(self) -> Frame | None:
        """The frame the strip says, or None while some place's pattern is not yet clear."""
        frame = Frame(len(self.leds))
        for place, possible in enumerate(self.possible):
            reading = _reading(possible)
            if reading is None:
                return None
            frame.set(place, *reading)
        return frame


def _reading(possible: set) -> tuple[str, str] | None:
    """What a player takes a ring to say from the pairs that fit what it showed: the one pair
    left; else a ring that stayed dark says nothing, as a person takes it at a glance (the
    first light of a blink changes the reading); else not yet clear."""
    if len(possible) == 1:
        return next(iter(possible))
    return (OFF, DARK) if (OFF, DARK) in possible else None


class Eyes:
    """The players' look at the emulated strip, turn after turn: what the Pico's latest
    drawing says (StripReader), read once it has held SURE_MS. `read_frame` is what they go
    by; `look()` is True when it changed."""

    def __init__(self, pico, reader: StripReader, clock: SimClock, base_ms: float) -> None:
        self.pico, self.reader, self.clock = pico, reader, clock
        self.base_ms = base_ms      # the Pico's clock when `clock` read 0
        self.still_since = 0.0
        self.candidate = None       # what the strip reads as now, and since when
        self.candidate_since = 0.0
        self.seen = None            # the strip frame last looked at
        self.read_frame: Frame | None = None
        self.unclear = 0            # looks after which some place was not yet clear
        self.frames_read = 0

    def went_dark(self, base_ms: float) -> None:
        """The board's power was cut: every LED went out at once, as the players see, and
        the Pico's clock starts again (`base_ms` is now its time when `clock` read 0)."""
        self.base_ms = base_ms
        self.seen = self.candidate = None
        self.reader.forget()
        self.read_frame = Frame(len(self.reader.leds))
        self.still_since = base_ms + self.clock.now_ms

    def look(self) -> bool:
        strip = self.pico.strip()
        shown = strip["frame"]
        now = self.base_ms + self.clock.now_ms
        looked = False
        if shown is not None and shown["index"] != self.seen:
            self.seen = shown["index"]
            self.reader.look(strip["pixels"], int(shown["start_ns"] // 1_000_000))
            self.still_since = now
            looked = True
        elif shown is not None and now - self.still_since >= STILL_MS:
            # the Pico draws its frame every RENDER_MS and writes the strip only when that
            # changes it: a strip still since then showed the same at the latest drawing
            self.reader.look(strip["pixels"], int(now), STILL_MS + RENDER_WINDOW_MS)
            looked = True
        if looked:
            decoded = self.reader.frame()
            if decoded is None:
                # not clear any more: what it read as before no longer holds (the look
                # before may have fitted a place's old and new meaning at once: a ring
                # that was dark and lights fits "short blips" until a look says "steady")
                self.unclear += 1
                self.candidate = None
            elif decoded != self.candidate:
                self.candidate, self.candidate_since = decoded, now
        if self.candidate is not None and self.candidate != self.read_frame \
                and now - self.candidate_since >= SURE_MS:
            # one look can match a place's old meaning for a moment after it changed (a
            # pulse at its top looks steady): the players go by what has held a while
            self.read_frame = self.candidate
            self.frames_read += 1
            return True
        return False


class Finger:
    """A finger on the board's buttons: a press lasts PRESS_MS."""

    def __init__(self, pico, clock: SimClock) -> None:
        self.pico, self.clock = pico, clock
        self.holding: str | None = None
        self.release_at = 0.0

    def press(self, button: str) -> None:
        self.pico.press(button)
        self.holding, self.release_at = button, self.clock.now_ms + PRESS_MS

    def turn(self) -> None:
        if self.holding is not None and self.clock.now_ms >= self.release_at:
            self.pico.release(self.holding)
            self.holding = None


class AtTheBoard:
    """The host's board IO (PicoBridge), with the players looking at the emulated strip and
    pressing its buttons."""

    def __init__(self, bridge: PicoBridge, eyes: Eyes, finger: Finger, hands: Hands) -> None:
        self.bridge, self.eyes, self.finger, self.hands = bridge, eyes, finger, hands
        self.mismatched = 0         # frames read that the host never sent (a misreading)
        # the host's latest frames (the strip lags them), after the dark the strip powers up in
        self.sent: list[Frame] = [Frame(len(eyes.reader.leds))]
        self.players_at_work = True

    def read(self):
        return self.bridge.read()

    def show(self, frame, pixels) -> None:
        self.bridge.show(frame, pixels)
        if not self.sent or frame != self.sent[-1]:
            self.sent = self.sent[-15:] + [_copy(frame)]
        eyes = self.eyes
        if eyes.look() and eyes.read_frame not in self.sent:
            self.mismatched += 1
        if eyes.read_frame is not None and self.players_at_work:
            self.hands.turn(eyes.read_frame)
        self.finger.turn()

    def beep(self, name: str) -> None:
        self.bridge.beep(name)

    def close(self) -> None:
        self.bridge.close()


def _copy(frame: Frame) -> Frame:
    copy = Frame(len(frame.places))
    copy.places = list(frame.places)
    return copy


def deploy(pico, folder: Path, profile: str = PROFILE, variant: str = VARIANT,
           calibration: str | None = None, *options: str) -> None:
    """Install the firmware as a maker does (`layli firmware deploy CONFIG --port ... --mpy`,
    with `--calibration` when `calibration`, a calibration.json's text, is given) and power
    the Pico up again on it (mpremote's closing reset is machine.reset(), at which the
    emulator stops: a power cycle, the flash kept, does what it would). `options` go to
    the deploy too."""
    config = folder / "config.json"
    config.write_text(json.dumps(firmware_config(load(profile), variant)), encoding="utf-8")
    command = [sys.executable, "-m", "controller", "firmware", "deploy", str(config),
               "--port", pico.serial_url, "--mpy", *options]
    if calibration is not None:
        (folder / "calibration.json").write_text(calibration, encoding="utf-8")
        command += ["--calibration", str(folder / "calibration.json")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError("layli firmware deploy failed:\n" + done.stdout + done.stderr)
    if not pico.command("pico")["stopped"]:
        raise RuntimeError("the deploy did not end with a reset")
    pico.power_cycle()


def table(seed: int = SEED, variant: str = VARIANT, durations: Durations | None = None
          ) -> tuple[SimClock, Game, PhysicalBoard, LoadCells]:
    """The run's board: its clock, the game, the seeds in their pits and the load cells under
    them, drawn from `seed` (the same seed, the same board: its load cells' calibration, put
    onto a standalone Pico before the game, is `table(seed)[3].calibration()`)."""
    rng = random.Random(seed)
    clock = SimClock()
    game = Game(variant)
    board = PhysicalBoard(game.rules.n, game.setup, rng, clock=clock, durations=durations)
    return clock, game, board, LoadCells(board, clock, rng)


def play(pico, moves: int = 6, seed: int = SEED, mistakes: float = 0.05,
         profile_name: str = PROFILE, variant: str = VARIANT,
         durations: Durations | None = None,
         progress: Callable[[str], None] | None = None,
         unplug: tuple[int, int] | None = None) -> dict:
    """Play on `pico` (an EmulatedPico booted into the bridge); what happened, as a dict.
    `durations`: how long the players' hands take (default: a careful, unhurried player;
    QUICK: a quick one). `progress` is told each move as it is made, and every 5 emulated
    seconds where the game is, in a line. `unplug` = (moves, place): that place's load cell
    comes unplugged once that many moves are done (its faults shown, the players confirm
    its steps by hand), and from then on the players make no mistakes (one in the unseen
    pit could not be flagged: they would be the board's, not the guide's)."""
    started = time.perf_counter()
    profile = load(profile_name)
    layout = profile.led_layout()
    pico.set_mode("paused")
    clock, game, board, cells = table(seed, variant, durations)
    inputs = cells.inputs()
    pico.set_cells(inputs)
    base_ms = pico.now_ms()
    bridge = PicoBridge(pico.serial_url, profile.name, profile.places,
                        now_ms=lambda: clock.now_ms,
                        serial=SerialLink(pico.serial_url, timeout=0, retry_s=0.005,
                                          max_retry_s=0.02))
    session = Session(MemoryStorage(), variant)
    player = LedPlayer(game.rules.n, random.Random(seed * 31 + 17), mistakes)
    finger = Finger(pico, clock)
    hands = Hands(player, board, lambda: finger.press("confirm"), PATIENCE_MS)
    eyes = Eyes(pico, StripReader(layout.leds, layout.brightness), clock, base_ms)
    io = AtTheBoard(bridge, eyes, finger, hands)
    runner = Runner(io, session, layout, "counting", cells.calibration(),
                    now_ms=lambda: clock.now_ms, max_count=sum(game.setup))
    kinds: set[str] = set()
    laps = 0
    told = 0
    next_heartbeat = 0
    showing = None                  # the mistake the guide shows
    put_right = 0                   # mistakes shown that went away: the board agrees again

    unplugged_at = None

    def turn() -> None:
        nonlocal inputs, unplugged_at
        if unplug is not None and unplugged_at is None and len(session.game.moves) >= unplug[0]:
            pico.unplug(unplug[1])
            unplugged_at = clock.now_ms
            player.rate = 0.0
        if list(cells.frames(clock.now_ms + TURN_MS)) and cells.inputs() != inputs:
            inputs = cells.inputs()
            pico.set_cells(inputs)
        pico.run_ms(TURN_MS)
        runner.step()

    def done() -> bool:
        guide = session.guide
        if guide.phase == OVER:
            return True
        return bool(moves) and len(session.game.moves) >= moves and guide.phase == AWAIT \
            and board.idle and not board.hand

    bridge.open()
    try:
        # main.py boots (its modules load from flash), says Hello and streams: the host
        # starts once the readings flow and the chips' rhythms are learnt
        flowing = 0
        while bridge.device is None or flowing < WARM_UP_READINGS:
            if clock.now_ms > BOOT_LIMIT_MS:
                raise RuntimeError("the bridge sent %s and %d readings in %d s after power-on"
                                   % ("its Hello" if bridge.device else "no Hello", flowing,
                                      BOOT_LIMIT_MS // 1000))
            list(cells.frames(clock.now_ms + TURN_MS))
            pico.run_ms(TURN_MS)
            flowing += len(bridge.read()[0])
        booted_ms = clock.now_ms
        while not done() and clock.now_ms < LIMIT_MS:
            turn()
            if progress is not None and len(session.game.moves) != told:
                told = len(session.game.moves)
                progress("move %d done at %.1f s emulated, %.0f s wall" % (
                    told, clock.now_ms / 1000, time.perf_counter() - started))
            if progress is not None and clock.now_ms >= next_heartbeat:
                next_heartbeat = clock.now_ms + 5000
                progress("%.1f s emulated, %.0f s wall: %s, %d strip looks, %d frames read, "
                         "%d unclear, link %s" % (
                             clock.now_ms / 1000, time.perf_counter() - started,
                             session.guide.phase, eyes.reader.looks, eyes.frames_read,
                             eyes.unclear, bridge.counters()))
            guide = session.guide
            if guide.mistake is not None:
                showing = guide.mistake
            elif showing is not None:
                showing = None
                put_right += 1
            if guide.phase == SOWING and guide.done < len(guide.script):
                kinds.add(guide.script[guide.done][0])
                laps = max(laps, guide.laps)
        io.players_at_work = False      # the players step back: the board settles
        settle_until = clock.now_ms + SETTLE_MS
        while clock.now_ms < settle_until:
            turn()
        stats = pico.stats()
    finally:
        bridge.close()
    engine = session.guide.board.places()
    events = [event[0] for event in runner.events]
    strip = stats["strip"]
    return {
        "variant": variant, "seed": seed, "mistake_rate": mistakes,
        "moves": len(session.game.moves),
        "over": session.guide.phase == OVER,
        "board_matches_engine": board.counts() == engine,
        "board": board.counts(), "engine": engine,
        "kinds": sorted(kinds), "most_laps": laps,
        "mistakes_made": len(player.mistakes),
        "mistakes_flagged": events.count(MISTAKE),
        "mistakes_put_right": put_right,
        "confirms": events.count(CONFIRMED),
        "faults": [place for kind, place, _why in
                   (event for event in runner.events if event[0] == SENSOR_FAULT)],
        "unplugged_at_s": None if unplugged_at is None else round(unplugged_at / 1000, 1),
        "moves_after_unplug": None if unplugged_at is None else len(session.game.moves) - unplug[0],
        "frames_read": eyes.frames_read, "frames_not_sent": io.mismatched,
        "unclear_looks": eyes.unclear,
        "strip_looks": eyes.reader.looks, "torn_rings": eyes.reader.torn,
        "unknown_colours": eyes.reader.unknown,
        "strip_frames": strip.get("frames"), "strip_errors": strip.get("errors"),
        "cpu_asleep": round(stats["pico"]["idleCycles"] / max(1, stats["pico"]["cycles"]), 3),
        "host_link": bridge.counters(),
        "device": bridge.device.firmware if bridge.device is not None else None,
        "boot_s": round(booted_ms / 1000, 1),
        "emulated_s": round(clock.now_ms / 1000, 1),
        "wall_s": round(time.perf_counter() - started, 1),
    }


# --- standalone mode ------------------------------------------------------------------------

STANDALONE = "pico-standalone-2x6"
LISTEN_TURNS = 5            # the players take in what the buzzer sounded every 50 ms
TONE_SPREAD = 0.03          # a tone within 3% of a tune's note is that note
SAME_TUNE_MS = 200          # tones of one tune this close together are one tune (a rest)
SAFE_BOOT_LIMIT_MS = 30_000     # from power-on to the REPL in safe mode
CUT_AFTER_DROPS = 2         # --power-cut: the power goes after the players read this many
                            # frames asking for a seed to be dropped (the first seed sown)
STANDALONE_PATIENCE_MS = 1500   # a standalone board's LEDs follow a step within about 0.7 s
                            # (the sensing's settle, the drawing, SURE_MS): a step that changed
                            # nothing on them (a seed put back into a pit still short of
                            # seeds) is followed by the next after this


def _tunes() -> dict[str, tuple]:
    """firmware/standalone.py's tunes by the board loop's sound each plays ("move_done",
    "mistake", "offer", "game_over", "fault"): its TUNES, read from its source (it imports
    Pico-only modules), keyed by the names of controller.session.loop's sounds."""
    tree = ast.parse((FIRMWARE / "standalone.py").read_text(encoding="utf-8"))
    tunes = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and node.targets[0].id == "TUNES":
            assert isinstance(node.value, ast.Dict)
            for key, value in zip(node.value.keys, node.value.values):
                assert isinstance(key, ast.Attribute)           # Sound.MOVE_DONE, ...
                tunes[key.attr.lower()] = ast.literal_eval(value)
    if sorted(tunes) != sorted(SOUNDS):
        raise ValueError("firmware/standalone.py's TUNES: %s" % sorted(tunes))
    return tunes


TUNES = _tunes()


class Ears:
    """What the players hear from a standalone board: each tune the buzzer plays (the
    emulated piezo's tones, `EmulatedPico.tones`), named by the event it tells. A tone is a
    tune's when it is within TONE_SPREAD of one of its notes; the notes of one tune follow
    each other within SAME_TUNE_MS."""

    def __init__(self, pico) -> None:
        self.pico = pico
        self.heard: list[str] = []
        self.unknown: list[float] = []      # tones no tune has (a firmware or model bug)
        self._last: tuple[str, float] | None = None      # the tune heard last, its end

    def listen(self) -> None:
        for tone in self.pico.tones():
            name = next((name for name, notes in TUNES.items() for hz, _ in notes
                         if hz and abs(tone["hz"] - hz) <= TONE_SPREAD * hz), None)
            if name is None:
                self.unknown.append(round(tone["hz"]))
                continue
            last = self._last
            if last is None or last[0] != name or tone["start_ms"] - last[1] > SAME_TUNE_MS:
                self.heard.append(name)
            self._last = (name, tone["start_ms"] + tone["ms"])

    def count(self, name: str) -> int:
        return self.heard.count(name)


def _shows_a_mistake(frame: Frame) -> bool:
    """A frame that asks for something to be put right: a flashing place (a seed in the
    wrong pit), or the difference view's too many or too few."""
    return any(pattern in (FLASH, MORE, LESS) for _, pattern in frame.places)


def safe_boot(pico) -> None:
    """Power the Pico up again with CONFIRM held, as a person does to get at a board's files
    (main.py's safe mode starts nothing and leaves the REPL free); on return the emulator
    runs in fast mode and the REPL answers."""
    pico.set_mode("paused")
    pico.power_cycle()
    pico.press("confirm")
    waited = 0
    while not pico.command("pico")["connected"]:
        if waited > SAFE_BOOT_LIMIT_MS:
            raise RuntimeError("the Pico's USB serial port did not come up in %d s"
                               % (SAFE_BOOT_LIMIT_MS // 1000))
        pico.run_ms(100)
        waited += 100
    pico.run_ms(2000)               # main.py sees CONFIRM held and stops
    pico.release("confirm")
    pico.set_mode("fast")


def read_after_safe_boot(pico, names: list[str]) -> dict[str, str | None]:
    """`names` read off the Pico's flash after a safe boot (`safe_boot`): each file's text,
    None when it is not there."""
    safe_boot(pico)
    out = pico.exec("import json\n"
                    "files = {}\n"
                    "for name in %r:\n"
                    "    try:\n"
                    "        with open(name) as handle:\n"
                    "            files[name] = handle.read()\n"
                    "    except OSError:\n"
                    "        files[name] = None\n"
                    "print(json.dumps(files))\n" % (names,), timeout_s=120)
    return json.loads(out.strip().splitlines()[-1])


def reconfigure(pico, folder: Path, profile: str, variant: str = VARIANT,
                calibration: str | None = None) -> None:
    """Give a deployed Pico another board's config (and a calibration) as a maker does: a
    safe boot, then `layli firmware deploy CONFIG --config-only [--calibration FILE]`, which
    copies those two files and resets the Pico."""
    safe_boot(pico)
    pico.disconnect()
    pico.set_mode("realtime")
    deploy(pico, folder, profile, variant, calibration, "--config-only")


def replay(journal: str) -> dict:
    """The game a standalone Pico's journal.jsonl describes, replayed on the host's rules
    engine: the moves, the board after them, each move's kinds of step and relay laps."""
    session = Session.resume(MemoryStorage(journal.splitlines()), SYNC_MOVE)
    played = session.game
    game = Game(played.rules, setup=played.setup, first=played.first)
    kinds: set[str] = set()
    laps = 0
    for move in played.moves:
        script = game.copy().push(move, script=True)
        kinds.update(step[0] for step in script)
        laps = max(laps, sum(step[0] == Step.PICK for step in script))
        game.push(move)
    return {"moves": len(played.moves), "over": played.over,
            "engine": session.guide.board.places(), "kinds": sorted(kinds),
            "most_laps": laps}


class PicoReset(RuntimeError):
    """The standalone Pico reset itself in the game (its watchdog, after a crash or a step
    that took too long): `crash` is the crash.txt it left (None: none, a hang)."""

    def __init__(self, at_s: float, crash: str | None) -> None:
        super().__init__("the standalone Pico reset itself %.1f emulated s into the game (its "
                         "watchdog or machine.reset()); crash.txt: %s" % (
                             at_s, crash.strip() if crash else "none (a hang, not a crash)"))
        self.at_s, self.crash = at_s, crash


def run_turn(pico, clock: SimClock) -> None:
    """Run the Pico TURN_MS on; a reset of its own is a PicoReset with its crash.txt."""
    try:
        pico.run_ms(TURN_MS)
    except Exception:
        if not pico.command("pico").get("stopped"):
            raise
        files = read_after_safe_boot(pico, ["crash.txt"])
        raise PicoReset(clock.now_ms / 1000, files["crash.txt"]) from None


def _calibration_summary(text: str | None, deployed: str) -> dict | None:
    """What the Pico's calibration.json holds at the end: its channels, and whether it was
    written again since the deploy (at each completed move, the drift folded in)."""
    if text is None:
        return None
    return {"channels": Calibration.from_json(text).channels, "rewritten": text != deployed}


def play_standalone(pico, moves: int = 6, seed: int = SEED, mistakes: float = 0.05,
                    variant: str = VARIANT, durations: Durations | None = None,
                    power_cut: bool = False,
                    progress: Callable[[str], None] | None = None) -> dict:
    """Play on `pico`, an EmulatedPico with pico-standalone-2x6's firmware, config and the
    calibration of `table(seed)` installed, powered on (again, if it ran) with the seeds of
    the game's start on it: the whole controller runs on the Pico; the players
    see the strip, hear the buzzer and press the buttons. It stops once the buzzer has told
    `moves` moves done (0: the game's end); then, powered up again in safe mode, the Pico's
    journal is read and replayed on the host's engine and the board compared with it. With
    `power_cut`, the board loses its power in the middle of the first move (seeds may be in
    the players' hand) and gets it back at once: the Pico resumes the game from its journal
    at the start of that move, and its difference view leads the players to put the board
    back. What happened, as a dict (the strip's and CPU's figures count from the last power-on);
    `durations` and `progress` as for `play`."""
    started = time.perf_counter()
    layout = load(STANDALONE).led_layout()
    pico.set_mode("paused")
    if pico.now_ms() > 0:
        pico.power_cycle()          # the board is switched on with the seeds set out on it
    clock, game, board, cells = table(seed, variant, durations)
    inputs = cells.inputs()
    pico.set_cells(inputs)
    base_ms = pico.now_ms()
    player = LedPlayer(game.rules.n, random.Random(seed * 31 + 17), mistakes)
    finger = Finger(pico, clock)
    hands = Hands(player, board, lambda: finger.press("confirm"), STANDALONE_PATIENCE_MS)
    eyes = Eyes(pico, StripReader(layout.leds, layout.brightness), clock, base_ms)
    ears = Ears(pico)
    at_work = True
    showing = False                 # the strip asks for a mistake to be put right
    put_right = 0
    turns = 0
    next_heartbeat = 0
    drops_read = 0
    cut: dict | None = None         # when the power was cut, and what the strip showed after
    while clock.now_ms < LIMIT_MS:
        if list(cells.frames(clock.now_ms + TURN_MS)) and cells.inputs() != inputs:
            inputs = cells.inputs()
            pico.set_cells(inputs)
        run_turn(pico, clock)
        turns += 1
        if eyes.look():
            wrong = _shows_a_mistake(eyes.read_frame)
            put_right += showing and not wrong
            showing = wrong
            drops_read += DROP in [pattern for _, pattern in eyes.read_frame.places]
            if cut is not None and wrong:
                cut["differences_read"] += 1
        if power_cut and cut is None and drops_read >= CUT_AFTER_DROPS and board.idle \
                and finger.holding is None:
            ears.listen()           # what it said before it went quiet
            pico.power_cycle()      # out and straight back in: paused, the flash kept
            pico.set_cells(inputs)
            eyes.went_dark(pico.now_ms() - clock.now_ms)
            showing = False
            cut = {"at_s": round(clock.now_ms / 1000, 1), "seeds_in_hand": len(board.hand),
                   "differences_read": 0}
        if at_work and eyes.read_frame is not None:
            hands.turn(eyes.read_frame)
        finger.turn()
        if turns % LISTEN_TURNS == 0:
            told = ears.count(Sound.MOVE_DONE)
            ears.listen()
            if progress is not None and ears.count(Sound.MOVE_DONE) != told:
                progress("move %d heard done at %.1f s emulated, %.0f s wall" % (
                    ears.count(Sound.MOVE_DONE), clock.now_ms / 1000,
                    time.perf_counter() - started))
            if ears.count(Sound.GAME_OVER) or (moves and ears.count(Sound.MOVE_DONE) >= moves):
                at_work = False     # the players step back once their hands are free
        if not at_work and board.idle and not board.hand and finger.holding is None:
            break
        if eyes.read_frame is None and clock.now_ms > BOOT_LIMIT_MS:
            raise RuntimeError("the standalone board showed nothing readable in %d s after "
                               "power-on" % (BOOT_LIMIT_MS // 1000))
        if progress is not None and clock.now_ms >= next_heartbeat:
            next_heartbeat = clock.now_ms + 5000
            progress("%.1f s emulated, %.0f s wall: heard %s, %d strip looks, %d frames read, "
                     "%d unclear" % (clock.now_ms / 1000, time.perf_counter() - started,
                                     ears.heard[-6:], eyes.reader.looks, eyes.frames_read,
                                     eyes.unclear))
    settle_until = clock.now_ms + SETTLE_MS
    while clock.now_ms < settle_until:
        list(cells.frames(clock.now_ms + TURN_MS))
        pico.set_cells(cells.inputs())
        run_turn(pico, clock)
    ears.listen()
    stats = pico.stats()
    emulated_s = clock.now_ms / 1000
    files = read_after_safe_boot(pico, [JOURNAL, CALIBRATION, "crash.txt"])
    if files[JOURNAL] is None:
        raise RuntimeError("the standalone Pico kept no %s" % JOURNAL)
    replayed = replay(files[JOURNAL])
    strip = stats["strip"]
    return {
        "mode": "standalone", "variant": variant, "seed": seed, "mistake_rate": mistakes,
        "moves": replayed["moves"], "over": replayed["over"],
        "board_matches_engine": board.counts() == replayed["engine"],
        "board": board.counts(), "engine": replayed["engine"],
        "kinds": replayed["kinds"], "most_laps": replayed["most_laps"],
        "moves_heard": ears.count(Sound.MOVE_DONE),
        "mistakes_made": len(player.mistakes),
        "mistakes_heard": ears.count(Sound.MISTAKE),
        "mistakes_put_right": put_right,
        "tunes_heard": ears.heard, "unknown_tones": ears.unknown,
        "frames_read": eyes.frames_read, "unclear_looks": eyes.unclear,
        "strip_looks": eyes.reader.looks, "torn_rings": eyes.reader.torn,
        "unknown_colours": eyes.reader.unknown,
        "strip_frames": strip.get("frames"), "strip_errors": strip.get("errors"),
        "cpu_asleep": round(stats["pico"]["idleCycles"] / max(1, stats["pico"]["cycles"]), 3),
        "power_cut": cut,
        "journal_lines": len(files[JOURNAL].splitlines()),
        "calibration": _calibration_summary(files[CALIBRATION],
                                            cells.calibration().to_json()),
        "crash": files["crash.txt"],
        "emulated_s": round(emulated_s, 1),
        "wall_s": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python firmware/emulator/game.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("bridge", "standalone"), default="bridge",
                        help="bridge: the host's controller, the Pico its board (%s); "
                             "standalone: the controller on the Pico (%s)" % (
                                 PROFILE, STANDALONE))
    parser.add_argument("--moves", type=int, default=6,
                        help="moves to play (0: the whole game; default 6)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--mistakes", type=float, default=0.05, metavar="RATE",
                        help="the share of steps the players get wrong (default 0.05)")
    parser.add_argument("--flash-in", metavar="IMAGE",
                        help="boot a flash image that --flash-out saved with the same --mode "
                             "(and, standalone, --seed: its calibration), else deploy")
    parser.add_argument("--flash-out", metavar="IMAGE",
                        help="save the flash after the deploy, for --flash-in")
    parser.add_argument("--quick", action="store_true",
                        help="players with quick hands (the test's; default: careful ones)")
    parser.add_argument("--power-cut", action="store_true",
                        help="standalone: cut the board's power in the middle of the first "
                             "move (the game resumes from the Pico's journal)")
    parser.add_argument("--unplug", metavar="MOVES:PLACE",
                        help="bridge: unplug that place's load cell once that many moves are "
                             "done (e.g. 1:3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    unplug = None
    if args.unplug is not None:
        moves, _, place = args.unplug.partition(":")
        if not (moves.isdigit() and place.isdigit() and int(place) < load(PROFILE).places):
            parser.error("--unplug takes MOVES:PLACE, two whole numbers, the place 0..%d, "
                         "not %r" % (load(PROFILE).places - 1, args.unplug))
        if args.mode != "bridge":
            parser.error("--unplug is for --mode bridge")
        unplug = (int(moves), int(place))
    if args.power_cut and args.mode != "standalone":
        parser.error("--power-cut is for --mode standalone (in bridge mode the host keeps "
                     "the game)")
    if args.moves < 0:
        parser.error("--moves must be 0 (the whole game) or more, not %d" % args.moves)
    if not 0 <= args.mistakes < 1:
        parser.error("--mistakes is a share of steps, 0 to under 1, not %r" % args.mistakes)
    if args.flash_in is not None and not Path(args.flash_in).is_file():
        parser.error("--flash-in %s: no such file (a flash image that --flash-out saved)"
                     % args.flash_in)
    emulated = _emulated()
    reason = emulated.unavailable_reason()
    if reason is not None:
        parser.error(reason)
    standalone = args.mode == "standalone"
    profile = STANDALONE if standalone else PROFILE
    durations = QUICK if args.quick else None
    import tempfile
    with tempfile.TemporaryDirectory(prefix="layli-game-") as folder:
        with emulated.EmulatedPico(board=profile, flash_in=args.flash_in) as pico:
            if args.flash_in is None:
                calibration = table(args.seed)[3].calibration().to_json() if standalone \
                    else None
                deploy(pico, Path(folder), profile, calibration=calibration)
                if args.flash_out:
                    pico.command("save_flash", path=str(Path(args.flash_out).resolve()))
            print_progress = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
            if standalone:
                result = play_standalone(pico, args.moves, args.seed, args.mistakes,
                                         durations=durations, power_cut=args.power_cut,
                                         progress=print_progress)
            else:
                result = play(pico, args.moves, args.seed, args.mistakes,
                              durations=durations, progress=print_progress, unplug=unplug)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0 if result["board_matches_engine"] else 1


if __name__ == "__main__":
    sys.exit(main())
