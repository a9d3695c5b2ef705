"""Build the Pico's MicroPython with layli frozen in: one UF2 to flash (host-only, stdlib only).

    python3 firmware/tools/build_uf2.py                       # sources from GitHub
    python3 firmware/tools/build_uf2.py --mirrors DIR         # from local git repositories
    python3 firmware/tools/build_uf2.py --plain               # the stock RPI_PICO UF2 instead
    python3 firmware/tools/build_uf2.py --digest              # the frozen sources' SHA-256 only

It builds MicroPython v1.27.0 for `RPI_PICO` (the RP2040 Pico) from the very commits the
official 1.27.0 release pins (MicroPython, pico-sdk, TinyUSB, micropython-lib, mbedtls, and
picotool, which pico-sdk 2.x needs to write a UF2), with `FROZEN_MANIFEST=firmware/manifest.py`:
the portable core and the firmware as bytecode in flash. Nothing is compiled or loaded into the
heap at import, so a board has the room its game needs (docs/pico-frame-budget.md, "A frozen
build for 2 x 12 standalone"). Flash the UF2 (hold BOOTSEL, plug in, copy it), then copy only
the config: `layli firmware deploy CONFIG --frozen`.

It writes the UF2 and, beside it, a JSON of the same name that says what is in it: the
commits, the frozen sources' SHA-256 (every file manifest.py freezes, and manifest.py), the
UF2's own SHA-256 and the toolchain. `--digest` prints this checkout's digest: the same as
the JSON's when the UF2 holds this checkout's firmware (benchmarks/pico_frame_budget.py --uf2
checks it).

Needs git, cmake, make, a host C and C++ compiler (picotool) and the Arm GNU toolchain with
newlib; on Debian or Ubuntu:

    sudo apt-get install git cmake build-essential gcc-arm-none-eabi libnewlib-arm-none-eabi \\
        libstdc++-arm-none-eabi-newlib

Sources: each pinned commit is fetched alone (`git fetch --depth 1`) from GitHub into a bare
repository in the work folder, or read from a local repository with `--mirrors DIR` (DIR holds
one repository a source, named `NAME`, `NAME.git`, `OWNER+NAME` or `OWNER+NAME/repo`) or
`--source NAME=PATH_OR_URL` for one of them. The trees are written out under WORK/src as
MicroPython's own `make submodules` lays them (lib/pico-sdk, lib/tinyusb, lib/micropython-lib,
lib/mbedtls; pico-sdk's own submodules are not used: MicroPython builds with its own TinyUSB).
A file a local repository lacks (a mirror that leaves out its largest files) is named and
passed over: the build then fails only if it needed it. A second run reuses the sources and
the builds (make rebuilds what changed: a new frozen file, a new manifest).

One change is made to MicroPython's sources (PATCHES): its freezer, tools/mpy-tool.py, aligns
frozen ARMv6-M native code to 2 bytes, but the code the viper emitter makes for the RP2040's
Cortex-M0+ must start on a word (a long jump and a 32-bit constant are loaded PC-relative,
padded for a word-aligned start): frozen at 2 mod 4, a large viper function of fast.py loops
for ever. The patch aligns it to 4, as for ARMv6 and Xtensa.

The work folder (`--work`, default ~/.cache/layli/uf2, about 400 MB) holds the sources and
the builds; the UF2 goes to `--output` (default WORK/layli-RPI_PICO.uf2, or -plain.uf2).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parent
CHECKOUT = FIRMWARE.parent
MANIFEST = FIRMWARE / "manifest.py"
DEPLOY = CHECKOUT / "controller" / "hardware" / "deploy.py"
BOARD = "RPI_PICO"
VERSION = "v1.27.0"

# The repositories, by the name --source takes: (GitHub owner/name).
REPOSITORIES = {
    "micropython": "micropython/micropython",
    "pico-sdk": "raspberrypi/pico-sdk",
    "tinyusb": "hathach/tinyusb",
    "micropython-lib": "micropython/micropython-lib",
    "mbedtls": "Mbed-TLS/mbedtls",
    "picotool": "raspberrypi/picotool",
}
# What goes where under WORK/src, at which commit: MicroPython v1.27.0 and the submodules its
# tag pins for the rp2 port (pico-sdk 2.1.1, TinyUSB, micropython-lib, mbedtls v3.6.2), and
# picotool 2.1.1, which pico-sdk 2.1.1 takes to write UF2 files. mbedtls: the rp2 port links
# it on every board (MICROPY_SSL_MBEDTLS), a Pico without network too.
PINS = (
    ("micropython", "micropython", "78ff170de9e32c79db6e64d3e33d2bd60002bdcd"),
    ("micropython/lib/pico-sdk", "pico-sdk", "9a4113fbbae65ee82d8cd6537963bc3d3b14bcca"),
    ("micropython/lib/tinyusb", "tinyusb", "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf"),
    ("micropython/lib/micropython-lib", "micropython-lib",
     "6ae440a8a144233e6e703f6759b7e7a0afaa37a4"),
    ("micropython/lib/mbedtls", "mbedtls", "107ea89daaefb9867ea9121002fbbdf926780e98"),
    ("picotool", "picotool", "de8ae5ac334e1126993f72a5c67949712fd1e1a4"),
)
STAMP = ".layli-source"     # in each tree written out: the commit it holds
# Changes made to the sources after they are written out: (file under WORK/src, the text
# there, what replaces it, why). Each is checked: a source where neither text is found stops
# the build. Listed in the JSON beside the UF2.
PATCHES = (
    ("micropython/tools/mpy-tool.py",
     "        if config.native_arch in (\n"
     "            MP_NATIVE_ARCH_ARMV6,\n"
     "            MP_NATIVE_ARCH_XTENSA,\n",
     "        if config.native_arch in (\n"
     "            MP_NATIVE_ARCH_ARMV6,\n"
     "            MP_NATIVE_ARCH_ARMV6M,\n"
     "            MP_NATIVE_ARCH_XTENSA,\n",
     "frozen ARMv6-M native code aligned to 4 bytes, not 2: the Thumb-1 code py/asmthumb.c "
     "emits for viper assumes a word-aligned start (a long jump's `ldr r1, [pc, #0]` and a "
     "32-bit constant's, padded by a nop when their offset is 2 mod 4); frozen at 2 mod 4 "
     "they load the wrong word, and fast.counting never returned (MicroPython 1.27.0, and "
     "its master in 2026-08, align ARMv6-M code as ARMv7-M's, to 2)"),
)

# (what, how to get it): each tool the build runs
TOOLS = (
    ("git", "git"),
    ("cmake", "cmake"),
    ("make", "make (build-essential)"),
    ("cc", "a host C compiler (build-essential)"),
    ("c++", "a host C++ compiler, for picotool (build-essential)"),
    ("arm-none-eabi-gcc", "the Arm GNU toolchain (gcc-arm-none-eabi, libnewlib-arm-none-eabi, "
                          "libstdc++-arm-none-eabi-newlib)"),
)
INSTALL = ("on Debian or Ubuntu: sudo apt-get install git cmake build-essential "
           "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib")


class BuildError(Exception):
    """What stops the build, in a sentence."""


# ------------------------------------------------------------------------- the frozen sources
_DEPLOY_MODULE: list = []


def _deploy():
    """controller/hardware/deploy.py, loaded by path: its `manifest_files` reads manifest.py
    as `layli firmware deploy` and MicroPython's build do (stdlib only)."""
    if not _DEPLOY_MODULE:
        spec = spec_from_file_location("layli_deploy_for_build_uf2", DEPLOY)
        assert spec is not None and spec.loader is not None
        module = module_from_spec(spec)
        spec.loader.exec_module(module)
        _DEPLOY_MODULE.append(module)
    return _DEPLOY_MODULE[0]


