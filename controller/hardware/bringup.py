"""`layli hardware test`: the bring-up test of a board just built, from a host (host-only).

    layli hardware test --profile pico-bridge-2x6 --port /dev/ttyACM0
    layli hardware test --profile pi-direct-2x6                # on the board's own Pi
    layli hardware test --profile pico-standalone-2x6 --port /dev/ttyACM0

The procedure is `controller.session.bringup.BringUp` (portable: the Pico runs the same one
in its self-test): each place lit in turn with a seed asked for there, the sensor that answers
named when it is another place's, every load cell's readings and rate, the buttons and the
buzzer, and a one-screen report. This module gives it a board and a person:

- `PicoBoard`: a pico-bridge board, the Pico's bridge firmware over USB (`PicoBridge`). The
  LEDs are drawn here through the profile's LED layout and sent as whole strips (`Leds`), so
  what lights is the profile's idea of each place, whatever the Pico's config.json holds;
  each HX711's conversion period comes from the Pico's `State`.
- `GpioBoard`: a pi-direct board, the Pi's own GPIO (`DirectBoard`): IR beams, the strip,
  the buttons and the buzzer.
- `ConsolePerson`: the person at the board, on this terminal: Enter when nothing happens.

A pico-standalone board tests itself (firmware/selftest.py: HINT held at power-on); `relay`
reads what its Pico says on the USB serial port and shows it here.

`command(...)` is the CLI's: exit status 0 when all is well, 1 when something needs fixing.
"""

from __future__ import annotations

import select
import sys
import time
import warnings
from typing import Any, Callable, Protocol, TextIO

from controller.errors import UsageError
from controller.guide.frame import DARK, STEADY, Frame
from controller.guide.pixels import LedLayout, render
from controller.hardware.profile import Profile
from controller.protocol.messages import Buzz, Leds, State, StateRequest
from controller.session.bringup import (AWAY, HAND, PRESS, SEED, SELF_TEST_DONE,
                                        SELF_TEST_START, BringUp, Report, Task)

POLL_S = 0.005              # a wait reads the board this often
HELLO_MS = 5000             # a Pico that has not said Hello by then is not running the bridge
STATE_MS = 1000             # how long to wait for the Pico's State
REDRAW_MS = 100             # an animated frame (a flashing place) is sent again this often
BEEP = (2000, 500)          # hz, ms: a PS1240 piezo is loud near 2-4 kHz
PICO_VID = 0x2E8A           # Raspberry Pi's USB vendor id: a Pico running MicroPython
RELAY_FIRST_S = 5.0         # a self-test that says nothing by then is not running
RELAY_QUIET_S = 120.0       # ... nor one quiet this long (its longest wait is 30 s)


class Clock(Protocol):
    """Time for a board: `now_ms()` and `sleep_ms(ms)`."""

    def now_ms(self) -> int: ...

    def sleep_ms(self, ms: float) -> None: ...


class MonotonicClock:
    """The real time of this computer."""

    def now_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000

    def sleep_ms(self, ms: float) -> None:
        time.sleep(ms / 1000)


