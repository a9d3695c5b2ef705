"""What the tournament store keeps and refuses (host-only): its errors, the rows it gives out
(frozen dataclasses), the allowed values of each column, and the checks every write makes of
its input. `Store` (store.py) uses them; callers import them from here or from store.py."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .model import Pairing, Player, Result

SYSTEMS = ("round-robin", "swiss")
MATCH_FORMATS = ("game", "hands")
# standings.py's tie-breaks by their Standing field names, in its default order.
TIE_BREAKS = ("direct_encounter", "buchholz", "sonneborn_berger", "seed_difference")
TABLE_STATUSES = ("online", "offline", "playing", "fault")
GAME_STATUSES = ("assigned", "playing", "reported", "confirmed", "corrected")
SOURCES = ("board", "arbiter")
FINAL_STATUSES = ("reported", "confirmed", "corrected")   # the game has a result
NO_RESULT = (None, None, None)     # a correction's old result when there was none

TABLE_ID = re.compile(r"[a-z0-9-]{1,32}\Z")     # also the table's broker username
EVENT_NAME_MAX = 64
EXCERPT_MAX = 1000      # characters of a rejected payload kept for the arbiter


class StoreError(ValueError):
    """A refusal: bad input or an action the event's state does not allow. The message says
    what was wrong and where."""


class ResultConflict(StoreError):
    """A result for a game that has a different one recorded already: nothing was changed (the
    server logs it for the arbiter)."""

    def __init__(self, game_id: str, recorded: Result, offered: Result, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.recorded = recorded
        self.offered = offered


class SchemaError(StoreError):
    """The file is not a tournament database, or was written by a newer version."""


class DamagedError(StoreError):
    """The file is a database SQLite's own check finds damaged (a torn page, a power cut on a
    card that lied about its writes): restore a backup (`Store.backup` keeps them)."""


@dataclass(frozen=True)
class Event:
    """The event's settings, fixed when it is created."""

    name: str
    variant: str
    options: dict[str, Any]
    system: str
    rounds: int
    match_format: str
    bye_points: float
    tie_breaks: tuple[str, ...]


@dataclass(frozen=True)
class TableRow:
    """A table (a board and its controller), known by its broker username."""

    id: str
    status: str
    seen_at: float | None


@dataclass(frozen=True)
class GameRow:
    """One pairing as the store knows it. `table` is None for a bye; `result`, `record` and
    `source` are None until a result is recorded; `confirmed_by` names the arbiter who confirmed
    or last corrected it."""

    id: str
    pairing: Pairing
    table: str | None
    status: str
    result: Result | None
    record: str | None
    source: str | None
    confirmed_by: str | None
    duplicates: int


@dataclass(frozen=True)
class Correction:
    """One arbiter's correction of a result, as the audit table keeps it; `old` is None when
    the game had no result (its board failed) and the arbiter entered the first."""

    game_id: str
    old: Result | None
    new: Result
    arbiter: str
    reason: str
    at: float


@dataclass(frozen=True)
class Relocation:
    """A game the arbiter moved to another table (its board failed), with the `ply` moves it
    carried on from; as the audit table keeps it."""

    game_id: str
    from_table: str
    to_table: str
    ply: int
    arbiter: str
    reason: str
    at: float


@dataclass(frozen=True)
class Held:
    """A result held for the arbiter, `reason` says why: its record parts from the moves its
    table reported live at `ply` (1 on), or the moves reported have a takeback no player
    makes. `live` and `recorded` are both lines of moves (pit numbers); `copies` how many
    times it came; `decision` None until the arbiter accepts it ("accepted") or enters another
    result ("replaced"), or the board's own record, which follows its moves, is recorded and
    this one set aside ("superseded": `arbiter` None)."""

    game_id: str
    table: str
    result: Result
    record: str
    live: tuple[int, ...]
    recorded: tuple[int, ...]
    ply: int
    copies: int
    at: float
    decision: str | None
    arbiter: str | None
    decided_at: float | None
    reason: str = ""                # why it is held, in players' words


@dataclass(frozen=True)
class Retirement:
    """A table the arbiter took out of play (its board is broken): who, why and when."""

    table: str
    arbiter: str
    reason: str
    at: float


@dataclass(frozen=True)
class Rejected:
    """The messages of one table the server rejected for one reason: `count` of them, the
    first at `first_at`, the latest at `at`, whose `topic`, `detail` and `payload` these are.
    `table` is the topic's table ("" when it names none of the event's)."""

    at: float
    topic: str
    reason: str
    detail: str
    payload: str
    table: str = ""
    count: int = 1
    first_at: float = 0.0


@dataclass(frozen=True)
class Snapshot:
    """The whole event as one read of the store saw it (`Store.snapshot`): what the exports
    write (exports.py). `withdrawn` maps a player's name to the round they withdrew from
    (None: still in); `rounds` are (round, paired_at) pairs; `retired` maps a table to its
    retirement; `rejected` counts the rejected messages by reason."""

    event: Event
    withdrawn: dict[str, int | None]
    players: list[Player]
    rounds: list[tuple[int, float]]
    games: list[GameRow]
    tables: list[TableRow]
    retired: dict[str, Retirement]
    corrections: list[Correction]
    relocations: list[Relocation]
    rejected: dict[str, int]


def result_text(result: Result) -> str:
    """South's and North's points the way crosstables write them: "1-0", "1/2-1/2", "0-1"."""
    return {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[result.south_points]


def described(result: Result) -> str:
    return "%s, seeds %d-%d" % (result_text(result), result.south_seeds, result.north_seeds)


def check_text(value: Any, what: str, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise StoreError("%s must be text, not %r" % (what, value))
    if not empty and not value.strip():
        raise StoreError("%s must not be empty" % what)
    return value


def check_name(value: Any, what: str) -> str:
    """A person's or event's name: text without control characters or surrounding spaces."""
    check_text(value, what)
    if value != value.strip():
        raise StoreError("%s %r has spaces at its ends" % (what, value))
    if any(ord(char) < 32 or ord(char) == 127 for char in value):
        raise StoreError("%s %r has a control character" % (what, value))
    return value


def check_table_id(table_id: Any) -> str:
    if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
        raise StoreError("table id %r must be 1 to 32 of a-z, 0-9 and -" % (table_id,))
    return table_id


def check_choice(value: Any, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise StoreError("%s must be one of %s, not %r" % (what, ", ".join(allowed), value))
    return value


def check_result(value: Any, what: str) -> Result:
    if not isinstance(value, Result):
        raise StoreError("%s must be a Result, not %r" % (what, value))
    return value
