"""`layli bench ai`: how strong the computer is, measured fairly, in pairs of games (host-only).

Layli Goobalay favours the first mover so much that a score over single games says more about
who moved first than about who played better. So the bench plays **pairs**: each pair starts
from an opening of `--opening-plies` random moves (the engine's `Random30`, seeded by the pair),
played twice, the computer South in one game and North in the other. A pair is won by the side
that gathers more seeds over its two games (each game's final score: captured, Uurs, own row);
equal totals draw it.

The computer under test is a level of `controller.ai.Searcher` (`--level`, the strongest by
default, given `--seconds-per-move`; the levels below play to a node budget). Its opponents:

- `random`: a uniformly random legal move, drawn with the engine's `Random30`;
- `greedy`: `controller.opponents.players.GreedyPlayer`, the largest immediate gain;
- `openspiel_mcts`: OpenSpiel's MCTS with random rollouts (`controller.opponents.openspiel`),
  stopped by the clock at the same seconds per move;
- `openspiel_mcts_10x`: the same MCTS given ten times the seconds per move;
- a level's name (`beginner`, `easy`, `medium`, `hard`, `strongest`): the searcher at that
  level, to measure how the levels are spaced.

For each opponent it prints pairs won, drawn and lost, the pair score (won plus half the drawn,
over the pairs) with a 95% Wilson score interval, and the single games' wins, draws and losses.
With `--json`, one object keyed by opponent, each holding "pairs", "pairs_won", "pairs_drawn",
"pairs_lost", "score", "interval" and "games" ({"wins", "draws", "losses"}).

    $ layli bench ai --pairs 50 --seconds-per-move 0.1 --json
    $ layli bench ai --level medium --opponents easy --pairs 100
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from controller.commands.common import ranged
from controller.opponents.players import GreedyPlayer, Player
from controller.rules import VARIANTS, Game, SOUTH, NORTH
from controller.rules.rng import Random30
from controller.ai.search import LEVELS

OPPONENTS = ("random", "greedy", "openspiel_mcts", "openspiel_mcts_10x")
Z_95 = 1.959963984540054        # the standard normal's 97.5% point: a two-sided 95% interval
COLOURS = ("South", "North")


class RandomPlayer:
    """A uniformly random legal move, with the engine's `Random30` (the same games on every
    runtime for a seed)."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = Random30(seed)

    def choose(self, game: Game) -> int:
        move = game.random_move(self.rng)
        if move is None:
            raise ValueError("the game is over: there is no move to choose")
        return move


def wilson_interval(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a rate: `score` points (a draw is half a point) out of
    `games`. Unlike the plain normal interval it stays inside 0..1 and is not empty at 0 or 1."""
    if games < 1:
        raise ValueError("an interval needs at least one game, not %d" % games)
    if not 0 <= score <= games:
        raise ValueError("a score of %s is not between 0 and %d games" % (score, games))
    rate = score / games
    z2n = z * z / games
    centre = (rate + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(rate * (1 - rate) / games + z2n / (4 * games)) / (1 + z2n)
    return max(0.0, centre - half), min(1.0, centre + half)


OPENING_PLIES = 2       # random moves before the players take over: each pair's own opening


@dataclass
class Pairs:
    """The computer's results against one opponent, pair by pair, and the time each took."""

    opponent: str
    outcomes: list[int] = field(default_factory=lambda: [0, 0, 0])   # pairs won, drawn, lost
    games: list[int] = field(default_factory=lambda: [0, 0, 0])      # games won, drawn, lost
    seeds: list[int] = field(default_factory=lambda: [0, 0])         # computer, opponent
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # computer, opponent
    moves: list[int] = field(default_factory=lambda: [0, 0])          # computer, opponent

    @property
    def pairs(self) -> int:
        return sum(self.outcomes)

    @property
    def score(self) -> float:
        """The pair score: pairs won plus half the pairs drawn, over the pairs."""
        return (self.outcomes[0] + self.outcomes[1] / 2) / self.pairs

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.outcomes[0] + self.outcomes[1] / 2, self.pairs)

    def seconds_per_move(self, side: int) -> float:
        """The mean thinking time of the computer (side 0) or the opponent (side 1)."""
        return self.seconds[side] / self.moves[side] if self.moves[side] else 0.0

    def add(self, games: list[Game], computer_sides: list[int]) -> None:
        """Count one pair: its two games, and the colour the computer played in each."""
        mine = theirs = 0
        for game, side in zip(games, computer_sides):
            mine += game.scores[side]
            theirs += game.scores[1 - side]
            winner = game.winner()
            self.games[1 if winner is None else 0 if winner == side else 2] += 1
        self.seeds[0] += mine
        self.seeds[1] += theirs
        self.outcomes[0 if mine > theirs else 1 if mine == theirs else 2] += 1

    def as_json(self) -> dict:
        low, high = self.interval
        return {"pairs": self.pairs, "pairs_won": self.outcomes[0],
                "pairs_drawn": self.outcomes[1], "pairs_lost": self.outcomes[2],
                "score": round(self.score, 4), "interval": [round(low, 4), round(high, 4)],
                "games": {"wins": self.games[0], "draws": self.games[1],
                          "losses": self.games[2]}}

    def line(self, level: str) -> str:
        low, high = self.interval
        return ("%s vs %-18s pairs won %3d  drawn %3d  lost %3d   score %5.1f%%  "
                "95%% interval %5.1f-%5.1f%%   games %d-%d-%d   seeds %d-%d   "
                "s/move: %s %.3f, %s %.3f" % (
                    level, self.opponent, self.outcomes[0], self.outcomes[1],
                    self.outcomes[2], 100 * self.score, 100 * low, 100 * high, *self.games,
                    *self.seeds, level, self.seconds_per_move(0), self.opponent,
                    self.seconds_per_move(1)))


