"""The board's geometry from the hand outward: the pits and stores a hand plays, the LED arcs
round them, the collars that hold the arcs, and the board's layout (host-only).

    >>> from controller.hardware.profile import load
    >>> board = body(load("pico-bridge-2x12"))
    >>> board.game                              # the largest game on a 2 x 12 board
    Game(variant='layli-goobalay-long', pits=12, seeds=96)
    >>> board.pit.cup.inner_d, board.pit.cup.depth, board.pit.cup.capacity   # mm, mm, seeds
    (50.0, 48.0, 33)
    >>> board.store.cup.inner_d, board.store.cup.depth, board.store.cup.capacity
    (71.0, 66.0, 96)
    >>> board.pit.collar.hole_d, board.pit_pitch, board.width, board.depth
    (60.0, 84.0, 1208.0, 270.0)
    >>> problems(board)
    []

Everything starts from two bodies:

**The hand.** A mancala pit is scooped with the fingers: traditional boards have pits of about
45-70 mm. A pit here is 50 mm across inside (`PIT_INNER`), and a **probe** of two fingers held
together, 22 mm across with a rounded tip (`PROBE_D`), must reach its floor along the wall:
the floor's fillet may be no larger than the probe's tip (`probe`), and the floor no deeper
than the fingers reach (`PROBE_REACH`). Between two collars there is room for a finger
(`FINGER_GAP`).

**The seed.** The one the profile names (`[seeds] part`): the shipped profiles' is a 12.7 mm
(1/2 in) chrome-steel ball (hardware/README.md, "Seeds and load cells"). A pit holds at least 30 (a relay pit holds 20-30 in a real
game); a store holds every seed of the largest game its board carries (`largest_game`: 48 on
a 2 x 6 board, 98 on a 2 x 7 (Mangala IV), 96 on a 2 x 12). Seeds dropped in by hand lie in a
**random loose packing**, and a cylinder only a few seeds across packs looser still (the wall
effect: `packing`). The seeds' mean level stays below the rim by a heap's height (`heap`): they
are dropped in the middle and pile up at their angle of repose.

**The lights.** Each pit keeps its 12 WS2812B LEDs and each store its 16 (the guide's patterns,
the firmware and the power budget count those), as a length cut from a 60 LEDs/m strip bent
into a circle, LEDs facing the pit's centre (`Arc`): 12 x 16.67 mm = 200 mm round a circle
63.7 mm across. A printed collar (`Collar`, hardware/board.scad) stands on the top plate round
the pit: the strip in its groove, a translucent inner wall (print it in natural PETG) in
front of the LEDs, the cup rising inside it, never touching it.

`body(profile)` computes all of it; `problems(board)` lists what fails, each naming the place
and the numbers; `check(profile)` raises a UsageError with them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

from controller.errors import UsageError
from controller.hardware.parts import Part, catalogue
from controller.hardware.profile import Profile
from controller.protocol.messages import BUTTONS
from controller.rules.variants import VARIANTS

# --- the seed ---------------------------------------------------------------------------------
# The one place the seed's size is set. When the profile names its seed (`[seeds] part =
# "seed-ball-12.7"`, diameter_mm in hardware/parts.toml), `seed_diameter` reads it there.
PIT_SEEDS = 30          # a pit holds at least this many (a relay pit: 20-30 in a real game)

# Random loose packing of equal spheres in bulk: 0.555 (Onoda & Liniger, Phys. Rev. Lett. 64,
# 2727, 1990: the loose limit of sedimented glass spheres). Against a wall a packing is looser:
# Dixon's correlation for the bulk voidage of spheres poured into a tube of diameter D,
# eps = 0.4 + 0.05 (d/D) + 0.412 (d/D)^2 for d/D <= 0.5 (A. G. Dixon, Can. J. Chem. Eng. 66,
# 705-708, 1988), gives 0.439 at D/d = 3.94 (a 12.7 mm seed in the 50 mm pit) against 0.40 in
# bulk. `packing` scales the loose limit by that ratio: 0.555 x 0.561 / 0.60 = 0.519 in a pit.
LOOSE_BULK = 0.555
DIXON_BULK = 0.60
REPOSE_DEG = 25.0       # the seeds' angle of repose: smooth glass or steel balls heap at 20-25
                        # degrees (Zhou et al., Powder Technology 125, 45-54, 2002); taken high

# --- the hand ---------------------------------------------------------------------------------
PIT_INNER = 50.0        # a pit's inside: traditional boards' pits are 45-70 mm across
PROBE_D = 22.0          # two fingers held together, with a rounded tip of half that radius
PROBE_REACH = 70.0      # how deep those two fingers reach below the rim (an adult's middle
                        # finger is about 70-80 mm long): the floor must be no deeper
FINGER_GAP = 16.0       # plate between two collars: a fingertip rests there

# --- the LED strip (one 60 LEDs/m WS2812B strip, cut into arcs) --------------------------------
STRIP_PITCH = 1000.0 / 60   # 16.67 mm: 60 LEDs a metre, cut between any two LEDs (Pololu 2549)
STRIP_WIDTH = 10.0          # the flexible PCB is 10 mm wide (DFRobot FIT0612: 60 LEDs/m, 10 mm)
STRIP_PCB = 0.3             # the flexible PCB's thickness with its copper
LED_H = 1.6                 # a WS2812B's package: 5.0 x 5.0 x 1.6 mm (Worldsemi datasheet)
STRIP_MIN_BEND_R = 30.0     # strip makers' least bend radius, typically about 30 mm (hitlights
                            # .com, "Can you bend LED strip lights"); bent flat, LEDs inside

# --- the collar (printed, natural PETG) ---------------------------------------------------------
DIFFUSER = 1.2          # its inner wall, between the LEDs and the cup: three 0.4 mm perimeters
LED_GAP = 0.3           # between the LEDs' faces and that wall
BACK_WALL = 1.6         # its outer wall, behind the strip
BEZEL_H = 12.0          # its height above the plate: the strip's 10 mm, 0.5 under, 1.5 over
HOLE_CLEARANCE = 0.2    # all round, between the collar's spigot and the plate's hole
WIRE_HOLE = 5.0         # the notch in the plate under the strip's ends, for its three wires

# --- the cup (printed, PETG or PLA; hardware/cup.scad) -------------------------------------------
CUP_WALL = 2.0          # five 0.4 mm perimeters: a 50 mm cup must not flex under a hand
CUP_CLEARANCE = 1.5     # all round, between the cup and the collar: it must never touch
CUP_FILLET = 8.0        # the floor's fillet: no more than the probe's tip radius
CUP_FOOT_H = 5.0        # the foot under the floor: it takes the free end's screw heads
CUP_FOOT_OVER = 10.0    # the foot is this much wider than the cup
RIM_BELOW = 1.0         # the cup's rim stands this far below the collar's top edge

# --- the stack under the plate (mm) -------------------------------------------------------------
PLATE = 3.0             # the top plate: 3 mm acrylic (opaque: the light is in the collars)
BASE = 6.0              # the base board: 6 mm plywood
SPACER = 6.0            # each spacer: 6 mm plywood; a pit cell's riser is whole spacers
NO_CELL_BAR = 12.7      # a board without load cells stands its cups on a 12.7 mm block

# --- the plate ----------------------------------------------------------------------------------
EDGE = 10.0             # plate beyond the outermost collar or cell
BUTTON_STRIP = 30.0     # along the south edge, for the buttons
BUTTON_PITCH = 40.0
MIN_REACH = 40.0        # from a pit's centre to its row's edge, on a board without load cells
JOINT_BAND = 34.0       # plate beyond a row's collars where a joint's dovetail goes
MIN_OPENING = 50.0      # every pit's and store's opening in the plate: at least a hand's pit


class Game(NamedTuple):
    """The largest game a board carries: the variant, its pits per row and its seeds."""

    variant: str
    pits: int
    seeds: int


def largest_game(pits: int) -> Game:
    """The game with the most seeds among the variants a board of `pits` per row plays (a
    variant whose pits per row are `pits`, or whose `pits` option allows it)."""
    games = []
    for name, variant in VARIANTS.items():
        option = variant.options.get("pits")
        allowed = range(option[2][0], option[2][1] + 1) if option else (variant.pits,)
        if pits in allowed:
            games.append(Game(name, pits, 2 * pits * variant.seeds))
    if not games:
        raise UsageError("no variant is played on a board of 2 x %d pits" % pits)
    return max(games, key=lambda game: game.seeds)


def seed_diameter(profile: Profile) -> float:
    """The diameter of the seed the profile names (`[seeds] part`), mm."""
    return catalogue()[profile.seed].diameter_mm


def seed_volume(seed_d: float) -> float:
    return math.pi / 6 * seed_d ** 3


def packing(seed_d: float, inner_d: float) -> float:
    """The loose packing fraction of seeds of `seed_d` in a cylinder `inner_d` across: the bulk
    loose limit scaled by Dixon's wall effect (the sources are at LOOSE_BULK)."""
    ratio = seed_d / inner_d
    if ratio > 0.5:
        raise UsageError("a cup %.1f mm across is less than two %.1f mm seeds wide: Dixon's "
                         "correlation holds to d/D = 0.5" % (inner_d, seed_d))
    voidage = 0.4 + 0.05 * ratio + 0.412 * ratio ** 2
    return LOOSE_BULK * (1 - voidage) / DIXON_BULK


