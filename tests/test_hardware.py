"""Board profiles (hardware/profiles), their checker and power budget, the wiring diagrams and
the bills of materials, and `layli hardware`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller import cli
from controller.guide.frame import STEADY, Frame
from controller.guide.pixels import render
from controller.hardware import ProfileError, budget, check, load, shipped
from controller.hardware.bom import bill
from controller.hardware.parts import PARTS_FILE, catalogue, read_catalogue
from controller.hardware.profile import PROFILES
from controller.hardware.wiring import svg
from controller.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent

WIRING = PROFILES.parent / "wiring"
NAMES = [kind + size for kind in ("pico-bridge-", "pi-direct-", "pico-standalone-")
         for size in ("2x6", "2x7", "2x12")]


def layli(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(["hardware", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def variant(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    """A copy of shipped profile `name` with each (old, new) text replaced exactly once."""
    text = (PROFILES / (name + ".toml")).read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / ("broken-" + name + ".toml")
    path.write_text(text)
    return path


# --- the shipped profiles --------------------------------------------------------------------

def test_nine_profiles_ship_three_sizes_in_each_kind():
    assert sorted(shipped()) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_shipped_profile_loads_and_passes_the_checker(name, capsys):
    profile = load(name)
    assert check(profile) == []
    pits = int(name.rsplit("x", 1)[1])
    assert profile.pits == pits and profile.places == 2 * pits + 2
    assert len(profile.leds.places) == profile.places
    figures = budget(profile)
    assert figures.total_ma <= figures.supply_ma
    status, out, err = layli(capsys, "check", name)
    assert status == 0 and err == "" and out.startswith("%s: ok" % name)
    assert "power budget" in out and "headroom" in out


def test_pins_are_counted_and_the_big_boards_use_expanders():
    assert len(load("pico-bridge-2x6").pins()) == 21          # 14 data, clock, LED, 4, buzzer
    assert len(load("pico-bridge-2x7").pins()) == 23
    big = load("pico-standalone-2x12")
    assert [e.type for e in big.expanders] == ["74hc165"] and big.expanders[0].chips == 4
    assert len(big.pins()) == 10                    # LED, clock, 3 for the chain, 5
    pi = load("pi-direct-2x12")
    assert [(e.type, e.address) for e in pi.expanders] == [("mcp23017", 0x20), ("mcp23017", 0x21)]
    assert pi.i2c == ("GPIO2", "GPIO3")


def test_the_led_layout_is_the_guides_and_the_strip_snakes_round_the_board():
    profile = load("pico-bridge-2x6")
    layout = profile.led_layout()
    assert layout.count == 176 and layout.brightness == 64 and layout.max_ma == 2000
    assert layout.leds[0] == list(range(0, 12))               # South 1 starts the strip
    assert layout.leds[12] == list(range(72, 88))             # South's store after South 6
    assert layout.leds[6] == list(range(88, 100))             # then North 1 ... North 6
    assert layout.leds[13] == list(range(160, 176))           # North's store ends it
    frame = Frame(profile.places)
    frame.set(12, "south", STEADY)
    lit = [i for i, rgb in enumerate(render(frame, layout, 0)) if rgb != (0, 0, 0)]
    assert lit == list(range(72, 88))


def test_as_dict_is_plain_json_for_the_firmware():
    data = load("pico-standalone-2x12").as_dict()
    assert json.loads(json.dumps(data)) == data
    assert list(data)[:4] == ["name", "profile", "title", "pits"]
    assert data["leds"]["places"][0] == [0, 12] and data["leds"]["data_pin"] == "GP22"
    assert data["sensors"]["data_pins"][:2] == ["sr.0", "sr.1"]
    assert data["expanders"] == [{"name": "sr", "type": "74hc165", "chips": 4, "load_pin": "GP3",
                                  "clock_pin": "GP4", "data_pin": "GP5"}]
    assert data["buttons"] == {"new_game": "GP19", "undo": "GP20", "hint": "GP21",
                               "confirm": "GP26"}


# --- broken profiles: clear messages, exit status 2 ------------------------------------------

BROKEN = [
    ("pin used twice", "pico-standalone-2x6", [('undo = "GP20"', 'undo = "GP19"')],
     "buttons.undo", "GP19 is already used by buttons.new_game"),
    ("a pin that does not exist", "pico-standalone-2x6", [('pin = "GP27"', 'pin = "GP29"')],
     "buzzer.pin", "GP29 is not on the Pico header"),
    ("a pin number past the header", "pi-direct-2x6", [('pin = "GPIO26"', 'pin = "GPIO40"')],
     "buzzer.pin", "GPIO40 does not exist on the Raspberry Pi"),
    ("a Pi pin on a Pico-only board", "pico-standalone-2x6",
     [('hint = "GP21"', 'hint = "GPIO21"')],
     "buttons.hint", "a pico-standalone board has no Raspberry Pi"),
    ("the serial console's pin", "pi-direct-2x6", [('undo = "GPIO6"', 'undo = "GPIO14"')],
     "buttons.undo", "serial console"),
    ("a Pi pin that cannot drive NeoPixels", "pi-direct-2x6",
     [('data_pin = "GPIO18"', 'data_pin = "GPIO11"')],
     "leds.data_pin", "GPIO11 cannot drive NeoPixels"),
    ("an LED index given twice", "pico-standalone-2x6",
     [("{ start = 12, count = 12 },", "{ start = 11, count = 12 },")],
     "leds.places[1]", "LED 11 is given to South's pit 1 and to South's pit 2"),
    ("a place without LEDs", "pico-standalone-2x6",
     [("{ start = 24, count = 12 },", "{ start = 24, count = 0 },")],
     "leds.places[2].count", "South's pit 3 has no LEDs"),
    ("a strip of the wrong length", "pico-standalone-2x6", [("length = 176", "length = 180")],
     "leds.length", "the length must be 176"),
    ("a ring of the wrong size", "pico-standalone-2x6",
     [("{ start = 160, count = 16 },", "{ start = 160, count = 12 },"),
      ("length = 176", "length = 172")],
     "leds.places[13].count", "North's store has 12 LEDs, but its ring (led-arc-16) has 16"),
    ("too much current", "pico-standalone-2x6", [("supply_ma = 4000", "supply_ma = 2000")],
     "power.strip_max_ma", "more than the supply's 2000 mA"),
    ("a supply asked for more than it gives", "pico-standalone-2x6",
     [("supply_ma = 4000", "supply_ma = 5000")],
     "power.supply_ma", "5000 mA, but the Adafruit 1466 gives at most 4000 mA"),
    ("an unknown key", "pico-standalone-2x6", [('part = "piezo-buzzer"',
                                                'part = "piezo-buzzer"\nvolume = 11')],
     "buzzer.volume", "unknown key"),
    ("a misspelt key", "pico-standalone-2x6", [("brightness = 64", "brightnes = 64")],
     "power.brightnes", "did you mean brightness?"),
    ("a value of the wrong type", "pico-standalone-2x6", [("pits = 6 ", 'pits = "6" ')],
     "pits", "must be a whole number, not the string '6'"),
    ("a missing key", "pico-standalone-2x6", [('order = "GRB"', "")],
     "leds.order", "missing: the colour order"),
    ("a brightness out of range", "pico-standalone-2x6", [("brightness = 64", "brightness = 300")],
     "power.brightness", "must be 1..256 (of 256), not 300"),
    ("a part not in the catalogue", "pico-standalone-2x6",
     [('pit_part = "load-cell-1kg"', 'pit_part = "load-cell-3kg"')],
     "sensors.pit_part", "'load-cell-3kg' is not in the parts catalogue"),
    ("a part in the wrong role", "pico-standalone-2x6",
     [('pit_part = "led-arc-12"', 'pit_part = "hx711"')],
     "leds.pit_part", "'hx711' is a amplifier, not a led-ring"),
    ("not a pin name", "pico-standalone-2x6", [('clock_pin = "GP2"', 'clock_pin = "D2"')],
     "sensors.clock_pin", "'D2' is not a pin: write GP<n>"),
    ("an input of an expander that is not there", "pico-standalone-2x12",
     [('"sr.0",', '"sr.40",')],
     "sensors.data_pins[0]", "sr.40: a chain of 4 74HC165 has no input '40'"),
    ("an MCP23017 output-only pin as an input", "pi-direct-2x12",
     [('"south.GPA5",', '"south.GPA7",')],
     "sensors.pins[5]", "GPA7 and GPB7 are outputs only"),
    ("two MCP23017 at one address", "pi-direct-2x12",
     [("address = 0x21", "address = 0x20")],
     "expanders[1].address", "0x20 is also the address of south"),
    ("load cells on a Pi alone", "pi-direct-2x6", [('kind = "digital"', 'kind = "load-cell"')],
     "sensors.pit_part", "missing"),
]


@pytest.mark.parametrize("why, name, edits, key, words", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_profile_names_file_key_and_problem_and_exits_2(tmp_path, capsys, why, name,
                                                                 edits, key, words):
    path = variant(tmp_path, name, *edits)
    status, out, err = layli(capsys, "check", str(path))
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert lines and all(line.startswith("layli: error: %s: " % path) for line in lines), err
    assert any(line.startswith("layli: error: %s: %s: " % (path, key)) and words in line
               for line in lines), err


def test_too_many_pins_without_an_expander_is_counted(tmp_path, capsys):
    # the 2 x 12 Pico board with its 26 HX711 data lines on the Pico itself
    text = (PROFILES / "pico-standalone-2x12.toml").read_text()
    text = text[:text.index("[[expanders]]")] + text[text.index("[power]"):]
    direct = ", ".join('"GP%d"' % n for n in list(range(0, 2)) + list(range(3, 19))
                       + list(range(22, 30)))
    text = re.sub(r"data_pins = \[[^\]]*\]", "data_pins = [%s]" % direct, text)
    path = tmp_path / "crowded.toml"
    path.write_text(text)
    status, _out, err = layli(capsys, "check", str(path))
    assert status == 2
    assert ("%s: sensors: the profile asks 33 pins of the Pico, which has 26 (GP0-GP22, "
            "GP26-GP28): read the sensors through expanders" % path) in err


def test_many_problems_are_all_listed(tmp_path, capsys):
    path = variant(tmp_path, "pico-standalone-2x6", ('undo = "GP20"', 'undo = "GP19"'),
                   ("length = 176", "length = 180"), ("supply_ma = 4000", "supply_ma = 2000"))
    with pytest.raises(ProfileError):
        raise ProfileError(check(load(path)))
    assert len(check(load(path))) == 3
    status, _out, err = layli(capsys, "check", str(path), "--json")
    assert status == 2 and len(err.splitlines()) == 3


def test_broken_toml_unknown_names_and_missing_files(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("pits = 6\n[leds\n")
    status, _out, err = layli(capsys, "check", str(path))
    assert status == 2 and "%s: not valid TOML" % path in err and "line 2" in err
    status, _out, err = layli(capsys, "check", "pico-bridge-2x5")
    assert status == 2 and "no shipped profile of that name" in err and "pico-bridge-2x6" in err
    status, _out, err = layli(capsys, "wiring", str(tmp_path / "absent.toml"))
    assert status == 2 and "absent.toml: no such file" in err


def test_check_json_reports_problems_too(tmp_path, capsys):
    path = variant(tmp_path, "pico-standalone-2x6", ('undo = "GP20"', 'undo = "GP19"'))
    status, out, _err = layli(capsys, "check", str(path), "--json")
    data = json.loads(out)
    assert status == 2 and data["ok"] is False
    assert data["problems"] == [{"path": str(path), "key": "buttons.undo",
                                 "message": "GP19 is already used by buttons.new_game"}]


# --- the power budget ------------------------------------------------------------------------

def test_the_budget_of_a_hand_worked_board(tmp_path, capsys):
    # pico-standalone 2 x 6 at half brightness with a 3 A cap for the strip:
    #   176 LEDs x 60 mA = 10560 mA at full white
    #   x 128/256 = 5280 mA at the brightness cap; the cap makes it 3000 mA
    #   176 LEDs x 1 mA when dark = 176 mA
    #   Pico 50 + 74AHCT125 1 + 14 HX711s' VCC x 6 (HX711 1.5 mA, Avia's datasheet, + a 1 kOhm
    #   bridge at the breakout's regulated 4.3 V, SparkFun's schematic) + their VDD 14 x 1
    #   + the 74LVC244A clock buffer 1 + buzzer 5 = 155 mA (20 of them from the 3V3 pin)
    #   total 3000 + 176 + 155 = 3331 mA of the supply's 4000: 669 mA headroom
    path = variant(tmp_path, "pico-standalone-2x6", ("brightness = 64", "brightness = 128"),
                   ("strip_max_ma = 2000", "strip_max_ma = 3000"))
    figures = budget(load(path))
    assert (figures.full_white_ma, figures.at_brightness_ma, figures.strip_ma,
            figures.idle_ma, figures.others_ma) == (10560, 5280, 3000, 176, 155)
    assert (figures.total_ma, figures.supply_ma, figures.headroom_ma) == (3331, 4000, 669)
    assert figures.rails == (("pico", 20, 300),)
    status, out, _err = layli(capsys, "check", str(path), "--json")
    data = json.loads(out)["budget"]
    assert status == 0 and data["total_ma"] == 3331 and data["headroom_ma"] == 669
    assert [(l["what"], l["count"], l["ma"], l["rail"]) for l in data["loads"]] == [
        ("Raspberry Pi Pico H (RP2040)", 1, 50, "5V"), ("74AHCT125 level shifter", 1, 1, "5V"),
        ("HX711 and its load cell", 14, 84, "5V"), ("HX711 and its load cell", 14, 14, "3V3 pico"),
        ("74LVC244A clock buffer", 1, 1, "3V3 pico"), ("buzzer", 1, 5, "3V3 pico")]


def test_the_hx711s_analogue_side_is_on_5_v_and_only_their_logic_on_3v3():
    # the 2 x 12 bridge board: 26 HX711s, their VCC (6 mA each) from the supply's 5 V
    figures = budget(load("pico-bridge-2x12"))
    hx711 = {l.rail: l.ma for l in figures.loads if l.what.startswith("HX711")}
    assert hx711 == {"5V": 26 * 6, "3V3 pico": 26 * 1}
    # the Pico's 3V3: 26 HX711s' logic, the clock buffer, 4 74HC165s, the buzzer
    assert dict((b, ma) for b, ma, _ in figures.rails)["pico"] == 26 + 1 + 4 + 5


@pytest.mark.parametrize("name", NAMES)
def test_every_shipped_board_keeps_its_worst_case_under_80_percent_of_its_supply(name):
    figures = budget(load(name))
    assert figures.total_ma <= 0.8 * figures.supply_ma, (figures.total_ma, figures.supply_ma)
    supply = catalogue()[load(name).power.supply]
    assert "screw terminals" not in supply.name and "plug" in supply.name


def test_the_checker_refuses_a_supply_too_small_for_the_board(tmp_path, capsys):
    # the 2 x 12 bridge board on the 4 A brick: 2900 + 320 + 1543 = 4763 mA
    path = variant(tmp_path, "pico-bridge-2x12",
                   ('supply = "supply-5v-6a"', 'supply = "supply-5v-4a"'),
                   ("supply_ma = 6000", "supply_ma = 4000"))
    status, out, err = layli(capsys, "check", str(path))
    assert status == 2 and out == ""
    assert ("%s: power.strip_max_ma: the worst case is 4763 mA (strip 2900 mA at the cap + "
            "320 mA idle + 1543 mA for the rest), more than the supply's 4000 mA: lower the "
            "strip's cap to 2137 mA or less, or fit a bigger supply" % path) in err


def test_below_its_cap_the_strip_counts_at_the_brightness_cap():
    figures = budget(load("pi-direct-2x6"))
    # 176 x 60 x 64 / 256 = 2640 mA, over the 2000 mA cap; a Pi 1300, 12 beams x 20, ...
    assert figures.strip_ma == 2000 and figures.total_ma == 2000 + 176 + 1300 + 1 + 240 + 5


# --- wiring diagrams -------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_the_wiring_diagram_is_svg_that_names_every_pin_and_is_committed(name):
    profile = load(name)
    text = svg(profile)
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    words = " ".join("".join(node.itertext()) for node in root.iter(
        "{http://www.w3.org/2000/svg}text"))
    for wire in profile.wires():
        assert re.search(r"(?<![\w.])%s(?![\w])" % re.escape(wire.pin), words), wire
    for place in ("S1", "N1", "S store", "N store"):
        assert place in words
    committed = WIRING / (name + ".svg")
    assert committed.read_text() == text, (
        "%s is stale: run `layli hardware wiring %s -o %s`" % (committed, name, committed))


def test_wiring_writes_a_file(tmp_path, capsys):
    path = tmp_path / "board.svg"
    status, out, _err = layli(capsys, "wiring", "pi-direct-2x7", "-o", str(path))
    assert status == 0 and out == "wrote %s\n" % path
    assert path.read_text() == svg(load("pi-direct-2x7"))


# --- bills of materials ----------------------------------------------------------------------

def quantities(name: str) -> dict[str, int]:
    return {line.part.key: line.quantity for line in bill(load(name))}


def test_the_bill_of_materials_follows_the_profile(capsys):
    small = quantities("pico-bridge-2x6")
    assert small["hx711"] == 14 and small["load-cell-1kg"] == 12 and small["load-cell-5kg"] == 2
    assert small["led-arc-12"] == 12 and small["led-arc-16"] == 2
    assert small["raspberry-pi-pico"] == 1 and small["raspberry-pi-4b-2gb"] == 1
    assert small["usb-a-micro-b"] == 1 and small["tactile-button-12mm"] == 4
    assert "74hc165" not in small and small["capacitor-100nf"] == 2      # 74AHCT125, 74LVC244A
    long = quantities("pico-standalone-2x12")
    assert long["hx711"] == 26 and long["74hc165"] == 4 and long["capacitor-100nf"] == 6
    assert "raspberry-pi-4b-2gb" not in long and long["schottky-1n5817"] == 1
    beams = quantities("pi-direct-2x12")
    assert beams["ir-break-beam"] == 24 and beams["mcp23017"] == 2 and "hx711" not in beams
    assert quantities("pico-bridge-2x7")["hx711"] == 16
    status, out, _err = layli(capsys, "bom", "pico-bridge-2x6", "--json")
    lines = {line["part"]: line for line in json.loads(out)["parts"]}
    assert status == 0 and lines["hx711"]["quantity"] == 14
    assert lines["hx711"]["maker"] == "SparkFun" and lines["hx711"]["number"] == "SEN-13879"
    assert lines["tactile-button-12mm"]["order"] == 1       # one pack of 10 buttons
    status, out, _err = layli(capsys, "bom", "pico-bridge-2x6")
    assert status == 0 and "  14  SparkFun" in out


@pytest.mark.parametrize("name", NAMES)
def test_the_bill_is_priced_and_its_total_is_the_sum_of_its_lines(name, capsys):
    status, out, _err = layli(capsys, "bom", name, "--json")
    data = json.loads(out)
    parts = catalogue()
    assert status == 0 and "estimates" in data["prices"]
    for line in data["parts"]:
        part = parts[line["part"]]
        assert line["unit_price_usd"] == part.price_usd and line["price_source"]
        assert line["price_usd"] == round(line["order"] * part.price_usd, 2)
    assert data["total_usd"] == round(sum(line["order"] * parts[line["part"]].price_usd
                                          for line in data["parts"]), 2)
    status, out, _err = layli(capsys, "bom", name)
    total = [row for row in out.splitlines() if " total " in row]
    assert len(total) == 1 and "%.2f" % data["total_usd"] in total[0]
    # a part without a price shows none (never 0.00), and the total says how many
    unpriced = [line for line in data["parts"] if not line["unit_price_usd"]]
    assert data["unpriced_lines"] == len(unpriced)
    if unpriced:
        assert "%d lines not priced" % len(unpriced) in total[0]
        row = next(row for row in out.splitlines() if unpriced[0]["name"] in row)
        assert " - " in row and " 0.00 " not in row

def test_load_cell_boards_buffer_the_hx711_clock_and_count_it_from_their_cells():
    # 8 buffers to a 74LVC244A, 4 HX711 clock inputs to a buffer, a 100 Ohm resistor each
    for name, cells in (("pico-bridge-2x6", 14), ("pico-bridge-2x7", 16),
                        ("pico-standalone-2x12", 26)):
        count = quantities(name)
        branches = -(-cells // 4)
        assert count["resistor-100"] == branches and count["74lvc244a"] == -(-branches // 8)
        assert count["capacitor-100nf"] == 1 + count["74lvc244a"] + count.get("74hc165", 0)
    assert "74lvc244a" not in quantities("pi-direct-2x12")
    for name in NAMES:                          # every board: the jack and its fuse
        count = quantities(name)
        assert count["dc-jack"] == 1 and count["fuse-holder"] == 1 and count["fuse-7a5"] == 2


def test_every_catalogue_part_has_a_maker_and_a_number():
    parts = catalogue()
    assert all(part.maker and part.number for part in parts.values())
    assert parts["raspberry-pi-pico"].number == "SC0917"           # the Pico H: headers on
    for part in parts.values():
        # a price with the year it was seen, or said plainly to be none (never a made-up one)
        assert (part.price_usd == 0 and part.price_source.startswith("not priced (looked for on ")
                ) or (part.price_usd > 0 and re.search(r"\b20\d\d\b", part.price_source)), \
            part.key
    assert (parts["neopixel-ring-12"].number, parts["neopixel-ring-16"].number) == ("1643",
                                                                                    "1463")


def test_a_broken_catalogue_names_the_part_and_key(tmp_path):
    path = tmp_path / "parts.toml"
    path.write_text(PARTS_FILE.read_text().replace('number = "SEN-13879"\n', "", 1))
    with pytest.raises(ProfileError) as caught:
        read_catalogue(path)
    assert "%s: hx711.number: missing: the maker's part number" % path in str(caught.value)


def test_list(capsys):
    status, out, _err = layli(capsys, "list", "--json")
    rows = json.loads(out)["profiles"]
    assert status == 0 and [row["name"] for row in rows] == shipped()
    assert {row["name"]: row["leds"] for row in rows}["pico-bridge-2x12"] == 320
    status, out, _err = layli(capsys, "list")
    assert status == 0 and "pi-direct-2x7" in out


# --- the Pico firmware's config.json --------------------------------------------------------

def firmware_checker():
    """firmware/config.py, the firmware's own checker (firmware/ is not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "firmware_config_checker", ROOT / "firmware" / "config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PICO_PROFILES = [name for name in shipped() if name.startswith("pico-")]
