"""Mechanical drawings of a board, made from its profile: the top plate and the load-cell mounts,
in millimetres, as SVG or as DXF for a laser cutter (host-only).

    >>> from controller.hardware.profile import load
    >>> sheet = top_plate(load("pico-bridge-2x6"))
    >>> holes = {c.name: c for c in sheet.circles(CUT)}
    >>> holes["S1"].diameter, holes["S store"].diameter    # the rings' inner diameters
    (23.0, 31.75)
    >>> round(holes["S2"].x - holes["S1"].x, 2)             # the pit pitch
    50.0
    >>> pit_cup(load("pico-bridge-2x6")).outer_d             # fits the 23 mm hole, 1.5 mm clear
    20.0

The **top plate** (`top_plate`) is one sheet: the board's outline, a hole per pit and store at
its LED ring's inner diameter (the cup drops through it and floats free; the ring is glued under
the plate round the hole, on the engraved circle of its outer diameter: cut the plate from opal
acrylic and the LEDs shine through it), and the buttons' square holes with engraved names.
South's row is at the bottom, as the player sits; South's pits run west to east, North's east
to west, South's store at the east end, North's at the west (as the wiring diagrams draw them).

The **mounts** (`mounts`, load-cell boards only) are, for the pit's cell and the store's: a side
view of the cell as a cantilever (its fixed end screwed down to the base on a spacer, a spacer
and the cup screwed on its free end, an overload stop under the free end, the top plate round the
cup), dimensioned, and the spacers to cut with the cell's hole pattern.

Layers: `CUT` (closed outlines and circles: cut through), `ENGRAVE` (mark only) and
`DIMENSIONS` (dimensions, labels and the side views: for reading, never for the laser: hide it
before cutting). `svg(sheet)` writes SVG with a millimetre viewBox, `dxf(sheet)` a DXF in
millimetres through ezdxf.

The pit cup itself is `hardware/cup.scad`, an OpenSCAD model; `pit_cup` computes the same
cup (its outside, its depth for 20 seeds) so that the drawings place it where it will be.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from controller.errors import UsageError
from controller.hardware.parts import Part, catalogue
from controller.hardware.profile import Profile, place_label
from controller.protocol.messages import BUTTONS

CUT, ENGRAVE, DIMENSIONS = "CUT", "ENGRAVE", "DIMENSIONS"
LAYERS = {CUT: ("#e00000", 1), ENGRAVE: ("#0044cc", 5), DIMENSIONS: ("#606060", 8)}  # SVG, ACI

# --- the board's layout (mm) -----------------------------------------------------------------
PIT_PITCH = 50.0        # pit centre to pit centre along a row: a 37 mm ring and 13 mm between
ROW_PITCH = 60.0        # South's row to North's
STORE_GAP = 60.0        # the outermost pit's centre to its store's centre
EDGE = 10.0             # the plate's edge beyond the cells and stores
STORE_HALF = 40.0       # half the room a store takes along the board
BUTTON_STRIP = 30.0     # along the south edge, for the buttons
BUTTON_PITCH = 40.0
BUTTON_CLEARANCE = 0.4  # a square hole this much bigger than the switch's body
CORNER = 10.0           # the plate's corner radius
MIN_REACH = 40.0        # from a pit's centre to its row's edge, on a board without load cells

# --- the stack under the plate (mm) ----------------------------------------------------------
PLATE = 3.0             # the top plate: 3 mm opal acrylic
RING = 3.3              # an Adafruit ring: 1.6 mm board and 1.6 mm LEDs, glued under the plate
BASE = 6.0              # the base board: 6 mm plywood
SPACER = 6.0            # each spacer: 6 mm plywood (or two layers of 3 mm)
RIM_ABOVE = 1.0         # the cup's rim stands this far above the plate
STOP_GAP = 0.5          # the overload stop's tip under the bar, before it is set by loading
CLEARANCE_HOLE = {"M3": 3.4, "M4": 4.5, "M5": 5.5}      # ISO 273, medium fit
HEAD = {"M3": (5.5, 2.4), "M4": (7.0, 2.8), "M5": (8.5, 3.5)}   # pan heads: diameter, height

# --- the pit cup (hardware/cup.scad has the same parameters and sums) -------------------------
CUP_CLEARANCE = 1.5     # all round, between the cup and its hole: the cup must never touch
CUP_WALL = 1.2
CUP_FOOT_H = 5.0        # the foot, below the plate: it takes the free end's screw heads
CUP_FOOT_OVER = 10.0    # the foot is this much wider than the cup
SEEDS = 20              # a relay pit's worth
SEED_D = 7.0            # the seeds assumed: about 7 mm across (beads, small pebbles, dried peas)
PACKING = 0.5           # of a loose heap of such seeds in a tube 2.5 seeds wide


@dataclass(frozen=True)
class Circle:
    layer: str
    x: float
    y: float
    diameter: float
    name: str = ""


@dataclass(frozen=True)
class Outline:
    """A closed outline: (x, y, bulge) vertices, the bulge (tan of a quarter of the arc's
    angle, counter-clockwise positive) bending the edge to the next vertex, as DXF has it."""

    layer: str
    points: tuple[tuple[float, float, float], ...]
    name: str = ""


@dataclass(frozen=True)
class Polyline:
    """An open polyline (a dimension line, a leader, an edge in a side view); `closed` joins
    its ends (a part in a side view)."""

    layer: str
    points: tuple[tuple[float, float], ...]
    closed: bool = False
    dashed: bool = False


@dataclass(frozen=True)
class Text:
    layer: str
    x: float
    y: float
    words: str
    height: float = 3.0
    align: str = "middle"       # left, middle, right


Shape = Circle | Outline | Polyline | Text


@dataclass
class Sheet:
    """A drawing: its title and its shapes, in mm, y upwards."""

    title: str
    shapes: list[Shape] = field(default_factory=list)

    def add(self, *shapes: Shape) -> None:
        self.shapes.extend(shapes)

    def circles(self, layer: str) -> list[Circle]:
        return [s for s in self.shapes if isinstance(s, Circle) and s.layer == layer]

    def outlines(self, layer: str) -> list[Outline]:
        return [s for s in self.shapes if isinstance(s, Outline) and s.layer == layer]

    def texts(self, layer: str | None = None) -> list[Text]:
        return [s for s in self.shapes if isinstance(s, Text) and layer in (None, s.layer)]

    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) round every shape, a text counted at its anchor and height."""
        xs: list[float] = []
        ys: list[float] = []
        for s in self.shapes:
            if isinstance(s, Circle):
                xs += [s.x - s.diameter / 2, s.x + s.diameter / 2]
                ys += [s.y - s.diameter / 2, s.y + s.diameter / 2]
            elif isinstance(s, Text):
                width = 0.6 * s.height * len(s.words)
                left = {"left": s.x, "middle": s.x - width / 2, "right": s.x - width}[s.align]
                xs += [left, left + width]
                ys += [s.y - 0.3 * s.height, s.y + s.height]
            else:
                xs += [p[0] for p in s.points]
                ys += [p[1] for p in s.points]
        return min(xs), min(ys), max(xs), max(ys)

    def moved(self, dx: float, dy: float) -> list[Shape]:
        """Its shapes shifted by (dx, dy)."""
        out: list[Shape] = []
        for s in self.shapes:
            if isinstance(s, (Circle, Text)):
                out.append(replace(s, x=s.x + dx, y=s.y + dy))
            elif isinstance(s, Outline):
                out.append(Outline(s.layer, tuple((x + dx, y + dy, b) for x, y, b in s.points),
                                   s.name))
            else:
                out.append(Polyline(s.layer, tuple((x + dx, y + dy) for x, y in s.points),
                                 s.closed, s.dashed))
        return out


