"""The bill of materials of a board: every part, fastener, wire and sheet, counted from its
profile, its circuit, its harness and its body (host-only).

    >>> from controller.hardware.profile import load
    >>> lines = bill(load("pico-bridge-2x6"))
    >>> count = {line.part.key: line.quantity for line in lines}
    >>> count["hx711"], count["load-cell-1kg"], count["load-cell-5kg"], count["led-arc-12"]
    (14, 12, 2, 12)
    >>> count["74lvc244a"], count["resistor-100"]          # the clock's buffer, one per branch
    (1, 4)
    >>> count["power-switch"], count["xh-housing-4"], count["header-male-40"]   # pins: 5 a breakout
    (1, 14, 70)
    >>> count["screw-m3-button-8"] == len(plate(body(load("pico-bridge-2x6"))).holes)
    True
    >>> round(total_usd(lines), 2) == round(sum(line.price_usd for line in lines), 2)
    True

A bill is read in building order, one `Line` a part, in five sections (`SECTIONS`):

- **electronics**, from the profile (the controllers, the LEDs, the cells and their HX711s, the
  chips, the controls, the supply) and from the circuit (`circuit.circuit`): the power switch,
  the 100 kΩ pull-downs a 74HC165 chain needs, a 10 kΩ pull-up for a button on a 74HC165, a
  DIP socket under every chip, the Pico's two female headers or the Pi's cobbler, the
  controller's stripboard and the star point's lever connectors (each rail's wires, counted
  from the circuit's links to X1);
- **connectors and wire**: five header pins on each HX711 breakout's J1; a JST XH plug from each
  load cell into its breakout; a JST XH plug for the wires that run from the top plate (the LED
  arcs, the buttons) to the base, so the plate lifts off (`plate_plugs`); the hook-up wire of
  each gauge and colour, the harness's lengths (`harness.harness`) plus `WIRE_MARGIN`, in whole
  reels; solder and heat-shrink for the joints the harness has;
- **fasteners**, from the mechanical design: the top plate's mounting holes (`plate.holes`),
  each with a screw, a stack of standoffs and washers to the plate's height, and a screw from
  below; each load cell's mount (`body.cell_mount`: its holes at each end, its overload stop);
  the HX711 breakouts, the controller's board, the Pi; the feet;
- **materials**: the acrylic sheets the plate's parts are cut from and the plywood of the base,
  the walls and the spacers (each part laid out on the sheets sold, `sheets`), the filament of
  the printed cups, collars and cable channel (their volumes from `body.py`'s sizes,
  `printed_grams`), the glues;
- **the supply's mains cord** (a supply with an IEC C14 inlet), **a microSD card** (a board with
  a Pi) and **the seeds**.

A line costs its packs (`Line.packs`, `Part.pack`) at the part's price; a part named twice is one
line with the quantities added. Every part comes from the catalogue (`hardware/parts.toml`),
whose `price_source` says whether its price was read from the seller's listing, is an estimate,
or is missing (then `price_usd` is 0: the line adds nothing to the total).
"""

from __future__ import annotations

import math
import re
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from controller.errors import UsageError
from controller.hardware.body import BASE, SPACER, Board, body, cell_mount, largest_game
from controller.hardware.circuit import Circuit, circuit
from controller.hardware.harness import HarnessWire, harness
from controller.hardware.parts import Part, catalogue
from controller.hardware.plate import BED, plate, walls
from controller.hardware.profile import Profile, clock_fanout

SECTIONS = ("electronics", "connectors and wire", "fasteners", "materials", "seeds")

