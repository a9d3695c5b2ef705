"""The bill of materials (controller/hardware/bom.py): every board's bill has the lines a maker
needs to build it, each counted from what it is for (the circuit, the harness, the plate's
holes, the cells' mounts, the sheets), and every price says where it comes from."""

from __future__ import annotations

import math
import re

import pytest

from controller.errors import UsageError
from controller.hardware import bom
from controller.hardware.body import BASE, body
from controller.hardware.circuit import End, circuit
from controller.hardware.harness import harness
from controller.hardware.parts import catalogue
from controller.hardware.plate import plate, walls
from controller.hardware.profile import load, shipped

NAMES = shipped()


@pytest.fixture(scope="module", params=NAMES)
def made(request):
    """A shipped profile, its bill, and the designs the bill is counted from."""
    profile = load(request.param)
    return profile, bom.bill(profile), circuit(profile), harness(profile), body(profile)


def quantity(lines, key: str) -> int:
    return sum(line.quantity for line in lines if line.part.key == key)


def test_every_part_says_where_its_price_comes_from():
    for key, part in catalogue().items():
        source = part.price_source
        assert source and "TODO" not in source.upper(), key
        checked = "page as stored" in source
        estimate = source.startswith("estimate, not checked: ")
        missing = source.startswith("not priced (looked for on ")
        assert checked + estimate + missing == 1, (key, source)
        assert (part.price_usd == 0) == missing, (key, part.price_usd, source)


def test_the_hx711_costs_what_its_seller_lists():
    # issue 40: the catalogue said US$4.95 where SparkFun lists US$9.95
    part = catalogue()["hx711"]
    assert part.price_usd == 9.95 and "sparkfun.com" in part.price_source


def test_the_total_is_the_sum_of_the_lines_and_every_line_is_priced_by_its_packs(made):
    _profile, lines, _board, _rows, _shape = made
    assert bom.total_usd(lines) == pytest.approx(sum(line.packs * line.part.price_usd
                                                     for line in lines))
    for line in lines:
        assert line.packs * line.part.pack >= line.quantity > 0, line
        assert line.section in bom.SECTIONS and line.what, line
        assert line.as_dict()["price_source"] == line.part.price_source


def test_the_sections_come_in_building_order(made):
    _profile, lines, _board, _rows, _shape = made
    order = [bom.SECTIONS.index(line.section) for line in lines]
    assert order == sorted(order) and set(order) == set(range(len(bom.SECTIONS)))


def test_the_circuit_names_every_part_it_has_but_the_star_point(made):
    _profile, lines, board, _rows, _shape = made
    for c in board.components:
        assert c.part is not None or c.ref == "X1", c
    assert quantity(lines, "power-switch") == sum(1 for c in board.components
                                                  if c.role == "power switch") == 1
    for key in ("resistor-100k", "resistor-10k"):
        assert quantity(lines, key) == sum(1 for c in board.components if c.part == key)


def test_a_chain_board_has_a_pull_down_on_each_dout_and_each_clk(made):
    profile, lines, board, _rows, _shape = made
    chain = any(e.type == "74hc165" for e in profile.expanders)
    cells = len(profile.sensors.channels) if profile.sensors.kind == "load-cell" else 0
    assert quantity(lines, "resistor-100k") == (2 * cells if chain else 0)
    if chain:                  # each on its DOUT net at the chip, and across CLK and GND
        net = board.net_of()
        pulls = [c for c in board.components if c.part == "resistor-100k"]
        ends = {(net[End(c.ref, 1)], net[End(c.ref, 2)]) for c in pulls}
        assert {a for a, b in ends if b == "GND" and a.endswith("_DT")} == {
            n for n in set(net.values()) if n.endswith("_DT")}
        assert sum(1 for a, b in ends if a.startswith("SCK_B") and b == "GND") > 0


def test_every_chip_has_a_socket_and_the_controller_a_board(made):
    profile, lines, board, _rows, _shape = made
    chips: dict[int, int] = {}
    for c in board.components:
        if c.part in bom.DIP_CHIPS:
            chips[len(c.pinout.pins)] = chips.get(len(c.pinout.pins), 0) + 1
    for pins in (14, 16, 20, 28):
        assert quantity(lines, "dip-socket-%d" % pins) == chips.get(pins, 0)
    assert quantity(lines, "stripboard") == 1
    assert quantity(lines, "header-female-20") == (2 if "pico" in profile.boards else 0)
    assert quantity(lines, "pi-cobbler") == (1 if "pi" in profile.boards else 0)


