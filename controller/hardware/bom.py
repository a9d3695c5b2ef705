"""The bill of materials of a board, counted from its profile (host-only).

    >>> from controller.hardware.profile import load
    >>> lines = bill(load("pico-bridge-2x6"))
    >>> count = {line.part.key: line.quantity for line in lines}
    >>> count["hx711"], count["load-cell-1kg"], count["load-cell-5kg"], count["led-arc-12"]
    (14, 12, 2, 12)
    >>> count["74lvc244a"], count["resistor-100"]          # the clock's buffer, one per branch
    (1, 4)
    >>> round(total_usd(lines), 2) == round(sum(line.price_usd for line in lines), 2)
    True

Every part comes from the catalogue (`hardware/parts.toml`) with its maker, part number and an
estimated price; a part named twice (the same ring for pits and stores) is one line with the
quantities added. A line costs its packs at the part's price. Wire, solder, screws, the board
itself (plywood, acrylic, the printed cups) and a Pi's microSD card are not listed.
"""

from __future__ import annotations

from typing import NamedTuple

from controller.hardware.body import largest_game
from controller.hardware.parts import Part, catalogue
from controller.hardware.profile import Profile, clock_fanout


class Line(NamedTuple):
    """`quantity` of `part`, and what they are for."""

    part: Part
    quantity: int
    what: str

    @property
    def packs(self) -> int:
        """How many to order: packs of `part.pack`."""
        return -(-self.quantity // self.part.pack)

    @property
    def price_usd(self) -> float:
        """What the line costs at the part's list price (an estimate): its packs."""
        return self.packs * self.part.price_usd

    def as_dict(self) -> dict:
        return {"quantity": self.quantity, "order": self.packs, "pack": self.part.pack,
                "part": self.part.key, "name": self.part.name, "maker": self.part.maker,
                "number": self.part.number, "for": self.what,
                "unit_price_usd": self.part.price_usd, "price_usd": round(self.price_usd, 2),
                "price_source": self.part.price_source}


def total_usd(lines: list[Line]) -> float:
    """The bill's estimated cost in US dollars: the sum of its lines."""
    return sum(line.price_usd for line in lines)


def bill(profile: Profile) -> list[Line]:
    """The parts of `profile`'s board, in building order: controllers, LEDs, sensors and their
    clock buffer, expanders, controls, power, and the seeds."""
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
    chips = 1                                   # the level shifter
    if sensors.kind == "load-cell":
        wanted.append((sensors.pit_part, 2 * profile.pits, "under each pit"))
        wanted.append((sensors.store_part, 2, "under each store"))
        wanted.append(("hx711", len(sensors.channels),
                       "one per load cell: VCC from the 5 V supply, VDD from the controller's "
                       "3V3"))
        fanout = clock_fanout(profile)
        chips += fanout.chips
        wanted.append(("74lvc244a", fanout.chips, "the HX711s' clock, one buffer a branch"))
        wanted.append(("resistor-100", fanout.branches, "in series with each clock branch, at "
                       "the buffer"))
    else:
        wanted.append((sensors.part, len(sensors.channels), "one per pit"))
    for expander in profile.expanders:
        count = expander.chips if expander.type == "74hc165" else 1
        chips += count
        wanted.append((expander.type, count, "expander %s" % expander.name))
    wanted.append(("capacitor-100nf", chips, "decoupling, one at each chip's supply pin"))
    wanted.append((profile.button_part, len(profile.buttons), "new game, undo, hint, confirm"))
    wanted.append((profile.buzzer_part, 1, "sounds"))
    wanted.append((profile.power.supply, 1, "5 V for everything"))
    wanted.append(("dc-jack", 1, "the supply's plug into the board"))
    wanted.append(("fuse-holder", 1, "in the +5 V wire, straight after the jack"))
    wanted.append(("fuse-7a5", 2, "one in the holder, one spare"))
    wanted.append((profile.seed, largest_game(profile.pits).seeds, "the seeds of the largest game the "
                   "board carries"))
    lines: dict[str, Line] = {}
    for key, quantity, what in wanted:
        if key in lines:
            old = lines[key]
            lines[key] = Line(old.part, old.quantity + quantity, old.what + "; " + what)
        else:
            lines[key] = Line(parts[key], quantity, what)
    return list(lines.values())
