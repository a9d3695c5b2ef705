"""An emulated Raspberry Pi Pico with a board's parts on its pins, for tests and benchmarks
(host-only).

The real MicroPython 1.27 firmware runs on an emulated RP2040 (rp2040js, node) with the
board's HX711s, 74HC165s, LED strip, buttons and buzzer attached to its GPIO as datasheet
models (firmware/emulator/README.md)::

    with EmulatedPico(board="pico-bridge-2x6") as pico:     # boots to the REPL
        pico.put("hx711.py", Path("firmware/hx711.py").read_bytes())
        pico.set_cells([1000, -2000, 3000, ...])             # what each load cell measures
        print(pico.exec("from hx711 import HX711Array; ..."))  # through the raw REPL
        pico.stats()["hx711"][0]["reads"]                    # the converters' own counters
        pico.strip()["pixels"]                               # what the LEDs show
        subprocess.run(["mpremote", "connect", pico.serial_url, "ls"])   # or any serial tool

It needs the emulated-Pico kit (the folder LAYLI_PICO_KIT names: firmware.uf2 and
bootrom-b1.bin), node, the npm packages of firmware/package.json (`npm ci --prefix firmware`)
and mpremote; `unavailable_reason()` says which is missing, for a test to skip with.

Load it by file path (importlib's spec_from_file_location), as the tests do with the other
host-side firmware modules: firmware/ is not a package, and its module names (config, port...)
must stay out of the host's import path.
"""

from __future__ import annotations

import ast
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Sequence

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parent
SERVER = HERE / "serve.mjs"
KIT_VARIABLE = "LAYLI_PICO_KIT"
NEEDS_KIT = ("the emulated Pico needs LAYLI_PICO_KIT (a folder with firmware.uf2 and "
             "bootrom-b1.bin); .ci/run sets it")
MODES = ("realtime", "fast", "paused")
BUTTONS = ("new_game", "undo", "hint", "confirm")


class EmulatorError(Exception):
    """The emulator refused a command or stopped; the message says why."""


class PicoError(EmulatorError):
    """Code run on the Pico raised an exception; `traceback` is MicroPython's report."""

    def __init__(self, traceback: str, output: str = "") -> None:
        super().__init__(traceback.strip().splitlines()[-1] if traceback.strip() else traceback)
        self.traceback = traceback
        self.output = output


def unavailable_reason(kit: str | os.PathLike | None = None, uart: bool = False) -> str | None:
    """Why the emulated Pico cannot run here (a sentence for a test's skip), or None."""
    kit = kit if kit is not None else os.environ.get(KIT_VARIABLE)
    if not kit:
        return NEEDS_KIT
    folder = Path(kit)
    if not folder.is_dir():
        return "%s is %s, which is not a folder (%s)" % (KIT_VARIABLE, kit, NEEDS_KIT)
    for name in ("firmware-uart.uf2" if uart else "firmware.uf2", "bootrom-b1.bin"):
        if not (folder / name).is_file():
            return "%s is %s, which has no %s" % (KIT_VARIABLE, kit, name)
    node = shutil.which("node")
    if node is None:
        return "the emulated Pico runs on node (18 or later), which is not on PATH"
    if not (FIRMWARE / "node_modules" / "rp2040js" / "package.json").is_file():
        return "the emulated Pico needs rp2040js: npm ci --prefix firmware"
    try:
        import mpremote.transport_serial  # noqa: F401
    except ImportError:
        return "the emulated Pico's REPL is driven with mpremote: pip install mpremote"
    return None


def board_description(board: str | os.PathLike | dict | None) -> dict | None:
    """A board for the emulator: a shipped profile's name or a profile file (loaded with
    controller.hardware.profile, so the pins are the profile's own), or a dict of the same
    shape (`Profile.as_dict()`), or None for a bare Pico."""
    if board is None or isinstance(board, dict):
        return board
    from controller.hardware import profile
    return profile.load(board).as_dict()


