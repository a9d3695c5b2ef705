"""`layli bench tournament`: how long a move takes from a table to a live page (host-only).

The issue's load target: 64 tables, one move a second each, and the 99th percentile of the
delay from a table's publish to the update reaching a live page's WebSocket under 250 ms.
The benchmark builds an event the way `layli tournament serve` runs one, and plays on it:

- a broker with per-table credentials and the ACL (`broker.Mosquitto`, the default when
  the program is installed, or `broker.EmbeddedBroker`);
- the server (`server.TournamentServer`) over a `store.Store` in a temporary directory: an
  event of 2 x `tables` players, the tables registered, round 1 paired;
- the live pages (`web.create_app`) served by uvicorn, and `clients` WebSocket clients on
  ``/ws`` in a thread of their own, as browsers would be;
- the tables, in a process of their own (at an event they are other computers: here they do
  not fight the server for Python's interpreter lock): a real `table.TableLink` per table,
  with its own MQTT connection and password, each playing its assigned game with random
  legal moves of a real `controller.rules.Game`, a move every 1/`rate` seconds (the tables
  spread evenly over that period, not all at once), `publish_move` then `publish_state`,
  and a new game when one ends.

With `flood`, one more table (``table-flood``, with its own password and no game) sends that
many small bad messages a second on its own topics for the whole run, as a player with that
table's password could (issue 17): the server drops them at its door over the table's rate
limit, and the figures are the other tables' delays all the same.

A move's payload says when it was published (its "at", `time.time()` on the table). For
every "table" message a client receives whose last move is one it has not seen, the delay
is the time it arrived less that "at". A move a client never saw is *coalesced* when the
client saw a later move of the same table (the server's feed keeps only the latest view of
each table, so two moves of one table within one send show only the second), *lost* when
it did not.

    report = bench(tables=64, seconds=60, rate=1.0, broker="mosquitto", clients=1, flood=0)
    report.delay_ms()        # {"p50": ..., "p90": ..., "p99": ..., "max": ...}
    report.target_met        # p99 under TARGET_MS

The exit status is 0 whether or not the target is met (it is a measurement); 1 when the
benchmark could not run (a broker that will not start, a table that cannot connect), 2 for
bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import logging
import math
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from websockets.asyncio.client import connect

from controller.commands.common import ranged
from controller.errors import UsageError
from controller.rules import Game
from controller.tournament.broker import BrokerError, EmbeddedBroker, Mosquitto, find_mosquitto
from controller.tournament.credentials import TABLE_CLIENT_PREFIX, Credentials
from controller.tournament.messages import topic
from controller.tournament.server import TournamentServer
from controller.tournament.store import Store
from controller.tournament.table import TableLink, broker_address
from controller.tournament.web import create_app
from controller.web.server import start_in_thread

log = logging.getLogger(__name__)

TARGET_MS = 250.0           # the target for the 99th percentile
BROKERS = ("mosquitto", "embedded")
EVENT = "bench"
VARIANT = "layli-goobalay"
CONNECT_SECONDS = 60.0      # for every table to connect and get its game; for the clients
DRAIN_SECONDS = 10.0        # after the last move, for the clients to see every table's last
FLOOD_TABLE = "table-flood"


class BenchError(RuntimeError):
    """The benchmark could not run (a part that did not start or answer); the text says which."""


class MoveKey(NamedTuple):
    """One published move, as a table sent it and as the live feed shows it (`last_move`)."""

    table: str
    game: str
    ply: int
    at: float


# --- the figures ----------------------------------------------------------------------------

def percentile(ordered: list[float], fraction: float) -> float:
    """The nearest-rank percentile of the sorted `ordered`: the smallest value with at least
    `fraction` (0 < fraction <= 1) of the values at or below it.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    """
    if not ordered:
        raise ValueError("a percentile of no values")
    if not 0 < fraction <= 1:
        raise ValueError("the fraction must be above 0 and at most 1, not %r" % (fraction,))
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def spread(values: list[float]) -> dict[str, float] | None:
    """{"p50", "p90", "p99", "max"} of `values` (None when there are none), rounded to
    0.01."""
    if not values:
        return None
    ordered = sorted(values)
    figures = {"p50": percentile(ordered, 0.50), "p90": percentile(ordered, 0.90),
               "p99": percentile(ordered, 0.99), "max": ordered[-1]}
    return {name: round(value, 2) for name, value in figures.items()}


@dataclass
class ClientTally:
    """What one live-page client made of the moves sent: each one `received` (seen as a
    table's new last move), `coalesced` (not seen, but a later move of its table was) or
    `lost`; `messages` is every WebSocket message it got."""

    received: int
    coalesced: int
    lost: int
    messages: int

    def as_json(self) -> dict[str, int]:
        return {"received": self.received, "coalesced": self.coalesced, "lost": self.lost,
                "messages": self.messages}


def tally(sent: list[MoveKey], seen: dict[MoveKey, float], messages: int = 0) -> ClientTally:
    """Sort every move of `sent` (in the order each table sent them) by what the client that
    saw `seen` (move -> when it arrived) made of it."""
    latest: dict[str, int] = {}             # table -> index in `sent` of its latest move seen
    for index, key in enumerate(sent):
        if key in seen:
            latest[key.table] = index
    received = coalesced = lost = 0
    for index, key in enumerate(sent):
        if key in seen:
            received += 1
        elif latest.get(key.table, -1) > index:
            coalesced += 1
        else:
            lost += 1
    return ClientTally(received, coalesced, lost, messages)


@dataclass
class Report:
    """One run's figures: the moves sent, what each client made of them, the delays (every
    client's, in ms), how late the tables' moves left against their schedule (ms), the load
    average at the start and the end of the moves, and the messages the server rejected."""

    tables: int
    seconds: float
    rate: float
    broker: str
    clients: int
    sent: int
    per_client: list[ClientTally]
    delays_ms: list[float]
    late_ms: list[float]
    load_start: tuple[float, float, float]
    load_end: tuple[float, float, float]
    rejected: int
    wall_seconds: float
    cpus: int = field(default_factory=lambda: os.cpu_count() or 1)
    flood: float = 0.0          # bad messages a second asked of the flooding table
    flood_sent: int = 0         # ... and sent
    limited: int = 0            # messages the server dropped over a table's rate limit

    def delay_ms(self) -> dict[str, float] | None:
        """The delay's p50, p90, p99 and max in ms, over every client (None: nothing seen)."""
        return spread(self.delays_ms)

    @property
    def target_met(self) -> bool:
        """Whether the 99th percentile of the delay is under TARGET_MS (and a move was seen)."""
        figures = self.delay_ms()
        return figures is not None and figures["p99"] < TARGET_MS

    def as_json(self) -> dict[str, Any]:
        return {"tables": self.tables, "seconds": self.seconds, "rate": self.rate,
                "broker": self.broker, "clients": self.clients, "sent": self.sent,
                "per_client": [client.as_json() for client in self.per_client],
                "delay_ms": self.delay_ms(), "target_ms": TARGET_MS,
                "target_met": self.target_met, "publish_late_ms": spread(self.late_ms),
                "load": {"start": [round(x, 2) for x in self.load_start],
                         "end": [round(x, 2) for x in self.load_end], "cpus": self.cpus},
                "server_rejected": self.rejected, "flood": self.flood,
                "flood_sent": self.flood_sent, "server_limited": self.limited,
                "wall_seconds": round(self.wall_seconds, 1)}

    def lines(self) -> list[str]:
        late = spread(self.late_ms)
        lines = ["moves sent: %d%s" % (self.sent, "" if late is None else
                                       " (behind schedule: p99 %.1f ms, max %.1f ms)"
                                       % (late["p99"], late["max"]))]
        for number, client in enumerate(self.per_client, 1):
            lines.append("client %d: received %d, coalesced %d, lost %d (%d messages)" % (
                number, client.received, client.coalesced, client.lost, client.messages))
        figures = self.delay_ms()
        if figures is None:
            lines.append("delay from a table's publish to a live page: no move arrived")
        else:
            lines.append("delay from a table's publish to a live page: p50 %.1f ms, p90 %.1f "
                         "ms, p99 %.1f ms, max %.1f ms" % (figures["p50"], figures["p90"],
                                                           figures["p99"], figures["max"]))
        lines.append("target (p99 under %g ms): %s" % (TARGET_MS,
                                                        "met" if self.target_met else "NOT met"))
        lines.append("load average (1, 5, 15 min) on %d CPUs: %s at the start, %s at the end"
                     % (self.cpus, ", ".join("%.2f" % x for x in self.load_start),
                        ", ".join("%.2f" % x for x in self.load_end)))
        if self.flood:
            lines.append("%s sent %d bad messages (%g a second asked): the server dropped %d "
                         "unread over its rate limit and rejected %d" % (
                             FLOOD_TABLE, self.flood_sent, self.flood, self.limited,
                             self.rejected))
        elif self.rejected:
            lines.append("the server rejected %d messages (see its log)" % self.rejected)
        lines.append("%.1f s in all" % self.wall_seconds)
        return lines


# --- the tables (their own process) ---------------------------------------------------------

class _Stamps:
    """A table link's clock (`time.time`) that remembers the time it last gave to each
    thread: right after `publish_move`, the "at" of that move."""

    def __init__(self) -> None:
        self._local = threading.local()

    def __call__(self) -> float:
        now = time.time()
        self._local.last = now
        return now

    @property
    def last(self) -> float:
        return self._local.last


def board_state(game_id: str, game: Game, players: list[str]) -> dict[str, Any]:
    """What a table's `publish_state` says about `game` (no faults: a bench board is sound)."""
    return {"game": game_id, "status": "finished" if game.over else "playing",
            "variant": game.rules.name, "pits": list(game.pits), "uur": list(game.uur),
            "captured": list(game.captured), "to_move": game.to_move, "ply": game.ply,
            "players": list(players), "faults": []}


class _Table:
    """One bench table: its link, its clock, its game and its random moves."""

    def __init__(self, table_id: str, url: str, password: str, directory: Path,
                 seed: int) -> None:
        self.id = table_id
        self.clock = _Stamps()
        self.link = TableLink(table_id, url, table_id, password, directory / table_id,
                              firmware="bench", clock=self.clock, reconnect_delay=(0.2, 2.0))
        self.rng = random.Random("%s/%d" % (table_id, seed))    # the same moves every run
        self.game: Game | None = None           # until start()
        self.game_id = ""
        self.players: list[str] = []
        self.variant, self.options = VARIANT, {}

    def start(self) -> None:
        """Take up the assigned game and show the board."""
        fields = self.link.assignment.fields
        self.game_id, self.players = fields["game"], fields["players"]
        self.variant, self.options = fields["variant"], fields["options"]
        self.game = Game(self.variant, self.options or None)
        self.link.publish_state(board_state(self.game_id, self.game, self.players))

    def move(self) -> MoveKey:
        """A random legal move (the first of a new game when the last one is over), published
        as a move, then as the board."""
        if self.game.over:
            self.game = Game(self.variant, self.options or None)
        move = self.game.play_random(self.rng)
        self.link.publish_move(self.game_id, self.game.ply, move)
        key = MoveKey(self.id, self.game_id, self.game.ply, self.clock.last)
        self.link.publish_state(board_state(self.game_id, self.game, self.players))
        return key


class Flooder:
    """One table's password used to flood: `rate` small bad messages a second on its own
    move topic (QoS 1, as a table's), in a thread, for `seconds`; `sent` counts them.
    `close` waits until the broker has taken every one (paho keeps all but 20 in its own queue,
    and a disconnect would drop them unsent)."""

    def __init__(self, url: str, table_id: str, password: str, rate: float) -> None:
        host, port, _tls = broker_address(url)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=TABLE_CLIENT_PREFIX + table_id,
                                  protocol=mqtt.MQTTv311)
        self.client.username_pw_set(table_id, password)
        self.client.max_queued_messages_set(0)
        self.client.connect(host, port)
        self.client.loop_start()
        self.topic = topic(table_id, "move")
        self.rate = rate
        self.sent = 0
        self._published: list[mqtt.MQTTMessageInfo] = []
        self._thread: threading.Thread | None = None

    def start(self, seconds: float) -> None:
        self._thread = threading.Thread(target=self._flood, args=(seconds,), daemon=True,
                                        name="bench-flooder")
        self._thread.start()

    def _flood(self, seconds: float) -> None:
        start = time.monotonic()
        while True:
            elapsed = time.monotonic() - start
            if elapsed >= seconds:
                return
            due = int(elapsed * self.rate) + 1          # sent by now, on schedule
            while self.sent < due:
                self._published.append(self.client.publish(
                    self.topic, b'{"v": 1, "flood": %d}' % self.sent, qos=1))
                self.sent += 1
            time.sleep(0.005)

    def close(self, timeout: float = 60.0) -> None:
        if self._thread is not None:
            self._thread.join()
        deadline = time.monotonic() + timeout
        for info in self._published:
            info.wait_for_publish(max(0.0, deadline - time.monotonic()))
        self.client.disconnect()
        self.client.loop_stop()


