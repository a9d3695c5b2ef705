"""firmware/tools/build_uf2.py, the frozen MicroPython build, in what needs no Arm toolchain:
the pinned commits, the arguments and what it says is missing, how it lays out the sources
(from a git repository here, a commit fetched alone, a file the repository lacks), its patch
of MicroPython's freezer, the frozen sources' digest the JSON beside a UF2 carries, and the
benchmark taking a UF2 only when that digest is this checkout's. (The build itself, 5 minutes
on two cores, and the UF2 on the emulated Pico are in docs/pico-frame-budget.md.)"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark

CHECKOUT = Path(__file__).resolve().parent.parent
SCRIPT = CHECKOUT / "firmware" / "tools" / "build_uf2.py"


def _load():
    spec = spec_from_file_location("layli_build_uf2_under_test", SCRIPT)
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load()
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


# --- the pinned commits ----------------------------------------------------------------------

def test_the_commits_are_those_of_micropython_1_27_0s_release():
    """MicroPython v1.27.0 and the submodules its tag pins for the rp2 port, and picotool
    2.1.1 (the kit's UF2 was built from the same: firmware/emulator/README.md)."""
    pins = {where: (name, commit) for where, name, commit in build.PINS}
    assert pins == {
        "micropython": ("micropython", "78ff170de9e32c79db6e64d3e33d2bd60002bdcd"),
        "micropython/lib/pico-sdk": ("pico-sdk", "9a4113fbbae65ee82d8cd6537963bc3d3b14bcca"),
        "micropython/lib/tinyusb": ("tinyusb", "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf"),
        "micropython/lib/micropython-lib": ("micropython-lib",
                                            "6ae440a8a144233e6e703f6759b7e7a0afaa37a4"),
        "micropython/lib/mbedtls": ("mbedtls", "107ea89daaefb9867ea9121002fbbdf926780e98"),
        "picotool": ("picotool", "de8ae5ac334e1126993f72a5c67949712fd1e1a4"),
    }
    assert build.PINS[0][0] == "micropython"        # first: the others are written inside it
    assert build.VERSION == "v1.27.0" and build.BOARD == "RPI_PICO"
    assert set(build.REPOSITORIES) == {name for _, name, _ in build.PINS}
    for _, name, commit in build.PINS:
        assert re.fullmatch(r"[0-9a-f]{40}", commit)
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", build.REPOSITORIES[name])


def test_the_sources_come_from_github_by_default():
    sources, problems = build.resolve_sources(None, {})
    assert problems == []
    assert sources["micropython"] == ("url", "https://github.com/micropython/micropython.git")
    assert sources["mbedtls"] == ("url", "https://github.com/Mbed-TLS/mbedtls.git")


# --- arguments and what is missing -------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--jobs", "0"], "at least 1"),
    (["--jobs", "two"], "'two' is not a number"),
    (["--source", "micropython"], "is not NAME=PATH_OR_URL"),
    (["--source", "circuitpython=/x"], "no source 'circuitpython': one of micropython, "
                                       "pico-sdk"),
    (["--mirrors", "/no/such/folder"], "--mirrors /no/such/folder: no such folder"),
    (["--output", "firmware.bin"], "a .uf2 file"),
    (["--manifest", "/no/manifest.py"], "--manifest /no/manifest.py: no such file"),
    (["--plain", "--manifest", str(SCRIPT)], "--plain freezes nothing"),
])
def test_bad_arguments_say_what_is_wrong(args, words, capsys):
    with pytest.raises(SystemExit) as stopped:
        build.main(args)
    assert stopped.value.code == 2 and words in capsys.readouterr().err


def test_missing_tools_are_named_with_what_to_install(tmp_path):
    missing = build.missing_tools(path=str(tmp_path))       # an empty PATH
    assert [line.split(":")[0] for line in missing] == [
        "git", "cmake", "make", "cc", "c++", "arm-none-eabi-gcc"]
    assert "gcc-arm-none-eabi" in missing[-1] and "libnewlib-arm-none-eabi" in missing[-1]


def test_everything_missing_is_said_at_once(tmp_path, monkeypatch, capsys):
    """No toolchain and a mirrors folder without the repositories: one message naming every
    tool and every source, before anything is fetched or built."""
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert build.main(["--mirrors", str(tmp_path), "--work", str(tmp_path / "work")]) == 2
    err = capsys.readouterr().err
    for words in ("cmake", "arm-none-eabi-gcc", "apt-get install",
                  "source micropython (micropython/micropython): no git repository under",
                  "source picotool (raspberrypi/picotool)", "--source pico-sdk=PATH_OR_URL"):
        assert words in err
    assert not (tmp_path / "work").exists()


