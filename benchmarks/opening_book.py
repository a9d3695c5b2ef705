"""How the opening book's replies were chosen (controller/ai/book.py): by practical results.

In a position the search finds lost, its choice is the reply that loses by the least against
perfect play. Against a fallible opponent that is often the worst choice: the best defence
leaves the opponent nothing to get wrong, while a reply a seed or two worse in theory leaves a
position where its natural moves go wrong. For one line of the opening, this script:

1. values every reply with a deep search (`--deep-nodes`), and keeps as candidates those within
   `--margin` seeds of the best, so that the book never holds a blunder;
2. plays each candidate on, the searcher at its strongest on a node budget (`--nodes`) against
   a panel of fallible players (`--panel`: by default the computer's beginner and easy levels
   and a flat Monte Carlo player), `--games` games against each, each game with its own seeds;
3. prints each candidate's score (wins plus half the draws) against each, and the reply with
   the best mean: the book's entry. Ties go to the deeper search's order.

The opponents of `layli bench ai`, greedy and OpenSpiel's MCTS, are not in the default panel:
they are the held-out check of the book.

    python benchmarks/opening_book.py --variant layli-goobalay --line 3 --games 16
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys

from controller.ai import Searcher
from controller.opponents.players import GreedyPlayer
from controller.rules import VARIANTS, Game
from controller.rules.rng import Random30

PLAYERS = ("beginner", "easy", "medium", "hard", "greedy", "rollouts")
# The default panel leaves out medium and hard, which beat the searcher from every candidate of
# the first lines (a score of 0 each): they tell no reply from another and take most of the
# time. It leaves out greedy too: with OpenSpiel's MCTS, that is what `layli bench ai` measures.
PANEL = ("beginner", "easy", "rollouts")


class RolloutPlayer:
    """Flat Monte Carlo: `playouts` random games from each legal move, the move with the best
    mean result. A fallible player of another kind than the searcher's own levels: it judges a
    move by how random play goes from it, and so misjudges the positions where that differs
    from best play."""

    def __init__(self, seed: int, playouts: int = 50) -> None:
        self.rng = Random30(seed)
        self.playouts = playouts

    def choose(self, game: Game) -> int:
        me = game.to_move
        best, best_mean = None, None
        for move in game.legal_moves():
            total = 0.0
            for _ in range(self.playouts):
                playout = game.copy()
                playout.push(move)
                while playout.play_random(self.rng) is not None:
                    pass
                winner = playout.winner()
                total += 0.5 if winner is None else float(winner == me)
            if best_mean is None or total > best_mean:
                best, best_mean = move, total
        return best


def line_game(variant: str, line: list[int]) -> Game:
    """The game after `line`, played from the variant's standard start."""
    game = Game(variant)
    for ply, move in enumerate(line, 1):
        problem = game.why_illegal(move)
        if problem is not None:
            raise SystemExit("--line: move %d (%d) is not legal: %s" % (ply, move, problem))
        game.push(move)
    if game.over:
        raise SystemExit("--line: the game is over after it")
    return game


def deep_values(game: Game, nodes: int) -> dict[int, float]:
    """Each reply's value in seeds for the player making it, by a margin-only search of
    `nodes` nodes: the margin under best play, not the line a result-first search prefers."""
    values = {}
    for reply in game.legal_moves():
        child = game.copy()
        child.push(reply)
        if child.over:
            values[reply] = (child.scores[game.to_move] - child.scores[1 - game.to_move])
            continue
        searcher = Searcher("strongest", seed=1, nodes=nodes, book=False, result_first=False)
        searcher.choose(child)
        score = searcher.last["score"]
        values[reply] = score if child.to_move == game.to_move else -score
    return values


def play_on(job: tuple[str, list[int], int, str, int, int]) -> tuple[int, str, float]:
    """One game from the line and a reply: the searcher keeps the replying side, the panel
    player `opponent` the other. Returns (reply, opponent, the searcher's score)."""
    variant, line, reply, opponent, number, nodes = job
    game = line_game(variant, line + [reply])
    side = 1 - game.to_move
    searcher = Searcher("strongest", seed=number + 1, nodes=nodes, book=False)
    if opponent == "greedy":
        other = GreedyPlayer(random.Random(number + 7))
    elif opponent == "rollouts":
        other = RolloutPlayer(number + 7)
    else:
        other = Searcher(opponent, seed=number + 11, book=False)
    while not game.over:
        game.push((searcher if game.to_move == side else other).choose(game))
    winner = game.winner()
    return reply, opponent, 0.5 if winner is None else float(winner == side)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="layli-goobalay", choices=sorted(VARIANTS))
    parser.add_argument("--line", required=True,
                        help="the moves from the start, comma-separated (e.g. 3)")
    parser.add_argument("--games", type=int, default=16, help="games per panel player")
    parser.add_argument("--nodes", type=int, default=13000,
                        help="the searcher's node budget (about 0.1 s a move here)")
    parser.add_argument("--deep-nodes", type=int, default=1000000)
    parser.add_argument("--margin", type=float, default=3.0,
                        help="candidates: replies within this many seeds of the best")
    parser.add_argument("--panel", default=",".join(PANEL),
                        help="the fallible players, from: " + ", ".join(PLAYERS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        line = [int(move) for move in args.line.split(",")]
    except ValueError:
        parser.error("--line: moves are pit numbers separated by commas, not %r" % args.line)
    for name in ("games", "nodes", "deep_nodes"):
        if getattr(args, name) < 1:
            parser.error("--%s must be at least 1" % name.replace("_", "-"))

    panel = args.panel.split(",")
    for name in panel:
        if name not in PLAYERS:
            parser.error("--panel: unknown player %r (known: %s)" % (name, ", ".join(PLAYERS)))
    game = line_game(args.variant, line)
    values = deep_values(game, args.deep_nodes)
    best = max(values.values())
    candidates = sorted((reply for reply, value in values.items()
                         if value >= best - args.margin), key=lambda r: -values[r])
    jobs = [(args.variant, line, reply, opponent, number, args.nodes)
            for reply in candidates for opponent in panel for number in range(args.games)]
    with multiprocessing.Pool(2) as pool:
        results = pool.map(play_on, jobs, chunksize=1)
    table: dict[int, dict[str, float]] = {reply: {} for reply in candidates}
    for reply, opponent, score in results:
        table[reply][opponent] = table[reply].get(opponent, 0.0) + score / args.games
    means = {reply: sum(row.values()) / len(row) for reply, row in table.items()}
    chosen = max(candidates, key=lambda reply: means[reply])     # max keeps the first of ties
    if args.json:
        print(json.dumps({"line": line, "values": values, "candidates": candidates,
                          "scores": table, "mean": means, "chosen": chosen}))
        return 0
    print("after %s: replies valued by %d-node search: %s" % (
        args.line, args.deep_nodes,
        ", ".join("%d %+.2f" % (reply, value) for reply, value in sorted(values.items()))))
    print("reply  " + "  ".join("%8s" % name for name in panel) + "      mean")
    for reply in candidates:
        print("%5d  " % reply + "  ".join("%8.2f" % table[reply][name] for name in panel)
              + "  %8.2f" % means[reply])
    print("book: after %s, play %d" % (args.line, chosen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
