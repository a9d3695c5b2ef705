"""The firmware's PIO programs against two programs we did not write (tests/test_pio.py).

- **Adafruit's assembler** (`adafruit_pioasm`, PyPI adafruit-circuitpython-pioasm) reads
  pioasm text. The firmware writes its programs in MicroPython's Python DSL, so the recorder
  runs a program function the way MicroPython's `rp2.asm_pio` does — its module's globals
  swapped for the PIO names for the length of the call — except that each name writes pioasm
  text: `firmware_recording()` is the firmware imported with the recorder as its `rp2`, so

      recorded = firmware_recording().hx711.parallel_program(14, 1)     # a Recorded
      recorded.pioasm()                   # ".program hx711_parallel\n.in 32 left 32\n..."
      Program(recorded.pioasm()).assembled        # Adafruit's words, beside our fake's

  Nothing of the programs is copied by hand, so the text cannot drift from the firmware.

- **Nathan Young's emulator** (`pioemu`, PyPI rp2040-pio-emulator) executes the words the
  firmware loads. `PioRun` drives it as the RP2040 would: each instruction cycle at the time
  the state machine's clock divider puts it (MicroPython's 16.8 fixed-point divider of the
  125 MHz clk_sys, RP2040 datasheet 3.5.5), every edge of its pins handed at that nanosecond to
  the datasheet models of simulator/parts/ (`Bench`: HX711s on their own oscillators, the
  74HC165 chain, read through the GPIO each shipped profile names), its RX FIFO emptied as each
  word is pushed, as the firmware's DMA does, into a ring of (word, ns) entries.

`Bench` also checks in nanoseconds what the models, in whole microseconds, cannot: the
HX711's PD_SCK high 0.2..50 us and low >= 0.2 us, DOUT read >= 0.1 us after the PD_SCK rise
that put it out and the first rise >= 0.1 us after DOUT fell (the HX711 datasheet's timing
table, T1..T4), and the 74HC165's widths, set-up times and QH's delay at 3.3 V
(simulator.parts.hc165.HC165Timing, the datasheets' columns interpolated: a program that
breaks one is refused with an HC165TimingError). `Timing.closest` keeps how near each came
to its limit.

The firmware's own modules run under its fakes (firmware/fakes/) here, imported in private
(`firmware`) so that their names — machine, rp2, config — stay out of the test process.
Host only.
"""

from __future__ import annotations

import importlib
import sys
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from math import gcd
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Callable, Iterator

import adafruit_pioasm
from pioemu import State, emulate

from controller.hardware.firmware import gp
from controller.hardware.profile import Profile
from simulator.parts.hc165 import HC165Chain, HC165Timing
from simulator.parts.hx711 import HX711

CHECKOUT = Path(__file__).resolve().parent.parent
FIRMWARE = CHECKOUT / "firmware"
FAKES = FIRMWARE / "fakes"

SYS_HZ = 125_000_000        # clk_sys of an RP2040 under MicroPython's rp2 port
SYS_NS = 8                  # ns a clk_sys cycle


# --- the firmware, imported in private --------------------------------------------------------

@contextmanager
def _private_imports(*folders: Path) -> Iterator[None]:
    """Import from `folders` first, and forget every module imported meanwhile afterwards
    (the module objects live on in whoever holds them)."""
    names = {path.stem for folder in folders for path in folder.glob("*.py")} | {"uctypes"}
    saved_path = list(sys.path)
    saved = dict(sys.modules)
    for name in names:
        sys.modules.pop(name, None)         # a module of the same name from elsewhere
    sys.path[:0] = [str(folder) for folder in folders]
    try:
        yield
    finally:
        sys.path[:] = saved_path
        for name in [name for name in sys.modules if name not in saved]:
            del sys.modules[name]
        sys.modules.update(saved)


def _load(rp2: ModuleType | None) -> SimpleNamespace:
    with _private_imports(FAKES, FIRMWARE):
        machine = importlib.import_module("machine")
        if rp2 is None:
            rp2 = importlib.import_module("rp2")
        else:
            sys.modules["rp2"] = rp2
        names = ("hx711", "leds", "config", "device", "clock")
        modules = {name: importlib.import_module(name) for name in names}
    return SimpleNamespace(machine=machine, rp2=rp2, **modules)


@lru_cache(maxsize=None)
def firmware() -> SimpleNamespace:
    """The firmware's modules (hx711, leds, config, device, clock) on its fakes (machine, rp2:
    our `asm_pio` and state machine emulator)."""
    return _load(None)


@lru_cache(maxsize=None)
def firmware_recording() -> SimpleNamespace:
    """The firmware's modules with `rp2` the recorder's: every program they make (leds.WS2812
    at import, hx711's program functions when called) is a `Recorded`."""
    return _load(recording_rp2())


@contextmanager
def running(fw: SimpleNamespace) -> Iterator[None]:
    """The firmware's modules under their own names for the length of a call that imports
    one of them lazily (device.make_sensors imports hx711 when it needs it)."""
    saved = {name: sys.modules.get(name) for name in vars(fw)}
    sys.modules.update(vars(fw))
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                del sys.modules[name]
            else:
                sys.modules[name] = module


