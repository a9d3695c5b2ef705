"""Hints: the searcher's move for the player to move and one honest line saying why.

    >>> from controller.rules import Game
    >>> move, reason = hint(Game("layli-goobalay"))
    >>> move in range(1, 7), isinstance(reason, str)
    (True, True)

The reason is worked out by playing the move on a copy of the game, in this order: the move
ends the game; it captures seeds; it makes an Uur; it takes away the opponent's best capture
(what they could take if it were their turn now, against what they can take after the move);
otherwise it is the search's best move with nothing to capture, and the line says how many
seeds it keeps on the mover's side.

Portable core: MicroPython subset.
"""

from ..rules.game import Game, SIDES
from .search import Searcher, banked

HINT_LEVEL = "hint"         # a hint comes in a few hundredths of a second on a Pi


def seeds(count):
    """"1 seed", "5 seeds"."""
    return "%d seed%s" % (count, "" if count == 1 else "s")


def move_gain(game, move):
    """What `move` banks for the mover at once: seeds captured plus seeds added to their own
    Uurs (an Uur pair made counts with all its seeds)."""
    mover = game.to_move
    child = game.copy()
    child.push(move)
    return banked(child, mover) - banked(game, mover)


def best_gain(game):
    """The most the player to move can bank with one move (0 when the game is over)."""
    if game.over:
        return 0
    best = 0
    for move in game.legal_moves():
        gain = move_gain(game, move)
        if gain > best:
            best = gain
    return best


def threat(game):
    """What the opponent of the player to move could bank with one move if it were their turn
    in this position: the capture a move should deny."""
    other = 1 - game.to_move
    turned = Game(game.rules, None, game.pits, other, game.captured, game.uur, False)
    return best_gain(turned)


def reason(game, move):
    """One line saying what `move` (legal in `game`) does for the player to move."""
    mover = game.to_move
    other = 1 - mover
    child = game.copy()
    child.push(move)
    if child.over:
        scores = child.scores
        if scores[mover] == scores[other]:
            return "ends the game in a draw, %d-%d" % (scores[mover], scores[other])
        result = "wins" if scores[mover] > scores[other] else "loses"
        return "ends the game: %s %s %d-%d" % (SIDES[mover], result, scores[mover],
                                                scores[other])
    taken = child.captured[mover] - game.captured[mover]
    if taken > 0:
        return "captures %s" % seeds(taken)
    owned = len([owner for owner in child.uur if owner == mover])
    if owned > len([owner for owner in game.uur if owner == mover]):
        return "makes an Uur"
    before = threat(game)
    after = best_gain(child) if child.to_move == other else 0
    if before > after:
        if after:
            return "denies %s a capture of %d (leaves one of %d)" % (SIDES[other], before, after)
        return "denies %s a capture of %d" % (SIDES[other], before)
    n = game.rules.n
    kept = sum(child.pits[mover * n:mover * n + n])
    if not kept:
        return "nothing to capture now: the search's best move"
    if after:
        return "nothing to capture now: %s keeps %s on %s's side, %s can take %d" % (
            SIDES[mover], seeds(kept), SIDES[mover], SIDES[other], after)
    return "nothing to capture now: keeps %s on %s's side" % (seeds(kept), SIDES[mover])


def hint(game, searcher=None):
    """(move, reason) for the player to move in `game`: the move `searcher` (default: a
    "hint" Searcher) chooses, and one line saying why. ValueError when the game is over."""
    if searcher is None:
        searcher = Searcher(HINT_LEVEL)
    move = searcher.choose(game)
    return move, reason(game, move)
