"""A table's link to the event's broker (paho-mqtt): presence, state, moves, results, assignments.

    link = TableLink("table-3", "mqtt://192.168.1.10:1883", "table-3", password,
                     state_dir="/var/lib/layli", firmware="0.1.0", on_assignment=start_game)
    link.publish_state({"game": game, "status": "playing", ...})
    link.publish_move(game, ply=7, move=4)
    link.publish_result(game, 1, 30, 18, record)    # kept on disk until the server's ack
    link.close()                                     # "offline", cleanly

The link connects at once and keeps itself connected: paho's network thread reconnects with
a growing delay (`reconnect_delay`) whenever the broker goes away, and a table may be created
while the broker is still down. The broker holds the table's last will, its presence
"offline" (retained), and publishes it when the connection dies without a goodbye -- a power
cut, a pulled cable -- or when nothing has come from it for 1.5 keep-alives (a network gone
quiet; Mosquitto 2.0 looks every 5 s or so): the server sees the table go offline.

On every connection the table says "online" (retained), subscribes to its assignment and its
ack, and publishes again its latest state and every result the server has not acknowledged.
Results are kept in ``STATE_DIR/RESULTS_FILE``, written whole or not at all, before they are
sent: a table that loses power with a result unacknowledged sends it again when it comes
back, and goes on sending it (on each reconnect, and every `resend_every` seconds) until the
ack for that game arrives, each time after the game's moves again (from its record): the
server counts a result only when it equals the moves the board reported, and keeps moves and
results it has as copies, so copies are harmless.

Everything that arrives is checked with `messages.validate`; an invalid message (or one on
another table's topic) is logged, counted in `rejected` and otherwise ignored. An empty
payload is a retained message being cleared: ignored, not counted. `on_assignment` is called
with each new valid assignment, on paho's network thread: it should hand the work over
rather than do it there.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.tournament import messages
from controller.tournament.certificates import client_context
from controller.tournament.credentials import TABLE_CLIENT_PREFIX, write_private
from controller.tournament.messages import DELIVERY, Message, MessageError
from controller.rules import RulesError
from controller.rules.match import Match
from controller.rules.record import read as read_record

log = logging.getLogger(__name__)

RESULTS_FILE = "tournament-results.json"


class TableStateError(ValueError):
    """A table's kept results that cannot be read back; the text names the file and why."""