def frozen_files(manifest: Path = MANIFEST) -> list[tuple[str, Path]]:
    """(path on the Pico, local file) for manifest.py and every file it freezes, sorted
    (BuildError when it names a file that is not there)."""
    manifest = Path(manifest).resolve()
    deploy = _deploy()
    try:
        files = [(target, local) for local, target in deploy.manifest_files(manifest)]
    except deploy.DeployError as error:
        raise BuildError(str(error))
    return sorted(files + [("manifest.py", manifest)])


def sources_digest(manifest: Path = MANIFEST) -> str:
    """SHA-256 of the frozen sources: for each file (manifest.py among them), by its path on
    the Pico, its path and its own SHA-256, a line each. The same files give the same digest
    wherever the checkout is; a changed, added or removed file another."""
    lines = "".join("%s %s\n" % (target, hashlib.sha256(local.read_bytes()).hexdigest())
                    for target, local in frozen_files(manifest))
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------- sources
def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


def git_dir(path: Path) -> Path | None:
    """The git directory of `path` (a bare repository or a work tree), or None."""
    if _is_git_dir(path / ".git"):
        return path / ".git"
    if _is_git_dir(path):
        return path
    return None


def find_in_mirrors(mirrors: Path, name: str) -> tuple[Path | None, list[Path]]:
    """The git directory of source `name` under `mirrors`, and the places looked at."""
    owner, repo = REPOSITORIES[name].split("/")
    looked = [mirrors / repo, mirrors / (repo + ".git"), mirrors / ("%s+%s" % (owner, repo)),
              mirrors / ("%s+%s" % (owner, repo)) / "repo", mirrors / owner / repo,
              mirrors / owner / (repo + ".git")]
    for place in looked:
        found = git_dir(place)
        if found is not None:
            return found, looked
    return None, looked


