"""Computer players (host-only): anything with `choose(game) -> move` can sit at the board.

    >>> import random
    >>> from controller.rules import Game
    >>> player = GreedyPlayer(random.Random(1))
    >>> player.choose(Game("layli-goobalay")) in range(1, 7)
    True

The greedy player is the simple opponent of `layli play` and the yardstick of `layli bench ai`;
the searching opponent (`controller.ai.Searcher`) has the same `choose`.
"""

from __future__ import annotations

import random
from typing import Protocol

from controller.ai.hints import move_gain
from controller.rules import Game


class Player(Protocol):
    """A computer player: picks one of `game.legal_moves()` for the player to move."""

    def choose(self, game: Game) -> int:
        ...


class GreedyPlayer:
    """Plays the legal move with the largest immediate gain (`move_gain`); ties are broken with
    `rng`, so a seeded generator makes its games repeatable."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def gains(self, game: Game) -> dict[int, int]:
        """Each legal move's immediate gain."""
        return {move: move_gain(game, move) for move in game.legal_moves()}

    def best_moves(self, game: Game) -> list[int]:
        """The legal moves whose gain is the largest, in pit order (empty when over)."""
        gains = self.gains(game)
        if not gains:
            return []
        top = max(gains.values())
        return [move for move in sorted(gains) if gains[move] == top]

    def choose(self, game: Game) -> int:
        best = self.best_moves(game)
        if not best:
            raise ValueError("the game is over: there is no move to choose")
        return best[self.rng.randrange(len(best))]
