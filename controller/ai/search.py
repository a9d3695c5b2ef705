"""The computer opponent: alpha-beta search with iterative deepening and a transposition table.

    >>> from controller.rules import Game
    >>> searcher = Searcher("medium", seed=1)
    >>> game = Game("layli-goobalay")
    >>> searcher.choose(game) in game.legal_moves()
    True
    >>> sorted(searcher.last)
    ['depth', 'move', 'nodes', 'pv', 'score']

Scores are seeds from the point of view of the player to move: the margin by which they are
expected to win the game (their final score minus the opponent's), as far as the search sees.
Inside the search they are whole numbers of 1/SCALE seed, so that the search stays in small
ints on a Pico and gives the same result on every runtime.

A searcher plays for the result first and the margin second (`result_first`, the default): a
game that ends inside the search scores its margin plus WON when won, minus WON when lost. So
when every line it sees is lost it does not head for the smallest defeat; it keeps the game
open, where a fallible opponent can still go wrong. As North (Layli Goobalay favours the first
mover) against OpenSpiel's MCTS on fixed budgets (13,000 nodes against 300 simulations), 60
paired games went from 43% to 56%; at 0.1 s a move each, where MCTS runs more simulations as
the board empties, no difference was measured (see the README). The score it reports is still
the margin of the line it chose; a margin-only search (`result_first=False`, what the analysis
uses) reports the margin under best play.

The search is negamax alpha-beta over `Game.copy` + `Game.push`, so every rule of every variant
(relay sowing, Uurs, passes, repetition, the end of the game) comes from the engine itself.
Iterative deepening runs depth 1, 2, ... until the budget is spent (a node count, a time, or a
depth) and plays the best move of the last depth searched to the end. The transposition table
keys a position by its pits, Uurs and player to move (not by the road to it: a repetition is
only seen along the line searched); it holds at most `table` entries and is cleared when full.

A search with a node budget is deterministic: the same seed, budget and game give the same
move on CPython and MicroPython. A time budget is not (the depth reached depends on the
machine and its load).

Portable core: MicroPython subset.
"""

from ..rules.game import ENDLESS, UUR_CREATED
from ..rules.rng import Random30
from .book import book_move

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

SCALE = const(4)            # search scores are in quarter seeds
INFINITY = const(1000000)   # beyond any score: a game holds far fewer seeds
FINAL = const(127)          # the depth of a table entry searched to the end of the game

# A table entry is one small int (a tuple of four would cost a Pico ~50 bytes more an entry):
# (score + SCORE_OFFSET) << 13 | depth << 6 | bound << 4 | move. Scores stored are relative
# to the captured seeds (a few hundred quarter seeds at most, WON more for a decided game), so
# they fit in 17 bits, and an entry in a MicroPython small int (30 bits).
SCORE_OFFSET = const(65536)
DEPTH_MASK = const(127)
MOVE_MASK = const(15)

# Bounds a table entry holds.
EXACT = const(0)
LOWER = const(1)            # the score is at least this (a cut-off)
UPPER = const(2)            # the score is at most this (no move reached alpha)

WON = const(4000)           # a decided game's bonus, beyond any margin (1,000 seeds)
CHECK_EVERY = const(63)     # the clock is read every 64 nodes (a mask)
MAX_DEPTH = const(64)      # below FINAL

# Evaluation of a position at the search horizon, in 1/SCALE seeds per seed. Captured seeds and
# seeds in one's own Uurs are banked (an Uur is collected by its owner); seeds in one's own row
# are likelier to end there than in the opponent's store. Measured: see tests/test_ai.py and
# the report of issue 6.
ROW_WEIGHT = const(1)       # a quarter seed for every seed on one's own side

LEVELS = ("beginner", "easy", "medium", "hard", "strongest")
BOOK_LEVELS = ("hard", "strongest")     # the levels that play the opening book's replies