def fresh_pico(fw: SimpleNamespace):
    """Every fake pin, program, state machine and DMA channel forgotten; a manual clock at 0."""
    fw.machine.reset_fakes()
    fw.rp2.reset_fakes()
    clock = fw.clock.ManualClock()
    fw.machine.use_clock(clock)
    return clock


# --- the recorder: a program function as pioasm text ------------------------------------------

class _PIO:
    """rp2.PIO's constants as the recorder's own names (not our fake's numbers)."""

    IN_LOW, IN_HIGH, OUT_LOW, OUT_HIGH = "in_low", "in_high", "out_low", "out_high"
    SHIFT_LEFT, SHIFT_RIGHT = "left", "right"
    JOIN_NONE, JOIN_TX, JOIN_RX = "txrx", "tx", "rx"


_SETTINGS = {"out_init": None, "set_init": None, "sideset_init": None, "side_pindir": False,
             "in_shiftdir": _PIO.SHIFT_LEFT, "out_shiftdir": _PIO.SHIFT_LEFT,
             "autopush": False, "autopull": False, "push_thresh": 32, "pull_thresh": 32,
             "fifo_join": _PIO.JOIN_NONE}     # MicroPython's asm_pio defaults (rp2.py)

# What each of MicroPython's PIO names stands for in pioasm (pico-sdk's pioasm syntax, as
# adafruit_pioasm reads it): sources, destinations, jmp conditions, push/pull/irq modifiers.
_WORDS = {
    "gpio": "gpio", "pins": "pins", "x": "x", "y": "y", "null": "null", "pindirs": "pindirs",
    "pc": "pc", "status": "status", "isr": "isr", "osr": "osr", "exec": "exec",
    "not_x": "!x", "x_dec": "x--", "not_y": "!y", "y_dec": "y--", "x_not_y": "x!=y",
    "pin": "pin", "not_osre": "!osre",
    "noblock": "noblock", "block": "block", "iffull": "iffull", "ifempty": "ifempty",
    "clear": "clear",
    "invert": lambda source: "~" + source,
    "reverse": lambda source: "::" + source,
    "rel": lambda index: "%s rel" % index,
}


