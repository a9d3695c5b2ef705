"""What goes onto the Pico, type-checked against MicroPython 1.27's own stubs.

pyright (the npm package that firmware/package-lock.json pins) checks the firmware modules and
the portable core with firmware/pyrightconfig.json, against micropython-rp2-rpi-pico-stubs
(firmware/pico-stubs.txt pins them, hashes and all) as the whole Python environment: a
module, an attribute or a call signature that MicroPython on a Pico does not have fails here,
with pyright's messages, before it fails on a board.

- every file manifest.py puts on the Pico is analysed, and pyright reports nothing;
- a probe of things a Pico lacks (a CPython-only module, a method rp2.DMA does not have, a
  keyword-only argument passed by position ...) is reported line by line, and the firmware's
  own idioms beside them (`const` with its CPython fallback, viper pointers, the PIO
  assembler's names) are not: the check is not vacuous, and CPython's standard library never
  stands in for MicroPython's.

Without node, pyright or the stubs these tests skip locally, saying what to install, and fail
when the environment variable CI is set: CI must never pass without having run them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from importlib.metadata import distributions
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
FIRMWARE = CHECKOUT / "firmware"
CONFIG = FIRMWARE / "pyrightconfig.json"
PYRIGHT = FIRMWARE / "node_modules" / "pyright"
STUB_PINS = FIRMWARE / "pico-stubs.txt"
STUBS = FIRMWARE / ".pico-stubs" / "lib" / "site-packages"    # the config's venv
INSTALL_PYRIGHT = "npm ci --prefix firmware"
INSTALL_STUBS = ("python3 -m pip install --no-user --no-deps --only-binary=:all: "
                 "--require-hashes --upgrade --target firmware/.pico-stubs/lib/site-packages "
                 "-r firmware/pico-stubs.txt")


def _unavailable(reason: str) -> None:
    """Skip locally; fail in CI, where a skipped check would look like a passed one."""
    if os.environ.get("CI"):
        pytest.fail("%s (the firmware's type check must run in CI)" % reason, pytrace=False)
    pytest.skip(reason)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_stubs() -> dict[str, str]:
    """{distribution name: version} as firmware/pico-stubs.txt pins them."""
    pins = {}
    for line in STUB_PINS.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", line)
        if found:
            pins[_normal(found.group(1))] = found.group(2)
    return pins


def installed_stubs() -> dict[str, str]:
    """{distribution name: version} of what pip put into the stubs' folder."""
    return {_normal(dist.metadata["Name"]): dist.version
            for dist in distributions(path=[str(STUBS)])}


def unavailable_reason() -> str | None:
    """Why pyright cannot check the firmware here, or None when it can."""
    if shutil.which("node") is None:
        return "pyright runs under node, which is not on PATH: install Node.js 20"
    lock = json.loads((FIRMWARE / "package-lock.json").read_text(encoding="utf-8"))
    wanted = lock["packages"]["node_modules/pyright"]["version"]
    try:
        have = json.loads((PYRIGHT / "package.json").read_text(encoding="utf-8"))["version"]
    except OSError:
        return "pyright %s is not installed: run `%s`" % (wanted, INSTALL_PYRIGHT)
    if have != wanted:
        return "pyright %s is installed, package-lock.json pins %s: run `%s`" % (
            have, wanted, INSTALL_PYRIGHT)
    pins, installed = pinned_stubs(), installed_stubs()
    if installed != pins:
        return "the MicroPython stubs in firmware/.pico-stubs are %s, pico-stubs.txt pins %s: " \
               "run `%s`" % (", ".join("%s %s" % item for item in sorted(installed.items()))
                             or "missing", ", ".join("%s %s" % item for item in
                                                     sorted(pins.items())), INSTALL_STUBS)
    return None


@pytest.fixture(scope="module")
def pyright():
    """Runs pyright with the firmware's config on the files given (none: the config's own),
    and returns its JSON report."""
    reason = unavailable_reason()
    if reason is not None:
        _unavailable(reason)

    def run(*files: Path) -> dict:
        result = subprocess.run(
            [shutil.which("node"), str(PYRIGHT / "index.js"), "--outputjson",
             "--project", str(CONFIG), *[str(path) for path in files]],
            capture_output=True, text=True, cwd=CHECKOUT, timeout=600)
        try:
            return json.loads(result.stdout)
        except ValueError:
            pytest.fail("pyright did not report (exit %d):\n%s%s" % (
                result.returncode, result.stdout[-3000:], result.stderr[-3000:]),
                pytrace=False)
    return run


