"""The Pico's own bring-up test: hold HINT while the board powers up.

What `layli hardware test` does from a host, the Pico does by itself, for a pico-standalone
board (or any Pico board) with nothing but its own strip, buttons and buzzer and the USB
serial port: the same procedure (`controller.session.bringup.BringUp`), run here on the
device::

    app = SelfTest(device, port, clock)     # main.py, when HINT is held at boot
    app.run()                               # the test, then its report on show for ever

1. Every place dark for a few seconds: take every seed off and keep your hands off the board.
2. Each place lights in turn in its owner's colour (South's blue, North's orange): put one
   seed on it (five on a store) and leave it there. A seed that weighs on another place's
   cell flashes that place in the error colour.
3. Each button is asked for in turn (on the serial port), then the buzzer sounds: press any
   button if you heard it.
4. The report: on the strip every place steady green (ok), flashing (to fix) or yellow (not
   tested); on the serial port the one-screen report, then the line "layli self-test: done:
   all is well" (or "...: 2 to fix"; SELF_TEST_DONE).

Everything it says goes to the USB serial port as plain lines of text, and a listener that
comes late (`layli hardware test --port ...` on a computer, or any serial terminal) sends any
byte to get all of it again, after the line "layli self-test: from the start"
(SELF_TEST_START). The watchdog runs as in the other modes; CONFIRM held at power-on is still
safe mode (main.py).
"""

from controller.guide.frame import Frame, HINT, ERROR, FAULT, STEADY, FLASH
from controller.guide.pixels import render
from controller.session.bringup import (BringUp, HEARD, BUTTONS, POLL_MS, SELF_TEST_START,
                                        SELF_TEST_DONE)

RENDER_MS = 40              # the strip follows the patterns 25 times a second
READY_MS = 5000             # the empty board: the person's time to clear it
ANSWER_MS = 10000           # "press any button if you heard it"
IDLE_MS = 100               # the report on show: a turn of the loop


class PicoBoard:
    """The board of a bring-up test, as the Pico sees it: `device`'s sensors, strip, buttons
    and buzzer, on `clock`. Each turn of `wait` also calls each of `turns` (the serial port
    answering a listener)."""

    def __init__(self, device, clock):
        self.device = device
        self.clock = clock
        self.turns = []
        sensors = device.config["sensors"]
        self.counting = device.counting
        self.channels = device.sensors.channels if self.counting else len(sensors["pins"])
        if sensors["kind"] == "hx711-74hc165":
            self._inputs = ["74HC165 input %d" % k for k in range(sensors["cells"])]
        else:
            self._inputs = ["GP%d" % pin for pin in sensors.get("data", sensors.get("pins"))]
        self._pins = {"buzzer": "GP%d" % device.config["buzzer"]
                      if device.config["buzzer"] is not None else "no pin"}
        if "clock" in sensors:
            self._pins["clock"] = "GP%d" % sensors["clock"]
        for name in BUTTONS:
            gpio = device.config["buttons"].get(name)
            self._pins[name] = "no pin" if gpio is None else "GP%d" % gpio
        try:
            self.layout = device.led_layout()
        except ValueError:
            self.layout = None              # the strip cannot show places: words only
        self.frame = None
        self._render_at = 0

    @property
    def places(self):
        if self.layout is not None:
            return len(self.layout.leds)
        return self.channels if self.counting else self.channels + 2

    def pin(self, what):
        if isinstance(what, int):
            return self._inputs[what]
        return self._pins.get(what, what)

    def show(self, frame):
        self.frame = frame
        self._render_at = 0

    def wait(self, ms):
        """Let `ms` pass, the main loop turning: the sensors' frames and the presses."""
        device, clock = self.device, self.clock
        frames = []
        presses = []
        end = clock.ticks_ms() + ms
        while True:
            values = device.sensors.read()
            now = clock.ticks_ms()
            if values is not None:
                frames.append((now, values))
            for button, pressed, _ in device.buttons.poll():
                if pressed:
                    presses.append(BUTTONS[button])
            if self.frame is not None and self.layout is not None and now >= self._render_at:
                self._render_at = now + RENDER_MS
                device.strip.show_pixels(render(self.frame, self.layout, now))
            for turn in self.turns:
                turn()
            device.tick()
            if now >= end:
                return frames, presses
            clock.sleep_ms(1)

    def periods_us(self):
        sensors = self.device.sensors
        return sensors.periods_us() if hasattr(sensors, "periods_us") else None

    def beep(self):
        if self.device.buzzer is not None:
            self.device.buzzer.play(((2000, 250), (0, 100), (2000, 250)))


