"""The MQTT messages between the tables and the tournament server: topics, payloads, validation.

Every message lives on a topic ``layli/table/<table>/<kind>`` and carries a JSON object (UTF-8,
at most 64 KiB) with ``"v": 1`` and ``"table"``, then the keys of its kind, no more and no
fewer (docs/tournament.md has the table). One function builds each kind's payload, checking
what it is given as strictly as `validate` checks what arrives, so a table or a server never
sends a message the other side would reject::

    >>> topic("table-3", "move")
    'layli/table/table-3/move'
    >>> payload = move("table-3", "open-2025/r1/b3", 1, 4, at=1700000000.5)
    >>> payload
    b'{"v":1,"table":"table-3","game":"open-2025/r1/b3","ply":1,"move":4,"at":1700000000.5}'
    >>> message = validate("layli/table/table-3/move", payload)
    >>> message.table, message.kind, message.fields["move"]
    ('table-3', 'move', 4)

Whatever arrives is checked before anything reads it: bytes that are not UTF-8, not JSON, not
an object, too big, of another version, with a key missing or unknown, a value of the wrong
type (``true`` is not a number here) or out of range, a table id that is not one, a ``table``
that is not the topic's -- each raises `MessageError`, whose text names the topic, the key and
the value::

    >>> validate("layli/table/table-3/move", payload.replace(b'"ply":1', b'"ply":true'))
    Traceback (most recent call last):
    ...
    controller.tournament.messages.MessageError: layli/table/table-3/move: "ply" is true, not a whole number from 1 to 1000000

Only the form is checked here. Whether a result's record gives the points it claims, or a
message is about the table's current game, is for the server to decide.

A game is the server's id of one pairing, ``"<event>/r<round>/b<board>"`` (`game_id`); the
event (its name) is 1 to 100 characters without "/", control characters or spaces at its ends.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

VERSION = 1
MAX_PAYLOAD = 64 * 1024                 # bytes
PREFIX = "layli/table/"

KINDS = ("presence", "state", "move", "result", "assignment", "ack")
TABLE_KINDS = ("presence", "state", "move", "result")      # what a table publishes
SERVER_KINDS = ("assignment", "ack")                       # what the server publishes

TABLE_ID = re.compile(r"[a-z0-9-]{1,32}\Z")
EVENT_ID = re.compile(r"[^/\s\x00-\x1f\x7f]([^/\x00-\x1f\x7f]{0,98}[^/\s\x00-\x1f\x7f])?\Z")
GAME_ID = re.compile(r"(.+)/r([1-9][0-9]{0,5})/b([1-9][0-9]{0,5})\Z", re.DOTALL)

MAX_COUNT = 10000           # seeds in one place; far above any board's total
MAX_PITS = 64               # places in a state's pits (2 x 12 today)
MAX_PLY = 1000000
MAX_MOVES = 10000           # moves an assignment carries on from; far above any game's
MAX_ROUND = 999999          # also the most boards
MAX_NAME = 100              # characters of a player's or the event's name
MAX_WORD = 64               # characters of a variant, firmware version, option name
MAX_TIME = 1e11             # seconds since 1970: the year 5138


class Delivery(NamedTuple):
    """How a kind is published: its QoS and whether the broker retains it."""

    qos: int
    retain: bool


DELIVERY = {
    "presence": Delivery(1, True),
    "state": Delivery(0, True),
    "move": Delivery(1, False),
    "result": Delivery(1, True),
    "assignment": Delivery(1, True),
    "ack": Delivery(1, True),
}


class MessageError(ValueError):
    """A topic or payload that is not a valid message; the text says what and where."""


@dataclass(frozen=True)
class Message:
    """A valid message: the table and kind of its topic, and its payload as a dict (every key,
    "v" and "table" included, in the payload's order; points are floats)."""

    table: str
    kind: str
    fields: dict[str, Any]

    @property
    def topic(self) -> str:
        return topic(self.table, self.kind)


# -- topics ---------------------------------------------------------------------------------

def is_table_id(text: object) -> bool:
    """Whether `text` is a table id: 1 to 32 of the letters a-z, digits and "-".

    >>> is_table_id("table-12"), is_table_id("Table 12"), is_table_id("")
    (True, False, False)
    """
    return isinstance(text, str) and TABLE_ID.match(text) is not None


def topic(table: str, kind: str) -> str:
    """The topic of `table`'s messages of `kind` (one of KINDS)."""
    if not is_table_id(table):
        raise MessageError("%s is not a table id (1 to 32 of a-z, 0-9 and -)" % _shown(table))
    if kind not in KINDS:
        raise MessageError("%s is not a kind of message (%s)" % (_shown(kind), ", ".join(KINDS)))
    return PREFIX + table + "/" + kind


def topic_filter(kind: str | None = None) -> str:
    """The subscription to every table's messages of `kind` (None: of every kind).

    >>> topic_filter("result"), topic_filter()
    ('layli/table/+/result', 'layli/table/+/+')
    """
    if kind is None:
        return PREFIX + "+/+"
    if kind not in KINDS:
        raise MessageError("%s is not a kind of message (%s)" % (_shown(kind), ", ".join(KINDS)))
    return PREFIX + "+/" + kind


def parse_topic(name: str) -> tuple[str, str]:
    """(table, kind) of a message topic, or MessageError saying what is wrong with it.

    >>> parse_topic("layli/table/table-3/result")
    ('table-3', 'result')
    """
    if not isinstance(name, str):
        raise MessageError("topic %s is not text" % _shown(name))
    if not name.startswith(PREFIX):
        raise MessageError("topic %s is not under %s" % (_shown(name), PREFIX))
    parts = name[len(PREFIX):].split("/")
    if len(parts) != 2:
        raise MessageError("topic %s is not %s<table>/<kind>" % (_shown(name), PREFIX))
    table, kind = parts
    if not is_table_id(table):
        raise MessageError("topic %s: %s is not a table id (1 to 32 of a-z, 0-9 and -)"
                           % (_shown(name), _shown(table)))
    if kind not in KINDS:
        raise MessageError("topic %s: %s is not a kind of message (%s)"
                           % (_shown(name), _shown(kind), ", ".join(KINDS)))
    return table, kind


def game_id(event: str, round: int, board: int) -> str:
    """The id of the game on `board` of `round` at `event`.

    >>> game_id("open-2025", 2, 7)
    'open-2025/r2/b7'
    """
    game = "%s/r%d/b%d" % (event, round, board)
    try:
        return _game(game, "game")
    except _Bad as bad:
        raise MessageError(str(bad)) from None


def parse_game(game: str) -> tuple[str, int, int]:
    """(event, round, board) of a game id, or MessageError.

    >>> parse_game("open-2025/r2/b7")
    ('open-2025', 2, 7)
    """
    try:
        _game(game, "game")
    except _Bad as bad:
        raise MessageError(str(bad)) from None
    match = GAME_ID.match(game)
    return match.group(1), int(match.group(2)), int(match.group(3))


# -- the checks, one per kind of value -------------------------------------------------------
#
# A check takes the value and the name to call it by in an error ('"pits"', '"pits"[3]'),
# returns the value as the message keeps it, or raises _Bad with the problem; `_check_fields`
# puts the topic in front.

class _Bad(Exception):
    pass


Check = Callable[[Any, str], Any]


def _int(low: int, high: int) -> Check:
    def check(value: Any, name: str) -> int:
        if type(value) is not int or not low <= value <= high:
            raise _Bad("%s is %s, not a whole number from %d to %d" % (name, _shown(value), low, high))
        return value
    return check


def _one_of(*choices: Any) -> Check:
    def check(value: Any, name: str) -> Any:
        for choice in choices:
            if type(value) is type(choice) and value == choice:
                return value
        raise _Bad("%s is %s, not one of %s" % (name, _shown(value),
                                                ", ".join(_shown(c) for c in choices)))
    return check


def _time(value: Any, name: str) -> float:
    # compared, never converted: a 400-digit int would not fit a float
    if type(value) not in (int, float) or not 0 <= value <= MAX_TIME:
        raise _Bad("%s is %s, not a time in seconds since 1970" % (name, _shown(value)))
    return value


def _points(value: Any, name: str) -> float:
    if type(value) not in (int, float) or value not in (0, 0.5, 1):
        raise _Bad("%s is %s, not South's points (1, 0.5 or 0)" % (name, _shown(value)))
    return float(value)


def _text(most: int, empty: bool = False, lines: bool = False) -> Check:
    """Text of at most `most` characters, without control characters (but for line breaks and
    tabs when `lines`)."""
    allowed = "\n\r\t" if lines else ""

    def check(value: Any, name: str) -> str:
        if not isinstance(value, str):
            raise _Bad("%s is %s, not text" % (name, _shown(value)))
        if not value and not empty:
            raise _Bad("%s is empty" % name)
        if len(value) > most:
            raise _Bad("%s is %d characters long, more than %d" % (name, len(value), most))
        for index, char in enumerate(value):
            if (char < " " or "\x7f" <= char < "\xa0") and char not in allowed:
                raise _Bad("%s has a control character %r at %d" % (name, char, index))
            if "\ud800" <= char <= "\udfff":      # JSON's "\ud800" alone: not UTF-8 text
                raise _Bad("%s has an unpaired surrogate %r at %d" % (name, char, index))
        return value
    return check


def _list(item: Check, least: int, most: int) -> Check:
    def check(value: Any, name: str) -> list:
        if type(value) is not list:
            raise _Bad("%s is %s, not a list" % (name, _shown(value)))
        if not least <= len(value) <= most:
            size = "%d items" % least if least == most else "%d to %d items" % (least, most)
            raise _Bad("%s has %d items, not %s" % (name, len(value), size))
        return [item(entry, "%s[%d]" % (name, index)) for index, entry in enumerate(value)]
    return check


def _or_null(check: Check) -> Check:
    def either(value: Any, name: str) -> Any:
        return None if value is None else check(value, name)
    return either


def _table(value: Any, name: str) -> str:
    if not is_table_id(value):
        raise _Bad("%s is %s, not a table id (1 to 32 of a-z, 0-9 and -)" % (name, _shown(value)))
    return value


def _game(value: Any, name: str) -> str:
    match = GAME_ID.match(value) if isinstance(value, str) else None
    if match is not None:
        _text(MAX_NAME + 16)(value, name)       # no control characters, no lone surrogates
    if match is None or EVENT_ID.match(match.group(1)) is None:
        raise _Bad("%s is %s, not a game id (<event>/r<round>/b<board>)" % (name, _shown(value)))
    return value


def _option_value(value: Any, name: str) -> Any:
    if isinstance(value, str):
        return _text(MAX_WORD * 4, empty=True)(value, name)
    if type(value) in (bool, int) or (type(value) is float and math.isfinite(value)):
        return value
    if type(value) is list:
        return _list(_int(-MAX_COUNT, MAX_COUNT), 0, MAX_PITS)(value, name)
    raise _Bad("%s is %s, not an option value (text, a number, true/false or a list of "
               "whole numbers)" % (name, _shown(value)))


def _options(value: Any, name: str) -> dict:
    if type(value) is not dict:
        raise _Bad("%s is %s, not an object of options" % (name, _shown(value)))
    if len(value) > MAX_PITS:
        raise _Bad("%s has %d options, more than %d" % (name, len(value), MAX_PITS))
    checked = {}
    for key, entry in value.items():
        _text(MAX_WORD)(key, "%s key" % name)
        checked[key] = _option_value(entry, "%s[%s]" % (name, _shown(key)))
    return checked


_name = _text(MAX_NAME, empty=True)
_word = _text(MAX_WORD)
_count = _int(0, MAX_COUNT)

# Each kind's keys in payload order, after "v" and "table", each with its check.
SCHEMA: dict[str, tuple[tuple[str, Check], ...]] = {
    "presence": (
        ("status", _one_of("online", "offline")),
        ("firmware", _text(MAX_WORD, empty=True)),
        ("at", _time),
    ),
    "state": (
        ("game", _or_null(_game)),
        ("status", _one_of("idle", "playing", "fault", "finished")),
        ("variant", _word),
        ("pits", _list(_count, 2, MAX_PITS)),
        ("uur", _list(_or_null(_one_of(0, 1)), 2, MAX_PITS)),
        ("captured", _list(_count, 2, 2)),
        ("to_move", _one_of(0, 1)),
        ("ply", _int(0, MAX_PLY)),
        ("players", _list(_name, 2, 2)),
        ("faults", _list(_text(200), 0, MAX_PITS)),
        ("at", _time),
    ),
    "move": (
        ("game", _game),
        ("ply", _int(1, MAX_PLY)),
        ("move", _int(1, MAX_PITS)),
        ("at", _time),
    ),
    "result": (
        ("game", _game),
        ("south_points", _points),
        ("south_seeds", _count),
        ("north_seeds", _count),
        ("record", _text(MAX_PAYLOAD, lines=True)),
        ("at", _time),
    ),
    "assignment": (
        ("game", _or_null(_game)),
        ("round", _int(0, MAX_ROUND)),
        ("board", _int(0, MAX_ROUND)),
        ("variant", _text(MAX_WORD, empty=True)),
        ("options", _options),
        ("format", _one_of("game", "hands")),
        ("players", _list(_name, 2, 2)),
        ("event", _text(MAX_NAME)),
        ("moves", _list(_int(1, MAX_PITS), 0, MAX_MOVES)),
    ),
    "ack": (
        ("game", _game),
    ),
}


def _check_together(kind: str, fields: dict[str, Any]) -> None:
    """What one key cannot say alone."""
    if kind == "state":
        if len(fields["pits"]) % 2:
            raise _Bad('"pits" has %d places, not two equal rows' % len(fields["pits"]))
        if len(fields["uur"]) != len(fields["pits"]):
            raise _Bad('"uur" has %d items, not one per pit (%d)'
                       % (len(fields["uur"]), len(fields["pits"])))
    elif kind == "assignment":
        game = fields["game"]
        if game is None:
            if fields["board"] != 0:
                raise _Bad('"board" is %d, not 0 with no game' % fields["board"])
            if fields["moves"]:
                raise _Bad('"moves" has %d moves, not none with no game' % len(fields["moves"]))
            return
        for key in ("round", "board"):
            if fields[key] < 1:
                raise _Bad('"%s" is 0, not a %s of a game' % (key, key))
        if not fields["variant"]:
            raise _Bad('"variant" is empty')
        for index, player in enumerate(fields["players"]):
            if not player:
                raise _Bad('"players"[%d] is empty' % index)
        expected = "%s/r%d/b%d" % (fields["event"], fields["round"], fields["board"])
        if game != expected:
            raise _Bad('"game" is %s, but event, round and board make it %s'
                       % (_shown(game), _shown(expected)))


def _check_fields(name: str, table: str, kind: str, payload: Any) -> dict[str, Any]:
    """The checked payload of a message of `kind` for `table` on topic `name`."""
    try:
        if type(payload) is not dict:
            raise _Bad("the payload is %s, not a JSON object" % _kind_of(payload))
        if "v" not in payload:
            raise _Bad('"v" (the payload version) is missing')
        if payload["v"] != VERSION or type(payload["v"]) is not int:
            raise _Bad('"v" is %s: payload version %d is the only one known'
                       % (_shown(payload["v"]), VERSION))
        keys = ("v", "table") + tuple(key for key, _check in SCHEMA[kind])
        missing = [key for key in keys if key not in payload]
        unknown = [key for key in payload if key not in keys]
        if missing or unknown:
            problems = []
            if missing:
                problems.append("missing " + ", ".join(_shown(key) for key in missing))
            if unknown:
                problems.append("unknown " + ", ".join(_shown(key) for key in unknown))
            raise _Bad("a %s payload with keys %s" % (kind, "; ".join(problems)))
        fields = {"v": VERSION, "table": _table(payload["table"], '"table"')}
        if fields["table"] != table:
            raise _Bad('"table" is %s, not the topic\'s table %s'
                       % (_shown(fields["table"]), _shown(table)))
        for key, check in SCHEMA[kind]:
            fields[key] = check(payload[key], _shown(key))
        _check_together(kind, fields)
        return fields
    except _Bad as bad:
        raise MessageError("%s: %s" % (name, bad)) from None


# -- the payloads ---------------------------------------------------------------------------

def _build(table: str, kind: str, values: dict[str, Any]) -> bytes:
    name = topic(table, kind)
    payload = {"v": VERSION, "table": table}
    payload.update(values)
    fields = _check_fields(name, table, kind, payload)
    data = json.dumps(fields, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_PAYLOAD:
        raise MessageError("%s: the payload is %d bytes, more than %d" % (name, len(data), MAX_PAYLOAD))
    return data


def presence(table: str, status: str, firmware: str, at: float) -> bytes:
    """`table` is "online" or "offline" (the will a table leaves with the broker is its
    offline presence, timed when the link was made), running `firmware`."""
    return _build(table, "presence", {"status": status, "firmware": firmware, "at": at})


def state(table: str, *, game: str | None, status: str, variant: str, pits: Sequence[int],
          uur: Sequence[int | None], captured: Sequence[int], to_move: int, ply: int,
          players: Sequence[str], faults: Sequence[str], at: float) -> bytes:
    """The table's board now: `status` "idle", "playing", "fault" or "finished", the seeds in
    each pit (South's row first), the Uurs' owners (0, 1 or None per pit), the stores, who is
    to move, the ply, the players (South, North) and the faulty places' descriptions."""
    return _build(table, "state", {
        "game": game, "status": status, "variant": variant, "pits": _as_list(pits),
        "uur": _as_list(uur), "captured": _as_list(captured), "to_move": to_move, "ply": ply,
        "players": _as_list(players), "faults": _as_list(faults), "at": at})


def move(table: str, game: str, ply: int, move: int, at: float) -> bytes:
    """Ply `ply` (1, 2, ...) of `game` was the mover's pit `move` (1..n from their left)."""
    return _build(table, "move", {"game": game, "ply": ply, "move": move, "at": at})


def result(table: str, game: str, south_points: float, south_seeds: int, north_seeds: int,
           record: str, at: float) -> bytes:
    """How `game` ended (South's points 1, 0.5 or 0; the seeds each side ended with) and its
    record (controller.rules.record), for the server to replay."""
    return _build(table, "result", {
        "game": game, "south_points": south_points, "south_seeds": south_seeds,
        "north_seeds": north_seeds, "record": record, "at": at})


def assignment(table: str, game: str | None, round: int, board: int, variant: str,
               options: Mapping[str, Any], players: Sequence[str], event: str,
               format: str = "game", moves: Sequence[int] = ()) -> bytes:
    """What `table` plays: `game` (= game_id(event, round, board)), the variant and its
    options, one game or a match of hands (`format` "game" or "hands", docs/rules.md 2.1), the
    players (South, North), and the `moves` played so far (a game the arbiter moved here from
    a board that failed carries on from them). A table with nothing to play gets game None,
    board 0 and no moves (round: the current round, 0 before the first)."""
    return _build(table, "assignment", {
        "game": game, "round": round, "board": board, "variant": variant,
        "options": dict(options) if isinstance(options, Mapping) else options,
        "format": format, "players": _as_list(players), "event": event,
        "moves": _as_list(moves)})


def ack(table: str, game: str) -> bytes:
    """The server has recorded `game`'s result: `table` may stop sending it."""
    return _build(table, "ack", {"game": game})


# -- validation -----------------------------------------------------------------------------

def _no_constant(name: str) -> None:
    raise ValueError("%s is not a number JSON allows" % name)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError("the key %s appears twice" % _shown(key))
        result[key] = value
    return result


def validate(name: str, payload: bytes) -> Message:
    """The message `payload` on topic `name`, checked from its bytes up, or MessageError."""
    table, kind = parse_topic(name)
    if not isinstance(payload, (bytes, bytearray)):
        raise MessageError("%s: the payload is %s, not bytes" % (name, _kind_of(payload)))
    if len(payload) > MAX_PAYLOAD:
        raise MessageError("%s: the payload is %d bytes, more than %d"
                           % (name, len(payload), MAX_PAYLOAD))
    try:
        text = bytes(payload).decode("utf-8")
    except UnicodeDecodeError as error:
        raise MessageError("%s: the payload is not UTF-8 (byte %d)" % (name, error.start)) from None
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except RecursionError:
        raise MessageError("%s: the payload nests too deep" % name) from None
    except ValueError as error:          # json.JSONDecodeError and the hooks' errors
        raise MessageError("%s: the payload is not JSON (%s)" % (name, error)) from None
    return Message(table, kind, _check_fields(name, table, kind, data))


# -- helpers --------------------------------------------------------------------------------

def _as_list(value: Any) -> Any:
    """A tuple as the list JSON makes of it; anything else as it is, for the checks to judge."""
    return list(value) if isinstance(value, tuple) else value


def _shown(value: Any) -> str:
    """A value as an error shows it: JSON's spelling, cut short when long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__
