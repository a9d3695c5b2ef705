"""The tournament server: results from the boards, pairings, standings, the live feed (host-only).

    store = Store("club-night.sqlite")
    server = TournamentServer(store, "mqtt://127.0.0.1:1883", "server", password)
    server.start()                   # subscribes to every table
    server.pair_next_round()         # pairs, assigns tables, tells each table its game
    ...                              # results arrive from the boards by themselves
    server.stop()

Everything a table sends arrives on paho's network thread and is handled there, in this order:
`messages.validate` checks its form; the table must be one of the event's; a result must be for
the game the table was given, and its record, replayed by the rules engine, must give the
points and seeds it claims and name the assigned players and variant. Whatever fails is
rejected: logged, counted, kept in the store for the arbiter, and nothing else changes. A
result that passes is recorded in one SQLite transaction keyed by the game (a copy of one
recorded already is a duplicate, counted and acknowledged again), and the table is sent its ack.

The live feed (`self.live`, a `controller.web.companion.Publisher`) holds the latest of each of
these, as JSON, for the live pages: "event" (settings and counters), "pairings", "standings",
and "table/<id>" for every table (presence, status, its board, the last move, and why it is
retired if it is).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.rules import Game
from controller.rules.match import Match
from controller.rules.record import read as read_record
from controller.rules.variants import RulesError, get_variant, resolve_options
from controller.tournament import messages
from controller.tournament.audit import LIMITED, RateLimit, Refusal, Refusals
from controller.tournament.credentials import SERVER_CLIENT_ID
from controller.tournament.evidence import Line
from controller.tournament.messages import DELIVERY, Message, MessageError
from controller.tournament.model import DRAW, NORTH_WIN, SOUTH_WIN, Pairing, Result
from controller.tournament.pairing import round_robin, swiss_round
from controller.tournament.rows import GameRow, ResultConflict, StoreError
from controller.tournament.standings import standings
from controller.tournament.store import Store
from controller.tournament.table import broker_address
from controller.web.companion import Publisher

log = logging.getLogger(__name__)

BACKUPS = "backups"         # beside the event's file: a copy as each round starts

# What the server reads of one table, at most: MESSAGE_RATE messages a second on average and
# MESSAGE_BURST at once (a real table sends a move and a state a ply, seconds apart, and its
# presence, state and unacknowledged results again when it reconnects), of which results,
# whose records the server replays, RESULT_RATE and RESULT_BURST. What is over is dropped
# unread, counted and summarised (`audit.Refusals`): one table's flood cannot hold up the
# others' moves on their way to the live pages.
MESSAGE_RATE, MESSAGE_BURST = 20.0, 100
RESULT_RATE, RESULT_BURST = 0.5, 10

# a table's status as the store keeps it, from what its state message says
STORE_STATUS = {"idle": "online", "finished": "online", "playing": "playing", "fault": "fault"}


class Stale(Exception):
    """A table's state of a game the arbiter has moved from it: out of date, not false."""


class RecordMismatch(ValueError):
    """A result whose record does not give what the result claims; the text says what."""


class Replay(NamedTuple):
    """A record replayed: its result, and a game's moves (None for a match of hands)."""

    result: Result
    moves: list[int] | None


def result_of_record(text: str, variant: str, options: dict[str, Any],
                     players: tuple[str, str]) -> Result:
    """Replay a game or match record with the rules engine and return its result: South's
    points and each side's seeds (a game's final scores; a match's holdings at its end).
    RecordMismatch when it is not a finished game of `variant` with `options` between
    `players` (South, North)."""
    return replay_record(text, variant, options, players).result


def replay_record(text: str, variant: str, options: dict[str, Any],
                  players: tuple[str, str]) -> Replay:
    """`result_of_record`, with the game's moves as well."""
    try:
        item, tags = read_record(text)
    except RulesError as error:
        raise RecordMismatch("the record cannot be read: %s" % error) from None
    rules = item.rules
    if rules.name != variant or rules.options != resolve_options(get_variant(variant), options):
        raise RecordMismatch("the record is of %s %s, not the event's %s %s" % (
            rules.name, " ".join(rules.option_texts()) or "(default options)", variant,
            options or "(default options)"))
    named = (tags[0].get("South"), tags[0].get("North"))
    if named != tuple(players):
        raise RecordMismatch("the record's players are %s and %s, not %s and %s" % (
            named + tuple(players)))
    if isinstance(item, Match):
        if not item.over:
            raise RecordMismatch("the match in the record is not over")
        seeds = item.holdings
        winner = item.winner
    else:
        if not item.over:
            raise RecordMismatch("the game in the record is not over")
        seeds = item.scores
        winner = item.winner()
    points = DRAW if winner is None else SOUTH_WIN if winner == 0 else NORTH_WIN
    return Replay(Result(points, seeds[0], seeds[1]),
                  None if isinstance(item, Match) else list(item.moves))


