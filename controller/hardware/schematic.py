"""A board's schematic, drawn from its circuit: a KiCad schematic file and an SVG (host-only).

    >>> from controller.hardware.profile import load
    >>> text = kicad(load("pico-standalone-2x6"))
    >>> text.startswith("(kicad_sch (version 20211123)"), '(lib_id "layli:74hc165")' in text
    (True, False)
    >>> "SH/LD" in kicad(load("pico-bridge-2x12"))       # the 74HC165's pins, by number and name
    True

Every part of `circuit.circuit(profile)` is a symbol with its real pins, by number and name
(`pinouts.PINOUTS`, each from its datasheet): a DIP chip drawn as it sits, pins 1..n/2 down its
left and the rest up its right; a controller's header as the maker sees it. Each pin that is
used has a short wire out to a net label, so every connection is written in the file (KiCad
joins pins whose labels match), and each unused pin a no-connect flag. The file is KiCad 6's
format (version 20211123), written with kiutils, its symbols defined inside it (lib_symbols):
it opens in KiCad 6 and later with no library installed. `svg(profile)` draws the same sheet
for a person (pin numbers outside the body, names inside, nets by label), in millimetres on the
ISO sheet it fits (A3 for the 2 x 6 and 2 x 7 boards), and `pdf` prints that SVG (cairosvg).

The parts sit in rows by function: power and the star point; the controller(s); the chips and
their resistors and capacitors; each place's LEDs in strip order; the buttons and the buzzer;
each place's HX711 over its load cell (or each pit's beam). A part goes under the one before
it when it fits in the row's height.
"""

from __future__ import annotations

import uuid
from typing import NamedTuple
from xml.sax.saxutils import escape

from controller.hardware.circuit import Circuit, Component, End, circuit
from controller.hardware.pinouts import Pinout
from controller.hardware.profile import Profile

GRID = 2.54
PIN_LEN = 2.54
STUB = 2.54              # the wire from a pin's end to its label
CHAR = 1.05              # mm a character of 1.27 mm text takes, about
FONT = 1.27
SHEETS = (("A3", 420.0, 297.0), ("A2", 594.0, 420.0), ("A1", 841.0, 594.0),
          ("A0", 1189.0, 841.0))
MARGIN = 15.0
FOOT = 45.0              # kept free at the bottom: KiCad's frame and title block (32 mm tall)
STACK = 4                # two-pin parts one above the other in a column
KICAD_VERSION = "20211123"
NAMESPACE = uuid.UUID("6f1c7a52-3c1e-4d59-9a55-2b8b8f5d3c11")
SECTIONS = ("Power", "Controllers", "Chips", "LEDs in strip order", "Controls", "Sensors")


