"""Run code under real MicroPython 1.27, the runtime of the Pico (host-only).

MicroPython's WebAssembly port (the npm package `@micropython/micropython-webassembly-pyscript`)
runs under node. `run(script)` starts `node runner.mjs`, puts the portable core (and any extra
files) into MicroPython's filesystem under /app, sets `sys.path` to ['/app'] only (no frozen
modules: as lean as a Pico) and runs the script::

    from controller import micropython
    result = micropython.run("from controller.rules import Game; print(Game().legal_moves())")
    result.stdout        # '[1, 2, 3, 4, 5, 6]\\n'

The script runs as __main__ and may `await` at top level. This port collects garbage only when
Python hands control back to JS (`gc.collect()` in running code only schedules it, and the heap
grows meanwhile), so code that measures the heap does::

    import gc, runner           # `runner`: a JS module that runner.mjs provides
    gc.collect()
    await runner.settle()       # back to JS: node's GC and finalizers run, then MicroPython's
    print(gc.mem_alloc())       # the live heap

Install the package with `npm ci --prefix firmware` in the project checkout; an installed
layli finds it in ~/.layli (`npm install --prefix ~/.layli
@micropython/micropython-webassembly-pyscript@1.27.0`); or point LAYLI_MICROPYTHON_PACKAGE at
the package's folder. The tests (tests/test_micropython.py), the
`layli rules replay --micropython` command and `layli bench rules` use this module.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

from controller.errors import UsageError

PACKAGE = "@micropython/micropython-webassembly-pyscript"
PACKAGE_VERSION = "1.27.0"          # the MicroPython the firmware targets; firmware/package.json
ENV_PACKAGE = "LAYLI_MICROPYTHON_PACKAGE"
HOME_PREFIX = Path.home() / ".layli"  # where an installed layli looks for the npm package
INSTALL = ("run `npm install --prefix ~/.layli %s@%s` (in the project's checkout: `npm ci "
           "--prefix firmware`), or set %s to the folder of that npm package" % (
               PACKAGE, PACKAGE_VERSION, ENV_PACKAGE))

RUNNER = Path(__file__).resolve().with_name("runner.mjs")
CONTROLLER = Path(__file__).resolve().parent.parent   # the `controller` package folder
CHECKOUT = CONTROLLER.parent                          # the project checkout, when run from one

# The portable core's subpackages (docs/architecture.md); those not written yet are skipped.
PORTABLE_FOLDERS = ("rules", "sensing", "guide", "session", "protocol", "ai")


class MicroPythonUnavailable(UsageError):
    """node or the npm package is missing; the message says how to install them."""


class Completed(NamedTuple):
    """What a MicroPython run wrote and how it ended (0; 1 when the script raised, with the
    traceback on stderr; n for SystemExit(n); 70 when the runner itself failed)."""

    stdout: str
    stderr: str
    returncode: int


def portable_files() -> dict[str, bytes]:
    """The portable core as {path under /app: contents}: controller/__init__.py and every .py
    file under the portable subpackages that exist."""
    files = {"controller/__init__.py": (CONTROLLER / "__init__.py").read_bytes()}
    for folder in PORTABLE_FOLDERS:
        root = CONTROLLER / folder
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" not in path.parts:
                files[path.relative_to(CHECKOUT).as_posix()] = path.read_bytes()
    return files


def find_node() -> str:
    """The node executable, or MicroPythonUnavailable."""
    node = shutil.which("node")
    if node is None:
        raise MicroPythonUnavailable("MicroPython runs under node, which is not on PATH: install "
                                     "Node.js 20, then %s" % INSTALL)
    return node


def find_package() -> Path:
    """The npm package's folder: $LAYLI_MICROPYTHON_PACKAGE, else firmware/node_modules/... in
    the checkout that holds this `controller` package, else in the current directory, else
    ~/.layli/node_modules/... (an installed layli's)."""
    named = os.environ.get(ENV_PACKAGE)
    if named:
        folder = Path(named)
        if not (folder / "micropython.mjs").is_file():
            raise MicroPythonUnavailable(
                "%s=%s holds no micropython.mjs: point it at the folder of the npm package %s %s, "
                "or unset it and run `npm ci --prefix firmware` in the project checkout" % (
                    ENV_PACKAGE, named, PACKAGE, PACKAGE_VERSION))
        return _checked_version(folder)
    places = [CHECKOUT / "firmware" / "node_modules" / PACKAGE,
              Path.cwd() / "firmware" / "node_modules" / PACKAGE,
              HOME_PREFIX / "node_modules" / PACKAGE]
    for folder in places:
        if (folder / "micropython.mjs").is_file():
            return _checked_version(folder)
    raise MicroPythonUnavailable("MicroPython %s is not installed (looked in %s): %s" % (
        PACKAGE_VERSION, " and ".join(str(place) for place in dict.fromkeys(places)), INSTALL))


def _checked_version(folder: Path) -> Path:
    """`folder` if it holds the pinned MicroPython (1.27.x): another version would check the
    core against a runtime the firmware does not run."""
    try:
        version = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        version = "unknown"
    wanted = PACKAGE_VERSION.rsplit(".", 1)[0] + "."
    if not str(version).startswith(wanted):
        raise MicroPythonUnavailable("%s in %s is version %s, not %s: %s" % (
            PACKAGE, folder, version, PACKAGE_VERSION, INSTALL))
    return folder


def unavailable_reason() -> str | None:
    """Why MicroPython cannot run here, or None when it can (for tests that skip or fail)."""
    try:
        find_node()
        find_package()
    except MicroPythonUnavailable as error:
        return str(error)
    return None


def run(script: str, *, files: dict[str, bytes] | None = None, heapsize: int | None = None,
        timeout: float = 900) -> Completed:
    """Run `script` under MicroPython with the portable core (and `files`, paths relative to
    /app) in its filesystem. Raises MicroPythonUnavailable, or subprocess.TimeoutExpired after
    `timeout` seconds.

    `heapsize` is the GC heap to start with, in bytes (None: the package's 1 MB). It is not a
    cap: this build of the port grows its heap on demand, so it cannot stand in for a Pico's
    190 KB; measure with `gc.mem_alloc()` instead (`layli bench rules` does).
    """
    node = find_node()
    package = find_package()
    tree = portable_files()
    for name, data in (files or {}).items():
        if name.startswith("/") or ".." in name.split("/"):
            raise ValueError("file %r must be a path relative to /app" % name)
        tree[name] = data.encode("utf-8") if isinstance(data, str) else data
    request = {
        "module": str(package / "micropython.mjs"),
        "files": {name: base64.b64encode(data).decode("ascii") for name, data in tree.items()},
        "heapsize": heapsize,
        "script": script,
    }
    # --expose-gc: runner.settle() runs node's GC (see the module's docstring)
    process = subprocess.run([node, "--expose-gc", str(RUNNER)],
                             input=json.dumps(request).encode("utf-8"),
                             capture_output=True, timeout=timeout)
    # Decoded by hand, not with text=True, which would translate newlines: the bytes must be
    # compared with CPython's exactly.
    return Completed(process.stdout.decode("utf-8", "replace"),
                     process.stderr.decode("utf-8", "replace"), process.returncode)


def plain_test_results(stdout: str) -> dict[tuple[str, str], dict]:
    """The report plain_tests.py prints, read back: {(module, test name): {"ok", "traceback",
    "printed", ...}}, what each test printed gathered under it."""
    results: dict[tuple[str, str], dict] = {}
    printed: list[str] = []
    for line in stdout.splitlines():
        if line.startswith("@@begin "):
            printed = []
        elif line.startswith("@@result "):
            outcome = json.loads(line[len("@@result "):])
            outcome["printed"] = "\n".join(printed)
            results[(outcome["module"], outcome["name"])] = outcome
        else:
            printed.append(line)
    return results
