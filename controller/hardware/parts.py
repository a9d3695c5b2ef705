"""The parts catalogue (`hardware/parts.toml`): what a profile's parts are, what to order, and
the currents the power budget adds up (host-only).

    >>> part = catalogue()["hx711"]
    >>> part.maker, part.number, part.ma, part.ma_3v3, part.price_usd
    ('SparkFun', 'SEN-13879', 6, 1, 9.95)
    >>> ring = catalogue()["neopixel-ring-12"]
    >>> ring.outer_mm, ring.inner_mm
    (37.0, 23.0)
    >>> cell, seed = catalogue()["load-cell-5kg"], catalogue()["seed-ball-12.7"]
    >>> cell.rated_output_mv_v, cell.rated_output_tol_mv_v, seed.mass_g, seed.mass_cv
    (1.0, 0.15, 8.4, 0.0006)

Load cells carry their rated output, the amplifier its excitation and noise, and seeds their
mass, mass spread and size, each figure with its source: the noise budget
(`controller.hardware.noise`) is made of them.

Sizes (mm) and prices (US dollars, estimates: see the file's head) are numbers; every part has a
price and says where it comes from (`price_source`), and the parts the drawings place have the
sizes they need (a ring its diameters, a load cell its bar and hole pattern, a button its body).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from controller.hardware.problems import Reader, Spec, describe, display, read_toml

# hardware/ (profiles, parts, wiring, the cup's model): through the link beside this module,
# which a wheel carries as package data; the checkout's folder itself on a file system that
# keeps no links (git then writes the link as a small file)
HARDWARE = Path(__file__).resolve().parent / "shipped"
if not HARDWARE.is_dir():
    HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
PARTS_FILE = HARDWARE / "parts.toml"

ROLES = ("pico", "pi", "led-ring", "level-shifter", "buffer", "resistor", "capacitor",
         "load-cell", "amplifier", "digital-sensor", "shift-register", "io-expander", "button",
         "buzzer", "supply", "connector", "fuse", "fuse-holder", "diode", "cable", "seed")


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
    price_usd: float = 0.0        # one unit (or pack), list price: an estimate
    price_source: str = ""
    outer_mm: float = 0.0         # LED rings
    inner_mm: float = 0.0
    length_mm: float = 0.0        # load cells: the bar ...
    width_mm: float = 0.0
    height_mm: float = 0.0
    holes_per_end: int = 0        # ... and its holes
    hole_spacing_mm: float = 0.0
    hole_inset_mm: float = 0.0
    fixed_thread: str = ""
    free_thread: str = ""
    body_mm: float = 0.0          # a square switch
    size_source: str = ""
    rated_output_mv_v: float = 0.0        # load cells: output at capacity, mV per V ...
    rated_output_tol_mv_v: float = 0.0    # ... give or take this
    rated_output_source: str = ""
    excitation_v: float = 0.0             # the amplifier: bridge excitation (= its AVDD)
    noise_nv_10sps: float = 0.0           # input-referred rms noise at gain 128, datasheet
    noise_nv_80sps: float = 0.0
    noise_source: str = ""
    measured_noise_free_bits: int = 0     # a published measurement with a load cell
    measured_noise_source: str = ""
    mass_g: float = 0.0                   # seeds: one seed's mass ...
    mass_source: str = ""
    mass_cv: float = 0.0                  # ... and its relative standard deviation
    mass_cv_source: str = ""
    diameter_mm: float = 0.0


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
    "price_usd": Spec("number", True, "one unit's (or one pack's) list price in US dollars"),
    "price_source": Spec("str", True, "where the price comes from and when"),
    "outer_mm": Spec("number", False, "a ring's outer diameter, mm"),
    "inner_mm": Spec("number", False, "a ring's inner diameter, mm"),
    "length_mm": Spec("number", False, "a load cell's length, mm"),
    "width_mm": Spec("number", False, "a load cell's width, mm"),
    "height_mm": Spec("number", False, "a load cell's height, mm"),
    "holes_per_end": Spec("int", False, "a load cell's mounting holes at each end (1 or 2)"),
    "hole_spacing_mm": Spec("number", False, "between the two holes at one end, mm"),
    "hole_inset_mm": Spec("number", False, "from the bar's end to its nearest hole's centre, mm"),
    "fixed_thread": Spec("str", False, "the thread of the holes at the fixed end, e.g. M5"),
    "free_thread": Spec("str", False, "the thread of the holes at the free end, e.g. M4"),
    "body_mm": Spec("number", False, "a square switch's body, mm"),
    "size_source": Spec("str", False, "the datasheet or drawing the sizes come from"),
    "rated_output_mv_v": Spec("number", False, "a load cell's rated output at capacity, mV/V"),
    "rated_output_tol_mv_v": Spec("number", False, "the rated output's tolerance, mV/V"),
    "rated_output_source": Spec("str", False, "the datasheet the rated output comes from"),
    "excitation_v": Spec("number", False, "the amplifier's bridge excitation (its AVDD), V"),
    "noise_nv_10sps": Spec("number", False, "input-referred rms noise at 10 samples/s, nV"),
    "noise_nv_80sps": Spec("number", False, "input-referred rms noise at 80 samples/s, nV"),
    "noise_source": Spec("str", False, "the datasheet the noise figures come from"),
    "measured_noise_free_bits": Spec("int", False, "noise-free bits measured on a real board "
                                                   "with a load cell"),
    "measured_noise_source": Spec("str", False, "where that measurement was published"),
    "mass_g": Spec("number", False, "one seed's mass, g"),
    "mass_source": Spec("str", False, "where the seed's mass comes from"),
    "mass_cv": Spec("number", False, "the relative standard deviation of one seed's mass "
                                     "(0.01 = 1%)"),
    "mass_cv_source": Spec("str", False, "where the mass spread comes from"),
    "diameter_mm": Spec("number", False, "a seed's diameter, mm"),
}
SIZES = ("outer_mm", "inner_mm", "length_mm", "width_mm", "height_mm", "hole_spacing_mm",
         "hole_inset_mm", "body_mm", "rated_output_mv_v", "excitation_v", "noise_nv_10sps",
         "noise_nv_80sps", "mass_g", "mass_cv", "diameter_mm")      # more than 0 when given
REQUIRED_BY_ROLE = {
    "led-ring": ("leds", "outer_mm", "inner_mm", "size_source"),
    "load-cell": ("capacity_g", "length_mm", "width_mm", "height_mm", "holes_per_end",
                  "hole_spacing_mm", "hole_inset_mm", "fixed_thread", "free_thread",
                  "size_source", "rated_output_mv_v", "rated_output_tol_mv_v",
                  "rated_output_source"),
    "amplifier": ("excitation_v", "noise_nv_10sps", "noise_nv_80sps", "noise_source",
                  "measured_noise_free_bits", "measured_noise_source"),
    "seed": ("mass_g", "mass_source", "mass_cv", "mass_cv_source", "diameter_mm",
             "size_source"),
    "button": ("body_mm",),
    "supply": ("supply_ma",), "pico": ("rail_3v3_ma",), "pi": ("rail_3v3_ma",)}


class _CatalogueReader(Reader):
    """A Reader that also knows `number`: a whole or decimal number (a size, a price)."""

    def value(self, value: Any, kind: str, key: str) -> Any:
        if kind != "number":
            return super().value(value, kind, key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.problem(key, "must be a number, not %s" % describe(value))
            return None
        return float(value)


def read_catalogue(path: Path) -> dict[str, Part]:
    """Every part of a catalogue file, checked; a ProfileError naming file and key otherwise."""
    data = read_toml(path)
    reader = _CatalogueReader(display(path))
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
            if SPEC[name].kind == "number" and value is not None and (
                    value < 0 or (value == 0 and name in SIZES and name != "hole_spacing_mm")):
                reader.problem("%s.%s" % (key, name), "must be more than 0, not %s" % value)
        if (fields["holes_per_end"] is not None
                and fields["holes_per_end"] not in (1, 2)):
            reader.problem(key + ".holes_per_end", "a load cell has 1 or 2 holes at each end, "
                           "not %d" % fields["holes_per_end"])
        if fields["mass_cv"] is not None and fields["mass_cv"] >= 1:
            reader.problem(key + ".mass_cv", "a relative standard deviation: 0.01 is 1%%, "
                           "not %s" % fields["mass_cv"])
        if (fields["rated_output_tol_mv_v"] is not None and fields["rated_output_mv_v"]
                is not None and fields["rated_output_tol_mv_v"] >= fields["rated_output_mv_v"]):
            reader.problem(key + ".rated_output_tol_mv_v", "the tolerance (%s mV/V) must be less "
                           "than the rated output (%s mV/V)" % (
                               fields["rated_output_tol_mv_v"], fields["rated_output_mv_v"]))
        if (fields["measured_noise_free_bits"] is not None
                and not 1 <= fields["measured_noise_free_bits"] <= 24):
            reader.problem(key + ".measured_noise_free_bits", "a 24-bit converter has 1..24 "
                           "noise-free bits, not %d" % fields["measured_noise_free_bits"])
        if (fields["outer_mm"] is not None and fields["inner_mm"] is not None
                and fields["inner_mm"] >= fields["outer_mm"]):
            reader.problem(key + ".inner_mm", "the inner diameter (%s mm) must be less than the "
                           "outer (%s mm)" % (fields["inner_mm"], fields["outer_mm"]))
        if not reader.problems:
            parts[key] = Part(key=key, **{k: v for k, v in fields.items() if v is not None})
    reader.fail_if_any()
    return parts


@cache
def catalogue() -> dict[str, Part]:
    """The shipped catalogue, `hardware/parts.toml`, read once."""
    return read_catalogue(PARTS_FILE)