def heap(inner_d: float) -> float:
    """The height of a heap of seeds over the whole cup at their angle of repose: the seeds'
    mean level stays this far below the rim."""
    return inner_d / 2 * math.tan(math.radians(REPOSE_DEG))


@dataclass(frozen=True)
class Cup:
    """A cup: its inside (diameter, depth from the rim to the floor, the floor's fillet), its
    wall, its foot, and the seeds it must hold."""

    inner_d: float
    depth: float
    seed_d: float
    wanted: int                 # seeds it must hold
    wall: float = CUP_WALL
    fillet: float = CUP_FILLET
    foot_h: float = CUP_FOOT_H

    @property
    def outer_d(self) -> float:
        return self.inner_d + 2 * self.wall

    @property
    def foot_d(self) -> float:
        return self.outer_d + CUP_FOOT_OVER

    @property
    def height(self) -> float:
        """From the foot's underside to the rim."""
        return self.foot_h + self.depth

    def volume_mm3(self, depth: float | None = None) -> float:
        """The inside's volume up to `depth` above the floor (the whole depth by default): the
        cylinder less the floor's fillet (Pappus: the corner's area r^2 (1 - pi/4) turned round
        its centroid, (10 - 3 pi) / (12 - 3 pi) r in from the corner)."""
        depth = self.depth if depth is None else depth
        radius, r = self.inner_d / 2, self.fillet
        corner = r * r * (1 - math.pi / 4) * 2 * math.pi * (
            radius - r * (10 - 3 * math.pi) / (12 - 3 * math.pi))
        return math.pi * radius ** 2 * depth - corner

    @property
    def packing(self) -> float:
        return packing(self.seed_d, self.inner_d)

    @property
    def heap(self) -> float:
        return heap(self.inner_d)

    @property
    def capacity(self) -> int:
        """Seeds it holds loosely with their mean level a heap's height below the rim."""
        level = self.depth - self.heap
        if level <= 0:
            return 0
        return int(self.volume_mm3(level) * self.packing / seed_volume(self.seed_d))