WIRE_MARGIN = 0.20      # on every wire's length: mistakes, a re-routed run, a re-stripped end
SOLDER_G = 0.04         # a joint: 10 mm of 0.8 mm solder wire (5 mm3) at about 7.4-8.5 g/cm3
FILAMENT_DENSITY = 1.27  # g/cm3, PETG (Prusament PETG's datasheet; PLA is 1.24): an upper bound
FILAMENT_MARGIN = 0.10  # skirts, purges and one failed print in ten
WASHER = 0.5            # an M3 washer's thickness (ISO 7089)
SCREW_INTO = 8.0        # a cell's fixed-end screw goes this far into the bar (the drawings')
PLATE_SCREW_INTO = 5.0  # the plate's screw into its standoff
FOOT_SPACING = 300.0    # a foot at each corner and at most this far apart along the long edges
ACRYLIC_SHEET = BED     # the acrylic is bought at the laser bed's size
PLYWOOD_SHEET = (1220.0, 610.0)
KERF = 3.0              # left between two pieces on a sheet (a saw's cut; the laser's is less)
# the parts that sit on the top plate (and lift off with it): the LEDs, what is soldered to the
# first LEDs, the buttons
PLATE_ROLES = ("LEDs ", "470 Ω at the first LEDs", "1000 µF at the first LEDs", "button ")
DIP_CHIPS = ("74ahct125", "74lvc244a", "74hc165", "mcp23017")


