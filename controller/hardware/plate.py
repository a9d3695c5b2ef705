"""The top plate in parts a hobby laser cuts, its joints and its mounting holes (host-only).

    >>> from controller.hardware.profile import load
    >>> from controller.hardware.body import body
    >>> plan = plate(body(load("pico-bridge-2x12")))
    >>> [(round(p.x0), round(p.x1)) for p in plan.parts]        # three parts, seams between pits
    [(0, 436), (436, 772), (772, 1208)]
    >>> max(p.size for p in plan.parts)                          # each within a 600 x 400 bed
    (450.0, 270.0)

A 2 x 6 board is 704 mm long, a 2 x 12 board 1208 mm: more than a hobby laser's bed (600 x 400
mm, `BED`). The plate is cut in as few parts as fit, split across the board between two pit
columns, where the plate runs from edge to edge between the collars. Each seam has two
**dovetails**, one in the band south of South's row and one north of North's, where no collar
is: a dovetail locks the parts in the plate's plane by its shape alone, needs no screw near
an edge of brittle acrylic, and is cut in the same pass as the outline; a drop of acrylic
cement (solvent) in the joint welds it, and a standoff a little way either side of the seam
carries it from below (the seam's mounting holes). A lap strip with screws would put screws
within a few mm of the seam, where acrylic cracks, and needs room under the plate that the
collars' spigots and the cells take.

The **mounting holes** (M3, 3.4 mm) take M3 standoffs from the base board: at the corners,
along the south and north edges and along the middle line between the rows (between four
collars) at the pit columns' boundaries, and either side of every seam, each kept clear of
the collars, the buttons, the seams, the cells under the plate and the plate's edge.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from controller.errors import UsageError
from controller.hardware.body import BUTTON_STRIP, Board

BED = (600.0, 400.0)        # a hobby laser's bed, mm: every part fits it
TAB = 14.0                  # a dovetail's length across the seam
NECK = 7.0                  # half its width at the seam
HEAD = 11.0                 # half its width at its end (it widens: it cannot pull out)
HOLE = 3.4                  # M3 clearance (ISO 273, medium)
STANDOFF = 7.0              # an M3 hex standoff is 5.5 mm across its flats, 6.4 across corners
HOLE_INSET = 12.0           # a corner hole from the two edges
SEAM_HOLE = 10.0            # a seam's holes from the seam (east: from its dovetails' tips)
CLEAR = 4.0                 # plate left round a hole, a collar, a button, a cell's footprint
BAR_W = 12.7                # a load cell's width under the plate
BUTTON_ROOM = 50.0          # from the outermost buttons' centres to the nearest seam


class Dovetail(NamedTuple):
    """A dovetail on the seam at x, centred at y, pointing east (into the next part)."""

    x: float
    y: float

    def points(self) -> tuple[tuple[float, float], ...]:
        """Its four corners, south to north along the seam's west side."""
        return ((self.x, self.y - NECK), (self.x + TAB, self.y - HEAD),
                (self.x + TAB, self.y + HEAD), (self.x, self.y + NECK))


class Part(NamedTuple):
    """One part of the plate, from x0 to x1 (its seams or the board's ends): its number (1 at
    the west end), its dovetails out east and in from the west."""

    number: int
    x0: float
    x1: float
    depth: float
    out: tuple[Dovetail, ...]       # on its east seam, cut out of the next part
    into: tuple[Dovetail, ...]      # on its west seam, from the part before

    @property
    def size(self) -> tuple[float, float]:
        """Its extent along and across the board, with its dovetails."""
        return (self.x1 + (TAB if self.out else 0.0) - self.x0, self.depth)

    @property
    def name(self) -> str:
        return "top-%d" % self.number


class Plate(NamedTuple):
    parts: tuple[Part, ...]
    seams: tuple[float, ...]
    holes: tuple[tuple[float, float], ...]      # mounting holes' centres


def joint_rows(board: Board) -> tuple[float, float]:
    """The dovetails' y: mid-way across the band between the buttons' strip and South's
    collars, and across the band north of North's collars."""
    south, north = board.centres[0][1], board.centres[2 * board.pits - 1][1]
    ring = board.pit.collar.outer_d / 2
    return ((BUTTON_STRIP + south - ring) / 2, (north + ring + board.depth) / 2)


def _seam_allowed(board: Board, x: float) -> bool:
    """A seam at x keeps well away from the buttons: the corners of the parts it makes need
    mounting holes along the south edge, where the buttons are."""
    xs = [bx for bx, _by in board.buttons.values()]
    return not min(xs) - BUTTON_ROOM <= x <= max(xs) + BUTTON_ROOM


