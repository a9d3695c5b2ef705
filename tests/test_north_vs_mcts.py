"""benchmarks/north_vs_mcts.py, which shows what decides the searcher's games as North against
OpenSpiel's MCTS (the README's figures): it plays the games it says, keeps the opening it is
given, counts right, and says what is wrong with its arguments."""

from __future__ import annotations

import json
import subprocess
import sys

from controller.rules import Game

from benchmark_scripts import BENCHMARKS, load_benchmark

SCRIPT = BENCHMARKS / "north_vs_mcts.py"
north_vs_mcts = load_benchmark("north_vs_mcts")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300)


def test_summary_counts_scores_and_lines():
    results = [([2, 6, 1], 0.0), ([2, 6, 1], 0.5), ([3, 1, 4], 1.0), ([3, 1, 4], 1.0)]
    report = north_vs_mcts.summary(results)
    assert (report["games"], report["wins"], report["draws"], report["losses"]) == (4, 2, 1, 1)
    assert report["score"] == 0.625
    low, high = report["interval"]
    assert 0 < low < 0.625 < high < 1
    assert report["lines"] == {"2,6,1": {"games": 2, "score": 0.25},
                               "3,1,4": {"games": 2, "score": 1.0}}


def test_opening_plays_its_moves_then_the_player():
    class Last:
        def choose(self, game: Game) -> int:
            return game.legal_moves()[-1]

    player = north_vs_mcts.Opening([2, 6], Last())
    game = Game("layli-goobalay")
    for expected in (2, 6):
        move = player.choose(game)
        assert move == expected
        game.push(move)
    assert player.choose(game) == game.legal_moves()[-1]


def test_games_after_an_opening_as_json():
    result = run("--games", "2", "--seconds", "0.005", "--south-seconds", "0.005",
                 "--opening", "2,6", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 2 == report["wins"] + report["draws"] + report["losses"]
    assert sum(row["games"] for row in report["lines"].values()) == 2
    assert all(line.startswith("2,6,") for line in report["lines"])


def test_mcts_as_north_in_text():
    result = run("--games", "1", "--north", "mcts", "--seconds", "0.005",
                 "--south-seconds", "0.005")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("North (mcts, 0.005 s) against MCTS (0.005 s) as South: "
                                    "1 games")
    assert "by the first 3 moves:" in result.stdout


def test_bad_arguments_say_what_is_wrong():
    for args, message in (
            (("--opening", "2,7"), "argument --opening: ply 2: move 7 is not a pit number"),
            (("--opening", "two"), "moves are pit numbers separated by commas, not 'two'"),
            (("--games", "0"), "argument --games: must be at least 1"),
            (("--north", "greedy"), "argument --north: invalid choice: 'greedy'"),
            (("--seconds", "-1"), "argument --seconds: must be at least 0.001")):
        result = run(*args)
        assert result.returncode == 2, args
        assert message in result.stderr, (args, result.stderr)
