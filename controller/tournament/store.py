"""The tournament's SQLite store: the event, players, tables, rounds, games, results, the
arbiter's corrections and the messages the server rejected (host-only). Its schema is in
schema.py, the rows it gives out, its errors and its checks of input in rows.py, and the
event's JSON and CSV exports in exports.py.

One `Store` is one event in one database file (":memory:" for tests)::

    >>> from controller.tournament.model import Pairing, Result
    >>> store = Store(":memory:")
    >>> store.create_event("Club night", "layli-goobalay", rounds=3).system
    'swiss'
    >>> for name, rating in (("Ayan", 1500), ("Hodan", 1620), ("Warsame", None)):
    ...     _ = store.register(name, rating)
    >>> [(p.number, p.name) for p in store.fix_numbers()]
    [(1, 'Hodan'), (2, 'Ayan'), (3, 'Warsame')]
    >>> store.add_table("table-1")
    >>> store.add_round(1, [Pairing(1, 1, 1, 2), Pairing(1, 2, 3, None)], {1: "table-1"})
    >>> store.record_result("Club night/r1/b1", Result(1.0, 30, 18), "1. 3 ...")
    True
    >>> store.record_result("Club night/r1/b1", Result(1.0, 30, 18), "1. 3 ...")  # a re-sent copy
    False
    >>> [(pairing.board, result.south_points) for pairing, result in store.history()]
    [(1, 1.0), (2, 1.0)]

Pairing numbers (the starting rank) are provisional until `fix_numbers()`, which the server
calls just before pairing round 1: if any player has a rating, rated players come first by
rating, highest first, then the unrated, ties in each broken by name (case ignored); if nobody
has a rating, registration order. A player registered later in a Swiss event gets the next free
number (a late entry); a round robin's field is closed once the numbers are fixed.

Every write is one SQLite transaction (WAL, synchronous=FULL so that a result the server has
acknowledged survives a power cut): an exception or a crash in the middle of one leaves the
database exactly as it was before. A result is recorded exactly once because the results table
is keyed by the game id: a second copy cannot be inserted, whatever the code around it does.
One connection serves every thread, one call at a time (a lock): the server may call the store
from its own thread while the live pages read it from theirs.

Every refusal raises `StoreError` (a ValueError) with a message that names the game, player,
table or round and what was wrong; a result that contradicts the one recorded raises its
subclass `ResultConflict`, and a file that is not a tournament database, or one written by a
newer version, raises `SchemaError`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..rules.variants import RulesError, get_variant, resolve_options
from .evidence import MOVE, MOVED, Line, Report, line as line_of
from .model import POINTS, Pairing, Player, Result
from .rows import (EVENT_NAME_MAX, EXCERPT_MAX, FINAL_STATUSES, GAME_STATUSES, MATCH_FORMATS,
                   NO_RESULT, SOURCES, SYSTEMS, TABLE_STATUSES, TIE_BREAKS, Correction,
                   DamagedError, Event, GameRow, Held, Rejected, Relocation, ResultConflict,
                   Retirement, SchemaError, Snapshot, StoreError, TableRow, check_choice,
                   check_name, check_result,
                   check_table_id, check_text, described)
from .schema import (APPLICATION, SCHEMA, SCHEMA_2, SCHEMA_3, SCHEMA_4, SCHEMA_5,
                     SCHEMA_VERSION, UPGRADES, statements)


class Store:
    """One tournament in an SQLite file (created with its schema when new or empty).

    `clock` gives the times stored with every change (seconds since the epoch; tests pass
    their own). Use it as a context manager, or call `close()`.
    """

    def __init__(self, path: str | os.PathLike[str],
                 clock: Callable[[], float] = time.time) -> None:
        self.path = os.fspath(path)
        self._clock = clock
        self._lock = threading.RLock()
        try:
            # isolation_level=None: no implicit transactions; every write says BEGIN itself.
            self._db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None,
                                       check_same_thread=False)
        except sqlite3.Error as error:
            raise StoreError("cannot open the tournament database %s: %s" % (path, error))
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        db = self._db
        try:
            names = [row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        except sqlite3.DatabaseError as error:
            raise SchemaError("%s is not a tournament database (%s)" % (self.path, error))
        damage = self.damage()
        if damage:
            raise DamagedError("%s is damaged: %s" % (self.path, "; ".join(damage[:3])))
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        if not names:
            with self._write() as db:
                # Checked again under the write lock: another process may have just made it.
                if not db.execute("SELECT 1 FROM sqlite_master").fetchone():
                    for statement in statements(SCHEMA + SCHEMA_2 + SCHEMA_3 + SCHEMA_4 +
                                                SCHEMA_5):
                        db.execute(statement)
                    db.execute("INSERT INTO layli_schema VALUES (1, ?, ?)",
                               (APPLICATION, SCHEMA_VERSION))
                    return
            names = [row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        row = None
        if "layli_schema" in names:
            row = db.execute("SELECT application, version FROM layli_schema").fetchone()
        if row is None or row[0] != APPLICATION:
            raise SchemaError("%s is not a tournament database (its tables: %s)" % (
                self.path, ", ".join(names)))
        if row[1] > SCHEMA_VERSION:
            raise SchemaError(
                "%s was written by a newer version of layli (schema version %d; this one reads "
                "up to %d): upgrade layli to open it" % (self.path, row[1], SCHEMA_VERSION))
        if row[1] < SCHEMA_VERSION:
            self._upgrade()

    def _upgrade(self) -> None:
        """Bring a file of an older schema version up to this one, in one transaction."""
        with self._write() as db:
            version = db.execute("SELECT version FROM layli_schema").fetchone()[0]
            while version < SCHEMA_VERSION:     # checked again: another process may have
                for statement in statements(UPGRADES[version]):
                    db.execute(statement)
                version += 1
            db.execute("UPDATE layli_schema SET version = ?", (version,))

    def damage(self) -> list[str]:
        """What SQLite's own check (PRAGMA quick_check) finds wrong in the file: nothing when
        it is sound."""
        try:
            with self._lock:
                found = [row[0] for row in self._db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:
            return [str(error)]
        return [] if found == ["ok"] else found

    def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy of the whole database in `target` (SQLite's online backup),
        written beside it and renamed over it: the copy is whole or absent."""
        target = os.fspath(target)
        partial = target + ".partial"
        copy = sqlite3.connect(partial)
        try:
            with self._lock:
                self._db.backup(copy)
        finally:
            copy.close()
        os.replace(partial, target)

    def close(self) -> None:
        """Close the database; the store cannot be used afterwards."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed whole, or rolled back whole on any exception.
        BEGIN IMMEDIATE takes the write lock at once, so another process's write cannot slip
        in between what this one reads and what it writes."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:     # some errors roll back by themselves
                    self._db.execute("ROLLBACK")
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every query in it sees the same snapshot."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                yield self._db
            finally:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")

    # The event ----------------------------------------------------------------------------

    def create_event(self, name: str, variant: str, options: dict[str, Any] | None = None,
                     system: str = "swiss", rounds: int = 1, match_format: str = "game",
                     bye_points: float = 1.0,
                     tie_breaks: tuple[str, ...] | list[str] = TIE_BREAKS) -> Event:
        """Set the event up, once. `name` goes into every game id, so it has no "/";
        `variant` and `options` are checked by the rules engine; `tie_breaks` orders names
        from TIE_BREAKS."""
        check_name(name, "the event's name")
        if "/" in name or len(name) > EVENT_NAME_MAX:
            raise StoreError("the event's name %r must be at most %d characters without '/' "
                             "(it is part of every game id)" % (name, EVENT_NAME_MAX))
        options = {} if options is None else options
        if not isinstance(options, dict) or not all(isinstance(key, str) for key in options):
            raise StoreError("the event's options must map option names to values, not %r"
                             % (options,))
        try:
            rules_variant = get_variant(variant)
            resolve_options(rules_variant, options)
            options_json = json.dumps(options, sort_keys=True)
        except RulesError as error:
            raise StoreError("the event: %s" % error)
        except (TypeError, ValueError) as error:
            raise StoreError("the event's options are not JSON: %s" % error)
        check_choice(system, SYSTEMS, "the event's system")
        if type(rounds) is not int or rounds < 1:
            raise StoreError("the event's rounds must be a whole number >= 1, not %r"
                             % (rounds,))
        check_choice(match_format, MATCH_FORMATS, "the event's match format")
        if match_format == "hands" and not rules_variant.hands:
            raise StoreError("the event's match format cannot be hands: %s is not played in "
                             "hands" % variant)
        if bye_points not in POINTS or isinstance(bye_points, bool):
            raise StoreError("the event's bye points must be 1, 0.5 or 0, not %r"
                             % (bye_points,))
        if isinstance(tie_breaks, str):
            raise StoreError("the tie-break order must be a list of names, not %r"
                             % (tie_breaks,))
        tie_breaks = tuple(tie_breaks)
        for tie_break in tie_breaks:
            check_choice(tie_break, TIE_BREAKS, "a tie-break")
        if len(set(tie_breaks)) != len(tie_breaks):
            raise StoreError("the tie-break order %r names one twice" % (tie_breaks,))
        with self._write() as db:
            if db.execute("SELECT 1 FROM event").fetchone():
                raise StoreError("the event is set up already; its settings do not change")
            db.execute("INSERT INTO event VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)", (
                name, variant, options_json, system, rounds, match_format,
                float(bye_points), json.dumps(tie_breaks), self._clock()))
        return self.event()

    def event(self) -> Event:
        """The event's settings (a StoreError before `create_event`)."""
        with self._read() as db:
            return self._event(db)

    def _event(self, db: sqlite3.Connection) -> Event:
        row = db.execute("SELECT name, variant, options, system, rounds, match_format, "
                         "bye_points, tie_breaks FROM event").fetchone()
        if row is None:
            raise StoreError("there is no event yet: create_event() first")
        return Event(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6],
                     tuple(json.loads(row[7])))

    def game_id(self, round: int, board: int) -> str:
        """The id of round `round`'s board `board`: "<event>/r<round>/b<board>"."""
        return "%s/r%d/b%d" % (self.event().name, round, board)

    # Players ------------------------------------------------------------------------------

    def register(self, name: str, rating: int | None = None, club: str = "") -> Player:
        """Register a player (names are unique, case ignored). Returns the Player with their
        number as it stands: provisional until `fix_numbers()`."""
        check_name(name, "a player's name")
        if rating is not None and (type(rating) is not int or rating < 0):
            raise StoreError("%s's rating must be a whole number >= 0 or None, not %r"
                             % (name, rating))
        check_text(club, "%s's club" % name, empty=True)
        with self._write() as db:
            event = self._event(db)
            fixed = self._numbers_fixed(db)
            if fixed and event.system == "round-robin":
                raise StoreError("cannot register %s: the round robin's pairing numbers are "
                                 "fixed" % name)
            same = db.execute("SELECT name FROM players WHERE name = ?", (name,)).fetchone()
            if same:
                raise StoreError("%s is registered already (as %s)" % (name, same[0]))
            number = None
            if fixed:   # a late entry takes the next number
                number = db.execute(
                    "SELECT COALESCE(MAX(number), 0) + 1 FROM players").fetchone()[0]
            db.execute("INSERT INTO players (name, rating, club, number, registered_at) "
                       "VALUES (?, ?, ?, ?, ?)", (name, rating, club, number, self._clock()))
            return next(p for p in self._players(db, False) if p.name == name)

    def withdraw(self, player: int | str) -> None:
        """Withdraw a player, by name or (once fixed) pairing number. Before the numbers are
        fixed this cancels the registration; afterwards the player keeps their games and is
        left out of every round from the next one on."""
        with self._write() as db:
            fixed = self._numbers_fixed(db)
            row_id, name, withdrawn_from = self._player_row(db, player, fixed)
            if not fixed:
                db.execute("DELETE FROM players WHERE id = ?", (row_id,))
                return
            if withdrawn_from is not None:
                raise StoreError("%s has withdrawn already (from round %d)"
                                 % (name, withdrawn_from))
            db.execute("UPDATE players SET withdrawn_from = ? WHERE id = ?",
                       (self._last_round(db) + 1, row_id))

    def _player_row(self, db: sqlite3.Connection, player: int | str,
                    fixed: bool) -> tuple[int, str, int | None]:
        if isinstance(player, str):
            row = db.execute("SELECT id, name, withdrawn_from FROM players WHERE name = ?",
                             (player,)).fetchone()
        elif type(player) is int:
            if not fixed:
                raise StoreError("pairing numbers are not fixed yet: name the player, not "
                                 "number %d" % player)
            row = db.execute("SELECT id, name, withdrawn_from FROM players WHERE number = ?",
                             (player,)).fetchone()
        else:
            raise StoreError("a player is named by name or pairing number, not %r" % (player,))
        if row is None:
            raise StoreError("no player %r is registered" % (player,))
        return row

    def fix_numbers(self) -> list[Player]:
        """Fix the pairing numbers (see the module's text for the order) and return the
        players in that order. Called before round 1 is paired; again, it changes nothing."""
        with self._write() as db:
            self._event(db)
            if not self._numbers_fixed(db):
                players = self._players(db, False)
                if len(players) < 2:
                    raise StoreError("cannot fix pairing numbers: %d player(s) registered, "
                                     "at least 2 are needed" % len(players))
                for player in players:
                    db.execute("UPDATE players SET number = ? WHERE name = ?",
                               (player.number, player.name))
                db.execute("UPDATE event SET numbers_fixed = 1")
            return self._players(db, False)

    def numbers_fixed(self) -> bool:
        """Whether the pairing numbers are fixed."""
        with self._read() as db:
            return self._numbers_fixed(db)

    def _numbers_fixed(self, db: sqlite3.Connection) -> bool:
        row = db.execute("SELECT numbers_fixed FROM event").fetchone()
        return bool(row and row[0])

    def players(self, active_only: bool = False) -> list[Player]:
        """The players in pairing-number order; `active_only` leaves out the withdrawn."""
        with self._read() as db:
            return self._players(db, active_only)

    def withdrawals(self) -> dict[int, int]:
        """Withdrawn players' pairing numbers -> the first round they are not paired in."""
        with self._read() as db:
            return dict(db.execute("SELECT number, withdrawn_from FROM players "
                                   "WHERE withdrawn_from IS NOT NULL ORDER BY number"))

    def _players(self, db: sqlite3.Connection, active_only: bool) -> list[Player]:
        rows = db.execute("SELECT id, name, rating, club, number, withdrawn_from "
                          "FROM players").fetchall()
        if active_only:
            rows = [row for row in rows if row[5] is None]
        if self._numbers_fixed(db):
            rows.sort(key=lambda row: row[4])
            return [Player(row[4], row[1], row[2], row[3]) for row in rows]
        if any(row[2] is not None for row in rows):
            rows.sort(key=lambda row: (row[2] is None, -(row[2] or 0), row[1].casefold(),
                                       row[1], row[0]))
        else:
            rows.sort(key=lambda row: row[0])
        return [Player(index + 1, row[1], row[2], row[3]) for index, row in enumerate(rows)]

    # Tables -------------------------------------------------------------------------------

    def add_table(self, table_id: str) -> None:
        """Register a table by its id (its broker username); it starts offline."""
        check_table_id(table_id)
        with self._write() as db:
            if db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone():
                raise StoreError("table %s is registered already" % table_id)
            db.execute("INSERT INTO tables VALUES (?, 'offline', NULL)", (table_id,))

    def set_table_status(self, table_id: str, status: str,
                         seen_at: float | None = None) -> None:
        """Set a table's status and when it was last heard from (`seen_at`, default now)."""
        check_choice(status, TABLE_STATUSES, "table %s's status" % table_id)
        with self._write() as db:
            cursor = db.execute("UPDATE tables SET status = ?, seen_at = ? WHERE id = ?", (
                status, self._clock() if seen_at is None else seen_at, table_id))
            if cursor.rowcount == 0:
                raise StoreError("no table %r is registered" % (table_id,))

    def retire_table(self, table_id: str, arbiter: str, reason: str) -> None:
        """The arbiter takes `table_id` out of play (its board is broken): no round is paired
        onto it until `return_table`. Refused while it holds a game without a result (move
        that game first, or enter its result)."""
        check_name(arbiter, "the arbiter's name")
        check_text(reason, "the reason for retiring table %s" % table_id)
        with self._write() as db:
            self._check_table_known(db, table_id)
            if db.execute("SELECT 1 FROM retired WHERE table_id = ?", (table_id,)).fetchone():
                raise StoreError("table %s is retired already" % table_id)
            playing = db.execute("SELECT id FROM games WHERE table_id = ? AND round = ? AND id "
                                 "NOT IN (SELECT game_id FROM results)",
                                 (table_id, self._last_round(db))).fetchone()
            if playing:
                raise StoreError("table %s has game %s, which has no result: move it to "
                                 "another table first (or enter its result)"
                                 % (table_id, playing[0]))
            db.execute("INSERT INTO retired VALUES (?, ?, ?, ?)",
                       (table_id, arbiter, reason, self._clock()))

    def return_table(self, table_id: str) -> None:
        """Put a retired table back into play (its board is mended): paired from the next
        round."""
        with self._write() as db:
            self._check_table_known(db, table_id)
            if not db.execute("DELETE FROM retired WHERE table_id = ?", (table_id,)).rowcount:
                raise StoreError("table %s is not retired" % table_id)

    def retired(self) -> dict[str, Retirement]:
        """The tables out of play, by id."""
        with self._read() as db:
            return self._retired(db)

    def _retired(self, db: sqlite3.Connection) -> dict[str, Retirement]:
        return {row[0]: Retirement(*row) for row in db.execute(
            "SELECT table_id, arbiter, reason, at FROM retired ORDER BY table_id")}

    def _check_table_known(self, db: sqlite3.Connection, table_id: str) -> None:
        tables = [row.id for row in self._tables(db)]
        if table_id not in tables:
            raise StoreError("there is no table %r at this event (its tables: %s)" % (
                table_id, ", ".join(tables)))

    def tables(self) -> list[TableRow]:
        """Every table, by id."""
        with self._read() as db:
            return self._tables(db)

    def _tables(self, db: sqlite3.Connection) -> list[TableRow]:
        return [TableRow(*row) for row in db.execute(
            "SELECT id, status, seen_at FROM tables ORDER BY id")]

    # Rounds and games ---------------------------------------------------------------------

    def add_round(self, round: int, pairings: list[Pairing], tables: dict[int, str]) -> None:
        """Add round `round`: its pairings (boards 1..n) and the table of every board that is
        not a bye, in one transaction. Byes get their result (the event's bye points) at once.

        Refused: a round added already or out of order, one beyond the event's rounds, one
        before the previous round's games all have results, pairing numbers not fixed, unknown
        or withdrawn players, a player twice, boards missing or twice, a bye with a table or a
        game without one, unknown tables or a table used twice.
        """
        with self._write() as db:
            event = self._event(db)
            if not self._numbers_fixed(db):
                raise StoreError("round %r cannot be added: pairing numbers are not fixed "
                                 "(fix_numbers() first)" % (round,))
            last = self._last_round(db)
            if type(round) is not int or round != last + 1:
                if type(round) is int and 1 <= round <= last:
                    raise StoreError("round %d has been added already" % round)
                raise StoreError("round %r cannot be added: the next round is %d"
                                 % (round, last + 1))
            if round > event.rounds:
                raise StoreError("round %d cannot be added: the event has %d rounds"
                                 % (round, event.rounds))
            if last:
                waiting = [row[0] for row in db.execute(
                    "SELECT id FROM games WHERE round = ? AND id NOT IN "
                    "(SELECT game_id FROM results) ORDER BY board", (last,))]
                if waiting:
                    raise StoreError("round %d cannot be added before round %d's results are "
                                     "all in: %s %s none" % (round, last, ", ".join(waiting),
                                                            "has" if len(waiting) == 1
                                                            else "have"))
            self._check_round(db, round, pairings, tables)
            db.execute("INSERT INTO rounds VALUES (?, ?)", (round, self._clock()))
            bye = Result(event.bye_points, 0, 0)
            for pairing in pairings:
                game_id = "%s/r%d/b%d" % (event.name, round, pairing.board)
                db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", (
                    game_id, round, pairing.board, pairing.south, pairing.north,
                    tables.get(pairing.board), "confirmed" if pairing.is_bye else "assigned"))
                if pairing.is_bye:
                    self._insert_result(db, game_id, bye, "", "arbiter")

    def _check_round(self, db: sqlite3.Connection, round: int, pairings: list[Pairing],
                     tables: dict[int, str]) -> None:
        where = "round %d" % round
        if not isinstance(pairings, list) or not pairings:
            raise StoreError("%s: the pairings must be a non-empty list of Pairing" % where)
        if not isinstance(tables, dict):
            raise StoreError("%s: the tables must map boards to table ids" % where)
        active = {row[0]: row[1] for row in db.execute(
            "SELECT number, withdrawn_from FROM players")}
        known_tables = {row[0] for row in db.execute("SELECT id FROM tables")}
        retired = self._retired(db)
        seen: dict[int, int] = {}
        for pairing in pairings:
            if not isinstance(pairing, Pairing):
                raise StoreError("%s: %r is not a Pairing" % (where, pairing))
            board = "%s board %r" % (where, pairing.board)
            if pairing.round != round:
                raise StoreError("%s is paired for round %r" % (board, pairing.round))
            if pairing.south == pairing.north:
                raise StoreError("%s pairs player %r with themself" % (board, pairing.south))
            for number in (pairing.south,) if pairing.is_bye else (pairing.south, pairing.north):
                if number not in active:
                    raise StoreError("%s: no player has pairing number %r" % (board, number))
                if active[number] is not None and active[number] <= round:
                    raise StoreError("%s: player %d has withdrawn (from round %d)"
                                     % (board, number, active[number]))
                if number in seen:
                    raise StoreError("%s: player %d is paired on board %d too"
                                     % (board, number, seen[number]))
                seen[number] = pairing.board
            table = tables.get(pairing.board)
            if pairing.is_bye and table is not None:
                raise StoreError("%s is a bye and takes no table, not %r" % (board, table))
            if not pairing.is_bye:
                if table is None:
                    raise StoreError("%s has no table" % board)
                if table not in known_tables:
                    raise StoreError("%s: no table %r is registered" % (board, table))
                if table in retired:
                    raise StoreError("%s: table %s is retired" % (board, table))
        boards = sorted(pairing.board for pairing in pairings)
        if boards != list(range(1, len(pairings) + 1)):
            raise StoreError("%s: boards must be numbered 1 to %d, each once, not %s"
                             % (where, len(pairings), boards))
        extra = sorted(set(tables) - set(boards))
        if extra:
            raise StoreError("%s: tables are given for boards %s, which are not paired"
                             % (where, extra))
        used: dict[str, int] = {}
        for board_number in boards:
            table = tables.get(board_number)
            if table is not None and table in used:
                raise StoreError("%s: table %s is given to boards %d and %d"
                                 % (where, table, used[table], board_number))
            if table is not None:
                used[table] = board_number

    def last_round(self) -> int:
        """The number of the last round added (0 before round 1)."""
        with self._read() as db:
            return self._last_round(db)

    def _last_round(self, db: sqlite3.Connection) -> int:
        return db.execute("SELECT COALESCE(MAX(round), 0) FROM rounds").fetchone()[0]

    def mark_playing(self, game_id: str) -> bool:
        """Note that the game has started at its table; False when it had already (or has a
        result)."""
        with self._write() as db:
            status = self._game_status(db, game_id)
            if status != "assigned":
                return False
            db.execute("UPDATE games SET status = 'playing' WHERE id = ?", (game_id,))
            return True

    def reassign(self, game_id: str, table_id: str) -> None:
        """Move a game without a result to another table (its own broke down, say); it starts
        again there, as assigned."""
        with self._write() as db:
            status = self._game_status(db, game_id, "it takes no table")
            game = self._games(db, "g.id = ?", (game_id,))[0]
            if status in FINAL_STATUSES:
                raise StoreError("game %s has a result already; it stays at %s"
                                 % (game_id, game.table))
            if not db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone():
                raise StoreError("no table %r is registered" % (table_id,))
            other = db.execute("SELECT id FROM games WHERE round = ? AND table_id = ? "
                               "AND id <> ?", (game.pairing.round, table_id, game_id)).fetchone()
            if other:
                raise StoreError("table %s has game %s in this round" % (table_id, other[0]))
            db.execute("UPDATE games SET table_id = ?, status = 'assigned' WHERE id = ?",
                       (table_id, game_id))

    def _game_status(self, db: sqlite3.Connection, game_id: str, result: str = "") -> str:
        """The game's status; with `result` (what is being done), a StoreError for a bye."""
        row = db.execute("SELECT status, north IS NULL FROM games WHERE id = ?",
                         (game_id,)).fetchone()
        if row is None:
            raise StoreError("no game %r" % (game_id,))
        if result and row[1]:
            raise StoreError("game %s is a bye: %s" % (game_id, result))
        return row[0]

    # Results ------------------------------------------------------------------------------

    def record_result(self, game_id: str, result: Result, record: str,
                      source: str = "board") -> bool:
        """Record a game's result and its record text (a board's record may not be empty).

        True when recorded. False, changing nothing but the game's count of duplicates, when
        the game has this very result and record already (a copy sent again). A different
        result or record for a game that has one raises ResultConflict and changes nothing.
        """
        check_result(result, "game %s's result" % game_id)
        check_choice(source, SOURCES, "game %s's result source" % game_id)
        check_text(record, "game %s's record" % game_id, empty=source == "arbiter")
        with self._write() as db:
            status = self._game_status(db, game_id, "it takes no result")
            if self._insert_result(db, game_id, result, record, source):
                db.execute("UPDATE games SET status = 'reported' WHERE id = ?", (game_id,))
                db.execute("UPDATE held SET decision = 'superseded', decided_at = ? "
                           "WHERE game_id = ? AND decision IS NULL", (self._clock(), game_id))
                return True
            # The key refused a second result: a copy of the first one, or a conflict.
            first, first_record = self._first_result(db, game_id)
            if result == first and record == first_record:
                db.execute("UPDATE results SET duplicates = duplicates + 1 WHERE game_id = ?",
                           (game_id,))
                return False
            current = self._result(db, game_id)
            what = "its result" if result != first else "its record"
            raise ResultConflict(game_id, current, result, (
                "game %s has a result already (%s, %s); this one (%s) differs in %s: not "
                "recorded" % (game_id, described(current), status, described(result),
                              what)))

    def _insert_result(self, db: sqlite3.Connection, game_id: str, result: Result,
                       record: str, source: str) -> bool:
        """Insert the game's result unless the key says it has one; whether it inserted."""
        cursor = db.execute(
            "INSERT INTO results (game_id, south_points, south_seeds, north_seeds, record, "
            "source, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
            (game_id, result.south_points, result.south_seeds, result.north_seeds, record,
             source, self._clock()))
        return cursor.rowcount == 1

    def _result(self, db: sqlite3.Connection, game_id: str) -> Result:
        row = db.execute("SELECT south_points, south_seeds, north_seeds FROM results "
                         "WHERE game_id = ?", (game_id,)).fetchone()
        return Result(*row)

    def _first_result(self, db: sqlite3.Connection, game_id: str) -> tuple[Result, str]:
        """The result as first recorded (before any correction) and the record."""
        record = db.execute("SELECT record FROM results WHERE game_id = ?",
                            (game_id,)).fetchone()[0]
        row = db.execute("SELECT old_south_points, old_south_seeds, old_north_seeds "
                         "FROM corrections WHERE game_id = ? ORDER BY id LIMIT 1",
                         (game_id,)).fetchone()
        first = row is not None and row[0] is not None     # a board's result, later corrected
        return (Result(*row) if first else self._result(db, game_id)), record

    def confirm(self, game_id: str, arbiter: str) -> None:
        """The arbiter confirms a reported result."""
        check_name(arbiter, "the arbiter's name")
        with self._write() as db:
            status = self._game_status(db, game_id, "its result is the event's bye points")
            if status in ("assigned", "playing"):
                raise StoreError("game %s has no result to confirm" % game_id)
            by = db.execute("SELECT confirmed_by FROM results WHERE game_id = ?",
                            (game_id,)).fetchone()[0]
            if status == "confirmed":
                raise StoreError("game %s is confirmed already (by %s)" % (game_id, by))
            if status == "corrected":
                raise StoreError("game %s was corrected by %s: its result is the arbiter's "
                                 "already" % (game_id, by))
            db.execute("UPDATE results SET confirmed_by = ?, confirmed_at = ? "
                       "WHERE game_id = ?", (arbiter, self._clock(), game_id))
            db.execute("UPDATE games SET status = 'confirmed' WHERE id = ?", (game_id,))

    def correct(self, game_id: str, result: Result, arbiter: str, reason: str) -> None:
        """The arbiter changes a game's result, or enters it when the game has none (its board
        failed: the game is then over, with no record); the old and new results, who and why
        are kept in the audit table for good. The record text stays as it was."""
        check_result(result, "game %s's corrected result" % game_id)
        check_name(arbiter, "the arbiter's name")
        check_text(reason, "the reason for correcting game %s" % game_id)
        with self._write() as db:
            status = self._game_status(db, game_id, "its result is the event's bye points")
            old = None
            if status in ("assigned", "playing"):
                self._insert_result(db, game_id, result, "", "arbiter")
            else:
                old = self._result(db, game_id)
            if old == result:
                raise StoreError("game %s has that result already (%s): nothing to correct"
                                 % (game_id, described(old)))
            now = self._clock()
            db.execute("UPDATE results SET south_points = ?, south_seeds = ?, north_seeds = ?, "
                       "source = 'arbiter', confirmed_by = ?, confirmed_at = ? "
                       "WHERE game_id = ?", (result.south_points, result.south_seeds,
                                             result.north_seeds, arbiter, now, game_id))
            db.execute("UPDATE games SET status = 'corrected' WHERE id = ?", (game_id,))
            db.execute("UPDATE held SET decision = 'replaced', arbiter = ?, decided_at = ? "
                       "WHERE game_id = ? AND decision IS NULL", (arbiter, now, game_id))
            db.execute("INSERT INTO corrections (game_id, old_south_points, old_south_seeds, "
                       "old_north_seeds, new_south_points, new_south_seeds, new_north_seeds, "
                       "arbiter, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
                           game_id, *(NO_RESULT if old is None else (
                               old.south_points, old.south_seeds, old.north_seeds)),
                           result.south_points, result.south_seeds, result.north_seeds,
                           arbiter, reason, now))

    def corrections(self, game_id: str | None = None) -> list[Correction]:
        """Every correction (of one game, if given), oldest first."""
        with self._read() as db:
            return self._corrections(db, game_id)

    def _corrections(self, db: sqlite3.Connection, game_id: str | None) -> list[Correction]:
        where, args = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        return [Correction(row[0], None if row[1] is None else Result(*row[1:4]),
                           Result(*row[4:7]), *row[7:])
                for row in db.execute(
                    "SELECT game_id, old_south_points, old_south_seeds, old_north_seeds, "
                    "new_south_points, new_south_seeds, new_north_seeds, arbiter, reason, at "
                    "FROM corrections %s ORDER BY id" % where, args)]

    # Results held for the arbiter ----------------------------------------------------------

    def hold_result(self, game_id: str, table: str, result: Result, record: str,
                    live: list[int], recorded: list[int], ply: int, reason: str = "") -> bool:
        """Hold a board's result for the arbiter, `reason` saying why (its record parts at
        `ply` from the moves `table` reported live, `live`; the record's are `recorded`): not
        recorded, kept. True when it is new: a row of its own, after any held before for the
        game (never replaced). False when it is a copy of the newest one undecided (counted).
        StoreError once the arbiter has decided on one of the game's. A result recorded for
        the game afterwards (a record of the board's that equals its moves, `record_result`)
        sets the undecided ones aside ("superseded")."""
        check_result(result, "game %s's held result" % game_id)
        check_text(record, "game %s's record" % game_id)
        if type(ply) is not int or ply < 1:
            raise StoreError("ply %r: the first ply where record and moves part, 1 on" % (ply,))
        row = (table, result.south_points, result.south_seeds, result.north_seeds, record,
               json.dumps(list(live)), json.dumps(list(recorded)), ply, reason)
        with self._write() as db:
            status = self._game_status(db, game_id, "it takes no result")
            if status in FINAL_STATUSES:
                raise StoreError("game %s has a result already (%s): nothing to hold" % (
                    game_id, described(self._result(db, game_id))))
            decided = db.execute("SELECT decision FROM held WHERE game_id = ? AND decision "
                                 "IS NOT NULL", (game_id,)).fetchone()
            if decided is not None:
                raise StoreError("game %s: the arbiter has decided on its held result already "
                                 "(%s)" % (game_id, decided[0]))
            newest = db.execute("SELECT id, table_id, south_points, south_seeds, north_seeds, "
                                "record, live, recorded, ply, reason FROM held WHERE "
                                "game_id = ? ORDER BY id DESC LIMIT 1", (game_id,)).fetchone()
            if newest is not None and tuple(newest[1:]) == row:
                db.execute("UPDATE held SET copies = copies + 1 WHERE id = ?", (newest[0],))
                return False
            db.execute("INSERT INTO held (game_id, table_id, south_points, south_seeds, "
                       "north_seeds, record, live, recorded, ply, reason, at) VALUES "
                       "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (game_id, *row, self._clock()))
            return True

    def held(self, undecided: bool = False) -> list[Held]:
        """The results held for the arbiter (only those not decided on yet, if asked), in the
        order they came, several for a game if several came."""
        with self._read() as db:
            return [Held(row[0], row[1], Result(*row[2:5]), row[5], tuple(json.loads(row[6])),
                         tuple(json.loads(row[7])), *row[8:])
                    for row in db.execute(
                        "SELECT game_id, table_id, south_points, south_seeds, north_seeds, "
                        "record, live, recorded, ply, copies, at, decision, arbiter, "
                        "decided_at, reason FROM held %s ORDER BY id"
                        % ("WHERE decision IS NULL" if undecided else ""))]

    def accept_held(self, game_id: str, arbiter: str) -> Result:
        """The arbiter accepts the newest result held for `game_id`: recorded as its board
        sent it, and confirmed by `arbiter`, in one transaction (any earlier ones held for it
        are marked replaced by it). Returns it."""
        check_name(arbiter, "the arbiter's name")
        with self._write() as db:
            held = db.execute("SELECT id, south_points, south_seeds, north_seeds, record, "
                              "decision FROM held WHERE game_id = ? ORDER BY id DESC LIMIT 1",
                              (game_id,)).fetchone()
            if held is None:
                raise StoreError("game %s has no result held" % game_id)
            if held[5] is not None:
                raise StoreError("game %s: its held result was %s already" % (game_id, held[5]))
            status = self._game_status(db, game_id, "it takes no result")
            if status in FINAL_STATUSES:
                raise StoreError("game %s has a result already (%s)" % (
                    game_id, described(self._result(db, game_id))))
            result = Result(*held[1:4])
            now = self._clock()
            self._insert_result(db, game_id, result, held[4], "board")
            db.execute("UPDATE results SET confirmed_by = ?, confirmed_at = ? WHERE game_id = ?",
                       (arbiter, now, game_id))
            db.execute("UPDATE games SET status = 'confirmed' WHERE id = ?", (game_id,))
            db.execute("UPDATE held SET decision = 'accepted', arbiter = ?, decided_at = ? "
                       "WHERE id = ?", (arbiter, now, held[0]))
            db.execute("UPDATE held SET decision = 'replaced', arbiter = ?, decided_at = ? "
                       "WHERE game_id = ? AND decision IS NULL", (arbiter, now, game_id))
            return result

    # Moves, and games moved to another table ---------------------------------------------

    def record_move(self, game_id: str, table: str, ply: int, move: int,
                    sent_at: float | None = None) -> bool:
        """Append to the evidence log that `table` reported `move` at ply `ply` of `game_id`
        (`sent_at`: the message's own time). The log is never rewritten: a copy of a move
        kept, a takeback, a move ahead of the next are all entries, and the game's moves are
        what they add up to (`line`, evidence.py). False, keeping nothing, once the game has
        a result (a late copy); StoreError when the event has no such game or it is played at
        another table."""
        if type(ply) is not int or ply < 1 or type(move) is not int or move < 1:
            raise StoreError("ply %r move %r: a ply is 1, 2, ... and a move a pit number"
                             % (ply, move))
        with self._write() as db:
            row = db.execute("SELECT table_id, status FROM games WHERE id = ?",
                             (game_id,)).fetchone()
            if row is None:
                raise StoreError("%s sent a move of %s, a game this event does not have"
                                 % (table, game_id))
            if row[0] != table:
                raise StoreError("%s sent a move of %s, which is played at %s" % (
                    table, game_id, row[0] or "no table (a bye)"))
            if row[1] in FINAL_STATUSES:
                return False
            db.execute("INSERT INTO evidence (game_id, table_id, kind, ply, move, sent_at, at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, table, MOVE, ply, move, sent_at, self._clock()))
            return True

    def evidence(self, game_id: str) -> list[Report]:
        """The evidence log of `game_id`, in the order it came."""
        with self._read() as db:
            return self._evidence(db, game_id)

    def _evidence(self, db: sqlite3.Connection, game_id: str) -> list[Report]:
        return [Report(*row) for row in db.execute(
            "SELECT table_id, ply, move, kind, sent_at, at FROM evidence WHERE game_id = ? "
            "ORDER BY id", (game_id,))]

    def line(self, game_id: str) -> Line:
        """The moves `game_id`'s evidence adds up to, with its copies, takebacks and moves
        waiting for their turn (evidence.py)."""
        return line_of(self.evidence(game_id))

    def moves(self, game_id: str) -> list[int]:
        """The moves of `game_id` as its evidence adds them up, ply 1 on."""
        return self.line(game_id).moves

    def move_game(self, game_id: str, table: str, arbiter: str, reason: str,
                  ply: int) -> str:
        """The arbiter moves `game_id` to `table` (its board failed), where it carries on from
        its first `ply` moves (the evidence log says so: any reported after them no longer
        count); kept in the audit table with who and why. Returns the table it was at. Only a game without a result moves, and only to a
        table with no game in its round."""
        check_name(arbiter, "the arbiter's name")
        check_text(reason, "the reason for moving game %s" % game_id)
        with self._write() as db:
            status = self._game_status(db, game_id, "it has no table to move from")
            if status in FINAL_STATUSES:
                raise StoreError("game %s has a result already (%s): nothing is left to play"
                                 % (game_id, described(self._result(db, game_id))))
            old, round = db.execute("SELECT table_id, round FROM games WHERE id = ?",
                                    (game_id,)).fetchone()
            self._check_table_known(db, table)
            if table == old:
                raise StoreError("game %s is at %s already" % (game_id, table))
            retired = self._retired(db)
            if table in retired:
                raise StoreError("table %s is retired (%s): return it to play first, or "
                                 "choose another" % (table, retired[table].reason))
            busy = dict(db.execute("SELECT table_id, id FROM games WHERE round = ? AND "
                                   "table_id IS NOT NULL", (round,)).fetchall())
            if table in busy:
                spare = [row.id for row in self._tables(db)
                         if row.id not in busy and row.id not in retired]
                raise StoreError("%s has game %s of round %d: choose a table with no game "
                                 "this round (%s)" % (
                                     table, busy[table], round,
                                     "spare: " + ", ".join(spare) if spare else "none is spare"))
            db.execute("UPDATE games SET table_id = ? WHERE id = ?", (table, game_id))
            db.execute("INSERT INTO evidence (game_id, table_id, kind, ply, move, sent_at, at) "
                       "VALUES (?, ?, ?, ?, NULL, NULL, ?)",
                       (game_id, table, MOVED, ply, self._clock()))
            db.execute("INSERT INTO relocations (game_id, from_table, to_table, ply, arbiter, "
                       "reason, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, old, table, ply, arbiter, reason, self._clock()))
            return old

    def relocations(self) -> list[Relocation]:
        """Every game the arbiter moved to another table, oldest first."""
        with self._read() as db:
            return self._relocations(db)

    def _relocations(self, db: sqlite3.Connection) -> list[Relocation]:
        return [Relocation(*row) for row in db.execute(
            "SELECT game_id, from_table, to_table, ply, arbiter, reason, at FROM relocations "
            "ORDER BY id")]

    # Rejected messages --------------------------------------------------------------------

    def log_rejected(self, topic: str, reason: str, payload_excerpt: str | bytes,
                     detail: str = "", table: str = "") -> None:
        """Count a message the server rejected, one row a `table` and `reason` (a short
        category: "MessageError", "RecordMismatch", "conflict", ...), which keeps the latest
        one's topic, `detail` and payload (cut to its first EXCERPT_MAX characters): a flood
        of bad messages is one row, however long."""
        check_text(topic, "a rejected message's topic", empty=True)
        check_text(reason, "a rejected message's reason")
        check_text(detail, "a rejected message's detail", empty=True)
        check_text(table, "a rejected message's table", empty=True)
        if isinstance(payload_excerpt, (bytes, bytearray)):
            payload_excerpt = bytes(payload_excerpt[:4 * EXCERPT_MAX]).decode(
                "utf-8", "replace")
        check_text(payload_excerpt, "a rejected message's payload", empty=True)
        now = self._clock()
        with self._write() as db:
            db.execute("INSERT INTO rejections (table_id, reason, count, first_at, at, topic, "
                       "detail, payload) VALUES (?, ?, 1, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (table_id, reason) DO UPDATE SET count = count + 1, "
                       "at = excluded.at, topic = excluded.topic, detail = excluded.detail, "
                       "payload = excluded.payload",
                       (table, reason, now, now, topic, detail, payload_excerpt[:EXCERPT_MAX]))

    def rejected_counts(self) -> dict[str, int]:
        """How many messages were rejected, by reason."""
        with self._read() as db:
            return self._rejected_counts(db)

    def _rejected_counts(self, db: sqlite3.Connection) -> dict[str, int]:
        return dict(db.execute("SELECT reason, SUM(count) FROM rejections GROUP BY reason "
                               "ORDER BY reason"))

    def rejected(self, limit: int = 100) -> list[Rejected]:
        """The rejected messages, a row a table and reason, the latest `limit`, newest first."""
        with self._read() as db:
            return [Rejected(*row) for row in db.execute(
                "SELECT at, topic, reason, detail, payload, table_id, count, first_at "
                "FROM rejections ORDER BY at DESC, rowid DESC LIMIT ?", (limit,))]

    # Queries ----------------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow:
        """One game (a StoreError when there is no such game)."""
        with self._read() as db:
            rows = self._games(db, "g.id = ?", (game_id,))
        if not rows:
            raise StoreError("no game %r" % (game_id,))
        return rows[0]

    def games(self, round: int | None = None) -> list[GameRow]:
        """The games of one round, or of every round, by round and board."""
        with self._read() as db:
            if round is None:
                return self._games(db, "1", ())
            return self._games(db, "g.round = ?", (round,))

    def _games(self, db: sqlite3.Connection, where: str, args: tuple[Any, ...]) -> list[GameRow]:
        rows = db.execute(
            "SELECT g.id, g.round, g.board, g.south, g.north, g.table_id, g.status, "
            "r.south_points, r.south_seeds, r.north_seeds, r.record, r.source, r.confirmed_by, "
            "COALESCE(r.duplicates, 0) FROM games g LEFT JOIN results r ON r.game_id = g.id "
            "WHERE %s ORDER BY g.round, g.board" % where, args)
        return [GameRow(row[0], Pairing(*row[1:5]), row[5], row[6],
                        None if row[7] is None else Result(*row[7:10]), *row[10:])
                for row in rows]

    def history(self) -> list[tuple[Pairing, Result | None]]:
        """Every pairing so far with its result (None while it has none), for pairing the
        next round and for the standings."""
        return [(game.pairing, game.result) for game in self.games()]

    def records(self) -> dict[str, str]:
        """Every game record, by game id in round and board order (byes have none)."""
        return {game.id: game.record for game in self.games() if game.record}

    def counts(self) -> dict[str, int]:
        """Games by status and in all, results, duplicate copies received, corrections and
        rejected messages."""
        with self._read() as db:
            counts = {status: 0 for status in GAME_STATUSES}
            counts.update(db.execute("SELECT status, COUNT(*) FROM games GROUP BY status"))
            counts["games"] = sum(counts[status] for status in GAME_STATUSES)
            for name, query in (
                    ("results", "SELECT COUNT(*) FROM results"),
                    ("duplicates", "SELECT COALESCE(SUM(duplicates), 0) FROM results"),
                    ("corrections", "SELECT COUNT(*) FROM corrections"),
                    ("rejected", "SELECT COALESCE(SUM(count), 0) FROM rejections")):
                counts[name] = db.execute(query).fetchone()[0]
            return counts

    def snapshot(self) -> Snapshot:
        """The whole event read in one transaction (exports.py writes it out): the event, every
        player with the round each withdrew from, the rounds and when each was paired, every
        game, table, retirement, correction and relocation, and the rejected messages'
        counts."""
        with self._read() as db:   # one snapshot for every part
            return Snapshot(
                event=self._event(db),
                withdrawn=dict(db.execute("SELECT name, withdrawn_from FROM players")),
                players=self._players(db, False),
                rounds=[(row[0], row[1]) for row in db.execute(
                    "SELECT round, paired_at FROM rounds ORDER BY round")],
                games=self._games(db, "1", ()), tables=self._tables(db),
                retired=self._retired(db), corrections=self._corrections(db, None),
                relocations=self._relocations(db), rejected=self._rejected_counts(db))
