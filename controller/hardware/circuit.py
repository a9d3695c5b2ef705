"""A board's circuit, made from its profile: every part with its pins, and every wire, leg and
jumper between them (host-only). The schematic (`schematic.py`) draws it, the harness table
(`harness.py`) lists its wires.

    >>> from controller.hardware.profile import load
    >>> board = circuit(load("pico-standalone-2x6"))
    >>> board.find("74AHCT125").value, board.net("LED_DATA_3V3").members
    ('SN74AHCT125N', (End(ref='A1', pin=29), End(ref='U1', pin=2)))
    >>> board.find("HX711 S1").ref, board.net("S1_DT").members     # GP3 is the Pico's pin 5
    ('A2', (End(ref='A1', pin=5), End(ref='A2', pin=3)))

What it holds, for every profile:

- **power**: the barrel jack J1 (its centre pin +), the 7.5 A fuse F1, the power switch SW1
  (catalogue key `power-switch`), then the star point X1: two terminal blocks (+5 V and GND), one pair of terminals for each
  feed, so every load has its own pair of wires and the grounds meet there only; the 1000 µF
  capacitor across the strip's supply at its first LEDs; a 100 nF capacitor at each chip's
  supply pins; the 1N5817 into a standalone Pico's VSYS.
- **the strip**: the data pin into the 74AHCT125's 1A (1OE to GND: enabled), its 1Y through
  470 Ω into the first place's DIN, then DOUT to DIN place to place in strip order (a NeoPixel
  ring's four pads, or a WS2812B strip arc's pads at its two ends), 5 V and GND along the
  places and fed from the star point at both ends (and at South's store on a board of more
  than 8 pits a row). The 74AHCT125's three unused gates: inputs 2A, 3A, 4A and their
  OE pins to GND, as TI asks of every unused CMOS input ("Implications of Slow or Floating
  CMOS Inputs", SCBA004); their outputs 2Y, 3Y, 4Y then drive low, unconnected.
- **load cells**: each cell's four wires on its HX711's pads; VCC from the star point, VDD and
  GND from the controller; DAT to its pin or shift-register input; the clock through the
  74LVC244A (1OE and 2OE to GND: enabled; the inputs in use joined to the clock pin, the others
  to GND) and a 100 Ω resistor per branch of up to four HX711s (profile.clock_fanout). When
  the DOUTs go into a 74HC165 chain (2 x 12 boards), a 100 kΩ pull-down on each DOUT input at
  its chip and one across each breakout's CLK and GND pins, so that an unplugged cell or a
  broken clock wire never holds every read up (hardware/README.md, "A cell unplugged").
- **digital sensors**: each beam's emitter on 5 V from the star point, its receiver on the
  controller's 3.3 V, its output to its pin or MCP23017 input (pulled up inside).
- **expanders**: a 74HC165 chain (SH/LD and CLK to every chip, QH of chip k+1 into SER of chip
  k, the last SER, CLK INH and unused inputs to GND); MCP23017s (address pins from the
  profile's address, RESET to VDD, INTA to its pin, unused pins left open as the controller
  drives GPA7/GPB7 low and pulls the others up).
- **controls**: each button from its input to GND across diagonal legs (a button on a 74HC165
  input, which has no pull-up of its own, gets a 10 kΩ one to 3.3 V), the buzzer from its pin
  to GND.

Every part but the star point names its catalogue key (`Component.part`), so the bill of
materials (`bom.py`) counts the switch, the resistors and the chips' sockets from here.

A `Link` is one physical connection: a `wire` a maker cuts and runs, a part's own `lead`
soldered straight onto the other end (a decoupling capacitor's leg, the 470 Ω at the ring), a
`jumper` between pins of one chip or neighbouring chips on the controller's board, or a load
cell's own `cell` wire. Nets are what the links join, with the pins a part joins inside it (a
controller's GND pins, the star point's bus bars, a button's paired legs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from controller.hardware.boards import BOARDS, PIN, board_of
from controller.hardware.parts import catalogue
from controller.hardware.pinouts import PINOUTS, PinDef, Pinout
from controller.hardware.profile import KINDS, Profile, clock_fanout, place_label
from controller.protocol.messages import BUTTONS

# A 74HC165's inputs A..H (TI SCLS116: pins 11, 12, 13, 14, 3, 4, 5, 6)
HC165_INPUTS = (11, 12, 13, 14, 3, 4, 5, 6)
# A 74LVC244A's buffers in order: (input pin, output pin), 1A1/1Y1 .. 2A4/2Y4 (TI SCAS414)
LVC244_BUFFERS = ((2, 18), (4, 16), (6, 14), (8, 12), (11, 9), (13, 7), (15, 5), (17, 3))
# Ground pins a controller gives to each group of loads, so each group has its own wire
# (the Pico's pin 38 and the Pi's pin 6 go to the star point; the Pico's 33 is AGND).
GROUND_PINS = {"pico": {"star": 38, "hx711": 33, "controls": 28, "chips": 23, "sensors": 18},
               "pi": {"star": 6, "sensors": 9, "chips": 14, "controls": 20, "hx711": 25}}
RAIL_3V3 = {"pico": 36, "pi": 1}


class End(NamedTuple):
    """One pin of one part: its reference (`U1`) and pin number."""

    ref: str
    pin: int


class Link(NamedTuple):
    """A physical connection between two pins, on net `net`; `kind` as the module says."""

    a: End
    b: End
    net: str
    kind: str


class Net(NamedTuple):
    """A net: its name and the pins on it, sorted."""

    name: str
    members: tuple[End, ...]


@dataclass(frozen=True)
class Component:
    """A part on the schematic: reference, value (the part number to order), `role` (what it
    is on this board: `HX711 S1`, `button undo`), its pinout, the catalogue key (None for the
    star point, which the catalogue lacks), where it sits (`where`: a place
    number, `controller`, `button:<name>`, `jack`) and the pin groups it joins inside."""

    ref: str
    value: str
    role: str
    pinout: Pinout
    part: str | None
    where: str
    joined: tuple[tuple[int, ...], ...] = ()


@dataclass
class Circuit:
    """The parts and links of one profile's board."""

    profile: Profile
    components: list[Component] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)

    def component(self, ref: str) -> Component:
        for c in self.components:
            if c.ref == ref:
                return c
        raise KeyError(ref)

    def find(self, role: str) -> Component:
        """The part whose role is `role` (a KeyError naming it if none)."""
        for c in self.components:
            if c.role == role:
                return c
        raise KeyError("no part %r on %s" % (role, self.profile.name))

    def nets(self) -> list[Net]:
        """Every net: the pins the links join, with the pins each part joins inside."""
        parent: dict[End, End] = {}

        def root(end: End) -> End:
            parent.setdefault(end, end)
            while parent[end] != end:
                parent[end] = parent[parent[end]]
                end = parent[end]
            return end

        names: dict[End, str] = {}
        for link in self.links:
            ra, rb = root(link.a), root(link.b)
            parent[ra] = rb
            names[link.a] = names[link.b] = link.net
        for c in self.components:
            for group in c.joined:
                if any(End(c.ref, pin) in parent for pin in group):
                    for pin in group[1:]:
                        parent[root(End(c.ref, pin))] = root(End(c.ref, group[0]))
        groups: dict[End, list[End]] = {}
        for end in list(parent):
            groups.setdefault(root(end), []).append(end)
        out = []
        for members in groups.values():
            given = {names[e] for e in members if e in names}
            if len(given) != 1:
                raise ValueError("%s: pins %s carry net names %s" % (
                    self.profile.name, sorted(members), sorted(given)))
            out.append(Net(given.pop(), tuple(sorted(members))))
        return sorted(out)

    def net(self, name: str) -> Net:
        for net in self.nets():
            if net.name == name:
                return net
        raise KeyError(name)

    def net_of(self) -> dict[End, str]:
        """Every connected pin's net name."""
        return {end: net.name for net in self.nets() for end in net.members}


