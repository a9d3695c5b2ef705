"""The Pico's frame budget, measured on the emulated RP2040 (real MicroPython 1.27, 125 MHz).

    LAYLI_PICO_KIT=/path/to/kit python benchmarks/pico_frame_budget.py [--seconds S]
        [--board pico-bridge-2x6 --board pico-bridge-2x12 ...]
    LAYLI_PICO_KIT=/path/to/kit python benchmarks/pico_frame_budget.py --mode standalone
        [--moves N] [--seed K] [--board pico-standalone-2x6 --board pico-standalone-2x12 ...]
    LAYLI_PICO_KIT=/path/to/kit python benchmarks/pico_frame_budget.py --uf2 FILE.uf2 ...

`--uf2 FILE.uf2` runs a MicroPython built with firmware/manifest.py frozen in
(firmware/tools/build_uf2.py) instead of the kit's stock firmware.uf2 (the kit gives the boot
ROM), and copies nothing onto it, as `layli firmware deploy CONFIG --frozen` copies the config
only (the benchmark gives the firmware its config in the code it runs). The JSON beside the UF2
must name this checkout's frozen sources (its `sources_sha256`): a UF2 of other sources would
measure other firmware.

Bridge mode (the default). For each board it copies the bridge firmware onto an emulated Pico
(compiled with mpy-cross, as `layli firmware deploy --mpy` does), wires the board's HX711 models
(each on its own oscillator, about 10.7 ms a conversion, 3% apart; firmware/emulator/devices.mjs)
and runs the bridge's main loop for S emulated seconds with a guide frame whose every place
animates (the LEDs re-rendered and written every 40 ms), its Sensors frames written to a port
that takes everything. The figures count from the end of a warm-up (until every chip's rhythm
is learnt, at least 0.2 s: its readings, untrusted until then, are printed apart). It prints:

- readings: how many Sensors frames went out, against the conversions of the slowest chip in
  that time (a frame goes out once every chip has a result: one a conversion of the slowest;
  a faster chip's extra results are replaced unread, as on any shared clock), and lost: the
  slowest chip's results replaced unread (the models' times of them);
- corrupted: reads the HX711 models saw disturbed by a conversion (the models' times of them),
  and untrusted: cell readings the firmware sent as missing, with when;
- CPU: the share of the time the bridge's step() ran, measured on the Pico (ticks_us), and the
  emulator's count of cycles the core was not asleep in WFE/WFI; per frame: CPU time / frames;
  the planner's delays and the ones that came too late;
- heap: what is in use after a collection at the end (the loaded modules' bytecode, the rings,
  the objects the bridge keeps) and what is free; the collections Device.tick made (each just
  after the next four reads were queued); the longest step (a collection of that heap, 25 ms,
  is the longest thing the loop does) and the steps over 10 ms;
- flash: what the filesystem has free after the install.

Every emulated minute of the run a line of running figures goes to stderr (readings, cell
readings sent as missing, late delays, the longest step, the models' corrupted reads so far):
a ten-minute run cut short still says how far it got and what it saw.

Standalone mode (`--mode standalone`). For each pico-standalone board it copies every file of
firmware/manifest.py as `layli firmware deploy --mpy` does (modules compiled, main.py as
source), restarts the Pico (a fresh heap), writes a calibration.json that matches the HX711
models (noiseless models: a calibration without noise, so no cell is judged stuck) and plays a
real game on the standalone firmware's own loop (`Standalone.step()`, then `sleep_ms(1)`, as
`run()` does): the Pico prints each new guide frame, and a player on the host who reads only
those frames does what the LEDs say — lifts the lit pit, drops one seed, empties a pit into a
store, moves an Uur's seed — by setting the masses the HX711 models measure (every seed of the
same mass).
A new move's lit pits reach the player a second after they are shown (THINK_MS: the least a
person takes to choose a pit and reach for it; the loop runs on meanwhile, as it would).
The guide accepts each step from the sensed counts, as on a board. The first N moves (--moves,
default 3; 0 plays the game to its end) of the board's own seed (SEEDS: their first 3 moves have
a relay of several laps, captures and an Uur: 84 steps on 2 x 6) take about 10 minutes wall a
board on a loaded 2-core machine, the install 1-2 of them. Every step is timed on the Pico
(ticks_us), and its parts by wrappers around the firmware's own methods: the
sensing filter (and the judgements it made), the session's update and in it the guide's
look-ahead, its scripts of moves and the journal's appends; the sounds (`BoardLoop.react`), the
guide's frame (drawn when the LEDs' turn asks for it), the LED render and the strip write,
the sensors' read, the device's tick and the buttons' poll; the files a completed move
leaves (its journal lines, the calibration) written at the end of a step, counted as a step
of their own ("flash"), the next move's scripts made on idle turns ("prepare"), a new
band's judgement in the turn after its reading ("judge", a guide frame), and the counted
places' re-judgements made on idle turns ("rejudge"). The wrappers allocate nothing
(no `*args` tuple: on
the Pico's nearly full heap finding room for one took up to 0.6 ms), each step's label is
worked out after it, and the player follows the frame the strip was last drawn with (asked
for between steps, the guide's frame would be drawn outside the steps timed). It prints:

- the worst guide frame (a step that fed the guide a reading, or judged a new band it
  made due, or gave the session what they changed, each a turn of its own:
  Standalone.step; no garbage collection in it) against the
  frame period (10.7 ms: one HX711 conversion), what it did and its parts; the
  median frame, the 90th and 99th percentiles; the worst frame by what the reading did (a
  reading that changed nothing, a seed dropped, a relay's pick, a capture, an Uur, a move
  lifted or completed) with its largest part;
- the longest step of all, the number of collections and the longest step with one;
- heap: the most in use after any step (how full it gets before a collection), the most in
  use just after a collection (the high-water mark of what the game keeps), what was in use
  before the game; flash: free after the install and after the game (journal, calibration).

The emulator's timing is optimistic (no flash-cache misses, no bus contention): keep a margin.
Needs node, `npm ci --prefix firmware`, mpremote and the kit (firmware/emulator/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CHECKOUT))

from controller.hardware.firmware import firmware_config   # noqa: E402
from controller.hardware.profile import load                # noqa: E402


def _emulated():
    spec = spec_from_file_location("layli_firmware_emulated",
                                   CHECKOUT / "firmware" / "emulator" / "emulated.py")
    module = module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


VARIANT = {"pico-bridge-2x6": "layli-goobalay", "pico-bridge-2x12": "layli-goobalay-long",
           "pico-bridge-2x7": "mangala-iv"}

BRIDGE = r'''
import gc, json, os, time
from config import check
from clock import TicksClock
from device import Device

config = check(json.loads(%(config)r))
clock = TicksClock()
device = Device(config, clock)      # before the bridge's imports, as main.py does: the rings'
                                    # aligned buffers need a heap not yet cut up by imports
from bridge import Bridge
from controller.guide.frame import Frame, SOUTH_COLOUR, NORTH_COLOUR, DROP, PICK, FLASH, TAKE


class Port:                     # a host that takes everything and says nothing more
    def __init__(self):
        self.sent = 0

    def read(self):
        return b""

    def write(self, data):
        self.sent += len(data)

    def wait(self, ms):
        time.sleep_ms(ms)


port = Port()
bridge = Bridge(device, port, clock, config["profile"])
bridge.start()
bridge.link.introduced = True               # as if the host had said Hello
places = len(config["game"]["layout"])
frame = Frame(places)
patterns = (DROP, PICK, FLASH, TAKE)
for place in range(places):
    frame.set(place, SOUTH_COLOUR if place %% 2 else NORTH_COLOUR, patterns[place %% 4])
bridge._show_frame(frame.encode())
sensors = device.sensors
# the warm-up: until every chip's rhythm is known the reads go unplanned and untrusted
warm = time.ticks_us()
while not sensors.planner.all_known() or time.ticks_diff(time.ticks_us(), warm) < 200000:
    bridge.step()
    bridge.idle()
warm_frames, warm_untrusted = bridge.sensor_frames, sensors.untrusted
gc.collect()
base = gc.mem_alloc()
busy = 0
steps = 0
worst = 0
long_steps = 0              # steps over a conversion period: a garbage collection
untrusted = []              # (ms into the run, cells) of each reading sent with cells missing
seen = warm_untrusted
late_log = []               # (ms into the run, the step before's us, the idle before's us) of
late_seen = sensors.late    # each step whose drain planned a read too late to delay it
before = 0
rested = 0
start = time.ticks_us()
told = 0                    # running figures told so far (a line "P" each tell_us)
# the time since the start, summed step by step: ticks_diff spans at most 2**29 us (537 s), and
# a ten-minute run counted by it alone would never end
elapsed = 0
last = start
while elapsed < %(us)d:
    began = time.ticks_us()
    elapsed += time.ticks_diff(began, last)
    last = began
    if elapsed >= (told + 1) * %(tell_us)d:
        told += 1
        print("P", json.dumps({"seconds": elapsed // 1000000,
                               "start_us": start, "now_us": start + elapsed,
                               "frames": bridge.sensor_frames - warm_frames,
                               "untrusted": sensors.untrusted - warm_untrusted,
                               "late": sensors.late, "worst_step_us": worst}))
    bridge.step()
    took = time.ticks_diff(time.ticks_us(), began)
    busy += took
    if took > worst:
        worst = took
    if took > 10000:
        long_steps += 1
    if sensors.late != late_seen:
        if len(late_log) < 100:
            late_log.append((elapsed // 1000, before, rested))
        late_seen = sensors.late
    before = took
    if sensors.untrusted != seen:
        if len(untrusted) < 100:
            untrusted.append((elapsed // 1000, sensors.untrusted - seen))
        seen = sensors.untrusted
    steps += 1
    idled = time.ticks_us()
    bridge.idle()
    rested = time.ticks_diff(time.ticks_us(), idled)
total = elapsed + time.ticks_diff(time.ticks_us(), last)
gc.collect()
in_use = gc.mem_alloc()
fs = os.statvfs("/")
print(json.dumps({"busy_us": busy, "total_us": total, "steps": steps, "worst_step_us": worst,
                  "start_us": start, "warm_frames": warm_frames,
                  "warm_untrusted": warm_untrusted, "long_steps": long_steps,
                  "untrusted_log": untrusted, "late_log": late_log,
                  "collections": device.collections,
                  "delays": sensors.delays, "late": sensors.late,
                  "frames": bridge.sensor_frames - warm_frames,
                  "untrusted": sensors.untrusted - warm_untrusted,
                  "restarts": sensors.restarts, "revivals": sensors.revivals,
                  "sent": port.sent, "heap_in_use": in_use, "heap_base": base,
                  "heap_free": gc.mem_free(), "flash_free": fs[0] * fs[3]}))
'''

MODULES = ("bridge", "device", "clock", "config", "leds", "hx711", "fast", "buttons", "buzzer",
           "port", "pits", "controller.guide.frame", "controller.guide.pixels",
           "controller.protocol")


def bridge(emulated, name: str, seconds: float, tell_s: float = 60.0, kit: str | None = None,
           frozen: bool = False) -> dict:
    """The bridge's loop on the emulated `name` board for `seconds`; its figures. Every
    `tell_s` emulated seconds a line of running figures goes to stderr. `kit`: the emulated
    Pico's kit folder (default: LAYLI_PICO_KIT); `frozen`: its firmware.uf2 has the firmware
    frozen in, and nothing is copied."""
    config = firmware_config(load(name), VARIANT[name])
    config["watchdog_ms"] = 0
    with emulated.EmulatedPico(kit=kit, board=name) as pico:
        if not frozen:
            pico.install(*MODULES)
        pico.set_cells([1000 * (k + 1) for k in range(len(config["game"]["layout"]))])
        before = pico.pico_stats()
        pico.reset_stats()

        def told(line: str) -> None:
            # every tell_s the Pico prints a line "P {...}": its running figures and the
            # models' corrupted reads so far go to stderr, so that a long run cut short still
            # says how far it got and what it saw
            if not line.startswith("P {"):
                return
            figures = json.loads(line[2:])
            chips = [c for c in pico.stats()["hx711"] if "period_ns" in c]
            figures["corrupted"] = sum(
                1 for chip in chips for t in chip.get("corrupted_times_ns", [])
                if 1000 * figures["start_us"] <= t < 1000 * figures["now_us"])
            print("%s: %s" % (name, json.dumps(figures)), file=sys.stderr, flush=True)

        printed = pico.exec(BRIDGE % {"config": json.dumps(config), "us": int(seconds * 1e6),
                                      "tell_us": int(tell_s * 1e6)},
                            timeout_s=600 + 300 * seconds,   # a loaded host: 30 s a second
                            on_line=told)
        after = pico.pico_stats()
        models = pico.stats()["hx711"]
    result = json.loads(printed.strip().splitlines()[-1])
    cycles = after["cycles"] - before["cycles"]
    idle = after["idleCycles"] - before["idleCycles"]
    # the emulated timer counts the emulator's nanoseconds: the measured part of the run
    begin_ns, end_ns = 1000 * result["start_us"], 1000 * (result["start_us"] + result["total_us"])

    def within(times: list) -> int:
        return sum(1 for t in times if begin_ns <= t < end_ns)

    chips = [chip for chip in models if "period_ns" in chip]
    slowest = max(chips, key=lambda chip: chip["period_ns"]) if chips else None
    period_us = slowest["period_ns"] / 1000 if slowest else 10702
    result.update(board=name, seconds=seconds, emulator_busy=(cycles - idle) / cycles,
                  expected=int(result["total_us"] // period_us),
                  corrupted=sum(within(chip.get("corrupted_times_ns", [])) for chip in chips),
                  # when, in ms into the measured run (the logs' times), and which chip
                  corrupted_log=sorted(((t - begin_ns) // 1000000, index)
                                       for index, chip in enumerate(chips)
                                       for t in chip.get("corrupted_times_ns", [])
                                       if begin_ns <= t < end_ns)[:100],
                  # a result of the slowest chip replaced unread: a reading lost
                  lost=within(slowest.get("overwritten_times_ns", [])) if slowest else 0,
                  # ... and when, ms into the measured run (to set beside the step log's)
                  lost_log=[(t - begin_ns) // 1000000
                            for t in (slowest.get("overwritten_times_ns", []) if slowest else [])
                            if begin_ns <= t < end_ns][:100],
                  reads=sum(chip.get("reads", 0) for chip in models),
                  # the emulator's own check: a parked PIO poll woken a turn late (0 in a
                  # run whose figures can be trusted; firmware/emulator/README.md)
                  late_resumes=after.get("pioLateResumes", 0) - before.get("pioLateResumes", 0))
    return result


def report(result: dict) -> str:
    frames = result["frames"]
    per_frame = result["busy_us"] / frames if frames else float("nan")
    return ("%(board)s, %(seconds).0f s after a warm-up of %(warm_frames)d readings "
            "(%(warm_untrusted)d cell readings sent as missing while the chips' rhythms were "
            "learnt):\n"
            "  %(frames)d readings of %(expected)d conversions of the slowest chip, %(lost)d of "
            "them lost; corrupted reads %(corrupted)d; cell readings sent as missing "
            "%(untrusted)d; stalls revived %(revivals)d\n"
            "  CPU %(cpu).0f%% (emulator: %(emu).0f%% not asleep), %(per).2f ms a frame of "
            "%(period).1f ms (%(share).0f%%); reads delayed %(delays)d, delays too late "
            "%(late)d; longest step %(worst).1f ms, %(long_steps)d steps over 10 ms\n"
            "  heap: %(most)d bytes in use after a collection, %(free)d free, %(collections)d "
            "collections; flash free %(flash)d KiB; emulator: PIO woken late %(late_resumes)d"
            % {
                **result, "cpu": 100 * result["busy_us"] / result["total_us"],
                "emu": 100 * result["emulator_busy"], "per": per_frame / 1000,
                "period": result["total_us"] / max(frames, 1) / 1000,
                "share": 100 * per_frame * frames / result["total_us"] if frames else 0,
                "worst": result["worst_step_us"] / 1000, "most": result["heap_in_use"],
                "free": result["heap_free"], "flash": result["flash_free"] // 1024})


# --- standalone mode ---------------------------------------------------------------------------

STANDALONE = {"pico-standalone-2x6": "layli-goobalay",
              "pico-standalone-2x12": "layli-goobalay-long",
              "pico-standalone-2x7": "mangala-iv"}
HISTOGRAM_US = 100              # the frame times' histogram on the Pico: 0.1 ms buckets ...
HISTOGRAM = 400                 # ... up to 40 ms (a longer step counts in the last)
PARTS = 15                      # the parts of a step timed on the Pico (`part` in GAME)
ENTRY = PARTS + 2               # a worst step's figures: its count, its us, then its parts
                                # as worst_frame lists them
SLOW_TAKE_US = 2500             # a reading's take longer than this is kept (what it parsed) ...
SLOW_TAKES = 40                 # ... the first this many
PERIOD_MS = 10.702              # one HX711 conversion at 80 SPS (RATE high), the frame period
THINK_MS = 1000                 # a player's least time between a move's end and the next lift
# The player's seed for each board: its first 3 moves have a relay of several laps, captures
# and an Uur (found by playing the Player against controller.guide on the host)
SEEDS = {"pico-standalone-2x6": 95, "pico-standalone-2x12": 45, "pico-standalone-2x7": 1}
MOVES = 3

GAME = r'''
import gc, json, os, time
from array import array
from time import ticks_us, ticks_diff
from config import check
# the names the figures take after the game, made now: a name new to the module then grows
# its globals' table (a kilobyte in one piece, which a 2 x 12 board's heap, full at a
# game's end, did not have: MemoryError, "allocating 1016 bytes", three runs)
total_ms = sensors = recent = figures = after = None
from clock import TicksClock
from device import Device

config = check(json.loads(%(config)r))
clock = TicksClock()
device = Device(config, clock)      # before the portable core, as main.py does: the rings'
                                    # aligned buffers need a heap not yet cut up by imports
del check                           # and, as main.py does, config.py's code let go
import sys
sys.modules.pop("config", None)
import standalone
from standalone import Standalone, save_text, CALIBRATION, JOURNAL
from controller.sensing import Calibration

for name in (JOURNAL, CALIBRATION):
    try:
        os.remove(name)
    except OSError:
        pass
places = len(config["game"]["layout"])
save_text(CALIBRATION, Calibration(%(tare)r, %(per_seed)r, 0.02, noise=[0.0] * places).to_json())
# this step's sense (sensing + session), react (sounds), colours, strip write; of the
# sense: the session's update, and in it the guide's scripts of moves, the journal's appends
# and syncs, the guide's look-ahead (_ahead); the guide's frame (_render, when the LEDs'
# turn asks for it); the sensors' read; a file written between readings (the journal's
# lines, the calibration); scripts prepared;
# the sensing's judgements made (each 1 ms of floats on a Pico); the device's tick (strip,
# buzzer, watchdog, the heap's look) and the buttons' poll
part = [0] * %(parts)d
wrapped = [None, None, None, None]  # the session, guide, storage and sensor timed
events = []                 # the session's events of this step (labelled after it)


# The wrappers take their method's arguments one by one: a `*args` tuple of three or more
# is a heap block of its own, which a Pico's nearly full heap takes up to 0.6 ms to find room
# for (MicroPython looks for it from its lowest free block up), more than the method's time.
def timing(inner, slot, arguments):
    if arguments == 0:
        def timed():
            t = ticks_us()
            out = inner()
            part[slot] += ticks_diff(ticks_us(), t)
            return out
    elif arguments == 1:
        def timed(a):
            t = ticks_us()
            out = inner(a)
            part[slot] += ticks_diff(ticks_us(), t)
            return out
    elif arguments == 3:
        def timed(a, b, c):
            t = ticks_us()
            out = inner(a, b, c)
            part[slot] += ticks_diff(ticks_us(), t)
            return out
    else:                   # Guide._ahead(counts, settled, move, done, still=None)
        def timed(a, b, c, d, e=None):
            t = ticks_us()
            out = inner(a, b, c, d, e)
            part[slot] += ticks_diff(ticks_us(), t)
            return out
    return timed


def counting(inner, slot):
    def counted(i, channel, t_ms):
        part[slot] += 1
        return inner(i, channel, t_ms)
    return counted


class Timed(Standalone):
    """Standalone as it is, each part of its step timed (ticks_us around the real methods)."""

    def _sense(self, now, trusted):
        session = self.session
        if wrapped[0] is not session:
            wrapped[0] = session
            session.update = timing(session.update, 4, 3)
            storage = session.storage
            if wrapped[2] is not storage:
                wrapped[2] = storage
                storage.append = timing(storage.append, 6, 1)
                storage.sync = timing(storage.sync, 6, 0)
        if wrapped[1] is not session.guide:
            guide = wrapped[1] = session.guide
            guide._script = timing(guide._script, 5, 1)
            guide._ahead = timing(guide._ahead, 7, 5)
            guide._render = timing(guide._render, 8, 0)
        if wrapped[3] is not self.sensor:
            wrapped[3] = self.sensor
            self.sensor._judge = counting(self.sensor._judge, 12)
        t = ticks_us()
        Standalone._sense(self, now, trusted)
        part[0] += ticks_diff(ticks_us(), t)

    def _update(self):
        # what a reading changed, to the session (in the next turn without a reading, see
        # Standalone.step): timed as sensing too, and its turn a guide frame of its own
        t = ticks_us()
        Standalone._update(self)
        part[0] += ticks_diff(ticks_us(), t)

    def _work_ahead(self, now, idle):
        loop = self.loop
        due, calibration_due = self.storage.due, loop.calibration_due    # (no tuple made)
        t = ticks_us()
        did = Standalone._work_ahead(self, now, idle)
        if self.storage.due != due or loop.calibration_due != calibration_due:  # a file written
            part[10] += ticks_diff(ticks_us(), t)
        return did

    def _judge(self):
        # a judgement in a turn of its own: timed as sensing; a new band's (in the turn after
        # its reading) is a guide frame, labelled "judge"; a counted place's again, on an
        # idle turn, is labelled "rejudge"
        judged[0] = 1 if self.sensor.judge_due else 2
        t = ticks_us()
        Standalone._judge(self)
        part[0] += ticks_diff(ticks_us(), t)


judged = [0]                # this step's judgement: 0 none, 1 a new band's, 2 a re-judgement


def accepted(guide):
    """What the guide accepted in this step (for its label), from the events kept."""
    if not events:
        return ()           # most turns: nothing allocated
    kinds = []
    for some in events:
        for event in some:
            kind = event[0]
            if kind == "step_done":
                kinds.append(guide.script[event[1] - 1][0])
            elif kind == "move_started":
                kinds.append("start")
            elif kind == "move_done":
                kinds.append("done")
            elif kind == "mistake" or kind == "fault":
                kinds.append(kind)
    del events[:]
    return kinds


place_colours = standalone.place_colours


drawn = [None]              # the guide frame the strip shows: the one last drawn


def timed_colours(frame, layout, now, out=None):
    drawn[0] = frame
    t = ticks_us()
    colours = place_colours(frame, layout, now, out)
    part[2] = ticks_diff(ticks_us(), t)
    return colours


standalone.place_colours = timed_colours
show_places = device.strip.show_places


def timed_show(colours, led_place):
    t = ticks_us()
    shown = show_places(colours, led_place)
    part[3] = ticks_diff(ticks_us(), t)
    return shown


device.strip.show_places = timed_show
# the takes over %(slow_us)d us, the first %(slow_most)d: (us, readings parsed, passed over, gone
# round) each, in an array made before the game (tuples kept on a heap this full ran it out)
slow_takes = array("i", bytes(4 * 4 * %(slow_most)d))
slow_count = [0]
plain_take = device.sensors.take


def timed_take(values):
    reader = device.sensors
    frames, passed_over, restarts = reader.frames, reader.passed_over, reader.restarts
    t = ticks_us()
    trusted = plain_take(values)
    took = ticks_diff(ticks_us(), t)
    part[9] += took
    if took > %(slow_us)d:
        k = slow_count[0]
        if k < %(slow_most)d:
            slow_takes[4 * k] = took
            slow_takes[4 * k + 1] = reader.frames - frames
            slow_takes[4 * k + 2] = reader.passed_over - passed_over
            slow_takes[4 * k + 3] = reader.restarts - restarts
        slow_count[0] = k + 1
    return trusted


device.sensors.take = timed_take
device.tick = timing(device.tick, 13, 1)
device.buttons.poll = timing(device.buttons.poll, 14, 0)
app = Timed(device, clock, config["game"])
prepare = app.session.prepare


def timed_prepare():
    t = ticks_us()
    made = prepare()
    if made:
        part[11] += ticks_diff(ticks_us(), t)
    return made


app.session.prepare = timed_prepare
react = app.loop.react


def timed_react():
    # the step's events, kept for its label: the board loop hands the session a new list
    # (nothing allocated in a turn without events: this runs every turn)
    happened = app.loop.session.events
    if happened:
        events.append(happened)
    t = ticks_us()
    reacted = react()
    part[1] += ticks_diff(ticks_us(), t)
    return reacted


app.loop.react = timed_react
fs = os.statvfs("/")
histogram = array("H", bytes(2 * %(buckets)d))


def record(label, took, part):
    entry = worst.get(label)
    if entry is None:
        entry = worst[label] = [0] * %(entry)d
    entry[0] += 1
    if took > entry[1]:
        entry[1], entry[2], entry[3], entry[4] = took, part[0], part[1], part[2] + part[3]
        entry[6], entry[7], entry[8], entry[9], entry[10], entry[11] = part[4:10]
        entry[12], entry[13], entry[14], entry[15], entry[16] = part[10:15]
    if part[2] + part[3] > entry[5]:
        entry[5] = part[2] + part[3]


worst = {}                  # what a step did -> [steps, longest us, its sense us, most sense us]
collections = 0
longest = [0, ""]
peak = 0
live = 0
left = None                 # what the last collection left in use (None: none yet)
last_places = None
think_from = None
gc.collect()
heap_start = gc.mem_alloc()
in_use = heap_start
start = time.ticks_ms()
limit_ms = %(limit_ms)d
moves_cap = %(moves)d
over_at = None
frames = 0
steps = 0
# the loop's time, us: every step's, then the plain turns' (no reading, no LEDs, no work
# ahead, no file, no collection: the reads' drain, the buttons and the device's tick, where
# the look at the heap goes) and of it the ticks'
busy = [0, 0, 0, 0]
device_collections = device.collections
starts = []                 # each move's start: [prepared before?, ms to prepare, ms waited]
await_since = ready_in = None
while True:
    game = app.session.game
    if over_at is None and (game.over or (moves_cap and len(game.moves) >= moves_cap)):
        over_at = time.ticks_ms()
    if over_at is not None and time.ticks_diff(time.ticks_ms(), over_at) > 500:
        break
    if time.ticks_diff(time.ticks_ms(), start) > limit_ms:
        break
    for k in range(%(parts)d):
        part[k] = 0
    if app.session.prepare is not timed_prepare:
        prepare = app.session.prepare       # a new game's session
        app.session.prepare = timed_prepare
    fed = app.frames
    ready = ready_in is not None
    t = ticks_us()
    app.step()
    took = ticks_diff(ticks_us(), t)
    # the heap: gc.mem_alloc() walks the heap's table, 8 ms on a Pico, so it is looked at
    # only after a long step (a collection takes 25 ms or more) and every 32nd step
    steps += 1
    collected = device.collections != device_collections     # Device.tick's own
    device_collections = device.collections
    if collected or took > 20000 or steps %% 32 == 0:
        now_in_use = gc.mem_alloc()
        # MicroPython's own collection (the heap full before Device.tick's): the heap in use
        # fell since the last look; or, the last look being just after a collection, a step
        # over 20 ms with no script made ahead and no file left it no fuller than that
        # collection did (a 2 x 12 run's "reading" of 34.6 ms, 32.3 of it in the sensing,
        # where the fall went unseen)
        collected = collected or now_in_use < in_use - 1024 or (
            took > 20000 and not part[10] and not part[11] and left is not None
            and now_in_use < left + 4096)
        in_use = now_in_use
    if in_use > peak:
        peak = in_use
    if collected:
        collections += 1
        if in_use > live:
            live = in_use
        left = in_use
    # a file written at the end of the step, after the reading was judged: a step apart
    flash = part[10]
    label = None
    kinds = accepted(app.session.guide)
    # how long after a move's end (or the game's start) the guide had prepared the next
    # move's scripts and look-ahead, and whether each move started before that
    if "start" in kinds:
        starts.append([1 if ready else 0, ready_in if ready else -1,
                       -1 if await_since is None else
                       time.ticks_diff(time.ticks_ms(), await_since)])
    if app.session.guide.phase != "await":
        await_since = ready_in = None
    elif await_since is None:
        await_since = time.ticks_ms()
    elif ready_in is None and app.session.prepared:
        ready_in = time.ticks_diff(time.ticks_ms(), await_since)
    # a guide frame: a turn with a reading, or a new band's judgement, or the session's
    # update of what they changed (each a turn of its own, Standalone.step)
    if app.frames != fed or part[4] or judged[0] == 1:
        if app.frames != fed:
            frames += 1
        histogram[min((took - flash) // %(bucket_us)d, %(buckets)d - 1)] += 1
        label = "+".join(kinds) if kinds else "judge" if judged[0] == 1 else "reading"
    if part[2] or part[3]:
        label = (label + "+render") if label else "render"
    if part[11]:
        label = (label + "+prepare") if label else "prepare"
    if judged[0] == 2:
        label = (label + "+rejudge") if label else "rejudge"
    judged[0] = 0
    if collected:
        label = (label + "+gc") if label else "gc"
    if flash:
        flash_part = [0] * %(parts)d
        flash_part[10] = flash
        record("flash", flash, flash_part)
        part[10] = 0
    if label is not None:
        record(label, took - flash, part)
    busy[0] += took
    if label is None:
        busy[1] += 1
        busy[2] += took
        busy[3] += part[13]
    if took - flash > longest[0]:
        longest[0], longest[1] = took - flash, label or "other"
    if flash > longest[0]:
        longest[0], longest[1] = flash, "flash"
    # the player sees a frame as soon as the strip shows it (the guide draws its frame when
    # the LEDs' turn asks for it: asked for here, it would be drawn outside the steps timed),
    # but a new move's lit pits only after THINK_MS: a person takes that long at least to
    # choose a pit and reach for it
    frame = drawn[0]
    shown = last_places if frame is None else frame.places
    if shown != last_places:
        waiting = app.session.guide.phase == "await" and not game.over
        if waiting and think_from is None:
            think_from = time.ticks_ms()
        if not waiting or time.ticks_diff(time.ticks_ms(), think_from) >= %(think_ms)d:
            last_places = list(shown)       # (the guide draws every frame into one Frame)
            think_from = None
            print("F", len(game.moves), frame.encode().hex())
    clock.sleep_ms(1)
total_ms = time.ticks_diff(time.ticks_ms(), start)
sensors = device.sensors
game = app.session.game
recent = app.loop.recent[-4:]
gc.collect()                        # the game is over and its figures taken
figures = {
    "total_ms": total_ms, "frames": frames, "moves": len(game.moves), "over": game.over,
    "scores": list(game.scores) if game.over else None, "longest_us": longest[0],
    "longest": longest[1], "collections": collections, "heap_peak": peak, "heap_live": live,
    "heap_start": heap_start, "untrusted": sensors.untrusted, "steps": steps,
    "busy": busy, "starts": starts,
    "reader": [sensors.delays, sensors.late, sensors.restarts, sensors.passed_over,
               sensors.revivals], "slow_count": slow_count[0],
    "slow_takes": [list(slow_takes[4 * k:4 * k + 4])
                   for k in range(min(slow_count[0], %(slow_most)d))],
    "sensing_errors": app.sensing_errors, "problem": app.problem}
# the game let go before the figures are printed: the wrappers' references too (a 2 x 12
# board's heap, this full, once had no 584 bytes in one piece for the histogram's line)
del app, device, sensors, game, react
frame = shown = last_places = None
wrapped[:] = [None] * 4
drawn[0] = None
del events[:]
gc.collect()
figures["recent"] = [repr(event) for event in recent]     # (words, once the game is let go)
after = os.statvfs("/")
figures.update(heap_end=gc.mem_alloc(), heap_total=gc.mem_alloc() + gc.mem_free(),
               flash_free=fs[0] * fs[3], flash_free_after=after[0] * after[3],
               flash_total=fs[0] * fs[2])
print("R", json.dumps(figures))             # in pieces: a heap this full has no long blocks
for label in worst:                         # a line a label: the whole is over a kilobyte
    print("W", json.dumps({label: worst[label]}))
print("H", end="")                          # a pair at a time: no long string
for k in range(len(histogram)):
    if histogram[k]:
        print(" %%d:%%d" %% (k, histogram[k]), end="")
print()
'''


class Player:
    """A careful player who follows only the LEDs (one action for each frame the guide
    shows), on the board `counts` (pits, then the stores); a move is one of the lit pits,
    drawn from a small generator of its own (the same seed, the same game)."""

    def __init__(self, counts: list[int], seed: int) -> None:
        self.counts = counts
        self.hand = 0
        self.seed = seed & 0x7FFFFFFF or 1
        self.problems: list[str] = []

    def _draw(self, n: int) -> int:
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.seed >> 16) % n

    def act(self, frame) -> bool:
        """Do what `frame` asks; False when it asks nothing (the game over)."""
        from controller.guide.frame import (DROP, FLASH, FORCED, LESS, MORE, PICK, STEADY,
                                            TAKE, UUR_FROM, UUR_TO)
        counts = self.counts
        pits = len(counts) - 2
        wrong = frame.where(MORE) + frame.where(LESS) + frame.where(FLASH)
        if wrong:
            self.problems.append("the guide shows a mistake at %s: %r" % (wrong, frame))
            return False
        drop, pick, take = frame.where(DROP), frame.where(PICK), frame.where(TAKE)
        if drop:
            counts[drop[0]] += 1
            self.hand -= 1
        elif pick:
            self.hand += counts[pick[0]]
            counts[pick[0]] = 0
        elif take:
            store = pits if frame.colour(take[0]) == "south" else pits + 1
            counts[store] += counts[take[0]]
            counts[take[0]] = 0
        elif frame.where(UUR_FROM):
            counts[frame.where(UUR_FROM)[0]] -= 1
            counts[frame.where(UUR_TO)[0]] += 1
        else:
            legal = [p for p in range(pits) if frame.pattern(p) in (STEADY, FORCED)]
            if not legal:
                return False
            pit = legal[self._draw(len(legal))]
            self.hand += counts[pit]
            counts[pit] = 0
        return True


def install_everything(emulated, pico) -> None:
    """Every file of firmware/manifest.py onto `pico` as `layli firmware deploy --mpy` copies
    them: the modules compiled by mpy-cross, main.py as source."""
    names = []
    for _, target in emulated._deploy().manifest_files():
        stem = target[:-3]
        if target != "main.py":
            names.append(stem[:-9].replace("/", ".") if stem.endswith("/__init__")
                         else stem.replace("/", "."))
    pico.install(*names)
    pico.put("main.py", (CHECKOUT / "firmware" / "main.py").read_bytes())


def standalone(emulated, name: str, moves: int = MOVES, seed: int = 1, limit_s: float = 1800.0,
               flash_in: str | None = None, kit: str | None = None,
               frozen: bool = False) -> dict:
    """A standalone game on the emulated `name` board: the firmware installed as `layli
    firmware deploy` copies it, the game played by a Player on the HX711 models; the Pico's
    figures.
    `flash_in`: a flash image with the firmware installed already (a quicker start); `kit`:
    the emulated Pico's kit folder (default: LAYLI_PICO_KIT); `frozen`: its firmware.uf2 has
    the firmware frozen in, and nothing is installed (the config is in the game's code)."""
    from controller.guide.frame import Frame
    from controller.rules import Game

    variant = STANDALONE[name]
    config = firmware_config(load(name), variant)
    config["watchdog_ms"] = 0
    places = len(config["game"]["layout"])
    tare = [40000 + 1500 * k for k in range(places)]            # raw units
    per_seed = [9000 + 37 * k for k in range(places)]           # a 5 g seed on a 1 kg cell
    counts = Game(variant, config["game"]["options"]).pits + [0, 0]
    player = Player(counts, seed)
    result: dict = {}
    steps = [0]

    def load_cells() -> None:
        pico.set_cells([tare[k] + counts[k] * per_seed[k] for k in range(places)])

    def line(text: str) -> None:
        if text.startswith("F "):
            _, _moves, encoded = text.split()
            if player.act(Frame.decode(bytes.fromhex(encoded))):
                steps[0] += 1
                load_cells()
        elif text.startswith("R "):
            result.update(json.loads(text[2:]))
        elif text.startswith("W "):
            result.setdefault("worst", {}).update(json.loads(text[2:]))
        elif text.startswith("H "):
            histogram = [0] * HISTOGRAM
            for pair in text[2:].split():
                bucket, count = pair.split(":")
                histogram[int(bucket)] = int(count)
            result["histogram"] = histogram

    with emulated.EmulatedPico(kit=kit, board=name, flash_in=flash_in) as pico:
        started = time.monotonic()
        if flash_in is None and not frozen:
            install_everything(emulated, pico)
            pico.power_cycle()          # a fresh heap, as a Pico starts after a deploy
        install_s = time.monotonic() - started
        load_cells()
        pico.set_mode("fast")
        pico.reset_stats()
        code = GAME % {"config": json.dumps(config), "tare": tare, "per_seed": per_seed,
                       "limit_ms": int(limit_s * 1000), "moves": moves,
                       "buckets": HISTOGRAM, "bucket_us": HISTOGRAM_US, "think_ms": THINK_MS,
                       "parts": PARTS, "entry": ENTRY, "slow_us": SLOW_TAKE_US,
                       "slow_most": SLOW_TAKES}
        try:
            pico.exec(code, timeout_s=300, on_line=line)
        except emulated.PicoError as error:
            raise emulated.EmulatorError("the game on the Pico stopped:\n%s" % error.traceback)
        models = pico.stats()["hx711"]
    result.update(board=name, variant=variant, player_steps=steps[0], install_s=install_s,
                  problems=player.problems, corrupted=sum(c.get("corrupted", 0) for c in models),
                  seed=seed, board_agrees=counts)
    return result


def percentile(histogram: list[int], share: float) -> float:
    """The frame time (ms) under which `share` of the frames fall, from the Pico's histogram
    (its bucket's upper edge)."""
    total = sum(histogram)
    seen = 0
    for bucket, count in enumerate(histogram):
        seen += count
        if total and seen >= share * total:
            return (bucket + 1) * HISTOGRAM_US / 1000
    return float("nan")


def worst_frame(result: dict, collected: bool = False) -> tuple[str, list[int]]:
    """The longest step that fed the guide a reading: its label and its figures (steps, us,
    sense us, react us, render us, the label's longest render us, session update us, of it
    move scripts, journal and look-ahead us, the guide's frame drawn us (outside the update),
    the sensors' read us, a file written us, scripts prepared us, the sensing's judgements,
    the device's tick us, the buttons' poll us: ENTRY numbers). Only the steps with no garbage collection in them, or with `collected` only those
    with one."""
    found = ("none", [0] * ENTRY)
    for label, entry in result["worst"].items():
        kinds = label.split("+")
        if kinds[0] in ("render", "gc", "flash", "prepare", "rejudge") or \
                collected != ("gc" in kinds):
            continue
        if entry[1] > found[1][1]:
            found = (label, entry)
    return found


KINDS = (("reading", "a reading that changed nothing"), ("drop", "a seed dropped"),
         ("pick", "a relay's pick"), ("capture", "a capture"), ("uur", "an Uur"),
         ("collect", "the end's collection"), ("start", "a move lifted"),
         ("done", "a move completed"), ("flash", "a file written after a step's reading"),
         ("prepare", "a move's script prepared on an idle turn"),
         ("judge", "a new band judged in the turn after its reading"),
         ("rejudge", "a counted place judged again on an idle turn"))


def dominant(label: str, entry: list[int]) -> str:
    """What took most of the step `entry` describes (see worst_frame)."""
    if "gc" in label.split("+"):
        return "with a collection"
    parts = {"sensing": entry[2] - entry[6], "move scripts": entry[7], "journal": entry[8],
             "look-ahead": entry[9], "guide's frame": entry[10],
             "react": entry[3], "render": entry[4], "read": entry[11],
             "file written": entry[12], "script prepared": entry[13],
             "the device's tick": entry[15], "the buttons": entry[16]}
    # the guide draws its frame when the LEDs' turn asks for it, outside the session's update
    parts["the rest of the guide"] = entry[6] - entry[7] - entry[8] - entry[9]
    parts["the rest of the step"] = (entry[1] - entry[2] - entry[3] - entry[4] - entry[10]
                                     - entry[11] - entry[12] - entry[13] - entry[15]
                                     - entry[16])
    name = max(parts, key=lambda part: parts[part])
    return "%s %.1f" % (name, parts[name] / 1000)


def _starts(starts: list[list[int]]) -> str:
    """Each move's start: whether the guide had its scripts and look-ahead ready (and how
    long after the move's end, or the game's start, they were), how long the player took."""
    if not starts:
        return "no move started"
    ready = sum(1 for start in starts if start[0])
    return "%d of %d (%s)" % (ready, len(starts), "; ".join(
        ("ready in %d ms, lifted after %d" % (start[1], start[2])) if start[0]
        else "not ready when lifted after %d ms" % start[2] for start in starts))


def slow_takes(result: dict) -> str:
    """The reading's takes over SLOW_TAKE_US, in words: how many, the longest, and how many
    readings the first SLOW_TAKES parsed (a take after a long turn parses what came meanwhile,
    and after an absence over the reader's keep_us passes over the rest)."""
    kept = result.get("slow_takes") or []
    count = result.get("slow_count", len(kept))
    if not count:
        return "no take of a reading over %.1f ms" % (SLOW_TAKE_US / 1000)
    parsed: dict[int, int] = {}
    for _, readings, _, _ in kept:
        parsed[readings] = parsed.get(readings, 0) + 1
    return ("%d takes of a reading over %.1f ms, the longest %.1f (of the first %d: %s; %d "
            "after a pass-over)" % (
                count, SLOW_TAKE_US / 1000, max(take[0] for take in kept) / 1000, len(kept),
                ", ".join("%d parsing %d reading%s" % (n, k, "" if k == 1 else "s")
                          for k, n in sorted(parsed.items())),
                sum(1 for take in kept if take[2])))


def standalone_report(result: dict) -> str:
    label, entry = worst_frame(result)
    gc_label, gc_entry = worst_frame(result, collected=True)
    kinds = []
    for kind, _ in KINDS:
        found = max(((e[1], lab, e) for lab, e in result["worst"].items()
                     if "gc" not in lab.split("+") and kind in lab.split("+")), default=None)
        if found:
            kinds.append("%s %.1f (%s)" % (kind, found[0] / 1000, dominant(found[1], found[2])))
    renders = max((e[5] for e in result["worst"].values()), default=0)
    return ("%(board)s (%(variant)s, seed %(seed)d): %(moves)d moves%(end)s in %(s).0f emulated "
            "s, %(frames)d readings fed to the guide; untrusted %(untrusted)d, corrupted "
            "%(corrupted)d; reads delayed %(delays)d, delays too late %(late)d, the ring "
            "taken up after a long absence %(passed_over)d times (%(restarts)d gone round), "
            "chips revived %(revivals)d; %(slow)s\n"
            "  worst guide frame %(worst).1f ms against a period of %(period).1f ms (%(label)s: "
            "sensing %(feed).1f with %(judged)d judgements, session %(update).1f: the guide's "
            "look-ahead %(ahead).1f, move scripts %(scripts).1f, the journal %(journal).1f; "
            "react %(react).1f, the guide's frame drawn %(frame).1f, render %(render).1f, read "
            "%(read).1f, tick %(tick).1f, buttons %(buttons).1f); median %(median).1f ms, "
            "90%% under %(p90).1f ms, 99%% %(p99)s ms\n"
            "  worst by what the reading did, ms (the largest part): %(kinds)s\n"
            "  render + strip write at most %(renders).1f ms\n"
            "  the loop's steps %(busy_share).0f%% of the run (%(steps)d steps); %(plain)d "
            "plain turns, %(plain_ms).0f ms in all, %(ticks_ms).0f of it the device's ticks "
            "(the looks at the heap)\n"
            "  moves started with their scripts and look-ahead prepared: %(prepared)s\n"
            "  longest step %(longest).1f ms (%(longest_label)s); %(collections)d collections, "
            "the longest step with one %(gc).1f ms (%(gc_label)s)\n"
            "  heap: %(peak)d bytes in use at most (of %(total)d), %(live)d at most after a "
            "collection, %(start)d before the game; flash free %(flash)d KiB after the install "
            "(%(flash_after)d KiB after the game)" % {
                **result, "s": result["total_ms"] / 1000, "period": PERIOD_MS,
                **dict(zip(("delays", "late", "restarts", "passed_over", "revivals"),
                           result["reader"])),
                "end": ", game over %s" % result["scores"] if result["over"] else "",
                "slow": slow_takes(result),
                "worst": entry[1] / 1000, "label": label, "feed": (entry[2] - entry[6]) / 1000,
                "judged": entry[14], "tick": entry[15] / 1000, "buttons": entry[16] / 1000,
                "update": entry[6] / 1000, "scripts": entry[7] / 1000,
                "journal": entry[8] / 1000, "ahead": entry[9] / 1000, "frame": entry[10] / 1000,
                "read": entry[11] / 1000,
                "react": entry[3] / 1000, "render": entry[4] / 1000,
                "median": percentile(result["histogram"], 0.5),
                "p90": percentile(result["histogram"], 0.9),
                "p99": ("under %.1f" % percentile(result["histogram"], 0.99)
                        if sum(result["histogram"][:-1]) >= 0.99 * sum(result["histogram"])
                        else "not under %.0f" % (HISTOGRAM * HISTOGRAM_US / 1000)),
                "kinds": ", ".join(kinds),
                "renders": renders / 1000, "longest": result["longest_us"] / 1000,
                "busy_share": 100 * result["busy"][0] / 1000 / result["total_ms"],
                "plain": result["busy"][1], "plain_ms": result["busy"][2] / 1000,
                "ticks_ms": result["busy"][3] / 1000,
                "prepared": _starts(result.get("starts", [])),
                "longest_label": result["longest"], "gc": gc_entry[1] / 1000,
                "gc_label": gc_label, "peak": result["heap_peak"],
                "total": result["heap_total"], "live": result["heap_live"],
                "start": result["heap_start"], "flash": result["flash_free"] // 1024,
                "flash_after": result["flash_free_after"] // 1024})


def _build_uf2():
    spec = spec_from_file_location("layli_build_uf2", CHECKOUT / "firmware" / "tools" /
                                   "build_uf2.py")
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def frozen_kit(uf2: Path, kit: str | None, folder: Path) -> tuple[str | None, dict]:
    """A kit folder made in `folder` for the frozen `uf2` (firmware.uf2 a link to it, the boot
    ROM a link to `kit`'s), and what the run's figures say of the firmware; or (None, {"error":
    why}) when the UF2 cannot be measured as this checkout's firmware."""
    if not uf2.is_file():
        return None, {"error": "--uf2 %s: no such file" % uf2}
    about_path = uf2.with_suffix(".json")
    try:
        about = json.loads(about_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return None, {"error": "--uf2 %s: no JSON beside it saying what it holds (%s: %s); "
                               "build it with firmware/tools/build_uf2.py" % (
                                   uf2, about_path, error)}
    digest = _build_uf2().sources_digest()
    if not about.get("frozen") or about.get("sources_sha256") != digest:
        return None, {"error": "--uf2 %s holds other sources than this checkout's firmware "
                               "(%s says %s, this checkout is %s): build it again with "
                               "firmware/tools/build_uf2.py" % (
                                   uf2, about_path.name,
                                   about.get("sources_sha256") if about.get("frozen")
                                   else "nothing frozen", digest)}
    if not kit or not (Path(kit) / "bootrom-b1.bin").is_file():
        return None, {"error": "--uf2 needs the kit's boot ROM: LAYLI_PICO_KIT names a folder "
                               "with bootrom-b1.bin"}
    (folder / "firmware.uf2").symlink_to(uf2.resolve())
    (folder / "bootrom-b1.bin").symlink_to((Path(kit) / "bootrom-b1.bin").resolve())
    return str(folder), {"uf2": str(uf2.resolve()), "uf2_sha256": about.get("uf2_sha256"),
                         "sources_sha256": digest, "layli_commit": about.get("layli_commit"),
                         "built": about.get("built")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("bridge", "standalone"), default="bridge",
                        help="bridge (default): the bridge's loop for --seconds; standalone: a "
                             "whole game played on the standalone firmware")
    parser.add_argument("--seconds", type=float, default=None,
                        help="bridge: emulated seconds per board (default 10; 600 for the "
                             "10-minute run)")
    parser.add_argument("--board", action="append", choices=sorted(VARIANT) + sorted(STANDALONE),
                        help="a pico-bridge profile (default: 2x6 and 2x12), or with --mode "
                             "standalone a pico-standalone one (default: 2x6 and 2x12)")
    parser.add_argument("--moves", type=int, default=None,
                        help="standalone: stop the game after this many moves (default %d; 0: "
                             "play it to its end)" % MOVES)
    parser.add_argument("--seed", type=int, default=None,
                        help="standalone: the player's choice of moves (default: the board's "
                             "own, whose first moves relay, capture and make an Uur)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--uf2", type=Path, default=None, metavar="FILE.uf2",
                        help="run a MicroPython with firmware/manifest.py frozen in "
                             "(firmware/tools/build_uf2.py) instead of the kit's, nothing "
                             "copied onto it (the JSON beside it must name this checkout's "
                             "sources)")
    args = parser.parse_args(argv)
    boards = STANDALONE if args.mode == "standalone" else VARIANT
    for name in args.board or []:
        if name not in boards:
            parser.error("--board %s is a %s board: it needs --mode %s" % (
                name, "standalone" if name in STANDALONE else "bridge",
                "standalone" if name in STANDALONE else "bridge"))
    if args.mode == "standalone" and args.seconds is not None:
        parser.error("--seconds is the bridge's run; a standalone game runs to its end "
                     "(--moves stops it sooner)")
    if args.mode == "bridge" and (args.moves is not None or args.seed is not None):
        parser.error("--moves and --seed are for --mode standalone")
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    if args.moves is not None and args.moves < 0:
        parser.error("--moves must be 0 (the whole game) or more")
    emulated = _emulated()
    kit, firmware = None, {"uf2": "the kit's firmware.uf2, the modules copied as .mpy files"}
    if args.uf2 is not None:
        folder = tempfile.TemporaryDirectory(prefix="layli-frozen-kit-")  # gone at the end
        kit, firmware = frozen_kit(args.uf2, os.environ.get(emulated.KIT_VARIABLE),
                                   Path(folder.name))
        if kit is None:
            print("cannot run: %s" % firmware["error"], file=sys.stderr)
            return 2
    reason = emulated.unavailable_reason(kit)
    if reason is not None:
        print("cannot run: %s" % reason, file=sys.stderr)
        return 2
    frozen = kit is not None
    results = []
    if args.mode == "standalone":
        names = args.board or ["pico-standalone-2x6", "pico-standalone-2x12"]
    else:
        names = args.board or ["pico-bridge-2x6", "pico-bridge-2x12"]
    failed = 0
    for name in names:
        started = time.monotonic()
        if args.mode == "standalone":
            try:
                result = standalone(emulated, name, MOVES if args.moves is None else args.moves,
                                    SEEDS[name] if args.seed is None else args.seed,
                                    kit=kit, frozen=frozen)
            except emulated.EmulatorError as error:     # the next board may still run
                print("%s: %s" % (name, error), file=sys.stderr, flush=True)
                failed += 1
                continue
        else:
            result = bridge(emulated, name, 10.0 if args.seconds is None else args.seconds,
                            kit=kit, frozen=frozen)
        result["wall_s"] = time.monotonic() - started
        result["firmware"] = firmware
        results.append(result)
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(standalone_report(result) if args.mode == "standalone" else report(result),
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
