"""Board profiles: one TOML file says how a board is built, and the controller and the firmware
run from it (host-only).

    >>> profile = load("pico-bridge-2x6")
    >>> profile.kind, profile.pits, profile.places, profile.leds.length
    ('pico-bridge', 6, 14, 176)
    >>> check(profile)
    []
    >>> layout = profile.led_layout()          # what the guide's frames are rendered through
    >>> layout.leds[12][:3], layout.brightness, layout.max_ma
    ([72, 73, 74], 64, 2000)
    >>> b = budget(profile)
    >>> b.full_white_ma, b.at_brightness_ma, b.strip_ma, b.total_ma <= b.supply_ma
    (10560, 2640, 2000, True)

A profile is one of three kinds (docs/architecture.md): `pico-bridge` (a Raspberry Pi with a
Pico on USB; the Pico reads the load cells and drives the LEDs), `pi-direct` (a Pi alone, a
digital sensor per pit) and `pico-standalone` (a Pico alone). It declares, in the controller's
order of places — the 2n pits as docs/rules.md numbers them (South's 0..n-1, North's
n..2n-1), then South's store (2n), then North's (2n+1):

- `[leds]`: the strip's data pin and colour order, its length, and per place the first strip
  index and the count of its LEDs (the strip snakes round the board as the maker wires it, so
  the indices are per place);
- `[sensors]`: a load cell and HX711 per place (a shared clock pin, one data pin per cell) or a
  digital sensor per pit, each on a pin or on an expander's input;
- `[seeds]`: the seed the players move (`part`, a seed of the catalogue): what the load cells
  weigh, and what `controller.hardware.noise` budgets each place's count with;
- `[buttons]` (new game, undo, hint, confirm) and `[buzzer]`: their pins;
- `[power]`: the supply and its current, the LED brightness cap (1..256 of 256, as `LedLayout`
  takes it) and the strip's current cap;
- `[[expanders]]` and `[i2c]` where a board's own pins do not suffice: 74HC165 shift registers
  or MCP23017 I2C expanders, whose inputs are written `NAME.CHANNEL` (`sr.5`, `south.GPA0`).

Pins are the boards' own names: `GP<n>` for a Pico, `GPIO<n>` for a Raspberry Pi. `load` checks
every key's presence and type and every value's range; `check` checks the board as a whole
(pins that exist and are used once, the strip, the LEDs, the power budget). Both name the file
and the key of each problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from controller.guide.pixels import MA_PER_CHANNEL, LedLayout
from controller.protocol.messages import BUTTONS
from controller.rules import place_label, place_words
from controller.hardware.boards import BOARDS, PIN, board_of, span
from controller.hardware.parts import HARDWARE, Part, catalogue
from controller.hardware.problems import (Problem, ProfileError, Reader, Spec, describe,
                                          display, read_toml)

PROFILES = HARDWARE / "profiles"

# profile kind -> (the boards it has, the board that reads the sensors and drives the LEDs,
#                  the sensing it uses)
KINDS = {
    "pico-bridge": (("pico", "pi"), "pico", "load-cell"),
    "pi-direct": (("pi",), "pi", "digital"),
    "pico-standalone": (("pico",), "pico", "load-cell"),
}
# Blinka's NeoPixel driver on a Pi (rpi_ws281x) can drive only these: PWM0, PCM and SPI MOSI.
PI_NEOPIXEL_PINS = ("GPIO10", "GPIO12", "GPIO18", "GPIO21")
# I2C pins (SDA, SCL) by board: the Pi's I2C1 (the only bus on the header that is free), and
# the pairs of a Pico's I2C0 and I2C1 blocks.
I2C_PAIRS = {
    "pi": [("GPIO2", "GPIO3")],
    "pico": [("GP%d" % sda, "GP%d" % (sda + 1)) for sda in (0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                                            20, 26)],
}
EXPANDER_TYPES = ("74hc165", "mcp23017")
MCP_CHANNELS = ["GP%s%d" % (port, bit) for port in "AB" for bit in range(8)]
NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR", "RGBW", "GRBW")


@dataclass(frozen=True)
class Leds:
    data_pin: str
    order: str
    pit_part: str
    store_part: str
    length: int
    places: tuple[tuple[int, int], ...]      # per place: (first strip index, count)


@dataclass(frozen=True)
class Sensors:
    kind: str                     # "load-cell" or "digital"
    channels: tuple[str, ...]     # per place (load cells) or per pit (digital): pin or NAME.CH
    clock_pin: str | None = None  # load cells: the HX711s' shared PD_SCK
    pit_part: str | None = None   # load cells
    store_part: str | None = None
    part: str | None = None       # digital sensors
    active: str | None = None     # digital: "high" or "low", the level while a hand/seed is there


@dataclass(frozen=True)
class Expander:
    name: str
    type: str                     # "74hc165" (a chain of `chips`) or "mcp23017" (at `address`)
    chips: int = 1
    load_pin: str | None = None
    clock_pin: str | None = None
    data_pin: str | None = None
    address: int | None = None
    interrupt_pin: str | None = None

    @property
    def channels(self) -> list[str]:
        """Its inputs: `sr.0`..`sr.31` for four 74HC165s (chip k // 8, input A..H), or
        `south.GPA0`..`south.GPB7` for an MCP23017."""
        names = (MCP_CHANNELS if self.type == "mcp23017"
                 else [str(k) for k in range(8 * self.chips)])
        return ["%s.%s" % (self.name, channel) for channel in names]


@dataclass(frozen=True)
class Power:
    supply: str
    supply_ma: int
    brightness: int
    strip_max_ma: int


class Wire(NamedTuple):
    """One connection a controller pin (or an expander input) makes: the profile key that
    gives it, the pin, the device at the other end and the device's terminal."""

    key: str
    pin: str
    device: str
    terminal: str


@dataclass(frozen=True)
class Profile:
    """A loaded board profile. `path` is where it came from, `name` its file's stem."""

    name: str
    path: Path
    kind: str
    title: str
    pits: int
    boards: dict[str, str]        # "pico" / "pi" -> its part key
    leds: Leds
    sensors: Sensors
    buttons: dict[str, str]       # BUTTONS -> pin or expander input
    button_part: str
    buzzer_pin: str
    buzzer_part: str
    power: Power
    seed: str                     # the seed's part key (role "seed")
    i2c: tuple[str, str] | None = None
    expanders: tuple[Expander, ...] = ()

    @property
    def places(self) -> int:
        """2n pits and 2 stores."""
        return 2 * self.pits + 2

    @property
    def label(self) -> str:
        return display(self.path)

    def wires(self) -> list[Wire]:
        """Every pin and expander input the profile uses, with what it connects to."""
        out = [Wire("leds.data_pin", self.leds.data_pin, "LED data", "74AHCT125 1A")]
        if self.sensors.kind == "load-cell":
            out.append(Wire("sensors.clock_pin", self.sensors.clock_pin, "every HX711", "SCK"))
            for i, pin in enumerate(self.sensors.channels):
                out.append(Wire("sensors.data_pins[%d]" % i, pin,
                                "HX711 " + place_label(i, self.pits), "DT"))
        else:
            for i, pin in enumerate(self.sensors.channels):
                out.append(Wire("sensors.pins[%d]" % i, pin,
                                "sensor " + place_label(i, self.pits), "OUT"))
        for name in BUTTONS:
            out.append(Wire("buttons." + name, self.buttons[name],
                            "button " + name.replace("_", " "), ""))
        out.append(Wire("buzzer.pin", self.buzzer_pin, "piezo buzzer", "+"))
        if self.i2c:
            users = ", ".join(e.name for e in self.expanders if e.type == "mcp23017")
            out.append(Wire("i2c.sda_pin", self.i2c[0], "I2C " + users, "SDA"))
            out.append(Wire("i2c.scl_pin", self.i2c[1], "I2C " + users, "SCL"))
        for k, expander in enumerate(self.expanders):
            where = "expanders[%d]." % k
            if expander.type == "74hc165":
                device = "74HC165 chain %s" % expander.name
                out.append(Wire(where + "load_pin", expander.load_pin, device, "SH/LD"))
                out.append(Wire(where + "clock_pin", expander.clock_pin, device, "CLK"))
                out.append(Wire(where + "data_pin", expander.data_pin, device, "QH"))
            elif expander.interrupt_pin:
                out.append(Wire(where + "interrupt_pin", expander.interrupt_pin,
                                "MCP23017 %s" % expander.name, "INTA"))
        return out

    def pins(self) -> list[str]:
        """The controller pins in use (not expander inputs), in the order of `wires()`."""
        return [wire.pin for wire in self.wires() if PIN.match(wire.pin)]

    def led_layout(self) -> LedLayout:
        """The guide's LED layout for this board: which strip LEDs light each place, and the
        brightness and current caps (`controller.guide.pixels.render` applies them)."""
        try:
            return LedLayout([range(start, start + count) for start, count in self.leds.places],
                             self.leds.length, self.power.brightness, self.power.strip_max_ma)
        except ValueError as error:
            raise ProfileError([Problem(self.label, "leds", str(error))]) from None

    def as_dict(self) -> dict[str, Any]:
        """The profile as plain JSON-able data, keys in a fixed order, for the Pico firmware
        (which has no TOML reader): pins as the boards name them (`GP22`)."""
        sensors: dict[str, Any] = {"kind": self.sensors.kind}
        if self.sensors.kind == "load-cell":
            sensors.update(clock_pin=self.sensors.clock_pin,
                           data_pins=list(self.sensors.channels))
        else:
            sensors.update(pins=list(self.sensors.channels), active=self.sensors.active)
        return {
            "name": self.name, "profile": self.kind, "title": self.title, "pits": self.pits,
            "boards": dict(self.boards),
            "leds": {"data_pin": self.leds.data_pin, "order": self.leds.order,
                     "length": self.leds.length,
                     "places": [[start, count] for start, count in self.leds.places],
                     "brightness": self.power.brightness, "max_ma": self.power.strip_max_ma},
            "sensors": sensors,
            "buttons": {name: self.buttons[name] for name in BUTTONS},
            "buzzer": {"pin": self.buzzer_pin},
            "i2c": ({"sda_pin": self.i2c[0], "scl_pin": self.i2c[1]} if self.i2c else None),
            "expanders": [_expander_dict(e) for e in self.expanders],
            "power": {"supply_ma": self.power.supply_ma, "brightness": self.power.brightness,
                      "strip_max_ma": self.power.strip_max_ma},
        }


def _expander_dict(expander: Expander) -> dict[str, Any]:
    if expander.type == "74hc165":
        return {"name": expander.name, "type": expander.type, "chips": expander.chips,
                "load_pin": expander.load_pin, "clock_pin": expander.clock_pin,
                "data_pin": expander.data_pin}
    return {"name": expander.name, "type": expander.type, "address": expander.address,
            "interrupt_pin": expander.interrupt_pin}


# ---------------------------------------------------------------------------------------------
# Loading: every key present, of its kind, within its range.

TOP = {
    "profile": Spec("str", True, "the kind of board: " + ", ".join(KINDS)),
    "title": Spec("str", True, "one line that says what the board is"),
    "pits": Spec("int", True, "pits per row (6 for Layli Goobalay, 7 for Mangala IV, up to 12)"),
    "pico": Spec("part:pico", False, "the Pico (a key of hardware/parts.toml)"),
    "pi": Spec("part:pi", False, "the Raspberry Pi (a key of hardware/parts.toml)"),
    "leds": Spec("table", True, "the [leds] table"),
    "sensors": Spec("table", True, "the [sensors] table"),
    "buttons": Spec("table", True, "the [buttons] table"),
    "buzzer": Spec("table", True, "the [buzzer] table"),
    "power": Spec("table", True, "the [power] table"),
    "seeds": Spec("table", True, "the [seeds] table: part = the seed the players move, a "
                                 "seed of hardware/parts.toml"),
    "i2c": Spec("table", False, "the I2C bus of the expanders"),
    "expanders": Spec("array", False, "the [[expanders]] tables"),
}
LEDS = {
    "data_pin": Spec("pin", True, "the pin of the strip's data line, e.g. GP22"),
    "order": Spec("str", True, "the colour order of the LEDs, e.g. GRB for WS2812B"),
    "pit_part": Spec("part:led-ring", True, "the LED ring of a pit"),
    "store_part": Spec("part:led-ring", True, "the LED ring of a store"),
    "length": Spec("int", True, "how many LEDs the strip has"),
    "places": Spec("array", True, "one { start, count } per place, in the controller's order"),
}
PLACE = {
    "start": Spec("int", True, "the strip index of the place's first LED"),
    "count": Spec("int", True, "how many LEDs the place has"),
}
LOAD_CELLS = {
    "kind": Spec("str", True, "load-cell or digital"),
    "pit_part": Spec("part:load-cell", True, "the load cell under a pit"),
    "store_part": Spec("part:load-cell", True, "the load cell under a store"),
    "clock_pin": Spec("pin", True, "the pin of the HX711s' shared clock (PD_SCK)"),
    "data_pins": Spec("array", True, "one HX711 data (DOUT) pin per place"),
}
DIGITAL = {
    "kind": Spec("str", True, "load-cell or digital"),
    "part": Spec("part:digital-sensor", True, "the sensor of a pit"),
    "pins": Spec("array", True, "one pin per pit"),
    "active": Spec("str", True, "the level a sensor reads while a hand or seed is there: "
                                "high or low"),
}
BUTTON_TABLE = {name: Spec("input", True, "the pin of the %s button" % name.replace("_", " "))
                for name in BUTTONS}
BUTTON_TABLE["part"] = Spec("part:button", True, "the buttons' part")
SEEDS = {"part": Spec("part:seed", True, "the seed the players move (a seed of "
                                        "hardware/parts.toml, e.g. seed-ball-12.7)")}
BUZZER = {"pin": Spec("pin", True, "the buzzer's pin (PWM)"),
          "part": Spec("part:buzzer", True, "the buzzer's part")}
POWER = {
    "supply": Spec("part:supply", True, "the 5 V supply's part"),
    "supply_ma": Spec("int", True, "the current the supply gives, in mA"),
    "brightness": Spec("int", True, "the LED brightness cap, 1..256 of 256"),
    "strip_max_ma": Spec("int", True, "the strip's current cap, in mA"),
}
I2C = {"sda_pin": Spec("pin", True, "the I2C data pin"),
       "scl_pin": Spec("pin", True, "the I2C clock pin")}
SHIFT_REGISTERS = {
    "name": Spec("str", True, "the name its inputs are written with (sr -> sr.0, sr.1...)"),
    "type": Spec("str", True, "74hc165 or mcp23017"),
    "chips": Spec("int", True, "how many 74HC165s are chained (8 inputs each)"),
    "load_pin": Spec("pin", True, "the pin to the chips' SH/LD (parallel load)"),
    "clock_pin": Spec("pin", True, "the pin to the chips' CLK"),
    "data_pin": Spec("pin", True, "the pin from the first chip's QH"),
}
IO_EXPANDER = {
    "name": Spec("str", True, "the name its inputs are written with (south -> south.GPA0...)"),
    "type": Spec("str", True, "74hc165 or mcp23017"),
    "address": Spec("int", True, "its I2C address, 0x20..0x27 (set by A0-A2)"),
    "interrupt_pin": Spec("pin", False, "the pin its INTA output drives (optional)"),
}


def shipped() -> list[str]:
    """The names of the shipped profiles (`hardware/profiles/*.toml`)."""
    return sorted(path.stem for path in PROFILES.glob("*.toml"))


def resolve(name_or_path: str | Path) -> Path:
    """The file of a shipped profile's name, or the path itself."""
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or "/" in text or text.endswith(".toml"):
        return Path(name_or_path)
    path = PROFILES / (text + ".toml")
    if not path.exists():
        raise ProfileError([Problem(text, "", "no shipped profile of that name (shipped: %s); "
                                    "give the path of a .toml file for your own" % (
                                        ", ".join(shipped())))])
    return path


def load(name_or_path: str | Path) -> Profile:
    """A profile by shipped name (`pico-bridge-2x6`) or path, every key checked; a
    ProfileError listing every problem (file, key, what is wrong) otherwise."""
    path = resolve(name_or_path)
    data = read_toml(path)
    reader = Reader(display(path), catalogue())
    top = reader.table(data, "", TOP)
    kind = top["profile"]
    if kind is not None and kind not in KINDS:
        reader.problem("profile", "%r is not a kind of board (%s)" % (kind, ", ".join(KINDS)))
        kind = None
    boards: dict[str, str] = {}
    if kind is not None:
        have = KINDS[kind][0]
        for board in ("pico", "pi"):
            if board in have and board not in data:
                reader.problem(board, "missing: a %s board has %s" % (kind, TOP[board].what))
            elif board not in have and board in data:
                reader.problem(board, "a %s board has no %s" % (kind, BOARDS[board].title))
            elif top[board] is not None:
                boards[board] = top[board]
    reader.within(top["pits"], 2, 12, "pits", " pits per row")
    leds = _leds(reader, top["leds"])
    sensors = _sensors(reader, top["sensors"])
    buttons = reader.table(top["buttons"], "buttons", BUTTON_TABLE) if top["buttons"] else None
    buzzer = reader.table(top["buzzer"], "buzzer", BUZZER) if top["buzzer"] else None
    power = reader.table(top["power"], "power", POWER) if top["power"] else None
    seeds = reader.table(top["seeds"], "seeds", SEEDS) if top["seeds"] is not None else None
    if power:
        reader.within(power["brightness"], 1, 256, "power.brightness", " (of 256)")
        reader.within(power["supply_ma"], 1, None, "power.supply_ma", " mA")
        reader.within(power["strip_max_ma"], 1, None, "power.strip_max_ma", " mA")
    i2c = reader.table(top["i2c"], "i2c", I2C) if top["i2c"] is not None else None
    expanders = _expanders(reader, top["expanders"] or [])
    reader.fail_if_any()
    return Profile(
        name=path.stem, path=path, kind=kind, title=top["title"], pits=top["pits"],
        boards=boards, leds=leds, sensors=sensors,
        buttons={name: buttons[name] for name in BUTTONS}, button_part=buttons["part"],
        buzzer_pin=buzzer["pin"], buzzer_part=buzzer["part"],
        power=Power(power["supply"], power["supply_ma"], power["brightness"],
                    power["strip_max_ma"]),
        seed=seeds["part"],
        i2c=(i2c["sda_pin"], i2c["scl_pin"]) if i2c else None,
        expanders=tuple(expanders))


def _leds(reader: Reader, data: dict | None) -> Leds | None:
    if data is None:
        return None
    leds = reader.table(data, "leds", LEDS)
    if leds["order"] is not None and leds["order"] not in ORDERS:
        reader.problem("leds.order", "%r is not a colour order (%s; WS2812B is GRB)" % (
            leds["order"], ", ".join(ORDERS)))
    reader.within(leds["length"], 1, None, "leds.length", " LEDs")
    places = []
    for i, place in enumerate(leds["places"] or []):
        key = "leds.places[%d]" % i
        if not isinstance(place, dict):
            reader.problem(key, "must be a table { start = N, count = N }, not %s"
                           % describe(place))
            continue
        fields = reader.table(place, key, PLACE)
        reader.within(fields["start"], 0, None, key + ".start")
        reader.within(fields["count"], 0, None, key + ".count")
        places.append((fields["start"], fields["count"]))
    if any(v is None for v in leds.values()):
        return None
    return Leds(leds["data_pin"], leds["order"], leds["pit_part"], leds["store_part"],
                leds["length"], tuple(places))


def _sensors(reader: Reader, data: dict | None) -> Sensors | None:
    if data is None:
        return None
    kind = reader.value(data.get("kind"), "str", "sensors.kind") if "kind" in data else None
    if "kind" not in data:
        reader.problem("sensors.kind", "missing: load-cell (a load cell and HX711 under every "
                                       "place) or digital (a digital sensor in every pit)")
        return None
    if kind not in ("load-cell", "digital"):
        if kind is not None:
            reader.problem("sensors.kind", "%r is not a kind of sensing: load-cell (a load cell "
                                           "and HX711 under every place) or digital (a digital "
                                           "sensor in every pit)" % kind)
        return None
    if kind == "load-cell":
        fields = reader.table(data, "sensors", LOAD_CELLS)
        channels = reader.items(fields["data_pins"], "input", "sensors.data_pins")
        if any(v is None for v in fields.values()) or channels is None:
            return None
        return Sensors(kind, tuple(channels), clock_pin=fields["clock_pin"],
                       pit_part=fields["pit_part"], store_part=fields["store_part"])
    fields = reader.table(data, "sensors", DIGITAL)
    channels = reader.items(fields["pins"], "input", "sensors.pins")
    if fields["active"] is not None and fields["active"] not in ("high", "low"):
        reader.problem("sensors.active", "must be high or low, not %r" % fields["active"])
    if any(v is None for v in fields.values()) or channels is None:
        return None
    return Sensors(kind, tuple(channels), part=fields["part"], active=fields["active"])


def _expanders(reader: Reader, data: list) -> list[Expander]:
    out = []
    for k, entry in enumerate(data):
        key = "expanders[%d]" % k
        if not isinstance(entry, dict):
            reader.problem(key, "must be a table ([[expanders]]), not %s" % describe(entry))
            continue
        kind = entry.get("type")
        if kind not in EXPANDER_TYPES:
            reader.problem(key + ".type", ("missing" if kind is None else
                                           "%r is not an expander type" % (kind,)) +
                           ": 74hc165 (shift registers that latch inputs, read over 3 pins) "
                           "or mcp23017 (16 inputs on the I2C bus)")
            continue
        fields = reader.table(entry, key, SHIFT_REGISTERS if kind == "74hc165" else IO_EXPANDER)
        if fields["name"] is not None and not NAME.match(fields["name"]):
            reader.problem(key + ".name", "%r is not a name (lower-case letters, digits, - or _,"
                                          " starting with a letter)" % fields["name"])
        if kind == "74hc165":
            reader.within(fields["chips"], 1, 8, key + ".chips", " chips")
            fields.setdefault("address", None)
        else:
            reader.within(fields["address"], 0x20, 0x27, key + ".address",
                          " (0x20..0x27: the MCP23017's A0-A2 pins)")
        required = [name for name, spec in (SHIFT_REGISTERS if kind == "74hc165"
                                            else IO_EXPANDER).items() if spec.required]
        if all(fields[name] is not None for name in required):
            fields.pop("type")
            out.append(Expander(type=kind, **fields))
    return out


# ---------------------------------------------------------------------------------------------
# Checking the board as a whole.

def check(profile: Profile) -> list[Problem]:
    """Every problem of a loaded profile's board, [] when it is buildable: the places and their
    LEDs, the sensors, every pin (on a board the profile has, existing and free, used once,
    where the software can drive it), the expanders, and the power budget; then, on a board
    otherwise sound, the noise budget: whether each place can count its seeds
    (`controller.hardware.noise`)."""
    problems: list[Problem] = []

    def problem(key: str, message: str) -> None:
        problems.append(Problem(profile.label, key, message))

    _check_leds(profile, problem)
    _check_sensors(profile, problem)
    _check_pins(profile, problem)
    _check_expanders(profile, problem)
    _check_power(profile, problem)
    if not problems:                # a board whose places are known: can they count its seeds?
        from controller.hardware import noise     # (which builds on this module)
        problems.extend(noise.problems(profile))
    return problems


def _check_leds(profile: Profile, problem) -> None:
    leds, parts = profile.leds, catalogue()
    if len(leds.places) != profile.places:
        problem("leds.places", "%d places given; a 2 x %d board has %d (%d pits, then South's "
                "and North's stores)" % (len(leds.places), profile.pits, profile.places,
                                          2 * profile.pits))
    owner: dict[int, int] = {}
    for place, (start, count) in enumerate(leds.places):
        key = "leds.places[%d]" % place
        what = place_words(place, profile.pits) if place < profile.places else "place"
        if count == 0:
            problem(key + ".count", "%s has no LEDs: every place must light" % what)
            continue
        ring = parts[leds.pit_part if place < 2 * profile.pits else leds.store_part]
        if place < profile.places and count != ring.leds:
            problem(key + ".count", "%s has %d LEDs, but its ring (%s) has %d" % (
                what, count, ring.key, ring.leds))
        for index in range(start, start + count):
            if index in owner:
                problem(key, "LED %d is given to %s and to %s" % (
                    index, place_words(owner[index], profile.pits), what))
                break
            owner[index] = place
    if owner and max(owner) + 1 != leds.length:
        problem("leds.length", "the strip is %d LEDs long, but the highest LED index given is "
                "%d: the length must be %d" % (leds.length, max(owner), max(owner) + 1))


def _check_sensors(profile: Profile, problem) -> None:
    want = KINDS[profile.kind][2]
    sensors = profile.sensors
    if sensors.kind != want:
        problem("sensors.kind", "a %s board uses %s sensing, not %s%s" % (
            profile.kind, want, sensors.kind,
            " (load cells need the Pico's PIO: use pico-bridge)" if want == "digital" else
            " (use pi-direct for digital sensors)"))
        return
    if sensors.kind == "load-cell":
        if len(sensors.channels) != profile.places:
            problem("sensors.data_pins", "%d data pins given; a 2 x %d board has %d places "
                    "(a load cell under every pit and store)" % (
                        len(sensors.channels), profile.pits, profile.places))
    elif len(sensors.channels) != 2 * profile.pits:
        problem("sensors.pins", "%d pins given; a 2 x %d board has %d pits (a sensor in "
                "every pit)" % (len(sensors.channels), profile.pits, 2 * profile.pits))


def _check_pins(profile: Profile, problem) -> None:
    have, core, _ = KINDS[profile.kind]
    expanders = {e.name: e for e in profile.expanders}
    hosts = {e.name: _expander_board(e, profile) for e in profile.expanders}
    # expanders that carry sensors must sit on the board that reads the sensors
    carriers = {e.name for e in profile.expanders
                if any(c.startswith(e.name + ".") for c in profile.sensors.channels)}
    used: dict[str, str] = {}
    asked: dict[str, int] = {board: 0 for board in BOARDS}
    for key, pin, _device, _terminal in profile.wires():
        section = key.split(".")[0].split("[")[0]
        if section == "expanders":
            carrier = profile.expanders[int(key[len("expanders["):key.index("]")])].name
        # on the board that reads the sensors and drives the LEDs (the Pico's PIO, or Blinka)
        needs_core = section in ("leds", "sensors") or (
            section == "expanders" and carrier in carriers) or (
            section == "i2c" and any(expanders[c].type == "mcp23017" for c in carriers))
        if PIN.match(pin):
            asked[board_of(pin).key] += 1
        if not PIN.match(pin):
            name, channel = pin.split(".", 1)
            expander = expanders.get(name)
            if expander is None:
                problem(key, "%s: there is no expander named %r (%s)" % (
                    pin, name, ", ".join(expanders) or "the profile declares none"))
                continue
            if pin not in expander.channels:
                problem(key, "%s: a %s has no input %r (%s)" % (
                    pin, _expander_title(expander), channel, _channel_span(expander)))
                continue
            if expander.type == "mcp23017" and channel.endswith("7"):
                problem(key, "%s: the MCP23017's GPA7 and GPB7 are outputs only (Microchip's "
                        "datasheet since 2022): use GPA0-GPA6 and GPB0-GPB6 for inputs" % pin)
            if name in carriers and hosts[name] is not None and hosts[name] != core:
                problem(key, "%s: the %s's inputs are read by the %s, but a %s board reads "
                        "its sensors on the %s" % (pin, name, BOARDS[hosts[name]].title,
                                                   profile.kind, BOARDS[core].title))
        else:
            board = board_of(pin)
            if board.key not in have:
                problem(key, "%s is a %s pin, but a %s board has no %s: use a %s pin (%s)" % (
                    pin, board.title, profile.kind, board.title,
                    BOARDS[have[0]].title, span(BOARDS[have[0]].usable)))
                continue
            reason = board.check(pin)
            if reason:
                problem(key, reason)
                continue
            if needs_core and board.key != core:
                problem(key, "%s is on the %s, but a %s board drives its LEDs and reads its "
                        "sensors on the %s" % (pin, board.title, profile.kind,
                                               BOARDS[core].title))
            if board.key == "pi" and pin in ("GPIO2", "GPIO3") and not key.startswith("i2c."):
                problem(key, "%s is the I2C bus (with 1.8 kΩ pull-ups on the Pi): use it only as "
                        "i2c.sda_pin / i2c.scl_pin" % pin)
            if key == "leds.data_pin" and board.key == "pi" and pin not in PI_NEOPIXEL_PINS:
                problem(key, "%s cannot drive NeoPixels: on a Raspberry Pi only %s can (PWM, "
                        "PCM or SPI)" % (pin, ", ".join(PI_NEOPIXEL_PINS)))
        if pin in used:
            problem(key, "%s is already used by %s" % (pin, used[pin]))
        else:
            used[pin] = key
    if profile.i2c:
        board = board_of(profile.i2c[0])
        if board is not None and board.key in I2C_PAIRS and tuple(profile.i2c) not in I2C_PAIRS[
                board.key]:
            problem("i2c", "%s / %s are not an I2C pair (SDA, SCL) of the %s: %s" % (
                profile.i2c[0], profile.i2c[1], board.title,
                ", ".join("%s/%s" % pair for pair in I2C_PAIRS[board.key])))
    for board_key in have:
        board = BOARDS[board_key]
        if asked[board_key] > len(board.usable):
            problem("sensors", "the profile asks %d pins of the %s, which has %d (%s): read the "
                    "sensors through expanders ([[expanders]]: 74HC165 shift registers latching "
                    "the HX711 data lines, or MCP23017s on I2C for digital sensors)" % (
                        asked[board_key], board.title, len(board.usable), span(board.usable)))


def _expander_board(expander: Expander, profile: Profile) -> str | None:
    """The board that reads an expander: the board of its pins (or of the I2C bus)."""
    pin = expander.data_pin if expander.type == "74hc165" else (
        profile.i2c[0] if profile.i2c else None)
    board = board_of(pin) if pin else None
    return board.key if board else None


def _expander_title(expander: Expander) -> str:
    if expander.type == "mcp23017":
        return "MCP23017"
    return "chain of %d 74HC165" % expander.chips


def _channel_span(expander: Expander) -> str:
    if expander.type == "mcp23017":
        return "GPA0-GPA7, GPB0-GPB7"
    return "%s.0-%s.%d" % (expander.name, expander.name, 8 * expander.chips - 1)


def _check_expanders(profile: Profile, problem) -> None:
    seen: dict[str, int] = {}
    addresses: dict[int, str] = {}
    channels = set(profile.sensors.channels) | set(profile.buttons.values())
    for k, expander in enumerate(profile.expanders):
        key = "expanders[%d]" % k
        if expander.name in seen:
            problem(key + ".name", "%r is also the name of expanders[%d]" % (
                expander.name, seen[expander.name]))
        seen[expander.name] = k
        if not any(c.startswith(expander.name + ".") for c in channels):
            problem(key, "%s (%s) is declared but none of its inputs is used" % (
                expander.name, _expander_title(expander)))
        if expander.type == "mcp23017":
            if profile.i2c is None:
                problem(key, "an MCP23017 sits on the I2C bus: declare it in [i2c] "
                        "(sda_pin, scl_pin)")
            if expander.address in addresses:
                problem(key + ".address", "0x%02X is also the address of %s" % (
                    expander.address, addresses[expander.address]))
            addresses[expander.address] = expander.name
    if profile.i2c and not addresses:
        problem("i2c", "an I2C bus is declared but no MCP23017 uses it")


# ---------------------------------------------------------------------------------------------
# The power budget.

# The HX711s' shared clock (PD_SCK) fans out through a 74LVC244A on 3V3 (so PD_SCK never rises
# above the HX711s' VDD): each of its 8 buffers drives one branch of up to CELLS_PER_BRANCH
# HX711 clock inputs through its own 100 Ohm series resistor, which damps the ringing of a long
# unterminated wire. One GPIO pin alone would drive 26 inputs and a metre of wire.
CELLS_PER_BRANCH = 4
BUFFERS_PER_CHIP = 8


class ClockFanout(NamedTuple):
    """How the HX711 clock is fanned out: `chips` 74LVC244As, `branches` buffered branches
    (one 100 Ohm resistor each), branch k clocking the places `groups[k]`."""

    chips: int
    branches: int
    groups: tuple[tuple[int, ...], ...]


def clock_fanout(profile: Profile) -> ClockFanout:
    """The clock buffer a load-cell board needs for its cell count (none for other boards).

        >>> clock_fanout(load("pico-bridge-2x12"))[:2]
        (1, 7)
    """
    if profile.sensors.kind != "load-cell":
        return ClockFanout(0, 0, ())
    cells = len(profile.sensors.channels)
    groups = tuple(tuple(range(start, min(start + CELLS_PER_BRANCH, cells)))
                   for start in range(0, cells, CELLS_PER_BRANCH))
    return ClockFanout(-(-len(groups) // BUFFERS_PER_CHIP), len(groups), groups)


class Load(NamedTuple):
    """A part's share of the budget: `count` of them at `ma_each`, from `rail` ("5V", or
    "3V3 pico" / "3V3 pi": a controller's 3.3 V pin, itself fed from the 5 V supply)."""

    what: str
    count: int
    ma_each: int
    rail: str

    @property
    def ma(self) -> int:
        return self.count * self.ma_each


@dataclass(frozen=True)
class Budget:
    """The worst case against the supply, in mA.

    The strip: every LED at full white (`full_white_ma`, 3 x MA_PER_CHANNEL each); the lit
    places at the brightness cap (`at_brightness_ma`); then the current cap, which the
    renderer enforces (`strip_ma`); plus the LEDs' own draw when dark (`idle_ma`), which no
    cap reduces. Then the rest (`loads`): controllers, HX711s and load cells (their analogue
    side and bridge on 5 V, their logic on the controller's 3V3), the clock buffer, sensors,
    chips, the buzzer."""

    leds: int
    lit: int
    full_white_ma: int
    brightness: int
    at_brightness_ma: int
    strip_max_ma: int
    strip_ma: int
    idle_ma: int
    loads: tuple[Load, ...]
    supply: Part
    supply_ma: int
    rails: tuple[tuple[str, int, int], ...]    # (board, mA drawn from its 3V3 pin, its limit)

    @property
    def others_ma(self) -> int:
        return sum(load.ma for load in self.loads)

    @property
    def total_ma(self) -> int:
        return self.strip_ma + self.idle_ma + self.others_ma

    @property
    def headroom_ma(self) -> int:
        return self.supply_ma - self.total_ma

    def as_dict(self) -> dict[str, Any]:
        return {
            "leds": self.leds, "lit_leds": self.lit, "full_white_ma": self.full_white_ma,
            "brightness": self.brightness, "at_brightness_ma": self.at_brightness_ma,
            "strip_max_ma": self.strip_max_ma, "strip_ma": self.strip_ma,
            "idle_ma": self.idle_ma,
            "loads": [{"what": l.what, "count": l.count, "ma_each": l.ma_each, "ma": l.ma,
                       "rail": l.rail} for l in self.loads],
            "total_ma": self.total_ma, "supply": self.supply.key,
            "supply_ma": self.supply_ma, "headroom_ma": self.headroom_ma,
            "rails": [{"board": board, "rail": "3V3", "ma": ma, "max_ma": limit}
                      for board, ma, limit in self.rails],
        }


def budget(profile: Profile) -> Budget:
    """The worst-case current of the board against its supply (see `Budget`)."""
    parts = catalogue()
    leds, power = profile.leds, profile.power
    lit = sum(count for _start, count in leds.places)
    per_led = 3 * MA_PER_CHANNEL                      # red, green and blue at 255
    at_brightness = lit * per_led * power.brightness // 256
    idle = leds.length * max(parts[leds.pit_part].idle_ma, parts[leds.store_part].idle_ma)
    core = KINDS[profile.kind][1]
    loads: list[Load] = []

    def add(part: Part, count: int, board: str, what: str = "") -> None:
        if part.ma:
            loads.append(Load(what or part.name.split(",")[0], count, part.ma, "5V"))
        if part.ma_3v3:
            loads.append(Load(what or part.name.split(",")[0], count, part.ma_3v3,
                              "3V3 " + board))

    for board in ("pi", "pico"):
        if board in profile.boards:
            add(parts[profile.boards[board]], 1, board)
    add(parts["74ahct125"], 1, core, "74AHCT125 level shifter")
    if profile.sensors.kind == "load-cell":
        # VCC (the analogue side and the bridge) from the 5 V supply, VDD (logic) from 3V3
        add(parts["hx711"], len(profile.sensors.channels), core, "HX711 and its load cell")
        add(parts["74lvc244a"], clock_fanout(profile).chips, core, "74LVC244A clock buffer")
    else:
        sensor = parts[profile.sensors.part]
        add(sensor, len(profile.sensors.channels), core, sensor.name.split(",")[0])
    for expander in profile.expanders:
        board = _expander_board(expander, profile) or core
        count = expander.chips if expander.type == "74hc165" else 1
        add(parts[expander.type], count, board,
            "74HC165 (%s)" % expander.name if expander.type == "74hc165"
            else "MCP23017 (%s)" % expander.name)
    buzzer_board = board_of(profile.buzzer_pin)
    add(parts[profile.buzzer_part], 1, buzzer_board.key if buzzer_board else core, "buzzer")
    rails = []
    for board in ("pi", "pico"):
        if board in profile.boards:
            drawn = sum(l.ma for l in loads if l.rail == "3V3 " + board)
            rails.append((board, drawn, parts[profile.boards[board]].rail_3v3_ma))
    return Budget(
        leds=leds.length, lit=lit, full_white_ma=leds.length * per_led,
        brightness=power.brightness, at_brightness_ma=at_brightness,
        strip_max_ma=power.strip_max_ma, strip_ma=min(at_brightness, power.strip_max_ma),
        idle_ma=idle, loads=tuple(loads), supply=parts[power.supply],
        supply_ma=power.supply_ma, rails=tuple(rails))


def _check_power(profile: Profile, problem) -> None:
    figures = budget(profile)
    rated = figures.supply.supply_ma
    if profile.power.supply_ma > rated:
        problem("power.supply_ma", "%d mA, but the %s %s gives at most %d mA" % (
            profile.power.supply_ma, figures.supply.maker, figures.supply.number, rated))
    if figures.total_ma > figures.supply_ma:
        room = figures.supply_ma - figures.idle_ma - figures.others_ma
        problem("power.strip_max_ma", "the worst case is %d mA (strip %d mA at the cap + %d mA "
                "idle + %d mA for the rest), more than the supply's %d mA: %s" % (
                    figures.total_ma, figures.strip_ma, figures.idle_ma, figures.others_ma,
                    figures.supply_ma,
                    "lower the strip's cap to %d mA or less, or fit a bigger supply" % room
                    if room > 0 else "fit a bigger supply"))
    for board, drawn, limit in figures.rails:
        if drawn > limit:
            problem(board, "the %s's 3.3 V pin would give %d mA (HX711s, chips, buzzer), more "
                    "than its %d mA: feed them from a 3.3 V regulator of their own" % (
                        BOARDS[board].title, drawn, limit))
