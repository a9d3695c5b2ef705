"""The opening book's entries are sound, and benchmarks/opening_book.py, which chose them, works
and says what is wrong with its arguments. (That the book plays only from the standard start
is in tests/portable/test_ai_portable.py, under MicroPython too.)"""

from __future__ import annotations

import json
import subprocess
import sys

from controller.ai import Searcher
from controller.ai.book import BOOK
from controller.rules import Game

from benchmark_scripts import BENCHMARKS, load_benchmark

BUILDER = BENCHMARKS / "opening_book.py"
MARGIN = 3.0        # the builder's default: a book reply is never more than this behind


opening_book = load_benchmark("opening_book")


def test_every_book_reply_is_near_the_best_a_search_finds():
    for variant, lines in BOOK.items():
        for line, reply in lines.items():
            game = Game(variant)
            game.replay(list(line))
            values = opening_book.deep_values(game, 60000)
            assert values[reply] >= max(values.values()) - MARGIN, (line, reply, values)


def test_rollout_player_is_seeded_and_legal():
    game = Game("layli-goobalay")
    game.replay([3, 1])
    moves = [opening_book.RolloutPlayer(seed, playouts=5).choose(game) for seed in (1, 1, 2)]
    assert moves[0] == moves[1]
    assert all(move in game.legal_moves() for move in moves)


def run_builder(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BUILDER), *args], capture_output=True,
                          text=True, timeout=300)


def test_builder_chooses_among_the_candidates():
    done = run_builder("--line", "3", "--games", "1", "--nodes", "150", "--deep-nodes", "400",
                       "--panel", "beginner,greedy,rollouts", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    values = {int(reply): value for reply, value in found["values"].items()}
    assert sorted(values) == [1, 3, 4, 6]           # North's legal replies after South's 3
    best = max(values.values())
    assert found["candidates"] and all(values[r] >= best - MARGIN for r in found["candidates"])
    assert found["chosen"] in found["candidates"]
    for reply in found["candidates"]:
        row = found["scores"][str(reply)]
        assert sorted(row) == ["beginner", "greedy", "rollouts"]
        assert all(0.0 <= score <= 1.0 for score in row.values())


def test_builder_says_what_is_wrong():
    for args, message in (
            (["--line", "3,7"], "--line: move 2 (7) is not legal"),
            (["--line", "three"], "--line: moves are pit numbers separated by commas"),
            (["--line", "3", "--games", "0"], "--games must be at least 1"),
            (["--line", "3", "--panel", "easy,mcts"], "--panel: unknown player 'mcts'")):
        done = run_builder(*args)
        assert done.returncode != 0, args
        assert message in done.stderr, (args, done.stderr)
