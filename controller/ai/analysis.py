"""Analysis of a played game: the evaluation after every move and the moves that lost most.

    >>> from controller.rules import Game
    >>> game = Game("layli-goobalay")
    >>> game.replay([3, 1, 2])
    >>> report = analyse(game, nodes=300)
    >>> [entry["move"] for entry in report.plies]
    [3, 1, 2]
    >>> len(report.comments())
    3

Every position of the game, from the start to the last, is searched once with the same node
budget by one seeded Searcher, so an analysis is the same on every runtime and every run. The
evaluation after move k is the search of the position after it (the final score when the game
is over), in seeds from South's point of view, as chess engines give White's. A move's loss is
what the best move found scores for its mover minus what the move played scores (0 when it is
the best move): the moves that lost most are the mistakes.

`comments()` gives one record comment per move ("+3.0", "-1.5 ?? best 4") and `tags()` a
Mistakes tag for `controller.rules.record.write_game`.

Portable core: MicroPython subset.
"""

from ..rules.game import Game, SIDES
from .search import Searcher, SCALE, final_margin

ANALYSIS_NODES = 4000       # per position: a 60-move game in about 2 s on CPython
BLUNDER = 3 * SCALE         # a loss of 3 seeds or more is "??"
MISTAKE = 1 * SCALE + 2     # a loss of 1.5 seeds or more is "?"


def seeds_text(units):
    """A score in 1/SCALE seeds as signed seeds with one decimal ("+3.0", "-0.5"), written with
    integers so that every runtime writes the same text."""
    sign = "-" if units < 0 else "+"
    tenths = (abs(units) * 10 + SCALE // 2) // SCALE
    return "%s%d.%d" % (sign, tenths // 10, tenths % 10)


class Analysis:
    """What `analyse` found: `plies`, one dict per move in order, with the keys ply (1, 2, ...),
    mover (0 South, 1 North), move, best (the best move found), score (seeds after the move,
    South's view) and loss (seeds the move gave away against the best, >= 0)."""

    __slots__ = ("plies",)

    def __init__(self, plies):
        self.plies = plies

    def mistakes(self, count=3, at_least=MISTAKE / SCALE):
        """The `count` moves that lost most, at least `at_least` seeds each, biggest first
        (earlier first on a tie)."""
        lost = [(-entry["loss"], entry["ply"], entry) for entry in self.plies
                if entry["loss"] >= at_least]
        lost.sort()
        return [entry for key, ply, entry in lost[:count]]

    def comments(self):
        """One record comment per move: the evaluation after it, and for a mistake "?" or "??"
        and the best move found."""
        texts = []
        for entry in self.plies:
            text = seeds_text(entry["units"])
            if entry["loss_units"] >= BLUNDER:
                text += " ?? best %d" % entry["best"]
            elif entry["loss_units"] >= MISTAKE:
                text += " ? best %d" % entry["best"]
            texts.append(text)
        return texts

    def tags(self):
        """{"Mistakes": "..."}: the moves that lost most, as "ply 12 North 5 (-4.0, best 2)",
        separated by "; " ("none" when no move lost 1.5 seeds)."""
        parts = []
        for entry in self.mistakes():
            parts.append("ply %d %s %d (%s, best %d)" % (
                entry["ply"], SIDES[entry["mover"]], entry["move"],
                seeds_text(-entry["loss_units"]), entry["best"]))
        return {"Mistakes": "; ".join(parts) if parts else "none"}


def _start(game):
    """A fresh game at `game`'s start."""
    return Game(game.rules, None, game.setup, game.first, game.start_captured, game.start_uur,
                game.start_first_move)


def _south(units, player):
    return units if player == 0 else -units


def analyse(game, nodes=ANALYSIS_NODES, seed=1):
    """Analyse `game`: a `Game` with its moves, or the text of a one-game record (read and
    replayed). Each position is searched with `nodes` nodes. Returns an `Analysis`."""
    if isinstance(game, str):
        from ..rules.record import read
        game = read(game)[0]
    if not isinstance(game, Game):
        raise ValueError("analyse takes a Game or the text of a one-game record, not %s "
                         "(for a match, analyse each of match.games)" % type(game).__name__)
    searcher = Searcher("hint", seed=seed, nodes=nodes, result_first=False)     # seeds lost
    position = _start(game)
    # (best move, its score for the mover) of each position before a move
    found = []
    values = []         # each position's value, South's view, in 1/SCALE seeds
    for move in game.moves + [None]:
        if position.over:
            values.append(_south(final_margin(position), position.to_move))
            found.append(None)
        else:
            best = searcher.choose(position)
            units = int(searcher.last["score"] * SCALE)
            values.append(_south(units, position.to_move))
            found.append((best, units))
        if move is not None:
            position.push(move)
    plies = []
    position = _start(game)
    for k in range(len(game.moves)):
        mover = position.to_move
        move = game.moves[k]
        best, best_units = found[k]
        after = values[k + 1]
        loss = 0 if move == best else best_units - _south(after, mover)
        if loss < 0:
            loss = 0
        plies.append({"ply": k + 1, "mover": mover, "move": move, "best": best,
                      "score": after / SCALE, "loss": loss / SCALE, "units": after,
                      "loss_units": loss})
        position.push(move)
    return Analysis(plies)
