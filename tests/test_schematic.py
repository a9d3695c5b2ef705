"""The schematics (controller/hardware/schematic.py) read back by a parser we did not write, and
the harness table (controller/hardware/harness.py).

Each profile's .kicad_sch is parsed with sexpdata (not kiutils, which wrote it); its
connectivity is computed from the file alone, as KiCad computes it: each pin's connecting point
from its symbol's definition in lib_symbols, moved by the instance's position and rotation;
wires join the points at their ends; labels of one name join their wires. The nets found must be
the profile's wiring: every pin of `profile.wires()` with its device, the clock fan-out through
the 74LVC244A and the 100 Ohm resistors, the strip's data path ring to ring, the power nets; no
net has one pin only, and every pin is either on a net or flagged not connected.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re

import pytest
import sexpdata

from controller import cli
from controller.hardware.boards import BOARDS, PIN, board_of
from controller.hardware.circuit import circuit
from controller.hardware.harness import POWER_COLOURS, harness, places_plan
from controller.hardware.profile import KINDS, PROFILES, clock_fanout, load, place_label, shipped
from controller.hardware.schematic import kicad, svg

NAMES = shipped()
SCHEMATICS = PROFILES.parent / "schematics"


def plain(node):
    """sexpdata's tree with its Symbols as str."""
    if isinstance(node, list):
        return [plain(item) for item in node]
    if isinstance(node, sexpdata.Symbol):
        return str(node)
    return node


def children(node: list, head: str) -> list[list]:
    return [item for item in node[1:] if isinstance(item, list) and item and item[0] == head]


def child(node: list, head: str) -> list:
    found = children(node, head)
    assert len(found) == 1, (head, node[:2])
    return found[0]


class Read:
    """What a .kicad_sch says, from the text alone."""

    def __init__(self, text: str) -> None:
        tree = plain(sexpdata.loads(text))
        assert tree[0] == "kicad_sch" and child(tree, "version")[1] == 20211123
        self.pins: dict[str, dict[str, tuple[float, float, str]]] = {}   # lib_id -> pins
        for symbol in children(child(tree, "lib_symbols"), "symbol"):
            pins = {}
            for unit in children(symbol, "symbol"):
                for pin in children(unit, "pin"):
                    at = child(pin, "at")
                    pins[child(pin, "number")[1]] = (at[1], at[2], child(pin, "name")[1])
            self.pins[symbol[1]] = pins
        self.parts: dict[str, dict] = {}              # reference -> instance
        points: dict[tuple[float, float], list[tuple[str, str]]] = {}
        for inst in children(tree, "symbol"):
            lib = child(inst, "lib_id")[1]
            at = child(inst, "at")
            x, y, angle = at[1], at[2], (at[3] if len(at) > 3 else 0)
            assert not children(inst, "mirror")
            props = {p[1]: p[2] for p in children(inst, "property")}
            ref = props["Reference"]
            names = {}
            for number, (px, py, name) in self.pins[lib].items():
                # library y is up, the sheet's down; a rotation turns counter-clockwise
                a = math.radians(angle)
                sx, sy = px, -py
                dx = sx * math.cos(a) + sy * math.sin(a)
                dy = -sx * math.sin(a) + sy * math.cos(a)
                points.setdefault(key(x + dx, y + dy), []).append((ref, number))
                names[number] = name
            self.parts[ref] = {"props": props, "names": names}
        self.pin_points = points
        self.wires = [tuple(key(xy[1], xy[2]) for xy in children(child(w, "pts"), "xy"))
                      for w in children(tree, "wire")]
        self.labels = [(label[1], key(child(label, "at")[1], child(label, "at")[2]))
                       for label in children(tree, "label")]
        self.no_connects = {key(child(n, "at")[1], child(n, "at")[2])
                            for n in children(tree, "no_connect")}
        self.nets = self._connect()

    def _connect(self) -> dict[str, set[tuple[str, str]]]:
        parent: dict = {}

        def root(item):
            parent.setdefault(item, item)
            while parent[item] != item:
                item = parent[item]
            return item

        def join(a, b):
            parent[root(a)] = root(b)

        for a, b in self.wires:
            join(("point", a), ("point", b))
        for point, pins in self.pin_points.items():
            for pin in pins:
                join(("pin",) + pin, ("point", point))
        for name, point in self.labels:
            join(("label", name), ("point", point))
        nets: dict[str, set[tuple[str, str]]] = {}
        groups: dict = {}
        for item in list(parent):
            groups.setdefault(root(item), []).append(item)
        for members in groups.values():
            labels = {m[1] for m in members if m[0] == "label"}
            pins = {(m[1], m[2]) for m in members if m[0] == "pin"}
            if not pins:
                continue
            assert len(labels) <= 1, labels
            if labels:
                nets[labels.pop()] = pins
        return nets

    def role(self, role: str) -> str:
        refs = [ref for ref, part in self.parts.items() if part["props"].get("Role") == role]
        assert len(refs) == 1, (role, refs)
        return refs[0]

    def named(self, role: str, name: str) -> tuple[str, str]:
        ref = self.role(role)
        numbers = [n for n, pin_name in self.parts[ref]["names"].items() if pin_name == name]
        assert len(numbers) == 1, (role, name)
        return (ref, numbers[0])

    def net_of(self, pin: tuple[str, str]) -> set[tuple[str, str]]:
        found = [pins for pins in self.nets.values() if pin in pins]
        assert len(found) == 1, pin
        return found[0]