class _Strip:
    """What both host boards share: the guide's frame drawn through the profile's layout,
    redrawn while it has a pattern that moves."""

    def __init__(self, profile: Profile, clock: Clock) -> None:
        self.layout = profile.led_layout()
        self.led_order = profile.leds.order
        self.places = profile.places
        self.clock = clock
        self.frame: Frame | None = None
        self._drawn_ms = 0
        pins: dict[Any, str] = {name: pin for name, pin in profile.buttons.items()}
        pins["buzzer"] = profile.buzzer_pin
        if profile.sensors.clock_pin:
            pins["clock"] = profile.sensors.clock_pin
        pins.update(enumerate(profile.sensors.channels))
        self._pins = pins

    def pin(self, what: int | str) -> str:
        """Where a wire goes: a sensor channel's input, a button's pin, "buzzer", "clock"."""
        return self._pins.get(what, str(what))

    @property
    def leds(self) -> LedLayout:
        """Which strip LEDs light each place, and the caps (the bring-up's LED check)."""
        return self.layout

    def show(self, frame: Frame) -> None:
        self.frame = frame
        self._draw(self.clock.now_ms())

    def show_leds(self, pixels: list[tuple[int, int, int]]) -> None:
        """The whole strip as it is given, one (r, g, b) an LED (no frame redrawn over it)."""
        self.frame = None
        self._send(pixels)

    def _redraw(self, now: int) -> None:
        frame = self.frame
        if frame is not None and now - self._drawn_ms >= REDRAW_MS and any(
                pattern not in (DARK, STEADY) for _, pattern in frame.places):
            self._draw(now)

    def _draw(self, now: int) -> None:
        self._drawn_ms = now
        self._send(render(self.frame, self.layout, now))

    def wait(self, ms: int) -> tuple[list[tuple[int, list]], list[str]]:
        """Let `ms` pass, the strip redrawn meanwhile: the sensor frames, (t_ms, values), and
        the buttons pressed, in order."""
        clock = self.clock
        end = clock.now_ms() + ms
        frames: list[tuple[int, list]] = []
        presses: list[str] = []
        while True:
            got, pressed = self._read()
            frames.extend(got)
            presses.extend(pressed)
            now = clock.now_ms()
            self._redraw(now)
            if now >= end:
                return frames, presses
            clock.sleep_ms(min(POLL_S * 1000, end - now))

    def _read(self) -> tuple[list[tuple[int, list]], list[str]]:
        raise NotImplementedError

    def _send(self, pixels: list[tuple[int, int, int]]) -> None:
        raise NotImplementedError


