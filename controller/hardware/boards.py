"""The two controller boards a profile wires to: their header pins, the pins that are not free,
and the names a maker reads on the silkscreen (host-only).

    >>> PICO.check("GP22"), PICO.physical("GP22")
    (None, 29)
    >>> PICO.check("GP25")
    'GP25 is not on the Pico header (it drives the on-board LED)'
    >>> board_of("GPIO18").title, PI.physical("GPIO18")
    ('Raspberry Pi', 12)

A pin is written as its board names it: `GP<n>` on a Pico (the RP2040's GPIO number), `GPIO<n>`
on a Raspberry Pi (the Broadcom number that gpiozero and Blinka use), so a pin name alone says
which board it belongs to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PIN = re.compile(r"^(GP|GPIO)(\d+)$")


@dataclass(frozen=True)
class Board:
    """A controller board: `key` ("pico" or "pi"), its title, the prefix of its pin names, the
    name of every header pin by physical number (1..40), and why some GPIO are not free."""

    key: str
    title: str
    prefix: str
    header: tuple[str, ...]
    reserved: dict[int, str] = field(default_factory=dict)

    @property
    def usable(self) -> list[str]:
        """The free GPIO on the header, in GPIO order."""
        numbers = sorted(int(m.group(2)) for m in map(PIN.match, self.header)
                         if m and m.group(1) == self.prefix)
        return ["%s%d" % (self.prefix, n) for n in numbers if n not in self.reserved]

    def physical(self, pin: str) -> int | None:
        """The header pin (1..40) that carries `pin`, or None."""
        return self.header.index(pin) + 1 if pin in self.header else None

    def check(self, pin: str) -> str | None:
        """Why `pin` cannot be used on this board, or None when it is a free header GPIO."""
        match = PIN.match(pin)
        if not match or match.group(1) != self.prefix:
            return "%s is not a %s pin (write %s<n>)" % (pin, self.title, self.prefix)
        number = int(match.group(2))
        if number in self.reserved:
            return "%s %s" % (pin, self.reserved[number])
        if pin not in self.header:
            return "%s does not exist on the %s (its header has %s)" % (
                pin, self.title, span(self.usable))
        return None


def span(pins: list[str]) -> str:
    """`GP0-GP22, GP26-GP28`: a list of pin names as runs."""
    runs: list[list[int]] = []
    prefix = PIN.match(pins[0]).group(1) if pins else ""
    for pin in pins:
        number = int(PIN.match(pin).group(2))
        if runs and runs[-1][1] == number - 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join("%s%d" % (prefix, a) if a == b else "%s%d-%s%d" % (prefix, a, prefix, b)
                     for a, b in runs)


# Raspberry Pi Pico datasheet, "Pinout": 26 GPIO on the header; GP23 (SMPS power save), GP24
# (VBUS sense), GP25 (the LED) and GP29 (VSYS / 3) are wired on the board itself.
PICO = Board(
    key="pico", title="Pico", prefix="GP",
    header=("GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
            "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
            "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN",
            "GP26", "GP27", "GND", "GP28", "ADC_VREF", "3V3", "3V3_EN", "GND", "VSYS", "VBUS"),
    reserved={23: "is not on the Pico header (it sets the power supply's mode)",
              24: "is not on the Pico header (it senses VBUS)",
              25: "is not on the Pico header (it drives the on-board LED)",
              29: "is not on the Pico header (it measures VSYS)"},
)

# Raspberry Pi 40-pin header (Pi 2 and later), Broadcom numbers. GPIO0/1 belong to the HAT ID
# EEPROM; GPIO14/15 are the serial console's UART. GPIO2/3 (I2C1, with 1.8 kΩ pull-ups on the
# Pi) are checked by the profile checker: free only as the I2C bus.
PI = Board(
    key="pi", title="Raspberry Pi", prefix="GPIO",
    header=("3V3", "5V", "GPIO2", "5V", "GPIO3", "GND", "GPIO4", "GPIO14", "GND", "GPIO15",
            "GPIO17", "GPIO18", "GPIO27", "GND", "GPIO22", "GPIO23", "3V3", "GPIO24", "GPIO10",
            "GND", "GPIO9", "GPIO25", "GPIO11", "GPIO8", "GND", "GPIO7", "GPIO0", "GPIO1",
            "GPIO5", "GND", "GPIO6", "GPIO12", "GPIO13", "GND", "GPIO19", "GPIO16", "GPIO26",
            "GPIO20", "GND", "GPIO21"),
    reserved={0: "is reserved for the HAT ID EEPROM (ID_SD)",
              1: "is reserved for the HAT ID EEPROM (ID_SC)",
              14: "is the serial console's TXD: keep it free (or turn the console off and "
                  "say why in the profile)",
              15: "is the serial console's RXD: keep it free"},
)

BOARDS = {"pico": PICO, "pi": PI}


def board_of(pin: str) -> Board | None:
    """The board a pin name belongs to (by its prefix), or None for anything else."""
    match = PIN.match(pin)
    if not match:
        return None
    return PICO if match.group(1) == "GP" else PI