def test_the_star_point_has_a_place_for_every_wire(made):
    _profile, lines, board, _rows, _shape = made
    plus, ground = bom.star_wires(board)
    assert plus + ground == sum((l.a.ref == "X1") + (l.b.ref == "X1") for l in board.links)
    levers = quantity(lines, "lever-connector-5")
    assert levers == bom.star_levers(plus) + bom.star_levers(ground)
    for wires in (plus, ground):                       # k joined connectors: 3 k + 2 places
        k = bom.star_levers(wires)
        assert 3 * k + 2 >= wires and (k == 1 or 3 * (k - 1) + 2 < wires)


def test_each_cell_plugs_into_its_breakout_and_each_breakout_has_its_header_pins(made):
    profile, lines, board, _rows, _shape = made
    cells = len(profile.sensors.channels) if profile.sensors.kind == "load-cell" else 0
    amps = sum(1 for c in board.components if c.part == "hx711")
    assert amps == cells
    assert quantity(lines, "xh-header-4") == quantity(lines, "xh-housing-4") == cells
    assert quantity(lines, "xh-contact-fine") == 4 * cells
    assert quantity(lines, "header-male-40") == 5 * amps


def test_the_top_plate_unplugs_from_the_base(made):
    _profile, lines, board, rows, _shape = made
    plugs = bom.plate_plugs(board, rows)
    parts = {c.ref: c for c in board.components}
    # every button plugs in, and the strip's data reaches the first LEDs through a plug
    buttons = {ref for ref, c in parts.items() if c.role.startswith("button ")}
    assert buttons <= set(plugs)
    assert any(parts[ref].role.startswith("470 Ω") for ref in plugs)
    for wires in plugs.values():
        for row in wires:                              # an XH contact takes AWG 28-22
            assert 22 <= row.awg <= 28 and "X1" not in (row.a_ref, row.b_ref), row
    assert quantity(lines, "xh-contact") == sum(len(w) for w in plugs.values())
    assert quantity(lines, "xh-header-2") == quantity(lines, "xh-housing-2") == len(plugs)


def test_the_wire_is_the_harness_and_a_margin_in_whole_reels(made):
    _profile, lines, _board, rows, _shape = made
    need: dict[tuple[int, str], int] = {}
    for row in rows:
        if row.kind in ("wire", "jumper"):
            need[(row.awg, row.colour)] = need.get((row.awg, row.colour), 0) + row.length_mm
    bought = {}
    for line in lines:
        if line.part.key.startswith("wire-"):
            awg = int(line.part.key[5:7])
            colour = line.what.split(":")[0]
            bought[(awg, colour)] = line
            assert line.unit == "m" and line.part.pack == 10
    assert set(bought) == set(need)
    for key, mm in need.items():
        line = bought[key]
        assert line.quantity == math.ceil(mm / 1000 * (1 + bom.WIRE_MARGIN))
        assert line.quantity * 1000 >= mm and line.packs * 10 >= line.quantity
    total = sum(line.quantity for line in bought.values())
    assert total >= sum(need.values()) / 1000


def test_every_mounting_hole_has_its_screw_standoffs_and_screw_from_below(made):
    _profile, lines, _board, _rows, shape = made
    holes = len(plate(shape).holes)
    height = shape.stack("pit").plate_bottom
    assert quantity(lines, "screw-m3-button-8") == holes
    bottoms = sum(quantity(lines, "standoff-m3-ff-%d" % n) for n in (10, 20, 40))
    assert bottoms == holes
    stack = bom.standoff_stack(height, [10, 20, 40], [10, 20, 40])
    assert height - bom.WASHER < stack.height <= height       # never taller than the walls
    assert quantity(lines, "washer-m3") == holes * stack.washers


def test_each_load_cell_is_held_by_its_own_holes_and_has_an_overload_stop(made):
    profile, lines, _board, _rows, shape = made
    if profile.sensors.kind != "load-cell":
        assert quantity(lines, "tee-nut-m4") == 0
        return
    parts = catalogue()
    cells = [(parts[profile.sensors.pit_part], 2 * profile.pits, "pit"),
             (parts[profile.sensors.store_part], 2, "store")]
    fixed = sum(line.quantity for line in lines if line.part.key.startswith("screw-m5-csk-"))
    assert fixed == sum(cell.holes_per_end * count for cell, count, _k in cells)
    assert quantity(lines, "tee-nut-m4") == quantity(lines, "nut-m4") == sum(
        count for _c, count, _k in cells)
    two_hole = sum(count for cell, count, _k in cells if cell.holes_per_end == 2)
    assert quantity(lines, "screw-m4-button-12") == 2 * two_hole
    for cell, _count, kind in cells:              # a fixed-end screw bites, never goes through
        h = shape.stack(kind)
        keys = [line.part.key for line in lines if line.part.key.startswith("screw-m5-csk-")
                and ("%g mm of spacers into each %s" % (h.bar_bottom, kind)) in line.what]
        assert keys, kind
        length = int(keys[0].rsplit("-", 1)[1])
        assert BASE + h.bar_bottom + 4.5 <= length <= BASE + h.bar_bottom + cell.height_mm