class TableFleet:
    """The bench's tables (`passwords`: table id -> broker password), each with its own
    TableLink to the broker at `url`; their state directories under `directory`."""

    def __init__(self, url: str, passwords: dict[str, str], directory: Path,
                 seed: int = 1) -> None:
        self.tables: list[_Table] = []
        for table_id, password in passwords.items():
            self.tables.append(_Table(table_id, url, password, directory, seed))

    def wait_assigned(self, timeout: float = CONNECT_SECONDS) -> None:
        """Wait until every table is connected and has its game, then show every board;
        BenchError names the tables that did not."""
        deadline = time.monotonic() + timeout
        waiting = self.tables
        while waiting and time.monotonic() < deadline:
            time.sleep(0.02)
            waiting = [table for table in self.tables if not table.link.connected
                       or table.link.assignment is None
                       or table.link.assignment.fields["game"] is None]
        if waiting:
            raise BenchError("%d of %d tables not connected with a game after %g s: %s" % (
                len(waiting), len(self.tables), timeout, ", ".join(
                    "%s (%s)" % (table.id, table.link.last_error or (
                        "no game assigned" if table.link.connected else "not connected"))
                    for table in waiting[:5])))
        for table in self.tables:
            table.start()

    def play(self, seconds: float, rate: float) -> tuple[list[MoveKey], list[float]]:
        """A move on every table each 1/`rate` s for `seconds`, the tables spread evenly over
        the period: (the moves sent, in order; how late each left against its schedule, ms)."""
        period = 1.0 / rate
        periods = seconds * rate                # how many periods the run lasts
        count = len(self.tables)
        start = time.monotonic()
        # (periods after the start, table, its move number): table i moves at i/count, then
        # once a period; counted in periods, not summed in seconds, so no rounding adds a move
        due = [(index / count, index, 0) for index in range(count)]
        heapq.heapify(due)
        sent: list[MoveKey] = []
        late: list[float] = []
        while due and due[0][0] < periods:
            offset, index, number = heapq.heappop(due)
            when = start + offset * period
            wait = when - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            late.append(max(0.0, time.monotonic() - when) * 1000)
            sent.append(self.tables[index].move())
            heapq.heappush(due, (index / count + number + 1, index, number + 1))
        return sent, late

    def close(self) -> None:
        for table in self.tables:
            table.link.close()