def rectangle(layer: str, x0: float, y0: float, x1: float, y1: float, name: str = "",
              radius: float = 0.0) -> Outline:
    """A closed rectangle, its corners rounded to `radius`."""
    if radius <= 0:
        return Outline(layer, ((x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)), name)
    b, r = math.tan(math.pi / 8), radius          # a quarter circle, counter-clockwise
    return Outline(layer, ((x0 + r, y0, 0.0), (x1 - r, y0, b), (x1, y0 + r, 0.0),
                           (x1, y1 - r, b), (x1 - r, y1, 0.0), (x0 + r, y1, b),
                           (x0, y1 - r, 0.0), (x0, y0 + r, b)), name)


def box(x0: float, y0: float, x1: float, y1: float, dashed: bool = False) -> Polyline:
    """A part in a side view (DIMENSIONS layer)."""
    return Polyline(DIMENSIONS, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), True, dashed)


def _mm(value: float) -> str:
    return ("%.2f" % value).rstrip("0").rstrip(".")


def dimension(sheet: Sheet, a: tuple[float, float], b: tuple[float, float], offset: float,
              words: str | None = None) -> None:
    """A dimension between points a and b, horizontal when they share a y, else vertical,
    drawn `offset` mm away (up or right for a positive offset), with its value in mm."""
    (xa, ya), (xb, yb) = a, b
    if abs(ya - yb) < 1e-9:
        y = ya + offset
        sheet.add(Polyline(DIMENSIONS, ((xa, ya), (xa, y + math.copysign(1.5, offset)))),
                  Polyline(DIMENSIONS, ((xb, yb), (xb, y + math.copysign(1.5, offset)))),
                  Polyline(DIMENSIONS, ((xa, y), (xb, y))),
                  Polyline(DIMENSIONS, ((xa, y - 1), (xa, y + 1))),
                  Polyline(DIMENSIONS, ((xb, y - 1), (xb, y + 1))),
                  Text(DIMENSIONS, (xa + xb) / 2, y + 1.0, words or _mm(abs(xb - xa)), 2.5))
    else:
        x = xa + offset
        sheet.add(Polyline(DIMENSIONS, ((xa, ya), (x + math.copysign(1.5, offset), ya))),
                  Polyline(DIMENSIONS, ((xb, yb), (x + math.copysign(1.5, offset), yb))),
                  Polyline(DIMENSIONS, ((x, ya), (x, yb))),
                  Polyline(DIMENSIONS, ((x - 1, ya), (x + 1, ya))),
                  Polyline(DIMENSIONS, ((x - 1, yb), (x + 1, yb))),
                  Text(DIMENSIONS, x + (1.5 if offset > 0 else -1.5), (ya + yb) / 2,
                       words or _mm(abs(yb - ya)), 2.5, "left" if offset > 0 else "right"))