VARIANT_OF = {6: "layli-goobalay", 7: "mangala-iv", 12: "layli-goobalay-long"}


@pytest.mark.parametrize("name", PICO_PROFILES)
def test_every_pico_profile_makes_a_config_the_firmware_accepts(name, tmp_path):
    from controller.hardware.firmware import firmware_config
    profile = load(name)
    config = firmware_config(profile, VARIANT_OF[profile.pits])
    checked = firmware_checker().check(json.loads(json.dumps(config)), name)
    assert checked["mode"] == ("bridge" if "bridge" in name else "standalone")
    sensors = checked["sensors"]
    cells = len(sensors["data"]) if sensors["kind"] == "hx711" else sensors["cells"]
    assert cells == profile.places and checked["leds"]["count"] == profile.leds.length
    assert checked["game"]["layout"] == [list(leds) for leds in profile.led_layout().leds]
    out = tmp_path / "config.json"
    result = subprocess.run([sys.executable, "-m", "controller", "firmware", "config",
                             name, "--variant", VARIANT_OF[profile.pits], "-o", str(out)],
                            capture_output=True, text=True)
    assert result.returncode == 0 and json.loads(out.read_text()) == config


def test_a_firmware_config_that_cannot_be_made_says_why():
    from controller.hardware.firmware import firmware_config
    with pytest.raises(UsageError, match="pi-direct profile: it has no Pico"):
        firmware_config(load("pi-direct-2x6"))
    with pytest.raises(UsageError, match="mangala-iv has 7 pits a row"):
        firmware_config(load("pico-bridge-2x6"), "mangala-iv")