def tables_main() -> None:
    """The tables' process (``python -c "...; tables_main()"``): reads its settings, one JSON
    line, on stdin; answers {"ready": true} on stdout when every table has its game, waits
    for "go", plays, and answers {"done": [sent, late]}; or {"error": text} at any point.
    Its stdout carries nothing else: whatever a library prints goes to stderr."""
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

    def reply(**message: Any) -> None:
        replies.write(json.dumps(message) + "\n")
        replies.flush()

    fleet = None
    try:
        spec = json.loads(sys.stdin.readline())
        logging.basicConfig(level=spec["log_level"],
                            format="%(asctime)s tables %(name)s %(levelname)s: %(message)s")
        fleet = TableFleet(spec["url"], spec["passwords"], Path(spec["directory"]),
                           spec["seed"])
        fleet.wait_assigned(spec.get("connect_seconds", CONNECT_SECONDS))
        reply(ready=True)
        if sys.stdin.readline().strip() != "go":
            return
        flood = spec.get("flood")
        if flood:
            flooder = Flooder(spec["url"], flood["table"], flood["password"], flood["rate"])
            flooder.start(spec["seconds"])
        sent, late = fleet.play(spec["seconds"], spec["rate"])
        if flood:
            flooder.close()
        reply(done=[sent, late, flooder.sent if flood else 0])
    except Exception as error:          # reported to the benchmark, which says so and stops
        log.debug("the tables failed", exc_info=True)
        reply(error=str(error) or type(error).__name__)
    finally:
        if fleet is not None:
            fleet.close()