# ---------------------------------------------------------------------------------------------
# The cells and the cup.

class CellMount(NamedTuple):
    """Where a load cell's holes are, from its free end (mm), and where its cup sits."""

    free_holes: tuple[float, ...]     # from the free end
    fixed_holes: tuple[float, ...]    # from the fixed end
    pad: float                        # a spacer's length along the bar
    cup: float                        # the cup's centre, from the free end
    stop: float                       # the overload stop's point, from the free end
    reach: float                      # from the cup's centre to the fixed end


def cell_mount(cell: Part) -> CellMount:
    """The mount of a straight-bar cell from its hole pattern: two holes an end (the cup
    centred between them, the stop between them) or one (the cup's screw in it, the stop
    between the hole and the bar's end)."""
    inset, spacing = cell.hole_inset_mm, cell.hole_spacing_mm
    holes = (inset, inset + spacing) if cell.holes_per_end == 2 else (inset,)
    pad = 2 * inset + (spacing if cell.holes_per_end == 2 else 0.0)
    cup = sum(holes) / len(holes)
    stop = cup if cell.holes_per_end == 2 else (inset - CLEARANCE_HOLE[cell.free_thread] / 2) / 2
    return CellMount(holes, holes, pad, cup, stop, cell.length_mm - cup)


class Cup(NamedTuple):
    """A cup that drops through a ring's hole: its outside and inside diameters, its depth
    inside, its foot, its height, and what it holds."""

    ring_inner: float
    outer_d: float
    inner_d: float
    depth: float
    foot_d: float
    foot_h: float

    @property
    def height(self) -> float:
        return self.foot_h + self.depth

    @property
    def volume_mm3(self) -> float:
        return math.pi * (self.inner_d / 2) ** 2 * self.depth

    @property
    def seeds(self) -> int:
        """How many seeds of SEED_D it holds, heaped loosely (PACKING)."""
        return int(self.volume_mm3 * PACKING / seed_volume())


def seed_volume() -> float:
    return math.pi / 6 * SEED_D ** 3


def cup_for(ring: Part, seeds: int | None = None, depth: float | None = None) -> Cup:
    """The cup for a ring's hole: deep enough for `seeds` (whole mm), or `depth` deep."""
    outer = ring.inner_mm - 2 * CUP_CLEARANCE
    inner = outer - 2 * CUP_WALL
    if depth is None:
        need = (seeds or SEEDS) * seed_volume() / PACKING
        depth = float(math.ceil(need / (math.pi * (inner / 2) ** 2)))
    return Cup(ring.inner_mm, outer, inner, depth, outer + CUP_FOOT_OVER, CUP_FOOT_H)