def cup_for(inner_d: float, seeds: int, seed_d: float) -> Cup:
    """The cup `inner_d` across, deep enough (whole mm) for `seeds` heaped loosely below the
    rim."""
    trial = Cup(inner_d, 1.0, seed_d, seeds)
    need = seeds * seed_volume(seed_d) / trial.packing
    corner = -trial.volume_mm3(0.0)            # the fillet's share of the floor
    level = (need + corner) / (math.pi * (inner_d / 2) ** 2)
    depth = float(math.ceil(level + trial.heap))
    while Cup(inner_d, depth, seed_d, seeds).capacity < seeds:     # int() rounding down
        depth += 1
    return Cup(inner_d, depth, seed_d, seeds)


class Arc(NamedTuple):
    """A length of LED strip bent into a circle, LEDs facing its centre. `diameter` is the
    PCB's mid-plane's (where the pitch is kept), `face_d` across the LEDs' faces, `back_d`
    across the PCB's back."""

    leds: int
    pitch: float

    @property
    def length(self) -> float:
        return self.leds * self.pitch

    @property
    def diameter(self) -> float:
        return self.length / math.pi

    @property
    def face_d(self) -> float:
        return self.diameter - STRIP_PCB - 2 * LED_H

    @property
    def back_d(self) -> float:
        return self.diameter + STRIP_PCB


