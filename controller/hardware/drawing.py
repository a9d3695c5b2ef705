"""Mechanical drawings of a board, made from its profile: the top plate in parts a laser cuts,
the load-cell mounts and the walls, in millimetres, as SVG or as DXF for a laser cutter
(host-only).

    >>> from controller.hardware.profile import load
    >>> sheet = top_plate(load("pico-bridge-2x6"))
    >>> holes = {c.name: c for c in sheet.circles(CUT)}
    >>> holes["S1"].diameter, holes["S store"].diameter    # the collars' spigots drop in
    (60.0, 82.0)
    >>> round(holes["S2"].x - holes["S1"].x, 2)             # the pit pitch
    84.0
    >>> [o.name for o in sheet.outlines(CUT) if o.name.startswith("top-")]
    ['top-1', 'top-2']

The geometry is `controller.hardware.body`'s (the pits and stores from the hand and the seed,
the LED arcs and their collars, the layout) and `controller.hardware.plate`'s (the parts, their
dovetails, the mounting holes); this module draws it.

The **top plate** (`top_plate`) is cut from 3 mm acrylic in parts that each fit a 600 x 400
mm laser bed, joined by dovetails across seams between two pit columns: a hole per pit and
store (named by its place: S1, N6, S store...) for its collar's spigot, a notch beside it for
the LED arc's three wires, the collar's footprint engraved round it, the M3 mounting holes, and
the buttons' square holes with engraved names. South's row is at the bottom, as the player
sits; South's pits run west to east, North's east to west, South's store at the east end,
North's at the west (as the wiring diagrams draw them). `top_plate` lays the parts out as they
join; `plate_part(profile, k)` is part k alone, at the origin, for the laser (`--part top-2`).

The **mounts** (`mounts`, load-cell boards only) are, for the pit's cell and the store's: a side
view of the cell as a cantilever (its fixed end screwed down to the base on a spacer and its
riser, a spacer and the cup screwed on its free end, an overload stop under the free end, the
top plate and the collar round the cup), dimensioned, and the spacers to cut with the cell's
hole pattern.

The **walls** (`wall_sheet`, `--part walls`) are the pieces of 6 mm plywood that hold the plate
at its height, each within the bed.

Layers: `CUT` (closed outlines and circles: cut through), `ENGRAVE` (mark only) and
`DIMENSIONS` (dimensions, labels and the side views: for reading, never for the laser: hide it
before cutting). `svg(sheet)` writes SVG with a millimetre viewBox, `dxf(sheet)` a DXF in
millimetres through ezdxf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.errors import UsageError
from controller.hardware.body import (BASE, BEZEL_H, CLEARANCE_HOLE, PLATE, SPACER, Board,
                                      Pocket, WIRE_HOLE, body, cell_mount)
from controller.hardware.parts import Part, catalogue
from controller.hardware.plate import HOLE, Part as PlatePart, Plate, plate, walls
from controller.hardware.profile import Profile, place_label
from controller.protocol.messages import BUTTONS

CUT, ENGRAVE, DIMENSIONS = "CUT", "ENGRAVE", "DIMENSIONS"
LAYERS = {CUT: ("#e00000", 1), ENGRAVE: ("#0044cc", 5), DIMENSIONS: ("#606060", 8)}  # SVG, ACI

BUTTON_CLEARANCE = 0.4  # a square hole this much bigger than the switch's body
CORNER = 10.0           # the plate's outer corners' radius
STOP_GAP = 0.5          # the overload stop's tip under the bar, before it is set by loading
HEAD = {"M3": (5.5, 2.4), "M4": (7.0, 2.8), "M5": (8.5, 3.5)}   # pan heads: diameter, height


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
# The top plate.

def part_outline(part: PlatePart, width: float) -> Outline:
    """The closed outline of a plate part, counter-clockwise from its south-west corner: the
    board's own corners rounded, its dovetails out on the east seam, their sockets in on the
    west."""
    x0, x1, d = part.x0, part.x1, part.depth
    b, r = math.tan(math.pi / 8), CORNER            # a quarter circle, counter-clockwise
    west, east = x0 <= 0, x1 >= width               # the board's ends: rounded corners
    points: list[tuple[float, float, float]] = [(x0 + r, 0.0, 0.0) if west else (x0, 0.0, 0.0)]
    points += [(x1 - r, 0.0, b), (x1, r, 0.0)] if east else [(x1, 0.0, 0.0)]
    for tail in sorted(part.out, key=lambda t: t.y):
        points += [(x, y, 0.0) for x, y in tail.points()]
    points += [(x1, d - r, b), (x1 - r, d, 0.0)] if east else [(x1, d, 0.0)]
    points += [(x0 + r, d, b), (x0, d - r, 0.0)] if west else [(x0, d, 0.0)]
    for tail in sorted(part.into, key=lambda t: -t.y):
        points += [(x, y, 0.0) for x, y in reversed(tail.points())]
    if west:
        points.append((x0, r, b))
    return Outline(CUT, tuple(points), part.name)


def _in_part(part: PlatePart, x: float) -> bool:
    return part.x0 < x < part.x1


def top_plate(profile: Profile) -> Sheet:
    """The top plate of `profile`'s board, its parts as they join (see the module's
    docstring)."""
    board = body(profile)
    plan = plate(board)
    sheet = Sheet("%s: top plate, %s x %s mm in %d parts, 3 mm acrylic" % (
        profile.name, _mm(board.width), _mm(board.depth), len(plan.parts)))
    for part in plan.parts:
        sheet.add(*_part_shapes(profile, board, plan, part))
    _top_dimensions(sheet, board, plan)
    return sheet


def plate_part(profile: Profile, number: int) -> Sheet:
    """Part `number` (1 at the west end) of the top plate alone, moved to the origin: one
    laser job."""
    board = body(profile)
    plan = plate(board)
    if not 1 <= number <= len(plan.parts):
        raise UsageError("%s's top plate has %d parts: top-1..top-%d, not top-%d" % (
            profile.name, len(plan.parts), len(plan.parts), number))
    part = plan.parts[number - 1]
    sheet = Sheet("%s: top plate, part %d of %d (%s x %s mm), 3 mm acrylic" % (
        profile.name, number, len(plan.parts), _mm(part.size[0]), _mm(part.size[1])))
    sheet.add(*Sheet("", _part_shapes(profile, board, plan, part)).moved(-part.x0, 0))
    return sheet


def _part_shapes(profile: Profile, board: Board, plan: Plate, part: PlatePart) -> list[Shape]:
    """What is cut and engraved in one part: its outline, the openings whose centres are in
    it, their wire notches, the collars' footprints, the mounting holes and the buttons."""
    button = catalogue()[profile.button_part]
    shapes: list[Shape] = [part_outline(part, board.width)]
    for place, (x, y) in enumerate(board.centres):
        if not _in_part(part, x):
            continue
        pocket = board.pocket(place)
        name = place_label(place, board.pits)
        angle = _wire_angle(board, place)
        ring = pocket.collar
        shapes += [Circle(CUT, x, y, ring.hole_d, name),
                   Circle(CUT, x + ring.wire_r * math.cos(angle),
                          y + ring.wire_r * math.sin(angle), WIRE_HOLE, name + " wires"),
                   Circle(ENGRAVE, x, y, ring.outer_d, name + " collar"),
                   Text(DIMENSIONS, x, y - 1, name, 3.0)]
    for x, y in plan.holes:
        if _in_part(part, x):
            shapes.append(Circle(CUT, x, y, HOLE, "mounting hole"))
    side = button.body_mm + BUTTON_CLEARANCE
    for name, (x, y) in board.buttons.items():
        if _in_part(part, x):
            words = name.replace("_", " ")
            shapes += [rectangle(CUT, x - side / 2, y - side / 2, x + side / 2, y + side / 2,
                                 "button " + words),
                       Text(ENGRAVE, x, y + side / 2 + 2, words, 3.0)]
    shapes.append(Text(DIMENSIONS, (part.x0 + part.x1) / 2, part.depth + 4, part.name, 5.0))
    return shapes


