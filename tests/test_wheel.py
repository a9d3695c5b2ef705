"""`pip install layli` as a Pi owner does it: the wheel, built from the repository's files and
installed in a fresh virtual environment outside the checkout, has what its commands need —
the board profiles, the parts, the wiring diagrams, the Pico's firmware — and runs them from
anywhere; what it cannot carry, its commands say how to install.

The environment sees the test environment's packages (`--system-site-packages`: the
dependencies come from PyPI either way) and gets the wheel alone (`--no-deps`); the wheel is
built without network (`--no-build-isolation`, setuptools from the test extra)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The virtual environment's `layli`, from a wheel of the tracked files."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    names = subprocess.run(["git", "ls-files"], cwd=CHECKOUT, capture_output=True, text=True,
                           check=True).stdout.split("\n")
    for name in filter(None, names):
        if name.startswith(("tests/", "benchmarks/", "docs/", ".ci/")) or (
                name.startswith("firmware/") and name.count("/") > 1):
            continue            # not in the wheel: quicker to leave out of the copy
        origin = CHECKOUT / name
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_symlink():
            os.symlink(os.readlink(origin), target)
        else:
            shutil.copy2(origin, target)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                            "--no-build-isolation", "--wheel-dir", str(root / "dist"),
                            str(source)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    wheel = next((root / "dist").glob("layli-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, timeout=300)
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                           "--force-reinstall", str(wheel)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    where = subprocess.run([str(python), "-c", "import controller; print(controller.__file__)"],
                           capture_output=True, text=True, cwd=root, check=True).stdout
    assert where.startswith(str(venv)), where        # the wheel's, not the checkout's
    return venv / "bin" / "layli"


def run(layli: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(layli), *args], capture_output=True, text=True, timeout=600,
                          cwd=layli.parent.parent.parent)


def test_the_wheel_lists_and_checks_the_shipped_profiles(installed):
    listed = run(installed, "hardware", "list")
    assert listed.returncode == 0, listed.stderr
    for name in ("pico-bridge-2x6", "pico-bridge-2x12", "pi-direct-2x7", "pico-standalone-2x12"):
        assert name in listed.stdout, listed.stdout
    checked = run(installed, "hardware", "check", "pico-bridge-2x12")
    assert checked.returncode == 0 and "headroom" in checked.stdout, (
        checked.stdout + checked.stderr)
    wiring = run(installed, "hardware", "wiring", "pico-bridge-2x6")
    assert wiring.returncode == 0 and wiring.stdout.lstrip().startswith("<"), wiring.stderr


def test_the_wheel_plays_and_lists_the_rules(installed):
    variants = run(installed, "rules", "variants")
    assert variants.returncode == 0 and "mangala-iv" in variants.stdout, variants.stderr
    sim = run(installed, "sim", "--games", "2", "--seed", "1", "--json")
    assert sim.returncode == 0, sim.stderr[-2000:]
    figures = json.loads(sim.stdout)
    assert figures["completed"] == 2 and figures["board_matches_engine"] == 2, figures
    game = run(installed, "run", "--profile", "pico-bridge-2x6", "--simulate", "--seed", "3",
               "--state", str(installed.parent.parent.parent / "state"))
    assert game.returncode == 0, game.stderr[-2000:]
    assert "game over" in game.stderr and "the board equals the engine" in game.stderr


def test_the_wheel_makes_a_picos_config_and_deploys_the_firmware_it_carries(installed, tmp_path):
    """`layli firmware config|deploy` from the wheel alone: the firmware's modules and the
    portable core it copies are the installed package's files, every one manifest.py lists."""
    config = tmp_path / "config.json"
    made = run(installed, "firmware", "config", "pico-bridge-2x6", "-o", str(config))
    assert made.returncode == 0 and json.loads(config.read_text())["mode"] == "bridge", (
        made.stderr)
    venv = installed.parent.parent
    plan = run(installed, "firmware", "deploy", str(config), "--port", "/dev/ttyACM0",
               "--dry-run")
    assert plan.returncode == 0, plan.stderr
    copied = [word for word in plan.stdout.split() if word.startswith("/")
              and not word.startswith("/dev/")]
    sources = [Path(word) for word in copied if word != str(config)]
    assert sources and all(path.is_file() and str(path).startswith(str(venv))
                           for path in sources), copied
    names = {path.name for path in sources}
    assert {"main.py", "bridge.py", "standalone.py", "hx711.py", "game.py", "guide.py"} <= names
    assert "manifest.py" not in names
    # the same files a checkout's deploy copies, no more, no fewer
    from controller.hardware.deploy import manifest_files

    targets = [target for _, target in manifest_files()]
    on_pico = sorted(word[1:] for word in plan.stdout.split() if word.startswith(":"))
    assert on_pico == sorted(targets + ["config.json"])


def test_the_wheel_says_what_to_install_for_what_it_cannot_carry(installed, tmp_path):
    """The reference loop of `layli bench rules` lives in the project's source; MicroPython
    under node is an npm package: each command says exactly what to do."""
    bench = run(installed, "bench", "rules", "--runs", "1")
    assert bench.returncode == 2 and "pip install -e ." in bench.stderr, bench.stderr
    home = tmp_path / "home"
    home.mkdir()
    replay = subprocess.run([str(installed), "rules", "replay", "layli-goobalay", "3",
                             "--micropython"], capture_output=True, text=True, timeout=600,
                            cwd=tmp_path, env=dict(os.environ, HOME=str(home),
                                                   LAYLI_MICROPYTHON_PACKAGE=""))
    assert replay.returncode == 2, replay.stderr
    assert "npm install --prefix ~/.layli @micropython/micropython-webassembly-pyscript@1.27.0" \
        in replay.stderr


def test_the_wheel_carries_the_languages_and_the_pages_templates(installed):
    python = installed.parent / "python"
    script = ("from controller.languages import _, using\n"
              "from controller.web.pages import Pages\n"
              "from simulator.ui.app import STATIC\n"
              "with using('it'):\n"
              "    print(_('South'))\n"
              "    print(Pages(STATIC).render('index.html')[:200])\n")
    done = subprocess.run([str(python), "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=installed.parent.parent.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == "Sud" and '<html lang="it">' in done.stdout