def key(x: float, y: float) -> tuple[float, float]:
    return (round(x, 2), round(y, 2))


@pytest.fixture(scope="module", params=NAMES)
def read(request):
    profile = load(request.param)
    return profile, Read(kicad(profile))


def controller_pin(read: Read, profile, pin: str) -> tuple[str, str]:
    board = board_of(pin)
    return (read.role(board.title), str(board.physical(pin)))


def expander_input(read: Read, profile, name: str) -> tuple[str, str]:
    """An expander input as the chip's pin, by the chip's datasheet names."""
    expander_name, channel = name.split(".")
    expander = next(e for e in profile.expanders if e.name == expander_name)
    if expander.type == "mcp23017":
        return read.named("MCP23017 %s" % expander_name, channel)
    k = int(channel)
    return read.named("74HC165 %s U%d" % (expander_name, k // 8 + 1), "ABCDEFGH"[k % 8])


def end_of(read: Read, profile, name: str) -> tuple[str, str]:
    return controller_pin(read, profile, name) if PIN.match(name) else expander_input(
        read, profile, name)


def test_every_pin_is_on_a_net_of_two_or_flagged_not_connected(read):
    profile, r = read
    on_nets = {pin for pins in r.nets.values() for pin in pins}
    for name, pins in r.nets.items():
        assert len(pins) >= 2, (profile.name, name, pins)
    for point, pins in r.pin_points.items():
        for pin in pins:
            assert (pin in on_nets) != (point in r.no_connects), (profile.name, pin)


def test_the_nets_are_the_profiles_wires(read):
    profile, r = read
    pits = profile.pits
    for wire in profile.wires():
        here = r.net_of(end_of(r, profile, wire.pin))
        if wire.key == "leds.data_pin":
            assert r.named("74AHCT125", "1A") in here
        elif wire.key == "sensors.clock_pin":
            fanout = clock_fanout(profile)
            inputs = {pin for pin in here if r.parts[pin[0]]["props"]["Role"].startswith(
                "74LVC244A") and r.parts[pin[0]]["names"][pin[1]][1] == "A"}
            assert len(inputs) == fanout.branches
        elif wire.key.startswith("sensors.data_pins"):
            assert r.named("HX711 " + wire.device.split(" ", 1)[1], "DAT") in here
        elif wire.key.startswith("sensors.pins"):
            assert r.named("beam " + wire.device.split(" ", 1)[1], "OUT white") in here
        elif wire.key.startswith("buttons."):
            assert r.named(wire.device, "1") in here
        elif wire.key == "buzzer.pin":
            assert r.named("piezo buzzer", "1") in here
        elif wire.key.startswith("i2c."):
            for e in profile.expanders:
                assert r.named("MCP23017 " + e.name, wire.terminal) in here
        elif wire.key.startswith("expanders["):
            expander = profile.expanders[int(wire.key[10:wire.key.index("]")])]
            if expander.type == "mcp23017":
                assert r.named("MCP23017 " + expander.name, "INTA") in here
            elif wire.terminal == "QH":
                assert r.named("74HC165 %s U1" % expander.name, "QH") in here
            else:
                for k in range(expander.chips):
                    assert r.named("74HC165 %s U%d" % (expander.name, k + 1),
                                   wire.terminal) in here
        else:
            raise AssertionError("a profile wire the test does not know: %s" % (wire,))
    # each HX711's clock: through its branch's 100 Ohm to a 74LVC244A output whose input is on
    # the clock pin (the datasheet's pairs: 1A1 drives 1Y1)
    if profile.sensors.kind == "load-cell":
        clock = r.net_of(end_of(r, profile, profile.sensors.clock_pin))
        for place, group in enumerate(clock_fanout(profile).groups):
            for cell in group:
                branch = r.net_of(r.named("HX711 " + place_label(cell, pits), "CLK"))
                resistors = [pin for pin in branch if r.parts[pin[0]]["props"]["Value"]
                             .startswith("100 Ω")]
                assert len(resistors) == 1
                ref, number = resistors[0]
                other = r.net_of((ref, "1" if number == "2" else "2"))
                (chip, y_pin), = [pin for pin in other if r.parts[pin[0]]["props"]["Role"]
                                  .startswith("74LVC244A")]
                y_name = r.parts[chip]["names"][y_pin]
                a_pin = [n for n, name in r.parts[chip]["names"].items()
                         if name == y_name.replace("Y", "A")][0]
                assert (chip, a_pin) in clock


def test_the_strip_data_runs_ring_to_ring_and_power_reaches_every_part(read):
    profile, r = read
    pits = profile.pits
    order = sorted(range(profile.places), key=lambda place: profile.leds.places[place][0])
    out = r.net_of(r.named("74AHCT125", "1Y"))
    (resistor,), = [[pin for pin in out if r.parts[pin[0]]["props"]["Value"].startswith("470")]]
    din = r.net_of((resistor[0], "1" if resistor[1] == "2" else "2"))
    assert r.named("LEDs " + place_label(order[0], pits), "DIN") in din
    for a, b in zip(order, order[1:]):
        assert r.named("LEDs " + place_label(b, pits), "DIN") in r.net_of(
            r.named("LEDs " + place_label(a, pits), "DOUT"))
    plus, ground, low = r.nets["+5V"], r.nets["GND"], r.nets["+3V3"]
    for place in range(profile.places):
        ring = "LEDs " + place_label(place, pits)
        assert r.named(ring, "5V") in plus and r.named(ring, "GND") in ground
        if profile.sensors.kind == "load-cell":
            amp = "HX711 " + place_label(place, pits)
            assert r.named(amp, "VCC") in plus and r.named(amp, "VDD") in low
            assert r.named(amp, "GND") in ground
    assert r.named("74AHCT125", "VCC") in plus and r.named("74AHCT125", "GND") in ground
    for pin in ("1OE", "2A", "2OE", "3A", "3OE", "4A", "4OE"):     # unused gates tied low
        assert r.named("74AHCT125", pin) in ground
    core = BOARDS[KINDS[profile.kind][1]]
    assert (r.role(core.title), {"pico": "36", "pi": "1"}[core.key]) in low   # 3V3 pins
    assert r.named("1000 µF at the first LEDs", "+") in plus
    assert r.named("DC jack", "CENTRE +") in r.net_of(r.named("fuse", "1"))
    star = r.role("star point")
    assert sum(1 for pin in plus if pin[0] == star) >= 3 and (star, "2") in ground


def test_read_back_equals_the_circuit(read):
    profile, r = read
    expected = {net.name: {(e.ref, str(e.pin)) for e in net.members}
                for net in circuit(profile).nets()}
    assert r.nets == expected


@pytest.mark.parametrize("name", NAMES)
def test_the_shipped_schematics_are_what_the_code_makes(name):
    profile = load(name)
    for suffix, text in ((".kicad_sch", kicad(profile)), (".svg", svg(profile))):
        committed = SCHEMATICS / (name + suffix)
        assert committed.read_text(encoding="utf-8") == text, (
            "%s is stale: run `layli hardware schematic %s -o %s`" % (committed, name,
                                                                      committed))


def test_the_small_boards_fit_an_a3_sheet_and_the_rest_a2():
    for name in NAMES:
        paper = re.search(r'\(paper "(\w+)"\)', kicad(load(name))).group(1)
        assert paper == ("A3" if name in ("pi-direct-2x6", "pi-direct-2x7") else "A2"), name


def test_the_svg_names_every_pin_by_number_and_the_74hc165_by_its_pins():
    text = svg(load("pico-bridge-2x12"))
    for name in ("SH/LD", "CLK INH", "QH", "SER", "1A", "1OE", "2Y4", "3V3(OUT)", "VSYS"):
        assert ">%s<" % name in text


# --- the harness -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_the_harness_colours_keep_their_promise(name):
    profile = load(name)
    rows = harness(profile)
    board = circuit(profile)
    colour_of: dict[tuple[str, int], set[str]] = {}
    net_at: dict[tuple[str, int], str] = {}
    for row in rows:
        if row.kind == "cell":
            continue
        for ref, pin in ((row.a_ref, row.a_pin), (row.b_ref, row.b_pin)):
            colour_of.setdefault((ref, pin), set()).add(row.colour)
            net_at[(ref, pin)] = row.net
        if row.net in POWER_COLOURS:
            assert row.colour == POWER_COLOURS[row.net]
        else:
            assert row.colour not in ("red", "orange", "black"), row
    by_net: dict[str, set[str]] = {}
    for row in rows:
        if row.kind != "cell":
            by_net.setdefault(row.net, set()).add(row.colour)
    assert all(len(c) == 1 for c in by_net.values())          # one colour a net
    for (ref, pin), net in net_at.items():                     # neighbours differ
        other = net_at.get((ref, pin + 1))
        if other and other != net and not {net, other} <= set(POWER_COLOURS):
            assert colour_of[(ref, pin)] != colour_of[(ref, pin + 1)], (name, ref, pin)
    assert {(r.a_ref, r.a_pin, r.b_ref, r.b_pin) for r in rows} == {
        (l.a.ref, l.a.pin, l.b.ref, l.b.pin) for l in board.links}


@pytest.mark.parametrize("name", NAMES)
def test_the_harness_gauges_keep_the_drop_and_the_feeds_heavy(name):
    rows = harness(load(name))
    for row in rows:
        assert row.drop_mv <= 100, row
        if row.kind == "wire":
            assert row.length_mm >= 100
        if row.net in ("+5V", "GND") and row.current_ma >= 2000 and "star point" in (
                row.a_role, row.b_role):
            assert row.awg <= 18, row
    feeds = [row for row in rows if row.a_role == "star point" and row.b_role.startswith(
        "LEDs")]
    assert len(feeds) == (6 if load(name).pits > 8 else 4)


def test_a_wire_is_as_long_as_the_way_between_its_parts_under_the_plate():
    profile = load("pico-standalone-2x6")
    plan = places_plan(profile)
    (xa, ya), (xb, yb) = plan.centres[0], plan.centres[1]       # S1 and S2
    wire = next(r for r in harness(profile) if r.net == "LED_D1")
    assert (wire.a_role, wire.b_role) == ("LEDs S1", "LEDs S2")
    assert wire.length_mm == math.ceil((abs(xa - xb) + abs(ya - yb) + 100) / 10) * 10
    assert wire.length_mm >= 100 + abs(xb - xa)


def layli(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(["hardware", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_commands_write_the_schematic_and_the_harness(tmp_path, capsys):
    path = tmp_path / "board.svg"
    status, out, _err = layli(capsys, "schematic", "pi-direct-2x6", "-o", str(path))
    assert status == 0 and out == "wrote %s\n" % path
    assert path.read_text() == svg(load("pi-direct-2x6"))
    status, out, _err = layli(capsys, "schematic", "pi-direct-2x6")
    assert status == 0 and out == kicad(load("pi-direct-2x6"))
    status, out, _err = layli(capsys, "harness", "pico-bridge-2x6", "--json")
    wires = json.loads(out)["wires"]
    assert status == 0 and len(wires) == len(harness(load("pico-bridge-2x6")))
    status, out, _err = layli(capsys, "harness", "pico-bridge-2x6", "--csv")
    table = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and table[0]["colour"] == wires[0]["colour"]
    status, _out, err = layli(capsys, "schematic", "pi-direct-2x6", "-o", str(tmp_path / "x.doc"))
    assert status == 2 and "FILE.kicad_sch, FILE.svg or FILE.pdf" in err
    status, _out, err = layli(capsys, "harness", str(tmp_path / "absent.toml"))
    assert status == 2 and "absent.toml" in err