def make_opponent(name: str, seconds_per_move: float, seed: int) -> Player:
    """The opponent called `name` (one of OPPONENTS, or a level's name), seeded."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer(random.Random(seed))
    if name in ("openspiel_mcts", "openspiel_mcts_10x"):
        # imported when used: `layli` imports every command's module, and OpenSpiel is slow
        from controller.opponents.openspiel import OpenSpielMcts
        factor = 10 if name.endswith("_10x") else 1
        return OpenSpielMcts(seconds_per_move=factor * seconds_per_move, seed=seed)
    if name in LEVELS:
        return searcher(name, seconds_per_move)(seed)
    raise ValueError("unknown opponent %r (known: %s)" % (
        name, ", ".join(OPPONENTS + LEVELS)))


def searcher(level: str, seconds_per_move: float) -> Callable[[int], Player]:
    """Makes a computer at `level` from a seed: the strongest given `seconds_per_move`, the
    levels below at their own node budgets."""
    from controller.ai import Searcher         # only when used, like OpenSpiel above
    time_ms = max(1, round(seconds_per_move * 1000)) if level == "strongest" else None
    return lambda seed: Searcher(level, seed=seed, time_ms=time_ms)


def strongest(seconds_per_move: float) -> Callable[[int], Player]:
    """Makes the strongest level at `seconds_per_move` from a seed."""
    return searcher("strongest", seconds_per_move)


def opening(variant: str, plies: int, seed: int) -> list[int]:
    """`plies` uniformly random legal moves from the start (fewer if the game ends first)."""
    game = Game(variant)
    rng = Random30(seed)
    while game.ply < plies and not game.over:
        game.push(game.random_move(rng))
    return list(game.moves)


def play_game(variant: str, players: tuple[Player, Player], names: tuple[str, str],
              seconds: list[float], moves: list[int], start: list[int] | None = None) -> Game:
    """One game of `variant`, players[0] South, from the moves `start` (an opening, played
    for both); adds each side's thinking time and moves to `seconds` and `moves` (indexed like
    `players`). A player's illegal move is an error that names the player, the ply and why."""
    game = Game(variant)
    for move in start or ():
        game.push(move)
    while not game.over:
        side = game.to_move
        begun = time.perf_counter()
        move = players[side].choose(game)
        seconds[side] += time.perf_counter() - begun
        moves[side] += 1
        problem = game.why_illegal(move)
        if problem is not None:
            raise RuntimeError("ply %d: %s (%s) chose %r, which is not legal: %s" % (
                game.ply + 1, names[side], COLOURS[side], move, problem))
        game.push(move)
    return game


def play_pairs(variant: str, pairs: int, computer: Player, opponent: Player, name: str,
               seed: int = 1, opening_plies: int = OPENING_PLIES) -> Pairs:
    """`pairs` pairs of the computer against `opponent`: pair k opens with the random moves
    of seed `seed` + k, the computer South in its first game and North in its second."""
    result = Pairs(name)
    for number in range(pairs):
        start = opening(variant, opening_plies, seed + number)
        games = []
        for side in (SOUTH, NORTH):
            players = (computer, opponent) if side == SOUTH else (opponent, computer)
            names = ("the computer", name) if side == SOUTH else (name, "the computer")
            seconds, moves = [0.0, 0.0], [0, 0]
            games.append(play_game(variant, players, names, seconds, moves, start))
            for k, who in ((side, 0), (1 - side, 1)):      # colour k -> computer 0, opponent 1
                result.seconds[who] += seconds[k]
                result.moves[who] += moves[k]
        result.add(games, [SOUTH, NORTH])
    return result