def tag(place: int, pits: int) -> str:
    """A place in a net name: `S1`, `N12`, `S_STORE`, `N_STORE`."""
    return place_label(place, pits).replace(" store", "_STORE")


def strip_order(profile: Profile) -> list[int]:
    """The places in the order the strip's data runs through their rings."""
    return sorted(range(profile.places), key=lambda place: profile.leds.places[place][0])


class _Builder:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.board = Circuit(profile)
        self.counts: dict[str, int] = {}
        self.feeds: list[str] = []
        self.parts = catalogue()

    def add(self, prefix: str, pinout: Pinout, value: str, role: str, part: str | None,
            where: str, joined: tuple[tuple[int, ...], ...] = ()) -> str:
        self.counts[prefix] = self.counts.get(prefix, 0) + 1
        ref = "%s%d" % (prefix, self.counts[prefix])
        self.board.components.append(Component(ref, value, role, pinout, part, where, joined))
        return ref

    def value(self, key: str) -> str:
        return self.parts[key].number

    def link(self, a: End, b: End, net: str, kind: str = "wire") -> None:
        self.board.links.append(Link(a, b, net, kind))

    def chain(self, start: End, ends: list[End], net: str, kind: str = "wire",
              first: str | None = None) -> None:
        """`start` to ends[0] (a `first` kind of link), then each end to the next."""
        previous = start
        for k, end in enumerate(ends):
            self.link(previous, end, net, (first or kind) if k == 0 else kind)
            previous = end

    def feed(self, what: str) -> tuple[End, End]:
        """A pair of star-point terminals (+5 V, GND) for one load."""
        self.feeds.append(what)
        k = len(self.feeds)
        return End("X1", 2 * k + 1), End("X1", 2 * k + 2)

    def star(self) -> None:
        pins = [PinDef(1, "+5V in", "L"), PinDef(2, "GND in", "L")]
        for k, what in enumerate(self.feeds, start=1):
            pins += [PinDef(2 * k + 1, "+5V " + what, "R"), PinDef(2 * k + 2, "GND " + what, "R")]
        pinout = Pinout("star", "Star point: +5 V and GND terminal blocks", "2 terminal blocks",
                        tuple(pins), "two terminal blocks (or bus bars), one terminal a feed")
        plus = tuple(p.number for p in pins if p.number % 2)
        ground = tuple(p.number for p in pins if not p.number % 2)
        self.board.components.insert(3, Component("X1", "star point", "star point", pinout,
                                                  None, "controller", (plus, ground)))