def broker_address(url: str) -> tuple[str, int, bool]:
    """(host, port, tls) of a broker's ``mqtt://host[:port]`` or ``mqtts://host[:port]``.

    >>> broker_address("mqtt://127.0.0.1:40123"), broker_address("mqtts://broker.local")
    (('127.0.0.1', 40123, False), ('broker.local', 8883, True))
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ValueError("broker address %r: %s" % (url, error)) from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or parts.path not in ("", "/"):
        raise ValueError("broker address %r is not mqtt://host[:port] or mqtts://host[:port]"
                         % (url,))
    tls = parts.scheme == "mqtts"
    return parts.hostname, port or (8883 if tls else 1883), tls


class TableLink:
    """One table's connection to the broker, as `table_id` (see the module's text).

    `username`/`password`: its broker credentials (the username is the table id). `clock`
    gives the "at" of what it publishes (seconds since the epoch). The rest is tuning:
    `keepalive` (s) bounds how long a dead table goes unnoticed; `reconnect_delay` is the
    first and the longest wait between attempts to reconnect; `resend_every` (s) is how often
    unacknowledged results are sent again while connected. `ca`: the event's certificate
    authority (PEM text) an ``mqtts://`` broker's certificate must come from (None: the
    system's authorities).
    """

    def __init__(self, table_id: str, url: str, username: str, password: str,
                 state_dir: str | os.PathLike, firmware: str = "",
                 on_assignment: Callable[[Message], None] | None = None,
                 clock: Callable[[], float] = time.time, *, keepalive: int = 15,
                 reconnect_delay: tuple[float, float] = (1.0, 30.0),
                 resend_every: float = 30.0, ca: str | None = None) -> None:
        self.table_id = table_id
        self.firmware = firmware
        self.on_assignment = on_assignment
        self.clock = clock
        self.resend_every = resend_every
        self._topics = {kind: messages.topic(table_id, kind) for kind in messages.KINDS}
        self._offline = messages.presence(table_id, "offline", firmware, clock())
        host, port, tls = broker_address(url)

        self.state_dir = Path(state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.results_path = self.state_dir / RESULTS_FILE
        self._lock = threading.Lock()
        self._pending: dict[str, bytes] = self._load_results()     # game -> result payload
        self._last_state: bytes | None = None
        self._assignment: Message | None = None
        self._connected = False
        self._last_error: str | None = None
        self.rejected = 0
        self._closing = threading.Event()
        self._announcing = threading.Lock()      # "online" on connect, "offline" on close

        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=TABLE_CLIENT_PREFIX + table_id,
                             clean_session=True, protocol=mqtt.MQTTv311)
        client.username_pw_set(username, password)
        if tls:
            client.tls_set_context(client_context(ca))
        # the broker publishes this if we vanish: "offline", retained, timed at this moment
        client.will_set(self._topics["presence"], self._offline, qos=1, retain=True)
        client.reconnect_delay_set(*reconnect_delay)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        self._client = client
        client.connect_async(host, port, keepalive=keepalive)
        client.loop_start()
        self._resender = threading.Thread(target=self._resend_loop, daemon=True,
                                          name="table-link-resend-" + table_id)
        self._resender.start()

    # -- what the table tells ----------------------------------------------------------------

    def publish_state(self, fields: Mapping[str, Any]) -> None:
        """The board now (messages.state's keys; "at" is the clock's unless given). Retained,
        and published again on every reconnect."""
        values = dict(fields)
        values.setdefault("at", self.clock())
        payload = messages.state(self.table_id, **values)
        with self._lock:
            self._last_state = payload
        self._publish("state", payload)

    def publish_move(self, game: str, ply: int, move: int) -> None:
        """Ply `ply` of `game` was pit `move` (not retained; sent once, QoS 1)."""
        self._publish("move", messages.move(self.table_id, game, ply, move, self.clock()))

    def publish_result(self, game: str, south_points: float, south_seeds: int,
                       north_seeds: int, record: str) -> None:
        """How `game` ended, with its record: kept on disk first, then sent, and sent again
        until the server acknowledges it (a new result for the same game replaces it)."""
        payload = messages.result(self.table_id, game, south_points, south_seeds, north_seeds,
                                  record, self.clock())
        with self._lock:
            self._pending.pop(game, None)
            self._pending[game] = payload
            self._save_results()
        self._publish("result", payload)

    def close(self, timeout: float = 5.0) -> None:
        """Say "offline" (retained) and disconnect cleanly; the results not acknowledged
        stay on disk for the next TableLink."""
        with self._announcing:               # not in the middle of saying "online"
            if self._closing.is_set():
                return
            self._closing.set()
            info = None
            if self._connected:
                info = self._client.publish(self._topics["presence"], self._offline, qos=1,
                                            retain=True)
        if info is not None:
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as error:     # the connection went meanwhile
                log.info("%s: offline presence not confirmed: %s", self.table_id, error)
        self._client.disconnect()
        self._client.loop_stop()
        self._resender.join(timeout)

    def abandon(self, timeout: float = 5.0) -> None:
        """Lose the connection as a power cut does: no "offline", no goodbye. The broker sees
        the connection drop and publishes the will ("offline"); the results not acknowledged
        stay on disk. For simulated tables and tests."""
        with self._announcing:
            if self._closing.is_set():
                return
            self._closing.set()
        sock = self._client.socket()
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)     # the connection ends here, mid-stream
            except OSError:                         # it had ended already
                pass
        self._client.loop_stop()
        self._resender.join(timeout)

    def __enter__(self) -> "TableLink":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- what the table knows ----------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether the broker accepted the current connection."""
        return self._connected

    @property
    def last_error(self) -> str | None:
        """Why the broker last refused the connection ("Not authorized", ...), or None."""
        return self._last_error

    @property
    def assignment(self) -> Message | None:
        """The latest valid assignment (None before the first)."""
        return self._assignment

    def pending_results(self) -> list[Message]:
        """The results not acknowledged yet, oldest first."""
        with self._lock:
            payloads = list(self._pending.values())
        return [messages.validate(self._topics["result"], payload) for payload in payloads]

    # -- paho's callbacks (its network thread) -----------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                    properties: Any) -> None:
        if reason_code.is_failure:
            self._last_error = str(reason_code)
            log.warning("%s: the broker refused the connection: %s", self.table_id, reason_code)
            return
        with self._announcing:
            if self._closing.is_set():           # closed or abandoned meanwhile: leave again
                client.disconnect()
                return
            self._connected = True
            self._last_error = None
            client.subscribe([(self._topics["assignment"], DELIVERY["assignment"].qos),
                              (self._topics["ack"], DELIVERY["ack"].qos)])
            self._publish("presence", messages.presence(self.table_id, "online", self.firmware,
                                                        self.clock()))
            with self._lock:
                state = self._last_state
            if state is not None:
                self._publish("state", state)
            self._resend_results()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason_code: Any,
                       properties: Any) -> None:
        self._connected = False
        if not self._closing.is_set():
            log.info("%s: disconnected (%s); reconnecting", self.table_id, reason_code)

    def _on_message(self, client: mqtt.Client, userdata: Any, incoming: mqtt.MQTTMessage) -> None:
        if not incoming.payload:
            log.debug("%s: %s cleared", self.table_id, incoming.topic)
            return
        try:
            if incoming.topic not in (self._topics["assignment"], self._topics["ack"]):
                raise MessageError("%s: not this table's assignment or ack" % incoming.topic)
            message = messages.validate(incoming.topic, incoming.payload)
        except MessageError as error:
            self.rejected += 1
            log.warning("%s: rejected: %s", self.table_id, error)
            return
        if message.kind == "ack":
            with self._lock:
                if self._pending.pop(message.fields["game"], None) is not None:
                    self._save_results()
                    log.info("%s: result of %s acknowledged", self.table_id,
                             message.fields["game"])
        elif self._assignment is None or message.fields != self._assignment.fields:
            self._assignment = message
            if self.on_assignment is not None:
                try:
                    self.on_assignment(message)
                except Exception:          # the network thread must live on
                    log.exception("%s: on_assignment failed", self.table_id)

    # -- sending -----------------------------------------------------------------------------

    def _publish(self, kind: str, payload: bytes) -> None:
        # Only while connected: whatever is missed meanwhile is sent on reconnect (the
        # latest state, the pending results) or not at all (presence is the broker's will).
        # Moves are the exception: paho keeps QoS 1 messages and sends them on reconnect.
        if self._connected or kind == "move":
            delivery = DELIVERY[kind]
            self._client.publish(self._topics[kind], payload, qos=delivery.qos,
                                 retain=delivery.retain)

    def _resend_results(self) -> None:
        """Every result not acknowledged, each after its game's moves again (its record's,
        ply 1 on): the server counts a result only when it equals the moves the board
        reported, and any the power or the network lost come so, in order, before it."""
        with self._lock:
            payloads = list(self._pending.values())
        for payload in payloads:
            fields = json.loads(payload)
            for ply, move in enumerate(_record_moves(fields["record"]), 1):
                self._publish("move", messages.move(self.table_id, fields["game"], ply, move,
                                                    self.clock()))
            self._publish("result", payload)

    def _resend_loop(self) -> None:
        while not self._closing.wait(self.resend_every):
            self._resend_results()

    # -- the results kept on disk ------------------------------------------------------------

    def _save_results(self) -> None:
        data = {"v": 1, "table": self.table_id,
                "results": [payload.decode("utf-8") for payload in self._pending.values()]}
        write_private(self.results_path, (json.dumps(data, ensure_ascii=False, indent=1)
                                          + "\n").encode("utf-8"))

    def _load_results(self) -> dict[str, bytes]:
        path = self.results_path
        if not path.exists():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise TableStateError("%s: cannot read the unacknowledged results: %s"
                                  % (path, error)) from None
        if (type(data) is not dict or set(data) != {"v", "table", "results"}
                or data["v"] != 1 or type(data["results"]) is not list):
            raise TableStateError('%s: not a results file ({"v": 1, "table": ..., "results": '
                                  '[...]})' % path)
        if data["table"] != self.table_id:
            raise TableStateError("%s: the results of table %r, not of %r"
                                  % (path, data["table"], self.table_id))
        pending: dict[str, bytes] = {}
        for index, text in enumerate(data["results"]):
            try:
                if not isinstance(text, str):
                    raise MessageError("not the text of a payload")
                payload = text.encode("utf-8")
                message = messages.validate(self._topics["result"], payload)
            except MessageError as error:
                raise TableStateError("%s: result %d: %s" % (path, index + 1, error)) from None
            pending[message.fields["game"]] = payload
        return pending


def _record_moves(record: str) -> list[int]:
    """The moves of a game's record (none for a match of hands: the server keeps no moves of
    those; nor for a record this board could not read back)."""
    try:
        played, _tags = read_record(record)
    except RulesError:
        return []
    return [] if isinstance(played, Match) else list(played.moves)