def snap(value: float) -> float:
    """Up to the next multiple of the grid."""
    return round(-(-round(value / GRID, 6) // 1) * GRID, 2)


class Shape(NamedTuple):
    """A symbol's geometry: half its body's width, its rows, its pins' sides and rows."""

    half: float
    rows: int
    left: tuple[int, ...]           # pin numbers, top to bottom
    right: tuple[int, ...]


def shape(pinout: Pinout) -> Shape:
    left = tuple(p.number for p in pinout.pins if p.side == "L")
    right = tuple(p.number for p in pinout.pins if p.side == "R")
    names = max((len(p.name) for p in pinout.pins if p.side == "L"), default=0) + max(
        (len(p.name) for p in pinout.pins if p.side == "R"), default=0)
    half = max(snap((names * CHAR + 3) / 2), 2 * GRID)
    return Shape(half, max(len(left), len(right)), left, right)


def pin_offset(s: Shape, number: int) -> tuple[float, float]:
    """A pin's connecting end relative to the symbol's origin, in the library's axes (y up)."""
    if number in s.left:
        return (-s.half - PIN_LEN, -s.left.index(number) * GRID)
    return (s.half + PIN_LEN, -s.right.index(number) * GRID)


class Placed(NamedTuple):
    """A component with its symbol's origin (its first pin row, mid-body) at (x, y) on the
    sheet, in mm, y down."""

    component: Component
    x: float
    y: float


class Sheet(NamedTuple):
    """The parts placed on a sheet: its ISO size (or "User"), in mm; the sections' headings
    (x, y, words); every connected pin's net."""

    paper: str
    width: float
    height: float
    placed: tuple[Placed, ...]
    headings: tuple[tuple[float, float, str], ...]
    nets: dict[End, str]


def _section(c: Component) -> int:
    """The row a part is drawn in: its index in SECTIONS."""
    prefix = c.ref.rstrip("0123456789")
    if c.pinout.key in ("pico", "pi"):
        return 1
    if prefix in ("J", "F", "X", "D") or c.role == "power switch":
        return 0
    return {"U": 2, "R": 2, "C": 2, "LED": 3, "A": 5, "LC": 5, "IR": 5}.get(prefix, 4)


def layout(board: Circuit) -> Sheet:
    """The components placed in rows by function, on the smallest ISO sheet they fit."""
    nets = board.net_of()
    groups: list[list[Component]] = [[] for _ in SECTIONS]
    for c in board.components:
        groups[_section(c)].append(c)
    groups[5] = sorted(groups[5], key=lambda c: (int(c.where), c.ref))
    for paper, width, height in SHEETS:
        placed, headings, bottom = _flow(groups, nets, width)
        if bottom <= height - FOOT:
            return Sheet(paper, width, height, tuple(placed), tuple(headings), nets)
    return Sheet("User", width, snap(bottom + FOOT), tuple(placed), tuple(headings), nets)


def _label_width(c: Component, pins: tuple[int, ...], nets: dict[End, str]) -> float:
    return max((len(nets.get(End(c.ref, n), "")) for n in pins), default=0) * CHAR + 2 * GRID


def _columns(members: list[Component]) -> list[list[Component]]:
    """Parts drawn one above the other: a place's HX711 over its load cell, and up to
    STACK two-pin parts (resistors, capacitors, the fuse) in a column; else one a column."""
    out: list[list[Component]] = []
    for c in members:
        small = len(c.pinout.pins) <= 2
        if out and c.pinout.key == "load-cell" and out[-1][-1].where == c.where:
            out[-1].append(c)
        elif out and small and len(out[-1]) < STACK and all(
                len(o.pinout.pins) <= 2 for o in out[-1]):
            out[-1].append(c)
        else:
            out.append([c])
    return out


def _flow(groups: list[list[Component]], nets: dict[End, str], width: float):
    """Column by column, left to right, row by row; a column that fits under the one before it
    in the row's height goes there; a section's heading over its first part, in the band each
    row keeps for headings."""
    placed: list[Placed] = []
    headings: list[tuple[float, float, str]] = []
    x, y, row_height = MARGIN, MARGIN + 8, 0.0
    last = (0.0, 0.0, 0.0)                      # the row's last column: x, width, its bottom
    for title, members in zip(SECTIONS, groups):
        for k, column in enumerate(_columns(members)):
            sizes = []
            for c in column:
                s = shape(c.pinout)
                left = _label_width(c, s.left, nets) + STUB + PIN_LEN
                right = _label_width(c, s.right, nets) + STUB + PIN_LEN
                sizes.append((left, s.half, right, (s.rows + 3) * GRID + 2))
            lefts = max(left + half for left, half, _r, _h in sizes)
            cell = max(lefts + max(half + right for _l, half, right, _h in sizes) + GRID,
                       len(title) * 1.7 if k == 0 else 0)
            height = sum(h for *_rest, h in sizes) + 4
            if k > 0 and cell <= last[1] and last[2] + height <= y + 5 + row_height:
                left_edge, top = last[0], last[2]
                last = (last[0], last[1], top + height)
            else:
                if x + cell > width - MARGIN and x > MARGIN:
                    x, y, row_height = MARGIN, y + row_height, 0.0
                if k == 0:
                    headings.append((x, y + 4, title))
                left_edge, top = x, y + 5
                last = (x, cell, y + 5 + height)
                x += cell
                row_height = max(row_height, height)
            for c, (_left, _half, _right, h) in zip(column, sizes):
                placed.append(Placed(c, snap(left_edge + lefts), snap(top + 3 * GRID)))
                top += h
    return placed, headings, y + row_height


def pin_point(p: Placed, number: int) -> tuple[float, float]:
    """Where a pin's connecting end is on the sheet (y down)."""
    dx, dy = pin_offset(shape(p.component.pinout), number)
    return round(p.x + dx, 2), round(p.y - dy, 2)


def footprint(pinout: Pinout) -> str:
    """A DIP chip's footprint in KiCad's own library (300 mil rows), else the package in words
    (a module, a jack, wires: wired, not placed on a board)."""
    if pinout.package.startswith("DIP-"):
        return "Package_DIP:%s_W7.62mm" % pinout.package
    return pinout.package


def _title(profile: Profile) -> str:
    return "%s: schematic. %s. Generated by `layli hardware schematic %s`." % (
        profile.name, profile.title, profile.name)


# ---------------------------------------------------------------------------------------------
# KiCad, through kiutils.

def kicad(profile: Profile) -> str:
    """The schematic of `profile` as a KiCad 6 schematic file (.kicad_sch) text."""
    from kiutils.items.common import ColorRGBA, Effects, Font, Fill, Justify, PageSettings, \
        Position, Property, Stroke, TitleBlock
    from kiutils.items.schitems import Connection, LocalLabel, NoConnect, SchematicSymbol, \
        SymbolInstance, Text
    from kiutils.items.syitems import SyRect
    from kiutils.schematic import Schematic
    from kiutils.symbol import Symbol, SymbolPin

    board = circuit(profile)
    sheet = layout(board)

    def uid(*words: object) -> str:
        return str(uuid.uuid5(NAMESPACE, "/".join([profile.name, *map(str, words)])))

    def font(size: float = FONT) -> Effects:
        return Effects(font=Font(height=size, width=size))

    doc = Schematic.create_new()
    doc.version = KICAD_VERSION
    doc.generator = "layli"
    doc.uuid = uid("sheet")
    doc.paper = PageSettings(paperSize=sheet.paper) if sheet.paper != "User" else \
        PageSettings(paperSize="User", width=sheet.width, height=sheet.height)

    def stroke(width: float) -> Stroke:      # as KiCad 6 writes it
        return Stroke(width=width, type="default", color=ColorRGBA(0, 0, 0, 0))

    doc.titleBlock = TitleBlock(title="%s schematic" % profile.name, company="Layli",
                                comments={1: profile.title,
                                          2: "Generated by layli hardware schematic %s"
                                          % profile.name})
    seen: set[str] = set()
    for p in sheet.placed:
        pinout = p.component.pinout
        key = pinout.key if pinout.key != "star" else "star%d" % len(pinout.pins)
        if key in seen:
            continue
        seen.add(key)
        s = shape(pinout)
        symbol = Symbol.create_new("layli:" + key, p.component.ref.rstrip("0123456789"),
                                   pinout.title, pinout.package, pinout.source)
        symbol.properties[0].position = Position(0, 2 * GRID, 0)
        symbol.properties[1].position = Position(0, -(s.rows + 1) * GRID, 0)
        body = Symbol(libraryNickname=None, entryName=key, unitId=0, styleId=1)
        body.graphicItems.append(SyRect(start=Position(-s.half, GRID),
                                        end=Position(s.half, -s.rows * GRID),
                                        stroke=stroke(0.254),
                                        fill=Fill(type="background")))
        pins = Symbol(libraryNickname=None, entryName=key, unitId=1, styleId=1)
        for pin in pinout.pins:
            x, y = pin_offset(s, pin.number)
            pins.pins.append(SymbolPin(electricalType="passive", graphicalStyle="line",
                                       position=Position(x, y, 0 if x < 0 else 180),
                                       length=PIN_LEN, name=pin.name, number=str(pin.number),
                                       nameEffects=font(), numberEffects=font()))
        symbol.units = [body, pins]
        doc.libSymbols.append(symbol)
    for p in sheet.placed:
        c = p.component
        s = shape(c.pinout)
        key = c.pinout.key if c.pinout.key != "star" else "star%d" % len(c.pinout.pins)
        instance = SchematicSymbol(libraryNickname="layli", entryName=key,
                                   position=Position(p.x, p.y, 0), unit=1, inBom=True,
                                   onBoard=True, uuid=uid(c.ref))
        for k, (name, value, dy, hide) in enumerate((
                ("Reference", c.ref, -2 * GRID, False), ("Value", c.value, -3.5 * GRID, False),
                ("Footprint", footprint(c.pinout), 0, True),
                ("Datasheet", c.pinout.source, 0, True),
                ("Role", c.role, (s.rows + 1) * GRID, False))):
            effects = font()
            effects.hide = hide
            instance.properties.append(Property(key=name, value=value, id=k, effects=effects,
                                                position=Position(p.x, round(p.y + dy, 2),
                                                                  0)))
        for pin in c.pinout.pins:
            instance.pins[str(pin.number)] = uid(c.ref, pin.number)
        doc.schematicSymbols.append(instance)
        doc.symbolInstances.append(SymbolInstance(path="/" + uid(c.ref), reference=c.ref,
                                                  unit=1, value=c.value,
                                                  footprint=footprint(c.pinout)))
        for pin in c.pinout.pins:
            x, y = pin_point(p, pin.number)
            net = sheet.nets.get(End(c.ref, pin.number))
            if net is None:
                doc.noConnects.append(NoConnect(position=Position(x, y), uuid=uid(c.ref, pin.number,
                                                                                  "nc")))
                continue
            left = pin.number in s.left
            end = round(x - STUB if left else x + STUB, 2)
            doc.graphicalItems.append(Connection(points=[Position(x, y), Position(end, y)],
                                                 stroke=stroke(0),
                                                 uuid=uid(c.ref, pin.number, "wire")))
            effects = font()
            effects.justify = Justify(horizontally="right" if left else "left")
            doc.labels.append(LocalLabel(text=net, position=Position(end, y, 180 if left else 0),
                                         effects=effects, uuid=uid(c.ref, pin.number, "label")))
    for k, (x, y, words) in enumerate(sheet.headings):
        effects = font(2.0)
        effects.justify = Justify(horizontally="left")
        doc.texts.append(Text(text=words, position=Position(x, y, 0), effects=effects,
                              uuid=uid("heading", k)))
    return doc.to_sexpr()


# ---------------------------------------------------------------------------------------------
# SVG and PDF, for a person.

def svg(profile: Profile) -> str:
    """The schematic of `profile` as SVG, in mm on its ISO sheet."""
    board = circuit(profile)
    sheet = layout(board)
    out: list[str] = []

    def text(x: float, y: float, words: str, size: float = FONT, anchor: str = "start",
             weight: str = "normal", fill: str = "#000") -> None:
        out.append('<text x="%s" y="%s" font-size="%s" text-anchor="%s" font-weight="%s" '
                   'fill="%s">%s</text>' % (_n(x), _n(y), _n(size), anchor, weight, fill,
                                            escape(words)))

    def line(x0: float, y0: float, x1: float, y1: float, colour: str = "#000",
             width: float = 0.15) -> None:
        out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"/>' % (
            _n(x0), _n(y0), _n(x1), _n(y1), colour, _n(width)))

    text(MARGIN, MARGIN, _title(profile), 3.0, weight="bold")
    text(MARGIN, MARGIN + 5, "Every pin by number (outside the body) and name (inside); "
         "pins whose labels match are connected; x: not connected. Pinouts: " +
         "; ".join(sorted({c.pinout.title + " " + c.pinout.package for c in board.components
                           if c.pinout.package.startswith("DIP")})) + ".", 1.6)
    for x, y, words in sheet.headings:
        text(x, y, words, 2.2, weight="bold", fill="#1d3f73")
    for p in sheet.placed:
        c, s = p.component, shape(p.component.pinout)
        top, bottom = p.y - GRID, p.y + s.rows * GRID
        out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="#fffbe6" stroke="#8a1c1c" '
                   'stroke-width="0.25"/>' % (_n(p.x - s.half), _n(top), _n(2 * s.half),
                                              _n(bottom - top)))
        text(p.x, top - 1.2 * GRID, "%s  %s" % (c.ref, c.value), 1.5, "middle", "bold")
        text(p.x, top - 0.3 * GRID, c.role, 1.3, "middle", fill="#444")
        for pin in c.pinout.pins:
            x, y = pin_point(p, pin.number)
            left = pin.number in s.left
            inner = x + PIN_LEN if left else x - PIN_LEN
            line(x, y, inner, y, "#8a1c1c", 0.2)
            text((x + inner) / 2, y - 0.4, str(pin.number), 1.0, "middle", fill="#8a1c1c")
            text(inner + (0.6 if left else -0.6), y + 0.45, pin.name, 1.2,
                 "start" if left else "end")
            net = sheet.nets.get(End(c.ref, pin.number))
            if net is None:
                line(x - 0.6, y - 0.6, x + 0.6, y + 0.6, "#1d3f73")
                line(x - 0.6, y + 0.6, x + 0.6, y - 0.6, "#1d3f73")
                continue
            end = x - STUB if left else x + STUB
            line(x, y, end, y, "#0a7a2f", 0.2)
            text(end + (-0.5 if left else 0.5), y + 0.45, net, 1.2, "end" if left else "start",
                 fill="#0a5a9f")
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
            'viewBox="0 0 %s %s" font-family="DejaVu Sans, Arial, sans-serif">\n'
            '<title>%s schematic</title>\n<rect x="0" y="0" width="%s" height="%s" '
            'fill="#ffffff"/>\n%s\n</svg>\n' % (
                _n(sheet.width), _n(sheet.height), _n(sheet.width), _n(sheet.height),
                escape(profile.name), _n(sheet.width), _n(sheet.height), "\n".join(out)))


def pdf(profile: Profile) -> bytes:
    """The SVG printed as PDF (needs cairosvg, which needs the cairo library)."""
    import cairosvg

    return cairosvg.svg2pdf(bytestring=svg(profile).encode("utf-8"))


def _n(value: float) -> str:
    text = "%.2f" % value
    return text.rstrip("0").rstrip(".") if "." in text else text