class _Line:
    """One recorded instruction: `.side(v)` and `[delay]` as the DSL writes them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.side_value: int | None = None
        self.delay: int | None = None

    def side(self, value: int) -> _Line:
        self.side_value = value
        return self

    def __getitem__(self, delay: int) -> _Line:
        self.delay = delay
        return self

    def pioasm(self) -> str:
        text = self.text
        if self.side_value is not None:
            text += " side %d" % self.side_value
        if self.delay is not None:
            text += " [%d]" % self.delay
        return text


@dataclass
class Recorded:
    """A program function run with recording names: its asm_pio settings and its lines."""

    name: str
    settings: dict
    lines: list            # _Line, or a directive / label as a string

    def instructions(self) -> list[_Line]:
        return [line for line in self.lines if isinstance(line, _Line)]

    def pioasm(self) -> str:
        """The program as pioasm source."""
        s = self.settings
        out = [".program %s" % self.name]
        sideset = s["sideset_init"]
        if sideset is not None:
            count = 1 if isinstance(sideset, str) else len(sideset)
            # MicroPython's asm_pio makes the side-set optional when some instruction has none
            optional = any(line.side_value is None for line in self.instructions())
            out.append(".side_set %d%s%s" % (count, " opt" if optional else "",
                                             " pindirs" if s["side_pindir"] else ""))
        out.append(".in 32 %s%s %d" % (s["in_shiftdir"], " auto" if s["autopush"] else "",
                                       s["push_thresh"]))
        out.append(".out 32 %s%s %d" % (s["out_shiftdir"], " auto" if s["autopull"] else "",
                                        s["pull_thresh"]))
        out.append(".fifo %s" % s["fifo_join"])
        for line in self.lines:
            out.append(("    " + line.pioasm()) if isinstance(line, _Line) else line)
        return "\n".join(out) + "\n"


class _Recorder:
    """The instruction and directive names a program function sees while it is recorded."""

    def __init__(self) -> None:
        self.lines: list = []

    def _emit(self, text: str) -> _Line:
        line = _Line(text)
        self.lines.append(line)
        return line

    def names(self) -> dict:
        names = dict(_WORDS)
        for name in ("wrap_target", "wrap", "label", "word", "nop", "jmp", "wait", "in_", "out",
                     "push", "pull", "mov", "irq", "set"):
            names[name] = getattr(self, name)
        return names

    def wrap_target(self) -> None:
        self.lines.append(".wrap_target")

    def wrap(self) -> None:
        self.lines.append(".wrap")

    def label(self, name: str) -> None:
        self.lines.append("%s:" % name)

    def word(self, instruction: int, label: str | None = None) -> _Line:
        raise ValueError("record: word(0x%04x) has no pioasm text that adafruit_pioasm reads"
                         % instruction)

    def nop(self) -> _Line:
        return self._emit("nop")

    def jmp(self, condition: str, label: str | None = None) -> _Line:
        if label is None:
            return self._emit("jmp %s" % condition)
        return self._emit("jmp %s, %s" % (condition, label))

    def wait(self, polarity: int, source, index) -> _Line:
        if source == self.irq:              # the DSL passes the irq instruction itself
            source = "irq"
        return self._emit("wait %d %s %s" % (polarity, source, index))

    def in_(self, source: str, bits: int) -> _Line:
        return self._emit("in %s, %d" % (source, bits))

    def out(self, destination: str, bits: int) -> _Line:
        return self._emit("out %s, %d" % (destination, bits))

    def push(self, *modifiers: str) -> _Line:
        return self._emit(" ".join(("push",) + modifiers))

    def pull(self, *modifiers: str) -> _Line:
        return self._emit(" ".join(("pull",) + modifiers))

    def mov(self, destination: str, source: str) -> _Line:
        return self._emit("mov %s, %s" % (destination, source))

    def irq(self, modifier, index=None) -> _Line:
        if index is None:
            modifier, index = None, modifier
        word = {None: "", "noblock": "nowait ", "block": "wait ", "clear": "clear "}[modifier]
        return self._emit("irq %s%s" % (word, index))

    def set(self, destination: str, value: int) -> _Line:
        return self._emit("set %s, %d" % (destination, value))


def recording_rp2() -> ModuleType:
    """An `rp2` module whose `asm_pio` records instead of assembling (see the module)."""
    module = ModuleType("rp2")
    module.PIO = _PIO

    def asm_pio(**settings):
        unknown = sorted(set(settings) - set(_SETTINGS))
        if unknown:
            raise TypeError("asm_pio: unknown settings %s" % ", ".join(unknown))

        def decorate(function: Callable) -> Recorded:
            recorder = _Recorder()
            names = function.__globals__
            saved = names.copy()
            names.clear()
            names.update(recorder.names())
            try:
                function()
            finally:
                names.clear()
                names.update(saved)
            return Recorded(function.__name__, {**_SETTINGS, **settings}, recorder.lines)

        return decorate

    module.asm_pio = asm_pio
    return module


# --- settings: what both assemblers say besides the words --------------------------------------

@dataclass(frozen=True)
class Settings:
    """A program's configuration: where it wraps, its side-set, shift directions, autopush and
    autopull thresholds, FIFO join."""

    wrap_target: int
    wrap: int
    sideset_count: int          # side-set pins (the enable bit not counted)
    sideset_opt: bool
    sideset_pindirs: bool
    in_shift_right: bool
    out_shift_right: bool
    autopush: bool
    autopull: bool
    push_thresh: int
    pull_thresh: int
    fifo: str                   # "txrx" (none), "tx" (joined: 8 deep TX), "rx"

    @classmethod
    def from_pioasm(cls, program: adafruit_pioasm.Program) -> Settings:
        kw = program.pio_kwargs
        fifo = kw.get("fifo_type", "txrx")
        return cls(wrap_target=kw.get("wrap_target", 0),
                   wrap=kw.get("wrap", len(program.assembled) - 1),
                   sideset_count=kw.get("sideset_pin_count", 0),
                   sideset_opt=bool(kw["sideset_enable"]),
                   sideset_pindirs=bool(kw.get("sideset_pindirs", False)),
                   in_shift_right=kw.get("in_shift_right", True),
                   out_shift_right=kw.get("out_shift_right", True),
                   autopush=kw.get("auto_push", False), autopull=kw.get("auto_pull", False),
                   push_thresh=kw.get("push_threshold", 32),
                   pull_thresh=kw.get("pull_threshold", 32),
                   fifo="txrx" if fifo == "auto" else fifo)

    @classmethod
    def from_micropython(cls, program: list) -> Settings:
        """From the list `asm_pio` returns: [words, -1, -1, EXECCTRL, SHIFTCTRL, out_init,
        set_init, sideset_init], the registers' bits as the RP2040 datasheet (3.7, SMx_EXECCTRL
        and SMx_SHIFTCTRL) lays them out."""
        execctrl, shiftctrl, sideset = program[3], program[4], program[7]
        join = shiftctrl >> 30 & 3
        return cls(wrap_target=execctrl >> 7 & 0x1F, wrap=execctrl >> 12 & 0x1F,
                   sideset_count=0 if sideset is None else (
                       1 if isinstance(sideset, int) else len(sideset)),
                   sideset_opt=bool(execctrl >> 30 & 1),
                   sideset_pindirs=bool(execctrl >> 29 & 1),
                   in_shift_right=bool(shiftctrl >> 18 & 1),
                   out_shift_right=bool(shiftctrl >> 19 & 1),
                   autopush=bool(shiftctrl >> 16 & 1), autopull=bool(shiftctrl >> 17 & 1),
                   push_thresh=(shiftctrl >> 20 & 0x1F) or 32,
                   pull_thresh=(shiftctrl >> 25 & 0x1F) or 32,
                   fifo={0: "txrx", 1: "tx", 2: "rx"}.get(join, "both joined"))


# --- time --------------------------------------------------------------------------------------

class Clock:
    """A state machine's cycles in ns: MicroPython sets the divider to clk_sys * 256 // freq
    (16.8 fixed point, ports/rp2/rp2_pio.c), and with a fraction the cycles come a whole
    number of clk_sys cycles apart, averaging the divider (RP2040 datasheet 3.5.5)."""

    def __init__(self, freq: int) -> None:
        self.div256 = SYS_HZ * 256 // freq
        if not 256 <= self.div256 <= 65536 * 256:
            raise ValueError("freq %d is out of the PIO's range" % freq)
        # the cycles' pattern of clk_sys gaps repeats after this many cycles
        self.pattern = 256 // gcd(self.div256, 256)

    def ns(self, cycle: int) -> int:
        return (cycle * self.div256 >> 8) * SYS_NS

    def cycle_at(self, t_ns: float) -> int:
        """The first cycle at or after `t_ns`."""
        sys_cycle = -(-int(t_ns) // SYS_NS)
        return -(-(sys_cycle << 8) // self.div256)


# --- datasheet timing, in ns -------------------------------------------------------------------

class Timing:
    """Datasheet limits checked on edges: `errors` (sentences) and `closest` (per limit, the
    nearest any edge came to it, in ns)."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.closest: dict[str, float] = {}

    def at_least(self, what: str, value_ns: float, limit_ns: float) -> None:
        if what not in self.closest or value_ns < self.closest[what]:
            self.closest[what] = value_ns
        if value_ns < limit_ns:
            self.errors.append("%s %d ns: under %d ns" % (what, value_ns, limit_ns))

    def at_most(self, what: str, value_ns: float, limit_ns: float) -> None:
        key = what + " (longest)"
        if key not in self.closest or value_ns > self.closest[key]:
            self.closest[key] = value_ns
        if value_ns > limit_ns:
            self.errors.append("%s %d ns: over %d ns" % (what, value_ns, limit_ns))