def is_url(location: str) -> bool:
    return "://" in location or location.startswith("git@")


def resolve_sources(mirrors: Path | None, overrides: dict[str, str]) -> tuple[dict, list[str]]:
    """Where each source comes from: {name: ("url", URL) or ("git", git dir)}, and the problems
    (a source found nowhere), each a sentence."""
    sources: dict[str, tuple[str, str | Path]] = {}
    problems: list[str] = []
    for name, repository in REPOSITORIES.items():
        if name in overrides:
            location = overrides[name]
            if is_url(location):
                sources[name] = ("url", location)
                continue
            found = git_dir(Path(location).expanduser())
            if found is None:
                problems.append("--source %s=%s: no git repository there" % (name, location))
            else:
                sources[name] = ("git", found)
        elif mirrors is not None:
            found, looked = find_in_mirrors(mirrors, name)
            if found is None:
                problems.append("source %s (%s): no git repository under %s (looked for %s); "
                                "give it with --source %s=PATH_OR_URL" % (
                                    name, repository, mirrors,
                                    ", ".join(str(p.relative_to(mirrors)) for p in looked),
                                    name))
            else:
                sources[name] = ("git", found)
        else:
            sources[name] = ("url", "https://github.com/%s.git" % repository)
    return sources, problems


def missing_tools(path: str | None = None) -> list[str]:
    """The tools the build runs that are not on `path` (default: PATH), each named with what
    to install."""
    return ["%s: %s" % (tool, what) for tool, what in TOOLS
            if shutil.which(tool, path=path) is None]


def _run(command: list, env: dict | None = None) -> None:
    """Run `command`, shown first (BuildError naming it when it fails)."""
    print("+ " + " ".join(str(part) for part in command), file=sys.stderr, flush=True)
    done = subprocess.run([str(part) for part in command], env=env)
    if done.returncode != 0:
        raise BuildError("%s failed (exit status %d)" % (" ".join(map(str, command[:4])),
                                                        done.returncode))


def _git(git: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "--git-dir", str(git), *args], capture_output=True)


def fetched(work: Path, name: str, url: str, commit: str) -> Path:
    """A bare repository under WORK/git holding `commit` of `url` (fetched alone)."""
    git = work / "git" / (REPOSITORIES[name].replace("/", "+") + ".git")
    if git.is_dir() and _git(git, "cat-file", "-e", commit + "^{commit}").returncode == 0:
        return git
    git.mkdir(parents=True, exist_ok=True)
    if not _is_git_dir(git):
        _run(["git", "init", "-q", "--bare", git])
    _run(["git", "--git-dir", git, "fetch", "-q", "--depth", "1", url, commit])
    return git


