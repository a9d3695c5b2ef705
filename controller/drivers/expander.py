"""Pit sensors behind MCP23017 I2C expanders, for boards with more pits than the Pi has pins
(the 2 x 12 pi-direct board: 24 beams on two expanders) (host-only).

    pits = ExpanderPits(["south.GPA0", "south.GPA1", ...], {"south": 0x20, "north": 0x21},
                        interrupts={"south": 17, "north": 27})
    pits.levels()            # 1 where a pit's input is high, in pit order

Through adafruit-circuitpython-mcp230xx on Blinka's I2C bus (`board.I2C()`, GPIO2 and GPIO3),
and gpiozero for the INTA lines. How each chip is set up, from Microchip's data sheet
(MCP23017/MCP23S17, DS20001952C, 2016, and DS20001952D, 2022; "DS 3.5.1" is a section):

- **The pits' inputs**: inputs (IODIR = 1) with the chip's weak pull-up (GPPU = 1, DS 3.5.7), as
  a beam receiver's open collector needs, and interrupt-on-change against the pin's previous
  level (GPINTEN = 1, INTCON = 0, DS 3.5.3-3.5.5).
- **GPA7 and GPB7**: outputs, driven low. DS20001952D, page 1: "Pins GPA7, GPB7 are output
  only for MCP23017". Microchip's knowledge-base articles "GPA7 & GPB7 Cannot Be Used as Inputs
  In MCP23017" and "On MCP23008/MCP23017 SDA line change when GPIO7 input change" give the
  reason: an input on GPx7 that changes during an I2C read can corrupt SDA. Product change
  notice SYST-30BCIH037 says only the document changed, not the silicon: every MCP23017 ever
  made is affected. So the library's own reset (`MCP23017(reset=True)` makes all 16 pins
  inputs) is not used, and no register is read before IODIR has made them outputs. Leave
  them unconnected: an output driven low must not be tied to 3V3.
- **Every other pin**: an input with its pull-up on and no interrupt. The GPIO inputs are
  Schmitt triggers that read 0 below 0.2 VDD and 1 above 0.8 VDD, with 1 uA of leakage at
  most (DS 1.1, D031/D041/D060): an open input could sit anywhere in between and read either
  way. The weak pull-up (40-115 uA, D070) holds it high, and an input cannot fight whatever a
  wrong wire joins it to, as an output, which sinks and sources milliamps (D080, D090), would.
- **IOCON = MIRROR | ODR** (DS 3.5.6): INTA says a pit of either port changed (MIRROR joins
  INTA and INTB), as an open-drain output (ODR; INTPOL is then ignored) pulled up by the Pi
  pin's own pull-up, so it is 3.3 V logic whatever the chip's supply. BANK stays 0 (the
  register map above) and SEQOP 0 (the address pointer steps on, so GPIOA and GPIOB are read
  in one transfer, DS 3.2.2.3).

Reading: a change on a pit's input latches an interrupt that holds INTA low until GPIO (or
INTCAP) is read (DS 3.6.4), so `levels()` reads an expander only while its INTA is low: one
I2C read of both ports then (16 bits, about 0.5 ms at the Pi's 100 kHz), none while nothing
changes, where reading at every frame (80 a second) would make 160 reads a second for two
expanders. Safeguards:

- every expander is also read in full every `full_read_ms` (250 ms), so a missed edge hides a
  beam for a quarter of a second at most;
- such a read first writes IODIR again and reads GPINTEN back: a chip reset by a dip in its
  supply comes back with every pin an input (GPA7 and GPB7 too), no pull-ups and no
  interrupts; it is told, and set up again;
- when those reads find a change that INTA did not signal, three times with no signalled
  change between, the INTA wire is taken to be broken: a warning names it, and that expander
  is read at every frame from then on, as is one with no pin in `interrupts`.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Mapping, Sequence

from .common import DeviceError, bcm_pin

log = logging.getLogger(__name__)

PORTS = {"GPA": 0, "GPB": 8}        # bit offset of each port in the 16-bit registers
OUTPUT_ONLY = 1 << 7 | 1 << 15      # GPA7 and GPB7 (DS20001952D, page 1)
IOCON_MIRROR = 0x40                 # DS 3.5.6: INTA and INTB internally connected
IOCON_ODR = 0x04                    # DS 3.5.6: INT pins open-drain (overrides INTPOL)
FULL_READ_MS = 250                  # the longest a missed edge can hide a change
MISSES_TO_DISTRUST = 3              # unsignalled changes in a row that condemn an INTA wire


def monotonic_ms() -> int:
    """Milliseconds from a clock that never goes back."""
    return time.monotonic_ns() // 1_000_000


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
    if int(number) == 7:
        raise ValueError("pit input %r: GPA7 and GPB7 of an MCP23017 are outputs only "
                         "(Microchip's data sheet since 2022): use GPA0-GPA6 or GPB0-GPB6"
                         % channel)
    return name, PORTS[port] + int(number)


class PitExpander:
    """One MCP23017 at I2C `address` (`chip`, an adafruit_mcp230xx MCP23017) whose `inputs`
    (a 16-bit mask, bit 0 GPA0 ... bit 15 GPB7) are pits; `inta` is the gpiozero input on BCM
    pin `inta_pin` that its INTA drives, or None to read it at every frame. `read()` gives its
    16 levels (see the module text); `clock_ms` times the full reads."""

    def __init__(self, name: str, address: int, chip: Any, inputs: int, inta: Any = None,
                 inta_pin: int | None = None, *, clock_ms: Callable[[], int] = monotonic_ms,
                 full_read_ms: int = FULL_READ_MS) -> None:
        if inputs & OUTPUT_ONLY:
            raise ValueError("expander %s: GPA7 and GPB7 are outputs only" % name)
        self.name = name
        self.address = address
        self.chip = chip
        self.inputs = inputs
        self.inta = inta
        self.inta_pin = inta_pin
        self.full_read_ms = full_read_ms
        self.iodir = 0xFFFF & ~OUTPUT_ONLY      # GPA7/GPB7 outputs, every other pin an input
        self.every_frame = inta is None         # no INTA to trust: read at every frame
        self.levels = 0
        self._clock_ms = clock_ms
        self._full_ms = 0                        # when the last full read was
        self._misses = 0                         # unsignalled changes since the last signal
        self.setup()

    def setup(self) -> None:
        """Write the set-up of the module text, then read GPIO (which clears any interrupt).
        Nothing is read before IODIR has made GPA7 and GPB7 outputs."""
        chip = self.chip
        chip.io_control = IOCON_MIRROR | IOCON_ODR   # first: how INTA drives, before any fires
        chip.gpio = 0x0000                       # OLAT (DS 3.5.10): GPA7/GPB7 will drive low
        chip.iodir = self.iodir
        chip.gppu = self.iodir                   # every input pulled up
        chip.ipol = 0x0000                       # GPIO reads the pins as they are
        chip.default_value = 0x0000              # DEFVAL: unused with INTCON = 0, known anyway
        chip.interrupt_configuration = 0x0000    # INTCON: against the previous level
        chip.interrupt_enable = self.inputs      # GPINTEN: the pits only, last
        self.levels = chip.gpio
        self._full_ms = self._clock_ms()

    def read(self) -> int:
        """The 16 levels now (bit 0 GPA0 ... bit 15 GPB7): read from the chip when its INTA
        says a pit changed, at every frame if it has no INTA to trust, and in full every
        `full_read_ms`; else the levels of the last read."""
        signalled = self.inta is not None and self.inta.is_active   # open drain: low = active
        now = self._clock_ms()
        if now - self._full_ms >= self.full_read_ms:
            self._full_read(now, signalled)
        elif signalled or self.every_frame:
            self.levels = self.chip.gpio         # clears the interrupt (DS 3.6.4)
        if signalled:
            self._misses = 0
        return self.levels

    def _full_read(self, now: int, signalled: bool) -> None:
        self._full_ms = now
        chip = self.chip
        # IODIR again before any read: a chip reset since the last full read has made GPA7
        # and GPB7 inputs (its POR value, 0xFF); GPINTEN (0 after a reset) then tells
        chip.iodir = self.iodir
        if chip.interrupt_enable != self.inputs:
            log.warning("expander %s at I2C address 0x%02x lost its set-up (it was reset: a "
                        "dip in its supply?): setting it up again", self.name, self.address)
            self.setup()
            return
        levels = chip.gpio
        missed = (levels ^ self.levels) & self.inputs
        self.levels = levels
        if missed and not signalled and not self.every_frame:
            self._misses += 1
            if self._misses >= MISSES_TO_DISTRUST:
                self.every_frame = True
                log.warning("expander %s: its INTA line (GPIO %s) did not signal %d changes of "
                            "the pits in a row: check that wire, from the chip's INTA (pin 20 "
                            "of the DIP) to the Pi; reading this expander at every frame from "
                            "now on", self.name, self.inta_pin, self._misses)

    def close(self) -> None:
        """Release the INTA input."""
        if self.inta is not None:
            self.inta.close()
            self.inta = None


class ExpanderPits:
    """One input per pit, `channels[i]` the expander input of pit i ("NAME.GPAn"/"NAME.GPBn"),
    `expanders` the I2C address of each expander by name, `interrupts` the BCM pin its INTA
    drives (an expander not in it is read every frame). `make_i2c` gives the bus, `pin_factory`
    is gpiozero's for the INTA inputs, `clock_ms` the clock of the full reads (tests give
    stand-ins for all three)."""

    def __init__(self, channels: Sequence[str], expanders: Mapping[str, int], *,
                 interrupts: Mapping[str, int] | None = None,
                 make_i2c: Callable[[], Any] = blinka_i2c, pin_factory: Any = None,
                 clock_ms: Callable[[], int] = monotonic_ms,
                 full_read_ms: int = FULL_READ_MS) -> None:
        from adafruit_mcp230xx.mcp23017 import MCP23017
        from gpiozero import DigitalInputDevice

        self.inputs = [channel_bit(channel, expanders) for channel in channels]
        if len(set(self.inputs)) != len(self.inputs):
            raise ValueError("two pits on the same expander input")
        interrupts = dict(interrupts or {})
        for name, pin in interrupts.items():
            if name not in expanders:
                raise ValueError("INTA of %r: no expander of that name (expanders: %s)" % (
                    name, ", ".join(sorted(expanders))))
            bcm_pin(pin, "INTA of expander %s" % name)
        self.expanders: dict[str, PitExpander] = {}
        names = sorted({name for name, _ in self.inputs})
        intas: dict[str, Any] = {}
        try:
            for name in names:
                if name in interrupts:     # open drain: the Pi pin's pull-up holds it high
                    intas[name] = DigitalInputDevice(interrupts[name], pull_up=True,
                                                     pin_factory=pin_factory)
            i2c = make_i2c()
            for name in names:
                inputs = sum(1 << bit for chip, bit in self.inputs if chip == name)
                try:
                    # reset=False: the library's reset makes GPA7/GPB7 inputs (see above)
                    chip = MCP23017(i2c, address=expanders[name], reset=False)
                    self.expanders[name] = PitExpander(
                        name, expanders[name], chip, inputs, intas.get(name),
                        interrupts.get(name), clock_ms=clock_ms, full_read_ms=full_read_ms)
                    intas.pop(name, None)            # closed by close() from now on
                except (OSError, ValueError) as error:
                    raise DeviceError("expander %s at I2C address 0x%02x does not answer (%s): "
                                      "check its wiring and address pins" % (
                                          name, expanders[name], error)) from error
        except BaseException:
            for inta in intas.values():
                inta.close()
            self.close()
            raise

    def __len__(self) -> int:
        return len(self.inputs)

    def levels(self) -> list[int]:
        """1 where a pit's input is high, 0 where it is low, in pit order."""
        ports = {name: expander.read() for name, expander in self.expanders.items()}
        return [ports[name] >> bit & 1 for name, bit in self.inputs]

    def close(self) -> None:
        """Release the INTA inputs."""
        for expander in self.expanders.values():
            expander.close()
        self.expanders = {}
