"""What the firmware's tests share: a fresh fake Pico on a manual clock, a board config, load
cells that follow a board of seeds, and a host at the other end of the link.

Plain Python for MicroPython and CPython: tests/test_firmware.py runs these tests in both,
with firmware/fakes first on the path (so `machine`, `rp2` and `neopixel` are the fakes).
"""

import os

import machine
import loadcells
from clock import ManualClock
import config
from controller.guide import AWAIT, RESTORE, SKIP, SOWING

DATA = list(range(3, 17))           # 14 cells: a 2 x 6 board's pits and stores
SCK = 2
LED_PIN = 22
BUTTONS = {"new_game": 18, "undo": 19, "hint": 20, "confirm": 21}
BUZZER = 17
TARE = [1000 * (i + 1) - 7000 for i in range(14)]
PER_SEED = [2000 + 10 * i for i in range(14)]


def fresh_pico():
    """Forget every fake pin and peripheral; a manual clock at 0 the fakes read too."""
    machine.reset_fakes()
    clock = ManualClock()
    machine.use_clock(clock)
    return clock


def board_config(mode="bridge", **changes):
    """A checked config of a 2 x 6 counting board (`changes` replace top-level keys)."""
    data = {"mode": mode, "profile": "pico-%s-2x6" % mode,
            "sensors": {"kind": "hx711", "clock": SCK, "data": DATA},
            "leds": {"pin": LED_PIN, "count": 28, "order": "GRB"},
            "buttons": BUTTONS, "buzzer": BUZZER, "watchdog_ms": 500,
            "game": {"variant": "layli-goobalay",
                     "layout": [[2 * place, 2 * place + 1] for place in range(14)]}}
    for key in changes:
        data[key] = changes[key]
    return config.check(data)


class Seeds:
    """Load cells under a board of seeds: `counts` (pits, then the stores) is the board the
    test moves seeds on; `load()` sets each cell's value from it with a little noise."""

    def __init__(self, counts):
        self.counts = counts
        self.cells = loadcells.direct(SCK, DATA)
        self._noise = 12345

    def noise(self):
        # a small generator of its own: the same noise under both runtimes
        self._noise = (self._noise * 1103515245 + 12345) & 0x7FFFFFFF
        return (self._noise >> 16) % 7 - 3

    def load(self):
        for i in range(len(self.cells)):
            self.cells[i].value = TARE[i] + self.counts[i] * PER_SEED[i] + self.noise()


def on_wire(strip, frame=-1):
    """What went down the data line of `strip` (a leds.Strip, or the number of the state
    machine that drives one) in its `frame`-th frame (the last by default), as the strip's
    own bytes in wire order (G, R, B for a WS2812B): the DMA's words into the LED state
    machine, each one's top 24 bits."""
    import rp2
    number = strip if isinstance(strip, int) else strip.state_machine
    words = rp2.StateMachine.machines()[number].transfers[frame]
    out = bytearray()
    for word in words:
        out.append(word >> 24 & 0xFF)
        out.append(word >> 16 & 0xFF)
        out.append(word >> 8 & 0xFF)
    return bytes(out)


def frames_sent(strip):
    """How many frames went down the strip's data line."""
    import rp2
    return len(rp2.StateMachine.machines()[strip.state_machine].transfers)


def calibration_json():
    from controller.sensing import Calibration
    return Calibration(TARE, PER_SEED, 0.02, noise=[2.0] * 14).to_json()


def fresh_folder(name):
    """An empty folder for a test's files, as a prefix ending in '/'."""
    try:
        import tempfile
        return tempfile.mkdtemp(prefix="layli-fw-") + "/"
    except ImportError:             # MicroPython: one process, the tests run one at a time
        folder = "/tmp/" + name
        try:
            os.mkdir("/tmp")
        except OSError:
            pass
        try:
            os.mkdir(folder)
        except OSError:
            for entry in os.listdir(folder):
                os.remove(folder + "/" + entry)
        return folder + "/"


def run(clock, app, ms, every=4, before=None):
    """Step `app` every `every` ms for `ms` ms of fake time (calling `before()` first)."""
    for _ in range(ms // every):
        if before is not None:
            before()
        app.step()
        clock.advance(every)


class Host:
    """The Pi's end of the link, on the other side of a MemoryPort: what it sends goes into
    the port for the device to read; `pump()` takes what the device wrote."""

    def __init__(self, clock, port, session=99):
        from controller.protocol import Hello, Link
        self.port = port
        self.link = Link(port.feed, clock.ticks_ms,
                         Hello("test-host 1", "pico-bridge-2x6", "host", session))
        self.received = []

    def pump(self):
        messages = self.link.receive(self.port.take())
        self.received.extend(messages)
        self.link.poll()
        return messages

    def of(self, name):
        """The messages received of the class named `name`."""
        return [m for m in self.received if type(m).__name__ == name]


def exchange(clock, bridge, host, ms, every=2, before=None):
    """Run the bridge and the host side by side for `ms` ms of fake time."""
    for _ in range(ms // every):
        if before is not None:
            before()
        bridge.step()
        host.pump()
        clock.advance(every)


def advance_board(guide, counts, steps):
    """Do the next `steps` steps of the move under way on the board `counts` (in AWAIT: of
    the first legal move), as a quick player who reads the script instead of the LEDs; in
    skip-ahead or takeback, set the board to the target at once."""
    phase = guide.phase
    if phase == SKIP or phase == RESTORE:
        counts[:] = guide.target.places()
        return
    if phase == AWAIT:
        game = guide.game
        script = game.copy().push(game.legal_moves()[0], script=True)
        board, done, mover = guide.board.copy(), 0, game.to_move
    elif phase == SOWING:
        script, board, done, mover = guide.script, guide.board.copy(), guide.done, guide.mover
    else:
        return
    for step in script[done:done + steps]:
        board.apply(step, mover)
    counts[:] = board.places()


def press(clock, app, button, every=4):
    """Press `button` (a name of rig.BUTTONS) for 60 ms and let it go, stepping `app`."""
    gpio = BUTTONS[button]
    machine.drive(gpio, 0)
    run(clock, app, 60, every)
    machine.drive(gpio, 1)
    run(clock, app, 60, every)
