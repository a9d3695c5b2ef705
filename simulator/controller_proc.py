"""The board's controller as a process of its own, fed raw sensor frames on stdin (host-only).

    python -m simulator.controller_proc --journal PATH --variant V --calibration JSON [--resume]

This is the controller side of the simulated board when it must live apart from the board:
to kill it (SIGKILL) in the middle of a game and start it again, as a power cut would, while
the seeds stay where the players left them. It runs the portable core only — sensing, the
session with its journal in a file synced after every step, the guide — exactly as a
controller on a Pi does, through the same board loop (`controller.session.loop.BoardLoop`).

Protocol, one line each way:
- in ``F <t_ms> <raw> <raw> ...``: a load-cell frame, ``-`` for a reading that is missing
  (the converter's reading was not trusted); out: ``=`` when the LEDs did not change
  and nothing happened, else ``<colour>:<pattern>,... <events as JSON>``;
- in ``S``: the CONFIRM button (the players accept the offer to skip ahead); out: the
  same kind of line;
- in ``R``: out: the game record as one JSON string, then the process ends.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from controller.guide.events import MISTAKE, TO_SET
from controller.guide.frame import Frame
from controller.rules.record import write_game
from controller.sensing import Calibration, CountingSensor
from controller.session import FileStorage, Session
from controller.session.loop import BoardLoop


MISSING = "-"               # in an F line: a channel with no reading this frame


def parse_readings(words: list[str]) -> list[int | None]:
    """An F line's readings: signed ints, None for MISSING."""
    return [None if word == MISSING else int(word) for word in words]


def frame_text(frame: Frame) -> str:
    return ",".join("%s:%s" % place for place in frame.places)


def parse_frame(text: str) -> Frame:
    places = text.split(",")
    frame = Frame(len(places))
    for k, place in enumerate(places):
        colour, pattern = place.split(":")
        frame.set(k, colour, pattern)
    return frame


def _save(path: str, text: str) -> None:
    """Write `text` so that a kill leaves either the old file or the new one, never half."""
    with open(path + ".new", "w") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(path + ".new", path)


def _load(path: str) -> str | None:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="controller_proc")
    parser.add_argument("--journal", required=True)
    parser.add_argument("--variant", default="layli-goobalay")
    parser.add_argument("--calibration", required=True, help="Calibration.to_json() text")
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args(argv)
    storage = FileStorage(args.journal)
    saved = args.journal + ".calibration"
    if args.resume:
        session = Session.resume(storage)
        calibration = _load(saved) or args.calibration
    else:
        session = Session(storage, args.variant)
        calibration = args.calibration
        _save(saved, calibration)       # a new game: no zero saved by an earlier one counts
    sensor = CountingSensor(Calibration.from_json(calibration))
    loop = BoardLoop(session, sensor)       # the board's loop, as every board drives it
    shown = None
    out = sys.stdout
    for line in sys.stdin:
        kind = line[:1]
        if kind == "F":
            words = line[2:].split()
            loop.feed(int(words[0]), parse_readings(words[1:]))
        elif kind == "S":
            loop.confirm()              # the players take the offer to skip ahead
        elif kind == "R":
            out.write(json.dumps(write_game(session.game)) + "\n")
            out.flush()
            return 0
        events = [[event[0]] if event[0] in (MISTAKE, TO_SET) else list(event[:2])
                  for event in loop.react()]
        if loop.calibration_due:
            loop.calibration_due = False
            _save(saved, sensor.calibration_now().to_json())    # today's zero, each move
        text = frame_text(session.guide.frame)
        if text == shown and not events:
            out.write("=\n")
        else:
            out.write("%s %s\n" % (text, json.dumps(events)))
            shown = text
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