# HX711 datasheet (Avia Semiconductor), "Data output, input and gain selection timing":
# T1 DOUT falling edge to PD_SCK rising edge >= 0.1 us, T2 PD_SCK rising edge to DOUT data
# ready <= 0.1 us, T3 PD_SCK high 0.2..50 us, T4 PD_SCK low >= 0.2 us.
HX711_T1_NS, HX711_T2_NS, HX711_HIGH_NS, HX711_LOW_NS = 100, 100, (200, 50_000), 200
# The RP2040's 2-flop synchroniser on every GPIO input (datasheet 2.19.4; PIO's
# INPUT_SYNC_BYPASS, 3.7): a state machine sees a pin as it was 2 clk_sys cycles before.
SYNC_NS = 2 * SYS_NS


class Bench:
    """A profile's HX711s (the datasheet models of simulator/parts/) on the GPIO its wiring
    names — PD_SCK on sensors.clock_pin, each place's DOUT on a GPn or on input sr.k of the
    74HC165 chain (chip k // 8's input "ABCDEFGH"[k % 8]) whose SH/LD, CLK and QH are the
    expander's load_pin, clock_pin and data_pin — seen by a state machine in ns.

    By default the state machine reads each pin as it is at the instruction's cycle, as pioemu,
    our fake rp2 and the models (in whole microseconds) all assume. `sync_ns` (SYNC_NS on an
    RP2040) makes it read the pins as they were that much earlier, and `qh_delay_ns` makes
    QH follow its flip-flop that much later (hc165.limits().tpd: 120 ns at 3.3 V), as the
    emulated Pico (firmware/emulator/pins.mjs, devices.mjs) does. The chain's timing is
    checked by `hc165` (an HC165Timing with `hc165_margin`), whatever these say: QH as the
    RP2040 samples it, SYNC_NS before the instruction."""

    def __init__(self, profile: Profile, chips: list[HX711], sync_ns: int = 0,
                 qh_delay_ns: int = 0, hc165_margin: float = 1.0) -> None:
        if len(chips) != len(profile.sensors.channels):
            raise ValueError("%d chips for %d places" % (len(chips),
                                                         len(profile.sensors.channels)))
        self.profile = profile
        self.chips = chips
        self.sync_ns = sync_ns
        self.qh_delay_ns = qh_delay_ns
        self.qh_history = deque([(-1e18, 0)])      # (from when, QH's level) at the pin
        self.timing = Timing()
        self.sck = gp(profile.sensors.clock_pin, "sensors.clock_pin", profile)
        self.dout_at: dict[int, int] = {}           # GPIO -> the place whose DOUT it is
        self.chain: HC165Chain | None = None
        self.hc165: HC165Timing | None = None
        self.hc165_margin = hc165_margin
        self.load = self.clk = self.qh = -1
        for place, channel in enumerate(profile.sensors.channels):
            key = "sensors.data_pins[%d]" % place
            if channel.startswith("GP"):
                self.dout_at[gp(channel, key, profile)] = place
                continue
            name, _, k = channel.partition(".")
            self._chain_named(name)
            self.chain.wire(int(k), chips[place].dout)
        self.stray: list[str] = []                  # edges on pins no part listens to
        self.sck_level = 0
        self.sck_edge = None                        # (level, t_ns) of the last edge
        self.last_rise = -1e18
        self.pulses: list[int] = []                 # rising edges of PD_SCK per read
        self.read_starts: list[int] = []            # each read's first rising edge (ns)
        self.reads: list[list[tuple[int, bool] | None]] = []   # per read, each chip's last_read
        self.sampled: list[int] = [1] * len(chips)  # each DOUT as last sampled or latched

    def _chain_named(self, name: str) -> None:
        for expander in self.profile.expanders:
            if expander.name == name and expander.type == "74hc165":
                if self.chain is None:
                    self.chain = HC165Chain(expander.chips)
                    self.hc165 = HC165Timing(margin=self.hc165_margin, chips=expander.chips)
                    self.load = gp(expander.load_pin, "expanders.load_pin", self.profile)
                    self.clk = gp(expander.clock_pin, "expanders.clock_pin", self.profile)
                    self.qh = gp(expander.data_pin, "expanders.data_pin", self.profile)
                return
        raise ValueError("%s: no 74HC165 chain named %s" % (self.profile.label, name))

    # --- what the state machine does to the pins ----------------------------------------------

    def output(self, gpio: int, level: int, t_ns: int) -> None:
        t_us = t_ns / 1000
        if gpio == self.sck:
            self._sck(level, t_ns)
        elif gpio == self.load:
            self.hc165.sh_ld(level, t_ns)
            if level:
                # DOUT is latched as SH/LD rises: the bit a PD_SCK rise put out must be ready
                self.timing.at_least("HX711 DOUT latched after PD_SCK rose",
                                     t_ns - self.last_rise, HX711_T2_NS)
                self.sampled = [chip.dout(t_us) for chip in self.chips]
            self.chain.load(level, t_us)
            self._qh_follows(t_ns)
        elif gpio == self.clk:
            self.hc165.clk(level, t_ns)
            self.chain.clock(level, t_us)
            self._qh_follows(t_ns)
        else:
            self.stray.append("GP%d went %d at %d ns: the profile wires no part to it"
                              % (gpio, level, t_ns))

    def _sck(self, level: int, t_ns: int) -> None:
        t_us = t_ns / 1000
        if self.sck_edge is not None:
            width = t_ns - self.sck_edge[1]
            if level:
                self.timing.at_least("HX711 PD_SCK low", width, HX711_LOW_NS)
            else:
                self.timing.at_least("HX711 PD_SCK high", width, HX711_HIGH_NS[0])
                self.timing.at_most("HX711 PD_SCK high", width, HX711_HIGH_NS[1])
        self.sck_edge = (level, t_ns)
        if level:
            self.last_rise = t_ns
            first = False
            for chip in self.chips:
                chip.advance(t_us)
                if chip.pulses == 0 and chip.ready and t_us >= chip.updating_until:
                    first = True
                    self.timing.at_least("HX711 DOUT low before the first PD_SCK rise",
                                         t_ns - chip.updating_until * 1000, HX711_T1_NS)
            if first or not self.pulses:
                self.read_starts.append(t_ns)
                self.pulses.append(0)
                self.reads.append([None] * len(self.chips))
            self.pulses[-1] += 1
        for place, chip in enumerate(self.chips):
            chip.sck(level, t_us)
            if level and chip.pulses == 24:
                self.reads[-1][place] = chip.last_read

    def _qh_follows(self, t_ns: int) -> None:
        history = self.qh_history
        history.append((t_ns + self.qh_delay_ns, self.chain.flops[7]))
        while len(history) > 2 and history[1][0] < t_ns - 10_000:
            history.popleft()

    def level(self, gpio: int, t_ns: int) -> int:
        """The level the state machine sees on `gpio` at `t_ns`."""
        seen = t_ns - self.sync_ns
        place = self.dout_at.get(gpio)
        if place is not None:
            return self.chips[place].dout(seen / 1000)
        if gpio == self.qh:
            if self.chain.loading or not (self.sync_ns or self.qh_delay_ns):
                return self.chain.qh(seen / 1000)
            level = 0
            for since, value in self.qh_history:
                if since > seen:
                    break
                level = value
            return level
        return 0

    def sample(self, gpios: list[int], t_ns: int) -> None:
        """The state machine reads `gpios` at `t_ns` (an IN from pins)."""
        seen = t_ns - self.sync_ns
        if self.qh in gpios:
            self.hc165.qh_sampled(t_ns - SYNC_NS)
        if any(gpio in self.dout_at for gpio in gpios):
            self.timing.at_least("HX711 DOUT read after PD_SCK rose",
                                 seen - self.last_rise, HX711_T2_NS)
            self.sampled = [chip.dout(seen / 1000) for chip in self.chips]

    # --- for the idle skip --------------------------------------------------------------------

    def key(self) -> tuple:
        chips = tuple((c.pulses, c.ready, c.powered, c.gain, c.word) for c in self.chips)
        if self.chain is None:
            return chips
        return chips, tuple(self.chain.flops), self.chain.loading

    def next_change_ns(self, t_ns: int) -> float:
        """The first time after `t_ns` a DOUT may change by itself (inf: none will)."""
        best = float("inf")
        for chip in self.chips:
            when = chip.next_change(t_ns / 1000)
            if when >= 0:
                best = min(best, when * 1000)
        return best

    def errors(self) -> list[str]:
        """Everything the parts recorded as done wrong to them, and the timing errors."""
        out = ["place %d: %s" % (place, error) for place, chip in enumerate(self.chips)
               for error in chip.errors]
        if self.chain is not None:
            out += ["74HC165: %s" % error for error in self.chain.errors]
        return out + self.timing.errors + self.stray


