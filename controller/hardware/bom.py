"""The bill of materials of a board, counted from its profile (host-only).

    >>> from controller.hardware.profile import load
    >>> lines = {line.part.key: line.quantity for line in bill(load("pico-bridge-2x6"))}
    >>> lines["hx711"], lines["load-cell-1kg"], lines["load-cell-5kg"], lines["neopixel-ring-12"]
    (14, 12, 2, 12)

Every part comes from the catalogue (`hardware/parts.toml`) with its maker and part number; a
part named twice (the same ring for pits and stores) is one line with the quantities added.
Wire, solder, the board itself and its enclosure are not listed.
"""

from __future__ import annotations

from typing import NamedTuple

from controller.hardware.parts import Part, catalogue
from controller.hardware.profile import Profile


class Line(NamedTuple):
    """`quantity` of `part`, and what they are for."""

    part: Part
    quantity: int
    what: str

    @property
    def packs(self) -> int:
        """How many to order: packs of `part.pack`."""
        return -(-self.quantity // self.part.pack)

    def as_dict(self) -> dict:
        return {"quantity": self.quantity, "order": self.packs, "pack": self.part.pack,
                "part": self.part.key, "name": self.part.name, "maker": self.part.maker,
                "number": self.part.number, "for": self.what}


def bill(profile: Profile) -> list[Line]:
    """The parts of `profile`'s board, in building order: controllers, LEDs, sensors,
    expanders, controls, power."""
    parts = catalogue()
    wanted: list[tuple[str, int, str]] = []
    if "pi" in profile.boards:
        wanted.append((profile.boards["pi"], 1, "runs the controller"))
    if "pico" in profile.boards:
        wanted.append((profile.boards["pico"], 1, "reads the sensors, drives the LEDs" if
                       profile.kind == "pico-bridge" else "runs the game at the board"))
    if profile.kind == "pico-bridge":
        wanted.append(("usb-a-micro-b", 1, "the Pi to the Pico"))
    if profile.kind == "pico-standalone":
        wanted.append(("schottky-1n5817", 1, "the supply into the Pico's VSYS, so USB cannot "
                       "feed it back"))
    wanted.append((profile.leds.pit_part, 2 * profile.pits, "one per pit"))
    wanted.append((profile.leds.store_part, 2, "one per store"))
    wanted.append(("74ahct125", 1, "the strip's data line, 3.3 V to 5 V"))
    wanted.append(("resistor-470", 1, "in series with the first ring's DIN"))
    wanted.append(("capacitor-1000uf", 1, "across the strip's 5 V and GND, at its start"))
    sensors = profile.sensors
    if sensors.kind == "load-cell":
        wanted.append((sensors.pit_part, 2 * profile.pits, "under each pit"))
        wanted.append((sensors.store_part, 2, "under each store"))
        wanted.append(("hx711", len(sensors.channels),
                       "one per load cell, powered from the controller's 3V3"))
    else:
        wanted.append((sensors.part, len(sensors.channels), "one per pit"))
    chips = 1                                   # the level shifter
    for expander in profile.expanders:
        count = expander.chips if expander.type == "74hc165" else 1
        chips += count
        wanted.append((expander.type, count, "expander %s" % expander.name))
    wanted.append(("capacitor-100nf", chips, "decoupling, one at each chip's supply pin"))
    wanted.append((profile.button_part, len(profile.buttons), "new game, undo, hint, confirm"))
    wanted.append((profile.buzzer_part, 1, "sounds"))
    wanted.append((profile.power.supply, 1, "5 V for everything"))
    lines: dict[str, Line] = {}
    for key, quantity, what in wanted:
        if key in lines:
            old = lines[key]
            lines[key] = Line(old.part, old.quantity + quantity, old.what + "; " + what)
        else:
            lines[key] = Line(parts[key], quantity, what)
    return list(lines.values())
