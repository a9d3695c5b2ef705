"""The bring-up self-test on the Pico (HINT held at boot): the firmware's own HX711 reader on
the fake PIO, against the HX711 datasheet models (simulator/parts/hx711.py), with a maker at
the board who follows the strip: a seed's weight on the cell under the lit place, the buttons
asked for on the serial port, one pressed when the buzzer sounded."""

import machine
import loadcells
import rig
import main
from clock import ManualClock
from port import MemoryPort
from selftest import SelfTest
from controller.session.bringup import (SEED, PRESS, HEARD, SELF_TEST_START, SELF_TEST_DONE,
                                        place_words)
from simulator.parts.hx711 import PERIOD_10SPS_US, spread_periods

SEED_RAW = 2000             # a seed on a cell, raw (the simulator's default per_seed_raw)
STORE_SEEDS = 5
PRESS_MS = 40               # a finger on a button (its debounce is 30 ms)


class Maker:
    """The person at the board. Each place's cell is `cells[place]` (the HX711 model under
    it), whatever pin its DOUT is wired to. The maker reads what the serial port asked last
    (`person.task`) and looks at the strip (`layout`: each place's LEDs): a seed goes on the
    place that is lit; a button asked for is pressed (`buttons`: their GPIO; none for one
    whose wire is `dead`); once the buzzer sounded, a button says so."""

    def __init__(self, cells, device, dead=(), layout=None, buttons=None):
        self.cells = cells
        self.device = device
        self.dead = dead
        self.layout = layout or [[2 * place, 2 * place + 1] for place in range(len(cells))]
        self.buttons = buttons or rig.BUTTONS
        self.person = None
        self.tare = [(30011 * place) % 200000 - 100000 for place in range(len(cells))]
        self.weight = [0] * len(cells)
        self.done = None            # the task last acted on
        self.release = None         # (gpio, at ms): the button held, let go then
        self.free_at = 0            # a hand let go of a button: free again then
        self.heard = False
        self._noise = 12345
        self.lit_seen = []          # (asked place, places lit) for each seed

    def noise(self):
        # about 100 raw of noise (0.05 of a seed: the simulator's), the same on both runtimes
        total = 0
        for _ in range(4):
            self._noise = (self._noise * 1103515245 + 12345) & 0x7FFFFFFF
            total += (self._noise >> 16) % 201 - 100
        return total

    def lit(self):
        """The places whose LEDs are on."""
        pixels = self.device.strip.pixels
        lit = []
        for place in range(len(self.layout)):
            for led in self.layout[place]:
                if pixels[3 * led] or pixels[3 * led + 1] or pixels[3 * led + 2]:
                    lit.append(place)
                    break
        return lit

    def act(self, now):
        for place in range(len(self.cells)):
            self.cells[place].value = self.tare[place] + self.weight[place] + self.noise()
        if self.device.buzzer is not None and self.device.buzzer.sounding:
            self.heard = True
        if self.release is not None:
            if now < self.release[1]:
                return              # a finger on a button: nothing else meanwhile
            machine.drive(self.release[0], 1)
            self.release = None
            self.free_at = now + PRESS_MS
        task = None if self.person is None else self.person.task
        if task is None or task is self.done or now < self.free_at:
            return
        if task.kind == SEED:
            lit = self.lit()
            if not lit:
                return              # the strip shows it at its next frame
            self.lit_seen.append((task.place, lit))
            seeds = STORE_SEEDS if lit[0] >= len(self.cells) - 2 else 1
            self.weight[lit[0]] += seeds * SEED_RAW
        elif task.kind == PRESS:
            if task.button not in self.dead:
                self.press(task.button, now)
        elif task.kind == HEARD:
            if not self.heard:
                return
            self.press("confirm", now)
        self.done = task

    def press(self, button, now):
        gpio = self.buttons[button]
        machine.drive(gpio, 0)
        self.release = (gpio, now + PRESS_MS)


class World(ManualClock):
    """Time, and the maker acting as it passes."""

    def __init__(self):
        ManualClock.__init__(self)
        self.maker = None

    def sleep_ms(self, ms):
        if self.maker is not None and ms > 0:
            self.maker.act(self.now_ms)
        ManualClock.sleep_ms(self, ms)


def _self_test(data=None, periods=None, dead=()):
    """The self-test of rig's 2 x 6 board (its cells `data`: DOUT pins in place order, and
    `periods`), HINT held at boot, and the maker at it. Its waits are shortened: MicroPython
    under node runs the fake PIO about 12 times slower than real time."""
    world = World()
    machine.reset_fakes()
    machine.use_clock(world)
    if periods is None:
        periods = spread_periods(len(rig.DATA), 0.03, 7)
    cells = loadcells.direct(rig.SCK, rig.DATA if data is None else data, periods=periods)
    machine.drive(rig.BUTTONS["hint"], 0)           # HINT held while the board powers up
    port = MemoryPort()
    app = main.start(rig.board_config("standalone"), world, port)
    machine.drive(rig.BUTTONS["hint"], 1)
    maker = Maker(cells, app.device, dead)
    maker.person = app.person
    world.maker = maker
    app.person.ready_ms = 20
    bringup = app.bringup
    bringup.look_ms = 400
    bringup.flash_ms = 100
    bringup.press_ms = 200
    return app, maker, port


