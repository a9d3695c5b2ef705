"""`layli bench guide`: what one sensor frame costs the board's controller, on CPython and
MicroPython (host-only).

A whole game is played on the simulated board (noisy, drifting load cells, players following
the LEDs) and every raw frame is recorded. The recording is then replayed through the portable
core alone — `CountingSensor.feed` for every frame, and `Guide.update` whenever a count, a
settled flag or a fault changed, as the controller does — on CPython and inside MicroPython, and
the time per frame is reported (medians of several replays). At a frame per HX711 conversion a Pico
has about 10.7 ms per frame for everything; this says how much of it sensing and guiding take.
"""

from __future__ import annotations

import argparse
import json
import statistics

from controller import micropython
from controller.commands.common import ranged
from controller.errors import UsageError
from controller.rules import VARIANTS

# One piece of source for both runtimes: CPython execs it, MicroPython runs it as its script.
KERNEL = r'''
try:
    from time import ticks_us, ticks_diff

    def clock():
        return ticks_us()

    def micros(start):
        return ticks_diff(ticks_us(), start)
except ImportError:
    from time import perf_counter

    def clock():
        return perf_counter()

    def micros(start):
        return (perf_counter() - start) * 1e6

from controller.rules import Game
from controller.guide import Guide
from controller.sensing import Calibration, CountingSensor


def replay(variant, calibration, frames):
    """(microseconds for all frames, microseconds inside Guide.update, guide updates)."""
    sensor = CountingSensor(Calibration(calibration[0], calibration[1], calibration[2],
                                        calibration[3]))
    guide = Guide(Game(variant))
    counts = sensor.counts
    settled = sensor.settled
    faults = sensor.faults
    in_guide = 0
    updates = 0
    start = clock()
    for frame in frames:
        if sensor.feed(frame[0], frame[1]):
            began = clock()
            guide.update([0 if c is None else c for c in counts], settled, faults)
            in_guide += micros(began)
            updates += 1
    return micros(start), in_guide, updates
'''

MICROPYTHON_DRIVER = r'''
import json, gc
data = json.loads(open("/app/guide-frames.json").read())   # run() puts files under /app
result = []
for run in range(%(runs)d):
    gc.collect()
    result.append(replay(data[0], data[1], data[2]))
print("@@bench", json.dumps(result))
'''


def record(variant: str, seed: int) -> tuple[list, list]:
    """A simulated game's calibration and raw frames."""
    from simulator.run import play_game

    recording: dict = {}
    result = play_game(variant, seed, 0.05, "counting", recording=recording)
    if not result.completed:
        raise UsageError("the recorded game did not finish")
    cal = recording["calibration"]
    return [cal.tare, cal.per_seed, cal.spread, cal.noise], recording["frames"]


def summarise(runs: list, frames: int) -> dict:
    total = statistics.median(run[0] for run in runs)
    guide = statistics.median(run[1] for run in runs)
    updates = runs[0][2]
    return {"frames": frames, "guide_updates": updates,
            "us_per_frame": round(total / frames, 2),
            "us_per_guide_update": round(guide / max(updates, 1), 1)}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="layli-goobalay", choices=sorted(VARIANTS),
                        metavar="V")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=ranged(int, 1, 100), default=5,
                        help="replays per runtime (median)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    calibration, frames = record(args.variant, args.seed)
    namespace: dict = {"__name__": "controller.commands.bench_guide.kernel"}
    exec(compile(KERNEL, "<guide bench kernel>", "exec"), namespace)
    cpython = [namespace["replay"](args.variant, calibration, frames) for _ in range(args.runs)]
    data = json.dumps([args.variant, calibration, [[t, raw] for t, raw in frames]])
    script = KERNEL + MICROPYTHON_DRIVER % {"runs": max(1, (args.runs + 1) // 2)}
    result = micropython.run(script, files={"guide-frames.json": data})
    line = [text for text in result.stdout.splitlines() if text.startswith("@@bench ")]
    if result.returncode != 0 or not line:
        raise UsageError("the guide benchmark failed under MicroPython: %s" % (
            (result.stderr.strip().splitlines() or ["no output"])[-1]))
    micro = json.loads(line[0][len("@@bench "):])
    report = {"variant": args.variant, "sim_seconds": round(frames[-1][0] / 1000, 1),
              "cpython": summarise(cpython, len(frames)),
              "micropython": summarise(micro, len(frames))}
    if args.json:
        print(json.dumps(report))
        return 0
    print("%s: %d frames (%.0f s of play at 80 frames/s), %d guide updates" % (
        args.variant, len(frames), report["sim_seconds"], report["cpython"]["guide_updates"]))
    for runtime in ("cpython", "micropython"):
        figures = report[runtime]
        print("  %-12s %8.1f us per frame (sensing and guide), %8.1f us per guide update" % (
            runtime, figures["us_per_frame"], figures["us_per_guide_update"]))
    return 0
