"""Every part of a board as its datasheet numbers and names its pins (host-only).

    >>> PINOUTS["74hc165"].pin(9).name, PINOUTS["74hc165"].pin(1).name
    ('QH', 'SH/LD')
    >>> [p.name for p in PINOUTS["hx711"].pins[:5]]
    ['VDD', 'VCC', 'DAT', 'CLK', 'GND']

A `Pinout` is what a schematic symbol is drawn from: each pin by number and name, on the side of
the symbol where it sits on the part seen from above (a DIP chip's pins 1..n/2 down its left
side and n/2+1..n up its right, as on the chip; a controller's header as the maker sees it), and
the document the numbers come from (`source`). Pins are numbered as the part is: a DIP chip's,
a header's; parts whose pads carry names only (an LED ring, a load cell's wires) are numbered
here in the order given, which `source` says.
"""

from __future__ import annotations

from typing import NamedTuple

from controller.hardware.boards import PI, PICO


class PinDef(NamedTuple):
    """One pin: its number, its name as printed on the part or in its datasheet, and the side
    of the symbol it is drawn on ("L" or "R")."""

    number: int
    name: str
    side: str


class Pinout(NamedTuple):
    """A part's pins, its package (what a maker holds: `DIP-14`, `module`, `4 wires`) and the
    datasheet or drawing its pin numbers come from."""

    key: str
    title: str
    package: str
    pins: tuple[PinDef, ...]
    source: str

    def pin(self, number: int) -> PinDef:
        """The pin numbered `number` (a KeyError naming the part if there is none)."""
        for pin in self.pins:
            if pin.number == number:
                return pin
        raise KeyError("%s has no pin %d" % (self.title, number))

    def numbered(self, name: str) -> int:
        """The number of the pin named `name` (the first, for a name given twice: GND)."""
        for pin in self.pins:
            if pin.name == name:
                return pin.number
        raise KeyError("%s has no pin named %s" % (self.title, name))


def dip(key: str, title: str, names: list[str], source: str) -> Pinout:
    """A DIP chip: `names` in pin order 1..n; pins 1..n/2 down the left side, n..n/2+1 down
    the right (the chip seen from above, notch up)."""
    half = len(names) // 2
    pins = [PinDef(k + 1, name, "L" if k < half else "R") for k, name in enumerate(names)]
    left = pins[:half]
    right = list(reversed(pins[half:]))
    return Pinout(key, title, "DIP-%d" % len(names), tuple(left + right), source)


def pairs(key: str, title: str, package: str, names: list[tuple[str, str]],
          source: str) -> Pinout:
    """A part of few pins: (name, side) in pin order from 1."""
    return Pinout(key, title, package, tuple(PinDef(k + 1, name, side)
                                             for k, (name, side) in enumerate(names)), source)


def _header(board, title: str, names: dict[str, str], source: str, pico: bool) -> Pinout:
    """A controller's 40-pin header, each pin on the side the maker sees it on."""
    pins = []
    for number in range(1, 41):
        name = names.get(board.header[number - 1], board.header[number - 1])
        if pico:        # pins 1-20 down the left, 21-40 up the right
            side = "L" if number <= 20 else "R"
        else:           # odd pins on the left, even on the right
            side = "L" if number % 2 else "R"
        pins.append(PinDef(number, name, side))
    if pico:
        pins = pins[:20] + list(reversed(pins[20:]))
    else:
        pins = [p for p in pins if p.side == "L"] + [p for p in pins if p.side == "R"]
    return Pinout(board.key, title, "module, 40-pin header", tuple(pins), source)


# The Pico's header as boards.PICO names it, with the datasheet's names of the power pins
# (pin 33 is AGND, ground for the ADC: joined to GND on the board).
PICO_PINOUT = _header(
    PICO, "Raspberry Pi Pico", {"3V3": "3V3(OUT)"}, "Raspberry Pi Pico datasheet, section 1 "
    "'Pinout' (figure 2): pins 1-40, GND on 3, 8, 13, 18, 23, 28, 38, AGND on 33, 3V3(OUT) 36, "
    "VSYS 39, VBUS 40", pico=True)