# level: (node budget, time budget in ms, depth cap, table entries, margin in seeds within
# which the move is drawn at random, or 0 to play the best). The levels below strongest are
# spaced so that each wins about three pairs of four against the one below (`layli bench ai
# --level L --opponents BELOW --pairs 60`, a pair one random opening played with each colour:
# easy 80%, medium 73%, hard 68% of pairs; the README). The depth cap, more than the nodes,
# makes a level: an uncapped search of 2,000 nodes won 94% of pairs against hard's.
BUDGETS = {
    "beginner": (400, None, 2, 1024, 1),
    "easy": (800, None, 4, 1024, 0),
    "medium": (1500, None, 5, 2048, 0),
    "hard": (2500, None, 6, 4096, 0),
    "strongest": (None, 900, MAX_DEPTH, 200000, 0),
    # a hint and a game's analysis: an uncapped search of 5,000 nodes (a few hundredths of a
    # second on a Pi), stronger than hard
    "hint": (5000, None, MAX_DEPTH, 8192, 0),
    # the Pico standalone profile: a bounded search in a bounded table (see the report)
    "pico": (2000, None, MAX_DEPTH, 256, 0),
}


class _OutOfBudget(Exception):
    """Raised inside the search when its nodes or time are spent."""


def default_clock():
    """Milliseconds from the runtime's clock: time.ticks_ms on MicroPython, else
    time.monotonic."""
    import time
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms
    monotonic = time.monotonic  # pyright: ignore[reportAttributeAccessIssue] (CPython only)

    def now_ms():
        return int(monotonic() * 1000)
    return now_ms


def _elapsed(now_ms, start):
    """Milliseconds since `start` on `now_ms`'s clock (ticks_ms wraps around)."""
    try:
        from time import ticks_diff
    except ImportError:
        return now_ms() - start
    return ticks_diff(now_ms(), start)


def banked(game, player):
    """Seeds already `player`'s: captured, plus those in the Uurs they own (either row)."""
    total = game.captured[player]
    uur = game.uur
    if uur is not game.rules.no_uurs:
        pits = game.pits
        for i in range(len(pits)):
            if uur[i] == player:
                total += pits[i]
    return total


def evaluate(game):
    """The static evaluation of `game` for the player to move, in 1/SCALE seeds: banked seeds
    (captured and in own Uurs) against the opponent's, plus a little for the seeds on one's
    own side of the board."""
    me = game.to_move
    rules = game.rules
    pits = game.pits
    uur = game.uur
    n = rules.n
    score = (game.captured[me] - game.captured[1 - me]) * SCALE
    row = 0
    if uur is rules.no_uurs:
        row = sum(pits[:n]) - sum(pits[n:])
    else:
        for i in range(rules.size):
            owner = uur[i]
            if owner is None:
                if i < n:
                    row += pits[i]
                else:
                    row -= pits[i]
            elif owner == 0:
                score += pits[i] * SCALE if me == 0 else -pits[i] * SCALE
            else:
                score += pits[i] * SCALE if me == 1 else -pits[i] * SCALE
    return score + (row if me == 0 else -row) * ROW_WEIGHT


def final_margin(game):
    """The final score of the player to move minus the opponent's, in 1/SCALE seeds (the game
    is over)."""
    scores = game.scores
    me = game.to_move
    return (scores[me] - scores[1 - me]) * SCALE


def final_score(game, won=WON):
    """What the search makes of a game that is over, for the player to move: its margin, and
    `won` more for a win or `won` less for a loss."""
    margin = final_margin(game)
    if margin > 0:
        return margin + won
    if margin < 0:
        return margin - won
    return 0


def in_seeds(score, won=WON):
    """A search score as seeds of margin (a float): a decided game's `won` taken off."""
    if won:
        if score >= won // 2:
            score -= won
        elif score <= -won // 2:
            score += won
    return score / SCALE


def sown(game, move):
    """What sowing `move` gives: (pits, uur, gain); gain is the seeds captured, ENDLESS, or
    UUR_CREATED - pit for an Uur made. Sown once and remembered by the game; the search reads
    it to order captures first and to leave out endless moves under ``endless=abar``."""
    return game.sown(move)      # the engine's own cache of the move's sowing


def playable_moves(game):
    """The legal moves, less endless ones (which ``endless=abar`` makes legal) unless there is
    nothing else: the searcher never plays an endless move when it has a choice."""
    moves = game.legal_moves()
    if not game.rules.abar:
        return moves
    ending = [move for move in moves if sown(game, move)[2] != ENDLESS]
    return ending if ending else moves


