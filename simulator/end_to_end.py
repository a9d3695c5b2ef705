"""A whole game through the wire protocol: the host controller against the Pico firmware's
bridge over a pty, with the simulated board behind the firmware's fake load cells (host-only).

    python -m simulator.end_to_end [--corrupt 0.01] [--pull] [--seed 1] [--moves N] [--json]

The firmware runs in its own process (firmware/tests/e2e_device.py: the real bridge, device
and protocol code, on fake `machine`/`rp2` modules whose HX711s emulate the PIO program) and
holds the pty's device end behind a symlink, as a Pico's /dev/serial/by-id/ name. This process
runs the simulated board (seeds, load cells with noise and drift), the players who follow the
LEDs the Pico shows (the guide frame it draws), and the real host: `controller.board.runner.Runner` over `controller.drivers.pico.PicoBridge`
over `SerialLink`. One simulated clock drives both: each turn the load cells' reading goes to
the device with the time to run it to; the device's bridge streams Sensors frames over the pty;
the host's runner reads them, guides, and sends the LED strip back.

`--corrupt RATE` flips a bit in that share of the bytes each way; `--pull` pulls the cable in
the middle of a move (the pty and its name go for half a second) and puts it back; `--moves N`
stops after N moves (the default, 0, plays the game to its end).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controller.drivers.pico import PicoBridge
from controller.drivers.serial_link import SerialLink
from controller.guide import AWAIT, OVER, SOWING
from controller.guide.frame import Frame
from controller.hardware.firmware import firmware_config
from controller.hardware.profile import load
from controller.rules import Game
from controller.rules.record import write_game
from controller.board.runner import Runner
from controller.session import MemoryStorage, Session
from simulator.board import PhysicalBoard
from simulator.clock import SimClock
from simulator.players import LedPlayer
from simulator.run import GAME_LIMIT_MS, Hands
from simulator.sensors import LoadCells

DEVICE = Path(__file__).resolve().parent.parent / "firmware" / "tests" / "e2e_device.py"
TURN_MS = 10                # the loop's turn: the device runs this long between readings
PULL_MS = 500               # how long the cable stays out


class Pico:
    """The device process (see the module)."""

    def __init__(self, link: str, config: str, corrupt: float, seed: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(DEVICE), link, config, "--corrupt", str(corrupt),
             "--seed", str(seed)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the device process did not start")

    def ask(self, line: str) -> str:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)


class PlayersAtTheBoard:
    """The host's board IO: the Pico's, with the players looking at what its LEDs show."""

    def __init__(self, bridge: PicoBridge, pico: Pico, hands: Hands) -> None:
        self.bridge, self.pico, self.hands = bridge, pico, hands
        self.dark = None
        self.players_at_work = True     # False: they step back (the board settles)

    def read(self):
        return self.bridge.read()

    def show(self, frame, pixels) -> None:
        self.bridge.show(frame, pixels)
        shown = self.pico.ask("F")
        if not self.players_at_work:
            return
        if shown == "-":                        # nothing arrived yet: the LEDs are dark
            self.dark = self.dark or Frame(len(frame.places))
            self.hands.turn(self.dark)
        else:
            self.hands.turn(Frame.decode(bytes.fromhex(shown)))

    def beep(self, name: str) -> None:
        self.bridge.beep(name)

    def close(self) -> None:
        self.bridge.close()


def play(seed: int = 1, corrupt: float = 0.0, pull: bool = False,
         variant: str = "layli-goobalay", moves: int = 0, pull_in_move: int = 5) -> dict:
    """One game end to end (its first `moves` moves, or all of it when 0); what happened,
    as a dict. With `pull`, the cable is pulled in move `pull_in_move`, three seeds into its
    sowing."""
    start = time.perf_counter()
    profile = load("pico-bridge-2x6")
    rng = random.Random(seed)
    clock = SimClock()
    game = Game(variant)
    board = PhysicalBoard(game.rules.n, game.setup, rng, clock=clock)
    cells = LoadCells(board, clock, rng)
    calibration = cells.calibration()
    folder = tempfile.mkdtemp(prefix="layli-e2e-")
    link = os.path.join(folder, "ttyACM-pico")
    config = os.path.join(folder, "config.json")
    with open(config, "w", encoding="utf-8") as file:
        json.dump(firmware_config(profile, variant), file)
    pico = Pico(link, config, corrupt, seed)
    values = cells.sample()
    pico.ask("T 0 " + " ".join(map(str, values)))
    bridge = PicoBridge(link, profile.name, profile.places, now_ms=lambda: clock.now_ms,
                        serial=SerialLink(link, timeout=0, retry_s=0.005, max_retry_s=0.02))
    bridge.open()
    session = Session(MemoryStorage(), variant)
    hands = Hands(LedPlayer(game.rules.n, random.Random(seed * 31 + 17)), board,
                  lambda: session.confirm())
    players = PlayersAtTheBoard(bridge, pico, hands)
    runner = Runner(players, session, profile.led_layout(),
                    "counting", calibration, now_ms=lambda: clock.now_ms,
                    max_count=sum(game.setup))
    pulled_at = None
    try:
        while session.guide.phase != OVER and clock.now_ms < GAME_LIMIT_MS and not (
                moves and len(session.game.moves) >= moves and session.guide.phase == AWAIT
                and board.idle and not board.hand):
            # the device's own HX711 models convert the signal: the simulator's converters'
            # inputs, not the words read from them (those would be converted twice)
            if list(cells.frames(clock.now_ms + TURN_MS)):
                values = cells.inputs()
            pico.ask("T %d %s" % (clock.now_ms, " ".join(map(str, values))))
            runner.step()
            guide = session.guide
            if pull and pulled_at is None and guide.phase == SOWING and guide.done >= 3 \
                    and len(session.game.moves) >= pull_in_move - 1:
                pico.ask("U")                               # out, in the middle of a move
                pulled_at = (clock.now_ms, len(session.game.moves), guide.done)
            elif pulled_at is not None and clock.now_ms == pulled_at[0] + PULL_MS:
                pico.ask("P")
        players.players_at_work = False
        for _ in range(100):                    # let the last seeds settle
            if list(cells.frames(clock.now_ms + TURN_MS)):
                values = cells.inputs()
            pico.ask("T %d %s" % (clock.now_ms, " ".join(map(str, values))))
            runner.step()
        device = json.loads(pico.ask("S"))
    finally:
        bridge.close()
        pico.close()
    final = session.guide.board.places()
    over = session.guide.phase == OVER
    return {
        "variant": variant, "seed": seed, "corrupt": corrupt,
        "completed": over if not moves else len(session.game.moves) >= moves,
        "over": over,
        "board_matches_engine": board.counts() == final and (
            not over or final[-2:] == session.game.scores),
        "moves": len(session.game.moves),
        "pulled": None if pulled_at is None else {"at_ms": pulled_at[0], "ply": pulled_at[1],
                                                   "step": pulled_at[2]},
        "connections": bridge.serial.connections,
        "bits_flipped": device["flipped"],
        "host_link": bridge.counters(),
        "device_link": device["link"],
        "leds_shown_on_the_pico": device["leds_shown"],
        "sim_seconds": round(clock.now_ms / 1000, 1),
        "wall_seconds": round(time.perf_counter() - start, 1),
        "record": write_game(session.game),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simulator.end_to_end",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corrupt", type=float, default=0.0, metavar="RATE")
    parser.add_argument("--pull", action="store_true")
    parser.add_argument("--moves", type=int, default=0,
                        help="moves to play (default 0: the whole game)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.moves < 0:
        parser.error("--moves must be 0 (the whole game) or more, not %d" % args.moves)
    if not 0 <= args.corrupt < 1:
        parser.error("--corrupt is a share of bytes, 0 to under 1, not %r" % args.corrupt)
    result = play(args.seed, args.corrupt, args.pull, moves=args.moves)
    result.pop("record")
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0 if result["completed"] and result["board_matches_engine"] else 1


if __name__ == "__main__":
    sys.exit(main())