def _fake_git_dir(path: Path) -> Path:
    (path / "objects").mkdir(parents=True)
    (path / "HEAD").write_text("ref: refs/heads/master\n")
    return path


def test_mirrors_are_found_by_their_usual_names(tmp_path):
    _fake_git_dir(tmp_path / "micropython+micropython" / "repo")   # owner+name/repo
    _fake_git_dir(tmp_path / "pico-sdk.git")                        # a bare name.git
    _fake_git_dir(tmp_path / "tinyusb" / ".git")                    # a clone
    _fake_git_dir(tmp_path / "micropython" / "micropython-lib")     # owner/name
    _fake_git_dir(tmp_path / "Mbed-TLS+mbedtls")                    # owner+name
    sources, problems = build.resolve_sources(tmp_path, {"picotool": "https://example/p.git"})
    assert problems == []
    assert sources == {
        "micropython": ("git", tmp_path / "micropython+micropython" / "repo"),
        "pico-sdk": ("git", tmp_path / "pico-sdk.git"),
        "tinyusb": ("git", tmp_path / "tinyusb" / ".git"),
        "micropython-lib": ("git", tmp_path / "micropython" / "micropython-lib"),
        "mbedtls": ("git", tmp_path / "Mbed-TLS+mbedtls"),
        "picotool": ("url", "https://example/p.git"),
    }
    _, problems = build.resolve_sources(None, {"mbedtls": str(tmp_path / "nowhere")})
    assert problems == ["--source mbedtls=%s: no git repository there" % (tmp_path / "nowhere")]


# --- the sources laid out -------------------------------------------------------------------

def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "init.defaultBranch=main", *args], cwd=cwd,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _repository(path: Path) -> tuple[str, str]:
    """A repository of two commits (a plain file, a script, a link, a folder); their ids."""
    path.mkdir()
    _git("init", "-q", cwd=path)
    (path / "README.md").write_text("first\n")
    (path / "tools").mkdir()
    (path / "tools" / "run.sh").write_text("#!/bin/sh\necho run\n")
    (path / "tools" / "run.sh").chmod(0o755)
    os.symlink("README.md", path / "LINK")
    _git("add", "-A", cwd=path)
    _git("commit", "-q", "-m", "one", cwd=path)
    first = _git("rev-parse", "HEAD", cwd=path)
    (path / "README.md").write_text("second\n")
    _git("commit", "-q", "-am", "two", cwd=path)
    return first, _git("rev-parse", "HEAD", cwd=path)


@needs_git
def test_a_commits_tree_is_written_out_of_a_repository(tmp_path):
    first, _ = _repository(tmp_path / "repo")
    dest = tmp_path / "out"
    dest.mkdir()
    assert build.write_tree(tmp_path / "repo" / ".git", first, dest) == []
    assert (dest / "README.md").read_text() == "first\n"            # that commit's, not HEAD's
    assert os.access(dest / "tools" / "run.sh", os.X_OK)
    assert os.readlink(dest / "LINK") == "README.md"
    with pytest.raises(build.BuildError, match="has no commit " + "0" * 40):
        build.write_tree(tmp_path / "repo" / ".git", "0" * 40, dest)


