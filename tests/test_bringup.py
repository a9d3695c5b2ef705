"""`layli hardware test`, the bring-up test of a board just built, against the simulated board.

- pico-bridge: the host's test (controller/hardware/bringup.py: PicoBridge, the real link)
  against the real firmware bridge over a pty (its own process, as
  firmware/tests/bridge_over_pty.py runs it: CPython with firmware/fakes, the HX711s the
  datasheet models of simulator/parts/hx711.py on the fake pins), both on one simulated clock.
  A scripted maker looks at the Pico's strip and puts a seed's weight on the cell under the lit
  place (the model's value), presses the buttons asked for, and hears the buzzer if its PWM
  sounded. Cases: all wired right; two DAT wires crossed; a breakout left at 10 SPS; a button
  whose wire is broken.
- pi-direct: the same procedure on gpiozero's MockFactory pins, a hand breaking the beam
  under the lit pit.
- pico-standalone: the Pico's own self-test (firmware/selftest.py) over a pty, its report
  relayed by the host.

Run as a script, this file is the device process: `python tests/test_bringup.py LINK CONFIG
[--mode bridge|selftest] [--swap A,B] [--slow PLACE] [--dead BUTTON]` (see `device_main`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import subprocess
import sys
import tty
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
FIRMWARE = CHECKOUT / "firmware"
SEED_RAW = 2000             # a seed on a cell, raw: the simulator's per_seed_raw (sensors.py)
NOISE_RAW = 100             # 0.05 of a seed a reading: the simulator's noise
STEP_MS = 2                 # the bridge's loop turns this often (a Pico: about every ms)


# --- the device process ----------------------------------------------------------------------

def device_main(argv: list[str] | None = None) -> int:
    """The Pico behind a pty (LINK, a symlink to its device node) for the board CONFIG.json
    describes, with fake HX711s on its pins: `--swap A,B` crosses the DOUT wires of places A
    and B, `--slow P` leaves place P's breakout at 10 SPS, `--dead BUTTON` breaks a button's
    wire, `--stuck P`, `--rail P` and `--gone P` make place P's cell read a constant, read at
    the converter's limit, or its breakout never convert. Prints "ready", then:

    - bridge mode: obeys a command a line, answering each: ``R ms`` runs the bridge for ms
      (answers "ok"); ``W place raw`` puts raw more weight on the cell under place; ``P button
      ms`` presses a button for ms; ``L`` answers the places lit (JSON); ``Z`` answers 1 if
      the buzzer sounded since the last Z, else 0;
    - selftest mode: the firmware's self-test (HINT held at boot), a maker at the board who
      follows the strip (firmware/tests/test_selftest.py's), then its report on show until
      stdin closes.
    """
    parser = argparse.ArgumentParser()
    parser.add_argument("link")
    parser.add_argument("config")
    parser.add_argument("--mode", choices=("bridge", "selftest"), default="bridge")
    parser.add_argument("--swap", default="")
    parser.add_argument("--slow", type=int, default=None)
    parser.add_argument("--dead", default="")
    parser.add_argument("--stuck", type=int, default=None)
    parser.add_argument("--rail", type=int, default=None)
    parser.add_argument("--gone", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--swap-rings", default="")
    parser.add_argument("--backwards", type=int, default=None)
    parser.add_argument("--order", default=None)
    parser.add_argument("--bad-ground", type=float, default=0.0)
    args = parser.parse_args(argv)
    sys.path[:0] = [str(FIRMWARE / "fakes"), str(FIRMWARE), str(FIRMWARE / "tests"),
                    str(CHECKOUT)]
    import config                                           # the firmware's modules
    import loadcells
    import machine
    from clock import ManualClock
    from port import FdPort
    from simulator.parts.hx711 import PERIOD_10SPS_US, spread_periods

    settings = config.load(args.config)
    sensors = settings["sensors"]
    data = list(sensors["data"])
    if args.swap:
        a, b = [int(place) for place in args.swap.split(",")]
        data[a], data[b] = data[b], data[a]
    periods = spread_periods(len(data), 0.03, args.seed)
    if args.slow is not None:
        periods[args.slow] = PERIOD_10SPS_US
    if args.gone is not None:
        periods[args.gone] = 10 ** 12       # a breakout with no power: it never converts
    dead = [name for name in args.dead.split(",") if name]
    master, slave = os.openpty()
    tty.setraw(slave)
    os.symlink(os.ttyname(slave), args.link)
    port = FdPort(master)
    if args.mode == "selftest":
        from test_selftest import Maker, World
        import main
        world = World()
        machine.reset_fakes()
        machine.use_clock(world)
        cells = loadcells.direct(sensors["clock"], data, periods=periods)
        machine.drive(settings["buttons"]["hint"], 0)       # HINT held at power-on
        app = main.start(settings, world, port)
        machine.drive(settings["buttons"]["hint"], 1)
        maker = Maker(cells, app.device, dead, settings["game"]["layout"],
                      settings["buttons"])
        maker.person = app.person
        world.maker = maker
        app.person.ready_ms = 500
        print("ready", flush=True)
        app.test()
        while not select.select([sys.stdin], [], [], 0)[0]:
            app.step()
        return 0
    from bridge import Bridge
    from device import Device
    clock = ManualClock()
    machine.reset_fakes()
    machine.use_clock(clock)
    cells = loadcells.direct(sensors["clock"], data, periods=periods)
    device = Device(settings, clock)
    bridge = Bridge(device, port, clock, settings["profile"])
    rng = random.Random(args.seed)
    tare = [rng.randint(-150_000, 150_000) for _ in cells]
    weight = [0] * len(cells)
    releases: list[tuple[int, int]] = []
    layout = settings["game"]["layout"]
    rings = PhysicalRings(layout, settings["leds"]["order"], args.order or
                          settings["leds"]["order"], args.backwards,
                          [int(p) for p in args.swap_rings.split(",") if p])
    sounded = False
    bridge.start()
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        answer = "ok"
        if words[0] == "R":
            until = clock.ticks_ms() + int(words[1])
            while clock.ticks_ms() < until:
                # a ground shared by the strip's current and the cells: each amp the strip
                # draws adds its own noise and a shift (a scenario, not a measurement)
                amps = args.bad_ground and rings.current_ma(device.strip.pixels) / 1000
                for place, cell in enumerate(cells):
                    cell.value = tare[place] + weight[place] + round(rng.gauss(0, NOISE_RAW)) \
                        + round(amps * args.bad_ground * (1 + rng.gauss(0, 1)))
                if args.stuck is not None:      # a cell that is not connected: no noise
                    cells[args.stuck].value = tare[args.stuck]
                if args.rail is not None:       # a bridge wire off: the input at a rail
                    cells[args.rail].value = 1 << 24
                now = clock.ticks_ms()
                for gpio, at in list(releases):
                    if now >= at:
                        machine.drive(gpio, 1)
                        releases.remove((gpio, at))
                bridge.step()
                sounded = sounded or bool(device.buzzer.sounding)
                clock.advance(min(STEP_MS, until - now))
        elif words[0] == "W":
            weight[int(words[1])] += int(words[2])
        elif words[0] == "P":
            if words[1] not in dead:
                gpio = settings["buttons"][words[1]]
                machine.drive(gpio, 0)
                releases.append((gpio, clock.ticks_ms() + int(words[2])))
        elif words[0] == "L":
            answer = json.dumps(rings.lit(device.strip.pixels))
        elif words[0] == "V":
            answer = json.dumps(rings.view(device.strip.pixels))
        elif words[0] == "Z":
            answer, sounded = ("1" if sounded else "0"), False
        print(answer, flush=True)
    return 0


class PhysicalRings:
    """The rings as the maker sees them on the board, whatever the firmware meant: the strip's
    LEDs in the firmware's `layout` (place -> strip indices); a strip that takes its colours in
    `order` where the firmware sends `sent`; a ring wired `backwards` (that place's: no data
    reaches it, nor any LED after it on the strip); the rings of places `swapped` [a, b] in
    each other's place."""

    def __init__(self, layout: list[list[int]], sent: str, order: str,
                 backwards: int | None, swapped: list[int]) -> None:
        self.layout = layout
        self.ring_at = list(range(len(layout)))     # place -> whose LEDs are round it
        if swapped:
            a, b = swapped
            self.ring_at[a], self.ring_at[b] = b, a
        self.cut = None if backwards is None else min(layout[backwards])
        # the strip shows byte k of an LED as colour order[k]; byte k carries colour sent[k]
        self.shown_from = ["RGB".index(sent[k]) for k in range(3)]
        self.order = order

    def _pixel(self, pixels: bytes, i: int) -> tuple[int, int, int]:
        if self.cut is not None and i >= self.cut:
            return (0, 0, 0)
        rgb = pixels[3 * i:3 * i + 3]
        shown = [0, 0, 0]
        for k in range(3):          # the value of the sent byte k, shown as order[k]
            shown["RGB".index(self.order[k])] = rgb[self.shown_from[k]]
        return (shown[0], shown[1], shown[2])

    def view(self, pixels: bytes) -> list[dict]:
        """Per place: how many of its ring's LEDs are lit, of how many, and the colour a
        person names them (red, green, blue, white; none)."""
        out = []
        for place in range(len(self.layout)):
            leds = [self._pixel(pixels, i) for i in self.layout[self.ring_at[place]]]
            lit = [p for p in leds if any(p)]
            colour = "none"
            if lit:
                r, g, b = [sum(p[k] for p in lit) for k in range(3)]
                top = max(r, g, b)
                named = [name for name, v in (("red", r), ("green", g), ("blue", b))
                         if v >= top / 2]
                colour = named[0] if len(named) == 1 else "white"
            out.append({"lit": len(lit), "of": len(leds), "colour": colour})
        return out

    def lit(self, pixels: bytes) -> list[int]:
        """The places whose ring shows any light."""
        return [place for place, seen in enumerate(self.view(pixels)) if seen["lit"]]

    def current_ma(self, pixels: bytes) -> float:
        """What the strip draws, 20 mA a channel at full (the WS2812B's LED current)."""
        return sum(sum(self._pixel(pixels, i)) for i in range(len(pixels) // 3)) * 20 / 255


if __name__ == "__main__":
    sys.exit(device_main())


# --- the host's side -------------------------------------------------------------------------

import pytest                                                               # noqa: E402

from controller.board import view                                           # noqa: E402
from controller.cli import main as cli_main                                 # noqa: E402
from controller.drivers.serial_link import SerialLink                       # noqa: E402
from controller.hardware import bringup                                     # noqa: E402
from controller.hardware.firmware import firmware_config                    # noqa: E402
from controller.hardware.profile import load                                # noqa: E402
from controller.session.bringup import (AWAY, COLOUR, HAND, HEARD, LIT, PRESS,  # noqa: E402
                                        RINGS, SEED, WHICH, place_words)
from controller.session.ledcheck import strip_order                             # noqa: E402
from controller.rules.script import place_label                # noqa: E402
from fakes import RecordingPixelBuf                                         # noqa: E402


class Pico:
    """The device process (see `device_main`), behind the pty `link`."""

    def __init__(self, folder: Path, profile: str, *options: str) -> None:
        self.link = str(folder / "ttyACM-pico")
        config = folder / "config.json"
        board = load(profile)
        variant = "mangala-iv" if board.pits == 7 else "layli-goobalay"
        config.write_text(json.dumps(firmware_config(board, variant)), encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, __file__, self.link, str(config), *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        while line.startswith("layli: "):      # what the firmware says at boot (its chip)
            line = self.process.stdout.readline().strip()
        if line != "ready":
            raise RuntimeError("the device process did not start: %r" % line)

    def ask(self, line: str) -> str:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(20)


class LockstepClock:
    """The test's one clock: the host's time, and the device run for as long as it sleeps."""

    def __init__(self, pico: Pico) -> None:
        self.pico = pico
        self.t = 0

    def now_ms(self) -> int:
        return self.t

    def sleep_ms(self, ms: float) -> None:
        ms = max(1, int(ms + 0.999))
        assert self.pico.ask("R %d" % ms) == "ok"
        self.t += ms


class ScriptedMaker:
    """The person at a pico-bridge board, scripted. Once a seed is asked for, they look at the
    Pico's strip and put a seed's weight (five on a store) on the place lit; they press the
    button asked for; they heard the beep if the buzzer's PWM sounded. A request the board
    does not answer they give up on after `patience` polls (Enter)."""

    def __init__(self, pico: Pico, clock: LockstepClock, places: int,
                 patience: int = 100) -> None:
        self.pico = pico
        self.clock = clock
        self.places = places
        self.patience = patience
        self.said: list[str] = []
        self.asked = []
        self.lit_seen: list[tuple[int, list[int]]] = []     # (asked place, places lit)
        self.pending = None
        self.polls = 0

    def tell(self, text: str) -> None:
        self.said.append(text)

    def ready(self, text: str) -> None:
        self.said.append(text)

    def ask(self, task) -> None:
        self.said.append(task.text)
        self.asked.append(task)
        self.pending = task
        self.polls = 0

    def status(self, text: str) -> None:
        pass

    def gave_up(self) -> bool:
        task = self.pending
        if task is not None:
            if task.kind == SEED:
                lit = json.loads(self.pico.ask("L"))
                if "its ring is not right" in task.text:    # told where, not lit: by name
                    lit = [task.place]
                if lit:                         # the strip shows it: the seed goes there
                    self.lit_seen.append((task.place, lit))
                    store = lit[0] >= self.places - 2
                    assert self.pico.ask("W %d %d" % (
                        lit[0], SEED_RAW * (5 if store else 1))) == "ok"
                    self.pending = None
            elif task.kind == PRESS:
                assert self.pico.ask("P %s 60" % task.button) == "ok"
                self.pending = None
        self.polls += 1
        return self.polls > self.patience

    def answer(self, task) -> bool | None:
        self.said.append(task.text)
        if task.kind == RINGS:
            return self.lit_seen[-1] == (task.place, [task.place])
        assert task.kind == HEARD
        self.clock.sleep_ms(600)                # listening a moment
        return self.pico.ask("Z") == "1"



class LookingMaker(ScriptedMaker):
    """A scripted maker who also answers the LEDs' questions (ledcheck.py), from what the
    board's rings show (the device's `V`). Without them (ScriptedMaker) the bring-up skips the
    LEDs, as it does for a person who cannot answer."""

    def choose(self, task) -> str | None:
        """What the maker sees on the board's rings, in the words asked."""
        self.said.append(task.text)
        self.asked.append(task)
        view = json.loads(self.pico.ask("V"))
        lit = [place for place, seen in enumerate(view) if seen["lit"]]
        if task.kind == COLOUR:
            colours = {view[place]["colour"] for place in lit}
            return colours.pop() if len(colours) == 1 else ("none" if not lit else "white")
        if task.kind == WHICH:
            return place_label(lit[0], self.places // 2 - 1) if lit else None
        assert task.kind == LIT
        own = view[task.place]
        if own["lit"] == own["of"] and lit == [task.place]:
            return "whole"
        if own["lit"]:
            return "part"
        return "other" if lit else "dark"


def bridge_test(tmp_path: Path, *options: str, patience: int = 100, leds: bool = False):
    """The bring-up test of a pico-bridge-2x6 board whose Pico runs with `options`; with
    `leds`, the maker answers the LEDs' questions too (they take a third of the test's time)."""
    profile = load("pico-bridge-2x6")
    pico = Pico(tmp_path, profile.name, *options)
    clock = LockstepClock(pico)
    serial = SerialLink(pico.link, timeout=0, retry_s=0.005, max_retry_s=0.02)
    maker = (LookingMaker if leds else ScriptedMaker)(pico, clock, profile.places, patience)
    try:
        board = bringup.open_board(profile, pico.link, clock, serial=serial)
        try:
            report = bringup.bring_up(board, maker, profile)
        finally:
            board.close()
    finally:
        pico.close()
    return report, maker


def fix_texts(report) -> list[str]:
    return [fix.text for fix in report.fixes]


def test_a_board_wired_right_is_all_well(tmp_path):
    report, maker = bridge_test(tmp_path, leds=True)
    text = "\n".join(report.lines())
    assert report.ok, text
    assert all(report.tested) and report.fixes == []
    assert all(lit == [asked] for asked, lit in maker.lit_seen), maker.lit_seen
    assert [asked for asked, _ in maker.lit_seen] == list(range(14))
    # each HX711 converts on its own oscillator, 10.7 ms +- 3%: 90-97 samples a second
    assert all(90 < rate < 97 for rate in report.rates), report.rates
    assert 85 < report.frame_rate < 97
    assert report.buttons == dict.fromkeys(("new_game", "undo", "hint", "confirm"), True)
    assert report.buzzer is True
    assert text.endswith("All is well: every place, cell, button and the buzzer answered.")
    assert "South's pit 3    ok" in text and "North's store    ok" in text
    # the LEDs: red and green seen as such, every ring whole in the strip's order (South's
    # row west to east, South's store, North's row, North's store), the cells steady under load
    assert [task.kind for task in maker.asked[:2]] == [COLOUR, COLOUR]
    assert [task.place for task in maker.asked if task.kind == LIT] == [
        0, 1, 2, 3, 4, 5, 12, 6, 7, 8, 9, 10, 11, 13]
    assert "  the cells read as steadily with every ring lit: ok" in maker.said


def test_crossed_data_wires_are_both_named(tmp_path):
    # South's pit 2's cell on South's pit 5's DOUT pin (GP7), and South's pit 5's on GP4
    report, maker = bridge_test(tmp_path, "--swap", "1,4")
    assert fix_texts(report) == [
        "South's pit 2 and South's pit 5 are crossed: a seed on South's pit 2 weighs on "
        "South's pit 5's input (GP7), and a seed on South's pit 5 weighs on South's pit 2's "
        "input (GP4). Swap their two DAT wires (on GP4 and GP7)."]
    assert report.fixes[0].channels == (1, 4)
    assert "  A seed on South's pit 2 weighs on South's pit 5's input (GP7)." in maker.said
    assert all(report.tested) and not report.ok
    lines = report.lines()
    assert [line.split()[3] for line in lines[1:15]].count("fix") == 2


def test_a_breakout_left_at_10_sps_is_named_with_its_fix(tmp_path):
    report, maker = bridge_test(tmp_path, "--slow", "13")
    assert report.frame_rate < 12.5               # every reading waits for the slow one
    assert all(report.tested) and not report.ok
    fixes = fix_texts(report)
    assert fixes == [
        "North's store: 11.7 samples a second: its HX711 breakout is still at 10 SPS: cut SJ2 "
        "and wire RATE to VDD, see hardware/README.md (\"The HX711 breakouts\")."], fixes


def test_a_button_that_never_comes_is_named(tmp_path):
    report, maker = bridge_test(tmp_path, "--dead", "hint", patience=50)
    assert fix_texts(report) == [
        "No press came from HINT: check its two wires, to GP21 and to GND, on two diagonally "
        "opposite legs of the switch."]
    assert report.buttons == {"new_game": True, "undo": True, "hint": False, "confirm": True}
    assert "buttons: NEW GAME ok, UNDO ok, HINT fix 1, CONFIRM ok" in report.lines()


def test_a_pico_configured_for_another_board_is_refused(tmp_path):
    pico = Pico(tmp_path, "pico-bridge-2x7")
    clock = LockstepClock(pico)
    serial = SerialLink(pico.link, timeout=0, retry_s=0.005, max_retry_s=0.02)
    try:
        with pytest.raises(bringup.UsageError, match=(
                "has 16 sensor channels and a strip of 200 LEDs; profile pico-bridge-2x6 has "
                "14 and 176: its config.json is another board's")):
            bringup.open_board(load("pico-bridge-2x6"), pico.link, clock, serial=serial)
    finally:
        pico.close()


def test_a_cell_stuck_and_a_cell_at_the_limit_are_named(tmp_path):
    report, maker = bridge_test(tmp_path, "--stuck", "0", "--rail", "11")
    fixes = fix_texts(report)
    assert len(fixes) == 2, fixes
    assert fixes[0].startswith("South's pit 1 reads ") and fixes[0].endswith(
        " all the time: no real load cell is that still. Its cell is not connected to its "
        "HX711 (RED, BLK, WHT, GRN), or the HX711's DAT wire to GP3 is shorted."), fixes
    assert fixes[1] == (
        "North's pit 6 reads 8388607, the converter's limit: its load cell's four wires (red "
        "E+, black E-, white A-, green A+) are not all on its HX711, or the HX711's VCC is "
        "under 4.5 V.")
    assert "  South's pit 1: skipped (its sensor is to fix first)" in maker.said
    assert [asked for asked, _ in maker.lit_seen] == [p for p in range(14) if p not in (0, 11)]
    assert report.tested == [p not in (0, 11) for p in range(14)]


def test_a_breakout_that_never_converts_is_named(tmp_path):
    report, maker = bridge_test(tmp_path, "--gone", "6")
    fixes = fix_texts(report)
    # the Pico reads the other cells on (firmware/hx711.py: a DOUT that never moves is a
    # cell whose readings are None), so the rest of the board is tested
    assert fixes == [
        "North's pit 1 never gave a reading the Pico could trust: its HX711 never signalled a "
        "result. Check its VCC (5 V), VDD (3.3 V), GND and its DAT wire to GP9."], fixes
    assert report.tested == [place != 6 for place in range(14)]
    assert all(report.buttons.values()) and report.buzzer is True     # tested all the same


# --- pi-direct on gpiozero's mock pins ------------------------------------------------------

class BeamMaker:
    """The person at a pi-direct board: a hand into the beam under the lit pit (`wired[pit]`
    is the pin that beam's receiver is wired to), out again when asked; the buttons asked for
    pressed (to ground) and let go before the next; the beep heard if the buzzer's pin
    toggled."""

    def __init__(self, factory, profile, wired, pixelbufs) -> None:
        self.factory = factory
        self.profile = profile
        self.wired = wired
        self.pixelbufs = pixelbufs
        self.said: list[str] = []
        self.lit_seen: list[tuple[int, list[int]]] = []
        self.held = None

    def pin(self, name: str):
        return self.factory.pin(int(name[4:]))

    def lit(self) -> list[int]:
        sent = self.pixelbufs[0].sent[-1]
        return [place for place, (start, count) in enumerate(self.profile.leds.places)
                if any(sent[3 * start:3 * (start + count)])]

    def tell(self, text: str) -> None:
        self.said.append(text)

    ready = tell

    def ask(self, task) -> None:
        self.said.append(task.text)
        if self.held is not None:
            self.held.drive_high()                  # let go of the last button
            self.held = None
        if task.kind == HAND:
            lit = self.lit()
            self.lit_seen.append((task.place, lit))
            self.pin(self.wired[lit[0]]).drive_high()     # the beam broken: its pin high
        elif task.kind == AWAY:
            for pin in self.wired:
                self.pin(pin).drive_low()
        elif task.kind == PRESS:
            self.held = self.pin(self.profile.buttons[task.button])
            self.held.drive_low()

    def status(self, text: str) -> None:
        pass

    def gave_up(self) -> bool:
        return False

    def answer(self, task) -> bool | None:
        if task.kind == RINGS:
            return self.lit_seen[-1] == (task.place, [task.place])
        buzzer = self.pin(self.profile.buzzer_pin)
        return any(state.state for state in buzzer.states)


@pytest.mark.parametrize("crossed", [False, True])
def test_a_pi_direct_board_on_mock_pins(mock_pins, crossed):
    profile = load("pi-direct-2x6")
    wired = list(profile.sensors.channels)          # the receiver under each pit: its pin
    if crossed:                                     # North's pit 1 and 2 the other way round
        wired[6], wired[7] = wired[7], wired[6]
    pixelbufs: list[RecordingPixelBuf] = []

    def pixelbuf(pin, count, order):
        pixelbufs.append(RecordingPixelBuf(count, order))
        return pixelbufs[-1]
    maker = BeamMaker(mock_pins, profile, wired, pixelbufs)
    board = bringup.open_board(profile, None, bringup.MonotonicClock(), make_pixelbuf=pixelbuf)
    for pin in wired:                               # (the inputs are pulled up once opened)
        mock_pins.pin(int(pin[4:])).drive_low()     # every receiver sees its beam: low
    try:
        report = bringup.bring_up(board, maker, profile)
    finally:
        board.close()
    lines = report.lines()
    assert all(lit == [asked] for asked, lit in maker.lit_seen), maker.lit_seen
    assert all(report.tested) and report.buzzer is True and all(report.buttons.values())
    assert lines[13:15] == ["South's store    no sensor on this board",
                            "North's store    no sensor on this board"]
    if not crossed:
        assert report.ok and report.fixes == [], "\n".join(lines)
        return
    assert fix_texts(report) == [
        "North's pit 1 and North's pit 2 are crossed: a hand in North's pit 1 breaks the "
        "beam on North's pit 2's input (GPIO16), and a hand in North's pit 2 breaks the beam "
        "on North's pit 1's input (GPIO25). Swap their two wires (on GPIO25 and GPIO16)."]


# --- pico-standalone: the Pico's own self-test, relayed -------------------------------------

def test_the_self_test_of_a_standalone_pico_is_relayed(tmp_path, capsys):
    pico = Pico(tmp_path, "pico-standalone-2x6", "--mode", "selftest", "--swap", "1,4")
    try:
        status = cli_main(["hardware", "test", "--profile", "pico-standalone-2x6", "--port",
                           pico.link])
    finally:
        pico.close()
    text = capsys.readouterr().out
    assert status == 1, text
    lines = text.splitlines()
    assert lines[0] == "layli self-test (HINT held at power-on): pico-standalone-2x6"
    assert "  A seed on South's pit 2 weighs on South's pit 5's input (GP7)." in lines
    assert "South's pit 2    fix 1" in text and "South's pit 5    fix 1" in text
    assert lines[-1] == "layli self-test: done: 1 to fix"
    assert text.count("layli self-test (HINT held") == 1       # each line once


def test_a_pico_that_is_not_in_its_self_test_is_told_how(tmp_path):
    link = tmp_path / "ttyACM-quiet"
    master, slave = os.openpty()
    tty.setraw(slave)
    os.symlink(os.ttyname(slave), link)
    ticks = iter(range(0, 1000))
    try:
        with pytest.raises(bringup.UsageError, match="not in its self-test.*hold HINT down"):
            bringup.relay(str(link), clock=lambda: next(ticks))
    finally:
        os.close(master)
        os.close(slave)


# --- the person at a terminal ---------------------------------------------------------------

class Keyboard:
    """A terminal's input as a pipe: what the person types, when they type it."""

    def __init__(self) -> None:
        read, self._write = os.pipe()
        self.stdin = os.fdopen(read, "r")

    def type(self, text: str) -> None:
        os.write(self._write, text.encode())

    def close(self) -> None:
        os.close(self._write)
        self.stdin.close()


def test_the_console_person_answers_waits_and_gives_up():
    from io import StringIO
    from controller.session.bringup import Task
    keys, out = Keyboard(), StringIO()
    person = bringup.ConsolePerson(keys.stdin, out)
    try:
        keys.type("\n")                        # an Enter pressed too early ...
        person.ask(Task(SEED, "Put one seed in South's pit 1 (lit blue).", place=0))
        assert not person.gave_up()             # ... does not answer what comes after it
        keys.type("\n")
        assert person.gave_up() and not person.gave_up()
        keys.type("maybe\nY\n")
        assert person.answer(Task(HEARD, "Did you hear a beep? [y/n]")) is True
        keys.type("no\n")
        assert person.answer(Task(HEARD, "Did you hear a beep? [y/n]")) is False
        person.status("South's pit 1 reads 81234")  # not a terminal: nothing shown
    finally:
        keys.close()
    assert out.getvalue() == (
        "Put one seed in South's pit 1 (lit blue).  (Enter if nothing happens)\n"
        "Did you hear a beep? [y/n] Please answer y or n.\n"
        "Did you hear a beep? [y/n] Did you hear a beep? [y/n] ")
    closed = bringup.ConsolePerson(StringIO(""), StringIO())
    assert closed.answer(Task(HEARD, "Did you hear a beep? [y/n]")) is None   # no one there


# --- the command line ------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["hardware", "test"], "no board profile: give --profile NAME"),
    (["hardware", "test", "--profile", "nope"], "nope: no shipped profile of that name"),
    (["hardware", "test", "--profile", "pico-bridge-2x6", "--port", "/dev/ttyNONE9"],
     "no serial device /dev/ttyNONE9"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, args, message):
    assert cli_main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("layli: error: ") and message in err and err.count("\n") == 1, err


def test_the_places_are_named_as_everywhere_else():
    # the portable words (the Pico says them too) are, in English, the pages' (board.view's
    # place_name says them in the page's language)
    from controller.rules import place_words as everywhere

    assert place_words is everywhere
    assert [view.place_name(place, 7) for place in range(16)] == [
        place_words(place, 7) for place in range(16)]
    assert [place_words(place, 7) for place in (0, 6, 7, 13, 14, 15)] == [
        "South's pit 1", "South's pit 7", "North's pit 1", "North's pit 7", "South's store",
        "North's store"]


def test_the_strips_colour_order_is_worked_out_from_two_answers():
    assert strip_order("GRB", "red", "green") == "GRB"
    assert strip_order("GRB", "green", "red") == "RGB"
    assert strip_order("RGB", "blue", "green") == "BGR"
    assert strip_order("GRBW", "green", "red") == "RGBW"
    assert strip_order("GRB", "red", "red") is None and strip_order("GRB", "none", "red") is None
    for sent in ("RGB", "GRB", "BRG", "GBR", "BGR", "RBG"):   # what the maker's eyes see
        for real in ("RGB", "GRB", "BRG", "GBR", "BGR", "RBG"):
            rings = PhysicalRings([[0]], sent, real, None, [])
            seen = [rings.view(bytes(colour))[0]["colour"]
                    for colour in ((255, 0, 0), (0, 255, 0))]
            assert strip_order(sent, *seen) == real, (sent, real, seen)


def test_a_ring_wired_backwards_and_a_strip_in_rgb_are_named(tmp_path):
    # South's pit 4's ring takes its data on its DOUT pad: it and every ring after it on the
    # strip stay dark; the strip takes RGB where the profile says GRB
    report, maker = bridge_test(tmp_path, "--backwards", "3", "--order", "RGB", leds=True)
    fixes = fix_texts(report)
    assert fixes[0] == (
        "The rings show red as green and green as red: the strip takes its colours in the "
        "order RGB, not GRB. Write order = \"RGB\" in the profile's [leds] (and make the "
        "Pico's config.json again).")
    assert fixes[1].startswith("South's pit 4's ring (LEDs 36-47 of the strip) stays dark: "
                               "its data comes in on the wrong pad (the ring is wired "
                               "backwards"), fixes[1]
    assert fixes[1].endswith("Every ring after it on the strip (10: S5, S6, S store, N1, N2, "
                             "N3, N4, N5, N6, N store) stays dark until it is mended."), fixes[1]
    assert len(fixes) == 2, fixes                   # the seeds went where the places were said
    assert all(report.tested)
    lit_questions = [task.place for task in maker.asked if task.kind == LIT]
    assert lit_questions == [0, 1, 2, 3]            # none after the first dark ring


def test_swapped_rings_and_a_bad_ground_are_named(tmp_path):
    # the rings of South's pit 2 and North's pit 5 in each other's place on the strip, and the
    # strip's current through the cells' ground: 400 raw of noise and shift an amp
    report, maker = bridge_test(tmp_path, "--swap-rings", "1,10", "--bad-ground", "400",
                                leds=True)
    fixes = fix_texts(report)
    assert fixes[0] == (
        "The rings of South's pit 2 and North's pit 5 are swapped: lit for one, the other "
        "lights. Swap the two rings' places in the chain, or their entries in the profile's "
        "[leds] places.")
    assert fixes[1].startswith("With every ring lit (the strip at its cap, about 1987 mA) 14 "
                               "of the load cells read worse than on the dark board: S1 ("), \
        fixes[1]
    assert "run the strip's ground back to the star point on a wire of its own" in fixes[1]
    assert report.fixes[1].channels == tuple(range(14))
    assert len(fixes) == 2, fixes
    assert all(report.tested)


def test_the_console_person_chooses_by_a_word_or_its_start():
    from io import StringIO
    from controller.session.bringup import Task
    person = bringup.ConsolePerson(stdin=StringIO("maybe\nW\nwh\nn\n"), stdout=StringIO())
    task = Task(LIT, "Is the ring lit?", options=("whole", "part", "other", "dark"))
    assert person.choose(task) == "whole"           # "maybe" is none, "W" is whole's start
    task = Task(COLOUR, "What colour?", options=("red", "green", "blue", "white", "none"))
    assert person.choose(task) == "white"           # "wh": white, not one of two
    assert person.choose(task) == "none"
    assert person.choose(task) is None              # the input ended
    assert "Please answer one of: whole, part, other, dark." in person.stdout.getvalue()
