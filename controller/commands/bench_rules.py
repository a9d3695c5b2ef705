"""`layli bench rules`: how fast the rules engine plays, on CPython and MicroPython (host-only).

A random playout plays uniformly random legal moves from the start to the end of a game with
`Game.play_random` (`random_move` then the move). The moves are drawn with `Random30` (the
engine's own generator), not `random`, so both runtimes play the same games. The playouts and the timing loop
(KERNEL) are one piece of source that CPython runs with exec and MicroPython runs as its script.
Each figure is the median of several rounds of about `--seconds` each, after a short warm-up,
every round timing every playout once; MicroPython, much slower, gets about half as many. In the same run the plain hand-written
loop of benchmarks/plain_layli.py is timed as a reference, so the comparison holds on a noisy
machine.

The heap figure is what one game in progress holds under MicroPython: the most `gc.mem_alloc()`
grows, after a collection, from before the game is created to any point of a random game
(the largest over a few games). The target is under 8 KB: a Pico has about 190 KB of heap.

MicroPython's WebAssembly port collects garbage only when Python hands control back to JS:
`gc.collect()` in running code only schedules a collection, and the heap grows instead. So under
MicroPython the timing loop awaits between playouts, which lets the garbage of the playouts be
collected (its cost counted, as on a Pico, and the heap kept small), and the heap measurement
awaits `runner.settle()` after each `gc.collect()`. On CPython `pause` does nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from controller import micropython
from controller.errors import UsageError
from controller.rules import VARIANTS
from controller.commands.common import ranged

REFERENCE = "plain_layli_reference"
REFERENCE_FILE = Path(__file__).resolve().parents[2] / "benchmarks" / "plain_layli.py"
HEAP_GAMES = 5              # games whose largest heap is reported
HEAP_TARGET = 8 * 1024

# Runs on CPython (exec, synchronously) and under MicroPython (its script, where the awaits hand
# control back to JS). Only the MicroPython subset.
KERNEL = r'''
import gc
try:
    from time import ticks_ms, ticks_diff       # MicroPython: no perf_counter
    import js
    import runner                               # controller/micropython/runner.mjs

    def clock():
        return ticks_ms()

    def seconds_since(start):
        return ticks_diff(ticks_ms(), start) / 1000

    async def pause(collect=False):
        """Hand control back to JS: the only moment this port collects garbage. With
        `collect`, also let node finalize what MicroPython lent it, so that gc.mem_alloc() is
        the live heap to the byte."""
        if collect:
            gc.collect()
            await runner.settle()
        else:
            await js.Promise.resolve(None)
except ImportError:
    from time import perf_counter as clock

    def seconds_since(start):
        return clock() - start

    async def pause(collect=False):
        """CPython frees garbage as it goes: nothing to wait for."""

from controller.rules import Game, Rules
from controller.rules.rng import Random30

WARM_UP = 0.2       # seconds of untimed playouts first (node compiles the wasm in tiers)
PAUSE_EVERY = 0.05  # seconds between yields to node, which is when the port frees garbage


def engine_playout(rules):
    """A function that plays one random game of `rules` and returns its number of moves."""
    def playout(rng):
        game = Game(rules)
        while game.play_random(rng):
            pass
        return game.ply
    return playout


def plain_playout(module):
    """The same with benchmarks/plain_layli.py's hand-written loop."""
    def playout(rng):
        return module.playout(rng)[0]
    return playout


async def rate(playout, seconds, seed):
    """[playouts/s, moves/s] of `playout` played over and over for about `seconds`."""
    rng = Random30(seed)
    playouts = 0
    moves = 0
    start = clock()
    paused = 0.0
    while True:
        moves += playout(rng)
        playouts += 1
        elapsed = seconds_since(start)
        if elapsed >= seconds:
            return [playouts / elapsed, moves / elapsed]
        if elapsed - paused >= PAUSE_EVERY:     # let MicroPython's port collect garbage
            await pause()
            paused = elapsed


async def measure(playouts, runs, seconds):
    """{name: [[playouts/s, moves/s] per run]} for the (name, playout) pairs: a warm-up, then
    `runs` rounds with the seeds 1..runs (the same games on every runtime), each round timing
    every playout once, so that a slower or faster spell of a shared machine falls on all."""
    results = {}
    for name, playout in playouts:
        await rate(playout, min(seconds, WARM_UP), 0)
        results[name] = []
    for seed in range(1, runs + 1):
        for name, playout in playouts:
            results[name].append(await rate(playout, seconds, seed))
    return results


async def heap_peak(variant, seed):
    """The most heap one game of `variant` holds, after a collection, at any point of a random
    game (MicroPython only: CPython has no gc.mem_alloc)."""
    rng = Random30(seed)
    await pause(True)
    base = gc.mem_alloc()
    game = Game(variant)
    peak = 0
    while True:
        await pause(True)
        held = gc.mem_alloc() - base
        if held > peak:
            peak = held
        move = game.random_move(rng)
        if move is None:
            break
        game.push(move)
    return peak
'''

# Appended to KERNEL under MicroPython, which runs it with top-level await: every measurement,
# then one JSON line.
MICROPYTHON_DRIVER = r'''
import json, sys
import plain_layli