class TablesProcess:
    """`TableFleet` in a process of its own (`tables_main`), driven over its stdin and
    stdout. `spec`: its settings (url, passwords, directory, seed, seconds, rate,
    log_level; connect_seconds, by default CONNECT_SECONDS)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        # the checkout this module comes from, whether installed or not
        home = str(Path(__file__).resolve().parents[2])
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            [home] + [part for part in [environment.get("PYTHONPATH")] if part])
        main = "from controller.commands.bench_tournament import tables_main; tables_main()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", main],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
            env=environment)
        self._replies: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name="bench-tables-replies",
                                        daemon=True)
        self._reader.start()
        self._tell(json.dumps(spec))
        self._told = False

    def _read(self) -> None:
        for line in self.process.stdout:
            self._replies.put(line)
        self._replies.put(None)                 # the process has closed its stdout

    def _tell(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except OSError:                         # it has ended: expect() will say how
            pass

    def expect(self, kind: str, timeout: float) -> Any:
        """What the process answers next, which must be `kind`; BenchError when it reports
        an error, ends, or says nothing for `timeout` s."""
        try:
            line = self._replies.get(timeout=timeout)
        except queue.Empty:
            raise BenchError("the tables were not %s within %g s" % (kind, timeout)) from None
        if line is None:
            raise BenchError("the tables' process ended (exit status %s) before it was %s"
                             % (self.process.wait(), kind))
        reply = json.loads(line)
        if "error" in reply:
            raise BenchError("the tables: %s" % reply["error"])
        if kind not in reply:
            raise BenchError("the tables answered %s, not %s" % (line.strip(), kind))
        return reply[kind]

    def go(self) -> None:
        self._told = True
        self._tell("go")

    def stop(self, timeout: float = 30.0) -> None:
        """Wait for the tables to close their links (telling them to, if they wait for
        "go"); end the process if it will not."""
        if not self._told:
            self._tell("stop")
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(5.0)
        self.process.stdout.close()


# --- the live pages' clients (a thread of their own) ----------------------------------------

class LiveClients:
    """`count` WebSocket clients of the live feed at `url` (``ws://.../ws``), as browsers: in
    a thread with its own asyncio loop. Each keeps when it first saw every move that came as
    a table's new last move, and which tables' boards it has seen."""

    def __init__(self, url: str, count: int) -> None:
        self.url = url
        self.seen: list[dict[MoveKey, float]] = [{} for _ in range(count)]
        self.messages = [0] * count
        self.boards: list[set[str]] = [set() for _ in range(count)]
        self.errors: list[str] = []
        self._loop = asyncio.new_event_loop()
        self._tasks = [self._loop.create_task(self._follow(index)) for index in range(count)]
        self._thread = threading.Thread(target=self._run, name="bench-live-clients",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(asyncio.gather(*self._tasks, return_exceptions=True))
        finally:
            self._loop.close()

    async def _follow(self, index: int) -> None:
        last: dict[str, MoveKey] = {}
        seen, boards = self.seen[index], self.boards[index]
        try:
            async with connect(self.url, max_size=None) as socket:
                async for text in socket:
                    arrived = time.time()
                    self.messages[index] += 1
                    view = json.loads(text)
                    if view.get("type") != "table":
                        continue
                    table = view["table"]
                    if view.get("state") is not None:
                        boards.add(table)
                    move = view.get("last_move")
                    if move is None:
                        continue
                    key = MoveKey(table, move["game"], move["ply"], move["at"])
                    if last.get(table) != key:
                        last[table] = key
                        seen.setdefault(key, arrived)
            self.errors.append("client %d: the server closed the connection" % (index + 1))
        except asyncio.CancelledError:
            raise
        except Exception as error:          # reported by wait(): the run cannot be trusted
            self.errors.append("client %d: %s" % (index + 1, error or type(error).__name__))

    def wait(self, done, what: str, timeout: float, fail: bool = True) -> bool:
        """Wait until `done()` holds; BenchError naming `what` after `timeout` s when `fail`
        (else False), or at once when a client has failed."""
        deadline = time.monotonic() + timeout
        while not done():
            if self.errors:
                raise BenchError("live-page %s" % "; ".join(self.errors))
            if time.monotonic() > deadline:
                if fail:
                    raise BenchError("%s: not within %g s" % (what, timeout))
                return False
            time.sleep(0.02)
        return True

    def stop(self) -> None:
        for task in self._tasks:
            self._loop.call_soon_threadsafe(task.cancel)
        self._thread.join(10.0)


# --- the run --------------------------------------------------------------------------------

def default_broker() -> str:
    """"mosquitto" when the program is installed, else "embedded"."""
    try:
        find_mosquitto()
    except BrokerError:
        return "embedded"
    return "mosquitto"


def check_arguments(tables: int, seconds: float, rate: float, broker: str | None,
                    clients: int, flood: float = 0.0) -> None:
    """ValueError naming the first argument out of its range."""
    if type(tables) is not int or not 1 <= tables <= 1000:
        raise ValueError("tables must be a whole number from 1 to 1000, not %r" % (tables,))
    if not 0 < seconds <= 86400:
        raise ValueError("seconds must be above 0 and at most 86400, not %r" % (seconds,))
    if not 0 < rate <= 100:
        raise ValueError("rate must be above 0 and at most 100 moves a second, not %r"
                         % (rate,))
    if broker is not None and broker not in BROKERS:
        raise ValueError("broker must be one of %s, not %r" % (", ".join(BROKERS), broker))
    if type(clients) is not int or not 1 <= clients <= 100:
        raise ValueError("clients must be a whole number from 1 to 100, not %r" % (clients,))
    if not 0 <= flood <= 100000:
        raise ValueError("flood must be from 0 to 100000 messages a second, not %r" % (flood,))


def event_store(path: Path, table_ids: list[str]) -> Store:
    """A new event in `path`: a Swiss of one round, two players a table, the tables
    registered."""
    store = Store(path)
    store.create_event(EVENT, VARIANT, system="swiss", rounds=1)
    for number in range(1, 2 * len(table_ids) + 1):
        store.register("Player %d" % number, 2200 - number)
    for table in table_ids:
        store.add_table(table)
    return store


def bench(tables: int = 64, seconds: float = 30.0, rate: float = 1.0,
          broker: str | None = None, clients: int = 1, seed: int = 1,
          flood: float = 0.0) -> Report:
    """Run the benchmark (see the module's text) and return its figures. `broker` None:
    Mosquitto when installed, else the embedded one; `flood`: bad messages a second from one
    more table. ValueError for an argument out of range; BenchError when the run could not be
    made."""
    check_arguments(tables, seconds, rate, broker, clients, flood)
    broker = broker or default_broker()
    began = time.monotonic()
    directory = Path(tempfile.mkdtemp(prefix="layli-bench-tournament-"))
    with ExitStack() as stack:
        stack.callback(shutil.rmtree, directory, True)
        table_ids = ["table-%d" % number for number in range(1, tables + 1)]
        flooding = [FLOOD_TABLE] if flood else []
        credentials = Credentials.generate(EVENT, table_ids + flooding)
        if broker == "mosquitto":
            mqtt_broker: Mosquitto | EmbeddedBroker = Mosquitto(
                directory / "mosquitto", credentials=credentials)
        else:
            mqtt_broker = EmbeddedBroker(directory / "broker", credentials=credentials)
        mqtt_broker.start()
        stack.callback(mqtt_broker.stop)

        store = event_store(directory / "event.sqlite", table_ids)
        for table in flooding:              # one table more than games: it has none
            store.add_table(table)
        stack.callback(store.close)
        server = TournamentServer(store, mqtt_broker.url, credentials.server_user,
                                  credentials.server_password)
        server.start()
        stack.callback(server.stop)
        server.pair_next_round()

        url, web, web_thread = start_in_thread(create_app(server))

        def stop_web() -> None:
            web.should_exit = True
            web_thread.join(10.0)
        stack.callback(stop_web)
        live = LiveClients(url.replace("http://", "ws://", 1) + "ws", clients)
        stack.callback(live.stop)
        live.wait(lambda: all(live.messages), "the live-page clients connecting",
                  CONNECT_SECONDS)

        fleet = TablesProcess({
            "url": mqtt_broker.url,
            "passwords": {table: credentials.password(table) for table in table_ids},
            "flood": {"table": FLOOD_TABLE, "password": credentials.password(FLOOD_TABLE),
                      "rate": flood} if flood else None,
            "directory": str(directory / "tables"), "seed": seed, "seconds": seconds,
            "rate": rate, "log_level": logging.getLogger().getEffectiveLevel()})
        stack.callback(fleet.stop)
        fleet.expect("ready", CONNECT_SECONDS + 30.0)
        every = set(table_ids)
        live.wait(lambda: all(boards >= every for boards in live.boards),
                  "every client seeing every table's board", CONNECT_SECONDS)

        load_start = os.getloadavg()
        fleet.go()
        sent_tuples, late, flood_sent = fleet.expect("done", seconds + 60.0)
        load_end = os.getloadavg()
        sent = [MoveKey(*item) for item in sent_tuples]
        last = {key.table: key for key in sent}
        # the moves still on their way
        live.wait(lambda: all(key in seen for seen in live.seen for key in last.values()),
                  "the last moves", DRAIN_SECONDS, fail=False)
        seen_copies = [dict(seen) for seen in live.seen]
        per_client = [tally(sent, seen, messages)
                      for seen, messages in zip(seen_copies, live.messages)]
        delays = [(arrived - key.at) * 1000 for seen in seen_copies
                  for key, arrived in seen.items()]
        if flood:       # the flood's last messages, on their way: waited for while they
            accounted = -1  # still come (a loaded machine's broker is slow to pass them on),
            deadline = 0.0  # until DRAIN_SECONDS pass with none
            while True:
                now = server.counters["limited"] + server.counters["rejected"]
                if now >= flood_sent:
                    break
                if now != accounted:
                    accounted, deadline = now, time.monotonic() + DRAIN_SECONDS
                elif time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        rejected, limited = server.counters["rejected"], server.counters["limited"]
    return Report(tables, seconds, rate, broker, clients, len(sent), per_client, delays, late,
                  load_start, load_end, rejected, time.monotonic() - began, flood=flood,
                  flood_sent=flood_sent, limited=limited)


# --- the command ----------------------------------------------------------------------------

def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=ranged(int, 1, 1000), default=64,
                        help="tables, each with its own MQTT connection (default 64)")
    parser.add_argument("--seconds", type=ranged(float, 0, 86400, low_open=True), default=30.0,
                        help="how long the tables play (default 30)")
    parser.add_argument("--rate", type=ranged(float, 0, 100, low_open=True), default=1.0,
                        help="moves a second at each table (default 1)")
    parser.add_argument("--broker", choices=BROKERS, default=None,
                        help="mosquitto (the default when installed) or embedded")
    parser.add_argument("--clients", type=ranged(int, 1, 100), default=1,
                        help="live-page WebSocket clients (default 1)")
    parser.add_argument("--flood", type=ranged(float, 0, 100000), default=0.0,
                        help="bad messages a second from one more table with its own password "
                             "(default 0: none)")
    parser.add_argument("--seed", type=ranged(int, 0, 2 ** 31 - 1), default=1,
                        help="seeds the tables' random moves (default 1)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: sent, per_client, delay_ms, target_met, "
                             "load, ...")
    parser.add_argument("--verbose", action="store_true",
                        help="log what the broker, server and tables say (default: errors)")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    broker = args.broker
    if broker == "mosquitto":
        try:
            find_mosquitto()
        except BrokerError as error:
            raise UsageError("--broker mosquitto: %s" % error) from None
    broker = broker or default_broker()
    if not args.json:
        print("layli bench tournament: %d tables x %g move%s/s for %g s, %s broker, %d live-page "
              "client%s" % (args.tables, args.rate, "" if args.rate == 1 else "s", args.seconds,
                            "Mosquitto" if broker == "mosquitto" else "the embedded",
                            args.clients, "" if args.clients == 1 else "s")
              + (", one table flooding %g messages/s" % args.flood if args.flood else ""),
              flush=True)
    try:
        report = bench(args.tables, args.seconds, args.rate, broker, args.clients, args.seed,
                       args.flood)
    except (BenchError, BrokerError, TimeoutError) as error:     # a part that would not run
        sys.stdout.flush()
        print("layli: bench tournament failed: %s" % error, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    from controller.cli import main
    sys.exit(main(["bench", "tournament"] + sys.argv[1:]))
