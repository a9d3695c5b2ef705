"""The board's buttons, its buzzer and the digital pit sensors of `pi-direct`, through gpiozero.

    buttons = BoardButtons({"new_game": 5, "undo": 6, "hint": 13, "confirm": 19})
    buttons.presses()              # [ButtonPress(button='undo', t_ms=81234)]: since the last call

    buzzer = BoardBuzzer(12)
    buzzer.beep("mistake")         # returns at once; the pattern plays in the background

    sensors = PitSensors([4, 17, 27, 22, 23, 24, 25, 8, 7, 11, 9, 10])
    activity.feed(t_ms, sensors.levels())     # a controller.sensing.ActivitySensor

Pins are BCM numbers. Every class takes gpiozero's `pin_factory` (None: the default, lgpio on a
current Raspberry Pi OS); tests set `gpiozero.Device.pin_factory = MockFactory()`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from threading import Thread, current_thread
from typing import Any, NamedTuple

from gpiozero import Button, Buzzer, DigitalInputDevice, PWMOutputDevice
from gpiozero.threads import GPIOThread

from controller.protocol.messages import BUTTONS

from .common import bcm_pin, check_number


# Beep patterns for an active buzzer (it sounds its own tone while powered): (on ms, off ms) per
# beep. Each event has a rhythm of its own, since a buzzer has no other way to tell them apart.
BEEPS = {
    "step_ok": ((15, 0),),                            # a tick: many per move, so barely there
    "mistake": ((250, 100), (250, 0)),                # two long: stop and look at the LEDs
    "move_done": ((60, 60), (60, 0)),                 # two short
    "game_over": ((120, 80), (120, 80), (500, 0)),    # short, short, long
}


def monotonic_ms() -> int:
    """Milliseconds from a clock that never goes back (the default clock of the buttons)."""
    return time.monotonic_ns() // 1_000_000


def _check_pins(pins: Sequence[int], names: Sequence[str]) -> None:
    """Raise a ValueError unless every pin is a BCM pin and none is given twice; `names[i]`
    names what pin i is for."""
    owner: dict[int, str] = {}
    for pin, name in zip(pins, names):
        bcm_pin(pin, name)
        if pin in owner:
            raise ValueError("GPIO %d is given to both %s and %s" % (pin, owner[pin], name))
        owner[pin] = name


class ButtonPress(NamedTuple):
    """A press of one of the board's buttons: its name (one of BUTTONS) and when, in ms."""
    button: str
    t_ms: int


class BoardButtons:
    """The board's buttons, `pins` mapping each name of BUTTONS the board has to its BCM pin.

    A press is recorded when it happens (gpiozero calls back from its own thread) and handed
    over by `presses()`, in order; `on_press(press)`, if given, is called at once as well, in
    gpiozero's thread. Times come from `clock_ms` (default: `monotonic_ms`).

    - `pull_up=True`: each button connects its pin to ground, against the Pi's internal
      pull-up (no resistor to wire). False: to 3.3 V against the internal pull-down.
    - `bounce_ms=50`: contacts chatter for a few ms as they close and open. It is given to
      gpiozero as `bounce_time`, which the Pi's pin drivers apply, and also kept here: a press
      less than `bounce_ms` after the button's last edge is chatter, whatever the pin factory
      (gpiozero's MockPin, for one, does not debounce).
    """

    def __init__(self, pins: Mapping[str, int], *, pull_up: bool = True, bounce_ms: float = 50,
                 on_press: Callable[[ButtonPress], Any] | None = None,
                 clock_ms: Callable[[], int] = monotonic_ms, pin_factory: Any = None) -> None:
        if not isinstance(pins, Mapping) or not pins:
            raise ValueError("buttons are a mapping of button name to BCM pin, not %r" % (pins,))
        for name in pins:
            if name not in BUTTONS:
                raise ValueError("unknown button %r: a board's buttons are %s" % (
                    name, ", ".join(BUTTONS)))
        _check_pins(list(pins.values()), ["button %r" % name for name in pins])
        check_number(bounce_ms, "bounce_ms", zero=True)
        self.bounce_ms = bounce_ms
        self._on_press = on_press
        self._clock_ms = clock_ms
        self._presses: deque[ButtonPress] = deque()     # appended in gpiozero's thread
        self._last_edge: dict[str, int] = {}
        self._buttons: dict[str, Button] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=pull_up, bounce_time=bounce_ms / 1000 or None,
                                pin_factory=pin_factory)
                self._buttons[name] = button
                button.when_pressed = self._edge_handler(name, True)
                button.when_released = self._edge_handler(name, False)
        except Exception:
            self.close()                  # release the pins already taken
            raise

    def _edge_handler(self, name: str, pressed: bool) -> Callable[[], None]:
        """A handler for one button's edges (gpiozero calls it with no arguments)."""
        return lambda: self._edge(name, pressed)

    def _edge(self, name: str, pressed: bool) -> None:
        now = self._clock_ms()
        last = self._last_edge.get(name)
        self._last_edge[name] = now
        if not pressed or (last is not None and now - last < self.bounce_ms):
            return
        press = ButtonPress(name, now)
        self._presses.append(press)
        if self._on_press is not None:
            self._on_press(press)

    def presses(self) -> list[ButtonPress]:
        """The presses since the last call, oldest first."""
        taken = []
        while self._presses:
            taken.append(self._presses.popleft())
        return taken

    def is_held(self, name: str) -> bool:
        """Whether button `name` is down now (say, confirm held at power-up)."""
        if name not in self._buttons:
            raise ValueError("this board has no button %r (it has %s)" % (
                name, ", ".join(self._buttons)))
        return self._buttons[name].is_pressed

    def close(self) -> None:
        """Release the pins."""
        for button in self._buttons.values():
            button.close()
        self._buttons = {}

    def __enter__(self) -> BoardButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _check_pattern(pattern: object) -> tuple[tuple[float, float], ...]:
    """`pattern` as a tuple of (on ms, off ms), or a ValueError naming the bad beep."""
    if not isinstance(pattern, (list, tuple)) or not pattern:
        raise ValueError("a beep pattern is a list of (on ms, off ms), not %r" % (pattern,))
    for index, beep in enumerate(pattern):
        if not (isinstance(beep, (list, tuple)) and len(beep) == 2):
            raise ValueError("beep %d: %r is not (on ms, off ms)" % (index, beep))
        check_number(beep[0], "beep %d: on ms" % index)
        check_number(beep[1], "beep %d: off ms" % index, zero=True)
    return tuple((on, off) for on, off in pattern)


