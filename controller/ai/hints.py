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


# what a move does, as `Reason.kind` says it (the words: `Reason.english`, or a host's own
# words in the language in use, controller.board.view.reason_words)
ENDS_DRAW = 0       # the move ends the game in a draw: values mover's, other's score
ENDS_WON = 1        # ... and the mover wins
ENDS_LOST = 2       # ... and the mover loses
CAPTURES = 3        # it captures `seeds`
MAKES_UUR = 4       # it makes an Uur
DENIES = 5          # it takes away the opponent's capture of `threat` (`left`: what they
                    # can still take, 0 for nothing)
QUIET = 6           # nothing to capture: the search's best, `kept` seeds on the mover's
                    # side, `left` the opponent can take


class Reason:
    """Why a hint's move is good: a `kind` (ENDS_DRAW .. QUIET), the `mover` and `other`
    sides (0 South, 1 North) and the counts its kind speaks of (`scores`, `seeds`,
    `threat`, `left`, `kept`)."""

    __slots__ = ("kind", "mover", "other", "scores", "seeds", "threat", "left", "kept")

    def __init__(self, kind, mover, scores=None, seeds=0, threat=0, left=0, kept=0):
        self.kind = kind
        self.mover = mover
        self.other = 1 - mover
        self.scores = scores
        self.seeds = seeds
        self.threat = threat
        self.left = left
        self.kept = kept

    def english(self, players=SIDES):
        """The reason in one English line (logs, and the portable core's own callers)."""
        kind, mover, other = self.kind, players[self.mover], players[self.other]
        if kind == ENDS_DRAW:
            return "ends the game in a draw, %d-%d" % tuple(self.scores)
        if kind in (ENDS_WON, ENDS_LOST):
            return "ends the game: %s %s %d-%d" % (
                mover, "wins" if kind == ENDS_WON else "loses",
                self.scores[0], self.scores[1])
        if kind == CAPTURES:
            return "captures %s" % seeds(self.seeds)
        if kind == MAKES_UUR:
            return "makes an Uur"
        if kind == DENIES:
            if self.left:
                return "denies %s a capture of %d (leaves one of %d)" % (
                    other, self.threat, self.left)
            return "denies %s a capture of %d" % (other, self.threat)
        if not self.kept:
            return "nothing to capture now: the search's best move"
        if self.left:
            return "nothing to capture now: %s keeps %s on %s's side, %s can take %d" % (
                mover, seeds(self.kept), mover, other, self.left)
        return "nothing to capture now: keeps %s on %s's side" % (seeds(self.kept), mover)


def why(game, move):
    """The `Reason` `move` (legal in `game`) is good for the player to move."""
    mover = game.to_move
    other = 1 - mover
    child = game.copy()
    child.push(move)
    if child.over:
        scores = [child.scores[mover], child.scores[other]]
        kind = (ENDS_DRAW if scores[0] == scores[1] else
                ENDS_WON if scores[0] > scores[1] else ENDS_LOST)
        return Reason(kind, mover, scores)
    taken = child.captured[mover] - game.captured[mover]
    if taken > 0:
        return Reason(CAPTURES, mover, seeds=taken)
    owned = len([owner for owner in child.uur if owner == mover])
    if owned > len([owner for owner in game.uur if owner == mover]):
        return Reason(MAKES_UUR, mover)
    before = threat(game)
    after = best_gain(child) if child.to_move == other else 0
    if before > after:
        return Reason(DENIES, mover, threat=before, left=after)
    n = game.rules.n
    kept = sum(child.pits[mover * n:mover * n + n])
    return Reason(QUIET, mover, kept=kept, left=after if kept else 0)


def reason(game, move):
    """One English line saying what `move` (legal in `game`) does for the player to move."""
    return why(game, move).english()


def hint(game, searcher=None):
    """(move, reason) for the player to move in `game`: the move `searcher` (default: a
    "hint" Searcher) chooses, and one line saying why. ValueError when the game is over."""
    if searcher is None:
        searcher = Searcher(HINT_LEVEL)
    move = searcher.choose(game)
    return move, reason(game, move)