def arc(part: Part) -> Arc:
    """The arc of an LED part: its LEDs at the strip's pitch. A part that is not such an arc
    (its diameters are not the arc's: a NeoPixel ring, say) is refused: the collar, the plate
    and the cups are drawn for arcs."""
    strip = Arc(part.leds, STRIP_PITCH)
    if abs(part.outer_mm - strip.back_d) > 0.05 or abs(part.inner_mm - strip.face_d) > 0.05:
        raise UsageError("%s (%s) is not an arc of %d LEDs of a 60 LEDs/m strip (%.2f mm across "
                         "its back, %.2f across its LEDs, not %g and %g): the board's collars "
                         "hold strip arcs (led-arc-12, led-arc-16)" % (
                             part.key, part.name, part.leds, strip.back_d, strip.face_d,
                             part.outer_mm, part.inner_mm))
    return strip


class Collar(NamedTuple):
    """The printed collar round a place: `inner_d` its opening (the cup rises inside it),
    `spigot_d` the part of its inner wall that drops into the plate's hole, `hole_d` that hole,
    `outer_d` its footprint on the plate, `wire_r` where the notch for the strip's wires is
    (from the centre)."""

    arc: Arc
    inner_d: float
    spigot_d: float
    hole_d: float
    outer_d: float
    wire_r: float


def collar(strip: Arc) -> Collar:
    """The collar for an arc: a diffuser wall LED_GAP inside the LEDs' faces, a back wall
    behind the PCB."""
    spigot = strip.face_d - 2 * LED_GAP
    inner = spigot - 2 * DIFFUSER
    return Collar(strip, round(inner, 2), round(spigot, 2),
                  float(math.ceil(spigot + 2 * HOLE_CLEARANCE)),
                  round(strip.back_d + 2 * BACK_WALL, 2), round(strip.diameter / 2 - 1, 2))


class Pocket(NamedTuple):
    """A place's pit or store: its cup in its collar."""

    kind: str           # "pit" or "store"
    cup: Cup
    collar: Collar
    riser: float        # the cell's fixed end stands this much higher (whole spacers)


class Stack(NamedTuple):
    """Heights above the base board's top face (mm), for a pit's or a store's mount."""

    bar_bottom: float
    bar_top: float
    foot_bottom: float
    rim: float
    plate_bottom: float
    plate_top: float
    bezel_top: float


class CellMount(NamedTuple):
    """Where a load cell's holes are, from its free end (mm), and where its cup sits."""

    free_holes: tuple[float, ...]     # from the free end
    fixed_holes: tuple[float, ...]    # from the fixed end
    pad: float                        # a spacer's length along the bar
    cup: float                        # the cup's centre, from the free end
    stop: float                       # the overload stop's point, from the free end
    reach: float                      # from the cup's centre to the fixed end


CLEARANCE_HOLE = {"M3": 3.4, "M4": 4.5, "M5": 5.5}      # ISO 273, medium fit


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


@dataclass(frozen=True)
class Board:
    """A board's geometry: its pit and store, the largest game, the pitches and the outline
    (x east, y north, from the plate's south-west corner), every place's centre in the
    controller's order, the buttons' centres."""

    name: str
    pits: int
    game: Game
    seed_d: float
    pit: Pocket
    store: Pocket
    pit_pitch: float
    row_pitch: float
    store_offset: float             # from the outermost pit column to its store's centre
    width: float
    depth: float
    centres: tuple[tuple[float, float], ...]
    buttons: dict[str, tuple[float, float]]
    pit_reach: float                # from a pit's centre to its cell's fixed end
    store_reach: float
    bar: float                      # the cells' bar height

    def pocket(self, place: int) -> Pocket:
        return self.pit if place < 2 * self.pits else self.store

    def stack(self, kind: str) -> Stack:
        """The heights under a pit ("pit") or a store ("store"): a spacer (and the pit's
        riser), the bar, a spacer, the cup; the collar's top RIM_BELOW over the rim."""
        pocket = self.pit if kind == "pit" else self.store
        bottom = SPACER + pocket.riser
        foot = bottom + self.bar + SPACER
        rim = foot + pocket.cup.height
        bezel = rim + RIM_BELOW
        return Stack(bottom, bottom + self.bar, foot, rim, bezel - BEZEL_H - PLATE,
                     bezel - BEZEL_H, bezel)


