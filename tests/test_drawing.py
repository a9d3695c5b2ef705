"""The mechanical drawings (controller/hardware/drawing.py, `layli hardware drawing`) and the
pit cup's OpenSCAD model (hardware/cup.scad).

The sizes are checked against the parts catalogue's datasheet figures, the DXF by reading it
back with ezdxf (the library a laser cutter's converter would use), and the cup by rendering it
with OpenSCAD and measuring the STL it writes."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller import cli
from controller.hardware import drawing as D
from controller.hardware.parts import catalogue
from controller.hardware.profile import load, place_label, shipped

ROOT = Path(__file__).resolve().parent.parent
CUP = ROOT / "hardware" / "cup.scad"
SVG = "{http://www.w3.org/2000/svg}"
LOAD_CELL_BOARDS = [name for name in shipped() if not name.startswith("pi-direct")]


def layli(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(["hardware", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


# --- the top plate ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", shipped())
def test_the_top_plate_has_a_hole_per_place_at_its_rings_inner_diameter(name):
    profile = load(name)
    parts = catalogue()
    sheet = D.top_plate(profile)
    holes = {c.name: c for c in sheet.circles(D.CUT)}
    rings = {c.name: c for c in sheet.circles(D.ENGRAVE)}
    n = profile.pits
    for place in range(profile.places):
        ring = parts[profile.leds.pit_part if place < 2 * n else profile.leds.store_part]
        label = place_label(place, n)
        assert holes[label].diameter == ring.inner_mm            # the ring's hole (datasheet)
        assert rings[label + " ring"].diameter == ring.outer_mm   # where the ring is glued
        assert (rings[label + " ring"].x, rings[label + " ring"].y) == (holes[label].x,
                                                                      holes[label].y)
    assert len(holes) == profile.places                        # and no other round holes
    # South's pits west to east, North's east to west above them, at the pit pitch
    south = [holes["S%d" % k] for k in range(1, n + 1)]
    north = [holes["N%d" % k] for k in range(n, 0, -1)]
    for row in (south, north):
        assert len({c.y for c in row}) == 1
        assert [round(b.x - a.x, 6) for a, b in zip(row, row[1:])] == [D.PIT_PITCH] * (n - 1)
    assert [c.x for c in south] == [c.x for c in north]
    assert round(north[0].y - south[0].y, 6) == D.ROW_PITCH
    assert holes["S store"].x > south[-1].x and holes["N store"].x < south[0].x


@pytest.mark.parametrize("name", shipped())
def test_nothing_on_the_plate_overlaps_and_everything_is_inside_it(name):
    profile = load(name)
    sheet = D.top_plate(profile)
    (outline,) = [o for o in sheet.outlines(D.CUT) if o.name == "outline"]
    width = max(p[0] for p in outline.points)
    depth = max(p[1] for p in outline.points)
    rings = sheet.circles(D.ENGRAVE)
    buttons = [o for o in sheet.outlines(D.CUT) if o.name.startswith("button")]
    assert len(buttons) == 4
    for a in rings:
        assert a.diameter / 2 <= a.x <= width - a.diameter / 2
        assert a.diameter / 2 <= a.y <= depth - a.diameter / 2
        for b in rings:
            if a is not b:      # at least 5 mm of plate between two rings
                assert math.hypot(a.x - b.x, a.y - b.y) >= (a.diameter + b.diameter) / 2 + 5
        for button in buttons:
            assert min(p[1] for p in button.points) >= 0
            assert max(p[1] for p in button.points) < a.y - a.diameter / 2
    side = catalogue()[profile.button_part].body_mm + D.BUTTON_CLEARANCE
    for button in buttons:
        xs = [p[0] for p in button.points]
        ys = [p[1] for p in button.points]
        assert round(max(xs) - min(xs), 6) == round(max(ys) - min(ys), 6) == side
    assert {t.words for t in sheet.texts(D.ENGRAVE)} == {"new game", "undo", "hint", "confirm"}


@pytest.mark.parametrize("name", LOAD_CELL_BOARDS)
def test_the_cells_fit_under_the_plate_and_the_cup_never_touches_it(name):
    profile = load(name)
    parts = catalogue()
    plan = D.layout(profile)
    cell = parts[profile.sensors.pit_part]
    mount = D.cell_mount(cell)
    south_y = plan.centres[0][1]
    # a South cell runs from its cup towards the south edge, past the buttons' strip
    assert south_y - mount.reach >= D.BUTTON_STRIP
    assert plan.depth - plan.centres[2 * profile.pits - 1][1] - mount.reach >= 0
    cup = D.pit_cup(profile)
    ring = parts[profile.leds.pit_part]
    assert cup.outer_d + 2 * D.CUP_CLEARANCE == ring.inner_mm and cup.outer_d < ring.inner_mm
    store = D.store_cup(profile)
    assert store.outer_d < parts[profile.leds.store_part].inner_mm
    h = D.stack(profile)
    # the cup's rim stands above the plate, its foot well below the ring under the plate
    assert h.foot_bottom + cup.height == h.rim == h.plate_top + D.RIM_ABOVE
    assert h.foot_bottom + cup.foot_h < h.plate_bottom - D.RING - 5
    assert cup.seeds >= D.SEEDS


# --- the mounts ------------------------------------------------------------------------------

def test_the_mount_spacers_carry_the_cells_hole_pattern():
    profile = load("pico-bridge-2x6")
    parts = catalogue()
    sheet = D.mounts(profile)
    for where, cell in (("pit", parts["load-cell-1kg"]), ("store", parts["load-cell-5kg"])):
        for end, thread in (("fixed", cell.fixed_thread), ("free", cell.free_thread)):
            holes = sorted((c for c in sheet.circles(D.CUT)
                            if c.name == "%s %s-end spacer hole" % (where, end)),
                           key=lambda c: c.x)
            assert len(holes) == cell.holes_per_end
            assert {c.diameter for c in holes} == {D.CLEARANCE_HOLE[thread]}
            if cell.holes_per_end == 2:
                assert round(holes[1].x - holes[0].x, 6) == cell.hole_spacing_mm
            (spacer,) = [o for o in sheet.outlines(D.CUT)
                         if o.name == "%s %s-end spacer" % (where, end)]
            xs = [p[0] for p in spacer.points]
            ys = [p[1] for p in spacer.points]
            assert round(max(ys) - min(ys), 6) == cell.width_mm
            assert round(holes[0].x - min(xs), 6) == cell.hole_inset_mm
            assert round(max(xs) - holes[-1].x, 6) == cell.hole_inset_mm
    words = " ".join(t.words for t in sheet.texts())
    assert "overload stop" in words and "set it with 1200 g" in words      # 1.2 x the 1 kg
    assert "cut 12" in words and "cut 2" in words                          # pits, stores


def test_a_board_without_load_cells_has_no_mount_drawing(capsys, tmp_path):
    status, out, err = layli(capsys, "drawing", "pi-direct-2x6", "--part", "mount",
                             "-o", str(tmp_path / "m.svg"))
    assert status == 2 and out == ""
    assert "pi-direct-2x6 has no load cells (digital sensing): it has no load-cell mounts" in err
    status, out, _err = layli(capsys, "drawing", "pi-direct-2x6", "-o", str(tmp_path / "t.svg"))
    assert status == 0 and out == "wrote %s\n" % (tmp_path / "t.svg")       # the top alone
    assert ET.parse(tmp_path / "t.svg").getroot().get("width").endswith("mm")


# --- the files -------------------------------------------------------------------------------

@pytest.mark.parametrize("part", ["top", "mount", None])
def test_the_dxf_reads_back_in_mm_with_closed_cuts_on_their_layers(tmp_path, capsys, part):
    ezdxf = pytest.importorskip("ezdxf", reason="DXF needs ezdxf (pip install ezdxf)")
    from ezdxf import bbox
    profile = load("pico-standalone-2x12")
    path = tmp_path / "board.dxf"
    argv = ["drawing", profile.name, "-o", str(path)] + (["--part", part] if part else [])
    status, out, _err = layli(capsys, *argv)
    assert status == 0 and out == "wrote %s\n" % path
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    assert not auditor.has_errors
    assert doc.units == ezdxf.units.MM and doc.header["$INSUNITS"] == 4
    assert {"CUT", "ENGRAVE", "DIMENSIONS"} <= {layer.dxf.name for layer in doc.layers}
    msp = doc.modelspace()
    sheet = D.drawing(profile, part)
    for entity in msp.query("*[layer=='CUT']"):         # a laser cuts closed shapes only
        assert entity.dxftype() in ("CIRCLE", "LWPOLYLINE")
        if entity.dxftype() == "LWPOLYLINE":
            assert entity.closed
    for entity in msp.query("*[layer=='ENGRAVE']"):
        assert entity.dxftype() in ("CIRCLE", "TEXT")
    cut_circles = sorted(round(2 * c.dxf.radius, 6) for c in msp.query("CIRCLE[layer=='CUT']"))
    assert cut_circles == sorted(round(c.diameter, 6) for c in sheet.circles(D.CUT))
    if part != "mount":
        ring = catalogue()[profile.leds.pit_part]
        assert cut_circles.count(ring.inner_mm) == 2 * profile.pits
        plan = D.layout(profile)
        outlines = [e for e in msp.query("LWPOLYLINE[layer=='CUT']")
                    if len(e) == 8]                          # the rounded rectangle
        assert len(outlines) == 1
        box = bbox.extents(outlines)
        assert (round(box.size.x, 3), round(box.size.y, 3)) == (plan.width, plan.depth)
        # its corners bulge outwards: each arc's centre lies inside the plate
        from ezdxf.math import bulge_to_arc
        points = list(outlines[0].get_points("xyb"))
        for (x, y, b), (nx, ny, _b) in zip(points, points[1:] + points[:1]):
            if b:
                centre, _start, _end, radius = bulge_to_arc((x, y), (nx, ny), b)
                assert 0 < centre.x < plan.width and 0 < centre.y < plan.depth
                assert round(radius, 6) == D.CORNER
    else:
        assert cut_circles                                       # the spacers' holes


@pytest.mark.parametrize("name", ["pico-bridge-2x6", "pi-direct-2x12"])
def test_the_svg_is_in_mm_with_a_viewbox_and_a_group_per_layer(tmp_path, capsys, name):
    path = tmp_path / "board.svg"
    status, _out, _err = layli(capsys, "drawing", name, "-o", str(path))
    assert status == 0
    root = ET.parse(path).getroot()
    width, height = root.get("width"), root.get("height")
    assert width.endswith("mm") and height.endswith("mm")
    box = [float(v) for v in root.get("viewBox").split()]
    assert (box[2], box[3]) == (float(width[:-2]), float(height[:-2]))   # 1 unit = 1 mm
    groups = {g.get("id"): g for g in root.iter(SVG + "g")}
    assert set(groups) == {"CUT", "ENGRAVE", "DIMENSIONS"}
    profile = load(name)
    ring = catalogue()[profile.leds.pit_part]
    radii = [float(c.get("r")) for c in groups["CUT"].iter(SVG + "circle")]
    assert radii.count(ring.inner_mm / 2) == 2 * profile.pits
    # the plate fits its viewBox
    plan = D.layout(profile)
    assert box[2] > plan.width and box[3] > plan.depth
    words = " ".join("".join(t.itertext()) for t in root.iter(SVG + "text"))
    assert "pit pitch %g" % D.PIT_PITCH in words and "row pitch %g" % D.ROW_PITCH in words


def test_without_ezdxf_a_dxf_is_refused_with_what_to_install(tmp_path, capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "ezdxf", None)          # as if it were not installed
    status, out, err = layli(capsys, "drawing", "pico-bridge-2x6", "-o", str(tmp_path / "b.dxf"))
    assert status == 2 and out == "" and "pip install ezdxf" in err
    assert not (tmp_path / "b.dxf").exists()
    status, _out, _err = layli(capsys, "drawing", "pico-bridge-2x6", "-o", str(tmp_path / "b.svg"))
    assert status == 0                                        # SVG needs nothing more


def test_a_drawing_file_must_be_svg_or_dxf(tmp_path, capsys):
    status, out, err = layli(capsys, "drawing", "pico-bridge-2x6", "-o", str(tmp_path / "b.pdf"))
    assert status == 2 and out == ""
    assert "b.pdf: the drawing's file must end in .svg or .dxf" in err


# --- the pit cup (OpenSCAD) ------------------------------------------------------------------

def render(tmp_path: Path, *defines: str) -> tuple[list[tuple[float, float, float]], str]:
    """The cup rendered to an ASCII STL: its vertices, and OpenSCAD's messages."""
    if shutil.which("openscad") is None:
        pytest.skip("OpenSCAD is not installed (Debian: apt-get install openscad)")
    out = tmp_path / "cup.stl"
    argv = ["openscad", "-o", str(out)]
    for define in defines:
        argv += ["-D", define]
    result = subprocess.run(argv + [str(CUP)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    vertices = [tuple(float(v) for v in match.groups()) for match in re.finditer(
        r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", out.read_text())]
    assert vertices, "no facets in the STL"
    return vertices, result.stderr


def test_the_pit_cup_fits_the_12_led_rings_hole_and_holds_20_seeds(tmp_path):
    ring = catalogue()["neopixel-ring-12"]
    vertices, messages = render(tmp_path, "ring_id=%s" % ring.inner_mm)
    xs, ys, zs = zip(*vertices)
    cup = D.pit_cup(load("pico-bridge-2x6"))
    # the bounding box: the foot across, the whole height up
    assert (round(max(xs) - min(xs), 3), round(max(ys) - min(ys), 3)) == (cup.foot_d, cup.foot_d)
    assert round(max(zs) - min(zs), 3) == cup.height
    # above the foot the cup is no wider than the ring's hole less 1.5 mm all round
    top = max(zs)
    body = [math.hypot(x, y) for x, y, z in vertices if z > cup.foot_h + 1e-6]
    assert max(body) <= ring.inner_mm / 2 - 1.5 + 1e-3        # the STL has 6 digits
    # inside: the rim's inner circle, down to the floor
    inner = min(math.hypot(x, y) for x, y, z in vertices if abs(z - top) < 1e-6)
    floor = min(z for x, y, z in vertices if abs(math.hypot(x, y) - inner) < 1e-3)
    volume = math.pi * inner ** 2 * (top - floor)
    seed = math.pi / 6 * 7.0 ** 3                   # a 7 mm seed, heaped at half the volume
    assert volume * 0.5 / seed >= 20
    assert round(inner, 3) == cup.inner_d / 2 and round(top - floor, 3) == cup.depth
    assert "depth = %g" % cup.depth in messages


def test_the_store_cup_is_the_same_model_for_the_16_led_ring(tmp_path):
    profile = load("pico-bridge-2x6")
    ring = catalogue()[profile.leds.store_part]
    cup = D.store_cup(profile)
    vertices, _messages = render(tmp_path, "ring_id=%s" % ring.inner_mm,
                                 "depth=%s" % cup.depth, "pockets=0", "screw_d=5.5")
    xs, _ys, zs = zip(*vertices)
    assert round(max(xs) - min(xs), 3) == cup.foot_d
    assert round(max(zs) - min(zs), 3) == cup.height == D.pit_cup(profile).height
    body = [math.hypot(x, y) for x, y, z in vertices if z > cup.foot_h + 1e-6]
    assert max(body) <= ring.inner_mm / 2 - 1.5 + 1e-3        # the STL has 6 digits
