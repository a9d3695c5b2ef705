"""Pit sensors behind MCP23017 I2C expanders, for boards with more pits than the Pi has pins
(the 2 x 12 pi-direct board: 24 beams on two expanders) (host-only).

    pits = ExpanderPits(["south.GPA0", "south.GPA1", ...], {"south": 0x20, "north": 0x21})
    pits.levels()            # 1 where a pit's input is high, one I2C read per expander

Through adafruit-circuitpython-mcp230xx on Blinka's I2C bus (`board.I2C()`, GPIO2 and GPIO3).
Every input is set up with the expander's own 100 kOhm pull-up, as a beam receiver's open
collector needs. Each `levels()` reads each expander's two ports at once (GPIOA and GPIOB,
16 bits): at 400 kHz that is about 0.1 ms an expander, well inside a frame.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .common import DeviceError

PORTS = {"GPA": 0, "GPB": 8}        # bit offset of each port in the 16-bit GPIO register


def blinka_i2c() -> Any:
    """The Pi's I2C bus through Blinka; DeviceError where there is none."""
    try:
        import board
        return board.I2C()
    except (ImportError, NotImplementedError, RuntimeError, ValueError, AttributeError) as error:
        raise DeviceError("I2C for the pit expanders: Blinka has no I2C bus on this machine "
                          "(%s); on a Pi, enable it with raspi-config" % error) from error


def channel_bit(channel: str, expanders: Mapping[str, int]) -> tuple[str, int]:
    """"south.GPB2" -> ("south", 10); ValueError naming what is wrong."""
    name, _, pin = channel.partition(".")
    if name not in expanders:
        raise ValueError("pit input %r: no expander named %r (expanders: %s)" % (
            channel, name, ", ".join(sorted(expanders))))
    port, number = pin[:3], pin[3:]
    if port not in PORTS or not number.isdigit() or not 0 <= int(number) <= 7:
        raise ValueError("pit input %r: %r is not an MCP23017 pin (GPA0..GPA7, GPB0..GPB7)"
                         % (channel, pin))
    return name, PORTS[port] + int(number)


class ExpanderPits:
    """One input per pit, `channels[i]` the expander input of pit i ("NAME.GPAn"/"NAME.GPBn"),
    `expanders` the I2C address of each expander by name. `make_i2c` gives the bus (tests
    give a fake one)."""

    def __init__(self, channels: Sequence[str], expanders: Mapping[str, int], *,
                 make_i2c: Callable[[], Any] = blinka_i2c) -> None:
        from adafruit_mcp230xx.mcp23017 import MCP23017

        self.inputs = [channel_bit(channel, expanders) for channel in channels]
        if len(set(self.inputs)) != len(self.inputs):
            raise ValueError("two pits on the same expander input")
        i2c = make_i2c()
        self.chips: dict[str, Any] = {}
        for name in sorted({name for name, _ in self.inputs}):
            try:
                chip = MCP23017(i2c, address=expanders[name])
            except (OSError, ValueError) as error:
                raise DeviceError("expander %s at I2C address 0x%02x does not answer (%s): "
                                  "check its wiring and address pins" % (
                                      name, expanders[name], error)) from error
            chip.iodir = 0xFFFF             # all inputs ...
            chip.gppu = 0xFFFF              # ... pulled up
            self.chips[name] = chip

    def __len__(self) -> int:
        return len(self.inputs)

    def levels(self) -> list[int]:
        """1 where a pit's input is high, 0 where it is low, in pit order."""
        ports = {name: chip.gpio for name, chip in self.chips.items()}
        return [ports[name] >> bit & 1 for name, bit in self.inputs]

    def close(self) -> None:
        self.chips = {}
