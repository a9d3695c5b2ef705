"""`layli bench ai`: how strong the strongest computer level is (host-only).

The searcher (`controller.ai.Searcher` at its strongest level, given the same seconds per move
as everyone else) plays a series of games against each opponent:

- `random`: a uniformly random legal move, drawn with the engine's `Random30`;
- `greedy`: `controller.opponents.players.GreedyPlayer`, the largest immediate gain;
- `openspiel_mcts`: OpenSpiel's MCTS with random rollouts (`controller.opponents.openspiel`), stopped
  by the clock at the same seconds per move.

The searcher plays South (and so moves first, in every variant's default) in the even-numbered
games and North in the odd ones: half the games with each colour. For each opponent it prints the
searcher's wins, draws and losses, its score rate (wins plus half the draws, over the games) and
a 95% Wilson score interval on that rate, draws counted as half a win, and the wins, draws and
losses with each colour. With `--json`, one object keyed by opponent, each holding "wins",
"draws", "losses", "score", "interval", and "as_south" and "as_north" with the same three
counts.

    $ layli bench ai --variant layli-goobalay --games 20 --seconds-per-move 0.1
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

OPPONENTS = ("random", "greedy", "openspiel_mcts")
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


@dataclass
class Series:
    """The searcher's results against one opponent, and the time each side took."""

    opponent: str
    # the searcher's [wins, draws, losses] with each colour: Layli Goobalay favours the first
    # mover so much that the split says more than the total
    by_colour: list[list[int]] = field(default_factory=lambda: [[0, 0, 0], [0, 0, 0]])
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])   # searcher, opponent
    moves: list[int] = field(default_factory=lambda: [0, 0])           # searcher, opponent

    def _total(self, outcome: int) -> int:
        return self.by_colour[SOUTH][outcome] + self.by_colour[NORTH][outcome]

    @property
    def wins(self) -> int:
        return self._total(0)

    @property
    def draws(self) -> int:
        return self._total(1)

    @property
    def losses(self) -> int:
        return self._total(2)

    @property
    def as_south(self) -> int:
        """Games in which the searcher played South."""
        return sum(self.by_colour[SOUTH])

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The score rate: wins plus half the draws, over the games."""
        return (self.wins + self.draws / 2) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins + self.draws / 2, self.games)

    def seconds_per_move(self, side: int) -> float:
        """The mean thinking time of the searcher (side 0) or the opponent (side 1)."""
        return self.seconds[side] / self.moves[side] if self.moves[side] else 0.0

    def add(self, side: int, outcome: int) -> None:
        """Count one game: the searcher played `side`; `outcome` 0 won, 1 drawn, 2 lost."""
        self.by_colour[side][outcome] += 1

    def as_json(self) -> dict:
        low, high = self.interval
        colours = {}
        for side, key in ((SOUTH, "as_south"), (NORTH, "as_north")):
            wins, draws, losses = self.by_colour[side]
            colours[key] = {"wins": wins, "draws": draws, "losses": losses}
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses,
                "score": round(self.score, 4), "interval": [round(low, 4), round(high, 4)],
                **colours}

    def line(self) -> str:
        low, high = self.interval
        south, north = ("%d-%d-%d" % tuple(counts) for counts in self.by_colour)
        return ("strongest vs %-15s wins %3d  draws %3d  losses %3d   score %5.1f%%  "
                "95%% interval %5.1f-%5.1f%%   as South %s, as North %s   "
                "s/move: searcher %.3f, %s %.3f" % (
                    self.opponent, self.wins, self.draws, self.losses, 100 * self.score,
                    100 * low, 100 * high, south, north, self.seconds_per_move(0),
                    self.opponent, self.seconds_per_move(1)))


def make_opponent(name: str, seconds_per_move: float, seed: int) -> Player:
    """The opponent called `name` (one of OPPONENTS), seeded."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer(random.Random(seed))
    if name == "openspiel_mcts":
        # imported when used: `layli` imports every command's module, and OpenSpiel is slow
        from controller.opponents.openspiel import OpenSpielMcts
        return OpenSpielMcts(seconds_per_move=seconds_per_move, seed=seed)
    raise ValueError("unknown opponent %r (known: %s)" % (name, ", ".join(OPPONENTS)))


def strongest(seconds_per_move: float) -> Callable[[int], Player]:
    """Makes the searcher under test from a seed: the strongest level at `seconds_per_move`."""
    from controller.ai import Searcher         # only when used, like OpenSpiel above
    time_ms = max(1, round(seconds_per_move * 1000))
    return lambda seed: Searcher("strongest", seed=seed, time_ms=time_ms)


