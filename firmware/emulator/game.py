"""A game on the emulated Pico in bridge mode, with players who read only its LED strip
(host-only).

    LAYLI_PICO_KIT=/path/to/kit python firmware/emulator/game.py [--moves N] [--seed K]
        [--mistakes RATE] [--quick] [--flash-in IMAGE] [--flash-out IMAGE] [--json]

The firmware goes onto the emulated Pico (real MicroPython 1.27 on rp2040js, the board's
HX711s, LED strip and buttons on its pins as datasheet models: README.md beside this file)
the way a maker installs it, `firmware/deploy.py CONFIG --port ... --mpy` (mpremote), and
boots from main.py into its bridge. The host is the project's own: `controller.runner.Runner`
over `controller.drivers.pico.PicoBridge` on the emulator's serial port, the board a
`simulator.board.PhysicalBoard` whose load cells (`simulator.sensors.LoadCells`) set what
the emulated HX711s convert. The players (`simulator.players.LedPlayer`) know nothing but
what the emulated WS2812B strip shows: `StripReader` reads each place's colour and rhythm off
the LEDs of its ring, frame after frame, as a person learns them from the legend
(`controller.guide.pixels`), and they lift, sow, capture, move an Uur's seed, make mistakes
at `--mistakes` a step and put them right, and press the board's confirm button (an
emulated button: the Pico tells the host).

The emulator is paused and moved on TURN_MS at a time: each turn the load cells' signal goes
to the HX711 models, the Pico runs, the host reads what came over the serial line and sends
what the LEDs must show, the players look at the strip. Nothing waits on the wall clock, so a
loaded machine gives the same game, only slower (the emulator runs about 4 times slower than
real time with the bridge at work).

It prints the moves played, the relay's laps and the kinds of step the game had (drop, pick,
capture, uur), the mistakes made and flagged, whether the board ended equal to the engine,
how often the players could not yet read a place's pattern, and the emulated and wall time;
every 5 emulated seconds a line on stderr says where it is. `--moves 0` plays the game to its
end; `--quick` gives the players quick hands (the test's). Without `--flash-in` it deploys
first (1-3 minutes).
"""

from __future__ import annotations

import argparse
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
from controller.guide.frame import COLOURS, DARK, OFF, PATTERNS, Frame
from controller.guide.guide import AWAIT, OVER, SOWING
from controller.guide.pixels import PALETTE, level
from controller.hardware.firmware import firmware_config
from controller.hardware.profile import load
from controller.rules import Game
from controller.runner import Runner
from controller.session import MemoryStorage, Session
from simulator.board import Durations, PhysicalBoard
from simulator.clock import SimClock
from simulator.players import LedPlayer
from simulator.run import Hands
from simulator.sensors import LoadCells

HERE = Path(__file__).resolve().parent
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
# a quick player's hands: they sow about six seeds a second (a careful one four: Durations)
QUICK = Durations(lift_ms=250, drop_ms=120, take_ms=150, put_ms=120, move_grab_ms=150,
                  move_release_ms=80, knock_ms=100, travel_ms=60)
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


class AtTheBoard:
    """The host's board IO (PicoBridge), with the players looking at the emulated strip and
    pressing its buttons."""

    def __init__(self, bridge: PicoBridge, pico, reader: StripReader, hands: Hands,
                 clock: SimClock, base_ms: float) -> None:
        self.bridge, self.pico, self.reader, self.hands, self.clock = (
            bridge, pico, reader, hands, clock)
        self.base_ms = base_ms      # the Pico's clock when `clock` read 0
        self.still_since = 0.0
        self.candidate = None       # what the strip reads as now, and since when
        self.candidate_since = 0.0
        self.seen = None            # the strip frame last looked at
        self.read_frame = None      # the frame the players last read whole
        self.unclear = 0            # looks after which some place was not yet clear
        self.frames_read = 0
        self.mismatched = 0         # frames read that the host never sent (a misreading)
        # the host's latest frames (the strip lags them), after the dark the strip powers up in
        self.sent: list[Frame] = [Frame(len(reader.leds))]
        self.release_at = None
        self.players_at_work = True

    def read(self):
        return self.bridge.read()

    def show(self, frame, pixels) -> None:
        self.bridge.show(frame, pixels)
        if not self.sent or frame != self.sent[-1]:
            self.sent = self.sent[-15:] + [_copy(frame)]
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
                self.unclear += 1
            elif decoded != self.candidate:
                self.candidate, self.candidate_since = decoded, now
        if self.candidate is not None and self.candidate != self.read_frame \
                and now - self.candidate_since >= SURE_MS:
            # one look can match a place's old meaning for a moment after it changed (a
            # pulse at its top looks steady): the players go by what has held a while
            self.read_frame = self.candidate
            self.frames_read += 1
            if self.read_frame not in self.sent:
                self.mismatched += 1
        if self.read_frame is not None and self.players_at_work:
            self.hands.turn(self.read_frame)
        if self.release_at is not None and self.clock.now_ms >= self.release_at:
            self.pico.release("confirm")
            self.release_at = None

    def press_confirm(self) -> None:
        self.pico.press("confirm")
        self.release_at = self.clock.now_ms + PRESS_MS

    def beep(self, name: str) -> None:
        self.bridge.beep(name)

    def close(self) -> None:
        self.bridge.close()