def circuit(profile: Profile) -> Circuit:
    """The circuit of `profile`'s board (see the module's docstring)."""
    b = _Builder(profile)
    refs = _power_and_controllers(b)
    _strip(b, refs)
    if profile.sensors.kind == "load-cell":
        _load_cells(b, refs)
    else:
        _beams(b, refs)
    _expanders(b, refs)
    _controls(b, refs)
    b.star()
    return b.board


class _Refs(NamedTuple):
    boards: dict[str, str]          # "pico" / "pi" -> its reference
    core: str                       # the board that reads the sensors
    inputs: dict[str, End]          # expander input name -> its pin


def _controller_end(refs: _Refs, pin: str) -> End:
    board = board_of(pin)
    return End(refs.boards[board.key], board.physical(pin))


def _input(refs: _Refs, name: str) -> End:
    """A profile's pin or expander input as the pin it is."""
    return _controller_end(refs, name) if PIN.match(name) else refs.inputs[name]


def _ground(refs: _Refs, group: str, board: str | None = None) -> End:
    board = board or refs.core
    return End(refs.boards[board], GROUND_PINS[board][group])


def _rail(refs: _Refs, board: str | None = None) -> End:
    board = board or refs.core
    return End(refs.boards[board], RAIL_3V3[board])


def _power_and_controllers(b: _Builder) -> _Refs:
    p = b.profile
    jack = b.add("J", PINOUTS["dc-jack"], b.value("dc-jack"), "DC jack", "dc-jack", "jack")
    fuse = b.add("F", PINOUTS["fuse"], "7.5 A " + b.value("fuse-7a5"), "fuse", "fuse-7a5", "jack")
    switch = b.add("SW", PINOUTS["switch"], b.value("power-switch"), "power switch",
                   "power-switch", "jack")
    b.link(End(jack, 1), End(fuse, 1), "VIN", "lead")
    b.link(End(fuse, 2), End(switch, 1), "VIN_FUSED")
    b.link(End(switch, 2), End("X1", 1), "+5V")
    b.link(End(jack, 2), End("X1", 2), "GND")
    boards: dict[str, str] = {}
    core = KINDS[p.kind][1]
    for key in ("pico", "pi"):
        if key in p.boards:
            pinout = PINOUTS[key]
            board = BOARDS[key]
            ground = tuple(k + 1 for k, name in enumerate(board.header) if name == "GND")
            joined = [ground, tuple(k + 1 for k, name in enumerate(board.header)
                                    if name == "3V3")]
            if key == "pi":
                joined.append((2, 4))
            boards[key] = b.add("A", pinout, b.value(p.boards[key]), BOARDS[key].title,
                                p.boards[key], "controller", tuple(g for g in joined if len(g) > 1))
    refs = _Refs(boards, core, {})
    if "pi" in boards:
        plus, ground = b.feed("Pi")
        b.link(plus, End(boards["pi"], 2), "+5V")
        b.link(ground, End(boards["pi"], 6), "GND")
    if p.kind == "pico-standalone":
        diode = b.add("D", PINOUTS["diode"], b.value("schottky-1n5817"), "1N5817 into VSYS",
                      "schottky-1n5817", "controller")
        plus, ground = b.feed("Pico")
        b.link(plus, End(diode, 1), "+5V")
        b.link(End(diode, 2), End(boards["pico"], 39), "VSYS", "lead")
        b.link(ground, End(boards["pico"], 38), "GND")
    elif "pico" in boards:          # powered over USB from the Pi; its ground to the star
        _plus, ground = b.feed("Pico GND")
        b.link(ground, End(boards["pico"], 38), "GND")
    _make_expanders(b, refs)
    return refs