def bench(variant: str, pairs: int, seconds_per_move: float, opponents: tuple[str, ...],
          seed: int = 1, level: str = "strongest",
          make_computer: Callable[[int], Player] | None = None,
          opening_plies: int = OPENING_PLIES,
          on_pairs: Callable[[Pairs], None] | None = None) -> dict[str, Pairs]:
    """Every opponent's pairs, in the order given. One computer (`level`) and one opponent,
    each seeded with `seed`, play all the pairs of an opponent. `make_computer(seed)` replaces
    the level (tests use a stand-in); `on_pairs` is told of each opponent's pairs as they end."""
    if make_computer is None:
        make_computer = searcher(level, seconds_per_move)
    results = {}
    for name in opponents:
        result = play_pairs(variant, pairs, make_computer(seed),
                            make_opponent(name, seconds_per_move, seed), name, seed,
                            opening_plies)
        results[name] = result
        if on_pairs is not None:
            on_pairs(result)
    return results


def opponent_list(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated opponents, each known, none twice."""
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in OPPONENTS + LEVELS:
            raise argparse.ArgumentTypeError("unknown opponent %r (known: %s)" % (
                name, ", ".join(OPPONENTS + LEVELS)))
        if names.count(name) > 1:
            raise argparse.ArgumentTypeError("opponent %r given twice" % name)
    return names


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="layli-goobalay", choices=sorted(VARIANTS),
                        help="the variant, with its default options (default layli-goobalay)")
    parser.add_argument("--pairs", type=ranged(int, 1, 100000), default=50,
                        help="pairs of games against each opponent, one with each colour from "
                             "the same opening (default 50)")
    parser.add_argument("--level", choices=LEVELS, default="strongest",
                        help="the computer level measured (default strongest)")
    parser.add_argument("--seconds-per-move", type=ranged(float, 0.001, 60), default=0.1,
                        metavar="S", help="thinking time per move of the strongest level and "
                                          "of MCTS (ten times this for openspiel_mcts_10x; "
                                          "default 0.1)")
    parser.add_argument("--opponents", type=opponent_list, default=OPPONENTS,
                        metavar="A,B,...", help="from %s, or levels (%s) (default: the first "
                                                "four)" % (", ".join(OPPONENTS),
                                                           ", ".join(LEVELS)))
    parser.add_argument("--opening-plies", type=ranged(int, 0, 20), default=OPENING_PLIES,
                        metavar="K", help="random moves that open each pair (default %d)"
                                          % OPENING_PLIES)
    parser.add_argument("--seed", type=ranged(int, 0, 2 ** 31 - 1), default=1,
                        help="seeds the openings, the computer and the opponents (default 1)")
    parser.add_argument("--json", action="store_true",
                        help='print {"OPPONENT": {"pairs", "pairs_won", "pairs_drawn", '
                             '"pairs_lost", "score", "interval", "games": {"wins", "draws", '
                             '"losses"}}, ...}')


def run(args: argparse.Namespace) -> int:
    def show(result: Pairs) -> None:
        print(result.line(args.level), flush=True)

    if not args.json:
        print("layli bench ai: %s, the %s level, %d pairs per opponent (%d random moves open "
              "each), %g s per move, seed %d" % (args.variant, args.level, args.pairs,
                                                 args.opening_plies, args.seconds_per_move,
                                                 args.seed), flush=True)
    begun = time.perf_counter()
    results = bench(args.variant, args.pairs, args.seconds_per_move, args.opponents, args.seed,
                    args.level, opening_plies=args.opening_plies,
                    on_pairs=None if args.json else show)
    if args.json:
        print(json.dumps({name: result.as_json() for name, result in results.items()}))
    else:
        print("a pair: the same opening twice, one game with each colour, won by more seeds "
              "over the two; score: pairs won + drawn/2 over pairs; 95%% interval: Wilson "
              "score interval; %.1f s in all" % (time.perf_counter() - begun))
    return 0


if __name__ == "__main__":
    from controller.cli import main
    sys.exit(main(["bench", "ai"] + sys.argv[1:]))