def _copy(frame: Frame) -> Frame:
    copy = Frame(len(frame.places))
    copy.places = list(frame.places)
    return copy


def deploy(pico, folder: Path, profile: str = PROFILE, variant: str = VARIANT) -> None:
    """Install the bridge as a maker does (`firmware/deploy.py CONFIG --port ... --mpy`) and
    power the Pico up again on it (mpremote's closing reset is machine.reset(), at which the
    emulator stops: a power cycle, the flash kept, does what it would)."""
    config = folder / "config.json"
    config.write_text(json.dumps(firmware_config(load(profile), variant)), encoding="utf-8")
    done = subprocess.run([sys.executable, str(FIRMWARE / "deploy.py"), str(config),
                           "--port", pico.serial_url, "--mpy"],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError("deploy.py failed:\n" + done.stdout + done.stderr)
    if not pico.command("pico")["stopped"]:
        raise RuntimeError("the deploy did not end with a reset")
    pico.power_cycle()


def play(pico, moves: int = 6, seed: int = SEED, mistakes: float = 0.05,
         profile_name: str = PROFILE, variant: str = VARIANT,
         durations: Durations | None = None,
         progress: Callable[[str], None] | None = None) -> dict:
    """Play on `pico` (an EmulatedPico booted into the bridge); what happened, as a dict.
    `durations`: how long the players' hands take (default: a careful, unhurried player;
    QUICK: a quick one). `progress` is told each move as it is made, and every 5 emulated
    seconds where the game is, in a line."""
    started = time.perf_counter()
    profile = load(profile_name)
    layout = profile.led_layout()
    pico.set_mode("paused")
    rng = random.Random(seed)
    clock = SimClock()
    game = Game(variant)
    board = PhysicalBoard(game.rules.n, game.setup, rng, clock=clock, durations=durations)
    cells = LoadCells(board, clock, rng)
    inputs = cells.inputs()
    pico.set_cells(inputs)
    base_ms = pico.now_ms()
    bridge = PicoBridge(pico.serial_url, profile.name, profile.places,
                        now_ms=lambda: clock.now_ms,
                        serial=SerialLink(pico.serial_url, timeout=0, retry_s=0.005,
                                          max_retry_s=0.02))
    session = Session(MemoryStorage(), variant)
    player = LedPlayer(game.rules.n, random.Random(seed * 31 + 17), mistakes)
    io: AtTheBoard | None = None
    hands = Hands(player, board, lambda: io.press_confirm(), PATIENCE_MS)
    io = AtTheBoard(bridge, pico, StripReader(layout.leds, layout.brightness), hands, clock,
                     base_ms)
    runner = Runner(io, session, layout, "counting", cells.calibration(),
                    now_ms=lambda: clock.now_ms, max_count=sum(game.setup))
    kinds: set[str] = set()
    laps = 0
    told = 0
    next_heartbeat = 0
    showing = None                  # the mistake the guide shows
    put_right = 0                   # mistakes shown that went away: the board agrees again

    def turn() -> None:
        nonlocal inputs
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
                             session.guide.phase, io.reader.looks, io.frames_read,
                             io.unclear, bridge.counters()))
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
        "mistakes_flagged": events.count("mistake"),
        "mistakes_put_right": put_right,
        "confirms": events.count("confirmed"),
        "frames_read": io.frames_read, "frames_not_sent": io.mismatched,
        "unclear_looks": io.unclear,
        "strip_looks": io.reader.looks, "torn_rings": io.reader.torn,
        "unknown_colours": io.reader.unknown,
        "strip_frames": strip.get("frames"), "strip_errors": strip.get("errors"),
        "cpu_asleep": round(stats["pico"]["idleCycles"] / max(1, stats["pico"]["cycles"]), 3),
        "host_link": bridge.counters(),
        "device": bridge.device.firmware if bridge.device is not None else None,
        "boot_s": round(booted_ms / 1000, 1),
        "emulated_s": round(clock.now_ms / 1000, 1),
        "wall_s": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python firmware/emulator/game.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=6,
                        help="moves to play (0: the whole game; default 6)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--mistakes", type=float, default=0.05, metavar="RATE",
                        help="the share of steps the players get wrong (default 0.05)")
    parser.add_argument("--flash-in", metavar="IMAGE",
                        help="boot a flash image with the bridge installed (else deploy)")
    parser.add_argument("--flash-out", metavar="IMAGE",
                        help="save the flash after the deploy, for --flash-in")
    parser.add_argument("--quick", action="store_true",
                        help="players with quick hands (the test's; default: careful ones)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
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
    import tempfile
    with tempfile.TemporaryDirectory(prefix="layli-game-") as folder:
        with emulated.EmulatedPico(board=PROFILE, flash_in=args.flash_in) as pico:
            if args.flash_in is None:
                deploy(pico, Path(folder))
                if args.flash_out:
                    pico.command("save_flash", path=str(Path(args.flash_out).resolve()))
            result = play(pico, args.moves, args.seed, args.mistakes,
                          durations=QUICK if args.quick else None, progress=lambda line: print(line, file=sys.stderr, flush=True))
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0 if result["board_matches_engine"] else 1


if __name__ == "__main__":
    sys.exit(main())