def _decouple(b: _Builder, chip: str, vcc: int, gnd: int, role: str, supply: str) -> None:
    """A 100 nF capacitor's legs soldered onto a chip's supply pins."""
    cap = b.add("C", PINOUTS["capacitor"], "100 nF " + b.value("capacitor-100nf"),
                "100 nF at " + role, "capacitor-100nf", "controller")
    b.link(End(cap, 1), End(chip, vcc), supply, "lead")
    b.link(End(cap, 2), End(chip, gnd), "GND", "lead")


def _strip(b: _Builder, refs: _Refs) -> None:
    p = b.profile
    shifter = b.add("U", PINOUTS["74ahct125"], b.value("74ahct125"), "74AHCT125", "74ahct125",
                    "controller")
    b.link(_input(refs, p.leds.data_pin), End(shifter, 2), "LED_DATA_3V3")
    # 1OE and the unused gates' inputs and OE pins to GND (pin 7)
    b.chain(End(shifter, 7), [End(shifter, pin) for pin in (1, 4, 5, 9, 10, 12, 13)], "GND",
            "jumper")
    plus, ground = b.feed("74AHCT125")
    b.link(plus, End(shifter, 14), "+5V")
    b.link(End(shifter, 7), _ground(refs, "chips"), "GND")
    _decouple(b, shifter, 14, 7, "74AHCT125", "+5V")
    order = strip_order(p)
    rings = {}
    for place in range(p.places):
        part = p.leds.pit_part if place < 2 * p.pits else p.leds.store_part
        rings[place] = b.add("LED", _led_pinout(part), b.value(part),
                             "LEDs " + place_label(place, p.pits), part, str(place),
                             _led_joins(part))
    first = rings[order[0]]
    pins = {place: _led_pins(p.leds.pit_part if place < 2 * p.pits else p.leds.store_part)
            for place in range(p.places)}
    resistor = b.add("R", PINOUTS["resistor"], "470 Ω " + b.value("resistor-470"),
                     "470 Ω at the first LEDs' DIN", "resistor-470", str(order[0]))
    b.link(End(shifter, 3), End(resistor, 1), "LED_DATA_5V")
    b.link(End(resistor, 2), End(first, pins[order[0]].din), "LED_DIN", "lead")
    for k, (a, c) in enumerate(zip(order, order[1:]), start=1):
        pa, pc = pins[a], pins[c]
        b.link(End(rings[a], pa.dout), End(rings[c], pc.din), "LED_D%d" % k)
        b.link(End(rings[a], pa.plus_out), End(rings[c], pc.plus), "+5V")
        b.link(End(rings[a], pa.ground_out), End(rings[c], pc.ground), "GND")
    feeds = [("strip start", order[0]), ("strip end", order[-1])]
    if p.pits > 8:
        feeds.insert(1, ("strip middle", 2 * p.pits))
    for what, place in feeds:
        plus, ground = b.feed(what)
        b.link(plus, End(rings[place], pins[place].plus), "+5V")
        b.link(ground, End(rings[place], pins[place].ground), "GND")
    cap = b.add("C", PINOUTS["electrolytic"], "1000 µF " + b.value("capacitor-1000uf"),
                "1000 µF at the first LEDs", "capacitor-1000uf", str(order[0]))
    b.link(End(cap, 1), End(first, pins[order[0]].plus), "+5V", "lead")
    b.link(End(cap, 2), End(first, pins[order[0]].ground), "GND", "lead")