def _shown(diagnostic: dict, root: Path) -> str:
    """A diagnostic as pyright prints it, with the path relative to `root`."""
    path = Path(diagnostic["file"])
    if path.is_relative_to(root):
        path = path.relative_to(root)
    start = diagnostic["range"]["start"]
    rule = " (%s)" % diagnostic["rule"] if diagnostic.get("rule") else ""
    return "%s:%d:%d - %s: %s%s" % (path, start["line"] + 1, start["character"] + 1,
                                    diagnostic["severity"], diagnostic["message"], rule)


def _manifest_files() -> list[str]:
    """What `layli firmware deploy` copies onto the Pico (manifest.py's files), as paths on
    the Pico."""
    from controller.hardware import deploy

    return sorted(target for _, target in deploy.manifest_files())


def test_what_goes_onto_the_pico_type_checks(pyright):
    report = pyright()
    problems = [_shown(diagnostic, CHECKOUT) for diagnostic in report["generalDiagnostics"]]
    if problems:
        pytest.fail("pyright, against MicroPython 1.27's stubs for the Pico (firmware/"
                    "pyrightconfig.json), reports %d problem(s):\n%s" % (
                        len(problems), "\n".join(problems)), pytrace=False)
    files = _manifest_files()
    assert report["summary"]["filesAnalyzed"] == len(files), (
        "pyright analysed %d files; manifest.py puts %d on the Pico: make the config's "
        "include and exclude say the same as manifest.py\n%s" % (
            report["summary"]["filesAnalyzed"], len(files), "\n".join(files)))


# Each line ending in `# expect: RULE` must be reported under that rule, and nothing else may
# be reported: the firmware's idioms (the rest) must pass.
PROBE = '''
import machine
import micropython
import rp2
import time

try:
    from micropython import const
except ImportError:                 # CPython
    def const(value):
        return value

TYPE_CHECKING = False
if TYPE_CHECKING:                   # the PIO assembler's names, for the type checker only
    from rp2.asm_pio import *       # pyright: ignore[reportWildcardImportFromLibrary]

import threading                    # expect: reportMissingImports
import traceback                    # expect: reportMissingImports
import serial                       # expect: reportMissingImports
time.monotonic()                    # expect: reportAttributeAccessIssue
"seed".removeprefix("s")            # expect: reportAttributeAccessIssue
rp2.DMA().transfer()                # expect: reportAttributeAccessIssue
machine.Pin(2, machine.Pin.OUT, machine.Pin.PULL_UP, 1)    # expect: reportCallIssue
machine.Pin(2, machine.Pin.OUT, valu=1)                     # expect: reportCallIssue
machine.WDT(timeout=2000).feed(1)   # expect: reportCallIssue
print(ptr9)                         # expect: reportUndefinedVariable

SEEDS = const(48)
machine.Pin(2, machine.Pin.OUT, value=1)
machine.Pin(3, machine.Pin.IN, machine.Pin.PULL_UP)
time.sleep_ms(time.ticks_diff(time.ticks_ms(), 0))
dma = rp2.DMA()
dma.config(read=0, write=bytearray(4), count=1, ctrl=dma.pack_ctrl(size=2, irq_quiet=True))
NOW_US = machine.mem32[0x40054028]


@rp2.asm_pio(set_init=rp2.PIO.OUT_LOW, sideset_init=rp2.PIO.OUT_LOW)
def blink():
    wrap_target()
    set(pins, 1).side(1)[31]
    jmp(x_dec, "blink")
    set(pins, 0)[31]
    wrap()


@micropython.viper
def total(buffer: ptr8, n: int) -> int:
    words = ptr32(buffer)
    s = 0
    for i in range(n):
        s += buffer[i]
    return s + words[0] + int(uint(n))
'''


def test_the_check_catches_what_a_pico_lacks(pyright, tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    expected = sorted((number, line.rsplit("# expect: ", 1)[1].strip())
                      for number, line in enumerate(PROBE.splitlines(), 1)
                      if "# expect: " in line)
    report = pyright(probe)
    found = sorted((diagnostic["range"]["start"]["line"] + 1, diagnostic.get("rule", ""))
                   for diagnostic in report["generalDiagnostics"])
    shown = "\n".join(_shown(diagnostic, tmp_path) for diagnostic in report["generalDiagnostics"])
    assert found == expected, "pyright reported on the probe:\n%s" % shown