def first_difference(live: list[int], recorded: list[int]) -> int | None:
    """The first ply (1 on) at which a record's moves part from those its table reported live,
    or None when they are the same moves. A record that runs on past the moves reported, or
    stops short of them, parts from them where one ends (a board sends every move before its
    result, again from its journal after a power cut: none is missing at the end).

    >>> first_difference([3, 5, 1], [3, 5, 1]), first_difference([3, 5, 1], [3, 4, 1])
    (None, 2)
    >>> first_difference([3, 5, 1], [3, 5]), first_difference([3, 5], [3, 5, 1])
    (3, 3)
    >>> first_difference([], [4])
    1
    """
    for ply, (said, kept) in enumerate(zip(live, recorded), 1):
        if said != kept:
            return ply
    return None if len(live) == len(recorded) else min(len(live), len(recorded)) + 1


def held_reason(line: Line, recorded: list[int]) -> str | None:
    """Why a board's result for a game whose evidence adds up to `line` is held for the
    arbiter, its record's moves being `recorded`, in players' words; None when it counts.

    >>> from controller.tournament.evidence import Takeback
    >>> held_reason(Line([3, 5], 0, [], 0), [3, 5]) is None
    True
    >>> held_reason(Line([], 0, [], 0), [3, 5])
    'the board reported no moves of this game before its result'
    >>> held_reason(Line([3, 5], 0, [], 0), [3, 5, 1])
    'the record runs on past move 2, the last the board reported'
    >>> held_reason(Line([3, 5, 2], 0, [Takeback(1, 3, "table-1")], 0), [3, 5, 2])
    'table-1 took back 3 moves at once, from move 1: players take back a move or two; someone else may have sent them'
    """
    live = line.moves
    ply = first_difference(live, recorded)
    if ply is not None:
        if not live:
            return "the board reported no moves of this game before its result"
        if ply > len(live):
            return "the record runs on past move %d, the last the board reported" % len(live)
        if ply > len(recorded):
            return "the record stops at move %d; the board reported %d" % (
                len(recorded), len(live))
        return "the record parts from the board's moves at move %d (the board reported " \
            "pit %d, the record has pit %d)" % (ply, live[ply - 1], recorded[ply - 1])
    doubts = line.doubts()
    return "; ".join(doubts) if doubts else None