def _wire_angle(board: Board, place: int) -> float:
    """Where a place's wires go down: towards the middle line between the rows, where the
    data path runs (South's row north, North's south, the stores towards the pits)."""
    n = board.pits
    if place < n:
        return math.pi / 2
    if place < 2 * n:
        return -math.pi / 2
    return math.pi if place == 2 * n else 0.0


def _top_dimensions(sheet: Sheet, board: Board, plan: Plate) -> None:
    w, d, c = board.width, board.depth, board.centres
    n = board.pits
    south, north = c[0][1], c[2 * n - 1][1]
    dimension(sheet, (0, 0), (w, 0), -14)
    dimension(sheet, (0, 0), (0, d), -14)
    rim = north + board.pit.collar.outer_d / 2 + 2
    dimension(sheet, (c[2 * n - 1][0], rim), (c[2 * n - 2][0], rim), d - rim + 10,
              "pit pitch %s" % _mm(board.pit_pitch))
    dimension(sheet, (0, d), (c[2 * n - 1][0], d), 22)
    dimension(sheet, (0, d), (c[2 * n + 1][0], d), 32)
    dimension(sheet, (w, 0), (w, south), 12)
    dimension(sheet, (w, south), (w, north), 12, "row pitch %s" % _mm(board.row_pitch))
    dimension(sheet, (w, 0), (w, c[2 * n][1]), 36)
    for seam in plan.seams:
        dimension(sheet, (0, -30), (seam, -30), -4, "seam %s" % _mm(seam))
    first, last = board.buttons[BUTTONS[0]], board.buttons[BUTTONS[-1]]
    dimension(sheet, (first[0], 0), (last[0], 0), -6,
              "buttons %s apart, %s from the edge" % (_mm(last[0] - first[0]), _mm(first[1])))
    pit, store = board.pit.collar, board.store.collar
    x, y = c[0]
    sheet.add(Text(DIMENSIONS, x, y - pit.outer_d / 2 - 5,
                   "pits: cut %s for the collar's spigot; engraved %s: the collar" % (
                       _mm(pit.hole_d), _mm(pit.outer_d)), 2.5))
    x, y = c[2 * n]
    sheet.add(Text(DIMENSIONS, x, y - store.outer_d / 2 - 5,
                   "stores: cut %s, engraved %s" % (_mm(store.hole_d), _mm(store.outer_d)), 2.5))
    sheet.add(Text(DIMENSIONS, w / 2, -46, "%s. Mounting holes M3 (%s); wire notches %s; "
                   "outer corners r %s. Dovetails: a drop of acrylic cement. Layers: CUT "
                   "through, ENGRAVE mark, DIMENSIONS for reading only (hide it before "
                   "cutting)." % (sheet.title, _mm(HOLE), _mm(WIRE_HOLE), _mm(CORNER)), 3.0))