def write_tree(git: Path, commit: str, dest: Path) -> list[str]:
    """Write `commit`'s files from the git directory `git` into `dest` (submodules left out:
    PINS places them); the paths whose contents the repository lacks."""
    if _git(git, "cat-file", "-e", commit + "^{commit}").returncode != 0:
        raise BuildError("%s has no commit %s" % (git, commit))
    listing = _git(git, "ls-tree", "-r", "-z", commit)
    if listing.returncode != 0:
        raise BuildError("git ls-tree %s in %s: %s" % (commit, git,
                                                       listing.stderr.decode().strip()))
    entries = []
    for item in listing.stdout.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, kind, sha = meta.decode().split()
        if kind == "blob":
            entries.append((mode, sha, os.fsdecode(path)))
    missing = []
    reader = subprocess.Popen(["git", "--git-dir", str(git), "cat-file", "--batch"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert reader.stdin is not None and reader.stdout is not None
    try:
        for mode, sha, path in entries:
            reader.stdin.write(sha.encode() + b"\n")
            reader.stdin.flush()
            header = reader.stdout.readline().split()
            if len(header) < 3 or header[1] != b"blob":      # "<sha> missing"
                missing.append(path)
                continue
            data = reader.stdout.read(int(header[2]))
            reader.stdout.read(1)                            # the newline after each
            target = dest / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                target.symlink_to(os.fsdecode(data))
            else:
                target.write_bytes(data)
                if mode == "100755":
                    target.chmod(0o755)
    finally:
        reader.stdin.close()
        reader.wait()
    return missing


def prepare_sources(work: Path, sources: dict) -> dict[str, list[str]]:
    """Every pinned tree written out under WORK/src (a tree already there at its commit is
    kept); the files each lacks."""
    lacking: dict[str, list[str]] = {}
    src = work / "src"
    for where, name, commit in PINS:
        dest = src / where
        stamp = dest / STAMP
        if stamp.is_file() and stamp.read_text().split()[:1] == [commit]:
            continue
        kind, location = sources[name]
        git = fetched(work, name, str(location), commit) if kind == "url" else Path(location)
        if dest.exists():
            shutil.rmtree(dest)     # a tree at another commit (or half written): anew,
                                    # with what was inside it (the submodules after it)
        dest.mkdir(parents=True)
        print("writing %s at %s from %s" % (where, commit[:10], location), file=sys.stderr,
              flush=True)
        missing = write_tree(git, commit, dest)
        if missing:
            lacking[where] = missing
            print("  %s lacks %d file%s (passed over): %s" % (
                location, len(missing), "" if len(missing) == 1 else "s",
                ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")),
                  file=sys.stderr, flush=True)
        stamp.write_text("%s %s\n" % (commit, location))
    return lacking


def apply_patches(work: Path) -> bool:
    """PATCHES applied to the sources under WORK/src (each once); True when one was applied
    now. The builds' frozen content is then made again: MicroPython's makemanifest.py
    remakes frozen_content.c only for a frozen file newer than it, not for a new freezer."""
    applied = False
    for where, old, new, _ in PATCHES:
        path = work / "src" / where
        text = path.read_text(encoding="utf-8")
        if new in text:
            continue
        if text.count(old) != 1:
            raise BuildError("%s: the text to patch is not there (another commit?)" % path)
        path.write_text(text.replace(old, new), encoding="utf-8")
        print("patched %s" % where, file=sys.stderr, flush=True)
        applied = True
    if applied:
        for made in work.glob("build-%s-*/frozen_content.c" % BOARD):
            made.unlink()
    return applied


# ------------------------------------------------------------------------------------ build
def build(work: Path, frozen: bool, jobs: int, manifest: Path = MANIFEST) -> Path:
    """picotool, mpy-cross and MicroPython for RPI_PICO (with `manifest` frozen in); the
    firmware.uf2 made."""
    src = work / "src"
    micropython = src / "micropython"
    picotool_install = work / "picotool-install"
    if not (picotool_install / "picotool" / "picotoolConfig.cmake").is_file():
        picotool_build = work / "build-picotool"
        _run(["cmake", "-S", src / "picotool", "-B", picotool_build,
              "-DPICO_SDK_PATH=%s" % (micropython / "lib" / "pico-sdk"),
              "-DPICOTOOL_NO_LIBUSB=1", "-DPICOTOOL_FLAT_INSTALL=1",
              "-DCMAKE_INSTALL_PREFIX=%s" % picotool_install])
        _run(["make", "-C", picotool_build, "-j%d" % jobs])
        _run(["make", "-C", picotool_build, "install"])
    env = dict(os.environ)
    # in the environment, not on make's line: there it would replace the Makefile's own
    # board arguments and build a plain RPI_PICO whatever else is asked
    env["CMAKE_ARGS"] = "-Dpicotool_DIR=%s" % (picotool_install / "picotool")
    # the sources are trees, not clones: the version MicroPython reports, as its tag's
    env["MICROPY_GIT_TAG"] = VERSION
    env["MICROPY_GIT_HASH"] = PINS[0][2][:10]
    _run(["make", "-C", micropython / "mpy-cross", "-j%d" % jobs], env=env)
    # a build folder each: ports/rp2's Makefile runs cmake once a folder, and a manifest
    # given later to a folder configured without it would be ignored
    out = work / ("build-%s-%s" % (BOARD, "frozen" if frozen else "plain"))
    command = ["make", "-C", micropython / "ports" / "rp2", "BOARD=%s" % BOARD,
               "BUILD=%s" % out, "-j%d" % jobs]
    if frozen:
        command.append("FROZEN_MANIFEST=%s" % Path(manifest).resolve())
    _run(command, env=env)
    uf2 = out / "firmware.uf2"
    if not uf2.is_file():
        raise BuildError("the build made no %s" % uf2)
    return uf2


def _first_line(command: list[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError:
        return ""
    return (done.stdout or done.stderr).strip().splitlines()[0] if done.returncode == 0 else ""


def description(uf2: Path, frozen: bool, sources: dict, manifest: Path = MANIFEST,
                digest: str | None = None) -> dict:
    """What the JSON beside the UF2 says (`digest`: the frozen sources' as the build took
    them; by default as they are now)."""
    data = uf2.read_bytes()
    layli = subprocess.run(["git", "-C", str(CHECKOUT), "rev-parse", "HEAD"],
                           capture_output=True, text=True, env={**os.environ,
                                                                "GIT_OPTIONAL_LOCKS": "0"})
    out = {
        "uf2": uf2.name, "uf2_bytes": len(data), "uf2_sha256": hashlib.sha256(data).hexdigest(),
        "board": BOARD, "micropython": VERSION, "frozen": frozen,
        "commits": [{"path": where, "repository": REPOSITORIES[name], "commit": commit,
                     "from": str(sources[name][1])} for where, name, commit in PINS],
        "patches": ["%s: %s" % (where, why) for where, _, _, why in PATCHES],
        "toolchain": {"arm-none-eabi-gcc": _first_line(["arm-none-eabi-gcc", "--version"]),
                      "cmake": _first_line(["cmake", "--version"])},
        "built": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    if frozen:
        files = frozen_files(manifest)
        out.update(manifest=str(Path(manifest).resolve()), frozen_files=len(files) - 1,
                   sources_sha256=digest or sources_digest(manifest),
                   layli_commit=layli.stdout.strip() if layli.returncode == 0 else None)
    return out


# ------------------------------------------------------------------------------ command line
def _source(text: str) -> tuple[str, str]:
    name, sep, location = text.partition("=")
    if not sep or not location:
        raise argparse.ArgumentTypeError("%r is not NAME=PATH_OR_URL" % text)
    if name not in REPOSITORIES:
        raise argparse.ArgumentTypeError("no source %r: one of %s" % (
            name, ", ".join(REPOSITORIES)))
    return name, location


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text)
    if jobs < 1:
        raise argparse.ArgumentTypeError("at least 1, not %d" % jobs)
    return jobs


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(
        prog="build_uf2.py", description=__doc__.split("\n\n")[0],
        epilog="Flash the UF2 with BOOTSEL held, then `layli firmware deploy CONFIG --frozen`.")
    out.add_argument("--mirrors", type=Path, metavar="DIR",
                     help="take every source from the git repositories in DIR instead of "
                          "GitHub (NAME, NAME.git, OWNER+NAME or OWNER+NAME/repo)")
    out.add_argument("--source", type=_source, action="append", default=[],
                     metavar="NAME=PATH_OR_URL",
                     help="one source from elsewhere (a git repository or a URL); NAME is "
                          "one of " + ", ".join(REPOSITORIES))
    out.add_argument("--work", type=Path, default=None, metavar="DIR",
                     help="the sources and builds (default ~/.cache/layli/uf2)")
    out.add_argument("-o", "--output", type=Path, default=None, metavar="FILE.uf2",
                     help="the UF2 (default WORK/layli-RPI_PICO.uf2); FILE.json beside it")
    out.add_argument("--plain", action="store_true",
                     help="MicroPython's stock RPI_PICO build, nothing of layli frozen in (to "
                          "check a toolchain against the official UF2)")
    out.add_argument("--manifest", type=Path, default=MANIFEST,
                     help="the manifest to freeze (default firmware/manifest.py)")
    out.add_argument("-j", "--jobs", type=_jobs, default=os.cpu_count() or 1,
                     help="parallel compile jobs (default: every core)")
    out.add_argument("--digest", action="store_true",
                     help="print the frozen sources' SHA-256 (as the JSON has it) and stop")
    return out


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.plain and args.manifest.resolve() != MANIFEST:
        parser().error("--plain freezes nothing: --manifest is for the frozen build")
    if not args.manifest.is_file():
        parser().error("--manifest %s: no such file" % args.manifest)
    if args.mirrors is not None and not args.mirrors.is_dir():
        parser().error("--mirrors %s: no such folder" % args.mirrors)
    if args.output is not None and args.output.suffix != ".uf2":
        parser().error("--output %s: a .uf2 file (the JSON goes beside it)" % args.output)
    if args.digest:
        try:
            print(sources_digest(args.manifest))
        except BuildError as error:
            print("build_uf2.py: %s" % error, file=sys.stderr)
            return 1
        return 0
    work = (args.work or Path.home() / ".cache" / "layli" / "uf2").expanduser().resolve()
    output = (args.output or work / ("layli-%s%s.uf2" % (BOARD, "-plain" if args.plain
                                                          else ""))).resolve()
    sources, problems = resolve_sources(args.mirrors, dict(args.source))
    tools = missing_tools()
    if tools:
        problems.append("missing: " + "; ".join(tools) + " (" + INSTALL + ")")
    if problems:
        print("build_uf2.py: cannot build:\n" + "\n".join("  " + p for p in problems),
              file=sys.stderr)
        return 2
    try:
        # the sources as the build takes them (a manifest naming a missing file stops here)
        digest = None if args.plain else sources_digest(args.manifest)
        work.mkdir(parents=True, exist_ok=True)
        output.parent.mkdir(parents=True, exist_ok=True)
        prepare_sources(work, sources)
        apply_patches(work)
        uf2 = build(work, not args.plain, args.jobs, args.manifest)
    except BuildError as error:
        print("build_uf2.py: %s" % error, file=sys.stderr)
        return 1
    shutil.copyfile(uf2, output)
    about = description(output, not args.plain, sources, args.manifest, digest)
    about_path = output.with_suffix(".json")
    about_path.write_text(json.dumps(about, indent=2) + "\n", encoding="utf-8")
    print("%s (%d bytes, sha256 %s)\n%s" % (output, about["uf2_bytes"], about["uf2_sha256"],
                                            about_path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