def pit_cup(profile: Profile) -> Cup:
    """The pit's cup: through the pit ring's hole, for 20 seeds (hardware/cup.scad)."""
    return cup_for(catalogue()[profile.leds.pit_part])


def store_cup(profile: Profile) -> Cup:
    """The store's cup: through the store ring's hole, its rim level with the pits'."""
    return cup_for(catalogue()[profile.leds.store_part], depth=pit_cup(profile).depth)


class Stack(NamedTuple):
    """Heights above the base board's top face (mm), the same under every pit and store."""

    bar_bottom: float
    bar_top: float
    foot_bottom: float
    rim: float
    plate_bottom: float
    plate_top: float


def stack(profile: Profile) -> Stack:
    """The heights: a spacer, the bar, a spacer, the cup; the plate 1 mm under the rim."""
    parts = catalogue()
    bar = parts[profile.sensors.pit_part].height_mm if profile.sensors.kind == "load-cell" \
        else 12.7
    foot = SPACER + bar + SPACER
    rim = foot + pit_cup(profile).height
    return Stack(SPACER, SPACER + bar, foot, rim, rim - RIM_ABOVE - PLATE, rim - RIM_ABOVE)


# ---------------------------------------------------------------------------------------------
# The top plate.

class Layout(NamedTuple):
    width: float
    depth: float
    centres: dict[int, tuple[float, float]]     # place -> its hole's centre
    buttons: dict[str, tuple[float, float]]


def layout(profile: Profile) -> Layout:
    """Where every hole goes, in the controller's order of places."""
    parts = catalogue()
    n = profile.pits
    reach = MIN_REACH
    if profile.sensors.kind == "load-cell":
        reach = max(reach, cell_mount(parts[profile.sensors.pit_part]).reach)
    south = BUTTON_STRIP + EDGE + reach
    north = south + ROW_PITCH
    depth = north + reach + EDGE
    first = EDGE + STORE_HALF + STORE_GAP
    width = first + (n - 1) * PIT_PITCH + STORE_GAP + STORE_HALF + EDGE
    centres: dict[int, tuple[float, float]] = {}
    for column in range(n):
        x = first + column * PIT_PITCH
        centres[column] = (x, south)                    # South's pit column + 1
        centres[2 * n - 1 - column] = (x, north)        # North's pits run east to west
    middle = (south + north) / 2
    centres[2 * n] = (width - EDGE - STORE_HALF, middle)    # South's store, east
    centres[2 * n + 1] = (EDGE + STORE_HALF, middle)        # North's store, west
    buttons = {name: (width / 2 + (k - (len(BUTTONS) - 1) / 2) * BUTTON_PITCH,
                      BUTTON_STRIP / 2) for k, name in enumerate(BUTTONS)}
    return Layout(width, depth, centres, buttons)


def top_plate(profile: Profile) -> Sheet:
    """The top plate of `profile`'s board (see the module's docstring)."""
    parts = catalogue()
    plan = layout(profile)
    pit_ring, store_ring = parts[profile.leds.pit_part], parts[profile.leds.store_part]
    button = parts[profile.button_part]
    sheet = Sheet("%s: top plate, %s x %s mm, 3 mm opal acrylic" % (
        profile.name, _mm(plan.width), _mm(plan.depth)))
    sheet.add(rectangle(CUT, 0, 0, plan.width, plan.depth, "outline", CORNER))
    for place, (x, y) in plan.centres.items():
        ring = pit_ring if place < 2 * profile.pits else store_ring
        name = place_label(place, profile.pits)
        sheet.add(Circle(CUT, x, y, ring.inner_mm, name),
                  Circle(ENGRAVE, x, y, ring.outer_mm, name + " ring"),
                  Text(DIMENSIONS, x, y - 1, name, 3.0))
    side = button.body_mm + BUTTON_CLEARANCE
    for name, (x, y) in plan.buttons.items():
        words = name.replace("_", " ")
        sheet.add(rectangle(CUT, x - side / 2, y - side / 2, x + side / 2, y + side / 2,
                            "button " + words),
                  Text(ENGRAVE, x, y + side / 2 + 2, words, 3.0))
    _top_dimensions(sheet, profile, plan, pit_ring, store_ring, side)
    return sheet