def test_the_sheets_hold_every_piece(made):
    profile, lines, _board, _rows, shape = made
    plan = plate(shape)
    acrylic = quantity(lines, "acrylic-3mm")
    bed = bom.ACRYLIC_SHEET[0] * bom.ACRYLIC_SHEET[1]
    assert acrylic * bed >= sum(w * d for w, d in (p.size for p in plan.parts))
    assert len(plan.parts) >= acrylic >= 1
    pieces = bom.plywood_pieces(profile, shape)
    assert (shape.width, shape.depth) in pieces and len(walls(shape, plan)) <= len(pieces)
    plywood = quantity(lines, "plywood-6mm")
    assert plywood * bom.PLYWOOD_SHEET[0] * bom.PLYWOOD_SHEET[1] >= sum(a * c for a, c in pieces)


def test_the_filament_covers_the_printed_parts(made):
    profile, lines, _board, _rows, shape = made
    collars, cups = bom.printed_grams(profile, shape)
    assert quantity(lines, "filament-petg-natural") == collars
    assert quantity(lines, "filament-petg") == cups
    # a pit's cup weighs about 40 g (hardware/README.md's noise budget takes 40 g with its
    # screws): the estimate, printed solid, is of that order
    pit = bom.cup_mm3(shape, "pit") / 1000 * bom.FILAMENT_DENSITY
    assert 25 < pit < 60
    assert 0 < bom.collar_mm3(shape, "pit") < bom.collar_mm3(shape, "store")


def test_a_pi_gets_a_card_and_a_c14_supply_a_cord(made):
    profile, lines, _board, _rows, _shape = made
    assert quantity(lines, "microsd-32gb") == (1 if "pi" in profile.boards else 0)
    inlet = "C14" in catalogue()[profile.power.supply].name
    assert quantity(lines, "mains-cord-c13") == (1 if inlet else 0)


def test_solder_and_sleeves_follow_the_joints(made):
    _profile, lines, board, rows, _shape = made
    joints, sleeves = bom.solder_joints(board, rows, bom.plate_plugs(board, rows))
    assert quantity(lines, "solder") == math.ceil(joints * bom.SOLDER_G)
    assert quantity(lines, "heat-shrink-3mm") == sleeves
    assert joints > sum(1 for row in rows if row.kind == "wire")


def test_sheets_lay_pieces_in_rows():
    assert bom.sheets([(500, 270), (500, 270)], (600, 400), "two halves") == 2
    assert bom.sheets([(200, 100)] * 4, (600, 400), "four") == 1      # a row of two, two rows
    assert bom.sheets([(100, 50)] * 40, (600, 400), "forty") == 2
    with pytest.raises(UsageError):
        bom.sheets([(700, 10)], (600, 400), "too long")


def test_a_standoff_stack_is_as_tall_as_it_may_be():
    stack = bom.standoff_stack(60.7, [10, 20, 40], [10, 20, 40])
    assert stack.bottom + sum(stack.above) == 60 and stack.washers == 1
    assert bom.standoff_stack(40.0, [40], [20]) == bom.Stack(40, (), 0)
    with pytest.raises(UsageError):
        bom.standoff_stack(5.0, [10], [10])


def test_star_levers():
    assert [bom.star_levers(n) for n in (0, 1, 5, 6, 8, 9, 11)] == [0, 1, 1, 2, 2, 3, 3]


def test_the_readme_totals_are_the_bills():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "hardware" / "README.md").read_text()
    rows = dict((m[1], (int(m[2]), float(m[3]), int(m[4]))) for m in re.finditer(
        r"^\| ([a-z]+-[a-z]+-2x\d+) \| (\d+) \| ([\d.]+) \| (\d+) \|$", text, re.M))
    assert sorted(rows) == sorted(NAMES)
    for name in NAMES:
        lines = bom.bill(load(name))
        unpriced = sum(1 for line in lines if line.part.price_usd == 0)
        assert rows[name] == (len(lines), round(bom.total_usd(lines), 2), unpriced), name