# --- the emulator -----------------------------------------------------------------------------

@dataclass
class Pushed:
    word: int
    t_ns: int


def _levels(init) -> list[int]:
    """A pin group's initial levels from MicroPython's init (rp2.PIO.OUT_HIGH is 3)."""
    if init is None:
        return []
    return [1 if state == 3 else 0 for state in ((init,) if isinstance(init, int) else init)]


class PioRun:
    """One state machine running `program` (the list MicroPython's asm_pio makes) at `freq`
    with the pin bases `pins` ("in", "set", "side": GPIO numbers, as rp2.StateMachine takes
    them) on pioemu, its pins wired to `bench` (anything with output / level / sample, and key /
    next_change_ns for the idle skip).

    pioemu has no IN base: its pins are numbered from the state machine's in_base here (IN
    reads pins in_base, in_base + 1, ... modulo 32, RP2040 datasheet 3.4.4), and the set and
    side-set pins are placed at their offsets from it.

    `skip_idle`: while the program polls pins that stay as they are (its state and the parts'
    state the same as one loop earlier, no word pushed, nothing due to change), whole loops are
    skipped up to just before the next change a part announces — exact, as a repeating state
    with constant inputs repeats; `test_pio` checks it against a run that skips nothing."""

    def __init__(self, program: list, freq: int, pins: dict, bench, skip_idle: bool = True,
                 on_push: Callable[[PioRun, Pushed], None] | None = None) -> None:
        self.words = list(program[0])
        self.settings = Settings.from_micropython(program)
        if self.settings.sideset_opt:
            raise ValueError("pioemu does not model an optional side-set")
        self.clock = Clock(freq)
        self.bench = bench
        self.skip_idle = skip_idle
        self.on_push = on_push
        self.base = pins.get("in") or 0
        self.outputs: list[tuple[int, int]] = []     # (bit in pioemu's pins, GPIO)
        state_values = 0
        self.set_count = len(_levels(program[6]))
        self.side_count = self.settings.sideset_count
        self.set_bit = self.side_bit = 0
        for group, count, init in (("set", self.set_count, program[6]),
                                   ("side", self.side_count, program[7])):
            if not count:
                continue
            gpio = pins[group]
            bit = (gpio - self.base) % 32
            if bit + count > 32:
                raise ValueError("the %s pins wrap past pin 31 of in_base's numbering" % group)
            setattr(self, group + "_bit", bit)
            for k, level in enumerate(_levels(init)):
                self.outputs.append((bit + k, gpio + k))
                state_values |= level << (bit + k)
        self.out_mask = sum(1 << bit for bit, _ in self.outputs)
        self.in_count = max([w & 0x1F or 32 for w in self.words
                             if w >> 13 == 2 and w >> 5 & 7 == 0] or [0])
        self.in_gpios = [(self.base + k) % 32 for k in range(self.in_count)]
        self.state = State(pin_directions=self.out_mask, pin_values=state_values)
        self.pushed: list[Pushed] = []
        self.steps = 0
        self.skipped_cycles = 0
        self._stop = False
        self._skip_to = -1
        self._seen: dict = {}

    @property
    def t_ns(self) -> int:
        return self.clock.ns(self.state.clock)

    def put(self, word: int) -> None:
        """Into the TX FIFO (the CPU's `StateMachine.put`)."""
        self.state.transmit_fifo.append(word & 0xFFFFFFFF)

    def stop(self) -> None:
        """End the run after the instruction under way (from `on_push`)."""
        self._stop = True

    def _inputs(self, state: State) -> int:
        t_ns = self.clock.ns(state.clock)
        word = self.words[state.program_counter]
        if word >> 13 == 2 and word >> 5 & 7 == 0:         # IN pins: a sample
            count = word & 0x1F or 32
            self.bench.sample(self.in_gpios[:count], t_ns)
        value = 0
        for k, gpio in enumerate(self.in_gpios):
            if self.bench.level(gpio, t_ns):
                value |= 1 << k
        return value

    def run(self, until_ns: int) -> None:
        """Run until `until_ns`, or until `stop()`."""
        self._stop = False
        s = self.settings
        limit = self.clock.cycle_at(until_ns)

        def source(state: State) -> int:
            return self._inputs(state)
        # pioemu tells a source of State from one of cycles by the annotation's object (not
        # its string, which `from __future__ import annotations` leaves)
        source.__annotations__ = {"state": State, "return": int}

        def stop_when(_opcode: int, state: State) -> bool:
            return self._stop or state.clock >= limit or self._skip_to >= 0

        while True:
            for previous, current in emulate(
                    self.words, stop_when=stop_when, initial_state=self.state,
                    input_source=source, shift_isr_right=s.in_shift_right,
                    shift_osr_right=s.out_shift_right, auto_push=s.autopush,
                    auto_pull=s.autopull, push_threshold=s.push_thresh,
                    pull_threshold=s.pull_thresh, set_base=self.set_bit,
                    set_count=self.set_count, side_set_base=self.side_bit,
                    side_set_count=self.side_count, wrap_target=s.wrap_target,
                    wrap_top=s.wrap):
                self.state = current
                self.steps += 1
                self._after(previous, current)
            if self._skip_to < 0:
                return
            self.skipped_cycles += self._skip_to - self.state.clock
            self.state = replace(self.state, clock=self._skip_to)
            self._skip_to = -1
            self._seen = {}

    def _after(self, previous: State, current: State) -> None:
        t_ns = self.clock.ns(previous.clock)        # the instruction's own cycle
        changed = (previous.pin_values ^ current.pin_values) & self.out_mask
        if changed:
            for bit, gpio in self.outputs:
                if changed >> bit & 1:
                    self.bench.output(gpio, current.pin_values >> bit & 1, t_ns)
        fifo = current.receive_fifo
        while fifo:                                 # the DMA takes each word as it comes
            pushed = Pushed(fifo.popleft(), t_ns)
            self.pushed.append(pushed)
            if self.on_push is not None:
                self.on_push(self, pushed)
        if self.skip_idle and current.program_counter == self.settings.wrap_target:
            self._idle(current)

    def _idle(self, state: State) -> None:
        t_ns = self.clock.ns(state.clock)
        soon = self.bench.next_change_ns(t_ns)
        key = (state.program_counter, state.x_register, state.y_register,
               state.input_shift_register.contents, state.input_shift_register.counter,
               state.output_shift_register.contents, state.output_shift_register.counter,
               tuple(state.transmit_fifo), state.pin_values, len(self.pushed), soon,
               self.bench.key())
        before = self._seen.get(key)
        self._seen[key] = state.clock
        if before is None or soon == float("inf"):
            return
        period = state.clock - before
        step = period * self.clock.pattern // gcd(period, self.clock.pattern)
        # whole loops whose every input is sampled before the change, then one more run
        loops = int((self.clock.cycle_at(soon) - state.clock - 2 * step) // step)
        if loops > 0:
            self._skip_to = state.clock + loops * step


# --- the ring ---------------------------------------------------------------------------------

@dataclass
class RingRead:
    """One read in the ring: MARK at `start_ns`, its 24 words, the snapshot after it."""

    start_ns: int
    words: list[int]
    end_ns: int
    end_snapshot: int


def ring(pushed: list[Pushed], mark: int, bits: int) -> tuple[list[RingRead], list[Pushed]]:
    """The reads and the DOUT snapshots in the ring, as hx711.py's module describes it: a
    snapshot, or MARK and the `bits` words of a read; after a read, a snapshot."""
    reads: list[RingRead] = []
    snapshots: list[Pushed] = []
    k = 0
    while k < len(pushed):
        entry = pushed[k]
        if entry.word != mark:
            snapshots.append(entry)
            k += 1
            continue
        if k + bits + 1 >= len(pushed):
            break                       # a read (or the snapshot after it) still under way
        end = pushed[k + bits + 1]
        snapshots.append(end)
        reads.append(RingRead(entry.t_ns, [p.word for p in pushed[k + 1:k + 1 + bits]],
                              end.t_ns, end.word))
        k += bits + 2
    return reads, snapshots


# --- a profile's board, read by the firmware's own program -----------------------------------

def variant_for(profile: Profile) -> str:
    """A variant of the profile's pits a row (firmware_config carries a game)."""
    from controller.rules import VARIANTS, Rules
    return next(name for name in sorted(VARIANTS) if Rules(name).n == profile.pits)


@dataclass
class Loaded:
    """What the firmware's sensor driver, built from a profile's config.json, loads into its
    state machine (the fake's record of it), and what it computed besides."""

    program: list
    freq: int
    pins: dict
    positions: list[int]        # each place's bit in the ring's words (the driver's)
    read_us: int                # how long it takes a read to be (its ReadPlanner's)
    sensors: dict               # the checked config's `sensors`


def sensors_of(profile: Profile, gain: int | None = None) -> Loaded:
    """The firmware's driver for `profile` (firmware_config -> config.check -> make_sensors,
    on the fakes), at `gain` if given."""
    import json

    from controller.hardware.firmware import firmware_config
    fw = firmware()
    clock = fresh_pico(fw)
    config = fw.config.check(json.loads(json.dumps(firmware_config(profile,
                                                                   variant_for(profile)))),
                             profile.name)
    sensors = dict(config["sensors"])
    if gain is not None:
        sensors["gain"] = gain
    with running(fw):
        reader = fw.device.make_sensors(sensors, clock)
    sm = fw.rp2.StateMachine.machines()[sensors["state_machine"]]
    loaded = Loaded(sm.program, sm.freq, dict(sm.pins), list(reader.positions),
                    reader.planner.read_us, sensors)
    reader.close()
    return loaded


@dataclass
class BoardRun:
    """A run of a profile's board: the parts, the state machine, and what the ring holds."""

    loaded: Loaded
    bench: Bench
    pio: PioRun
    reads: list[RingRead]
    snapshots: list[Pushed]
    snapshot_errors: list[str]


def read_board(profile: Profile, chips: list[HX711], frames: int, gain: int | None = None,
               until_ns: int = 200_000_000, skip_idle: bool = True, tx: tuple = (),
               after_read: Callable[[PioRun, int], None] | None = None,
               sync_ns: int = 0, qh_delay_ns: int = 0, program: list | None = None,
               freq: int | None = None, hc165_margin: float = 1.0) -> BoardRun:
    """Run the firmware's program for `profile` on pioemu against `chips` (one a place, in the
    profile's order) until `frames` reads are in the ring. `tx`: words in the TX FIFO at the
    start (the CPU's delays, in cycles); `after_read(run, k)` is the CPU after read k (it may
    change the chips' inputs, or `put` a delay); `sync_ns`, `qh_delay_ns`, `hc165_margin`: see
    `Bench`; `program` at `freq`: run this one (on the same pins) instead of the profile's."""
    fw = firmware()
    loaded = sensors_of(profile, gain)
    if program is not None:
        loaded = replace(loaded, program=program, freq=freq or loaded.freq)
    bench = Bench(profile, chips, sync_ns, qh_delay_ns, hc165_margin)
    mark, bits = fw.hx711.MARK, fw.hx711.BITS
    progress = {"in_read": -1, "reads": 0}
    snapshot_errors: list[str] = []

    def check_snapshot(pushed: Pushed) -> None:
        for place, bit in enumerate(loaded.positions):      # each DOUT at its bit
            if pushed.word >> bit & 1 != bench.sampled[place]:
                snapshot_errors.append("snapshot 0x%08x at %d ns: place %d's bit %d is %d, "
                                       "its DOUT was %d" % (pushed.word, pushed.t_ns, place,
                                                            bit, pushed.word >> bit & 1,
                                                            bench.sampled[place]))

    def on_push(run: PioRun, pushed: Pushed) -> None:
        if progress["in_read"] < 0:
            if pushed.word == mark:
                progress["in_read"] = 0
            else:
                check_snapshot(pushed)
            return
        progress["in_read"] += 1
        if progress["in_read"] <= bits:
            return                              # a word of the read
        progress["in_read"] = -1                # the snapshot after it: the read is over
        check_snapshot(pushed)
        progress["reads"] += 1
        if after_read is not None:
            after_read(run, progress["reads"] - 1)
        if progress["reads"] >= frames:
            run.stop()

    pio = PioRun(loaded.program, loaded.freq, loaded.pins, bench, skip_idle, on_push)
    for word in tx:
        pio.put(word)
    pio.run(until_ns)
    reads, snapshots = ring(pio.pushed, mark, bits)
    return BoardRun(loaded, bench, pio, reads, snapshots, snapshot_errors)


# --- the LED strip ------------------------------------------------------------------------------

class StripBench:
    """The WS2812B model (simulator/parts/ws2812.py) on one GPIO, and every high time."""

    def __init__(self, gpio: int, count: int) -> None:
        from simulator.parts.ws2812 import WS2812Strip
        self.gpio = gpio
        self.strip = WS2812Strip(count)
        self.stray: list[str] = []
        self.rises: list[int] = []
        self.highs: list[int] = []

    def output(self, gpio: int, level: int, t_ns: int) -> None:
        if gpio != self.gpio:
            self.stray.append("GP%d went %d at %d ns: not the strip's data pin" % (
                gpio, level, t_ns))
            return
        if level:
            self.rises.append(t_ns)
        else:
            self.highs.append(t_ns - self.rises[-1])
        self.strip.edge(level, t_ns)

    def level(self, gpio: int, t_ns: int) -> int:
        return 0

    def sample(self, gpios: list[int], t_ns: int) -> None:
        pass


def strip_of(profile: Profile, pixels: list[tuple[int, int, int]]):
    """The firmware's Strip for `profile` showing `pixels` (R, G, B an LED): its program, the
    state machine's frequency and pins, and the words its DMA fed the FIFO."""
    import json

    from controller.hardware.firmware import firmware_config
    fw = firmware()
    clock = fresh_pico(fw)
    config = fw.config.check(json.loads(json.dumps(firmware_config(profile,
                                                                   variant_for(profile)))),
                             profile.name)
    leds = config["leds"]
    strip = fw.leds.Strip(leds["pin"], len(pixels), leds["order"])
    clock.advance(1000)                     # the power-up frame (all off) is long gone
    strip.show_pixels(pixels)
    sm = fw.rp2.StateMachine.machines()[strip.state_machine]
    return sm.program, sm.freq, dict(sm.pins), list(sm.transfers[-1]), leds["pin"]


def show_on_strip(profile: Profile, pixels: list[tuple[int, int, int]]) -> tuple[StripBench,
                                                                                  PioRun]:
    """The firmware's WS2812 program, fed the words its Strip made for `pixels` as its DMA
    would (the joined TX FIFO kept topped up), run on pioemu into the WS2812B model."""
    program, freq, pins, words, gpio = strip_of(profile, pixels)
    bench = StripBench(gpio, len(pixels))
    run = PioRun(program, freq, pins, bench, skip_idle=False)
    queue = deque(words)
    depth = 8 if run.settings.fifo == "tx" else 4
    bit_ns = 1250
    while queue or run.state.transmit_fifo:
        while queue and len(run.state.transmit_fifo) < depth:
            run.put(queue.popleft())
        run.run(run.t_ns + 8 * bit_ns)
    run.run(run.t_ns + 100_000)             # the line low: the strip latches the frame
    bench.strip.finish(run.t_ns)
    return bench, run
