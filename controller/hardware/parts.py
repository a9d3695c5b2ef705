"""The parts catalogue (`hardware/parts.toml`): what a profile's parts are, what to order, and
the currents the power budget adds up (host-only).

    >>> part = catalogue()["hx711"]
    >>> part.maker, part.number, part.ma_3v3
    ('SparkFun', 'SEN-13879', 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from controller.hardware.problems import Reader, Spec, display, read_toml

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
PARTS_FILE = HARDWARE / "parts.toml"

ROLES = ("pico", "pi", "led-ring", "level-shifter", "resistor", "capacitor", "load-cell",
         "amplifier", "digital-sensor", "shift-register", "io-expander", "button", "buzzer",
         "supply", "diode", "cable")


@dataclass(frozen=True)
class Part:
    """One catalogue entry. Currents are worst-case budgets in mA: `ma` from the 5 V supply,
    `ma_3v3` from the controller's 3.3 V pin."""

    key: str
    role: str
    name: str
    maker: str
    number: str
    ma: int = 0
    ma_3v3: int = 0
    leds: int = 0
    idle_ma: int = 0
    capacity_g: int = 0
    supply_ma: int = 0
    rail_3v3_ma: int = 0
    pack: int = 1


SPEC = {
    "role": Spec("str", True, "what the part is for (%s)" % ", ".join(ROLES)),
    "name": Spec("str", True, "what a person asks for"),
    "maker": Spec("str", True, "who makes or sells it"),
    "number": Spec("str", True, "the maker's part number"),
    "ma": Spec("int", False, "mA from the 5 V supply"),
    "ma_3v3": Spec("int", False, "mA from the controller's 3.3 V pin"),
    "leds": Spec("int", False, "LEDs on a ring"),
    "idle_ma": Spec("int", False, "mA per LED with the LEDs dark"),
    "capacity_g": Spec("int", False, "a load cell's capacity in grams"),
    "supply_ma": Spec("int", False, "the current a supply gives, mA"),
    "rail_3v3_ma": Spec("int", False, "the most a controller's 3.3 V pin gives, mA"),
    "pack": Spec("int", False, "parts in one pack"),
}
REQUIRED_BY_ROLE = {"led-ring": ("leds",), "load-cell": ("capacity_g",),
                    "supply": ("supply_ma",), "pico": ("rail_3v3_ma",), "pi": ("rail_3v3_ma",)}


def read_catalogue(path: Path) -> dict[str, Part]:
    """Every part of a catalogue file, checked; a ProfileError naming file and key otherwise."""
    data = read_toml(path)
    reader = Reader(display(path))
    parts: dict[str, Part] = {}
    for key, entry in data.items():
        if not isinstance(entry, dict):
            reader.problem(key, "must be a table of the part's keys, not a single value")
            continue
        fields = reader.table(entry, key, SPEC)
        if fields["role"] is not None and fields["role"] not in ROLES:
            reader.problem(key + ".role", "%r is not a role (%s)" % (
                fields["role"], ", ".join(ROLES)))
        for name in REQUIRED_BY_ROLE.get(fields["role"], ()):
            if fields[name] is None and name in SPEC:
                reader.problem("%s.%s" % (key, name), "missing: a %s part needs %s" % (
                    fields["role"], SPEC[name].what))
        for name, value in fields.items():
            if SPEC[name].kind == "int" and value is not None:
                reader.within(value, 1 if name == "pack" else 0, None, "%s.%s" % (key, name))
        if not reader.problems:
            parts[key] = Part(key=key, **{k: v for k, v in fields.items() if v is not None})
    reader.fail_if_any()
    return parts


@cache
def catalogue() -> dict[str, Part]:
    """The shipped catalogue, `hardware/parts.toml`, read once."""
    return read_catalogue(PARTS_FILE)