def _deploy():
    """controller.hardware.deploy, what `layli firmware deploy` runs (its manifest reader and
    mpy-cross finder)."""
    from controller.hardware import deploy

    return deploy


def _imports(path: Path, name: str, is_package: bool) -> set[str]:
    """Every module `path` (module `name`) imports, anywhere in it (inside functions and
    try blocks too: a lazy import is still needed), as absolute dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update("%s.%s" % (base, alias.name) for alias in node.names)
    return found


def pico_files(modules: Sequence[str]) -> dict[str, Path]:
    """The files the Pico needs to import `modules` — them, their packages' __init__.py and
    every project module they import, recursively — as {path on the Pico: local file}, in
    the firmware's manifest (firmware/manifest.py) order. Modules outside the manifest
    (machine, rp2, time...) are the firmware's own."""
    manifest = {target: local for local, target in _deploy().manifest_files()}
    by_name: dict[str, tuple[str, bool]] = {}
    for target in manifest:
        stem = target[:-3]
        if stem.endswith("/__init__"):
            by_name[stem[:-9].replace("/", ".")] = (target, True)
        else:
            by_name[stem.replace("/", ".")] = (target, False)
    needed: set[str] = set()
    todo = list(modules)
    for name in modules:
        if name not in by_name:
            raise EmulatorError("%s is not a module the firmware's manifest.py puts on the "
                                "Pico" % name)
    while todo:
        name = todo.pop()
        if name not in by_name or by_name[name][0] in needed:
            continue
        target, is_package = by_name[name]
        needed.add(target)
        parts = name.split(".")
        todo.extend(".".join(parts[:k]) for k in range(1, len(parts)))   # its packages
        todo.extend(_imports(manifest[target], name, is_package))
    return {target: manifest[target] for target in manifest if target in needed}