class TournamentServer:
    """The event in `store`, served over the broker at `url` as `username` (the server's
    credentials). `auto_pair`: pair the next round as soon as every result of the current one
    is in (a demo; at a real event the arbiter decides when)."""

    def __init__(self, store: Store, url: str, username: str | None = None,
                 password: str | None = None, *, auto_pair: bool = False,
                 clock: Callable[[], float] = time.time, keepalive: int = 15,
                 publisher: Publisher | None = None, refusals: Refusals | None = None) -> None:
        self.store = store
        self.auto_pair = auto_pair
        self.clock = clock
        self.counters: Counter[str] = Counter()
        self.live = publisher if publisher is not None else Publisher(first={"type": "hello"})
        self._lock = threading.RLock()      # pairing and recording, one at a time
        self._tables: dict[str, dict[str, Any]] = {}    # the live view of each table
        self._connected = threading.Event()
        self._stopping = False
        # what the broker refused (its log or its hooks report them): counted, and shown
        self.refusals = refusals if refusals is not None else Refusals()
        self._refusals_shown: threading.Timer | None = None
        self._refusals_lock = threading.Lock()
        self.refusals.on_change = self._refused
        self._messages_limit = RateLimit(MESSAGE_RATE, MESSAGE_BURST)
        self._results_limit = RateLimit(RESULT_RATE, RESULT_BURST)
        host, port, tls = broker_address(url)
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=SERVER_CLIENT_ID,
                             clean_session=True, protocol=mqtt.MQTTv311)
        if username is not None:
            client.username_pw_set(username, password)
        if tls:
            client.tls_set()
        client.reconnect_delay_set(0.5, 10.0)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        self._address = (host, port, keepalive)
        retired = store.retired()
        for row in store.tables():
            self._tables[row.id] = {"type": "table", "table": row.id, "presence": "offline",
                                    "status": row.status if row.status != "online" else "offline",
                                    "state": None, "last_move": None, "at": row.seen_at,
                                    "retired": retired[row.id].reason if row.id in retired
                                    else None}
        self._publish_all()

    # --- running ----------------------------------------------------------------------------

    def start(self, wait: float | None = 10.0) -> None:
        """Connect (paho's thread keeps the connection: it reconnects by itself); with `wait`,
        wait that long for the broker to accept, or raise TimeoutError."""
        host, port, keepalive = self._address
        self._client.connect_async(host, port, keepalive=keepalive)
        self._client.loop_start()
        if wait is not None and not self._connected.wait(wait):
            raise TimeoutError("the broker at %s:%d did not accept the server within %g s"
                               % (host, port, wait))

    def stop(self) -> None:
        self._stopping = True
        if self._refusals_shown is not None:
            self._refusals_shown.cancel()
        self._client.disconnect()
        self._client.loop_stop()
        self._connected.clear()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                    properties: Any) -> None:
        if reason_code.is_failure:
            log.error("the broker refused the server: %s", reason_code)
            return
        client.subscribe([(messages.topic_filter(kind), DELIVERY[kind].qos)
                          for kind in messages.TABLE_KINDS])
        self._connected.set()
        self._publish_event()           # the pages: the broker is back
        self._announce_round()          # retained already; again in case the broker lost them

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        self._connected.clear()
        if not self._stopping:
            log.warning("the broker went away (%s); reconnecting", reason_code)
            self._publish_event()       # the pages say the tables cannot reach the server

    def _refused(self) -> None:
        """The broker refused something: the pages' counts follow within a second (at most
        once a second, whatever a flood of refusals)."""
        # (called from the broker's own thread: never waits for a result being recorded)
        with self._refusals_lock:
            if self._refusals_shown is not None or self._stopping:
                return
            self._refusals_shown = threading.Timer(1.0, self._show_refusals)
            self._refusals_shown.daemon = True
            self._refusals_shown.start()

    def _show_refusals(self) -> None:
        with self._refusals_lock:
            self._refusals_shown = None
        self._publish_event()

    # --- what arrives -----------------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: Any, incoming: mqtt.MQTTMessage) -> None:
        if not incoming.payload:
            return                      # a retained message being cleared
        self.counters["received"] += 1
        try:
            if self._within_limits(incoming.topic):
                self.handle(incoming.topic, incoming.payload)
        except Exception:               # paho's thread must live on: say so, drop the message
            log.exception("handling %s failed", incoming.topic)
            self.counters["errors"] += 1

    def _within_limits(self, topic: str) -> bool:
        """Whether a message on `topic` is within its table's rate limits; one over them is
        counted (the event's "limited" counter, the arbiter's list) and not read."""
        table, kind = self._table_of(topic)
        now = time.monotonic()
        if self._messages_limit.allow(table, now) and (
                kind != "result" or self._results_limit.allow(table, now)):
            return True
        self.counters["limited"] += 1
        self.refusals(Refusal(LIMITED, table or "another", kind))
        return False

    def _table_of(self, topic: str) -> tuple[str, str]:
        """The table (one of the event's, or "") and kind a message's topic names."""
        try:
            table, kind = messages.parse_topic(topic)
        except MessageError:
            return "", "?"
        return (table if table in self._tables else ""), kind

    def handle(self, topic: str, payload: bytes) -> bool:
        """Handle one message from a table; False when it was rejected."""
        try:
            message = messages.validate(topic, payload)
            if message.kind not in messages.TABLE_KINDS:
                raise MessageError("%s: a table does not send %s messages" % (topic, message.kind))
            if message.table not in self._tables:
                raise MessageError("%s: %s is not a table of this event" % (topic, message.table))
            with self._lock:
                getattr(self, "_" + message.kind)(message)
        except (MessageError, RecordMismatch, StoreError) as error:
            self._reject(topic, error, payload)
            return False
        return True

    def _reject(self, topic: str, error: Exception, payload: bytes) -> None:
        reason = type(error).__name__
        if isinstance(error, ResultConflict):
            reason = "conflict"
        self.counters["rejected"] += 1
        self.counters["rejected " + reason] += 1
        log.warning("rejected %s: %s", topic, error)
        try:
            self.store.log_rejected(topic, reason, payload[:1000], str(error),
                                    self._table_of(topic)[0])
        except StoreError:
            log.exception("could not keep the rejected message")
        self._publish_event()

    def _presence(self, message: Message) -> None:
        fields = message.fields
        view = self._tables[message.table]
        view["presence"] = fields["status"]
        if fields["status"] == "offline":
            view["status"] = "offline"
        elif view["status"] == "offline":
            state = view["state"]
            view["status"] = STORE_STATUS[state["status"]] if state else "online"
        view["at"] = fields["at"]
        self.store.set_table_status(message.table, view["status"], self.clock())
        self._publish_table(message.table)

    def _state(self, message: Message) -> None:
        fields = dict(message.fields)
        del fields["v"], fields["table"]
        try:
            self._check_state(message.table, fields)
        except Stale:
            # a board back from a failure says where it was before it hears that its game
            # went to another table: its next state says it waits
            log.info("%s: a state of %s, moved to another table: passed over", message.table,
                     fields["game"])
            return
        view = self._tables[message.table]
        view["state"] = fields
        if view["presence"] != "offline" or view["status"] != "offline":
            view["presence"] = "online"
            view["status"] = STORE_STATUS[fields["status"]]
        view["at"] = fields["at"]
        self.store.set_table_status(message.table, view["status"], self.clock())
        game = fields["game"]
        if fields["status"] == "playing" and game is not None:
            try:
                if self.store.mark_playing(game):
                    self._publish_pairings()
            except StoreError:
                pass                    # a game with a result already: a late state
        self._publish_table(message.table)

    def _move(self, message: Message) -> None:
        fields = message.fields
        if self.store.event().match_format == "game":
            # kept for a game the arbiter may have to move to another table (a match's plies
            # start again each hand: a match moves only before its first move)
            self.store.record_move(fields["game"], message.table, fields["ply"], fields["move"],
                                   fields["at"])
        view = self._tables[message.table]
        view["last_move"] = {"game": fields["game"], "ply": fields["ply"],
                             "move": fields["move"], "at": fields["at"]}
        self._publish_table(message.table)

    def _result(self, message: Message) -> None:
        fields = message.fields
        row = self._assigned_game(message.table, fields["game"])
        event = self.store.event()
        players = self._names()
        claimed = Result(fields["south_points"], fields["south_seeds"], fields["north_seeds"])
        replayed = replay_record(fields["record"], event.variant, event.options, (
            players[row.pairing.south], players[row.pairing.north]))
        if replayed.result != claimed:
            raise RecordMismatch("the result claims %s, the record gives %s" % (
                _result_words(claimed), _result_words(replayed.result)))
        if replayed.moves is not None and self._held(message.table, row, claimed,
                                                     fields["record"], replayed.moves):
            return
        try:
            recorded = self.store.record_result(row.id, claimed, fields["record"], "board")
        except ResultConflict:
            # delivered all the same: the arbiter decides between the two (the rejected
            # messages show both), and the table stops sending it
            self._send(message.table, "ack", messages.ack(message.table, row.id))
            raise
        if recorded:
            self.counters["recorded"] += 1
            log.info("result of %s (%s): %s", row.id, message.table, _result_words(claimed))
        else:
            self.counters["duplicates"] += 1
        self._send(message.table, "ack", messages.ack(message.table, row.id))
        self._publish_pairings()
        self._publish_standings()
        self._publish_event()
        if self.auto_pair and self.round_complete() and self.store.last_round() < event.rounds:
            self.pair_next_round()

    def _check_state(self, table: str, fields: dict[str, Any]) -> None:
        """A state of a game says what its assignment says (the game is the table's, of the
        event's variant, between its players), or MessageError: the live pages show no
        names or variant a table made up."""
        if fields["game"] is None:
            return                      # idle: its board shows whatever it shows, no game
        try:
            row = self.store.game(fields["game"])
        except StoreError:
            row = None                  # no such game: _assigned_game says so
        if row is not None and row.table != table and any(
                moved.game_id == row.id and moved.from_table == table
                for moved in self.store.relocations()):
            raise Stale()
        row = self._assigned_game(table, fields["game"], "a state", row)
        variant = self.store.event().variant
        if fields["variant"] != variant:
            raise MessageError("%s sent a state of %s in %s, not the event's %s" % (
                table, row.id, fields["variant"], variant))
        names = self._names()
        players = [names[row.pairing.south], names[row.pairing.north]]
        if fields["players"] != players:
            raise MessageError("%s sent a state of %s naming %s and %s, not its players %s "
                               "and %s" % (table, row.id, *fields["players"], *players))

    def _held(self, table: str, row: GameRow, claimed: Result, record: str,
              recorded: list[int]) -> bool:
        """Whether the result of `row` is held for the arbiter (`held_reason` says why): not
        recorded; acknowledged unless it merely runs on past the moves reported (see below),
        and the arbiter decides, with both lines side by side on the arbiter's page."""
        if row.result is not None:
            return False                # recorded already: a copy, or a conflict, as ever
        line = self.store.line(row.id)
        reason = held_reason(line, recorded)
        if reason is None:
            return False
        live = line.moves
        ply = first_difference(live, recorded) or line.doubtful()[0].ply
        if self.store.hold_result(row.id, table, claimed, record, live, recorded, ply, reason):
            self.counters["held"] += 1
            log.warning("held for the arbiter: the result of %s (%s), %s: %s", row.id, table,
                        _result_words(claimed), reason)
        else:
            self.counters["duplicates"] += 1
        # a record running on past the moves reported, with nothing else amiss, is most
        # likely a result that overtook its moves (retained by the broker while the server
        # was away, or sent by a board back from a power cut): not acknowledged, so that the
        # board sends it again after the game's moves, and it counts then; otherwise the
        # table has done its part and the arbiter decides
        if not (len(recorded) > len(live) and recorded[:len(live)] == live
                and not line.doubts()):
            self._send(table, "ack", messages.ack(table, row.id))
        self._publish_pairings()
        self._publish_event()
        return True

    def accept_held(self, game: str, arbiter: str) -> Result:
        """The arbiter accepts the result held for `game`: recorded as its board sent it,
        confirmed by `arbiter`. StoreError says why not."""
        with self._lock:
            result = self.store.accept_held(game, arbiter)
            log.info("%s accepted the held result of %s: %s", arbiter, game,
                     _result_words(result))
        self._publish_pairings()
        self._publish_standings()
        self._publish_event()
        event = self.store.event()
        if self.auto_pair and self.round_complete() and self.store.last_round() < event.rounds:
            self.pair_next_round()
        return result

    def _assigned_game(self, table: str, game: str, what: str = "a result",
                       row: GameRow | None = None) -> GameRow:
        """The game `table` was given as `game` (its `row`, if read already), or MessageError
        (`what` it sent for it)."""
        try:
            row = row if row is not None else self.store.game(game)
        except StoreError:
            raise MessageError("%s sent %s for %s, a game this event does not have"
                               % (table, what, game)) from None
        if row.table != table:
            raise MessageError("%s sent %s for %s, which is played at %s" % (
                table, what, game, row.table or "no table (a bye)"))
        return row

    # --- the arbiter's side -----------------------------------------------------------------

    def round_complete(self) -> bool:
        """Whether every game of the latest round has a result (True before round 1)."""
        return all(row.result is not None for row in self.store.games(self.store.last_round()))

    def pair_next_round(self) -> list[Pairing]:
        """Pair the next round, give its games to the tables in play (top board on the first;
        a retired table gets none), record it and tell every table what it plays. StoreError
        or ValueError say why not."""
        with self._lock:
            store = self.store
            event = store.event()
            number = store.last_round() + 1
            if number > event.rounds:
                raise StoreError("all %d rounds are paired" % event.rounds)
            if number == 1:
                store.fix_numbers()
            if event.system == "round-robin":
                pairings = round_robin(store.players())[number - 1]
            else:
                withdrawn = store.withdrawals()
                absent = [player for player, since in withdrawn.items() if since <= number]
                pairings = swiss_round(store.players(), store.history(), number,
                                       total_rounds=event.rounds, absent=absent,
                                       bye_points=event.bye_points)
            boards = [pairing.board for pairing in pairings if not pairing.is_bye]
            retired = store.retired()
            tables = sorted((table for table in self._tables if table not in retired),
                            key=_natural)
            if len(tables) < len(boards):
                raise StoreError("round %d has %d games and the event %d tables in play%s: "
                                 "register more tables" % (
                                     number, len(boards), len(tables),
                                     " (retired: %s)" % ", ".join(retired) if retired else ""))
            store.add_round(number, pairings, dict(zip(boards, tables)))
            log.info("round %d paired: %d games", number, len(boards))
            self._keep_backup(number)
        self._announce_round()
        self._publish_pairings()
        self._publish_event()
        return pairings

    def _keep_backup(self, number: int) -> None:
        """A copy of the event as round `number` starts, beside its file: backups/round-N.sqlite
        (the last good one is the way forward from a damaged file). An event in memory keeps
        none; a copy that cannot be written is logged, and the round goes on."""
        path = self.store.path
        if path == ":memory:" or path.startswith("file:"):
            return
        folder = Path(path).parent / BACKUPS
        try:
            folder.mkdir(exist_ok=True)
            self.store.backup(folder / ("round-%d.sqlite" % number))
        except (OSError, sqlite3.Error) as error:
            log.error("round %d: the event's backup could not be written in %s: %s",
                      number, folder, error)

    def confirm(self, game: str, arbiter: str) -> None:
        """The arbiter confirms a board's result."""
        with self._lock:
            self.store.confirm(game, arbiter)
        self._publish_pairings()

    def correct(self, game: str, result: Result, arbiter: str, reason: str) -> None:
        """The arbiter sets a game's result (kept with the old one, who and why)."""
        with self._lock:
            self.store.correct(game, result, arbiter, reason)
        self._publish_pairings()
        self._publish_standings()
        if self.auto_pair and self.round_complete() and \
                self.store.last_round() < self.store.event().rounds:
            self.pair_next_round()

    def move_game(self, game: str, table: str, arbiter: str, reason: str) -> list[int]:
        """The arbiter moves `game`, whose board failed, to `table` (one with no game in its
        round), where it carries on from the moves its board reported; the board it leaves is
        told it has none. Returns those moves. StoreError says why not."""
        with self._lock:
            store = self.store
            row = store.game(game)
            moves = self._moves_so_far(row)
            if store.event().match_format == "hands" and (moves or row.status == "playing"):
                raise StoreError("game %s is a match of hands under way: a match moves to "
                                 "another table only before its first move (enter its result "
                                 "instead)" % game)
            old = store.move_game(game, table, arbiter, reason, len(moves))
            log.info("%s moved %s from %s to %s at ply %d: %s", arbiter, game, old, table,
                     len(moves), reason)
        self._announce_round()
        self._publish_pairings()
        return moves

    def _moves_so_far(self, row: GameRow) -> list[int]:
        """The moves of a game without a result that its board reported, as far as they
        replay (and no further than its table's last state says it had played)."""
        if row.result is not None or row.table is None:
            return []
        moves = self.store.moves(row.id)
        state = self._tables[row.table]["state"]
        if state is not None and state["game"] == row.id:
            moves = moves[:state["ply"]]
        event = self.store.event()
        game = Game(event.variant, event.options or None)
        for ply, move in enumerate(moves):
            try:
                game.push(move)
            except RulesError:
                return moves[:ply]
        return moves

    def retire_table(self, table: str, arbiter: str, reason: str) -> None:
        """The arbiter takes `table` out of play (its board is broken; see Store.retire_table)."""
        with self._lock:
            self.store.retire_table(table, arbiter, reason)
            log.info("%s retired %s: %s", arbiter, table, reason)
            self._retired(table, reason)
        self._publish_event()

    def return_table(self, table: str, arbiter: str) -> None:
        """The arbiter puts a retired `table` back into play, from the next round."""
        with self._lock:
            self.store.return_table(table)
            log.info("%s returned %s to play", arbiter, table)
            self._retired(table, None)
        self._publish_event()

    def _retired(self, table: str, reason: str | None) -> None:
        """Show on the live pages why `table` is out of play (None: it is in play)."""
        if table in self._tables:           # (a table registered since the server started
            self._tables[table]["retired"] = reason     # is known after its restart)
            self._publish_table(table)

    def _announce_round(self) -> None:
        """Tell every table what it plays in the latest round (retained).

        One announcement at a time, with the pairing: the one a (re)connection makes on
        paho's thread read round 0 while the arbiter paired round 1, and, queued after that
        round's, left "no game" retained for the tables (a test caught it)."""
        with self._lock:
            self._announce_latest_round()

    def _announce_latest_round(self) -> None:
        store = self.store
        event = store.event()
        number = store.last_round()
        games = {row.table: row for row in store.games(number) if row.table is not None}
        names = self._names()
        for table in self._tables:
            row = games.get(table)
            if row is None:
                payload = messages.assignment(table, None, number, 0, event.variant,
                                              event.options, ["", ""], event.name,
                                              event.match_format)
            else:
                pairing = row.pairing
                payload = messages.assignment(
                    table, row.id, number, pairing.board, event.variant, event.options,
                    [names[pairing.south], names[pairing.north]], event.name,
                    event.match_format, self._moves_so_far(row))
            self._send(table, "assignment", payload)

    def _send(self, table: str, kind: str, payload: bytes) -> None:
        delivery = DELIVERY[kind]
        self._client.publish(messages.topic(table, kind), payload, qos=delivery.qos,
                             retain=delivery.retain)

    def _names(self) -> dict[int, str]:
        return {player.number: player.name for player in self.store.players()}

    # --- the live feed ----------------------------------------------------------------------

    def table_view(self, table: str) -> dict[str, Any]:
        """What the live pages show of `table` (a copy): its "presence" ("online",
        "offline"), "status", latest "state" and "last_move". KeyError for no such table."""
        return dict(self._tables[table])

    def snapshot(self) -> dict[str, Any]:
        """Everything the live pages show, as one dict (also `GET /api/live`)."""
        tables = {table: dict(view) for table, view in self._tables.items()}
        return {"event": self._event_view(), "pairings": self._pairings_view(),
                "standings": self._standings_view(), "tables": tables}

    def _publish_all(self) -> None:
        self._publish_event()
        self._publish_pairings()
        self._publish_standings()
        for table in self._tables:
            self._publish_table(table)

    def _publish_table(self, table: str) -> None:
        self.live.publish(self._tables[table], "table/" + table)

    def _publish_event(self) -> None:
        self.live.publish(self._event_view(), "event")

    def _publish_pairings(self) -> None:
        self.live.publish(self._pairings_view(), "pairings")

    def _publish_standings(self) -> None:
        self.live.publish(self._standings_view(), "standings")

    def _event_view(self) -> dict[str, Any]:
        event = self.store.event()
        return {"type": "event", "name": event.name, "variant": event.variant,
                "options": event.options, "system": event.system, "rounds": event.rounds,
                "format": event.match_format, "round": self.store.last_round(),
                "counters": dict(self.counters), "broker": self.connected,
                "refused": self.refusals.counts()}

    def _pairings_view(self) -> dict[str, Any]:
        names = self._names()
        rounds: dict[int, list[dict[str, Any]]] = {}
        for row in self.store.games():
            pairing, result = row.pairing, row.result
            rounds.setdefault(pairing.round, []).append({
                "game": row.id, "board": pairing.board, "table": row.table,
                "south": names[pairing.south],
                "north": None if pairing.is_bye else names[pairing.north],
                "status": row.status, "source": row.source,
                "result": None if result is None else _result_words(result, pairing.is_bye)})
        return {"type": "pairings",
                "rounds": [{"round": number, "games": games}
                           for number, games in sorted(rounds.items())]}

    def _standings_view(self) -> dict[str, Any]:
        return {"type": "standings", "tiebreaks": list(self.store.event().tie_breaks),
                "rows": standings_rows(self.store)}


def standings_rows(store: Store) -> list[dict[str, Any]]:
    """The standings of the event in `store`, best first, as plain dicts."""
    event = store.event()
    rows = standings(store.players(), store.history(), event.bye_points, event.tie_breaks)
    return [{"rank": row.rank, "number": row.player.number, "name": row.player.name,
             "points": row.points, "games": row.games, "wins": row.wins, "draws": row.draws,
             "losses": row.losses, "buchholz": row.buchholz,
             "sonneborn_berger": row.sonneborn_berger, "seed_difference": row.seed_difference,
             "direct_encounter": row.direct_encounter} for row in rows]


def _result_words(result: Result, bye: bool = False) -> str:
    points = {SOUTH_WIN: "1-0", DRAW: "½-½", NORTH_WIN: "0-1"}[result.south_points]
    if bye:
        return "bye (%g)" % result.south_points
    return "%s (%d-%d)" % (points, result.south_seeds, result.north_seeds)


def _natural(text: str) -> tuple:
    """table-2 before table-10."""
    head = text.rstrip("0123456789")
    tail = text[len(head):]
    return (head, int(tail) if tail else -1)