def wall_sheet(profile: Profile) -> Sheet:
    """The walls' pieces to cut from 6 mm plywood, one under another (`plate.walls`)."""
    board = body(profile)
    pieces = walls(board, plate(board))
    sheet = Sheet("%s: walls, 6 mm plywood, %s mm high (the plate's underside over the base)" % (
        profile.name, _mm(pieces[0].height)))
    y = 0.0
    for piece in pieces:
        sheet.add(rectangle(CUT, 0, y, piece.length, y + piece.height, piece.name),
                  Text(ENGRAVE, 8, y + piece.height / 2 - 1.5, piece.name, 3.0, "left"))
        dimension(sheet, (0, y), (piece.length, y), -4)
        y -= piece.height + 14
    sheet.add(Text(DIMENSIONS, 0, y, "%s. Glue and screw them to the base board's edge, the long "
                   "walls' pieces end to end under the plate's seams; round their outer corners "
                   "to the plate's r %s." % (sheet.title, _mm(CORNER)), 3.0, "left"))
    return sheet


# ---------------------------------------------------------------------------------------------
# The mounts.

def mounts(profile: Profile) -> Sheet:
    """The pit's and the store's load-cell mounts, side by side (see the module's docstring)."""
    if profile.sensors.kind != "load-cell":
        raise UsageError("%s has no load cells (%s sensing): it has no load-cell mounts; "
                         "draw its top plate with --part top" % (profile.name,
                                                                profile.sensors.kind))
    parts = catalogue()
    board = body(profile)
    sheet = Sheet("%s: load-cell mounts" % profile.name)
    pit = _mount(board, parts[profile.sensors.pit_part], board.pit, 2 * profile.pits)
    store = _mount(board, parts[profile.sensors.store_part], board.store, 2)
    sheet.add(*pit.shapes)
    pit_right, store_left = pit.bounds()[2], store.bounds()[0]
    sheet.add(*store.moved(pit_right - store_left + 30, 0))      # the store's right of the pit's
    x0, y0, _, _ = sheet.bounds()
    sheet.add(Text(DIMENSIONS, x0, y0 - 8, "%s. Heights from the base board's top face, mm. "
                   "Layers: CUT (the spacers) through, DIMENSIONS for reading only." % (
                       sheet.title), 3.0, "left"))
    return sheet


