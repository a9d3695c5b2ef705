"""The tournament database's schema (host-only): the tables as SQL, the upgrades from each
older version, and the statements of a script one by one. `Store` (store.py) creates and
upgrades a file with them."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

SCHEMA_VERSION = 5
APPLICATION = "layli-tournament"   # what the schema table says this file is

SCHEMA = """
CREATE TABLE layli_schema (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    application TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE event (
    id INTEGER PRIMARY KEY CHECK (id = 1),          -- one event a file
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,                          -- JSON object
    system TEXT NOT NULL CHECK (system IN ('round-robin', 'swiss')),
    rounds INTEGER NOT NULL CHECK (rounds >= 1),
    match_format TEXT NOT NULL CHECK (match_format IN ('game', 'hands')),
    bye_points REAL NOT NULL CHECK (bye_points IN (0, 0.5, 1)),
    tie_breaks TEXT NOT NULL,                       -- JSON list
    numbers_fixed INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL
);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,                         -- registration order
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    rating INTEGER,
    club TEXT NOT NULL,
    number INTEGER UNIQUE,                          -- pairing number, NULL until fixed
    withdrawn_from INTEGER,                         -- first round not paired, NULL while in
    registered_at REAL NOT NULL
);
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('online', 'offline', 'playing', 'fault')),
    seen_at REAL
);
CREATE TABLE rounds (
    round INTEGER PRIMARY KEY CHECK (round >= 1),
    paired_at REAL NOT NULL
);
CREATE TABLE games (
    id TEXT PRIMARY KEY,                            -- "<event>/r<round>/b<board>"
    round INTEGER NOT NULL REFERENCES rounds (round),
    board INTEGER NOT NULL CHECK (board >= 1),
    south INTEGER NOT NULL REFERENCES players (number),
    north INTEGER REFERENCES players (number),      -- NULL: a bye
    table_id TEXT REFERENCES tables (id),
    status TEXT NOT NULL
        CHECK (status IN ('assigned', 'playing', 'reported', 'confirmed', 'corrected')),
    UNIQUE (round, board),
    UNIQUE (round, table_id),
    CHECK (north IS NULL OR north <> south),
    CHECK ((north IS NULL) = (table_id IS NULL))    -- a bye takes no table, a game one
);
CREATE TABLE results (
    game_id TEXT PRIMARY KEY REFERENCES games (id), -- exactly one result a game
    south_points REAL NOT NULL CHECK (south_points IN (0, 0.5, 1)),
    south_seeds INTEGER NOT NULL CHECK (south_seeds >= 0),
    north_seeds INTEGER NOT NULL CHECK (north_seeds >= 0),
    record TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('board', 'arbiter')),
    recorded_at REAL NOT NULL,
    duplicates INTEGER NOT NULL DEFAULT 0,          -- copies received after the first
    confirmed_by TEXT,
    confirmed_at REAL
);
CREATE TABLE corrections (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    old_south_points REAL,                          -- NULL: the game had no result (its
    old_south_seeds INTEGER,                        -- board failed) and the arbiter's is
    old_north_seeds INTEGER,                        -- the first
    new_south_points REAL NOT NULL,
    new_south_seeds INTEGER NOT NULL,
    new_north_seeds INTEGER NOT NULL,
    arbiter TEXT NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
-- The audit trail is append-only.
CREATE TRIGGER corrections_are_kept BEFORE DELETE ON corrections
BEGIN SELECT RAISE(ABORT, 'corrections are never deleted'); END;
CREATE TRIGGER corrections_are_fixed BEFORE UPDATE ON corrections
BEGIN SELECT RAISE(ABORT, 'corrections are never changed'); END;
CREATE TABLE rejected (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    topic TEXT NOT NULL,
    reason TEXT NOT NULL,
    detail TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX rejected_by_reason ON rejected (reason);
"""

# Version 2: the moves of the games in play (what a game moved to another table carries on
# from), the log of those moves (append-only) and the tables the arbiter took out of play. A
# version 1 file is upgraded when opened.
SCHEMA_2 = """
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL CHECK (ply >= 1),
    move INTEGER NOT NULL CHECK (move >= 1),
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE relocations (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    from_table TEXT NOT NULL,
    to_table TEXT NOT NULL,
    ply INTEGER NOT NULL,                           -- the moves it carried on from
    arbiter TEXT NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TRIGGER relocations_are_kept BEFORE DELETE ON relocations
BEGIN SELECT RAISE(ABORT, 'relocations are never deleted'); END;
CREATE TRIGGER relocations_are_fixed BEFORE UPDATE ON relocations
BEGIN SELECT RAISE(ABORT, 'relocations are never changed'); END;
CREATE TABLE retired (                              -- tables out of play: paired no more
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    arbiter TEXT NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
"""

# Version 3: results held for the arbiter, whose record does not match the moves their table
# reported live (one a game: the latest, with how many came). Never deleted: the arbiter's
# decision is written beside it.
SCHEMA_3 = """
CREATE TABLE held (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    table_id TEXT NOT NULL,
    south_points REAL NOT NULL CHECK (south_points IN (0, 0.5, 1)),
    south_seeds INTEGER NOT NULL CHECK (south_seeds >= 0),
    north_seeds INTEGER NOT NULL CHECK (north_seeds >= 0),
    record TEXT NOT NULL,
    live TEXT NOT NULL,                             -- JSON list: the moves reported live
    recorded TEXT NOT NULL,                         -- JSON list: the record's moves
    ply INTEGER NOT NULL CHECK (ply >= 1),          -- the first where they part
    copies INTEGER NOT NULL DEFAULT 1,
    at REAL NOT NULL,
    -- NULL: undecided; accepted by the arbiter, replaced by the arbiter's result, or
    -- superseded by a record of the board's that follows its moves
    decision TEXT CHECK (decision IN ('accepted', 'replaced', 'superseded')),
    arbiter TEXT,
    decided_at REAL
);
CREATE TRIGGER held_are_kept BEFORE DELETE ON held
BEGIN SELECT RAISE(ABORT, 'held results are never deleted'); END;
"""

# Version 4: the rejected messages kept as one row a table and reason, with a count, the
# first and the latest time, and the latest one's topic, detail and payload: a flood of bad
# messages from one table is one row, not one a message. The rows of version 3 are summed.
SCHEMA_4 = """
CREATE TABLE rejections (
    table_id TEXT NOT NULL,                         -- the topic's table ('' for none of ours)
    reason TEXT NOT NULL,
    count INTEGER NOT NULL CHECK (count >= 1),
    first_at REAL NOT NULL,
    at REAL NOT NULL,                               -- the latest, whose are these:
    topic TEXT NOT NULL,
    detail TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, reason)
);
CREATE INDEX rejections_by_time ON rejections (at);
INSERT INTO rejections (table_id, reason, count, first_at, at, topic, detail, payload)
    SELECT kept.table_id, kept.reason, kept.count, kept.first_at, latest.at, latest.topic,
           latest.detail, latest.payload
    FROM (SELECT table_id, reason, COUNT(*) AS count, MIN(at) AS first_at, MAX(id) AS last
          FROM (SELECT CASE WHEN topic LIKE 'layli/table/%/%'
                            THEN substr(topic, 13, instr(substr(topic, 13), '/') - 1)
                            ELSE '' END AS table_id, reason, at, id FROM rejected)
          GROUP BY table_id, reason) AS kept
    JOIN rejected AS latest ON latest.id = kept.last;
DROP INDEX rejected_by_reason;
DROP TABLE rejected;
"""
# Version 5: the evidence log. Every move message a table sent for a game, as it came, and
# each time the arbiter moved a game to another table; never changed, never deleted (the
# triggers refuse it). A game's moves are worked out from it (evidence.py), no longer kept
# apart: the moves of version 4 become its first entries, and their table goes. Held results
# one row each, as they came (version 3 kept one a game, a later one in its place), each
# saying why it is held, in players' words.
SCHEMA_5 = """
CREATE TABLE evidence (
    id INTEGER PRIMARY KEY,                         -- the order it came in
    game_id TEXT NOT NULL REFERENCES games (id),
    table_id TEXT NOT NULL,                         -- the reporting table; MOVED: the new one
    kind TEXT NOT NULL CHECK (kind IN ('move', 'moved')),
    ply INTEGER NOT NULL CHECK (ply >= 0),
    move INTEGER CHECK ((kind = 'move' AND move >= 1) OR (kind = 'moved' AND move IS NULL)),
    sent_at REAL,                                   -- the message's own time, as it said
    at REAL NOT NULL                                -- when it came (0: from version 4)
);
CREATE INDEX evidence_by_game ON evidence (game_id, id);
CREATE TRIGGER evidence_is_never_changed BEFORE UPDATE ON evidence
BEGIN SELECT RAISE(ABORT, 'the evidence log is never changed'); END;
CREATE TRIGGER evidence_is_never_deleted BEFORE DELETE ON evidence
BEGIN SELECT RAISE(ABORT, 'nothing is ever deleted from the evidence log'); END;
INSERT INTO evidence (game_id, table_id, kind, ply, move, sent_at, at)
    SELECT moves.game_id, COALESCE(games.table_id, ''), 'move', moves.ply, moves.move, NULL, 0
    FROM moves JOIN games ON games.id = moves.game_id ORDER BY moves.game_id, moves.ply;
DROP TABLE moves;
CREATE TABLE held_results (
    id INTEGER PRIMARY KEY,                         -- the order they came in
    game_id TEXT NOT NULL REFERENCES games (id),
    table_id TEXT NOT NULL,
    south_points REAL NOT NULL CHECK (south_points IN (0, 0.5, 1)),
    south_seeds INTEGER NOT NULL CHECK (south_seeds >= 0),
    north_seeds INTEGER NOT NULL CHECK (north_seeds >= 0),
    record TEXT NOT NULL,
    live TEXT NOT NULL,                             -- JSON list: the moves reported live
    recorded TEXT NOT NULL,                         -- JSON list: the record's moves
    ply INTEGER NOT NULL CHECK (ply >= 1),          -- the first where they part
    reason TEXT NOT NULL DEFAULT '',                -- why it is held, in players' words
    copies INTEGER NOT NULL DEFAULT 1,
    at REAL NOT NULL,
    -- NULL: undecided; accepted by the arbiter, replaced by the arbiter's result (or by
    -- another held result the arbiter accepted), or superseded: set aside when a record of
    -- the board's that equals its moves was recorded
    decision TEXT CHECK (decision IN ('accepted', 'replaced', 'superseded')),
    arbiter TEXT,
    decided_at REAL
);
INSERT INTO held_results (game_id, table_id, south_points, south_seeds, north_seeds, record,
                          live, recorded, ply, copies, at, decision, arbiter, decided_at)
    SELECT game_id, table_id, south_points, south_seeds, north_seeds, record, live, recorded,
           ply, copies, at, decision, arbiter, decided_at FROM held ORDER BY at;
DROP TRIGGER held_are_kept;
DROP TABLE held;
ALTER TABLE held_results RENAME TO held;
CREATE INDEX held_by_game ON held (game_id, id);
CREATE TRIGGER held_are_kept BEFORE DELETE ON held
BEGIN SELECT RAISE(ABORT, 'held results are never deleted'); END;
"""
UPGRADES = {1: SCHEMA_2, 2: SCHEMA_3, 3: SCHEMA_4, 4: SCHEMA_5}     # from version k to k + 1


def statements(script: str) -> Iterator[str]:
    """The SQL statements of `script` one by one (executescript would commit the transaction
    they belong in)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            yield statement
            statement = ""