class Searcher:
    """A computer player at one of LEVELS (or "pico"): ``choose(game)`` returns its move.

    `seed` breaks ties between equal moves (and draws the beginner's move among the near-best),
    with the engine's Random30, so a seeded searcher repeats itself on every runtime. `time_ms`
    and `nodes` replace the level's budgets; `now_ms` is the clock read for a time budget.
    `book` says whether to play the opening book's replies (`controller.ai.book`); by default
    the hard and strongest levels do. `result_first` (default True) counts a win or a loss
    before its margin; False searches for the margin alone.

    After each `choose`, `last` says what the search found: the move, its score (seeds, from
    the mover's point of view), the depth searched to the end, the nodes visited and the
    principal variation. A book move is played at once, with "book": True in `last` and the
    score of a one-ply look.
    """

    def __init__(self, level="strongest", seed=1, time_ms=None, nodes=None, now_ms=None,
                 table=None, book=None, result_first=True):
        budget = BUDGETS.get(level)
        if budget is None:
            raise ValueError("unknown level %r: the levels are %s, hint and pico" % (
                level, ", ".join(LEVELS)))
        level_nodes, level_time, depth, entries, margin = budget
        if time_ms is not None or nodes is not None:
            level_nodes, level_time = nodes, time_ms
        for name, value in (("nodes", level_nodes), ("time_ms", level_time),
                            ("table", table)):
            if value is not None and (type(value) is not int or value < 1):
                raise ValueError("%s must be a whole number >= 1, not %r" % (name, value))
        self.level = level
        self.nodes = level_nodes
        self.time_ms = level_time
        self.max_depth = depth
        self.table_size = entries if table is None else table
        self.margin = margin * SCALE
        self.book = level in BOOK_LEVELS if book is None else bool(book)
        self.won = WON if result_first else 0
        self.rng = Random30(seed)
        self.now_ms = now_ms if now_ms is not None else (
            default_clock() if level_time is not None else None)
        self.table = {}
        self.last = None
        self._count = 0
        self._leaves = 0
        self._limit = None
        self._start = 0
        self._armed = False

    # --- playing ----------------------------------------------------------------------------

    def choose(self, game):
        """The move to play in `game` (which is left unchanged): a legal move of the player to
        move, never an endless one when there is another. ValueError when the game is over."""
        moves = playable_moves(game)
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        self._count = 0
        self._armed = False     # depth 1 always finishes: there is always a move to play
        self._limit = self.nodes
        if self.time_ms is not None:
            self._start = self.now_ms()
        order = self._shuffled(moves)
        booked = book_move(game) if self.book else None
        if booked is not None:
            order = [booked]
        best = order[0]
        result = {"move": best, "score": 0.0, "depth": 0, "nodes": 0, "pv": [best]}
        if booked is not None:
            result["book"] = True
        if len(order) == 1:     # nothing to think about: say what a shallow look sees
            score, pv = self._root(game, order, 1)[:2]
            result["score"] = in_seeds(score, self.won)
            result["depth"] = 1
            result["pv"] = pv
        else:
            scores = None
            for depth in range(1, self.max_depth + 1):
                try:
                    score, pv, scores, leaves = self._root(game, order, depth)
                except _OutOfBudget:
                    break
                best = pv[0]
                result["move"] = best
                result["score"] = in_seeds(score, self.won)
                result["depth"] = depth
                result["pv"] = pv
                order.remove(best)
                order.insert(0, best)
                self._armed = True
                if leaves == 0:     # every line reached the end of the game: nothing to deepen
                    break
            if self.margin and scores:
                best = self._near_best(scores, result)
        result["nodes"] = self._count
        self.last = result
        return result["move"]

    def _shuffled(self, moves):
        """`moves` in an order drawn from the seed (Fisher-Yates): ties go to the first."""
        order = moves[:]
        for i in range(len(order) - 1, 0, -1):
            j = self.rng.randrange(i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def _near_best(self, scores, result):
        """The beginner: a move drawn among those within `margin` of the best."""
        top = max([score for move, score in scores])
        near = [(move, score) for move, score in scores if score >= top - self.margin]
        move, score = near[self.rng.randrange(len(near))]
        if move != result["move"]:
            result["move"] = move
            result["score"] = in_seeds(score, self.won)
            result["pv"] = [move]
        return move

    def _root(self, game, order, depth):
        """Search every root move to `depth`: (best score, principal variation, [(move, score)]
        for the moves searched with a full window, leaves seen). With a margin every move is
        searched with a full window, so that the near-best are known."""
        me = game.to_move
        leaves = self._leaves
        alpha = -INFINITY
        best = -INFINITY
        best_pv = None
        scores = []
        for move in order:
            child = game.copy()
            child.push(move)
            pv = []
            low = -INFINITY if self.margin else alpha
            if child.to_move == me:
                score = self._search(child, depth - 1, low, INFINITY, pv)
            else:
                score = -self._search(child, depth - 1, -INFINITY, -low, pv)
            scores.append((move, score))
            if score > best:
                best = score
                best_pv = [move] + pv
                if score > alpha:
                    alpha = score
        self._store(game, FINAL if self._leaves == leaves else depth, EXACT, best, best_pv[0])
        return best, best_pv, scores, self._leaves - leaves

    # --- the search -------------------------------------------------------------------------

    def _tick(self):
        """Count a node; raise _OutOfBudget when the budget is spent (never at depth 1)."""
        self._count += 1
        if not self._armed:
            return
        if self._limit is not None and self._count > self._limit:
            raise _OutOfBudget()
        if (self.time_ms is not None and not self._count & CHECK_EVERY
                and _elapsed(self.now_ms, self._start) >= self.time_ms):
            raise _OutOfBudget()

    def _key(self, game):
        """The position as a table key: its pits, the player to move and the Uurs, packed in
        bytes (a Pico holds a few hundred of them: a tuple of ints would be several times
        larger)."""
        pits = game.pits
        uur = game.uur
        if uur is game.rules.no_uurs:
            items = pits + [game.to_move]
        else:
            items = pits + [game.to_move] + [2 if owner is None else owner for owner in uur]
        if game.on_board > 255:
            return tuple(items)     # a count would not fit in a byte
        return bytes(items)

    def _store(self, game, depth, flag, score, move):
        """Keep what a search of `game` found, packed in one small int (see `_unpack`)."""
        table = self.table
        if len(table) >= self.table_size:
            table.clear()       # simple and bounded: a Pico cannot hold an ageing scheme
        relative = score - banked_margin(game) + SCORE_OFFSET
        if depth > DEPTH_MASK:
            depth = DEPTH_MASK
        table[self._key(game)] = (relative << 13) | (depth << 6) | (flag << 4) | move

    def _search(self, game, depth, alpha, beta, pv):
        """The score of `game` for its player to move, searched `depth` plies deep; fills `pv`
        with the best line found."""
        self._tick()
        if game.over:
            return final_score(game, self.won)
        if depth <= 0:
            self._leaves += 1
            return evaluate(game)
        key = self._key(game)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            hint = entry & MOVE_MASK
            flag = (entry >> 4) & 3
            stored_depth = (entry >> 6) & DEPTH_MASK
            if stored_depth >= depth:
                score = (entry >> 13) - SCORE_OFFSET + banked_margin(game)
                if (flag == EXACT or (flag == LOWER and score >= beta)
                        or (flag == UPPER and score <= alpha)):
                    if stored_depth < FINAL:
                        self._leaves += 1
                    pv.append(hint)
                    return score
        me = game.to_move
        leaves = self._leaves
        start_alpha = alpha
        best = -INFINITY
        best_move = None
        line = []
        for move in self._ordered(game, hint):
            child = game.copy()
            child.push(move)
            line = []
            if child.to_move == me:         # the opponent passed (Mangala IV)
                score = self._search(child, depth - 1, alpha, beta, line)
            else:
                score = -self._search(child, depth - 1, -beta, -alpha, line)
            if score > best:
                best = score
                best_move = move
                del pv[:]
                pv.append(move)
                pv.extend(line)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if best <= start_alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        else:
            flag = EXACT
        self._store(game, FINAL if self._leaves == leaves else depth, flag, best, best_move)
        return best

    def _ordered(self, game, first):
        """The moves to search, best guesses first: the table's move, then captures and Uurs
        made (largest first), then the rest in pit order."""
        moves = playable_moves(game)
        keyed = []
        for move in moves:
            gain = sown(game, move)[2]
            if move == first:
                rank = -INFINITY
            elif gain <= UUR_CREATED:
                rank = -8           # an Uur pair: about two seeds banked now and more later
            elif gain > 0:
                rank = -gain
            else:
                rank = move         # quiet moves in pit order: deterministic everywhere
            keyed.append((rank, move))
        keyed.sort()
        return [move for rank, move in keyed]


def banked_margin(game):
    """Captured seeds of the player to move minus the opponent's, in 1/SCALE seeds: the part of
    a score that depends on the road to a position, kept out of the table."""
    me = game.to_move
    return (game.captured[me] - game.captured[1 - me]) * SCALE
