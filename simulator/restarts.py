"""Games on the simulated board whose controller is killed (SIGKILL) and restarted mid-game
(host-only).

The board and the players live here; the controller is a separate process
(`simulator.controller_proc`) fed the load cells' frames, as on a Pi. At random frames the
controller is killed without warning — sometimes while it is still working on a frame — and a
new one is started that resumes from the journal. The seeds stay where the players put them.
A game counts as resumed right when it ends with the same record as the same game played
without a kill.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass

from controller.guide.events import GAME_OVER, SKIP_OFFERED
from controller.guide.frame import Frame, OFF, DARK
from controller.rules import Game
from simulator.board import PhysicalBoard
from simulator.clock import SimClock
from simulator.controller_proc import MISSING, parse_frame
from simulator.players import LedPlayer
from simulator.run import STEP_MS, Hands
from simulator.sensors import LoadCells

GAME_LIMIT_MS = 3 * 3600 * 1000


@dataclass
class RestartResult:
    record: str
    restarts: int
    sim_ms: int


class _Controller:
    """The controller process, restarted on demand."""

    def __init__(self, journal: str, variant: str, calibration: str) -> None:
        self.args = [sys.executable, "-m", "simulator.controller_proc", "--journal", journal,
                     "--variant", variant, "--calibration", calibration]
        self.process = self._start(resume=False)

    def _start(self, resume: bool) -> subprocess.Popen:
        return subprocess.Popen(self.args + (["--resume"] if resume else []),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                bufsize=1)

    def send(self, line: str) -> str:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline()
        if not reply:
            raise RuntimeError("the controller died unasked")
        return reply.rstrip("\n")

    def kill(self, mid_frame: str | None = None) -> None:
        """SIGKILL, optionally right after handing it a frame (it may be writing its journal)."""
        if mid_frame is not None:
            self.process.stdin.write(mid_frame + "\n")
            self.process.stdin.flush()
        self.process.kill()
        self.process.wait()
        self.process = self._start(resume=True)

    def record(self) -> str:
        text = self.send("R")
        self.process.wait()
        return json.loads(text)


def play_with_restarts(variant: str, seed: int, kills: int, workdir: str,
                       mistakes: float = 0.0) -> RestartResult:
    """One game with `kills` controller kills at random frames (0: the reference game)."""
    rng = random.Random(seed)
    kill_rng = random.Random(seed * 7919 + kills)     # kills never change the game's draws
    clock = SimClock()
    game = Game(variant)
    board = PhysicalBoard(game.rules.n, game.setup, rng, clock=clock)
    cells = LoadCells(board, clock, rng)
    calibration = cells.calibration()
    journal = os.path.join(workdir, "journal-%d-%d" % (seed, kills))
    for stale in (journal, journal + ".calibration"):
        if os.path.exists(stale):
            os.remove(stale)
    controller = _Controller(journal, variant, calibration.to_json())
    # the players' own generator: how many noise samples the sensors drew (which a restart
    # shifts by a frame or two) must not change what the players choose
    player = LedPlayer(game.rules.n, random.Random(seed * 31 + 17), mistakes)
    frame = Frame(board.place_count)
    frame.set(0, OFF, DARK)
    kill_chance = kills / 12000.0           # a game lasts 10,000 to 40,000 frames
    restarts = 0
    over = False
    hands = Hands(player, board)
    try:
        while not over and clock.now_ms < GAME_LIMIT_MS:
            for sample in cells.frames(clock.now_ms + STEP_MS):
                line = "F %d %s" % (sample.time_ms, " ".join(
                    MISSING if value is None else str(value) for value in sample.values))
                if restarts < kills and kill_rng.random() < kill_chance:
                    controller.kill(mid_frame=line if kill_rng.random() < 0.5 else None)
                    restarts += 1
                    continue
                reply = controller.send(line)
                if reply == "=":
                    continue
                text, events = reply.split(" ", 1)
                frame = parse_frame(text)
                for event in json.loads(events):
                    if event[0] == SKIP_OFFERED:
                        frame = parse_frame(controller.send("S").split(" ", 1)[0])
                    elif event[0] == GAME_OVER:
                        over = True
            if not over:
                hands.turn(frame)
        return RestartResult(controller.record(), restarts, clock.now_ms)
    finally:
        if controller.process.poll() is None:
            controller.process.kill()
            controller.process.wait()


def main(argv: list[str] | None = None) -> int:
    """`python -m simulator.restarts --games 50 --kills 3 [--mistakes 0.05]`: the resume
    figures of the README."""
    import argparse
    import tempfile
    import time

    parser = argparse.ArgumentParser(prog="python -m simulator.restarts")
    parser.add_argument("--variant", default="layli-goobalay")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mistakes", type=float, default=0.0,
                        help="the players' mistake rate (e.g. 0.05)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    same = restarted = killed_games = 0
    with tempfile.TemporaryDirectory() as workdir:
        for k in range(args.games):
            reference = play_with_restarts(args.variant, args.seed + k, 0, workdir,
                                           args.mistakes)
            killed = play_with_restarts(args.variant, args.seed + k, args.kills, workdir,
                                        args.mistakes)
            restarted += killed.restarts
            killed_games += killed.restarts > 0
            same += killed.record == reference.record and "[Result \"*\"]" not in killed.record
    print(json.dumps({"games": args.games, "games_killed": killed_games, "kills": restarted,
                      "same_record": same,
                      "wall_seconds": round(time.perf_counter() - start, 1)}))
    return 0 if same == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
