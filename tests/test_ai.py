"""The computer opponent against the simple players, its time per move, and the same moves and
a bounded heap under MicroPython (the portable plain tests are in
tests/portable/test_ai_portable.py)."""

from __future__ import annotations

import random
import time

import pytest

from controller import micropython
from controller.ai import Searcher
from controller.opponents.players import GreedyPlayer
from controller.rules import Game


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> int:
        legal = game.legal_moves()
        return legal[self.rng.randrange(len(legal))]


def margins(opponent, games: int, nodes: int) -> list[int]:
    """The searcher's final margin in each of `games` games, South in the even ones."""
    found = []
    for k in range(games):
        searcher = Searcher("strongest", seed=k, nodes=nodes)
        players = (searcher, opponent(k)) if k % 2 == 0 else (opponent(k), searcher)
        game = Game("layli-goobalay")
        while not game.over:
            game.push(players[game.to_move].choose(game))
        scores = game.scores
        found.append(scores[k % 2] - scores[1 - k % 2])
    return found


def test_beats_greedy_with_both_colours():
    found = margins(lambda k: GreedyPlayer(random.Random(k)), 10, 2000)
    wins = sum(1 for margin in found if margin > 0)
    assert wins >= 8, found         # South's first move takes 7: some North games are lost
    assert sum(1 for margin in found[0::2] if margin > 0) == 5, found


def test_beats_random_every_time():
    found = margins(RandomPlayer, 10, 500)
    assert min(found) > 0, found


def test_strongest_moves_within_a_second():
    game = Game("layli-goobalay")
    game.replay([3, 1])
    searcher = Searcher("strongest", seed=1)
    for _ in range(2):
        start = time.perf_counter()
        move = searcher.choose(game)
        assert time.perf_counter() - start < 1.0
        assert searcher.last["depth"] >= 8, searcher.last
        game.push(move)


MICRO_SCRIPT = r'''
import gc, runner
from controller.rules import Game
from controller.ai import Searcher
gc.collect(); await runner.settle()
base = gc.mem_alloc()
game = Game("layli-goobalay")
searcher = Searcher("pico", seed=1)
peak = 0
found = []
while not game.over and game.ply < 12:
    move = searcher.choose(game)
    found.append([move, searcher.last["score"], searcher.last["nodes"]])
    game.push(move)
    gc.collect(); await runner.settle()
    peak = max(peak, gc.mem_alloc() - base)
print(found)
print(peak)
'''


@pytest.mark.micropython
def test_pico_level_same_moves_and_small_heap_under_micropython():
    reason = micropython.unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    result = micropython.run(MICRO_SCRIPT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split("\n")
    game = Game("layli-goobalay")
    searcher = Searcher("pico", seed=1)
    found = []
    while not game.over and game.ply < 12:
        move = searcher.choose(game)
        found.append([move, searcher.last["score"], searcher.last["nodes"]])
        game.push(move)
    assert lines[0] == repr(found)          # a node budget: the same search on both runtimes
    assert int(lines[1]) < 24 * 1024        # the game, the searcher and its 256-entry table