PICO_PINOUT = PICO_PINOUT._replace(pins=tuple(
    p._replace(name="AGND") if p.number == 33 else p for p in PICO_PINOUT.pins))

PI_PINOUT = _header(
    PI, "Raspberry Pi 4 Model B", {}, "Raspberry Pi documentation, 'GPIO and the 40-pin header' "
    "(pinout.xyz): Broadcom GPIO numbers, 5V on 2 and 4, 3V3 on 1 and 17", pico=False)

PINOUTS: dict[str, Pinout] = {p.key: p for p in (
    PICO_PINOUT,
    PI_PINOUT,
    dip("74hc165", "SN74HC165", ["SH/LD", "CLK", "E", "F", "G", "H", "QH'", "GND", "QH", "SER",
                                 "A", "B", "C", "D", "CLK INH", "VCC"],
        "TI SN74HC165 datasheet (SCLS116), pin configuration, N package (PDIP-16)"),
    dip("74ahct125", "SN74AHCT125", ["1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A",
                                     "3OE", "4Y", "4A", "4OE", "VCC"],
        "TI SN74AHCT125 datasheet (SCLS264), pin configuration, N package (PDIP-14); OE active "
        "low"),
    dip("74lvc244a", "SN74LVC244A", ["1OE", "1A1", "2Y4", "1A2", "2Y3", "1A3", "2Y2", "1A4",
                                     "2Y1", "GND", "2A1", "1Y4", "2A2", "1Y3", "2A3", "1Y2",
                                     "2A4", "1Y1", "2OE", "VCC"],
        "TI SN74LVC244A datasheet (SCAS414), pin configuration, N package (PDIP-20); OE active "
        "low"),
    dip("mcp23017", "MCP23017", ["GPB0", "GPB1", "GPB2", "GPB3", "GPB4", "GPB5", "GPB6", "GPB7",
                                 "VDD", "VSS", "NC", "SCL", "SDA", "NC", "A0", "A1", "A2",
                                 "RESET", "INTB", "INTA", "GPA0", "GPA1", "GPA2", "GPA3", "GPA4",
                                 "GPA5", "GPA6", "GPA7"],
        "Microchip MCP23017/MCP23S17 datasheet (DS20001952), pin diagram, 28-pin PDIP "
        "(MCP23017: pins 11 and 14 not connected)"),
    # SparkFun's board file (github.com/sparkfun/HX711-Load-Cell-Amplifier,
    # hardware/SparkFun_HX711_Load_Cell.brd, v11): header J1 pads 1-5 VDD, VCC, DAT, CLK (the
    # HX711's PD_SCK), GND; the cell's pads JP4 1-5 YLW (GND, the shield), GRN A+, WHT A-,
    # BLK E- (GND), RED E+. Numbered here J1 1-5 and JP4 11-15.
    Pinout("hx711", "SparkFun HX711 breakout SEN-13879", "module, 5-pin header + 5 pads",
           (PinDef(1, "VDD", "L"), PinDef(2, "VCC", "L"), PinDef(3, "DAT", "L"),
            PinDef(4, "CLK", "L"), PinDef(5, "GND", "L"),
            PinDef(15, "RED E+", "R"), PinDef(14, "BLK E-", "R"), PinDef(13, "WHT A-", "R"),
            PinDef(12, "GRN A+", "R"), PinDef(11, "YLW", "R")),
           "SparkFun HX711 breakout v11 board file: header J1 1-5, pads JP4 1-5 (here 11-15)"),
    # A straight-bar cell's four wires. Colours are the usual ones (SparkFun's HX711 hookup
    # guide: red E+, black E-, white A-, green A+); makers vary (blue for green, yellow for
    # black): check the cell's own sheet, and swap white and green if a load reads negative.
    pairs("load-cell", "Load cell (4 wires)", "4 wires",
          [("E+ red", "L"), ("E- black", "L"), ("A- white", "L"), ("A+ green", "L")],
          "SparkFun 'Load Cell Amplifier HX711 Breakout Hookup Guide': the usual colours; they "
          "vary by maker"),
    # Adafruit's NeoPixel rings: four pads, 'Power 5V DC', 'Ground', 'Data Input', 'Data
    # Output' (adafruit.com/product/1643 and 1463), numbered here in that order.
    pairs("ring", "NeoPixel ring (WS2812B)", "ring, 4 pads",
          [("5V", "L"), ("GND", "L"), ("DIN", "L"), ("DOUT", "R")],
          "Adafruit NeoPixel Ring 1643/1463 product pages: pads Power 5V DC, Ground, Data "
          "Input, Data Output"),
    # A length of WS2812B strip cut to an arc (Worldsemi WS2812B datasheet: VDD, DIN, VSS,
    # DOUT): pads at each cut end, the input end's +5V, Din, GND and the output end's +5V,
    # Dout, GND; the strip's copper joins the two ends' +5V and GND.
    pairs("arc", "WS2812B strip arc", "strip, 3 pads each end",
          [("5V", "L"), ("DIN", "L"), ("GND", "L"), ("5V OUT", "R"), ("DOUT", "R"),
           ("GND OUT", "R")],
          "Worldsemi WS2812B datasheet (VDD, DIN, VSS, DOUT); a cut strip's end pads +5V, "
          "Din/Dout, GND (Pololu 2549)"),
    # Adafruit 2167: the emitter's two wires (red +, black -), the receiver's three (red +,
    # black -, white signal: open collector, pulled up by the input it drives).
    pairs("ir-break-beam", "IR break beam (emitter + receiver)", "5 wires",
          [("EMIT + red", "L"), ("EMIT - black", "L"), ("RECV + red", "R"),
           ("RECV - black", "R"), ("OUT white", "R")],
          "Adafruit IR break beam sensor 2167 product page: emitter red/black, receiver "
          "red/black/white (open collector)"),
    # CUI PJ-063AH: pin 1 the centre pin (+), pin 2 the sleeve (-), pin 3 the sleeve's switch
    # contact (left unconnected).
    pairs("dc-jack", "DC barrel jack PJ-063AH", "jack, 3 pins",
          [("CENTRE +", "R"), ("SLEEVE -", "R"), ("SWITCH", "R")],
          "CUI Devices PJ-063AH datasheet: 1 centre pin, 2 sleeve, 3 sleeve switch"),
    pairs("fuse", "Blade fuse 7.5 A in inline holder", "holder, 2 leads",
          [("1", "L"), ("2", "R")], "Littelfuse FHAC0001ZXJ inline holder: two 16 AWG leads"),
    pairs("switch", "Power switch, SPST", "2 terminals", [("1", "L"), ("2", "R")],
          "an SPST rocker or toggle switch rated 10 A at 12 V DC or more"),
    # Adafruit 1119: four legs; 1-2 joined inside, 3-4 joined inside; the switch closes 1-2
    # onto 3-4. Diagonal legs (1 and 4) are always across the switch.
    pairs("button", "Tactile switch 12 mm", "4 legs",
          [("1", "L"), ("2", "L"), ("3", "R"), ("4", "R")],
          "Adafruit 1119 (12 mm tactile switch): legs 1-2 and 3-4 joined inside"),
    pairs("buzzer", "Piezo buzzer PS1240", "2 legs", [("1", "L"), ("2", "R")],
          "TDK PS1240 datasheet: two legs, no polarity"),
    pairs("resistor", "Resistor", "axial, 1/4 W", [("1", "L"), ("2", "R")],
          "a two-lead resistor: either way round"),
    pairs("capacitor", "Ceramic capacitor", "radial, 2.54 mm", [("1", "L"), ("2", "R")],
          "a two-lead ceramic capacitor: either way round"),
    pairs("electrolytic", "Electrolytic capacitor", "radial", [("+", "L"), ("-", "R")],
          "Panasonic EEU-FR1A102 datasheet: the stripe marks the - lead"),
    pairs("diode", "Schottky diode 1N5817", "DO-41", [("A", "L"), ("K", "R")],
          "onsemi 1N5817 datasheet: pin 1 anode, pin 2 cathode (the stripe)"),
)}