class EmulatedPico:
    """A running emulated Pico (a node process), started by `with` or `start()`.

    `board` is what is wired to it (see `board_description`); `mode` paces the clock:
    "realtime" (never ahead of wall time: a host's timeouts hold), "fast" (for benchmarks of
    code that keeps the Pico busy: idle time flies by) or "paused" (only `run_ms` moves it). `flash_in` boots from a saved 2 MiB flash image
    instead of the kit's firmware.uf2; `flash_out` saves the flash when it stops.
    `pio_shortcuts=False` runs every stalled or spinning PIO machine cycle by cycle (slow; for
    checking that the shortcuts change nothing); `xip_cache=False` leaves out the XIP cache's
    misses (xip.mjs: every fetch from flash as fast as one from SRAM, as rp2040js has it);
    `seed` and `spread` draw the HX711s' periods.
    """

    def __init__(self, kit: str | os.PathLike | None = None,
                 board: str | os.PathLike | dict | None = "pico-bridge-2x6", *,
                 uart: bool = False, mode: str = "realtime",
                 flash_in: str | os.PathLike | None = None,
                 flash_out: str | os.PathLike | None = None,
                 seed: int = 1, spread: float | None = None, pio_shortcuts: bool = True,
                 xip_cache: bool = True,
                 boot_timeout_s: float = 60.0, node: str = "node") -> None:
        if mode not in MODES:
            raise ValueError("mode is one of %s, not %r" % (", ".join(MODES), mode))
        found = kit if kit is not None else os.environ.get(KIT_VARIABLE)
        self.kit = Path(found) if found else None
        self.board = board_description(board)
        self.uart = uart
        self.mode = mode
        self.flash_in = flash_in
        self.flash_out = flash_out
        self.seed = seed
        self.spread = spread
        self.pio_shortcuts = pio_shortcuts
        self.xip_cache = xip_cache
        self.boot_timeout_s = boot_timeout_s
        self.node = node
        self.serial_url = ""
        self.boot_wall_s: float | None = None
        self._process: subprocess.Popen | None = None
        self._replies: queue.Queue = queue.Queue()
        self._ids = 0
        self._transport = None
        self._temporary = tempfile.TemporaryDirectory(prefix="layli-pico-")
        self._log = Path(self._temporary.name) / "emulator.log"

    # ---------------------------------------------------------------------- lifetime
    def start(self) -> EmulatedPico:
        """Start node, wait until the firmware's USB serial port is up (the REPL answers)."""
        reason = unavailable_reason(self.kit, self.uart)
        if reason is not None:
            raise EmulatorError(reason)
        command = [self.node, str(SERVER), "--kit", str(self.kit), "--mode", self.mode,
                   "--seed", str(self.seed)]
        if self.board is not None:
            path = Path(self._temporary.name) / "board.json"
            path.write_text(json.dumps(self.board), encoding="utf-8")
            command += ["--board", str(path)]
        if self.spread is not None:
            command += ["--spread", str(self.spread)]
        if self.uart:
            command.append("--uart")
        if not self.pio_shortcuts:
            command.append("--no-pio-shortcuts")
        if not self.xip_cache:
            command.append("--no-xip-cache")
        if self.flash_in:
            command += ["--flash-in", str(self.flash_in)]
        if self.flash_out:
            command += ["--flash-out", str(self.flash_out)]
        started = time.monotonic()
        with open(self._log, "ab") as log:
            self._process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=log, text=True,
                                             bufsize=1)
        # each process its own queue: the reader of a process stopped by power_cycle() may
        # see its end of file only after the next one started, and its end must not be read
        # as the new emulator stopping
        self._replies = queue.Queue()
        threading.Thread(target=self._read_replies, args=(self._process, self._replies),
                         daemon=True).start()
        ready = self._reply(None, 30.0, "start")
        self.serial_url = ready["serial_url"]
        if self.mode != "paused":
            deadline = started + self.boot_timeout_s
            while not self.command("pico")["connected"]:
                if time.monotonic() > deadline:
                    raise EmulatorError("the emulated Pico's USB serial port did not come up in "
                                        "%.0f s%s" % (self.boot_timeout_s, self._log_tail()))
                time.sleep(0.05)
        self.boot_wall_s = time.monotonic() - started
        return self

    def __enter__(self) -> EmulatedPico:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the emulator (saving flash_out first, if given)."""
        self._stop()
        self._temporary.cleanup()

    def _stop(self) -> None:
        self.disconnect()
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            try:
                process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                process.stdin.flush()
                process.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait(10)

    def power_cycle(self) -> None:
        """Cut the power and plug it back in: the flash (firmware and files) stays; RAM and
        the board's parts start again."""
        image = Path(self._temporary.name) / ("flash-%d.bin" % time.monotonic_ns())
        self.command("save_flash", path=str(image))
        self._stop()
        self.flash_in = image
        self.start()

    # ---------------------------------------------------------------------- control channel
    @staticmethod
    def _read_replies(process: subprocess.Popen, replies: queue.Queue) -> None:
        for line in process.stdout:
            try:
                replies.put(json.loads(line))
            except ValueError:
                replies.put({"ok": False, "error": "the emulator wrote %r" % line[:200]})
        replies.put(None)

    def _log_tail(self) -> str:
        try:
            text = self._log.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return ""
        return (":\n" + text[-2000:]) if text else ""

    def _reply(self, ident: int | None, timeout_s: float, what: str) -> dict:
        try:
            reply = self._replies.get(timeout=timeout_s)
        except queue.Empty:
            raise EmulatorError("the emulator did not answer %s within %.0f s%s"
                                % (what, timeout_s, self._log_tail())) from None
        if reply is None:
            raise EmulatorError("the emulator stopped%s" % self._log_tail())
        if ident is not None and reply.get("id") != ident:
            raise EmulatorError("the emulator answered %r to %s" % (reply, what))
        if not reply.get("ok", True):
            raise EmulatorError(reply.get("error", "the emulator refused %s" % what))
        return reply

    def command(self, cmd: str, timeout_s: float = 30.0, **fields: Any) -> dict:
        """Send one control command (README.md lists them); its reply, or EmulatorError."""
        if self._process is None:
            raise EmulatorError("the emulated Pico is not running: use `with EmulatedPico()` "
                                "or start()")
        self._ids += 1
        message = {"id": self._ids, "cmd": cmd, **fields}
        try:
            self._process.stdin.write(json.dumps(message) + "\n")
            self._process.stdin.flush()
        except OSError:
            raise EmulatorError("the emulator stopped%s" % self._log_tail()) from None
        return self._reply(self._ids, timeout_s, cmd)

    def set_cells(self, values: Sequence[int]) -> None:
        """What every load cell measures (channel A at gain 128, converter units)."""
        self.command("cells", values=[int(v) for v in values])

    def set_cell(self, index: int, value: int | None = None, value_b: int | None = None) -> None:
        """One cell's channel A value and/or channel B (gain 32) value."""
        fields = {k: v for k, v in (("value", value), ("value_b", value_b)) if v is not None}
        self.command("cell", index=index, **fields)

    def hx711(self, index: int | None = None, **timing: Any) -> None:
        """Set HX711 timing for one cell (index) or all: period_ns, phase_ns, update_ns,
        jitter_ns, rate ("low": 10 SPS, "high": 80 SPS), spread and seed (periods drawn
        nominal * (1 + u), u uniform in +-spread). Conversions restart from now."""
        self.command("hx711", index=index, **timing)

    def unplug(self, index: int) -> None:
        """Cell `index`'s connector comes out: the HX711 stops and its DOUT is left to the
        pull-down (the Pico's own on a GPIO, a resistor on a 74HC165 input)."""
        self.command("unplug", index=index)

    def plug(self, index: int) -> None:
        """... and goes in again: the chip powers up afresh."""
        self.command("plug", index=index)

    def press(self, button: str) -> None:
        """Hold a button down (its pin to ground)."""
        self.command("press", button=button)

    def release(self, button: str) -> None:
        self.command("release", button=button)

    def strip(self) -> dict:
        """The LED strip: frames shown, pixels ([r, g, b] per LED), the latest frame's
        timing (bits, wire_ns, ns_per_led, reset_before_ns) and any timing errors."""
        return self.command("strip")

    def tones(self) -> list[dict]:
        """What the buzzer sounded since the last call, tone by tone once each has ended:
        {"hz", "start_ms" (the Pico's clock), "ms"}, as a person at the board hears them."""
        return self.command("tones")["tones"]

    def stats(self) -> dict:
        """Every part's counters: hx711 (reads, overwritten, corrupted, errors...), chains,
        strip, buttons, buzzer (hz, duty), pin conflicts, and the emulator's own (pico)."""
        return self.command("stats")

    def reset_stats(self) -> None:
        self.command("reset_stats")

    def probe(self, pin: int) -> None:
        """Record every edge on GPIO `pin` from now on (`edges` returns them)."""
        self.command("probe", pin=pin)

    def edges(self, pin: int) -> list[tuple[float, int]]:
        """The edges recorded on `pin` since the last call, as (time_ns, level)."""
        return [(t, level) for t, level in self.command("edges", pin=pin)["edges"]]

    def now_ms(self) -> float:
        """Emulated time since power-on, in milliseconds."""
        return self.command("time")["ms"]

    def run_ms(self, ms: float, timeout_s: float | None = None) -> None:
        """Let `ms` more emulated milliseconds pass (at the mode's pace: in paused mode this
        is the only way time moves)."""
        self.command("run", ms=ms, timeout_s=timeout_s or 60.0 + ms / 20.0)

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError("mode is one of %s, not %r" % (", ".join(MODES), mode))
        self.command("mode", mode=mode)
        self.mode = mode

    def pico_stats(self) -> dict:
        """The emulator's figures: nanos, cycles, idle cycles, cycles per wall second..."""
        return self.command("pico")

    # ---------------------------------------------------------------------- the REPL
    def _connect(self):
        if self._transport is None:
            from mpremote.transport_serial import SerialTransport
            self._transport = SerialTransport(self.serial_url, baudrate=115200)
            self._transport.enter_raw_repl(soft_reset=False)
        return self._transport

    def disconnect(self) -> None:
        """Let go of the serial port (another tool may take it; exec reconnects)."""
        transport, self._transport = self._transport, None
        if transport is not None:
            try:
                transport.exit_raw_repl()
            except Exception:       # noqa: BLE001 - the port may be gone already
                pass
            transport.close()

    def exec(self, code: str, timeout_s: float = 60.0,
             on_line: Callable[[str], None] | None = None) -> str:
        """Run `code` on the Pico through the raw REPL; what it printed. PicoError when it
        raises (with MicroPython's traceback); timeout_s is the longest silence allowed.
        `on_line`, when given, is handed each line the Pico prints as it comes (stripped),
        for code that runs long and tells its progress."""
        transport = self._connect()
        if on_line is None:
            output, error = transport.exec_raw(code, timeout=timeout_s)
        else:
            printed = bytearray()
            pending = bytearray()

            def consume(data: bytes) -> None:       # mpremote hands over a byte at a time
                printed.extend(data)
                pending.extend(data)
                while b"\n" in pending:
                    end = pending.index(b"\n")
                    on_line(pending[:end].decode("utf-8", "replace").strip())
                    del pending[:end + 1]

            transport.exec_raw_no_follow(code)
            _, error = transport.follow(timeout=timeout_s, data_consumer=consume)
            output = bytes(printed).replace(b"\x04", b"")
        output = output.decode("utf-8", "replace").replace("\r\n", "\n")
        if error:
            raise PicoError(error.decode("utf-8", "replace").replace("\r\n", "\n"), output)
        return output

    def put(self, remote: str, data: bytes) -> None:
        """Write a file onto the Pico's filesystem."""
        self._connect().fs_writefile(remote, data)

    def install(self, *modules: str, compiled: bool = True) -> list[str]:
        """Copy firmware modules ("hx711", "leds", "controller.rules"...) onto the Pico with
        every project module they import, as the firmware's manifest.py places them;
        compiled with mpy-cross unless compiled=False. The paths written, in order."""
        files = pico_files(modules)
        folders = sorted({target.rsplit("/", 1)[0] for target in files if "/" in target})
        if folders:
            self.exec("import os\nfor d in %r:\n    try:\n        os.mkdir(d)\n"
                      "    except OSError:\n        pass\n" % folders)
        written = []
        with tempfile.TemporaryDirectory(prefix="layli-mpy-") as staging:
            for target, local in files.items():
                if compiled:
                    out = Path(staging) / (target[:-3].replace("/", "_") + ".mpy")
                    done = subprocess.run([_deploy().mpy_cross(), "-march=armv6m", "-s", target, "-o", str(out),
                                           str(local)], capture_output=True, text=True)
                    if done.returncode != 0:
                        raise EmulatorError("mpy-cross rejects %s:\n%s" % (local, done.stderr))
                    data, target = out.read_bytes(), target[:-3] + ".mpy"
                else:
                    data = local.read_bytes()
                self.put(target, data)
                written.append(target)
        return written

    def mpremote(self, *args: str, timeout_s: float = 120.0) -> subprocess.CompletedProcess:
        """Run `mpremote connect <serial_url> ARGS...` (PyPI's mpremote) against this Pico."""
        self.disconnect()
        return subprocess.run([sys.executable, "-m", "mpremote", "connect", self.serial_url,
                               *args], capture_output=True, text=True, timeout=timeout_s)