def body(profile: Profile) -> Board:
    """The board's geometry from the hand, the seed and the profile's parts."""
    parts = catalogue()
    seed_d = seed_diameter(profile)
    game = largest_game(profile.pits)
    pit_arc = arc(parts[profile.leds.pit_part])
    store_arc = arc(parts[profile.leds.store_part])
    pit_collar, store_collar = collar(pit_arc), collar(store_arc)
    store_inner = math.floor(store_collar.inner_d - 2 * CUP_CLEARANCE - 2 * CUP_WALL)
    store_cup = cup_for(float(store_inner), game.seeds, seed_d)
    pit_cup = cup_for(PIT_INNER, PIT_SEEDS, seed_d)
    # the rims are level: the shallower cup's cell stands on whole spacers more, and the cup
    # is deepened by what is left (it holds more)
    deepest = max(pit_cup.depth, store_cup.depth)
    pit_riser = SPACER * math.floor((deepest - pit_cup.depth) / SPACER)
    store_riser = SPACER * math.floor((deepest - store_cup.depth) / SPACER)
    pit = Pocket("pit", replace(pit_cup, depth=deepest - pit_riser), pit_collar, pit_riser)
    store = Pocket("store", replace(store_cup, depth=deepest - store_riser), store_collar,
                   store_riser)

    load_cells = profile.sensors.kind == "load-cell"
    pit_reach = store_reach = MIN_REACH
    bar = NO_CELL_BAR
    if load_cells:
        pit_cell, store_cell = parts[profile.sensors.pit_part], parts[profile.sensors.store_part]
        pit_reach = max(pit_reach, cell_mount(pit_cell).reach)
        store_reach = cell_mount(store_cell).reach
        bar = pit_cell.height_mm
    pit_r, store_r = pit_collar.outer_d / 2, store_collar.outer_d / 2
    pitch = float(math.ceil(pit_collar.outer_d + FINGER_GAP))
    rows = pitch
    # a store sits between the rows at the row's end, a finger's gap from the nearest collars
    near = pit_r + FINGER_GAP + store_r
    offset = float(math.ceil(math.sqrt(max(near ** 2 - (rows / 2) ** 2, 0.0))))
    margin = float(math.ceil(max(pit_reach, pit_r + JOINT_BAND)))    # a row's centre to its edge
    end = float(math.ceil(max(store_reach, store_r)))                # a store's centre to its end
    south = BUTTON_STRIP + EDGE + margin
    north = south + rows
    depth = north + margin + EDGE
    first = EDGE + end + offset
    n = profile.pits
    width = 2 * first + (n - 1) * pitch
    centres: list[tuple[float, float]] = [(0.0, 0.0)] * (2 * n + 2)
    for column in range(n):
        x = first + column * pitch
        centres[column] = (x, south)                    # South's pit column + 1
        centres[2 * n - 1 - column] = (x, north)        # North's pits run east to west
    middle = (south + north) / 2
    centres[2 * n] = (width - first + offset, middle)      # South's store, east
    centres[2 * n + 1] = (first - offset, middle)          # North's store, west
    buttons = {name: (width / 2 + (k - (len(BUTTONS) - 1) / 2) * BUTTON_PITCH,
                      BUTTON_STRIP / 2) for k, name in enumerate(BUTTONS)}
    return Board(profile.name, n, game, seed_d, pit, store, pitch, rows, offset, width, depth,
                 tuple(centres), buttons, pit_reach, store_reach, bar)


def probe_gap(cup: Cup) -> float:
    """How far above the floor the two-finger probe's round tip stops when it slides down
    the wall: 0 when the floor's fillet is no larger than the tip's radius, else the fillet
    holds it up by the difference (the tip's centre is then the fillet's centre)."""
    return max(0.0, cup.fillet - PROBE_D / 2)