def plate(board: Board) -> Plate:
    """The plate's parts (as few as fit BED), their seams and the mounting holes."""
    candidates = [x for x in (board.centres[k][0] + board.pit_pitch / 2
                              for k in range(board.pits - 1)) if _seam_allowed(board, x)]
    south_y, north_y = joint_rows(board)
    for count in range(1, board.pits + 1):
        seams: list[float] = []
        for i in range(1, count):
            target = board.width * i / count
            choices = [x for x in candidates if x not in seams and (not seams or x > seams[-1])]
            if not choices:
                break
            seams.append(min(choices, key=lambda x: abs(x - target)))
        if len(seams) != count - 1:
            continue
        edges = [0.0] + seams + [board.width]
        parts = []
        for k in range(count):
            out = tuple(Dovetail(edges[k + 1], y) for y in (south_y, north_y)) \
                if k < count - 1 else ()
            into = tuple(Dovetail(edges[k], y) for y in (south_y, north_y)) if k else ()
            parts.append(Part(k + 1, edges[k], edges[k + 1], board.depth, out, into))
        if all(p.size[0] <= BED[0] and p.size[1] <= BED[1] for p in parts):
            return Plate(tuple(parts), tuple(seams), holes(board, tuple(seams)))
    raise UsageError("%s: the top plate (%g x %g mm) cannot be split between its pit columns "
                     "into parts of %g x %g mm or less" % (board.name, board.width, board.depth,
                                                          BED[0], BED[1]))


def keepouts(board: Board) -> list[tuple[str, float, float, float, float]]:
    """What a mounting hole keeps clear of, as rectangles (what, x0, y0, x1, y1) round the
    buttons and the cells, and circles as squares round the collars (checked exactly in
    `_clear`)."""
    out = []
    for name, (x, y) in board.buttons.items():
        out.append(("button " + name, x - 6.2, y - 6.2, x + 6.2, y + 6.2 + 5))   # and its name
    n = board.pits
    for place, (x, y) in enumerate(board.centres):
        if place < n:                                    # South's cells run south
            out.append(("cell", x - BAR_W / 2, y - board.pit_reach, x + BAR_W / 2, y))
        elif place < 2 * n:                              # North's run north
            out.append(("cell", x - BAR_W / 2, y, x + BAR_W / 2, y + board.pit_reach))
        elif place == 2 * n:                             # South's store, east: its cell east
            out.append(("cell", x, y - BAR_W / 2, x + board.store_reach, y + BAR_W / 2))
        else:
            out.append(("cell", x - board.store_reach, y - BAR_W / 2, x, y + BAR_W / 2))
    return out


def _clear(board: Board, seams: tuple[float, ...], x: float, y: float) -> bool:
    r = STANDOFF / 2 + CLEAR
    if not (r <= x <= board.width - r and r <= y <= board.depth - r):
        return False
    for place, (cx, cy) in enumerate(board.centres):
        if math.hypot(x - cx, y - cy) < board.pocket(place).collar.outer_d / 2 + r:
            return False
    for _what, x0, y0, x1, y1 in keepouts(board):
        if x0 - r < x < x1 + r and y0 - r < y < y1 + r:
            return False
    rows = joint_rows(board)
    for s in seams:
        if abs(x - s) < HOLE / 2 + CLEAR:
            return False
        for jy in rows:                                  # the dovetail's footprint
            if s - r < x < s + TAB + r and jy - HEAD - r < y < jy + HEAD + r:
                return False
    return True


def holes(board: Board, seams: tuple[float, ...]) -> tuple[tuple[float, float], ...]:
    """The mounting holes: every candidate that is clear (see the module's docstring)."""
    w, d = board.width, board.depth
    middle = (board.centres[0][1] + board.centres[2 * board.pits - 1][1]) / 2
    columns = [board.centres[k][0] + board.pit_pitch / 2 for k in range(board.pits - 1)]
    # either side of a seam: west of it, and east beyond its dovetails
    xs = sorted(set(columns + [x for s in seams for x in (s - SEAM_HOLE, s + TAB + SEAM_HOLE)]))
    candidates = [(HOLE_INSET, HOLE_INSET), (w - HOLE_INSET, HOLE_INSET),
                  (HOLE_INSET, d - HOLE_INSET), (w - HOLE_INSET, d - HOLE_INSET)]
    for x in xs:
        candidates += [(x, HOLE_INSET), (x, d - HOLE_INSET), (x, middle)]
    for s in seams:         # and just north of the buttons' strip, where buttons may be
        candidates += [(s - SEAM_HOLE, BUTTON_STRIP + 6), (s + TAB + SEAM_HOLE, BUTTON_STRIP + 6)]
    kept: list[tuple[float, float]] = []
    for x, y in candidates:
        if _clear(board, seams, x, y) and all(math.hypot(x - a, y - b) > 20 for a, b in kept):
            kept.append((round(x, 3), round(y, 3)))
    return tuple(sorted(kept))


WALL = 6.0          # the walls: 6 mm plywood, standing on the base board under the plate's edge


class WallPiece(NamedTuple):
    """One piece of a wall to cut: which wall, its number along it, its length and height."""

    wall: str           # "south", "north", "west", "east"
    number: int
    length: float
    height: float

    @property
    def name(self) -> str:
        return "%s wall %d" % (self.wall, self.number)


def walls(board: Board, plan: Plate) -> tuple[WallPiece, ...]:
    """The walls that hold the plate at its height: the south and north walls run the board's
    length, in pieces that end under the plate's seams (where a standoff either side holds
    both); the west and east walls fit between them."""
    height = board.stack("pit").plate_bottom
    edges = (0.0,) + plan.seams + (board.width,)
    pieces = [WallPiece(wall, k + 1, edges[k + 1] - edges[k], height)
              for wall in ("south", "north") for k in range(len(edges) - 1)]
    pieces += [WallPiece(wall, 1, board.depth - 2 * WALL, height) for wall in ("west", "east")]
    return tuple(pieces)