class SerialPerson:
    """The person at the board, as the Pico reaches them: lines of text on `port` (the USB
    serial port) and the strip of `board`; answers by the buttons. `said` keeps every line,
    for a listener that comes late; `task` is what was asked last."""

    def __init__(self, port, board, ready_ms=READY_MS):
        self.port = port
        self.board = board
        self.ready_ms = ready_ms
        self.said = []
        self.task = None
        board.turns.append(self.poll)

    def say(self, line):
        self.said.append(line)
        self._write(line)

    def _write(self, line):
        self.port.write((line + "\r\n").encode())

    def poll(self):
        """Any byte from a listener: everything said so far, from the start."""
        if self.port.read():
            self._write(SELF_TEST_START)
            for line in self.said:
                self._write(line)

    def tell(self, text):
        self.say(text)

    def ready(self, text):
        self.say("%s The test goes on in %d seconds." % (text, self.ready_ms // 1000))
        self.board.wait(self.ready_ms)

    def ask(self, task):
        self.task = task
        self.say(task.text)

    def status(self, text):
        pass                        # a line every quarter second would bury the rest

    def gave_up(self):
        return False                # no keyboard: each wait runs to its end

    def answer(self, task):
        """Did the buzzer sound: any button within ANSWER_MS is yes. Nothing else can be
        answered here (the buttons are tested after the places)."""
        if task.kind != HEARD:
            return None
        self.task = task
        self.say("Did you hear a beep? If you did, press any button (the test goes on in %d "
                 "seconds)." % (ANSWER_MS // 1000))
        waited = 0
        while waited < ANSWER_MS:
            _, presses = self.board.wait(POLL_MS)
            waited += POLL_MS
            if presses:
                return True
        return False


def report_frame(report, places):
    """The report on the strip: each place steady green (ok), flashing in the error colour
    (something of it to fix) or steady yellow (not tested); dark without a sensor."""
    frame = Frame(places)
    fixed = []
    for fix in report.fixes:
        fixed.extend(fix.channels)
    for place in range(min(places, report.channels)):
        if place in fixed:
            frame.set(place, ERROR, FLASH)
        elif report.tested[place]:
            frame.set(place, HINT, STEADY)
        else:
            frame.set(place, FAULT, STEADY)
    return frame


class SelfTest:
    """The bring-up test on the Pico (see the module): `device` on `clock`, its words on
    `port`."""

    def __init__(self, device, port, clock, ready_ms=READY_MS):
        self.device = device
        self.board = PicoBoard(device, clock)
        self.person = SerialPerson(port, self.board, ready_ms)
        places = self.board.places
        self.bringup = BringUp(self.board, self.person, (places - 2) // 2)
        self.report = None

    def test(self):
        """The test and its report (on the serial port and the strip); returns the Report."""
        say = self.person.say
        say("layli self-test (HINT held at power-on): %s" % self.device.config["profile"])
        report = self.bringup.run()
        say("")
        for line in report.lines():
            say(line)
        say("%s: %s" % (SELF_TEST_DONE, "all is well" if report.ok
                        else "%d to fix" % len(report.fixes)))
        self.board.show(report_frame(report, self.board.places))
        self.report = report
        return report

    def step(self):
        """A turn of the loop once the test is over: the report on show, a listener answered."""
        self.board.wait(IDLE_MS)

    def run(self):
        """The test, then its report on show until the power goes."""
        self.device.start_watchdog()
        self.test()
        while True:
            self.step()
