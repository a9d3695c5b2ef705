"""How long `layli` takes to start: a command's wall time from a fresh interpreter, against
`python -c pass` measured in the same run (this machine is shared and noisy: the medians of
interleaved runs, and the reference beside them).

    python benchmarks/startup.py              # 15 runs each, a table
    python benchmarks/startup.py --runs 31 --json

Each command runs as `python -m controller ...`, as the `layli` entry point does; "over
python" is the command's median less the bare interpreter's, what the project's own imports
and work cost. The target (issue 15): `layli --help` and `layli rules variants` at most 0.2 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "layli --help": [sys.executable, "-m", "controller", "--help"],
    "layli rules variants": [sys.executable, "-m", "controller", "rules", "variants"],
    "layli hardware list": [sys.executable, "-m", "controller", "hardware", "list"],
}
REFERENCE = "python -c pass"


def measure(runs: int) -> dict[str, list[float]]:
    """Every command's wall times (s), the commands taken in turn `runs` times over."""
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, command in COMMANDS.items():
            began = time.perf_counter()
            done = subprocess.run(command, capture_output=True, timeout=120)
            took = time.perf_counter() - began
            if done.returncode != 0:
                raise SystemExit("%s failed (exit status %d): %s" % (
                    name, done.returncode, done.stderr.decode(errors="replace")[-500:]))
            times[name].append(took)
    return times


def summary(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    """Each command's median (s) and its median over the reference's."""
    reference = statistics.median(times[REFERENCE])
    out = {}
    for name, took in times.items():
        median = statistics.median(took)
        out[name] = {"median_s": round(median, 4), "over_python_s": round(median - reference, 4),
                     "runs": len(took)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (15)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    result = summary(measure(args.runs))
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print("%-22s %10s %12s" % ("command", "median s", "over python"))
    for name, figures in result.items():
        print("%-22s %10.3f %12.3f" % (name, figures["median_s"], figures["over_python_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