def play_game(variant: str, players: tuple[Player, Player], names: tuple[str, str],
              seconds: list[float], moves: list[int]) -> Game:
    """One game of `variant`, players[0] South; adds each side's thinking time and moves to
    `seconds` and `moves` (indexed like `players`). A player's illegal move is an error that
    names the player, the ply and why."""
    game = Game(variant)
    while not game.over:
        side = game.to_move
        start = time.perf_counter()
        move = players[side].choose(game)
        seconds[side] += time.perf_counter() - start
        moves[side] += 1
        problem = game.why_illegal(move)
        if problem is not None:
            raise RuntimeError("ply %d: %s (%s) chose %r, which is not legal: %s" % (
                game.ply + 1, names[side], COLOURS[side], move, problem))
        game.push(move)
    return game


def play_series(variant: str, games: int, searcher: Player, opponent: Player,
                name: str) -> Series:
    """`games` games of the searcher against `opponent`, the searcher South in game 0, 2, ..."""
    series = Series(name)
    for number in range(games):
        side = SOUTH if number % 2 == 0 else NORTH
        players = (searcher, opponent) if side == SOUTH else (opponent, searcher)
        names = ("the searcher", name) if side == SOUTH else (name, "the searcher")
        seconds, moves = [0.0, 0.0], [0, 0]
        game = play_game(variant, players, names, seconds, moves)
        for k, who in ((side, 0), (1 - side, 1)):      # colour k -> searcher 0, opponent 1
            series.seconds[who] += seconds[k]
            series.moves[who] += moves[k]
        winner = game.winner()
        series.add(side, 1 if winner is None else 0 if winner == side else 2)
    return series


def bench(variant: str, games: int, seconds_per_move: float, opponents: tuple[str, ...],
          seed: int = 1, make_searcher: Callable[[int], Player] | None = None,
          on_series: Callable[[Series], None] | None = None) -> dict[str, Series]:
    """Every opponent's series, in the order given. One searcher and one opponent, each seeded
    with `seed`, play all the games of a series. `make_searcher(seed)` replaces the strongest
    level (tests use a stand-in); `on_series` is told of each series as it ends."""
    if make_searcher is None:
        make_searcher = strongest(seconds_per_move)
    results = {}
    for name in opponents:
        series = play_series(variant, games, make_searcher(seed),
                             make_opponent(name, seconds_per_move, seed), name)
        results[name] = series
        if on_series is not None:
            on_series(series)
    return results


def opponent_list(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated opponents, each known, none twice."""
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in OPPONENTS:
            raise argparse.ArgumentTypeError("unknown opponent %r (known: %s)" % (
                name, ", ".join(OPPONENTS)))
        if names.count(name) > 1:
            raise argparse.ArgumentTypeError("opponent %r given twice" % name)
    return names


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="layli-goobalay", choices=sorted(VARIANTS),
                        help="the variant, with its default options (default layli-goobalay)")
    parser.add_argument("--games", type=ranged(int, 1, 100000), default=100,
                        help="games against each opponent, half with each colour (default 100)")
    parser.add_argument("--seconds-per-move", type=ranged(float, 0.001, 60), default=0.1,
                        metavar="S", help="thinking time per move, the same for both sides "
                                          "(default 0.1)")
    parser.add_argument("--opponents", type=opponent_list, default=OPPONENTS,
                        metavar="A,B,...", help="from %s (default all)" % ", ".join(OPPONENTS))
    parser.add_argument("--seed", type=ranged(int, 0, 2 ** 31 - 1), default=1,
                        help="seeds the searcher and the opponents (default 1)")
    parser.add_argument("--json", action="store_true",
                        help='print {"OPPONENT": {"wins", "draws", "losses", "score", '
                             '"interval", "as_south", "as_north"}, ...}')


def run(args: argparse.Namespace) -> int:
    def show(series: Series) -> None:
        print(series.line(), flush=True)

    if not args.json:
        print("layli bench ai: %s, %d games per opponent (the searcher South in %d), "
              "%g s per move, seed %d" % (args.variant, args.games, (args.games + 1) // 2,
                                          args.seconds_per_move, args.seed), flush=True)
    start = time.perf_counter()
    results = bench(args.variant, args.games, args.seconds_per_move, args.opponents, args.seed,
                    on_series=None if args.json else show)
    if args.json:
        print(json.dumps({name: series.as_json() for name, series in results.items()}))
    else:
        print("score: wins + draws/2 over games; 95%% interval: Wilson score interval on the "
              "score rate, draws as half a win; %.1f s in all" % (time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    from controller.cli import main
    sys.exit(main(["bench", "ai"] + sys.argv[1:]))