class PicoBoard(_Strip):
    """A pico-bridge board for the bring-up test: `bridge` (a PicoBridge, open) on `clock`."""

    counting = True

    def __init__(self, bridge: Any, profile: Profile, clock: Clock) -> None:
        super().__init__(profile, clock)
        self.bridge = bridge
        self.channels = profile.places
        self.state: State | None = None
        # PicoBridge.read() logs the Pico's State and keeps nothing of it: the last one is
        # kept here as it passes (until PicoBridge keeps it itself)
        receive = bridge.link.receive

        def keep_state(data: bytes) -> list:
            messages = receive(data)
            for message in messages:
                if isinstance(message, State):
                    self.state = message
            return messages
        bridge.link.receive = keep_state

    def connect(self, port: str, profile: Profile) -> None:
        """Wait for the Pico's Hello and its State: UsageError when none comes, or when the
        Pico's config.json is another board's (other sensor channels, another strip)."""
        waited = 0
        while self.bridge.device is None:
            if waited >= HELLO_MS:
                raise UsageError("no answer from the Pico on %s in %d s: is it running the "
                                 "bridge firmware (firmware/README.md)? A pico-standalone "
                                 "board tests itself: give its profile" % (
                                     port, HELLO_MS // 1000))
            self.wait(50)
            waited += 50
        self.periods_us()
        state = self.state
        if state is None:
            return
        leds = len(state.pixels) // 3
        if state.channels != self.channels or leds != self.layout.count:
            raise UsageError(
                "the Pico on %s has %d sensor channels and a strip of %d LEDs; profile %s has "
                "%d and %d: its config.json is another board's (layli firmware "
                "config %s -o config.json, then layli firmware deploy config.json "
                "--config-only)" % (port, state.channels, leds, profile.name, self.channels,
                                  self.layout.count, profile.name))

    def _send(self, pixels: list[tuple[int, int, int]]) -> None:
        self.bridge.link.send(Leds(bytes(value for pixel in pixels for value in pixel)))

    def _read(self) -> tuple[list[tuple[int, list]], list[str]]:
        return self.bridge.read()

    def periods_us(self) -> list[int] | None:
        """Each HX711's conversion period, from a fresh State (None when none comes)."""
        self.state = None
        self.bridge.link.send(StateRequest())
        waited = 0
        while self.state is None and waited < STATE_MS:
            self.wait(20)
            waited += 20
        return None if self.state is None else self.state.periods_us

    def beep(self) -> None:
        self.bridge.link.send(Buzz(*BEEP))

    def close(self) -> None:
        self.bridge.close()


class GpioBoard(_Strip):
    """A pi-direct board for the bring-up test: `io` (a DirectBoard) on `clock`."""

    counting = False

    def __init__(self, io: Any, profile: Profile, clock: Clock) -> None:
        super().__init__(profile, clock)
        self.io = io
        self.channels = len(profile.sensors.channels)

    def _send(self, pixels: list[tuple[int, int, int]]) -> None:
        self.io.show(self.frame, pixels)

    def _read(self) -> tuple[list[tuple[int, list]], list[str]]:
        return self.io.read()                   # each read samples every beam once

    def periods_us(self) -> None:
        return None

    def beep(self) -> None:
        self.io.beep("mistake")                 # two long beeps

    def close(self) -> None:
        self.io.close()


class ConsolePerson:
    """The person at the board, on this terminal: what to do, one line at a time; Enter when
    nothing happens; y or n to a question. `status` keeps one line up to date in place while
    the board waits (on a terminal only)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._status = 0                        # the width of the status line on show

    def _clear(self) -> None:
        if self._status:
            self.stdout.write("\r%s\r" % (" " * self._status))
            self._status = 0

    def tell(self, text: str) -> None:
        self._clear()
        print(text, file=self.stdout, flush=True)

    def _input(self, prompt: str) -> str | None:
        self._clear()
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:                            # the end of the input: no one to answer
            self.stdout.write("\n")
            return None
        return line.strip()

    def ready(self, text: str) -> None:
        self._input("%s Then press Enter. " % text)

    def ask(self, task: Task) -> None:
        self._drain()
        hint = "  (Enter if nothing happens)" if task.kind in (SEED, HAND, PRESS) else ""
        self.tell(task.text + hint)

    def status(self, text: str) -> None:
        if not self.stdout.isatty():
            return
        line = "  ... " + text
        self.stdout.write("\r" + line.ljust(self._status))
        self.stdout.flush()
        self._status = max(self._status, len(line))

    def _waiting(self) -> bool:
        try:
            return bool(select.select([self.stdin], [], [], 0)[0])
        except (OSError, ValueError):           # not a file select can wait on
            return False

    def _drain(self) -> None:
        """Forget an Enter pressed before the question it would answer."""
        while self._waiting():
            if not self.stdin.readline():
                break

    def gave_up(self) -> bool:
        if self._waiting():
            self.stdin.readline()
            return True
        return False

    def choose(self, task: Task) -> str | None:
        """One of `task.options`, as typed (any case; the first letters of one will do when
        they are no other's); None at the end of the input."""
        options = list(task.options or ())
        while True:
            reply = self._input(task.text + " ")
            if reply is None:
                return None
            typed = reply.strip().lower()
            exact = [o for o in options if o.lower() == typed]
            start = [o for o in options if typed and o.lower().startswith(typed)]
            if exact or len(start) == 1:
                return (exact or start)[0]
            self.tell("Please answer one of: %s." % ", ".join(options))

    def answer(self, task: Task) -> bool | None:
        while True:
            reply = self._input(task.text + " ")
            if reply is None:
                return None
            if reply.lower() in ("y", "yes"):
                return True
            if reply.lower() in ("n", "no"):
                return False
            self.tell("Please answer y or n.")


def open_board(profile: Profile, port: str | None, clock: Clock,
               serial: Any = None, **direct: Any) -> PicoBoard | GpioBoard:
    """The board of `profile` for the test: its Pico on serial `port` (pico-bridge), or this
    Pi's own GPIO (pi-direct; `direct` goes to DirectBoard: pin factories in tests)."""
    from controller.drivers.common import DeviceError

    if profile.kind == "pico-bridge":
        from controller.drivers.pico import PicoBridge

        bridge = PicoBridge(port, profile.name, profile.places, now_ms=clock.now_ms,
                            serial=serial)
        try:
            bridge.open()
        except DeviceError as error:            # it names the port and what to check
            raise UsageError(str(error))
        board = PicoBoard(bridge, profile, clock)
        try:
            board.connect(port, profile)
        except UsageError:
            board.close()
            raise
        return board
    try:
        from controller.drivers.direct import DirectBoard

        with warnings.catch_warnings():     # gpiozero's pin libraries it tried on the way
            warnings.simplefilter("ignore")
            io = DirectBoard(profile, now_ms=clock.now_ms, **direct)
    except DeviceError as error:            # the strip: it says what to check
        raise UsageError(str(error))
    except (ImportError, RuntimeError) as error:    # gpiozero's BadPinFactory: no Pi here
        raise UsageError("profile %s drives this computer's own GPIO, which it cannot here: "
                         "%s (run the test on the board's Raspberry Pi, with pip install -e "
                         "'.[pi]')" % (profile.name, error))
    return GpioBoard(io, profile, clock)


def bring_up(board: PicoBoard | GpioBoard, person: Any, profile: Profile) -> Report:
    """The test of `board` with `person`; the report."""
    return BringUp(board, person, profile.pits).run()


def relay(port: str, out: TextIO | None = None, serial: Any = None,
          clock: Callable[[], float] = time.monotonic) -> int:
    """What a Pico in its self-test says on serial `port`, from its start, shown on `out`;
    0 when it found all well, 1 when something needs fixing. UsageError when it says
    nothing: it is not in its self-test."""
    from controller.drivers.common import DeviceError
    from controller.drivers.serial_link import SerialLink

    out = out or sys.stdout
    link = serial or SerialLink(port)
    try:
        link.open()
    except DeviceError as error:
        raise UsageError(str(error))
    try:
        link.write(b"\n")                       # any byte: everything from the start
        started = False
        pending = b""
        heard = clock()
        while True:
            data = link.read()
            now = clock()
            if data:
                heard = now
                pending += data
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                line = raw.decode("utf-8", "replace").rstrip("\r")
                if line == SELF_TEST_START:
                    started = True              # lines before it come again after it
                    continue
                if not started:
                    continue
                print(line, file=out, flush=True)
                if line.startswith(SELF_TEST_DONE):
                    return 0 if line.endswith("all is well") else 1
            if not started and now - heard > RELAY_FIRST_S:
                raise UsageError(
                    "the Pico on %s is not in its self-test (it did not answer in %d s). "
                    "Switch the board off, hold HINT down, switch it on, let go, then run "
                    "this again" % (port, RELAY_FIRST_S))
            if started and now - heard > RELAY_QUIET_S:
                print("The Pico went quiet for %d s in the middle of its self-test: did it "
                      "reset? Run the test again." % RELAY_QUIET_S, file=out)
                return 1
    finally:
        link.close()


def pico_port() -> str:
    """The serial device of the one Pico on USB (Raspberry Pi's vendor id), or UsageError."""
    from serial.tools import list_ports

    found = [port.device for port in list_ports.comports() if port.vid == PICO_VID]
    if len(found) == 1:
        return found[0]
    if not found:
        raise UsageError("no Pico found on USB: plug it in, or give --port DEVICE (e.g. "
                         "/dev/ttyACM0)")
    raise UsageError("%d Picos on USB (%s): give --port DEVICE" % (len(found),
                                                                   ", ".join(found)))


def command(profile: Profile, port: str | None, person: Any = None,
            out: TextIO | None = None) -> int:
    """`layli hardware test`: the test of `profile`'s board; the exit status."""
    out = out or sys.stdout
    if profile.kind in ("pico-bridge", "pico-standalone") and not port:
        port = pico_port()
        print("the Pico on %s" % port, file=out)
    if profile.kind == "pico-standalone":
        return relay(port, out)
    clock = MonotonicClock()
    board = open_board(profile, port, clock)
    try:
        report = bring_up(board, person or ConsolePerson(stdout=out), profile)
    finally:
        board.close()
    print("", file=out)
    print("Bring-up report: %s" % profile.name, file=out)
    for line in report.lines():
        print(line, file=out)
    return 0 if report.ok else 1
