"""Why the searcher scores about 70%, not 75%, against OpenSpiel's MCTS: the games as North.

Layli Goobalay favours the first mover. In `layli bench ai` the searcher wins nearly every game
as South, so its score against MCTS is decided by the games it plays as North, against MCTS as
South. This script plays only those games, to show what decides them:

- the searcher (its strongest level, `--seconds` a move) or, with `--north mcts`, OpenSpiel's
  MCTS itself plays North; MCTS at `--south-seconds` (default 0.1 s) plays South;
- `--opening 2,6` plays those moves first, for both sides, to measure one line of the opening;
- it prints North's wins, draws and losses, the score rate (wins plus half the draws) with its
  95% Wilson interval, and the score by the game's first three moves (South's first, North's
  reply, South's second: where MCTS decides most games).

Each game has its own seeds (`--seed` + the game's number); `--jobs` plays games in parallel,
one process each (keep it at or below the free cores: the time budgets are real).

    python benchmarks/north_vs_mcts.py --games 200 --jobs 2
    python benchmarks/north_vs_mcts.py --games 80 --opening 2,5 --jobs 2
    python benchmarks/north_vs_mcts.py --games 40 --north mcts --seconds 1.0 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections import defaultdict

from controller.opponents.openspiel import OpenSpielMcts
from controller.commands.bench_ai import play_game, strongest, wilson_interval
from controller.commands.common import ranged
from controller.opponents.players import Player
from controller.rules import Game, NORTH, RulesError

VARIANT = "layli-goobalay"
LINE_PLIES = 3          # South's first move, North's reply, South's second: MCTS's choices


class Opening:
    """Plays `moves` while the game is in them (for either side), then leaves it to `player`."""

    def __init__(self, moves: list[int], player: Player) -> None:
        self.moves = moves
        self.player = player

    def choose(self, game: Game) -> int:
        if game.ply < len(self.moves):
            return self.moves[game.ply]
        return self.player.choose(game)


def north_player(kind: str, seconds: float, seed: int) -> Player:
    """North: the searcher at its strongest level, or MCTS, at `seconds` a move."""
    if kind == "mcts":
        return OpenSpielMcts(seconds_per_move=seconds, seed=seed)
    return strongest(seconds)(seed)


def play_one(job: tuple[str, float, float, list[int], int]) -> tuple[list[int], float]:
    """One game: (its first moves, North's score: 1, 0.5 or 0)."""
    kind, seconds, south_seconds, opening, seed = job
    south = OpenSpielMcts(seconds_per_move=south_seconds, seed=seed + 100000)
    players = (Opening(opening, south), Opening(opening, north_player(kind, seconds, seed)))
    game = play_game(VARIANT, players, ("MCTS", "North's " + kind), [0.0, 0.0], [0, 0])
    winner = game.winner()
    return list(game.moves[:LINE_PLIES]), 0.5 if winner is None else float(winner == NORTH)


def summary(results: list[tuple[list[int], float]]) -> dict:
    """North's counts, score, interval and the score by the opening's first three moves."""
    points = [score for _, score in results]
    games = len(points)
    total = sum(points)
    low, high = wilson_interval(total, games)
    lines: dict[str, list[float]] = defaultdict(list)
    for moves, score in results:
        lines[",".join(map(str, moves))].append(score)
    return {"games": games, "wins": points.count(1.0), "draws": points.count(0.5),
            "losses": points.count(0.0), "score": round(total / games, 4),
            "interval": [round(low, 4), round(high, 4)],
            "lines": {line: {"games": len(scores), "score": round(sum(scores) / len(scores), 4)}
                      for line, scores in sorted(lines.items())}}


def opening_moves(text: str) -> list[int]:
    """An argparse type: the moves from the start, comma-separated, legal and not ending the
    game."""
    if not text:
        return []
    try:
        moves = [int(move) for move in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            "moves are pit numbers separated by commas, not %r" % text) from None
    game = Game(VARIANT)
    try:
        game.replay(moves)
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if game.over:
        raise argparse.ArgumentTypeError("the game is over after %s" % text)
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=ranged(int, 1, 100000), default=100)
    parser.add_argument("--north", choices=("searcher", "mcts"), default="searcher",
                        help="who plays North (default the searcher)")
    parser.add_argument("--seconds", type=ranged(float, 0.001, 60), default=0.1,
                        help="North's seconds per move (default 0.1)")
    parser.add_argument("--south-seconds", type=ranged(float, 0.001, 60), default=0.1,
                        help="MCTS's seconds per move as South (default 0.1)")
    parser.add_argument("--opening", type=opening_moves, default=[],
                        help="moves played first, both sides, comma-separated (e.g. 2,6)")
    parser.add_argument("--seed", type=ranged(int, 0, 2 ** 30), default=1)
    parser.add_argument("--jobs", type=ranged(int, 1, 64), default=1,
                        help="games played at once, one process each (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    jobs = [(args.north, args.seconds, args.south_seconds, args.opening, args.seed + number)
            for number in range(args.games)]
    if args.jobs == 1:
        results = [play_one(job) for job in jobs]
    else:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(play_one, jobs, chunksize=1)
    report = summary(results)
    if args.json:
        print(json.dumps(report))
        return 0
    low, high = report["interval"]
    print("North (%s, %g s) against MCTS (%g s) as South%s: %d games, wins %d draws %d "
          "losses %d, score %.1f%% (95%% interval %.1f-%.1f%%)" % (
              args.north, args.seconds, args.south_seconds,
              " after " + ",".join(map(str, args.opening)) if args.opening else "",
              report["games"], report["wins"], report["draws"], report["losses"],
              100 * report["score"], 100 * low, 100 * high))
    print("by the first %d moves:" % LINE_PLIES)
    for line, row in report["lines"].items():
        print("  %-8s %4d games  North's score %5.1f%%" % (line, row["games"],
                                                           100 * row["score"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