class Line(NamedTuple):
    """`quantity` of `part` (in `unit`: "" for pieces, "m", "g", "pins"), what they are for and
    how the quantity was counted (`what`), and the bill's section."""

    part: Part
    quantity: int
    what: str
    section: str = "electronics"
    unit: str = ""

    @property
    def packs(self) -> int:
        """How many to order: packs of `part.pack` (a reel of 10 m, a spool of 1000 g)."""
        return -(-self.quantity // self.part.pack)

    @property
    def price_usd(self) -> float:
        """What the line costs at the part's list price (an estimate): its packs."""
        return self.packs * self.part.price_usd

    def as_dict(self) -> dict:
        return {"quantity": self.quantity, "unit": self.unit, "order": self.packs,
                "pack": self.part.pack, "part": self.part.key, "name": self.part.name,
                "maker": self.part.maker, "number": self.part.number, "for": self.what,
                "section": self.section, "unit_price_usd": self.part.price_usd,
                "price_usd": round(self.price_usd, 2), "price_source": self.part.price_source}


def total_usd(lines: list[Line]) -> float:
    """The bill's estimated cost in US dollars: the sum of its lines."""
    return sum(line.price_usd for line in lines)


class _Bill:
    """Lines being gathered: a part named again adds to its line (within one colour of wire)."""

    def __init__(self) -> None:
        self.parts = catalogue()
        self.lines: dict[tuple[str, str], Line] = {}

    def add(self, key: str, quantity: int, what: str, section: str, unit: str = "",
            variant: str = "") -> None:
        if quantity <= 0:
            return
        if key not in self.parts:
            raise UsageError("the parts catalogue (hardware/parts.toml) has no %r, which the "
                             "bill needs for %s" % (key, what))
        old = self.lines.get((key, variant))
        if old is None:
            self.lines[(key, variant)] = Line(self.parts[key], quantity, what, section, unit)
        else:
            self.lines[(key, variant)] = old._replace(quantity=old.quantity + quantity,
                                                      what=old.what + "; " + what)

    def stocked(self, prefix: str) -> list[int]:
        """The lengths the catalogue has of a family of screws or standoffs (`screw-m5-csk-`)."""
        pattern = re.compile(re.escape(prefix) + r"(\d+)$")
        return sorted(int(m.group(1)) for key in self.parts if (m := pattern.match(key)))

    def length(self, prefix: str, need: float, most: float, what: str) -> int:
        """The shortest stocked length of `prefix` at least `need` and at most `most` mm."""
        fits = [n for n in self.stocked(prefix) if need - 1e-9 <= n <= most + 1e-9]
        if not fits:
            raise UsageError("%s needs a %s screw of %.1f to %.1f mm: the catalogue has %s" % (
                what, prefix.rstrip("-"), need, most, self.stocked(prefix) or "none"))
        return fits[0]


def bill(profile: Profile) -> list[Line]:
    """The parts of `profile`'s board, in building order (see the module's docstring)."""
    b = _Bill()
    board = circuit(profile)
    rows = harness(profile)
    shape = body(profile)
    _electronics(b, profile, board)
    _connectors(b, profile, board, rows)
    _fasteners(b, profile, shape)
    _materials(b, profile, shape)
    b.add(profile.seed, largest_game(profile.pits).seeds, "the seeds of the largest game the "
          "board carries", "seeds")
    order = {section: k for k, section in enumerate(SECTIONS)}
    return sorted(b.lines.values(), key=lambda line: order[line.section])


# --- electronics --------------------------------------------------------------------------------

def _electronics(b: _Bill, profile: Profile, board: Circuit) -> None:
    s = "electronics"
    if "pi" in profile.boards:
        b.add(profile.boards["pi"], 1, "runs the controller", s)
    if "pico" in profile.boards:
        b.add(profile.boards["pico"], 1, "reads the sensors, drives the LEDs" if
              profile.kind == "pico-bridge" else "runs the game at the board", s)
    if profile.kind == "pico-bridge":
        b.add("usb-a-micro-b", 1, "the Pi to the Pico", s)
    if profile.kind == "pico-standalone":
        b.add("schottky-1n5817", 1, "the supply into the Pico's VSYS, so USB cannot feed it "
              "back", s)
    b.add(profile.leds.pit_part, 2 * profile.pits, "one per pit", s)
    b.add(profile.leds.store_part, 2, "one per store", s)
    b.add("74ahct125", 1, "the strip's data line, 3.3 V to 5 V", s)
    b.add("resistor-470", 1, "in series with the first ring's DIN", s)
    b.add("capacitor-1000uf", 1, "across the strip's 5 V and GND, at its start", s)
    sensors = profile.sensors
    chips = 1                                   # the level shifter
    if sensors.kind == "load-cell":
        b.add(sensors.pit_part, 2 * profile.pits, "under each pit", s)
        b.add(sensors.store_part, 2, "under each store", s)
        b.add("hx711", len(sensors.channels), "one per load cell: VCC from the 5 V supply, "
              "VDD from the controller's 3V3", s)
        fanout = clock_fanout(profile)
        chips += fanout.chips
        b.add("74lvc244a", fanout.chips, "the HX711s' clock, one buffer a branch", s)
        b.add("resistor-100", fanout.branches, "in series with each clock branch, at the "
              "buffer", s)
    else:
        b.add(sensors.part, len(sensors.channels), "one per pit", s)
    for expander in profile.expanders:
        count = expander.chips if expander.type == "74hc165" else 1
        chips += count
        b.add(expander.type, count, "expander %s" % expander.name, s)
    b.add("capacitor-100nf", chips, "decoupling, one at each chip's supply pin", s)
    # what the circuit adds: the switch and the pull resistors, by the keys it names
    for key in ("resistor-100k", "resistor-10k"):
        roles = [c.role for c in board.components if c.part == key]
        b.add(key, len(roles), _roles_in_words(roles), s)
    b.add(profile.button_part, len(profile.buttons), "new game, undo, hint, confirm", s)
    b.add(profile.buzzer_part, 1, "sounds", s)
    b.add(profile.power.supply, 1, "5 V for everything", s)
    b.add("dc-jack", 1, "the supply's plug into the board", s)
    b.add("fuse-holder", 1, "in the +5 V wire, straight after the jack", s)
    b.add("fuse-7a5", 2, "one in the holder, one spare", s)
    switches = sum(1 for c in board.components if c.part == "power-switch")
    b.add("power-switch", switches, "SW1: switches the whole board, between the fuse and the "
          "star point (switch a Pi off first: docs/raspberry-pi.md, section 5)", s)
    supply = b.parts[profile.power.supply]
    if "C14" in supply.name:
        b.add("mains-cord-c13", 1, "the supply's IEC C14 inlet to the wall socket", s)
    if "pi" in profile.boards:
        b.add("microsd-32gb", 1, "the Pi's system", s)
    # the controller's board: sockets for its chips, the Pico's headers or the Pi's cobbler
    for c in board.components:
        if c.part in DIP_CHIPS:
            pins = len(c.pinout.pins)
            b.add("dip-socket-%d" % pins, 1, "under each %d-pin chip (%s)" % (
                pins, c.value), s)
    b.add("stripboard", 1, "the controller's board", s)
    if "pico" in profile.boards:
        b.add("header-female-20", 2, "the Pico H plugs into them", s)
    if "pi" in profile.boards:
        b.add("pi-cobbler", 1, "the Pi's header onto the controller's board", s)
    plus, ground = star_wires(board)
    levers = star_levers(plus) + star_levers(ground)
    b.add("lever-connector-5", levers, "the star point: %d wires on +5 V, %d on GND; a rail "
          "of more than 5 is two connectors joined by a short wire (3 k + 2 places for k)" % (
              plus, ground), s)


def _roles_in_words(roles: list[str]) -> str:
    """`pull-down of S1 DOUT`, ... as one phrase: 26 DOUT pull-downs, 26 CLK pull-downs."""
    kinds: dict[str, int] = {}
    for role in roles:
        words = role.split(" ")
        kind = "%s of each %s" % (words[0], words[-1]) if len(words) > 2 else role
        kinds[kind] = kinds.get(kind, 0) + 1
    return ", ".join("%d: %s" % (n, kind) for kind, n in kinds.items())


def star_wires(board: Circuit) -> tuple[int, int]:
    """The wires on the star point's +5 V terminals and on its GND terminals (X1's odd and
    even pins: one wire a terminal)."""
    plus = ground = 0
    for link in board.links:
        for end in (link.a, link.b):
            if end.ref == "X1":
                if end.pin % 2:
                    plus += 1
                else:
                    ground += 1
    return plus, ground


def star_levers(wires: int) -> int:
    """Five-way lever connectors for one rail of `wires` wires: k of them joined by k - 1
    short wires give 5 k - 2 (k - 1) = 3 k + 2 places."""
    return max(1, math.ceil((wires - 2) / 3)) if wires else 0


# --- connectors and wire ------------------------------------------------------------------------

def plate_plugs(board: Circuit, rows: list[HarnessWire]) -> dict[str, list[HarnessWire]]:
    """The wires that run from a part on the top plate to the base, by the plate's part (a
    button, the first LEDs' resistor): each such group is one plug, so the plate lifts off.
    Not the strip's feeds (18 AWG, amps: more than an XH contact takes), which come out of the
    star point's lever connectors instead."""
    parts = {c.ref: c for c in board.components}

    def on_plate(ref: str) -> bool:
        return parts[ref].role.startswith(PLATE_ROLES)

    plugs: dict[str, list[HarnessWire]] = {}
    for row in rows:
        if row.kind != "wire" or on_plate(row.a_ref) == on_plate(row.b_ref):
            continue
        if "X1" in (row.a_ref, row.b_ref):           # a feed: the lever connectors
            continue
        top = row.a_ref if on_plate(row.a_ref) else row.b_ref
        plugs.setdefault(top, []).append(row)
    return plugs


def _connectors(b: _Bill, profile: Profile, board: Circuit, rows: list[HarnessWire]) -> None:
    s = "connectors and wire"
    parts = {c.ref: c for c in board.components}
    amps = [c for c in board.components if c.part == "hx711"]
    cells = [c for c in board.components if c.role.startswith("load cell ")]
    b.add("header-male-40", 5 * len(amps), "5 on each HX711 breakout's J1 (VDD, VCC, DAT, CLK, "
          "GND): %d breakouts" % len(amps), s, "pins")
    b.add("xh-header-4", len(cells), "one into each breakout's cell pads (JP4 2-5)", s)
    b.add("xh-housing-4", len(cells), "one on each load cell's four wires", s)
    b.add("xh-contact-fine", 4 * len(cells), "4 on each load cell's wires", s)
    plugs = plate_plugs(board, rows)
    sizes: dict[int, int] = {}
    for wires in plugs.values():
        ways = max(2, len(wires))
        sizes[ways] = sizes.get(ways, 0) + 1
    b.add("xh-contact", sum(len(wires) for wires in plugs.values()), "one on each wire from "
          "the top plate to the base (%d plugs)" % len(plugs), s)
    for ways, count in sorted(sizes.items()):
        names = ", ".join(sorted(parts[ref].role for ref, wires in plugs.items()
                                 if max(2, len(wires)) == ways))
        b.add("xh-header-%d" % ways, count, "on the controller's board, one a plug from the "
              "top plate (%s)" % names, s)
        b.add("xh-housing-%d" % ways, count, "one a plug from the top plate", s)
    # the wire: each gauge and colour, the harness's lengths and WIRE_MARGIN, in whole reels
    lengths: dict[tuple[int, str], int] = {}
    for row in rows:
        if row.kind in ("wire", "jumper"):
            lengths[(row.awg, row.colour)] = lengths.get((row.awg, row.colour), 0) + row.length_mm
    for (awg, colour), mm in sorted(lengths.items(), key=lambda item: (-item[0][0], item[0][1])):
        metres = mm / 1000
        b.add("wire-%dawg" % awg, math.ceil(metres * (1 + WIRE_MARGIN)),
              "%s: %.2f m in the harness + %d%%" % (colour, metres, round(100 * WIRE_MARGIN)),
              s, "m", variant=colour)
    joints, sleeves = solder_joints(board, rows, plugs)
    b.add("solder", math.ceil(joints * SOLDER_G), "about %d joints at %.2f g" % (
        joints, SOLDER_G), s, "g")
    b.add("heat-shrink-3mm", sleeves, "a 15 mm sleeve on each wire soldered to a post, a leg "
          "or a lug away from the controller's board", s)
    arcs = [c for c in board.components if c.role.startswith("LEDs ") and c.pinout.key == "arc"]
    b.add("heat-shrink-12mm", 2 * len(arcs), "a 25 mm sleeve over each end of each LED arc", s)


def solder_joints(board: Circuit, rows: list[HarnessWire],
                  plugs: dict[str, list[HarnessWire]]) -> tuple[int, int]:
    """Joints to solder, and 3 mm heat-shrink sleeves: every wire and jumper end and every part's
    leg (`lead`) but those in the star point's lever connectors and those crimped into a plug,
    and the pins of every header, XH header and DIP socket; a sleeve on each wire end soldered
    away from the controller's board but on an LED arc's pads (the arc's own sleeve covers
    those)."""
    parts = {c.ref: c for c in board.components}
    crimped = {(row.number, _base_end(row, parts)) for wires in plugs.values() for row in wires}
    joints = sleeves = 0
    for row in rows:
        if row.kind == "cell":
            continue                            # the cell's wires are crimped into its plug
        if row.kind == "lead":
            joints += 1
            continue
        for ref in (row.a_ref, row.b_ref):
            if ref == "X1" or (row.number, ref) in crimped:
                continue
            joints += 1
            part = parts[ref]
            if row.kind == "wire" and part.where != "controller" and not part.role.startswith(
                    "LEDs "):
                sleeves += 1
    amps = sum(1 for c in board.components if c.part == "hx711")
    headers = 5 * amps + 4 * amps                # J1's pins, the cell's XH header in JP4
    headers += sum(max(2, len(wires)) for wires in plugs.values())     # the plate's XH headers
    headers += sum(len(c.pinout.pins) for c in board.components if c.part in DIP_CHIPS)
    headers += 40 * sum(1 for c in board.components if c.pinout.key in ("pico", "pi"))
    return joints + headers, sleeves


def _base_end(row: HarnessWire, parts: dict[str, Any]) -> str:
    return row.b_ref if parts[row.a_ref].role.startswith(PLATE_ROLES) else row.a_ref


# --- fasteners ------------------------------------------------------------------------------------

class Stack(NamedTuple):
    """What holds the plate at one mounting hole: a female-female standoff at the bottom,
    male-female ones on it, washers under it; `height` their sum."""

    bottom: int
    above: tuple[int, ...]
    washers: int

    @property
    def height(self) -> float:
        return self.bottom + sum(self.above) + self.washers * WASHER


def standoff_stack(height: float, ff: list[int], mf: list[int]) -> Stack:
    """The stack of stocked standoffs (at most three) nearest `height` without passing it, the
    rest in washers: the walls carry the plate at `height`, so a stack may be lower (its screw
    pulls the plate down onto it, at most half a washer) but never higher."""
    best: Stack | None = None
    for bottom in ff:
        for n in range(0, 3):
            for above in combinations_with_replacement(sorted(mf, reverse=True), n):
                body_mm = bottom + sum(above)
                if body_mm > height + 1e-9:
                    continue
                stack = Stack(bottom, tuple(above), int((height - body_mm) / WASHER + 1e-9))
                key = (round(stack.height, 6), -len(above) - stack.washers, bottom)
                if best is None or key > (round(best.height, 6), -len(best.above) - best.washers,
                                          best.bottom):
                    best = stack
    if best is None:
        raise UsageError("no stack of the catalogue's M3 standoffs (%s, %s mm) fits under a "
                         "plate %.1f mm high" % (ff, mf, height))
    return best


def _fasteners(b: _Bill, profile: Profile, shape: Board) -> None:
    s = "fasteners"
    plan = plate(shape)
    holes = len(plan.holes)
    height = shape.stack("pit").plate_bottom
    stack = standoff_stack(height, b.stocked("standoff-m3-ff-"), b.stocked("standoff-m3-mf-"))
    where = "%d mounting holes of the top plate (plate.py)" % holes
    b.add("screw-m3-button-%d" % b.length("screw-m3-button-", 3 + PLATE_SCREW_INTO, 3 + 8,
                                          "the top plate"), holes, where, s)
    b.add("standoff-m3-ff-%d" % stack.bottom, holes, "the bottom of each stack: %s, %g mm in "
          "all under a plate %g mm above the base" % (_stack_words(stack), stack.height,
                                                       height), s)
    for length in stack.above:
        b.add("standoff-m3-mf-%d" % length, holes, "in each plate stack", s)
    b.add("washer-m3", holes * stack.washers, "%d under each plate stack" % stack.washers, s)
    bottom = b.length("screw-m3-csk-", BASE + stack.washers * WASHER + 4.5,
                      BASE + stack.washers * WASHER + stack.bottom, "a plate stack")
    b.add("screw-m3-csk-%d" % bottom, holes, "up through the base into each plate stack", s)
    if profile.sensors.kind == "load-cell":
        parts = catalogue()
        for kind, key, count in (("pit", profile.sensors.pit_part, 2 * profile.pits),
                                 ("store", profile.sensors.store_part, 2)):
            _cell_fasteners(b, parts[key], shape, kind, count)
        amps = len(profile.sensors.channels)
        _on_spacers(b, amps * 2, "2 a breakout (diagonal holes of its 4 of 3.3 mm)")
    _on_spacers(b, 4, "the controller's stripboard, at its corners")
    if "pi" in profile.boards:
        b.add("screw-m2.5-csk-16", 4, "the Raspberry Pi's 4 holes", s)
        b.add("spacer-m2.5-6", 4, "under the Raspberry Pi", s)
        b.add("nut-m2.5", 4, "on the Raspberry Pi's screws", s)
    feet = 2 * (math.ceil(shape.width / FOOT_SPACING) + 1)
    b.add("rubber-foot", feet, "under the base: the corners and along the long edges, at most "
          "%g mm apart (%g mm long)" % (FOOT_SPACING, shape.width), s)


def _stack_words(stack: Stack) -> str:
    words = ["F-F %d" % stack.bottom] + ["M-F %d" % n for n in stack.above]
    if stack.washers:
        words.append("%d washer%s" % (stack.washers, "s" if stack.washers > 1 else ""))
    return " + ".join(words)


def _on_spacers(b: _Bill, count: int, what: str) -> None:
    """A board held above the base on nylon spacers: M3 countersunk screws up through the base
    (6 mm), the spacer (6), the board (1.6) and a nut (2.4): 16 mm."""
    b.add("screw-m3-csk-16", count, what, "fasteners")
    b.add("spacer-m3-6", count, what, "fasteners")
    b.add("nut-m3", count, what, "fasteners")


def _cell_fasteners(b: _Bill, cell: Part, shape: Board, kind: str, count: int) -> None:
    """A cell's mount (hardware/README.md, "The mount"; `layli hardware drawing P --part mount`):
    its fixed end screwed up through the base and its spacers, its free end's spacer (and a
    store's cup) screwed down into it, the overload stop under its free end."""
    from controller.hardware.drawing import STOP_GAP

    s = "fasteners"
    h = shape.stack(kind)
    pocket = shape.pit if kind == "pit" else shape.store
    ends = cell.holes_per_end
    fixed = cell.fixed_thread.lower()
    free = cell.free_thread.lower()
    length = b.length("screw-%s-csk-" % fixed, BASE + h.bar_bottom + SCREW_INTO,
                      BASE + h.bar_bottom + cell.height_mm, "a %s cell's fixed end" % kind)
    b.add("screw-%s-csk-%d" % (fixed, length), ends * count, "%d up through the base and %g mm "
          "of spacers into each %s cell's fixed end (%d cells)" % (
              ends, h.bar_bottom, kind, count), s)
    if ends == 2:
        into = b.length("screw-%s-button-" % free, SPACER + 6, SPACER + cell.height_mm,
                        "a %s cell's free end" % kind)
        b.add("screw-%s-button-%d" % (free, into), 2 * count, "2 down through each %s cell's "
              "free-end spacer into the bar" % kind, s)
        cup = b.length("screw-m3-button-", pocket.cup.foot_h + 5, pocket.cup.foot_h + SPACER,
                       "a %s cup" % kind)
        b.add("screw-m3-button-%d" % cup, count, "one through each %s cup's floor into its "
              "spacer" % kind, s)
    else:
        into = b.length("screw-%s-button-" % free, pocket.cup.foot_h + SPACER + 8,
                        pocket.cup.foot_h + SPACER + cell.height_mm, "a %s cup" % kind)
        b.add("screw-%s-button-%d" % (free, into), count, "one through each %s cup's floor and "
              "spacer into its cell's free end" % kind, s)
    # the stop: up through a lock nut (3.2 mm) and the base's tee nut to STOP_GAP under the bar,
    # with 2 mm more to turn it up
    stop = b.length("screw-m4-socket-", 3.2 + BASE + h.bar_bottom - STOP_GAP + 2,
                    3.2 + BASE + h.bar_bottom - STOP_GAP + 8, "a %s cell's overload stop" % kind)
    b.add("screw-m4-socket-%d" % stop, count, "the overload stop under each %s cell" % kind, s)
    b.add("tee-nut-m4", count, "the overload stop under each %s cell" % kind, s)
    b.add("nut-m4", count, "locks the overload stop under each %s cell" % kind, s)


# --- materials ------------------------------------------------------------------------------------

def sheets(pieces: list[tuple[float, float]], sheet: tuple[float, float], what: str) -> int:
    """How many sheets of `sheet` (length, width) the rectangular `pieces` are cut from, laid in
    rows along the sheet's length, tallest first, KERF apart (a shelf layout: simple to mark and
    saw, a little wasteful)."""
    length, width = sheet
    laid = []
    for a, c in pieces:
        along, across = max(a, c), min(a, c)
        if along > length + 1e-9 or across > width + 1e-9:
            raise UsageError("%s: a piece of %g x %g mm is bigger than a %g x %g mm sheet" % (
                what, along, across, length, width))
        laid.append((along, across))
    laid.sort(key=lambda piece: (-piece[1], -piece[0]))
    count, y, x, row = 0, 0.0, 0.0, 0.0
    for along, across in laid:
        if count and x + along <= length + 1e-9 and across <= row:
            x += along + KERF                           # on along this row
            continue
        if count and y + across <= width + 1e-9:        # a new row on this sheet
            y += across + KERF
            x, row = along + KERF, across
            continue
        count, y, x, row = count + 1, across + KERF, along + KERF, across   # a new sheet
    return count


def plywood_pieces(profile: Profile, shape: Board) -> list[tuple[float, float]]:
    """The base board, the walls and the spacers under and on the cells (their risers whole
    spacers too), each (length, width) in mm."""
    plan = plate(shape)
    pieces = [(shape.width, shape.depth)]
    pieces += [(piece.length, piece.height) for piece in walls(shape, plan)]
    if profile.sensors.kind == "load-cell":
        parts = catalogue()
        for kind, key, count in (("pit", profile.sensors.pit_part, 2 * profile.pits),
                                 ("store", profile.sensors.store_part, 2)):
            cell = parts[key]
            pad = cell_mount(cell).pad
            layers = round(shape.stack(kind).bar_bottom / SPACER) + 1     # fixed end + free end
            pieces += [(pad, cell.width_mm)] * (count * layers)
    return pieces


def collar_mm3(shape: Board, kind: str) -> float:
    """A printed collar's volume: its profile (as board.scad draws it) turned round its axis
    (Pappus: 2 pi times the integral of r over the profile's area)."""
    pocket = shape.pit if kind == "pit" else shape.store
    ring, h = pocket.collar, shape.stack(kind)
    inner, spigot, outer = ring.inner_d / 2, ring.spigot_d / 2, ring.outer_d / 2
    back = ring.arc.back_d / 2
    points = [(inner, h.plate_bottom), (spigot, h.plate_bottom), (spigot, h.bezel_top - 1.5),
              (back, h.bezel_top - 1.5), (back, h.plate_top), (outer, h.plate_top),
              (outer, h.bezel_top), (inner, h.bezel_top)]
    total = 0.0
    for (r0, z0), (r1, z1) in zip(points, points[1:] + points[:1]):
        total += (r0 + r1) * (r0 * z1 - r1 * z0)
    return abs(2 * math.pi * total / 6)


def cup_mm3(shape: Board, kind: str) -> float:
    """A printed cup's volume, printed solid: its foot, its wall and the floor's fillet."""
    cup = (shape.pit if kind == "pit" else shape.store).cup
    foot = math.pi / 4 * cup.foot_d ** 2 * cup.foot_h
    wall = math.pi / 4 * (cup.outer_d ** 2 - cup.inner_d ** 2) * cup.depth
    return foot + wall - cup.volume_mm3(0.0)             # volume_mm3(0) is minus the fillet


CHANNEL_SECTION = 16 * 10 - 12 * 8      # board.scad's cable channel: a U 16 wide, 10 high


def printed_grams(profile: Profile, shape: Board) -> tuple[int, int]:
    """Grams of filament for the collars (natural PETG) and for the cups and the cable channel
    (any colour), printed solid (an upper bound: a slicer's infill uses less), at
    FILAMENT_DENSITY, with FILAMENT_MARGIN."""
    n = profile.pits
    collars = 2 * n * collar_mm3(shape, "pit") + 2 * collar_mm3(shape, "store")
    cups = 2 * n * cup_mm3(shape, "pit") + 2 * cup_mm3(shape, "store")
    channel = CHANNEL_SECTION * abs(shape.centres[2 * n][0] - shape.centres[2 * n + 1][0])
    grams = [math.ceil(mm3 / 1000 * FILAMENT_DENSITY * (1 + FILAMENT_MARGIN))
             for mm3 in (collars, cups + channel)]
    return grams[0], grams[1]


def _materials(b: _Bill, profile: Profile, shape: Board) -> None:
    s = "materials"
    plan = plate(shape)
    acrylic = sheets([p.size for p in plan.parts], ACRYLIC_SHEET, "the top plate")
    b.add("acrylic-3mm", acrylic, "the top plate's %d parts (%s mm), laid out on sheets of "
          "%g x %g mm" % (len(plan.parts), ", ".join("%g x %g" % p.size for p in plan.parts),
                          *ACRYLIC_SHEET), s)
    pieces = plywood_pieces(profile, shape)
    area = sum(a * c for a, c in pieces) / 1e6
    b.add("plywood-6mm", sheets(pieces, PLYWOOD_SHEET, "the plywood"), "the base board "
          "(%g x %g mm), %d wall pieces and %d spacers: %.2f m2, laid out on sheets of "
          "%g x %g mm" % (shape.width, shape.depth, len(walls(shape, plan)),
                          len(pieces) - 1 - len(walls(shape, plan)), area, *PLYWOOD_SHEET), s)
    collars, cups = printed_grams(profile, shape)
    b.add("filament-petg-natural", collars, "%d collars, printed solid, + %d%%" % (
        profile.places, round(100 * FILAMENT_MARGIN)), s, "g")
    b.add("filament-petg", cups, "%d cups and the cable channel, printed solid, + %d%%" % (
        profile.places, round(100 * FILAMENT_MARGIN)), s, "g")
    if len(plan.parts) > 1:
        b.add("acrylic-cement", 1, "the plate's %d dovetails" % (2 * len(plan.seams)), s)
    b.add("wood-glue", 1, "the walls onto the base board", s)
