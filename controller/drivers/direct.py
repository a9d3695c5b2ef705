"""A `pi-direct` board: a Raspberry Pi alone, its GPIO reading a digital sensor in every pit, the
buttons and the buzzer, and driving the NeoPixels itself (host-only).

    board = DirectBoard(profile)           # controller.hardware.profile.load("pi-direct-2x6")
    frames, presses = board.read()         # one frame of pit levels, the buttons pressed
    board.show(frame, pixels)
    board.beep("move_done")

It is the runner's `BoardIO` (controller/board/runner.py): each `read()` samples every pit once, so
the runner's loop rate is the sensors' frame rate. The pins come from the profile (`GPIO18` is
BCM 18); a board with more pits than pins reads them through MCP23017 I2C expanders
(`south.GPA0`: controller/drivers/expander.py), each read when its INTA pin says a pit changed.
"""

from __future__ import annotations

from typing import Any, Callable

from controller.errors import UsageError
from .expander import ExpanderPits
from .gpio import BoardButtons, BoardBuzzer, PitSensors, monotonic_ms
from .neopixels import NeoPixelStrip


def bcm(pin: str, key: str) -> int:
    """`GPIO18` -> 18; anything else is refused, naming the profile's key."""
    if not pin.startswith("GPIO") or not pin[4:].isdigit():
        raise UsageError("%s is %s, not one of the Pi's GPIO pins" % (key, pin))
    return int(pin[4:])


class DirectBoard:
    """The pi-direct board of `profile`. `pin_factory` (gpiozero's, e.g. MockFactory) and
    `make_pixelbuf` (see NeoPixelStrip) stand in for the hardware in tests."""

    def __init__(self, profile: Any, *, pin_factory: Any = None,
                 make_pixelbuf: Callable | None = None, make_i2c: Callable | None = None,
                 now_ms: Callable[[], int] = monotonic_ms) -> None:
        if profile.sensors.kind != "digital":
            raise UsageError("profile %s senses by weight: it is a Pico board, not pi-direct"
                             % profile.name)
        channels = profile.sensors.channels
        buttons = {name: bcm(pin, "buttons.%s" % name) for name, pin in profile.buttons.items()}
        self.now_ms = now_ms
        # every input is pulled up; beam receivers pull it low while they see the beam, so a
        # hand (a broken beam) reads high where the profile says active = "high"
        self.active_high = profile.sensors.active == "high"
        if all(channel.startswith("GPIO") for channel in channels):
            self.pits = PitSensors([bcm(pin, "sensors.pins[%d]" % i)
                                    for i, pin in enumerate(channels)],
                                   pull_up=True, pin_factory=pin_factory)
            self._high = self._gpio_high
        else:
            chips = [(k, e) for k, e in enumerate(profile.expanders) if e.type == "mcp23017"]
            expanders = {e.name: e.address for _, e in chips}
            # each expander's INTA, where the profile wires one: read only when it says so
            interrupts = {e.name: bcm(e.interrupt_pin, "expanders[%d].interrupt_pin" % k)
                          for k, e in chips if e.interrupt_pin}
            kwargs = {} if make_i2c is None else {"make_i2c": make_i2c}
            try:
                self.pits = ExpanderPits(channels, expanders, interrupts=interrupts,
                                         pin_factory=pin_factory, clock_ms=now_ms, **kwargs)
            except ValueError as error:
                raise UsageError("%s: sensors.pins: %s" % (profile.label, error))
            self._high = self.pits.levels
        self.buttons = BoardButtons(buttons, pin_factory=pin_factory, clock_ms=now_ms)
        # the shipped profiles fit a passive piezo: it needs a tone (2 kHz: loud, not shrill)
        self.buzzer = BoardBuzzer(bcm(profile.buzzer_pin, "buzzer.pin"), tone_hz=2000,
                                  pin_factory=pin_factory)
        leds = profile.leds
        kwargs = {} if make_pixelbuf is None else {"make_pixelbuf": make_pixelbuf}
        self.strip = NeoPixelStrip(bcm(leds.data_pin, "leds.data_pin"), leds.length, leds.order,
                                   **kwargs)

    def _gpio_high(self) -> list[int]:
        # gpiozero calls a pulled-up pin active when it is low
        return [1 - level for level in self.pits.levels()]

    def read(self) -> tuple[list[tuple[int, list[int]]], list[str]]:
        levels = self._high()
        if not self.active_high:
            levels = [1 - level for level in levels]
        return [(self.now_ms(), levels)], [press.button for press in self.buttons.presses()]

    def show(self, frame, pixels: list[tuple[int, int, int]]) -> None:
        self.strip.show(pixels)

    def beep(self, name: str) -> None:
        self.buzzer.beep(name)

    def close(self) -> None:
        for device in (self.strip, self.buttons, self.buzzer, self.pits):
            device.close()