def _mount(board: Board, cell: Part, pocket: Pocket, count: int) -> Sheet:
    """One cell's side view (fixed end left, free end right) and its spacers below it."""
    where, cup, ring = pocket.kind, pocket.cup, pocket.collar
    sheet = Sheet(where)
    m, h = cell_mount(cell), board.stack(where)
    length = cell.length_mm

    def free(d: float) -> float:
        """The x of a point `d` from the free end."""
        return length - d

    def label(x: float, y: float, words: str) -> None:
        sheet.add(Text(DIMENSIONS, x, y, words, 2.5, "left"))

    cx = free(m.cup)
    # the base board, the fixed-end spacer, the bar, the free-end spacer
    sheet.add(box(-15, -BASE, length + 25, 0),
              box(0, 0, m.pad, h.bar_bottom),
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
    # the cup, the plate round it and the collar on the plate (its spigot in the plate's hole)
    top = h.foot_bottom + cup.height
    sheet.add(box(cx - cup.foot_d / 2, h.foot_bottom, cx + cup.foot_d / 2,
                  h.foot_bottom + cup.foot_h),
              box(cx - cup.outer_d / 2, h.foot_bottom + cup.foot_h, cx + cup.outer_d / 2, top),
              box(cx - cup.inner_d / 2, h.foot_bottom + cup.foot_h, cx + cup.inner_d / 2, top,
                  True))
    span = ring.outer_d / 2 + 12
    for sign in (-1, 1):
        hole, outer = cx + sign * ring.hole_d / 2, cx + sign * span
        inner, wall = cx + sign * ring.inner_d / 2, cx + sign * ring.outer_d / 2
        spigot = cx + sign * ring.spigot_d / 2
        sheet.add(box(min(hole, outer), h.plate_bottom, max(hole, outer), h.plate_top),
                  box(min(inner, wall), h.plate_top, max(inner, wall), h.bezel_top),
                  box(min(inner, spigot), h.plate_bottom, max(inner, spigot), h.plate_top))
    # dimensions and words
    dimension(sheet, (0, h.bar_bottom), (length, h.bar_bottom), -(h.bar_bottom + BASE + 12),
              "%s bar %s" % (cell.number, _mm(length)))
    dimension(sheet, (-15, 0), (-15, h.bar_bottom), -4,
              "%s%s" % (_mm(h.bar_bottom), " (riser %s)" % _mm(pocket.riser)
                        if pocket.riser else ""))
    dimension(sheet, (-15, h.bar_bottom), (-15, h.bar_top), -4)
    dimension(sheet, (length + 25, 0), (length + 25, h.foot_bottom), 4)
    dimension(sheet, (length + 25, 0), (length + 25, h.plate_top), 14,
              "plate top %s" % _mm(h.plate_top))
    dimension(sheet, (cx - cup.outer_d / 2, h.bezel_top), (cx + cup.outer_d / 2, h.bezel_top),
              5, "cup %s in the collar's %s" % (_mm(cup.outer_d), _mm(ring.inner_d)))
    for x, y, words in ((-14, -BASE / 2, "base board"), (m.pad + 2, SPACER / 2, "spacer"),
                        (length / 2, (h.bar_bottom + h.bar_top) / 2, "load cell"),
                        (cx + span + 2, (h.plate_bottom + h.plate_top) / 2,
                         "top plate %s" % _mm(PLATE))):
        label(x, y - 1, words)
    if cell.holes_per_end == 2:
        dimension(sheet, (free(m.free_holes[1]), h.foot_bottom + 4),
                  (free(m.free_holes[0]), h.foot_bottom + 4), -(cup.foot_h + 10))
    label(-14, h.bezel_top + 26, "%s: the %s (%s %s, %d g) as a cantilever, %d of "
          "them" % (where.capitalize(), cell.name.split(",")[0].split(" (")[0], cell.maker,
                      cell.number, cell.capacity_g, count))
    label(-14, h.bezel_top + 21, "fixed end: %d x %s x %s up through the base and %s mm of "
          "spacers; free end: a %s mm spacer, %s" % (
              cell.holes_per_end, cell.fixed_thread, _mm(BASE + h.bar_bottom + 8),
              _mm(h.bar_bottom),
              _mm(SPACER), "2 x %s x 12 down into the bar" % cell.free_thread
              if cell.holes_per_end == 2 else "1 x %s x 20 through the cup's floor" %
              cell.free_thread))
    label(-14, h.bezel_top + 16, "cup: %s across inside, %s deep (%.0f cm3: %d seeds of %s "
          "mm, %d wanted); its rim %s below the collar's top%s" % (
              _mm(cup.inner_d), _mm(cup.depth), cup.volume_mm3() / 1000, cup.capacity,
              _mm(cup.seed_d), cup.wanted, _mm(h.bezel_top - h.rim),
              ", held by an M3 x 10 screw into the spacer"
              if cell.holes_per_end == 2 else ""))
    label(sx + 6, -BASE - 6, "overload stop: M4 screw in a tee nut, tip %s under the bar; set "
          "it with %d g on the cup, just touching" % (_mm(STOP_GAP), cell.capacity_g * 6 // 5))
    label(cx + span + 2, (h.plate_top + h.bezel_top) / 2, "collar %s, LED arc of %d, %s "
          "high" % (_mm(ring.outer_d), ring.arc.leds, _mm(BEZEL_H)))
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
        layers = round(h.bar_bottom / SPACER) if k == 0 else 1      # a riser: more layers
        label(x0, y - 4, "%s, cut %d" % (title, count * layers))
        dimension(sheet, (x0, y), (x0 + m.pad, y), -9)
    return sheet


# ---------------------------------------------------------------------------------------------
# Writing them.

PARTS = ("top", "top-N", "mount", "walls")


def drawing(profile: Profile, part: str | None = None) -> Sheet:
    """`part` "top" (every part as they join), "top-N" (part N alone, for the laser), "mount"
    or "walls", or None for the plate and the mounts on one sheet (the mounts below)."""
    if part == "top":
        return top_plate(profile)
    if part == "mount":
        return mounts(profile)
    if part == "walls":
        return wall_sheet(profile)
    if part is not None:
        number = part[4:] if part.startswith("top-") else ""
        if not number.isdigit():
            raise UsageError("--part %s: give top, top-1, top-2 ..., mount or walls" % part)
        return plate_part(profile, int(number))
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