def _top_dimensions(sheet: Sheet, profile: Profile, plan: Layout, pit_ring: Part,
                    store_ring: Part, side: float) -> None:
    w, d, c = plan.width, plan.depth, plan.centres
    n = profile.pits
    south, north = c[0][1], c[2 * n - 1][1]
    dimension(sheet, (0, 0), (w, 0), -14)
    dimension(sheet, (0, 0), (0, d), -14)
    rim = north + pit_ring.outer_mm / 2 + 2
    dimension(sheet, (c[2 * n - 1][0], rim), (c[2 * n - 2][0], rim), d - rim + 10,
              "pit pitch %s" % _mm(PIT_PITCH))
    dimension(sheet, (0, d), (c[2 * n - 1][0], d), 22)
    dimension(sheet, (0, d), (c[2 * n + 1][0], d), 32)
    dimension(sheet, (w, 0), (w, south), 12)
    dimension(sheet, (w, south), (w, north), 12, "row pitch %s" % _mm(ROW_PITCH))
    dimension(sheet, (w, 0), (w, c[2 * n][1]), 36)
    first, last = plan.buttons[BUTTONS[0]], plan.buttons[BUTTONS[-1]]
    dimension(sheet, (first[0], 0), (last[0], 0), -6,
              "buttons %s apart, %s from the edge" % (_mm(BUTTON_PITCH), _mm(first[1])))
    x, y = c[0]
    sheet.add(Text(DIMENSIONS, x, y - pit_ring.outer_mm / 2 - 5,
                   "pits: cut %s (the %s %s ring's inner diameter)" % (
                       _mm(pit_ring.inner_mm), pit_ring.maker, pit_ring.number), 2.5),
              Text(DIMENSIONS, x, y - pit_ring.outer_mm / 2 - 8.5,
                   "engraved %s: glue the ring under the plate on it" % _mm(pit_ring.outer_mm),
                   2.5))
    x, y = c[2 * n]
    sheet.add(Text(DIMENSIONS, x, y - store_ring.outer_mm / 2 - 5,
                   "stores: cut %s, engraved %s" % (_mm(store_ring.inner_mm),
                                                    _mm(store_ring.outer_mm)), 2.5))
    sheet.add(Text(DIMENSIONS, w / 2, -26, "%s. Buttons: %s mm square holes; corners r %s. "
                   "Layers: CUT through, ENGRAVE mark, DIMENSIONS for reading only (hide it "
                   "before cutting)." % (sheet.title, _mm(side), _mm(CORNER)), 3.0))


# ---------------------------------------------------------------------------------------------
# The mounts.

def mounts(profile: Profile) -> Sheet:
    """The pit's and the store's load-cell mounts, side by side (see the module's docstring)."""
    if profile.sensors.kind != "load-cell":
        raise UsageError("%s has no load cells (%s sensing): it has no load-cell mounts; "
                         "draw its top plate with --part top" % (profile.name,
                                                                profile.sensors.kind))
    parts = catalogue()
    sheet = Sheet("%s: load-cell mounts" % profile.name)
    pit = _mount(profile, parts[profile.sensors.pit_part], pit_cup(profile),
                 parts[profile.leds.pit_part], 2 * profile.pits, "pit")
    store = _mount(profile, parts[profile.sensors.store_part], store_cup(profile),
                   parts[profile.leds.store_part], 2, "store")
    sheet.add(*pit.shapes)
    pit_right, store_left = pit.bounds()[2], store.bounds()[0]
    sheet.add(*store.moved(pit_right - store_left + 30, 0))      # the store's right of the pit's
    x0, y0, _, _ = sheet.bounds()
    sheet.add(Text(DIMENSIONS, x0, y0 - 8, "%s. Heights from the base board's top face, mm. "
                   "Layers: CUT (the spacers) through, DIMENSIONS for reading only." % (
                       sheet.title), 3.0, "left"))
    return sheet