class LedPins(NamedTuple):
    """The pins of a place's LEDs: in (+5 V, DIN, GND) and out (+5 V, DOUT, GND)."""

    plus: int
    din: int
    ground: int
    plus_out: int
    dout: int
    ground_out: int


def _led_pinout(part: str) -> Pinout:
    """An Adafruit NeoPixel ring's four pads, or a WS2812B strip arc's pads at both ends."""
    return PINOUTS["ring"] if "ring" in catalogue()[part].name.lower() else PINOUTS["arc"]


def _led_joins(part: str) -> tuple[tuple[int, ...], ...]:
    return () if _led_pinout(part).key == "ring" else ((1, 4), (3, 6))


def _led_pins(part: str) -> LedPins:
    pinout = _led_pinout(part)
    if pinout.key == "ring":
        return LedPins(1, 3, 2, 1, 4, 2)
    return LedPins(*(pinout.numbered(name) for name in ("5V", "DIN", "GND", "5V OUT", "DOUT",
                                                        "GND OUT")))


def _load_cells(b: _Builder, refs: _Refs) -> None:
    p = b.profile
    order = strip_order(p)
    amps, cells = {}, {}
    for place in range(p.places):
        # on the breakout, GND, the YLW pad and the BLK (E-) pad are one copper (JP4 1, 4)
        amps[place] = b.add("A", PINOUTS["hx711"], b.value("hx711"),
                            "HX711 " + place_label(place, p.pits), "hx711", str(place),
                            ((5, 11, 14),))
        part = p.sensors.pit_part if place < 2 * p.pits else p.sensors.store_part
        cells[place] = b.add("LC", PINOUTS["load-cell"], b.value(part),
                             "load cell " + place_label(place, p.pits), part, str(place))
    chain = _into_chain(p, p.sensors.channels[0])
    for place in range(p.places):
        t = tag(place, p.pits)
        for wire, pad, name in ((1, 15, "E+"), (2, 14, "E-"), (3, 13, "A-"), (4, 12, "A+")):
            b.link(End(cells[place], wire), End(amps[place], pad),
                   "GND" if name == "E-" else "%s_%s" % (t, name), "cell")
        b.link(_input(refs, p.sensors.channels[place]), End(amps[place], 3), t + "_DT")
    if chain:
        # an unplugged cell must read low, never float: 100 kOhm from each DOUT input to GND
        # at its 74HC165 (hardware/README.md, "A cell unplugged: the DOUT pull-downs")
        for place in range(p.places):
            where = _input(refs, p.sensors.channels[place])
            pull = b.add("R", PINOUTS["resistor"], "100 kΩ " + b.value("resistor-100k"),
                         "pull-down of %s DOUT" % place_label(place, p.pits), "resistor-100k",
                         "controller")
            b.link(End(pull, 1), where, tag(place, p.pits) + "_DT", "lead")
            b.link(End(pull, 2), End(where.ref, 8), "GND", "lead")
    plus, _unused = b.feed("HX711 VCC")
    b.chain(plus, [End(amps[place], 2) for place in order], "+5V")
    b.chain(_rail(refs), [End(amps[place], 1) for place in order], "+3V3")
    b.chain(_ground(refs, "hx711"), [End(amps[place], 5) for place in order], "GND")
    fanout = clock_fanout(p)
    chips = [b.add("U", PINOUTS["74lvc244a"], b.value("74lvc244a"),
                   "74LVC244A clock buffer %d" % (k + 1), "74lvc244a", "controller")
             for k in range(fanout.chips)]
    inputs = []
    for k, group in enumerate(fanout.groups):
        chip = chips[k // 8]
        a_pin, y_pin = LVC244_BUFFERS[k % 8]
        inputs.append(End(chip, a_pin))
        resistor = b.add("R", PINOUTS["resistor"], "100 Ω " + b.value("resistor-100"),
                         "100 Ω clock branch %d" % (k + 1), "resistor-100", "controller")
        b.link(End(chip, y_pin), End(resistor, 1), "SCK_Y%d" % (k + 1), "lead")
        b.chain(End(resistor, 2), [End(amps[place], 4) for place in group],
                "SCK_B%d" % (k + 1))
    if chain:
        # a chain has no pin to mask: a broken clock wire must not leave an HX711's PD_SCK
        # floating high (powered down, DOUT high, every read held up): 100 kOhm from each
        # breakout's CLK to its GND, soldered across its header's pins 4 and 5
        for k, group in enumerate(fanout.groups):
            for place in group:
                pull = b.add("R", PINOUTS["resistor"], "100 kΩ " + b.value("resistor-100k"),
                             "pull-down of %s CLK" % place_label(place, p.pits),
                             "resistor-100k", str(place))
                b.link(End(pull, 1), End(amps[place], 4), "SCK_B%d" % (k + 1), "lead")
                b.link(End(pull, 2), End(amps[place], 5), "GND", "lead")
    b.chain(_input(refs, p.sensors.clock_pin), inputs, "SCK", "jumper", first="wire")
    for n, chip in enumerate(chips):
        used = {e.pin for e in inputs if e.ref == chip}
        spare = [a for a, _y in LVC244_BUFFERS if a not in used]
        b.chain(End(chip, 10), [End(chip, pin) for pin in [1, 19] + spare], "GND", "jumper")
        _chip_supply(b, refs, chip, 20, 10, "74LVC244A %d" % (n + 1))


def _into_chain(profile: Profile, channel: str) -> bool:
    """Whether a sensor input `channel` is a 74HC165's (`sr.5`), not a controller's pin."""
    if PIN.match(channel):
        return False
    return any(e.type == "74hc165" and channel.startswith(e.name + ".")
               for e in profile.expanders)


def _chip_supply(b: _Builder, refs: _Refs, chip: str, vcc: int, gnd: int, role: str,
                 board: str | None = None) -> None:
    """A 3.3 V chip's VCC and GND from its controller, and its 100 nF."""
    b.link(_rail(refs, board), End(chip, vcc), "+3V3")
    b.link(_ground(refs, "chips", board), End(chip, gnd), "GND")
    _decouple(b, chip, vcc, gnd, role, "+3V3")


def _beams(b: _Builder, refs: _Refs) -> None:
    p = b.profile
    beams = [b.add("IR", PINOUTS["ir-break-beam"], b.value(p.sensors.part),
                   "beam " + place_label(pit, p.pits), p.sensors.part, str(pit))
             for pit in range(2 * p.pits)]
    order = [place for place in strip_order(p) if place < 2 * p.pits]
    plus, ground = b.feed("beam emitters")
    b.chain(plus, [End(beams[pit], 1) for pit in order], "+5V")
    b.chain(ground, [End(beams[pit], 2) for pit in order], "GND")
    b.chain(_rail(refs), [End(beams[pit], 3) for pit in order], "+3V3")
    b.chain(_ground(refs, "sensors"), [End(beams[pit], 4) for pit in order], "GND")
    for pit, channel in enumerate(p.sensors.channels):
        b.link(_input(refs, channel), End(beams[pit], 5), tag(pit, p.pits) + "_BEAM")


def _make_expanders(b: _Builder, refs: _Refs) -> None:
    """The expander chips and their inputs' pins (`sr.5` -> the chip's pin)."""
    for expander in b.profile.expanders:
        if expander.type == "74hc165":
            chips = [b.add("U", PINOUTS["74hc165"], b.value("74hc165"),
                           "74HC165 %s U%d" % (expander.name, k + 1), "74hc165", "controller")
                     for k in range(expander.chips)]
            for k, name in enumerate(expander.channels):
                refs.inputs[name] = End(chips[k // 8], HC165_INPUTS[k % 8])
        else:
            chip = b.add("U", PINOUTS["mcp23017"], b.value("mcp23017"),
                         "MCP23017 %s" % expander.name, "mcp23017", "controller")
            for name in expander.channels:
                refs.inputs[name] = End(chip, PINOUTS["mcp23017"].numbered(name.split(".")[1]))


def _expanders(b: _Builder, refs: _Refs) -> None:
    p = b.profile
    used = set(p.sensors.channels) | set(p.buttons.values())
    sda_chain: list[End] = []
    for expander in p.expanders:
        if expander.type == "74hc165":
            chips = sorted({refs.inputs[name].ref for name in expander.channels},
                           key=lambda ref: int(ref[1:]))
            board = board_of(expander.data_pin).key
            b.chain(_input(refs, expander.load_pin), [End(c, 1) for c in chips],
                    expander.name.upper() + "_SH_LD", "jumper", first="wire")
            b.chain(_input(refs, expander.clock_pin), [End(c, 2) for c in chips],
                    expander.name.upper() + "_CLK", "jumper", first="wire")
            b.link(End(chips[0], 9), _input(refs, expander.data_pin),
                   expander.name.upper() + "_QH")
            for k in range(1, len(chips)):
                b.link(End(chips[k], 9), End(chips[k - 1], 10),
                       "%s_QH%d" % (expander.name.upper(), k + 1), "jumper")
            for k, chip in enumerate(chips):
                spare = [refs.inputs[name].pin for name in expander.channels[8 * k:8 * k + 8]
                         if name not in used]
                tied = [15] + ([10] if k == len(chips) - 1 else []) + spare
                b.chain(End(chip, 8), [End(chip, pin) for pin in tied], "GND", "jumper")
                _chip_supply(b, refs, chip, 16, 8, "74HC165 U%d" % (k + 1), board)
        else:
            chip = refs.inputs[expander.channels[0]].ref
            board = board_of(p.i2c[0]).key
            sda_chain.append(End(chip, 13))
            _chip_supply(b, refs, chip, 9, 10, "MCP23017 " + expander.name, board)
            bits = expander.address - 0x20
            for bit, pin in enumerate((15, 16, 17)):
                if bits >> bit & 1:
                    b.link(End(chip, 9), End(chip, pin), "+3V3", "jumper")
                else:
                    b.link(End(chip, 10), End(chip, pin), "GND", "jumper")
            b.link(End(chip, 9), End(chip, 18), "+3V3", "jumper")
            if expander.interrupt_pin:
                b.link(End(chip, 20), _input(refs, expander.interrupt_pin),
                       expander.name.upper() + "_INTA")
    if sda_chain:
        b.chain(_input(refs, p.i2c[0]), sda_chain, "SDA", "jumper", first="wire")
        b.chain(_input(refs, p.i2c[1]), [End(e.ref, 12) for e in sda_chain], "SCL", "jumper",
                first="wire")


def _controls(b: _Builder, refs: _Refs) -> None:
    p = b.profile
    for name in BUTTONS:
        pin = p.buttons[name]
        board = (board_of(pin) or board_of(_expander_pin(p, pin))).key
        button = b.add("SW", PINOUTS["button"], b.value(p.button_part),
                       "button " + name.replace("_", " "), p.button_part, "button:" + name,
                       ((1, 2), (3, 4)))
        b.link(_input(refs, pin), End(button, 1), "BTN_" + name.upper())
        if not PIN.match(pin) and pin.split(".")[0] in {
                e.name for e in p.expanders if e.type == "74hc165"}:
            # a 74HC165 input has no pull-up of its own: 10 kOhm to 3.3 V
            pull = b.add("R", PINOUTS["resistor"], "10 kΩ " + b.value("resistor-10k"),
                         "pull-up of " + name, "resistor-10k", "controller")
            b.link(End(pull, 1), _input(refs, pin), "BTN_" + name.upper(), "lead")
            b.link(End(pull, 2), _rail(refs, board), "+3V3")
        b.link(End(button, 4), _ground(refs, "controls", board), "GND")
    buzzer = b.add("BZ", PINOUTS["buzzer"], b.value(p.buzzer_part), "piezo buzzer",
                   p.buzzer_part, "controller")
    board = board_of(p.buzzer_pin).key
    b.link(_input(refs, p.buzzer_pin), End(buzzer, 1), "BUZZER")
    b.link(End(buzzer, 2), _ground(refs, "controls", board), "GND")


def _expander_pin(profile: Profile, name: str) -> str:
    """The controller pin that reads expander input `name` (its data pin or the I2C bus)."""
    expander = next(e for e in profile.expanders if name.startswith(e.name + "."))
    return expander.data_pin if expander.type == "74hc165" else profile.i2c[0]