def _said(port):
    return port.take().decode().split("\r\n")


def test_hint_held_at_boot_starts_the_self_test():
    clock = rig.fresh_pico()
    machine.drive(rig.BUTTONS["hint"], 0)
    app = main.start(rig.board_config("standalone"), clock, MemoryPort())
    assert isinstance(app, SelfTest)
    assert machine.WDT.instance is None             # the watchdog waits for the main loop
    clock = rig.fresh_pico()                        # and in bridge mode too
    machine.drive(rig.BUTTONS["hint"], 0)
    assert isinstance(main.start(rig.board_config("bridge"), clock, MemoryPort()), SelfTest)


def test_crossed_data_wires_are_named_and_the_rest_is_ok():
    data = list(rig.DATA)
    data[1], data[4] = data[4], data[1]     # South's pit 2's cell on pit 5's DOUT pin, and back
    app, maker, port = _self_test(data)
    report = app.test()
    lines = _said(port)
    text = "\n".join(lines)
    # the maker put each seed where the strip lit, and only that place was lit
    assert [asked for asked, _ in maker.lit_seen] == list(range(14))
    assert all(lit == [asked] for asked, lit in maker.lit_seen), maker.lit_seen
    assert "  A seed on South's pit 2 weighs on South's pit 5's input (GP7)." in lines, text
    assert "  A seed on South's pit 5 weighs on South's pit 2's input (GP4)." in lines
    assert "  %s: ok (+10" % place_words(13, 6) in text    # five seeds on North's store
    assert [fix.text for fix in report.fixes] == [
        "South's pit 2 and South's pit 5 are crossed: a seed on South's pit 2 weighs on "
        "South's pit 5's input (GP7), and a seed on South's pit 5 weighs on South's pit 2's "
        "input (GP4). Swap their two DAT wires (on GP4 and GP7); or, if the lit rings were not "
        "round the places named, those rings are the other way round in the chain."]
    # every other place, cell, button and the buzzer: ok; each HX711 at about 93 a second
    assert all(report.tested) and not report.ok
    assert min(report.rates) > 85 and report.frame_rate > 80
    assert all(report.buttons.values()) and report.buzzer is True
    assert lines[-2] == "%s: 1 to fix" % SELF_TEST_DONE
    # on the strip: the crossed places flash in the error colour, the rest steady green
    frame = app.board.frame
    assert frame.places[1] == frame.places[4] == ("error", "flash")
    assert [place for place in range(14) if frame.places[place] == ("hint", "steady")] == [
        place for place in range(14) if place not in (1, 4)]
    # a listener that comes late asks (any byte) and gets everything from the start
    port.feed(b"\n")
    app.step()
    assert _said(port) == [SELF_TEST_START] + lines     # (each ends with its line break)


def test_a_breakout_left_at_10_sps_is_found_with_its_fix():
    periods = spread_periods(len(rig.DATA), 0.03, 7)
    periods[13] = PERIOD_10SPS_US           # North's store's breakout left at RATE low
    app, maker, port = _self_test(periods=periods)
    bringup = app.bringup
    assert bringup.look()                   # the empty board, then the rates
    bringup.rates()
    report = bringup.report
    # every reading waits for the slow breakout, and its fix is named. (Which breakout it is,
    # the Pico tells once its ReadPlanner reports a 10 SPS chip's own period: see
    # tests/test_bringup.py, test_a_breakout_left_at_10_sps_is_named_with_its_fix.)
    assert 10 < report.frame_rate < 12.5
    fixes = [fix.text for fix in report.fixes]
    assert len(fixes) == 1 and "still at 10 SPS" in fixes[0], fixes
    assert "SJ2 and wire RATE to VDD" in fixes[0]
    assert 'see hardware/README.md ("The HX711 breakouts")' in fixes[0]
    assert "  the board sends %.1f frames a second: too few (one slow HX711 slows every " \
        "reading)" % report.frame_rate in _said(port)


def test_a_button_that_never_comes_is_named():
    app, maker, port = _self_test(dead=("undo",))
    bringup = app.bringup
    bringup.buttons()
    report = bringup.report
    assert [fix.text for fix in report.fixes] == [
        "No press came from UNDO: check its two wires, to GP19 and to GND, on two diagonally "
        "opposite legs of the switch."]
    assert report.buttons == {"new_game": True, "undo": False, "hint": True, "confirm": True}
    assert "  UNDO: no press came" in _said(port)
