"""`layli calibrate`: weigh the load cells of a Pico board and keep the calibration (host-only).

    layli calibrate --profile pico-bridge-2x6 --port /dev/ttyACM0 --seeds 4 --singles 10

It walks a person through hardware/README.md's procedure on the board itself: the empty board
(tare and noise), the same N seeds on every place (one seed's weight per cell), then single seeds
one at a time on South's pit 1 (the seeds' mass spread, which says whether counting by weight
is reliable with these seeds). Each step waits for Enter, reads a second of frames and is
checked by `controller.sensing.Calibrator`; a step that fails says why and can be done again.
The result goes to STATE/calibration.json, where `layli run` reads it.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Callable

from controller.commands.run import DEFAULT_STATE, settings
from controller.errors import UsageError
from controller.sensing import SensingError
from controller.sensing.calibrator import Calibrator
from controller.sensing.calibration import SPREAD_GOOD
from controller.commands.common import ranged

FRAMES = 80                     # a second at 80 frames a second
WAIT_S = 5.0                    # for frames to come before the board is called silent


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", metavar="PROFILE", help="the board profile")
    parser.add_argument("--port", metavar="DEVICE", help="the Pico's serial device")
    parser.add_argument("--config", metavar="FILE", help="a TOML config file (as layli run)")
    parser.add_argument("--state", metavar="DIR",
                        help="where calibration.json goes (default %s)" % DEFAULT_STATE)
    parser.add_argument("--seeds", type=ranged(int, 1, 100), default=4, metavar="N",
                        help="seeds to put on every place at step 2 (default 4)")
    parser.add_argument("--singles", type=ranged(int, 0, 100), default=10, metavar="K",
                        help="single seeds to weigh one at a time at step 3 (default 10; 0: "
                             "skip, and assume a 2%% spread)")
    for name in ("variant", "log_level"):
        parser.set_defaults(**{name: None})
    parser.set_defaults(option=[])


def read_frames(io, count: int = FRAMES, wait_s: float = WAIT_S,
                clock: Callable[[], float] = time.monotonic) -> list[list[int]]:
    """`count` sensor frames from the board (a BoardIO), or UsageError after `wait_s` s of
    silence."""
    frames: list[list[int]] = []
    deadline = clock() + wait_s
    while len(frames) < count:
        got, _ = io.read()
        if got:
            deadline = clock() + wait_s
        frames.extend(values for _, values in got)
        if clock() > deadline:
            raise UsageError("no sensor frames from the board for %g s: is the Pico connected "
                             "and running the bridge firmware?" % wait_s)
    return frames[:count]


def calibrate(io, channels: int, seeds: int, singles: int, ask: Callable[[str], None],
              say: Callable[[str], None] = print):
    """The procedure on board `io`; returns the Calibration. `ask(text)` shows a step and
    returns when the person is ready (Enter); a refused step is asked again."""
    calibrator = Calibrator(channels)

    def step(text: str, work: Callable[[list[list[int]]], object]) -> object:
        while True:
            ask(text)
            try:
                return work(read_frames(io))
            except SensingError as error:
                say("  not taken: %s" % error)

    step("1. Empty every pit and store. Hands off the board, then press Enter.",
         calibrator.tare)
    say("  tare taken: noise %s raw" % ", ".join("%.0f" % n for n in calibrator.noise))
    step("2. Put %d seeds on every pit and both stores. Hands off, then press Enter." % seeds,
         lambda frames: calibrator.weigh(frames, seeds))
    say("  one seed weighs %s raw" % ", ".join("%.0f" % p for p in calibrator.per_seed))
    if singles:
        ask("3. Take every seed off South's pit 1 and keep %d seeds at hand; press Enter."
            % singles)
        weights = []
        for k in range(1, singles + 1):
            frames = step("   Seed %d of %d alone on South's pit 1, hands off, Enter (then "
                          "take it off)." % (k, singles), lambda frames: frames)
            column = sorted(frame[0] for frame in frames)
            weights.append(column[len(column) // 2])
        mean, spread = calibrator.singles(weights, 0)
        say("  the seeds: %.0f raw each, spread %.1f%%" % (mean, 100 * spread))
    else:
        calibrator.spread = SPREAD_GOOD
        say("  seeds not weighed one by one: assuming a %.0f%% spread" % (100 * SPREAD_GOOD))
    calibration = calibrator.calibration()
    for problem in calibration.problems():
        say("  warning: %s" % problem)
    return calibration


def run(args: argparse.Namespace) -> int:
    from controller.commands.run import open_board, sensing_of
    from controller.hardware.profile import load

    config = settings(args)
    profile = load(config["profile"])
    if sensing_of(profile) != "counting":
        raise UsageError("profile %s has digital pit sensors: there is nothing to weigh"
                         % profile.name)
    if profile.kind == "pico-standalone":
        raise UsageError("profile %s calibrates on the Pico itself (its buttons lead it; "
                         "firmware/calibrate.py)" % profile.name)
    state = Path(config["state"]).expanduser()
    state.mkdir(parents=True, exist_ok=True)
    io = open_board(profile, config)
    try:
        calibration = calibrate(io, profile.places, args.seeds, args.singles,
                                lambda text: input(text + " "))
    finally:
        io.close()
    path = state / "calibration.json"
    temporary = path.with_name(path.name + ".new")
    temporary.write_text(calibration.to_json(), encoding="utf-8")
    os.replace(temporary, path)
    print("calibration kept in %s" % path)
    return 0
