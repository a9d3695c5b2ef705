"""The board's OpenSCAD model (hardware/board.scad, hardware/cup.scad) and its parameters,
generated from the Python geometry (`layli hardware model`, controller/hardware/model.py).

OpenSCAD computes the cups' capacity again from the generated sizes; its echo must equal the
Python geometry's. The committed hardware/board-params.scad is what the generator makes now for
the default board, and the whole board's model evaluates (to CSG: no rendering, seconds). The
pit cup is rendered once, coarsely, and its STL measured."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from controller import cli
from controller.hardware import body as B
from controller.hardware import model as M
from controller.hardware.profile import load

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
DEFAULT = "pico-bridge-2x6"


def openscad(tmp_path: Path, scad: Path, out: str, *defines: str,
             params: str | None = None) -> tuple[Path, str]:
    """Run OpenSCAD on a copy of `scad` (and cup.scad) beside `params` (the default board's
    committed parameters unless given); the output file and the messages."""
    if shutil.which("openscad") is None:
        pytest.skip("OpenSCAD is not installed (Debian: apt-get install openscad)")
    for name in ("board.scad", "cup.scad"):
        (tmp_path / name).write_text((HARDWARE / name).read_text())
    (tmp_path / "board-params.scad").write_text(
        params if params is not None else (HARDWARE / "board-params.scad").read_text())
    argv = ["openscad", "-o", str(tmp_path / out)]
    for define in defines:
        argv += ["-D", define]
    result = subprocess.run(argv + [str(tmp_path / scad.name)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    return tmp_path / out, result.stderr


def echoed(text: str) -> dict[str, str]:
    (line,) = [line for line in text.splitlines() if line.startswith("ECHO: which")]
    return dict(re.findall(r'(\w+) = ("[^"]*"|[-\d.e]+)', line))


def test_the_committed_parameters_are_what_the_generator_makes(capsys, tmp_path):
    assert (HARDWARE / "board-params.scad").read_text() == M.parameters(load(DEFAULT))
    status = cli.main(["hardware", "model", DEFAULT, "-o", str(tmp_path / "p.scad")])
    assert status == 0 and capsys.readouterr().out == "wrote %s\n" % (tmp_path / "p.scad")
    assert (tmp_path / "p.scad").read_text() == M.parameters(load(DEFAULT))


@pytest.mark.parametrize("name", ["pico-bridge-2x6", "pico-bridge-2x7", "pi-direct-2x12"])
@pytest.mark.parametrize("which", ["pit", "store"])
def test_openscads_cup_figures_equal_the_python_geometrys(tmp_path, name, which):
    board = B.body(load(name))
    cup = (board.pit if which == "pit" else board.store).cup
    path, _messages = openscad(tmp_path, HARDWARE / "cup.scad", "cup.echo",
                               'which="%s"' % which, params=M.parameters(load(name)))
    assert "ERROR" not in path.read_text()
    figures = echoed(path.read_text())
    assert float(figures["inner_d"]) == cup.inner_d
    assert float(figures["outer_d"]) == cup.outer_d
    assert float(figures["depth"]) == cup.depth
    assert float(figures["height"]) == cup.height
    assert abs(float(figures["packing"]) - cup.packing) < 1e-5
    assert abs(float(figures["heap"]) - cup.heap) < 1e-3
    assert int(figures["capacity"]) == cup.capacity >= int(figures["seeds"]) == cup.wanted
    assert float(figures["probe_gap"]) == 0


def test_openscad_refuses_a_cup_too_shallow_for_its_seeds(tmp_path):
    if shutil.which("openscad") is None:
        pytest.skip("OpenSCAD is not installed (Debian: apt-get install openscad)")
    for name in ("board.scad", "cup.scad"):
        (tmp_path / name).write_text((HARDWARE / name).read_text())
    (tmp_path / "board-params.scad").write_text(M.parameters(load(DEFAULT)))
    result = subprocess.run(["openscad", "-o", str(tmp_path / "x.echo"), "-D", "pit_depth=30",
                             str(tmp_path / "cup.scad")], capture_output=True, text=True,
                            timeout=300)
    # OpenSCAD 2021 writes an .echo file's assertions into it and still exits with 0
    messages = result.stderr + (tmp_path / "x.echo").read_text()
    assert "Assertion '(held >= seeds)' failed" in messages
    assert "the cup holds 16 seeds, fewer than 30" in messages


def test_the_whole_board_evaluates_assembled_and_exploded(tmp_path):
    for defines in ((), ("explode=1",), ("section=true",)):
        path, messages = openscad(tmp_path, HARDWARE / "board.scad", "board.csg", *defines)
        assert "WARNING" not in messages and "ERROR" not in messages
        text = path.read_text()
        # every place's collar is there: its rotate_extrude, one per place
        assert text.count("rotate_extrude(") >= 14


def test_the_pit_cup_renders_and_measures_as_computed(tmp_path):
    cup = B.body(load(DEFAULT)).pit.cup
    path, _messages = openscad(tmp_path, HARDWARE / "cup.scad", "cup.stl", "$fn=24")
    vertices = [tuple(float(v) for v in match.groups()) for match in re.finditer(
        r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", path.read_text())]
    assert vertices, "no facets in the STL"
    xs, ys, zs = zip(*vertices)
    assert round(max(xs) - min(xs), 3) == cup.foot_d            # the foot is the widest
    assert round(max(zs) - min(zs), 3) == cup.height
    top = max(zs)
    rim = [math.hypot(x, y) for x, y, z in vertices if abs(z - top) < 1e-6]
    assert round(min(rim), 3) == cup.inner_d / 2 and round(max(rim), 3) == cup.outer_d / 2
    # the floor: the lowest point inside the wall above the screw heads' pockets
    floor = min(z for x, y, z in vertices if math.hypot(x, y) < cup.inner_d / 2 - cup.fillet
                and z > 4)
    assert round(top - floor, 3) == cup.depth