variants, runs, seconds, heap_games = json.loads(%(params)r)
result = {"version": ".".join([str(part) for part in sys.implementation.version[:3]])}
playouts = [(variant, engine_playout(Rules(variant))) for variant in variants]
playouts.append((%(reference)r, plain_playout(plain_layli)))
timed = await measure(playouts, runs, seconds)
for name in timed:
    result[name] = {"runs": timed[name]}
for variant in variants:
    heaps = []
    for seed in range(1, heap_games + 1):
        heaps.append(await heap_peak(variant, seed))
    result[variant]["heap"] = max(heaps)
print("@@bench", json.dumps(result))
'''


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=ranged(int, 1, 1000), default=5, metavar="N",
                        help="CPython runs per figure, the median is reported (default 5; "
                             "MicroPython does about half as many)")
    parser.add_argument("--seconds", type=ranged(float, 0, 3600, low_open=True), default=1.0,
                        metavar="S",
                        help="length of one run in seconds (default 1)")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS), metavar="V",
                        help="a variant to measure (repeatable; default all: %s)" % ", ".join(
                            sorted(VARIANTS)))


def _medians(runs: list[list[float]]) -> dict[str, float]:
    return {"playouts_per_s": round(statistics.median(run[0] for run in runs), 2),
            "moves_per_s": round(statistics.median(run[1] for run in runs), 1)}


def _load_kernel() -> dict:
    namespace: dict = {"__name__": "controller.commands.bench_rules.kernel"}
    exec(compile(KERNEL, "<bench kernel>", "exec"), namespace)
    return namespace


def _load_reference():
    """benchmarks/plain_layli.py as a module (it is not part of the installed package)."""
    import importlib.util

    if not REFERENCE_FILE.is_file():
        raise UsageError("the reference loop this benchmark times beside the engine, "
                         "benchmarks/plain_layli.py, comes with the project's source, not with "
                         "an installed layli: in a checkout, `pip install -e .` and run `layli "
                         "bench rules` there")
    spec = importlib.util.spec_from_file_location("plain_layli", REFERENCE_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _finish(coroutine):
    """Run a KERNEL coroutine that never awaits anything on CPython (its pause does nothing)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("the bench kernel waited for something on CPython")


def measure_cpython(variants: list[str], runs: int, seconds: float) -> dict[str, list]:
    """{variant or REFERENCE: [[playouts/s, moves/s] per run]} on this CPython."""
    kernel = _load_kernel()
    playouts = [(variant, kernel["engine_playout"](kernel["Rules"](variant)))
                for variant in variants]
    playouts.append((REFERENCE, kernel["plain_playout"](_load_reference())))
    return _finish(kernel["measure"](playouts, runs, seconds))


def measure_micropython(variants: list[str], runs: int, seconds: float) -> dict:
    """The same under MicroPython, plus the heap of one game: one run of node."""
    script = KERNEL + MICROPYTHON_DRIVER % {
        "params": json.dumps([variants, runs, seconds, HEAP_GAMES]), "reference": REFERENCE}
    result = micropython.run(script, files={"plain_layli.py": REFERENCE_FILE.read_bytes()})
    for line in result.stdout.splitlines():
        if result.returncode == 0 and line.startswith("@@bench "):
            return json.loads(line[len("@@bench "):])
    sys.stderr.write(result.stderr)
    last = (result.stderr.strip().splitlines() or ["no output"])[-1]
    raise UsageError("the benchmark failed under MicroPython (exit %d): %s" % (
        result.returncode, last))


def run(args: argparse.Namespace) -> int:
    variants = list(dict.fromkeys(args.variant or sorted(VARIANTS)))
    _load_reference()                       # fail early, before a minute of measuring
    micropython.find_node()
    micropython.find_package()
    micro_runs = max(1, (args.runs + 1) // 2)
    cpython = measure_cpython(variants, args.runs, args.seconds)
    micro = measure_micropython(variants, micro_runs, args.seconds)
    report: dict[str, dict] = {}
    for name in variants + [REFERENCE]:
        report[name] = {"cpython": _medians(cpython[name]),
                        "micropython": _medians(micro[name]["runs"])}
        if name != REFERENCE:
            report[name]["heap_bytes"] = micro[name]["heap"]
    if args.json:
        print(json.dumps(report))
        return 0
    print("Random playouts from the start to the end of a game; medians of %d run(s) of %g s "
          "on CPython %s and %d run(s) under MicroPython %s (node)." % (
              args.runs, args.seconds, ".".join(map(str, sys.version_info[:3])), micro_runs,
              micro["version"]))
    print()
    print("%-22s %14s %12s %14s %12s %10s" % ("", "CPython", "", "MicroPython", "", "heap per"))
    print("%-22s %14s %12s %14s %12s %10s" % ("variant", "playouts/s", "moves/s",
                                              "playouts/s", "moves/s", "game"))
    for name, figures in report.items():
        heap = figures.get("heap_bytes")
        print("%-22s %14.1f %12.0f %14.2f %12.0f %10s" % (
            name, figures["cpython"]["playouts_per_s"], figures["cpython"]["moves_per_s"],
            figures["micropython"]["playouts_per_s"], figures["micropython"]["moves_per_s"],
            "-" if heap is None else "%d B" % heap))
    over = [name for name in variants if report[name]["heap_bytes"] >= HEAP_TARGET]
    print()
    print("heap per game: %s" % (
        "every variant under the %d B target" % HEAP_TARGET if not over else
        "OVER the %d B target: %s" % (HEAP_TARGET, ", ".join(over))))
    return 0