def _mount(profile: Profile, cell: Part, cup: Cup, ring: Part, count: int,
           where: str) -> Sheet:
    """One cell's side view (fixed end left, free end right) and its spacers below it."""
    sheet = Sheet(where)
    m, h = cell_mount(cell), stack(profile)
    length, bar = cell.length_mm, cell.height_mm

    def free(d: float) -> float:
        """The x of a point `d` from the free end."""
        return length - d

    def label(x: float, y: float, words: str) -> None:
        sheet.add(Text(DIMENSIONS, x, y, words, 2.5, "left"))

    cx = free(m.cup)
    # the base board, the fixed-end spacer, the bar, the free-end spacer
    sheet.add(box(-15, -BASE, length + 25, 0),
              box(0, 0, m.pad, SPACER),
              box(0, h.bar_bottom, length, h.bar_top),
              box(free(m.pad), h.bar_top, length, h.foot_bottom))
    for d in m.fixed_holes:                              # screws up through base and spacer
        head_d, head_h = HEAD[cell.fixed_thread]
        hole = CLEARANCE_HOLE[cell.fixed_thread]
        sheet.add(box(d - hole / 2 + 0.3, -BASE, d + hole / 2 - 0.3, h.bar_bottom + 8, True),
                  box(d - head_d / 2, -BASE - head_h, d + head_d / 2, -BASE))
    for d in m.free_holes:                               # screws down through the spacer
        head_d, head_h = HEAD[cell.free_thread]
        hole = CLEARANCE_HOLE[cell.free_thread]
        x = free(d)
        if cell.holes_per_end == 2:
            sheet.add(box(x - hole / 2 + 0.3, h.bar_top - 6, x + hole / 2 - 0.3, h.foot_bottom,
                          True),
                      box(x - head_d / 2, h.foot_bottom, x + head_d / 2, h.foot_bottom + head_h))
        else:                                            # through the cup's floor
            sheet.add(box(x - hole / 2 + 0.3, h.bar_top - 6, x + hole / 2 - 0.3,
                          h.foot_bottom + cup.foot_h, True))
    # the overload stop: a screw up through a tee nut in the base
    sx = free(m.stop)
    sheet.add(box(sx - 2, -BASE - 3, sx + 2, h.bar_bottom - STOP_GAP),
              box(sx - 4, -BASE - 3.5, sx + 4, -BASE - 3))
    # the cup, the plate round it and the ring under the plate
    top = h.foot_bottom + cup.height
    sheet.add(box(cx - cup.foot_d / 2, h.foot_bottom, cx + cup.foot_d / 2,
                  h.foot_bottom + cup.foot_h),
              box(cx - cup.outer_d / 2, h.foot_bottom + cup.foot_h, cx + cup.outer_d / 2, top),
              box(cx - cup.inner_d / 2, h.foot_bottom + cup.foot_h, cx + cup.inner_d / 2, top,
                  True))
    span = ring.outer_mm / 2 + 12
    for sign in (-1, 1):
        inner, outer = cx + sign * ring.inner_mm / 2, cx + sign * span
        sheet.add(box(min(inner, outer), h.plate_bottom, max(inner, outer), h.plate_top),
                  box(min(inner, cx + sign * ring.outer_mm / 2), h.plate_bottom - RING,
                      max(inner, cx + sign * ring.outer_mm / 2), h.plate_bottom))
    # dimensions and words
    dimension(sheet, (0, h.bar_bottom), (length, h.bar_bottom), -(h.bar_bottom + BASE + 12),
              "%s bar %s" % (cell.number, _mm(length)))
    dimension(sheet, (-15, 0), (-15, h.bar_bottom), -4)
    dimension(sheet, (-15, h.bar_bottom), (-15, h.bar_top), -4)
    dimension(sheet, (length + 25, 0), (length + 25, h.foot_bottom), 4)
    dimension(sheet, (length + 25, 0), (length + 25, h.plate_top), 14,
              "plate top %s" % _mm(h.plate_top))
    dimension(sheet, (cx - cup.outer_d / 2, top), (cx + cup.outer_d / 2, top), 5,
              "cup %s in a %s hole" % (_mm(cup.outer_d), _mm(ring.inner_mm)))
    for x, y, words in ((-14, -BASE / 2, "base board"), (m.pad + 2, SPACER / 2, "spacer"),
                        (length / 2, (h.bar_bottom + h.bar_top) / 2, "load cell"),
                        (cx + span + 2, (h.plate_bottom + h.plate_top) / 2,
                         "top plate %s" % _mm(PLATE))):
        label(x, y - 1, words)
    if cell.holes_per_end == 2:
        dimension(sheet, (free(m.free_holes[1]), h.foot_bottom + 4),
                  (free(m.free_holes[0]), h.foot_bottom + 4), -(cup.foot_h + 10))
    label(-14, h.plate_top + 26, "%s: the %s (%s %s, %d g) as a cantilever, cut %d of each "
          "spacer" % (where.capitalize(), cell.name.split(",")[0].split(" (")[0], cell.maker,
                      cell.number, cell.capacity_g, count))
    label(-14, h.plate_top + 21, "fixed end: %d x %s x %s up through the base and a %s mm spacer;"
          " free end: a %s mm spacer, %s" % (
              cell.holes_per_end, cell.fixed_thread, _mm(BASE + SPACER + 8), _mm(SPACER),
              _mm(SPACER), "2 x %s x 12 down into the bar" % cell.free_thread
              if cell.holes_per_end == 2 else "1 x %s x 20 through the cup's floor" %
              cell.free_thread))
    label(-14, h.plate_top + 16, "cup: %s across, %s deep inside (%.1f cm3: %d seeds of %s mm); "
          "its rim %s above the plate%s" % (
              _mm(cup.outer_d), _mm(cup.depth), cup.volume_mm3 / 1000, cup.seeds, _mm(SEED_D),
              _mm(RIM_ABOVE), ", held by an M3 x 10 screw into the spacer"
              if cell.holes_per_end == 2 else ""))
    label(sx + 6, -BASE - 6, "overload stop: M4 screw in a tee nut, tip %s under the bar; set "
          "it with %d g on the cup, just touching" % (_mm(STOP_GAP), cell.capacity_g * 6 // 5))
    label(length + 42, h.plate_bottom - RING / 2, "ring %s under the plate" % _mm(ring.outer_mm))
    # the spacers to cut, below the side view
    y = -BASE - 30 - cell.width_mm
    for k, (title, holes, thread) in enumerate(
            (("fixed-end spacer", m.fixed_holes, cell.fixed_thread),
             ("free-end spacer", m.free_holes, cell.free_thread))):
        x0 = k * (m.pad + 25)
        sheet.add(rectangle(CUT, x0, y, x0 + m.pad, y + cell.width_mm, "%s %s" % (where, title)))
        for d in holes:
            sheet.add(Circle(CUT, x0 + d, y + cell.width_mm / 2, CLEARANCE_HOLE[thread],
                             "%s %s hole" % (where, title)))
        if k == 1 and cell.holes_per_end == 2:           # the cup's screw, a pilot hole
            sheet.add(Circle(CUT, x0 + m.cup, y + cell.width_mm / 2, 2.5,
                             "%s cup screw pilot" % where))
        label(x0, y - 4, "%s, cut %d" % (title, count))
        dimension(sheet, (x0, y), (x0 + m.pad, y), -9)
    return sheet


# ---------------------------------------------------------------------------------------------
# Writing them.

PARTS = ("top", "mount")


def drawing(profile: Profile, part: str | None = None) -> Sheet:
    """`part` "top" or "mount", or None for both on one sheet (the mounts below)."""
    if part == "top":
        return top_plate(profile)
    if part == "mount":
        return mounts(profile)
    top = top_plate(profile)
    if profile.sensors.kind != "load-cell":
        return top
    mount = mounts(profile)
    top_left, top_bottom, _, _ = top.bounds()
    mount_left, _, _, mount_top = mount.bounds()
    both = Sheet("%s: top plate and load-cell mounts" % profile.name, list(top.shapes))
    both.add(*mount.moved(top_left - mount_left, top_bottom - mount_top - 20))   # below it
    return both


def svg(sheet: Sheet) -> str:
    """SVG text in mm (a viewBox in mm, width and height in mm), one group per layer."""
    x0, y0, x1, y1 = sheet.bounds()
    pad = 5.0
    x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
    w, h = x1 - x0, y1 - y0
    groups: dict[str, list[str]] = {layer: [] for layer in LAYERS}
    for s in sheet.shapes:
        groups[s.layer].append(_svg_shape(s))
    out = ['<svg xmlns="http://www.w3.org/2000/svg" '
           'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
           'width="%smm" height="%smm" viewBox="%s %s %s %s" '
           'font-family="DejaVu Sans, Arial, sans-serif">' % (
               _f(w), _f(h), _f(x0), _f(-y1), _f(w), _f(h)),
           "<title>%s</title>" % _escape(sheet.title)]
    for layer, (colour, _aci) in LAYERS.items():
        out.append('<g id="%s" inkscape:groupmode="layer" inkscape:label="%s" fill="none" '
                   'stroke="%s" color="%s" stroke-width="0.2">' % (layer, layer, colour, colour))
        out.extend(groups[layer])
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _f(value: float) -> str:
    text = "%.3f" % value
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _escape(words: str) -> str:
    return words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _svg_shape(s: Shape) -> str:
    """One shape, y turned downwards for SVG."""
    if isinstance(s, Circle):
        return '<circle cx="%s" cy="%s" r="%s"><title>%s</title></circle>' % (
            _f(s.x), _f(-s.y), _f(s.diameter / 2), _escape(s.name))
    if isinstance(s, Text):
        anchor = {"left": "start", "middle": "middle", "right": "end"}[s.align]
        return ('<text x="%s" y="%s" font-size="%s" text-anchor="%s" stroke="none" '
                'fill="currentColor">%s</text>' % (_f(s.x), _f(-s.y), _f(s.height), anchor,
                                                   _escape(s.words)))
    if isinstance(s, Polyline):
        dash = ' stroke-dasharray="1.5 1"' if s.dashed else ""
        tag = "polygon" if s.closed else "polyline"
        return '<%s points="%s"%s/>' % (tag, " ".join(
            "%s,%s" % (_f(x), _f(-y)) for x, y in s.points), dash)
    parts = ["M %s %s" % (_f(s.points[0][0]), _f(-s.points[0][1]))]
    for (x, y, bulge), (nx, ny, _) in zip(s.points, s.points[1:] + s.points[:1]):
        if abs(bulge) < 1e-12:
            parts.append("L %s %s" % (_f(nx), _f(-ny)))
        else:           # a DXF bulge as an SVG arc (sweep 0: counter-clockwise as seen)
            chord = math.hypot(nx - x, ny - y)
            radius = chord * (1 + bulge * bulge) / (4 * abs(bulge))
            parts.append("A %s %s 0 %d %d %s %s" % (_f(radius), _f(radius),
                                                    1 if abs(bulge) > 1 else 0,
                                                    0 if bulge > 0 else 1, _f(nx), _f(-ny)))
    return '<path d="%s Z"><title>%s</title></path>' % (" ".join(parts), _escape(s.name))


def dxf(sheet: Sheet) -> Any:
    """An ezdxf document in mm: circles as CIRCLE, outlines as closed LWPOLYLINE (arcs as
    bulges), side views and dimension lines as LWPOLYLINE, words as TEXT, each on its layer."""
    try:
        import ezdxf
        from ezdxf import units
        from ezdxf.enums import TextEntityAlignment
    except ImportError:
        raise UsageError("writing DXF needs the ezdxf package (pip install ezdxf); SVG needs "
                         "nothing more") from None
    doc = ezdxf.new("R2010", setup=True)               # with the standard linetypes
    doc.units = units.MM
    doc.header["$MEASUREMENT"] = 1                    # metric
    for layer, (_colour, aci) in LAYERS.items():
        doc.layers.add(layer, color=aci)
    msp = doc.modelspace()
    align = {"left": TextEntityAlignment.MIDDLE_LEFT, "middle": TextEntityAlignment.MIDDLE_CENTER,
             "right": TextEntityAlignment.MIDDLE_RIGHT}
    for s in sheet.shapes:
        attributes = {"layer": s.layer}
        if isinstance(s, Circle):
            msp.add_circle((s.x, s.y), s.diameter / 2, dxfattribs=attributes)
        elif isinstance(s, Outline):
            msp.add_lwpolyline(list(s.points), format="xyb", close=True, dxfattribs=attributes)
        elif isinstance(s, Polyline):
            if s.dashed:
                attributes["linetype"] = "DASHED"
            msp.add_lwpolyline(list(s.points), format="xy", close=s.closed,
                               dxfattribs=attributes)
        else:
            msp.add_text(s.words, height=s.height, dxfattribs=attributes).set_placement(
                (s.x, s.y + s.height / 2), align=align[s.align])
    return doc


def write(sheet: Sheet, path: str | Path) -> None:
    """`sheet` to `path`: SVG or DXF by its extension."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".svg", ".dxf"):
        raise UsageError("%s: the drawing's file must end in .svg or .dxf" % path)
    try:
        if suffix == ".svg":
            Path(path).write_text(svg(sheet), encoding="utf-8")
        else:
            dxf(sheet).saveas(path)
    except OSError as error:
        raise UsageError("cannot write %s: %s" % (path, error.strerror or error)) from None
