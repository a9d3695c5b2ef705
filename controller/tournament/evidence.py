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

    >>> reports = [Report("table-1", 1, 3), Report("table-1", 2, 5), Report("table-1", 2, 5),
    ...            Report("table-1", 3, 1), Report("table-1", 3, 2), Report("table-1", 5, 4),
    ...            Report("table-1", 4, 6)]
    >>> seen = line(reports)
    >>> seen.moves, seen.copies, seen.waiting
    ([3, 5, 2, 6, 4], 1, 0)
    >>> seen.takebacks
    [Takeback(ply=3, undone=1, table='table-1')]

A takeback of more than `TAKEBACK_MOST` plies at once is not what players do at a board (they
take back a move, or a move and its reply); the arbiter is asked to look at the game before its
result counts (`Line.doubts`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

MOVE = "move"           # a move message from the game's table
MOVED = "moved"         # the arbiter moved the game to another table, at `ply`
KINDS = (MOVE, MOVED)

TAKEBACK_MOST = 2       # plies a board takes back at once, at most, before the arbiter looks


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
    back (from `ply` to the end of the line as it was), by `table`."""

    ply: int
    undone: int
    table: str


class Line(NamedTuple):
    """The moves a game's evidence adds up to, and what else the log holds."""

    moves: list[int]
    copies: int                     # reports of a move the line had already
    takebacks: list[Takeback]
    waiting: int                    # reports past the next ply, still waiting for theirs

    def doubts(self) -> list[str]:
        """What the arbiter should look at before a result of this game counts, in players'
        words (empty when nothing)."""
        return ["%s took back %d moves at once, from move %d: players take back a move or "
                "two; someone else may have sent them" % (takeback.table, takeback.undone,
                                                           takeback.ply)
                for takeback in self.takebacks if takeback.undone > TAKEBACK_MOST]


def line(reports: Iterable[Report]) -> Line:
    """The line of moves `reports` (a game's evidence log, in the order it came) add up to."""
    moves: list[int] = []
    ahead: dict[int, int] = {}     # ply -> move, reported before the plies before it
    copies = 0
    takebacks: list[Takeback] = []
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
            del moves[ply - 1:]
            ahead.clear()           # they were ahead of the line taken back
        if ply > len(moves) + 1:
            ahead[ply] = move
            continue
        moves.append(move)
        while len(moves) + 1 in ahead:
            moves.append(ahead.pop(len(moves) + 1))
    return Line(moves, copies, takebacks, len(ahead))