def problems(board: Board) -> list[str]:
    """What fails the hand, the seed or the lights, one line each with the place and the
    numbers; empty when the board passes."""
    out: list[str] = []
    for pocket in (board.pit, board.store):
        cup, ring = pocket.cup, pocket.collar
        where = "%s: the %s" % (board.name, pocket.kind)
        if cup.capacity < cup.wanted:
            out.append("%s cup holds %d seeds of %s mm (%.0f mm across, %.0f mm deep, packing "
                       "%.3f, heap %.1f mm), fewer than the %d it must" % (
                           where, cup.capacity, board.seed_d, cup.inner_d, cup.depth,
                           cup.packing, cup.heap, cup.wanted))
        if cup.inner_d < PROBE_D:
            out.append("%s cup is %.1f mm across inside: the %.0f mm two-finger probe does not "
                       "go in" % (where, cup.inner_d, PROBE_D))
        if probe_gap(cup) > 0:
            out.append("%s cup's floor fillet (r %.1f mm) holds the %.0f mm probe's tip %.1f mm "
                       "above the floor along the wall: make it r %.1f or less" % (
                           where, cup.fillet, PROBE_D, probe_gap(cup), PROBE_D / 2))
        if cup.depth > PROBE_REACH:
            out.append("%s cup is %.0f mm deep: two fingers reach %.0f mm" % (
                where, cup.depth, PROBE_REACH))
        if pocket.kind == "pit" and cup.inner_d < PIT_INNER:
            out.append("%s is %.1f mm across inside: a hand's pit is at least %.0f" % (
                where, cup.inner_d, PIT_INNER))
        gap = (ring.inner_d - cup.outer_d) / 2
        if gap < CUP_CLEARANCE - 1e-9:
            out.append("%s cup (%.2f mm outside) has %.2f mm all round in its collar (%.2f mm "
                       "opening): it needs %.1f" % (where, cup.outer_d, gap, ring.inner_d,
                                                    CUP_CLEARANCE))
        if ring.hole_d < MIN_OPENING:
            out.append("%s's opening in the plate is %.1f mm: at least %.0f" % (
                where, ring.hole_d, MIN_OPENING))
        if ring.arc.diameter / 2 < STRIP_MIN_BEND_R:
            out.append("%s's LED arc (%d LEDs) bends at r %.1f mm, under the strip's least "
                       "%.0f mm" % (where, ring.arc.leds, ring.arc.diameter / 2,
                                    STRIP_MIN_BEND_R))
        if ring.arc.face_d - 2 * LED_GAP - 2 * DIFFUSER <= cup.outer_d:
            out.append("%s cup does not pass its collar's LEDs" % where)
    pit_stack, store_stack = board.stack("pit"), board.stack("store")
    if abs(pit_stack.rim - store_stack.rim) > 1e-6:
        out.append("%s: the pits' rims stand at %.1f mm, the stores' at %.1f: they must be "
                   "level" % (board.name, pit_stack.rim, store_stack.rim))
    for kind, h in (("pit", pit_stack), ("store", store_stack)):
        pocket = board.pit if kind == "pit" else board.store
        top = h.foot_bottom + pocket.cup.foot_h
        if h.plate_bottom - top < 3:
            out.append("%s: the %s cup's foot reaches %.1f mm, within 3 mm of the plate's "
                       "underside at %.1f" % (board.name, kind, top, h.plate_bottom))
    return out


def check(profile: Profile) -> Board:
    """The board's geometry, or a UsageError naming every problem."""
    board = body(profile)
    found = problems(board)
    if found:
        raise UsageError("; ".join(found))
    return board


def strip_metres(profile: Profile) -> int:
    """Metres of 60 LEDs/m strip to buy for `profile`'s arcs: each arc cut whole from a metre
    (no arc spliced), the largest first into the first metre with room."""
    parts = catalogue()
    lengths = sorted([parts[profile.leds.pit_part].leds] * (2 * profile.pits)
                     + [parts[profile.leds.store_part].leds] * 2, reverse=True)
    per_metre = round(1000 / STRIP_PITCH)
    metres: list[int] = []
    for leds in lengths:
        for k, used in enumerate(metres):
            if used + leds <= per_metre:
                metres[k] += leds
                break
        else:
            metres.append(leds)
    return len(metres)
