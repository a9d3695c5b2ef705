"""The harness table of a board: every wire of its circuit from (part, pin) to (part, pin), with
its colour, gauge and length (host-only).

    >>> from controller.hardware.profile import load
    >>> rows = harness(load("pico-bridge-2x12"))
    >>> feed = next(r for r in rows if r.net == "+5V" and r.b_role == "LEDs S1")
    >>> feed.colour, feed.awg, feed.a_role
    ('red', 18, 'star point')

**Colours** say what a wire carries, and the place or signal is printed on a label at each end
(the net's name, `S1_DT`). Exactly this is guaranteed:

- power: **red** +5 V (and the supply's +5 V before the star point, and VSYS), **orange**
  +3.3 V, **black** GND; no signal wire is red, orange or black;
- signals by kind, from the colours a hook-up wire kit has: clocks yellow first, data lines
  blue first, the strip's data green first, controls (buttons, buzzer, interrupts, latch)
  white first; wires of one net (a daisy chain) are all one colour;
- two wires that end on neighbouring pins of one part (pin numbers n and n + 1: a header's
  neighbours, a DIP chip's pins side by side) and carry different signals never share a
  colour: a net takes the first colour of its kind that no such neighbour has, else another
  signal colour; and so the 14 data lines on a Pico's GP3-GP16 alternate blue and violet;
- a load cell's four wires keep their maker's colours (red E+, black E-, white A-, green A+;
  they vary by maker), on the HX711's pads named for them, away from its header.

Twenty-six data lines cannot each have a colour a maker can buy: the label tells them apart.

**Gauge**: the thinnest of 26, 24, 22, 20 and 18 AWG whose voltage drop at the wire's worst-
case current (`current_ma`) over its length stays within 2% of 5 V (100 mV each way, 200 mV
there and back: a Pi wants 4.75 V or more at its pin 2, an HX711's regulator 4.5 V), and never
thinner than 22 AWG for power (the rings' pads and the terminal blocks hold no thinner wire
firmly) or 26 AWG for a signal (ribbon or Dupont wire); the supply's wires and the strip's
feeds from the star point (2 A or more) are 18 AWG at the least, as hardware/README.md has
them: a wire the 7.5 A fuse protects (18 AWG: 16 A in the chassis-wiring column of the usual
AWG ampacity table, 2.3 A at the conservative 700 circular mils per amp). A wire's resistance is computed from
its gauge: ASTM B258 gives the diameter, d = 0.127 mm x 92^((36 - AWG) / 39), and annealed
copper (IACS) has 0.017241 Ohm mm2/m at 20 °C: 18 AWG is 0.823 mm2 and 20.9 mOhm/m.
Currents are the power budget's (`profile.budget`): each strip feed carries the whole strip's
(capped) current, ring-to-ring wires half of it (the strip is fed at both ends), the supply's
wires the board's worst case.

**Length** runs at right angles under the plate, between where the two parts sit, plus 50 mm
at each end to strip and route it, rounded up to 10 mm. Places, rings, load cells and their
HX711s sit at the places' centres (`places_plan`); the buttons at their holes; the
controller, its chips and the star point on one board at the middle of the plate; the jack,
fuse and switch at the middle of the west edge. A maker who puts them elsewhere measures again.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from controller.hardware.circuit import Circuit, End, Link, circuit
from controller.hardware.parts import catalogue
from controller.hardware.profile import Profile, budget

POWER_COLOURS = {"+5V": "red", "VIN": "red", "VIN_FUSED": "red", "VSYS": "red",
                 "+3V3": "orange", "GND": "black"}
SIGNAL_COLOURS = ("yellow", "blue", "violet", "green", "white", "grey", "brown")
PREFERENCES = {      # a signal kind's colours, in order of preference
    "clock": ("yellow", "brown", "white"),
    "data": ("blue", "violet", "grey", "white"),
    "strip": ("green", "white", "grey"),
    "control": ("white", "grey", "brown", "violet"),
}
CELL_COLOURS = {1: "red", 2: "black", 3: "white", 4: "green"}   # a load cell's wires 1-4
GAUGES = (26, 24, 22, 20, 18)
POWER_FLOOR = 22
DROP_MV = 100.0          # per wire: 2% of 5 V
COPPER = 0.017241        # Ohm mm2 / m, annealed copper at 20 °C (IACS)
END_MM = 50.0            # at each end, to strip and route the wire
JUMPER_MM = 30.0         # between pins of chips side by side on the controller's board
SIGNAL_MA = 10
FEED_MA = 2000           # the supply's wires and the strip's feeds ...
FEED_FLOOR = 18          # ... are 18 AWG at the least, which the 7.5 A fuse protects


def places_plan(profile: Profile) -> Any:
    """Where the places' centres and the buttons are, in mm (width, depth, centres, buttons),
    from the mechanical layout: `controller.hardware.body.body` where it exists, else
    `controller.hardware.drawing.layout` (the same fields), so the harness follows whichever
    the drawings use."""
    try:
        from controller.hardware.body import body
    except ImportError:
        from controller.hardware.drawing import layout
        return layout(profile)
    return body(profile)


def mm2(awg: int) -> float:
    """The cross-section of a solid conductor of gauge `awg` (ASTM B258)."""
    diameter = 0.127 * 92 ** ((36 - awg) / 39)
    return math.pi * diameter ** 2 / 4


def ohm_per_m(awg: int) -> float:
    return COPPER / mm2(awg)


def kind_of(net: str) -> str:
    """A signal net's kind: clock, data, strip or control."""
    if net.startswith("SCK") or net.endswith("_CLK") or net == "SCL":
        return "clock"
    if net.startswith("LED_"):
        return "strip"
    if net.endswith(("_DT", "_BEAM", "_QH")) or "_QH" in net or net == "SDA":
        return "data"
    return "control"


