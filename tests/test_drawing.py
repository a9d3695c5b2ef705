"""The mechanical drawings (controller/hardware/drawing.py, `layli hardware drawing`): the top
plate in parts a laser cuts, and the load-cell mounts.

The sizes are checked against the parts catalogue's datasheet figures, the DXF by reading it
back with ezdxf (the library a laser cutter's converter would use), and the cup by rendering it
with OpenSCAD and measuring the STL it writes."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from controller import cli
from controller.hardware import drawing as D
from controller.hardware import plate as P
from controller.hardware.body import body, cell_mount
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

def collar_of(profile, place):
    board = body(profile)
    return board.pocket(place).collar


@pytest.mark.parametrize("name", shipped())
def test_the_top_plate_opens_at_least_50_mm_for_every_place_titled_by_place(name):
    profile = load(name)
    board = body(profile)
    sheet = D.top_plate(profile)
    holes = {c.name: c for c in sheet.circles(D.CUT) if c.name != "mounting hole"}
    collars = {c.name: c for c in sheet.circles(D.ENGRAVE)}
    n = profile.pits
    labels = [place_label(place, n) for place in range(profile.places)]
    assert len(set(labels)) == profile.places
    for place, label in enumerate(labels):
        collar = collar_of(profile, place)
        assert holes[label].diameter >= 50                       # a hand's pit, at least
        assert holes[label].diameter == collar.hole_d >= collar.spigot_d + 0.4
        assert (holes[label].x, holes[label].y) == board.centres[place]
        assert collars[label + " collar"].diameter == collar.outer_d
        wires = holes[label + " wires"]                          # under the collar's strip
        distance = math.hypot(wires.x - holes[label].x, wires.y - holes[label].y)
        assert distance + wires.diameter / 2 <= collar.outer_d / 2
    assert {"S1", "N%d" % n, "S store", "N store"} <= set(holes)
    assert len(holes) == 2 * profile.places                      # a hole and a notch a place
    # South's pits west to east, North's east to west above them, at the pit pitch
    south = [holes["S%d" % k] for k in range(1, n + 1)]
    north = [holes["N%d" % k] for k in range(n, 0, -1)]
    for row in (south, north):
        assert len({c.y for c in row}) == 1
        assert [round(b.x - a.x, 6) for a, b in zip(row, row[1:])] == [board.pit_pitch] * (n - 1)
    assert [c.x for c in south] == [c.x for c in north]
    assert round(north[0].y - south[0].y, 6) == board.row_pitch
    assert holes["S store"].x > south[-1].x and holes["N store"].x < south[0].x


@pytest.mark.parametrize("name", shipped())
def test_every_part_of_the_plate_fits_a_600_by_400_bed_and_the_parts_join(name):
    profile = load(name)
    board = body(profile)
    plan = P.plate(board)
    sheet = D.top_plate(profile)
    outlines = {o.name: o for o in sheet.outlines(D.CUT) if o.name.startswith("top-")}
    assert list(outlines) == ["top-%d" % k for k in range(1, len(plan.parts) + 1)]
    assert len(plan.parts) >= math.ceil(board.width / 600)
    for number, part in enumerate(plan.parts, 1):
        alone = D.plate_part(profile, number)
        x0, y0, x1, y1 = extent(alone.outlines(D.CUT)[0])
        assert (x0, y0) == (0, 0) and x1 <= 600 and y1 <= 400     # one laser job
        assert (round(x1, 6), round(y1, 6)) == part.size
        # the part's openings, notches, holes and buttons lie inside it
        for c in alone.circles(D.CUT):
            assert 0 < c.x - c.diameter / 2 and c.x + c.diameter / 2 < x1
            assert 0 < c.y - c.diameter / 2 and c.y + c.diameter / 2 < y1
    # a dovetail out of one part is the socket cut into the next, point for point
    for left, right in zip(plan.parts, plan.parts[1:]):
        assert left.x1 == right.x0 and left.out == right.into and len(left.out) == 2
        tips = {p[:2] for p in outlines[left.name].points if p[0] > left.x1}
        assert len(tips) == 4 and tips <= {p[:2] for p in outlines[right.name].points}
    assert sum(part.x1 - part.x0 for part in plan.parts) == board.width


def extent(outline):
    xs = [p[0] for p in outline.points]
    ys = [p[1] for p in outline.points]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("name", shipped())
def test_the_mounting_holes_and_buttons_keep_clear_of_the_collars_and_the_seams(name):
    profile = load(name)
    board = body(profile)
    plan = P.plate(board)
    sheet = D.top_plate(profile)
    holes = [c for c in sheet.circles(D.CUT) if c.name == "mounting hole"]
    assert len(holes) == len(plan.holes)
    collars = sheet.circles(D.ENGRAVE)
    for part in plan.parts:                 # at least a hole near each corner of each part
        inside = [h for h in holes if part.x0 < h.x < part.x1]
        assert len(inside) >= 4
        for corner_x in (part.x0, part.x1):
            for corner_y in (0, board.depth):
                assert min(math.hypot(h.x - corner_x, h.y - corner_y) for h in inside) < 60
    for hole in holes:
        for collar in collars:
            assert math.hypot(hole.x - collar.x, hole.y - collar.y) >= collar.diameter / 2 + 5
        for seam in plan.seams:
            assert abs(hole.x - seam) >= 5
    buttons = [o for o in sheet.outlines(D.CUT) if o.name.startswith("button")]
    assert len(buttons) == 4
    side = catalogue()[profile.button_part].body_mm + D.BUTTON_CLEARANCE
    for button in buttons:
        x0, y0, x1, y1 = extent(button)
        assert round(x1 - x0, 6) == round(y1 - y0, 6) == side
        assert all(x1 < seam or x0 > seam for seam in plan.seams)
        for collar in collars:
            assert y1 < collar.y - collar.diameter / 2
    assert {t.words for t in sheet.texts(D.ENGRAVE)} == {"new game", "undo", "hint", "confirm"}


@pytest.mark.parametrize("name", LOAD_CELL_BOARDS)
def test_the_cells_fit_under_the_plate_and_the_cup_never_touches_it(name):
    profile = load(name)
    parts = catalogue()
    board = body(profile)
    cell = parts[profile.sensors.pit_part]
    mount = cell_mount(cell)
    south_y = board.centres[0][1]
    # a South cell runs from its cup towards the south edge, past the buttons' strip
    assert south_y - mount.reach >= 30
    assert board.depth - board.centres[2 * profile.pits - 1][1] - mount.reach >= 0
    for kind in ("pit", "store"):
        pocket = board.pit if kind == "pit" else board.store
        h = board.stack(kind)
        cup, collar = pocket.cup, pocket.collar
        assert (collar.inner_d - cup.outer_d) / 2 >= 1.5           # never touches the collar
        assert cup.outer_d < collar.hole_d                          # nor the plate
        assert h.foot_bottom + cup.height == h.rim == h.bezel_top - 1
        assert h.foot_bottom + cup.foot_h <= h.plate_bottom - 3
    assert board.stack("pit").rim == board.stack("store").rim       # the rims are level


def test_a_part_that_is_not_there_is_refused(capsys, tmp_path):
    status, out, err = layli(capsys, "drawing", "pico-bridge-2x6", "--part", "top-3",
                             "-o", str(tmp_path / "t.svg"))
    assert status == 2 and out == ""
    assert "pico-bridge-2x6's top plate has 2 parts: top-1..top-2, not top-3" in err
    status, out, err = layli(capsys, "drawing", "pico-bridge-2x6", "--part", "bottom",
                             "-o", str(tmp_path / "t.svg"))
    assert status == 2 and "--part bottom: give top, top-1, top-2 ..., mount or walls" in err


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


def test_a_pits_riser_is_cut_in_whole_spacers():
    profile = load("pico-bridge-2x12")           # its stores are deeper: the pits stand higher
    board = body(profile)
    assert board.pit.riser == 18 and board.store.riser == 0
    words = " ".join(t.words for t in D.mounts(profile).texts())
    assert "fixed-end spacer, cut 96" in words   # 24 pits, four 6 mm layers each
    assert "fixed-end spacer, cut 2" in words and "free-end spacer, cut 24" in words
    assert "24 (riser 18)" in words


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
        board = body(profile)
        assert cut_circles.count(board.pit.collar.hole_d) == 2 * profile.pits
        outlines = [e for e in msp.query("LWPOLYLINE[layer=='CUT']")
                    if len(e) > 8]                           # the parts, with their dovetails
        assert len(outlines) == len(P.plate(board).parts)
        box = bbox.extents(outlines)
        assert (round(box.size.x, 3), round(box.size.y, 3)) == (board.width, board.depth)
        # the board's corners bulge outwards: each arc's centre lies inside the plate
        from ezdxf.math import bulge_to_arc
        arcs = 0
        for outline in outlines:
            points = list(outline.get_points("xyb"))
            for (x, y, b), (nx, ny, _b) in zip(points, points[1:] + points[:1]):
                if b:
                    centre, _start, _end, radius = bulge_to_arc((x, y), (nx, ny), b)
                    assert 0 < centre.x < board.width and 0 < centre.y < board.depth
                    assert round(radius, 6) == D.CORNER
                    arcs += 1
        assert arcs == 4
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
    board = body(profile)
    radii = [float(c.get("r")) for c in groups["CUT"].iter(SVG + "circle")]
    assert radii.count(board.pit.collar.hole_d / 2) == 2 * profile.pits
    titles = {"".join(t.itertext()) for t in groups["CUT"].iter(SVG + "title")}
    assert {"S1", "N%d" % profile.pits, "S store", "N store"} <= titles     # named by place
    # the plate fits its viewBox
    assert box[2] > board.width and box[3] > board.depth
    words = " ".join("".join(t.itertext()) for t in root.iter(SVG + "text"))
    assert "pit pitch %g" % board.pit_pitch in words
    assert "row pitch %g" % board.row_pitch in words


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


@pytest.mark.parametrize("name", ["pico-bridge-2x6", "pico-bridge-2x12", "pi-direct-2x7"])
def test_the_walls_hold_the_plate_at_its_height_in_pieces_a_laser_cuts(name):
    profile = load(name)
    board = body(profile)
    plan = P.plate(board)
    sheet = D.drawing(profile, "walls")
    pieces = {o.name: extent(o) for o in sheet.outlines(D.CUT)}
    height = board.stack("pit").plate_bottom
    assert all(round(y1 - y0, 6) == height for _x0, y0, _x1, y1 in pieces.values())
    assert all(x1 - x0 <= 600 and y1 - y0 <= 400 for x0, y0, x1, y1 in pieces.values())
    for wall in ("south", "north"):         # end to end along the board, joints at the seams
        lengths = [x1 - x0 for key, (x0, _y0, x1, _y1) in pieces.items()
                   if key.startswith(wall + " wall")]
        assert len(lengths) == len(plan.parts) and sum(lengths) == board.width
    for wall in ("west", "east"):           # between the long walls
        x0, _y0, x1, _y1 = pieces[wall + " wall 1"]
        assert x1 - x0 == board.depth - 2 * P.WALL
