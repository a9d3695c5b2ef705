"""A wiring diagram of a board, drawn from its profile as SVG (host-only).

    >>> from controller.hardware.profile import load
    >>> text = svg(load("pico-standalone-2x6"))
    >>> text.startswith("<svg") and "29 GP22 : LED data 74AHCT125 1A" in text
    True

From top to bottom: the board seen from above with South at the bottom (each pit and store
with its LED indices and its sensor's pin, the strip's data path drawn place to place in strip
order), the sensor modules (an HX711 per load cell, or a sensor per pit), the expander chips,
then the controller with every header pin by number and name. Every wire runs at right angles
and is labelled at both ends: the pin at the device, the device at the pin; it is drawn in the
colour the harness gives it (`harness.colours`: by function, and wires on neighbouring pins
never alike), edged in black so that a white wire shows. Buttons, the buzzer and the strip's level shifter sit beside the pins they use.

The drawing is a function of the profile alone, so `hardware/wiring/<profile>.svg` can be
checked against what this makes now.
"""

from __future__ import annotations

from typing import NamedTuple
from xml.sax.saxutils import escape

from controller.hardware.boards import BOARDS, PIN, Board, board_of
from controller.hardware.circuit import End, circuit
from controller.hardware.harness import colours
from controller.hardware.parts import catalogue
from controller.hardware.profile import KINDS, Profile, Wire, budget, clock_fanout, place_label

MARGIN = 40
PIN_PITCH = 20          # header pins, one row each
LANE = 9                # between two wires running side by side
MODULE_W, MODULE_H = 60, 50
BOX_W = 420             # a controller: room for a used pin's label on either side
STRIP = "#009E73"       # the strip's data path (Okabe-Ito bluish green)
# the harness's wire colours as drawn on screen
HEX = {"red": "#D62728", "orange": "#FF7F0E", "black": "#000000", "yellow": "#F2C500",
       "blue": "#1F5FBF", "violet": "#8E44AD", "green": "#2CA02C", "white": "#FFFFFF",
       "grey": "#8C8C8C", "brown": "#8C564B"}


