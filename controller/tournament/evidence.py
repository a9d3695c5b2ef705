"""What a board reported of its game, kept as it came, and the line of moves it adds up to.

Every move message a table sends for a game is one `Report`, appended to the event file's
evidence log and never changed or deleted (schema.py's `evidence` table). The game's moves
are not stored apart: they are `line(reports)`, worked out from the whole log each time, by
the one rule below, so that what the arbiter sees, what a result is checked against and what
a game moved to another table carries on from are always the same.

The rule, report by report in the order they came:

- a move for the next ply is appended;
- a move for a ply already in the line, the same move, is a *copy* (a message sent again,
  or the whole game sent again by a board back from a power cut): nothing changes;
- a different move for a ply already in the line is a *takeback*: the line goes back to
  before that ply, and the new move follows (a takeback is an event in the log, never a
  deletion: the moves it took back stay in the log);
- a move past the next ply waits (a message overtaken on the way) until the plies before it
  come, and is then appended;
- the arbiter moving the game to another table at ply k (`MOVED`) cuts the line after k.

::

    >>> said = [(1, 3), (2, 5), (2, 5), (3, 1), (3, 2), (5, 4), (4, 6)]     # (ply, move)
    >>> reports = [Report("table-1", ply, move, at=5.0 * k) for k, (ply, move) in enumerate(said)]
    >>> seen = line(reports)
    >>> seen.moves, seen.copies, seen.waiting
    ([3, 5, 2, 6, 4], 1, 0)
    >>> [(takeback.ply, takeback.undone, takeback.table) for takeback in seen.takebacks]
    [(3, 1, 'table-1')]

A takeback of more than `TAKEBACK_MOST` plies at once is not what players do at a board (they
take back a move, or a move and its reply), nor are moves after a takeback that came less than
`HANDS_S` apart (a move takes a hand longer than that: someone sent a game, not a board); the
arbiter is asked to look at the game before its result counts (`Line.doubts`).

    >>> hurried = [Report("table-1", 1, 3, at=10.0), Report("table-1", 2, 5, at=14.0),
    ...            Report("table-1", 1, 4, at=20.0), Report("table-1", 2, 2, at=20.1)]
    >>> line(hurried).doubts()
    ['after table-1 took back moves from move 1, 2 came within 0.1 s: faster than hands play; someone else may have sent them']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

MOVE = "move"           # a move message from the game's table
MOVED = "moved"         # the arbiter moved the game to another table, at `ply`
KINDS = (MOVE, MOVED)

TAKEBACK_MOST = 2       # plies a board takes back at once, at most, before the arbiter looks
HANDS_S = 1.0           # seconds a move takes hands at the least (lifting, sowing, confirming)


class Report(NamedTuple):
    """One entry of a game's evidence log: `table` reported `move` at `ply` (`kind` MOVE), or
    the arbiter moved the game to `table`, carrying on from its first `ply` moves (`kind`
    MOVED, `move` None). `sent_at`: the message's own time; `at`: when it came."""

    table: str
    ply: int
    move: int | None
    kind: str = MOVE
    sent_at: float = 0.0
    at: float = 0.0


class Takeback(NamedTuple):
    """A move reported at `ply` that differs from the one kept there: `undone` plies taken
    back (from `ply` to the end of the line as it was), by `table`. `hurried`: how many moves
    came, from it on, each less than HANDS_S after the one before, and within how long (0 and
    0.0 when they came as hands play)."""

    ply: int
    undone: int
    table: str
    hurried: int = 0
    within_s: float = 0.0


class Line(NamedTuple):
    """The moves a game's evidence adds up to, and what else the log holds."""

    moves: list[int]
    copies: int                     # reports of a move the line had already
    takebacks: list[Takeback]
    waiting: int                    # reports past the next ply, still waiting for theirs

    def doubtful(self) -> list[Takeback]:
        """The takebacks no players make: too deep, or followed by moves faster than hands."""
        return [takeback for takeback in self.takebacks
                if takeback.undone > TAKEBACK_MOST or takeback.hurried > 1]

    def doubts(self) -> list[str]:
        """What the arbiter should look at before a result of this game counts, in players'
        words (empty when nothing)."""
        doubts = []
        for takeback in self.doubtful():
            if takeback.undone > TAKEBACK_MOST:
                doubts.append("%s took back %d moves at once, from move %d: players take back "
                              "a move or two; someone else may have sent them" % (
                                  takeback.table, takeback.undone, takeback.ply))
            else:
                doubts.append("after %s took back moves from move %d, %d came within %.1f s: "
                              "faster than hands play; someone else may have sent them" % (
                                  takeback.table, takeback.ply, takeback.hurried,
                                  takeback.within_s))
        return doubts


def line(reports: Iterable[Report]) -> Line:
    """The line of moves `reports` (a game's evidence log, in the order it came) add up to."""
    moves: list[int] = []
    ahead: dict[int, int] = {}     # ply -> move, reported before the plies before it
    copies = 0
    takebacks: list[Takeback] = []
    run: list[float] = []          # when the moves since the latest takeback came, if hurried
    for report in reports:
        if report.kind == MOVED:
            del moves[report.ply:]
            ahead.clear()
            continue
        ply, move = report.ply, report.move
        if ply <= len(moves):
            if moves[ply - 1] == move:
                copies += 1
                continue
            takebacks.append(Takeback(ply, len(moves) - ply + 1, report.table))
            run = [report.at]
            del moves[ply - 1:]
            ahead.clear()           # they were ahead of the line taken back
        elif takebacks and run:
            if report.at - run[-1] < HANDS_S:
                run.append(report.at)
                if len(run) > takebacks[-1].hurried:
                    takebacks[-1] = takebacks[-1]._replace(
                        hurried=len(run), within_s=round(run[-1] - run[0], 1))
            else:
                run = []            # played as hands play: the takeback was the players'
        if ply > len(moves) + 1:
            ahead[ply] = move
            continue
        moves.append(move)
        while len(moves) + 1 in ahead:
            moves.append(ahead.pop(len(moves) + 1))
    return Line(moves, copies, takebacks, len(ahead))