@needs_git
def test_a_file_the_repository_lacks_is_named_and_passed_over(tmp_path):
    """A mirror that leaves out its largest files (pico-sdk's RP2350.svd here) still gives
    the rest; the build fails only if it needed what is missing."""
    first, _ = _repository(tmp_path / "repo")
    blob = _git("rev-parse", "%s:tools/run.sh" % first, cwd=tmp_path / "repo")
    (tmp_path / "repo" / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    dest = tmp_path / "out"
    dest.mkdir()
    assert build.write_tree(tmp_path / "repo" / ".git", first, dest) == ["tools/run.sh"]
    assert (dest / "README.md").read_text() == "first\n"
    assert not (dest / "tools" / "run.sh").exists()


@needs_git
def test_each_commit_is_fetched_alone_and_written_where_micropython_wants_it(tmp_path,
                                                                             monkeypatch):
    """From a URL (GitHub's, here a file:// one) each pinned commit is fetched with depth 1
    into a bare repository of the work folder; the trees go where MicroPython's `make
    submodules` puts them, each stamped with its commit, and a second run keeps them."""
    first, second = _repository(tmp_path / "repo")
    monkeypatch.setattr(build, "REPOSITORIES", {"one": "someone/one"})
    monkeypatch.setattr(build, "PINS", (("top", "one", second), ("top/lib/inner", "one", first)))
    work = tmp_path / "work"
    url = (tmp_path / "repo").as_uri()
    assert build.prepare_sources(work, {"one": ("url", url)}) == {}
    assert (work / "src" / "top" / "README.md").read_text() == "second\n"
    assert (work / "src" / "top" / "lib" / "inner" / "README.md").read_text() == "first\n"
    assert (work / "src" / "top" / build.STAMP).read_text().split()[0] == second
    bare = work / "git" / "someone+one.git"
    assert _git("--git-dir", str(bare), "rev-parse", "--is-shallow-repository",
                cwd=tmp_path) == "true"
    (work / "src" / "top" / "README.md").write_text("kept\n")
    build.prepare_sources(work, {"one": ("url", "file:///nowhere")})     # nothing fetched
    assert (work / "src" / "top" / "README.md").read_text() == "kept\n"


def test_the_freezers_alignment_is_patched_once_and_the_frozen_content_made_again(tmp_path):
    """mpy-tool.py aligns frozen ARMv6-M native code to 4 bytes (the viper emitter's Thumb-1
    code assumes it); a build made before the patch makes its frozen content again."""
    (where, old, new, why), = build.PATCHES
    assert where == "micropython/tools/mpy-tool.py" and "MP_NATIVE_ARCH_ARMV6M" in new
    assert new.replace("            MP_NATIVE_ARCH_ARMV6M,\n", "") == old and "2 mod 4" in why
    tool = tmp_path / "src" / where
    tool.parent.mkdir(parents=True)
    tool.write_text("before\n" + old + "after\n")
    made = tmp_path / ("build-%s-frozen" % build.BOARD) / "frozen_content.c"
    made.parent.mkdir()
    made.write_text("old")
    assert build.apply_patches(tmp_path) is True
    assert tool.read_text() == "before\n" + new + "after\n" and not made.exists()
    made.write_text("new")
    assert build.apply_patches(tmp_path) is False           # once
    assert tool.read_text() == "before\n" + new + "after\n" and made.exists()
    tool.write_text("another commit's mpy-tool.py\n")
    with pytest.raises(build.BuildError, match="the text to patch is not there"):
        build.apply_patches(tmp_path)


# --- the frozen sources' digest -------------------------------------------------------------

def _copy_checkout(to: Path) -> Path:
    """The firmware and the portable core, copied as a checkout lays them out; the copy's
    manifest.py."""
    shutil.copytree(CHECKOUT / "firmware", to / "firmware",
                    ignore=shutil.ignore_patterns("node_modules", ".pico-stubs", "__pycache__"))
    (to / "controller").mkdir()
    shutil.copy(CHECKOUT / "controller" / "__init__.py", to / "controller")
    for target, local in build.frozen_files():
        if target.startswith("controller/"):
            (to / target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(local, to / target)
    return to / "firmware" / "manifest.py"


def test_the_digest_covers_manifest_py_and_every_file_it_freezes():
    files = build.frozen_files()
    targets = [target for target, _ in files]
    assert targets == sorted(targets) and len(targets) == len(set(targets))
    assert {"manifest.py", "main.py", "standalone.py", "controller/__init__.py",
            "controller/guide/guide.py"} <= set(targets)
    assert not [t for t in targets if t.startswith(("tools/", "tests/", "fakes/", "emulator/"))]
    lines = "".join("%s %s\n" % (target, hashlib.sha256(local.read_bytes()).hexdigest())
                    for target, local in files)
    assert build.sources_digest() == hashlib.sha256(lines.encode()).hexdigest()


def test_the_digest_is_stable_and_changes_with_a_frozen_file(tmp_path, capsys):
    digest = build.sources_digest()
    assert build.sources_digest() == digest
    assert build.main(["--digest"]) == 0 and capsys.readouterr().out.strip() == digest
    manifest = _copy_checkout(tmp_path)
    assert build.sources_digest(manifest) == digest        # wherever the checkout is
    firmware = manifest.parent
    (firmware / "tests" / "test_new.py").write_text("x = 1\n")   # not frozen: no change
    (firmware / "tools" / "notes.py").write_text("x = 1\n")
    assert build.sources_digest(manifest) == digest
    guide = tmp_path / "controller" / "guide" / "guide.py"
    original = guide.read_bytes()
    guide.write_bytes(original + b"\n")                     # a frozen file changed
    changed = build.sources_digest(manifest)
    assert changed != digest
    guide.write_bytes(original)
    assert build.sources_digest(manifest) == digest
    (firmware / "extra.py").write_text("x = 1\n")           # a module more on the Pico
    assert build.sources_digest(manifest) not in (digest, changed)
    (firmware / "extra.py").unlink()
    manifest.write_text(manifest.read_text() + "\n")        # the manifest itself
    assert build.sources_digest(manifest) != digest


def test_a_manifest_naming_a_missing_file_stops_the_digest(tmp_path, capsys):
    manifest = tmp_path / "manifest.py"
    manifest.write_text('module("gone.py")\n')
    assert build.main(["--digest", "--manifest", str(manifest)]) == 1
    assert "gone.py, which does not exist" in capsys.readouterr().err


def test_the_json_beside_the_uf2_names_the_commits_and_the_digest(tmp_path):
    uf2 = tmp_path / "layli-RPI_PICO.uf2"
    uf2.write_bytes(b"UF2\n" * 64)
    sources, _ = build.resolve_sources(None, {})
    about = build.description(uf2, True, sources)
    assert about["uf2_sha256"] == hashlib.sha256(uf2.read_bytes()).hexdigest()
    assert about["uf2_bytes"] == 256 and about["frozen"] is True
    assert about["sources_sha256"] == build.sources_digest()
    assert about["frozen_files"] == len(build.frozen_files()) - 1
    assert [(c["path"], c["commit"]) for c in about["commits"]] == [
        (where, commit) for where, _, commit in build.PINS]
    assert about["commits"][0]["from"] == "https://github.com/micropython/micropython.git"
    assert about["patches"] == ["micropython/tools/mpy-tool.py: " + build.PATCHES[0][3]]
    json.dumps(about)
    plain = build.description(uf2, False, sources)
    assert "sources_sha256" not in plain and plain["frozen"] is False


# --- the benchmark takes a UF2 of this checkout's sources only ---------------------------------

def _kit(tmp_path: Path) -> Path:
    kit = tmp_path / "kit"
    kit.mkdir(exist_ok=True)
    (kit / "bootrom-b1.bin").write_bytes(b"\0" * 16)
    return kit


def test_the_benchmark_takes_a_uf2_whose_json_names_this_checkouts_sources(tmp_path):
    budget = load_benchmark("pico_frame_budget")
    uf2 = tmp_path / "layli-RPI_PICO.uf2"
    uf2.write_bytes(b"UF2")
    folder = tmp_path / "made"
    folder.mkdir()
    kit, said = budget.frozen_kit(uf2, str(_kit(tmp_path)), folder)
    assert kit is None and "no JSON beside it" in said["error"]
    uf2.with_suffix(".json").write_text(json.dumps({"frozen": True, "sources_sha256": "0" * 64,
                                                    "uf2_sha256": "ab"}))
    kit, said = budget.frozen_kit(uf2, str(_kit(tmp_path)), folder)
    assert kit is None and "holds other sources than this checkout's" in said["error"]
    uf2.with_suffix(".json").write_text(json.dumps({"frozen": True, "uf2_sha256": "ab",
                                                    "sources_sha256": build.sources_digest()}))
    kit, said = budget.frozen_kit(uf2, None, folder)
    assert kit is None and "boot ROM" in said["error"]
    kit, said = budget.frozen_kit(uf2, str(_kit(tmp_path)), folder)
    assert kit == str(folder) and said["sources_sha256"] == build.sources_digest()
    assert (folder / "firmware.uf2").resolve() == uf2.resolve()
    assert (folder / "bootrom-b1.bin").is_file()


def test_the_benchmark_refuses_a_uf2_it_cannot_measure(tmp_path, capsys, monkeypatch):
    budget = load_benchmark("pico_frame_budget")
    monkeypatch.setenv("LAYLI_PICO_KIT", str(_kit(tmp_path)))
    assert budget.main(["--mode", "standalone", "--uf2", str(tmp_path / "none.uf2")]) == 2
    assert "--uf2 %s: no such file" % (tmp_path / "none.uf2") in capsys.readouterr().err