class Canvas:
    """SVG elements in drawing order."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, tag: str, text: str = "", **attributes: object) -> None:
        """An element; attribute names in Python spelling (font_size -> font-size)."""
        attrs = " ".join('%s="%s"' % (k.replace("_", "-"), escape(str(v), {'"': "&quot;"}))
                         for k, v in attributes.items())
        self.items.append("<%s %s>%s</%s>" % (tag, attrs, escape(text), tag)
                          if text or tag == "text" else "<%s %s/>" % (tag, attrs))

    def text(self, x: float, y: float, words: str, size: int = 11, anchor: str = "start",
             weight: str = "normal", fill: str = "#000") -> None:
        self.add("text", words, x=r(x), y=r(y), font_size=size, text_anchor=anchor,
                 font_weight=weight, fill=fill)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str = "#000", rx: int = 4, **more: object) -> None:
        self.add("rect", x=r(x), y=r(y), width=r(w), height=r(h), rx=rx, fill=fill,
                 stroke=stroke, **more)

    def path(self, points: list[tuple[float, float]], stroke: str, width: float = 1.6,
             **more: object) -> None:
        self.add("polyline", points=" ".join("%s,%s" % (r(x), r(y)) for x, y in points),
                 fill="none", stroke=stroke, stroke_width=width, **more)


def r(value: float) -> str:
    """Coordinates rounded to 0.1, without a trailing .0: the same text on every run."""
    text = "%.1f" % value
    return text[:-2] if text.endswith(".0") else text


class Terminal(NamedTuple):
    """Where a wire from below ends at a device in the rows above the controller."""

    x: float
    y: float


def svg(profile: Profile) -> str:
    """The wiring diagram of `profile` as SVG text."""
    return _Drawing(profile).draw()


class _Drawing:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.wires = profile.wires()
        self.direct = [w for w in self.wires if PIN.match(w.pin)]
        self.core = BOARDS[KINDS[profile.kind][1]]
        self.canvas = Canvas()
        self.terminals: dict[str, Terminal] = {}      # wire key -> where it ends at the device
        self.modules = len(profile.sensors.channels)
        step = MODULE_W + 10
        # the controller left of centre; a bridge's Pi further right, past the side devices
        self.controller_x = 2 * MARGIN + 40 * LANE
        self.other_x = self.controller_x + BOX_W + 420
        self.width = max(self.controller_x + BOX_W + 420 + (BOX_W + 60 if len(
            KINDS[profile.kind][0]) > 1 else 0), 2 * MARGIN + self.modules * step + 40)
        self.step = step
        board = circuit(profile)
        nets, tint = board.net_of(), colours(board)
        refs = {c.pinout.key: c.ref for c in board.components}
        self.colour_of = {w.key: HEX[tint[nets[End(refs[board_of(w.pin).key],
                                                     board_of(w.pin).physical(w.pin))]]]
                          for w in self.direct}

    # --- the parts of the drawing, top to bottom ---------------------------------------------

    def draw(self) -> str:
        p = self.profile
        c = self.canvas
        c.text(MARGIN, 34, "%s: wiring" % p.name, size=20, weight="bold")
        c.text(MARGIN, 56, "%s. Generated by `layli hardware wiring %s` from %s." % (
            p.title, p.name, p.path.name), size=12)
        board_bottom = self.board(80)
        rows_bottom = self.sensor_row(board_bottom + 70)
        rows_bottom = self.expander_row(rows_bottom + 40)
        routed = [w for w in self.direct if w.key in self.terminals]
        top = rows_bottom + 30 + LANE * (len(routed) + 1)
        controller_bottom = self.controllers(top, routed, board_bottom)
        self.notes(controller_bottom + 40)
        height = self.bottom + 30
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                'viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif">\n'
                '<title>%s wiring</title>\n<rect x="0" y="0" width="%d" height="%d" '
                'fill="#ffffff"/>\n%s\n</svg>\n' % (
                    self.width, height, self.width, height, escape(p.name), self.width, height,
                    "\n".join(c.items)))

    def board(self, top: float) -> float:
        """The board from above: North's row on top, South's below, stores at the ends."""
        p, c = self.profile, self.canvas
        n = p.pits
        left, right = MARGIN, self.width - MARGIN
        height = 250
        c.rect(left, top, right - left, height, fill="#f4efe6", stroke="#7a6a55", rx=18)
        c.text(left + 12, top + 18, "North", size=12, weight="bold", fill="#7a6a55")
        c.text(left + 12, top + height - 8, "South (the player sits here)", size=12,
               weight="bold", fill="#7a6a55")
        store_w = 100
        x0, x1 = left + store_w + 30, right - store_w - 30
        spacing = (x1 - x0) / n
        radius = min(38, spacing / 2 - 5)
        north_y, south_y = top + 72, top + 178
        self.centres: dict[int, tuple[float, float]] = {}
        for column in range(n):
            x = x0 + (column + 0.5) * spacing
            self.centres[column] = (x, south_y)                  # South's pit column+1
            self.centres[2 * n - 1 - column] = (x, north_y)      # North's pits run east to west
        self.centres[2 * n] = (right - 20 - store_w / 2, top + height / 2)      # South's store
        self.centres[2 * n + 1] = (left + 20 + store_w / 2, top + height / 2)   # North's store
        for place in range(p.places):
            x, y = self.centres[place]
            if place >= 2 * n:
                c.rect(x - store_w / 2, top + 28, store_w, height - 56, fill="#ffffff",
                       stroke="#7a6a55", rx=30)
            else:
                c.add("circle", cx=r(x), cy=r(y), r=r(radius), fill="#ffffff", stroke="#7a6a55")
            start, count = p.leds.places[place]
            c.text(x, y - 12, place_label(place, n), size=12, anchor="middle", weight="bold")
            c.text(x, y + 2, "LED %d-%d" % (start, start + count - 1), size=9, anchor="middle")
            if place < len(p.sensors.channels):
                c.text(x, y + 15, p.sensors.channels[place], size=9, anchor="middle",
                       fill="#555")
        # the strip's data path, place to place in strip order
        order = sorted(range(p.places), key=lambda place: p.leds.places[place][0])
        for a, b in zip(order, order[1:]):      # DOUT of one ring to DIN of the next
            (xa, ya), (xb, yb) = self.centres[a], self.centres[b]
            length = ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5
            cut = [(store_w / 2 if place >= 2 * n else radius) + 3 for place in (a, b)]
            c.path([(xa + (xb - xa) * cut[0] / length, ya + (yb - ya) * cut[0] / length),
                    (xb - (xb - xa) * cut[1] / length, yb - (yb - ya) * cut[1] / length)],
                   STRIP, width=2.5, stroke_dasharray="7 4", marker_end="url(#arrow)")
        c.items.insert(0, '<defs><marker id="arrow" viewBox="0 0 10 10" refX="5" refY="5" '
                          'markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 '
                          'L0,10 z" fill="%s"/></marker></defs>' % STRIP)
        first = self.centres[order[0]]
        self.strip_entry = (first[0], first[1])
        self.under_board = top + height + 16
        return top + height

    def sensor_row(self, top: float) -> float:
        """A module per sensor: an HX711 per load cell, or a pit's digital sensor."""
        p, c = self.profile, self.canvas
        load_cells = p.sensors.kind == "load-cell"
        x0 = (self.width - self.modules * self.step) / 2 + 5
        self.module_x: dict[str, float] = {}
        c.text(MARGIN, top - 12, ("HX711 breakouts, one per load cell (the cell's four wires: red "
                                  "E+, black E-, white A-, green A+); VCC from the 5 V supply, "
                                  "VDD from the %s's 3V3, GND to GND; RATE jumper SJ2 cut, RATE "
                                  "to VDD" % self.core.title) if load_cells else
               "%s, one per pit: OUT as below, VCC 5 V (emitter and receiver), GND" %
               catalogue()[p.sensors.part].name.split(",")[0], size=11, fill="#333")
        for i, channel in enumerate(p.sensors.channels):
            x = x0 + i * self.step
            c.rect(x, top, MODULE_W, MODULE_H, fill="#e8f0fb", stroke="#2a4d7a")
            c.text(x + MODULE_W / 2, top + 13, "HX711" if load_cells else "sensor", size=9,
                   anchor="middle")
            c.text(x + MODULE_W / 2, top + 27, place_label(i, p.pits), size=11, anchor="middle",
                   weight="bold")
            # the output and where it goes, e.g. "DT GP3" or "OUT south.GPA0"
            c.text(x + MODULE_W / 2, top + 39, "DT" if load_cells else "OUT", size=7,
                   anchor="middle", fill="#333")
            c.text(x + MODULE_W / 2, top + 47, channel, size=7, anchor="middle", fill="#333")
            key = ("sensors.data_pins[%d]" if load_cells else "sensors.pins[%d]") % i
            centre = x + MODULE_W / 2
            self.module_x[channel] = centre
            self.terminals[key] = Terminal(centre, top + MODULE_H)
        bottom = top + MODULE_H + 16
        if load_cells:         # the shared clock: one bus under every module
            bus = bottom + 6
            c.path([(x0 - 14, bus), (x0 + (self.modules - 1) * self.step + MODULE_W, bus)],
                   "#000", width=2)
            for i in range(self.modules):
                x = x0 + i * self.step + 8
                c.path([(x, top + MODULE_H), (x, bus)], "#000", width=1)
            self.terminals["sensors.clock_pin"] = Terminal(x0 - 14, bus)
            c.text(x0 + 30, bus - 3, "shared clock (PD_SCK) of every HX711 <- %s through the "
                   "74LVC244A clock buffer, 100 Ω a branch" % p.sensors.clock_pin, size=8)
            bottom = bus + 8
        return bottom

    def expander_row(self, top: float) -> float:
        """The expander chips, each under the modules whose outputs it reads."""
        p, c = self.profile, self.canvas
        if not p.expanders:
            return top - 40
        bottom = top
        for k, expander in enumerate(p.expanders):
            where = "expanders[%d]." % k
            groups: list[tuple[str, list[str]]] = []
            if expander.type == "74hc165":
                for chip in range(expander.chips):
                    groups.append(("U%d" % (chip + 1), expander.channels[8 * chip:8 * chip + 8]))
            else:
                groups.append((expander.name, expander.channels))
            chip_boxes = []
            for label, channels in groups:
                used = [ch for ch in channels if ch in self.module_x]
                if used:
                    x_left = min(self.module_x[ch] for ch in used) - 24
                    x_right = max(self.module_x[ch] for ch in used) + 24
                else:
                    x_left = chip_boxes[-1][1] + 20 if chip_boxes else MARGIN
                    x_right = x_left + 120
                chip_boxes.append((x_left, x_right))
                c.rect(x_left, top, x_right - x_left, 56, fill="#f6e8f2", stroke="#7a2a5c")
                title = ("74HC165 %s" % label if expander.type == "74hc165" else
                         "MCP23017 %s at 0x%02X" % (expander.name, expander.address))
                c.text(x_left + 6, top + 32, title, size=11, weight="bold")
                for ch in used:       # each module's output straight down into its input
                    x = self.module_x[ch]
                    c.path([(x, top - 40 + 2), (x, top)], "#2a4d7a", width=1.2)
                    suffix = ch.split(".", 1)[1]
                    name = ("ABCDEFGH"[int(suffix) % 8] if expander.type == "74hc165"
                            else suffix)
                    c.text(x, top + 12, name, size=8, anchor="middle")
            # control lines: terminals under the first chip (a chain shares SH/LD and CLK)
            x_left, _ = chip_boxes[0]
            if expander.type == "74hc165":
                for i, (name, label) in enumerate((("load_pin", "SH/LD"), ("clock_pin", "CLK"),
                                                   ("data_pin", "QH"))):
                    x = x_left + 14 + 34 * i
                    self.terminals[where + name] = Terminal(x, top + 56)
                    c.text(x, top + 50, label, size=8, anchor="middle")
                for i in range(1, len(chip_boxes)):      # the chain: QH of the next into SER
                    a, b = chip_boxes[i - 1][1], chip_boxes[i][0]
                    c.path([(b, top + 20), (a, top + 20)], "#7a2a5c", width=1.2,
                           marker_end="url(#arrow)")
                c.text(x_left, top + 80, "Shift register chain %s: SH/LD and CLK to every chip; "
                       "QH of U(k+1) into SER of U(k); CLK INH and the last chip's SER to GND; "
                       "unused inputs to GND; VCC 3V3." % expander.name, size=9, fill="#555")
            else:
                if expander.interrupt_pin:
                    self.terminals[where + "interrupt_pin"] = Terminal(x_left + 14, top + 56)
                    c.text(x_left + 14, top + 50, "INTA", size=8, anchor="middle")
                if k == [e.type for e in p.expanders].index("mcp23017"):
                    self.terminals["i2c.sda_pin"] = Terminal(x_left + 50, top + 56)
                    self.terminals["i2c.scl_pin"] = Terminal(x_left + 80, top + 56)
                    c.text(x_left + 50, top + 50, "SDA", size=8, anchor="middle")
                    c.text(x_left + 80, top + 50, "SCL", size=8, anchor="middle")
                    c.text(x_left, top + 80, "SDA and SCL go to every MCP23017; A0-A2 set the "
                           "address; RESET and VDD to 3V3; INTA (ports mirrored, open drain) "
                           "pulled up by the pin: low when a pit changed, and the chip is read "
                           "then.", size=9, fill="#555")
                    c.text(x_left, top + 92, "GPA7 and GPB7 are outputs only, driven low; the "
                           "other spare pins are pulled up inside: leave them all unconnected.",
                           size=9, fill="#555")
            bottom = max(bottom, top + (86 if expander.type == "74hc165" else 98))
        return bottom + 16

    def controllers(self, top: float, routed: list[Wire], board_bottom: float) -> float:
        """The controller(s), their pins, and every wire to them."""
        p, c = self.profile, self.canvas
        boards = [BOARDS[key] for key in KINDS[p.kind][0]]
        box_w = BOX_W
        x = self.controller_x
        anchors: dict[str, tuple[float, float, int]] = {}
        bottoms = [self.header(self.core, x, top, box_w, anchors)]
        other = [board for board in boards if board is not self.core]
        if other:   # the Pi of a bridge: right of the Pico, below the strip's data wire
            led = anchors.get(p.leds.data_pin, (0, top, 0))[1]
            pi_top = max(top, led + 30)
            bottoms.append(self.header(other[0], self.other_x, pi_top, box_w, anchors))
        # wires from the rows above: out of the pin, along a lane, up a track, to the device
        tracks = iter(range(len(routed)))
        lanes = {-1: 0, 1: 0}
        for wire in sorted(routed, key=lambda w: -anchors[w.pin][1]):
            px, py, side = anchors[wire.pin]
            lanes[side] += 1
            lane_x = px + side * (14 + LANE * lanes[side])
            track_y = top - 20 - LANE * next(tracks)
            end = self.terminals[wire.key]
            colour = self.colour_of[wire.key]
            points = [(px, py), (lane_x, py), (lane_x, track_y), (end.x, track_y), (end.x, end.y)]
            c.path(points, "#000000", width=2.8)
            c.path(points, colour)
            c.add("circle", cx=r(end.x), cy=r(end.y), r=2.5, fill=colour)
        # side devices: the strip's level shifter, buttons, the buzzer, beside their pins
        side_wires = [w for w in self.direct if w.key not in self.terminals]
        for wire in side_wires:
            px, py, side = anchors[wire.pin]
            out = px + side * (24 + LANE * (lanes[side] + 1))
            words = "%s <- %s" % (_title(wire), wire.pin)
            box_w = 6 * len(words) + 14
            box_x = out if side > 0 else out - box_w
            colour = "#000000" if wire.key != "leds.data_pin" else STRIP
            c.path([(px, py), (out, py)], colour)
            c.rect(box_x, py - 9, box_w, 18, fill="#fff8e0", stroke="#8a6d00")
            c.text(box_x + 6, py + 4, words, size=10)
            if wire.key == "leds.data_pin":
                self.strip_wire(box_x + (box_w if side > 0 else 0), py, side)
        self.bottom = max(bottoms)
        if other:                 # pico-bridge: the USB cable between Pi and Pico
            y, pi_y = bottoms[0] + 20, bottoms[1] - 30
            c.path([(x + box_w / 2, bottoms[0]), (x + box_w / 2, y), (self.other_x - 30, y),
                    (self.other_x - 30, pi_y), (self.other_x, pi_y)], "#555", width=3)
            c.text(x + box_w / 2 + 8, y + 16, "USB cable: the Pico's micro-USB to a USB-A port "
                   "of the Pi (data, and the Pico's 5 V)", size=10)
            bottoms[0] = y + 20
        return self.bottom

    def header(self, board: Board, x: float, top: float, width: float,
               anchors: dict[str, tuple[float, float, int]]) -> float:
        """A controller's 40 header pins as a maker sees them, used pins named."""
        p, c = self.profile, self.canvas
        uses = {w.pin: w for w in self.direct}
        part = catalogue()[p.boards[board.key]]
        height = 20 * PIN_PITCH + 50
        c.rect(x, top, width, height, fill="#eef7ee", stroke="#2d6a2d", rx=8)
        c.text(x + width / 2, top + 18, "%s (%s %s)" % (part.name.split(",")[0], part.maker,
                                                       part.number), size=11,
               anchor="middle", weight="bold")
        c.text(x + width / 2, top + 32, "header seen from above, pin 1 top left" if board.key
               == "pico" else "40-pin header, pin 1 top left (odd pins left)", size=9,
               anchor="middle", fill="#555")
        power = self.power_pins(board)
        for number in range(1, 41):
            name = board.header[number - 1]
            if board.key == "pico":   # pins 1-20 down the left, 21-40 up the right
                side, row = (-1, number - 1) if number <= 20 else (1, 40 - number)
            else:                     # odd pins on the left, even on the right
                side, row = (-1 if number % 2 else 1), (number - 1) // 2
            y = top + 48 + row * PIN_PITCH
            edge = x if side < 0 else x + width
            used = uses.get(name)
            fill = "#000" if used else "#999"
            c.add("circle", cx=r(edge), cy=r(y), r=3, fill=fill)
            label = "%d %s" % (number, name)
            if used:
                label += " : " + _title(used)
                anchors[name] = (edge, y, side)
            if number in power:
                label, fill = "%d %s : %s" % (number, name, power[number]), "#b00020"
                c.add("circle", cx=r(edge), cy=r(y), r=3, fill=fill)
            c.text(edge - side * 7, y + 4, label, size=9 if used or number in power else 8,
                   anchor="start" if side < 0 else "end", fill=fill,
                   weight="bold" if used or number in power else "normal")
        return top + height

    def power_pins(self, board: Board) -> dict[int, str]:
        """Header pins that carry the board's power, and where to."""
        p = self.profile
        out: dict[int, str] = {}
        if board.key == "pi":
            out[2] = "5 V from the supply"
            out[6] = "GND of the supply"
        if board.key == "pico" and p.kind == "pico-standalone":
            out[39] = "5 V in through the 1N5817"
            out[38] = "GND of the supply"
        if board is self.core:
            out[1 if board.key == "pi" else 36] = (
                "to HX711 VDD, 74LVC244A%s" % (", the chips" if p.expanders else "")
                if p.sensors.kind == "load-cell" else "to MCP23017 VDD, RESET" if p.expanders
                else "pull-ups only")
            if board.key == "pico":
                out[33] = "GND of HX711s, chips, buttons"
        return out

    def strip_wire(self, x: float, y: float, side: int) -> None:
        """From the level shifter to the first ring's DIN: out to the margin, up under the
        board, along it, and up into the first place of the strip."""
        c = self.canvas
        edge = self.width - 14 if side > 0 else 14
        entry_x, entry_y = self.strip_entry
        c.path([(x, y), (edge, y), (edge, self.under_board), (entry_x, self.under_board),
                (entry_x, entry_y + 30)], STRIP, width=2.5)
        c.text(entry_x + 4, self.under_board - 4, "DIN of the first ring, through 470 Ω; "
               "1000 µF across 5 V/GND here", size=9, fill=STRIP)

    def notes(self, top: float) -> None:
        """Power and the strip, in words."""
        p, c = self.profile, self.canvas
        figures = budget(p)
        supply = catalogue()[p.power.supply]
        lines = [
            "Power: %s %s (%s), %d mA. Worst case %d mA (strip %d mA at the %d mA cap, "
            "%d mA idle, %d mA for the rest)." % (
                supply.maker, supply.number, supply.name.split(",")[0], p.power.supply_ma,
                figures.total_ma, figures.strip_ma, p.power.strip_max_ma, figures.idle_ma,
                figures.others_ma),
            "Supply: its plug into the barrel jack, the 7.5 A blade fuse in the +5 V wire, then "
            "one star point: from it a 5 V/GND pair to each strip feed and to the controller%s; "
            "GNDs meet nowhere else." % (", and a 5 V wire to the HX711s' VCC"
                                         if p.sensors.kind == "load-cell" else ""),
            "Strip: 5 V and GND (18 AWG) in at its start and its end%s; its GND wires go back "
            "to the star point only, so the LEDs' current never flows in the controller's "
            "ground." % (" and at South's store (every 8 rings or so)" if p.pits > 8 else ""),
        ]
        if "pi" in p.boards:
            lines.append("Raspberry Pi: 5 V into header pin 2, GND pin 6.")
        if p.kind == "pico-standalone":
            lines.append("Pico: 5 V through the 1N5817 (stripe towards the Pico) into VSYS, "
                         "pin 39; GND pin 38.")
        if p.kind == "pico-bridge":
            lines.append("Pico: 5 V over the USB cable from the Pi.")
        lines.append("LED data: %s -> 74AHCT125 (1A in, 1Y out, 1OE to GND, VCC 5 V) -> 470 Ω "
                     "-> DIN of the ring at strip index 0, then ring to ring (DOUT -> DIN) along "
                     "the dashed path." % p.leds.data_pin)
        if p.sensors.kind == "load-cell":
            fanout = clock_fanout(p)
            lines.append("HX711s: VCC from the 5 V star point (E+ is then the breakout's "
                         "regulated 4.3 V), VDD from the %s's 3.3 V; cut each breakout's RATE "
                         "jumper SJ2 (on its back) and wire the RATE pad to VDD: 80 samples/s."
                         % self.core.title)
            lines.append("HX711 clock: %s -> 74LVC244A on 3.3 V (1OE and 2OE to GND, the %d "
                         "inputs in use joined, the rest to GND) -> 100 Ω at each output -> "
                         "%s." % (p.sensors.clock_pin, fanout.branches, "; ".join(
                             " ".join(place_label(i, p.pits) for i in group)
                             for group in fanout.groups)))
        lines.append("Buttons: from the pin to GND (internal pull-up). Buzzer: from the pin to "
                     "GND.")
        for i, line in enumerate(lines):
            c.text(MARGIN, top + 16 * i, line, size=11)
        self.bottom = top + 16 * len(lines)


def _title(wire: Wire) -> str:
    """`HX711 S1 DT`: the device and its terminal, as the pin's label."""
    return ("%s %s" % (wire.device, wire.terminal)).strip()