def colours(board: Circuit) -> dict[str, str]:
    """Each net's colour (see the module's docstring)."""
    nets = board.net_of()
    neighbours: dict[str, set[str]] = {}
    for c in board.components:
        for pin in c.pinout.pins:
            here, there = nets.get(End(c.ref, pin.number)), nets.get(End(c.ref, pin.number + 1))
            if here and there and here != there:
                neighbours.setdefault(here, set()).add(there)
                neighbours.setdefault(there, set()).add(here)
    out: dict[str, str] = {}
    for net in sorted({n for n in nets.values()}):
        if net in POWER_COLOURS:
            out[net] = POWER_COLOURS[net]
            continue
        if net.endswith(("_E+", "_A-", "_A+")):      # a load cell's own wires
            out[net] = {"E+": "red", "A-": "white", "A+": "green"}[net.rsplit("_", 1)[1]]
            continue
        taken = {out.get(other) for other in neighbours.get(net, ())}
        choices = PREFERENCES[kind_of(net)] + SIGNAL_COLOURS
        free = [colour for colour in choices if colour not in taken]
        if not free:
            raise ValueError("%s: no colour left for %s" % (board.profile.name, net))
        out[net] = free[0]
    return out


class HarnessWire(NamedTuple):
    """One wire: from pin `a_pin` (`a_name`) of part `a_ref` (`a_role`) to `b`'s, on `net`;
    `kind` wire, jumper, lead or cell (circuit.Link); colour; gauge in AWG and mm2, and length
    in mm (all 0 for a part's own lead or a load cell's own wire, which come with the part);
    its worst-case current (mA) and voltage drop (mV)."""

    number: int
    a_ref: str
    a_pin: int
    a_name: str
    a_role: str
    b_ref: str
    b_pin: int
    b_name: str
    b_role: str
    net: str
    kind: str
    colour: str
    awg: int
    mm2: float
    length_mm: int
    current_ma: int
    drop_mv: float

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


