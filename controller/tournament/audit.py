"""What is turned away at the door, kept for the arbiter: what the event's broker refused
(logins, publishes, subscriptions, oversized packets), and a table's messages over the
server's rate limit (`RateLimit`).

A broker drops what its access rules forbid without telling the server: a table publishing a
result on another table's topic, a login with another table's client id, a wrong password.
Both brokers report each refusal here (`Refusal`): the embedded one from its plugins, Mosquitto
from its log (`mosquitto_refusal` reads one line of it). `Refusals` counts them by what was
refused and by whom (a user of the event, or an address), keeping the latest thing asked for,
and logs the first of each and then every tenfold count (1, 10, 100...), so that a flood
neither fills the log nor hides itself. What a client makes up (a username, a topic) is never
part of the key: nobody can push the event's own users out of the list::

    >>> refusals = Refusals()
    >>> refusals(Refusal(PUBLISH, "table-5", "layli/table/table-3/result"))
    >>> refusals(Refusal(PUBLISH, "table-5", "layli/table/table-3/assignment"))
    >>> [(row["kind"], row["who"], row["what"], row["count"]) for row in refusals.rows()]
    [('publish', 'table-5', 'layli/table/table-3/assignment', 2)]
    >>> refusals.counts()
    {'publish': 2}

It keeps a row for each of the event's `users` that needs one, and at most `limit` rows for
anyone else (an address, a made-up name); beyond them, a kind's refusals from anyone new are
counted in one row of that kind ("others"). It is in memory only (the server's log keeps what it said): the broker refused these, nothing of the
event's changed.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from controller.tournament.credentials import TABLE_CLIENT_PREFIX

log = logging.getLogger(__name__)

LOGIN = "login"             # a connection refused: a wrong password, or a client id not its own
PUBLISH = "publish"         # a message on a topic its sender may not write
SUBSCRIBE = "subscribe"     # a subscription to topics its sender may not read
AGAIN = "again"             # a user connected again while connected: the old connection closed
OVERSIZED = "oversized"     # a packet larger than the broker takes: the connection closed
LIMITED = "limited"         # messages of a table over the server's rate limit, dropped unread
KINDS = (LOGIN, PUBLISH, SUBSCRIBE, AGAIN, OVERSIZED, LIMITED)


@dataclass(frozen=True)
class Refusal:
    """One thing the broker refused. `kind` is one of `KINDS`; `who` the username (a table id,
    or the server's) when the broker knows it, else the address the connection came from;
    `what` the topic, or the client id asked for, or why a login was refused."""

    kind: str
    who: str
    what: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError("a refusal's kind is one of %s, not %r" % (", ".join(KINDS),
                                                                        self.kind))

    def words(self) -> str:
        """The refusal in a sentence for the log."""
        said = {LOGIN: "login refused: %s (%s)", PUBLISH: "publish refused: %s on %s",
                SUBSCRIBE: "subscription refused: %s to %s",
                AGAIN: "connected again while connected: %s (%s)",
                OVERSIZED: "too large, disconnected: %s (%s)",
                LIMITED: "over the rate limit, dropped unread: %s (%s)"}[self.kind]
        return said % (self.who, self.what or "no reason given")


class Refusals:
    """Refusals counted by (kind, who), each row keeping the latest `what`; a row for each of
    `users` (the event's) that needs one, and at most `limit` for anyone else (then one more a
    kind, "others"). Callable: a broker reports each refusal by calling it, from its own
    thread; `on_change`, when set, is called after each (the server publishes its counts)."""

    OTHERS = "others"

    def __init__(self, users: Iterable[str] = (), limit: int = 1000,
                 clock: Callable[[], float] = time.time) -> None:
        self.users = frozenset(users)
        self.limit = limit
        self._strangers = 0             # rows of whoever is not one of `users`
        self.clock = clock
        self.on_change: Callable[[], None] | None = None
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str], dict[str, Any]] = {}
        self._counts: dict[str, int] = {}

    def __call__(self, refusal: Refusal) -> None:
        key = (refusal.kind, refusal.who)
        now = self.clock()
        with self._lock:
            if key not in self._rows and refusal.who not in self.users:
                if self._strangers >= self.limit:
                    key = (refusal.kind, self.OTHERS)
                else:
                    self._strangers += 1
            row = self._rows.get(key)
            if row is None:
                row = self._rows[key] = {"kind": key[0], "who": key[1], "what": "",
                                         "count": 0, "first": now, "last": now}
            row["count"] += 1
            row["last"] = now
            row["what"] = refusal.what
            count = row["count"]
            self._counts[refusal.kind] = self._counts.get(refusal.kind, 0) + 1
        if _tenfold(count):
            log.warning("turned away: %s%s", refusal.words(),
                        "" if count == 1 else " (%d times)" % count)
        if self.on_change is not None:
            self.on_change()

    def rows(self) -> list[dict[str, Any]]:
        """Every refusal kept, the latest first: kind, who, what, count, first and last (s)."""
        with self._lock:
            return sorted((dict(row) for row in self._rows.values()),
                          key=lambda row: row["last"], reverse=True)

    def counts(self) -> dict[str, int]:
        """How many refusals of each kind."""
        with self._lock:
            return dict(self._counts)


def _tenfold(count: int) -> bool:
    while count % 10 == 0:
        count //= 10
    return count == 1


class RateLimit:
    """Token buckets, one a key: `rate` a second on average and `burst` at once. `allow`
    says whether one more may pass now (and takes its token).

    >>> limit = RateLimit(rate=1.0, burst=2)
    >>> [limit.allow("table-1", now) for now in (0.0, 0.0, 0.0, 1.0)]
    [True, True, False, True]
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[Any, tuple[float, float]] = {}      # key -> (tokens, when)

    def allow(self, key: Any, now: float) -> bool:
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        return True


# -- Mosquitto's log --------------------------------------------------------------------------

# Mosquitto 2.0's own words (src/handle_connect.c, src/handle_publish.c, src/send_connack.c),
# after its timestamp ("log_timestamp_format") and ": ". A refused login names only the
# address it came from: Mosquitto has not taken the client's word for its name.
_DENIED_PUBLISH = re.compile(r"Denied PUBLISH from (\S+) \(d\d, q\d, r\d, m\d+, '(.*)', ")
_REFUSED_CONNACK = re.compile(r"Sending CONNACK to (\S+) \(\d, ([1-9]\d*)\)\s*$")
_TAKEN_OVER = re.compile(r"Client (\S+) already connected, closing old connection\.")
_OVERSIZED = re.compile(r"Client (\S+) disconnected due to oversize packet\.")
CONNACK_WORDS = {1: "an MQTT version it does not speak", 2: "a client id it does not take",
                 3: "the broker unavailable", 4: "a malformed username or password",
                 5: "a wrong password, or a client id not its own"}


def log_text(line: str) -> str:
    """A line of Mosquitto's log without its timestamp."""
    head, colon, rest = line.partition(": ")
    return rest.rstrip("\n") if colon and " " not in head else line.rstrip("\n")


def mosquitto_refusal(line: str) -> Refusal | None:
    """The refusal one line of Mosquitto's log (its "debug" lines included) tells of, or None.

    >>> mosquitto_refusal("2026-12-05T23:12:01: Denied PUBLISH from layli-table-5 (d0, q1, "
    ...                   "r0, m1, 'layli/table/table-3/result', ... (80 bytes))")
    Refusal(kind='publish', who='table-5', what='layli/table/table-3/result')
    >>> mosquitto_refusal("2026-12-05T23:12:01: Sending CONNACK to 192.168.1.23 (0, 5)")
    Refusal(kind='login', who='192.168.1.23', what='a wrong password, or a client id not its own')
    >>> mosquitto_refusal("2026-12-05T23:12:01: Sending CONNACK to layli-table-1 (0, 0)")
    """
    text = log_text(line)
    found = _DENIED_PUBLISH.match(text)
    if found:
        return Refusal(PUBLISH, user_of_client(found.group(1)), found.group(2))
    found = _REFUSED_CONNACK.match(text)
    if found:
        code = int(found.group(2))
        return Refusal(LOGIN, found.group(1), CONNACK_WORDS.get(code, "refused (%d)" % code))
    found = _TAKEN_OVER.match(text)
    if found:
        return Refusal(AGAIN, user_of_client(found.group(1)), "client id " + found.group(1))
    found = _OVERSIZED.match(text)
    if found:
        return Refusal(OVERSIZED, user_of_client(found.group(1)), "a packet over the limit")
    return None


def user_of_client(client_id: str) -> str:
    """The table a table's client id belongs to (the broker binds the two: "layli-table-3" is
    table-3's and nobody else's); any other id as it is."""
    if client_id.startswith(TABLE_CLIENT_PREFIX):
        return client_id[len(TABLE_CLIENT_PREFIX):]
    return client_id