class _Piezo(PWMOutputDevice):
    """A passive piezo: on() is a square wave at half duty, not a steady level."""

    def on(self) -> None:
        self.value = 0.5


class BoardBuzzer:
    """A buzzer on BCM pin `pin` that plays beep patterns in the background: `beep(name)` with
    a name of BEEPS, or `play(pattern)`. Both return at once; a new pattern cuts the one
    playing, since the newest event is the one the player needs to hear.

    An active buzzer sounds its own tone while powered (`active_high=False` if a low level
    sounds it). A passive piezo has no oscillator: give `tone_hz` and the pin is driven with a
    square wave of that frequency (gpiozero's PWMOutputDevice, half duty) while it sounds."""

    def __init__(self, pin: int, *, active_high: bool = True, tone_hz: float | None = None,
                 pin_factory: Any = None) -> None:
        self.pin = bcm_pin(pin, "the buzzer")
        if tone_hz is None:
            self._buzzer = Buzzer(pin, active_high=active_high, pin_factory=pin_factory)
        else:
            check_number(tone_hz, "tone_hz")
            self._buzzer = _Piezo(pin, active_high=active_high, frequency=tone_hz,
                                  pin_factory=pin_factory)
        self._thread: GPIOThread | None = None

    def beep(self, name: str) -> None:
        """Play the pattern BEEPS[name]: "step_ok", "mistake", "move_done" or "game_over"."""
        if name not in BEEPS:
            raise ValueError("unknown beep %r: the beeps are %s" % (name, ", ".join(BEEPS)))
        self.play(BEEPS[name])

    def play(self, pattern: Sequence[tuple[float, float]]) -> None:
        """Play `pattern`, a list of (on ms, off ms), in the background."""
        pattern = _check_pattern(pattern)
        if self._buzzer.closed:
            raise ValueError("the buzzer on GPIO %d is closed" % self.pin)
        self.stop()
        self._thread = GPIOThread(self._sound, (pattern,))
        self._thread.start()

    def _sound(self, pattern: tuple[tuple[float, float], ...]) -> None:
        stopping = current_thread().stopping      # set by stop(): end early, silent
        try:
            for on_ms, off_ms in pattern:
                self._buzzer.on()
                if stopping.wait(on_ms / 1000):
                    return
                self._buzzer.off()
                if off_ms and stopping.wait(off_ms / 1000):
                    return
        finally:
            self._buzzer.off()

    @property
    def playing(self) -> bool:
        """Whether a pattern is still playing."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the pattern playing has ended (at most `timeout` s); True if it has."""
        if self._thread is not None:
            Thread.join(self._thread, timeout)   # GPIOThread's own join raises on a timeout
        return not self.playing

    def stop(self) -> None:
        """Silence the buzzer now."""
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
        if not self._buzzer.closed:
            self._buzzer.off()

    def close(self) -> None:
        """Silence the buzzer and release its pin."""
        self.stop()
        self._buzzer.close()

    def __enter__(self) -> BoardBuzzer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class PitSensors:
    """One digital sensor per pit (IR break-beam, touch or hall), `pins[i]` the BCM pin of pit
    i in absolute index order (docs/rules.md section 1), as `ActivitySensor` numbers them.

    `levels()` reads them all: 1 where a pit's sensor is active (a hand in the pit), else 0.
    What "active" is follows gpiozero's DigitalInputDevice:

    - `pull_up=True` (the default): active when the pin is pulled low. Open-collector sensors
      that pull their output low when they trigger: IR break-beam receivers, A3144 hall
      switches, a switch to ground.
    - `pull_up=None, active_state=True`: push-pull sensors that drive high when they trigger,
      such as TTP223 touch pads (the Pi's pulls stay off).

    No debouncing here: `ActivitySensor` debounces and reports stuck sensors, the same way on
    every board.
    """

    def __init__(self, pins: Sequence[int], *, pull_up: bool | None = True,
                 active_state: bool | None = None, pin_factory: Any = None) -> None:
        if not isinstance(pins, (list, tuple)) or not pins:
            raise ValueError("pit sensors are a list of BCM pins, one per pit, not %r" % (pins,))
        _check_pins(pins, ["pit %d" % i for i in range(len(pins))])
        self._devices: list[DigitalInputDevice] = []
        try:
            for pin in pins:
                self._devices.append(DigitalInputDevice(
                    pin, pull_up=pull_up, active_state=active_state, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise

    def __len__(self) -> int:
        return len(self._devices)

    def levels(self) -> list[int]:
        """0 or 1 per pit, 1 where the sensor is active: the frame `ActivitySensor.feed` takes."""
        return [1 if device.is_active else 0 for device in self._devices]

    def close(self) -> None:
        """Release the pins."""
        for device in self._devices:
            device.close()
        self._devices = []

    def __enter__(self) -> PitSensors:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