def harness(profile: Profile) -> list[HarnessWire]:
    """Every wire, jumper, lead and load-cell wire of `profile`'s board, in circuit order."""
    board = circuit(profile)
    colour = colours(board)
    plan = places_plan(profile)
    figures = budget(profile)
    parts = {c.ref: c for c in board.components}

    def where(ref: str) -> tuple[float, float]:
        spot = parts[ref].where
        if spot.isdigit():
            return plan.centres[int(spot)]
        if spot.startswith("button:"):
            return plan.buttons[spot.split(":", 1)[1]]
        if spot == "jack":
            return (0.0, plan.depth / 2)
        return (plan.width / 2, plan.depth / 2)

    rows = []
    for number, link in enumerate(board.links, start=1):
        a, b = parts[link.a.ref], parts[link.b.ref]
        if link.kind == "wire":
            (xa, ya), (xb, yb) = where(a.ref), where(b.ref)
            length = math.ceil((abs(xa - xb) + abs(ya - yb) + 2 * END_MM) / 10) * 10
        else:
            length = int(JUMPER_MM) if link.kind == "jumper" else 0
        current = _current_ma(link, board, figures)
        if link.kind in ("cell", "lead"):      # the part's own wire or leg: no gauge to choose
            tint, awg = (CELL_COLOURS[link.a.pin] if link.kind == "cell" else
                         colour[link.net]), 0
        else:
            tint, awg = colour[link.net], _gauge(link.net, current, length)
            feed = "X1" in (a.ref, b.ref) or link.net in ("VIN", "VIN_FUSED")
            if feed and current >= FEED_MA:
                awg = min(awg, FEED_FLOOR)
        rows.append(HarnessWire(
            number, a.ref, link.a.pin, a.pinout.pin(link.a.pin).name, a.role, b.ref,
            link.b.pin, b.pinout.pin(link.b.pin).name, b.role, link.net, link.kind, tint, awg,
            round(mm2(awg), 3) if awg else 0.0, length, current,
            round(current * ohm_per_m(awg) * length / 1000, 1) if awg else 0.0))
    return rows


def _gauge(net: str, current_ma: int, length_mm: int) -> int:
    power = net in POWER_COLOURS
    for awg in GAUGES:
        if power and awg > POWER_FLOOR:
            continue
        if current_ma / 1000 * ohm_per_m(awg) * length_mm / 1000 * 1000 <= DROP_MV:
            return awg
    return GAUGES[-1]


def _current_ma(link: Link, board: Circuit, figures) -> int:
    """A wire's worst-case current, from the power budget (see the module's docstring)."""
    if link.net not in POWER_COLOURS or link.kind == "cell":
        return SIGNAL_MA
    parts = catalogue()
    refs = {link.a.ref, link.b.ref}
    roles = {board.component(ref).role for ref in refs}
    strip = figures.strip_ma + figures.idle_ma
    places = len(board.profile.sensors.channels)
    if link.net in ("VIN", "VIN_FUSED") or End("X1", 1) in link or End("X1", 2) in link:
        return figures.total_ma
    if any(role.startswith("LEDs ") for role in roles):
        return strip if "X1" in refs else strip // 2
    if "Raspberry Pi" in roles and "X1" in refs:
        return parts[board.profile.boards["pi"]].ma
    if any(role.startswith("HX711 ") for role in roles):
        hx = parts["hx711"]
        return places * {"+5V": hx.ma, "+3V3": hx.ma_3v3}.get(link.net, hx.ma + hx.ma_3v3)
    if any(role.startswith("beam ") for role in roles):
        return places * parts[board.profile.sensors.part].ma
    if "74AHCT125" in roles:
        return max(parts["74ahct125"].ma, SIGNAL_MA)
    if "X1" in refs:     # the controller's own feed: everything but the strip and the Pi
        pi = parts[board.profile.boards["pi"]].ma if "pi" in board.profile.boards else 0
        return max(figures.others_ma - pi, SIGNAL_MA)
    return SIGNAL_MA


def table(rows: list[HarnessWire]) -> str:
    """The harness as text a maker reads, one wire a line."""
    out = ["%4s  %-34s %-34s %-13s %-7s %-7s %4s %6s %7s %7s" % (
        "#", "from (part pin name: role)", "to", "net", "kind", "colour", "AWG", "mm2",
        "mm", "mA")]
    for r in rows:
        out.append("%4d  %-34s %-34s %-13s %-7s %-7s %4s %6s %7s %7d" % (
            r.number, _end(r.a_ref, r.a_pin, r.a_name, r.a_role),
            _end(r.b_ref, r.b_pin, r.b_name, r.b_role), r.net, r.kind, r.colour,
            r.awg or "-", "%.3f" % r.mm2 if r.awg else "-", r.length_mm or "-", r.current_ma))
    return "\n".join(out) + "\n"


def _end(ref: str, pin: int, name: str, role: str) -> str:
    words = "%s.%d %s: %s" % (ref, pin, name, role)
    return words if len(words) <= 34 else words[:33] + "…"


CSV_FIELDS = HarnessWire._fields
