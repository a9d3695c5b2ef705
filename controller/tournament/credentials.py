"""Who may talk to an event's broker, and about what: a user for the server, one per table.

Every table logs in to the broker as its table id with a password of its own; the server logs
in as `SERVER_USER` (the underscore keeps it apart from every table id). What each may do is
the access list of docs/tournament.md, kept here once as data (`TABLE_RULES`) and used twice:
written into Mosquitto's dynamic-security configuration, and checked by `Credentials.allows` for the embedded broker::

    >>> credentials = Credentials.generate("open-2025", ["table-1", "table-2"])
    >>> credentials.allows("table-1", "write", "layli/table/table-1/result")
    True
    >>> credentials.allows("table-1", "write", "layli/table/table-2/result")
    False
    >>> credentials.allows("table-1", "read", "layli/table/table-1/assignment")
    True
    >>> credentials.allows(SERVER_USER, "write", "layli/table/table-2/ack")
    True

Each connection is one identity: a table connects with the client id ``layli-<table id>``
(`client_id`) and no other, so that nobody holding one table's password can take over the
connection of another table or of the server (an MQTT broker closes the older of two
connections with the same client id). The server's user is bound to no id: the server and an
arbiter's tools connect side by side.

The passwords come from `secrets` (24 characters, 144 random bits each). `save` keeps them in a
JSON file only its owner may read (mode 0600), `load` checks every part of one, and
`write_dynsec_file` writes what Mosquitto reads: the configuration of its dynamic-security
plugin, each user with its password hashed as Mosquitto hashes them (PBKDF2-SHA512, as
``mosquitto_passwd`` does), its client id, and a role holding its access rules.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from controller.tournament.messages import EVENT_ID, PREFIX, is_table_id

SERVER_USER = "layli_server"
SERVER_CLIENT_ID = SERVER_USER      # the server's own connection (no table id has a "_")
TABLE_CLIENT_PREFIX = "layli-"      # a table's client id: this and its table id
VERSION = 1

# What a table may do, "%u" standing for its username (its table id): publish its own
# presence (its will too), state, moves and results; read its own assignment and ack.
TABLE_RULES = (
    ("write", PREFIX + "%u/presence"),
    ("write", PREFIX + "%u/state"),
    ("write", PREFIX + "%u/move"),
    ("write", PREFIX + "%u/result"),
    ("read", PREFIX + "%u/assignment"),
    ("read", PREFIX + "%u/ack"),
)
# What the server may do: read and write everything of the tournament's.
SERVER_RULES = (("readwrite", "layli/#"),)

ACCESS = ("read", "write", "subscribe")
PASSWORD = re.compile(r"[!-~]{16,128}\Z")       # printable ASCII, no spaces
HASH_ITERATIONS = 101       # mosquitto_passwd's own; the passwords are random, not guessable
HASH_SALT_BYTES = 12


class CredentialsError(ValueError):
    """Credentials that are missing, malformed or unsafe; the text says what and where."""


def mosquitto_hash(password: str, salt: bytes | None = None,
                   iterations: int = HASH_ITERATIONS) -> tuple[str, str, int]:
    """`password` hashed as Mosquitto 2 keeps it: its salt and PBKDF2-SHA512 digest in base64,
    and the iterations (the salt random when not given). ``mosquitto_passwd`` writes the same
    as ``$7$<iterations>$<salt>$<digest>``.

    >>> mosquitto_hash("secretpassword", bytes(12))[1][:16]
    'czwSe7OfK9DPt4SF'
    """
    if salt is None:
        salt = secrets.token_bytes(HASH_SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations)
    return (base64.b64encode(salt).decode("ascii"), base64.b64encode(digest).decode("ascii"),
            iterations)


def topic_matches(subscription: str, topic: str) -> bool:
    """Whether `topic` is one of those the topic filter `subscription` stands for (MQTT's
    "+" one level, "#" this level and all below).

    >>> topic_matches("layli/table/+/result", "layli/table/t1/result")
    True
    >>> topic_matches("layli/#", "layli"), topic_matches("layli/+", "layli/a/b")
    (True, False)
    """
    wanted = subscription.split("/")
    levels = topic.split("/")
    for index, part in enumerate(wanted):
        if part == "#":
            return True
        if index >= len(levels) or (part != "+" and part != levels[index]):
            return False
    return len(levels) == len(wanted)


def filter_covered(allowed: str, subscription: str) -> bool:
    """Whether every topic the filter `subscription` stands for is one `allowed` stands for.

    >>> filter_covered("layli/#", "layli/table/+/state")
    True
    >>> filter_covered("layli/table/t1/ack", "layli/table/+/ack")
    False
    """
    wanted = allowed.split("/")
    levels = subscription.split("/")
    for index, part in enumerate(wanted):
        if part == "#":
            return True
        if index >= len(levels) or levels[index] == "#":
            return False
        if part != "+" and (levels[index] == "+" or part != levels[index]):
            return False
    return len(levels) == len(wanted)


@dataclass(frozen=True)
class Credentials:
    """The broker users of one event: the server's and one per table (table id -> password)."""

    event: str
    server_password: str
    tables: Mapping[str, str] = field(default_factory=dict)
    server_user: str = SERVER_USER

    def __post_init__(self) -> None:
        _check(self.event, "event", lambda text: EVENT_ID.match(text) is not None,
               "an event name (1 to 100 characters without /, control characters or spaces at its ends)")
        _check(self.server_user, "server_user",
               lambda text: re.match(r"[A-Za-z0-9_-]{1,64}\Z", text) is not None
               and not is_table_id(text),
               "a username of letters, digits, _ and - that is not a table id")
        _check(self.server_password, "server_password", _is_password,
               "a password of 16 to 128 printable ASCII characters")
        if not isinstance(self.tables, Mapping) or not self.tables:
            raise CredentialsError("tables must map table ids to passwords, not %r"
                                   % (self.tables,))
        for table, password in self.tables.items():
            _check(table, "a table", is_table_id, "a table id (1 to 32 of a-z, 0-9 and -)")
            _check(password, "table %s's password" % table, _is_password,
                   "a password of 16 to 128 printable ASCII characters")
        object.__setattr__(self, "tables", dict(sorted(self.tables.items(), key=_table_order)))

    @classmethod
    def generate(cls, event: str, tables: Iterable[str],
                 server_user: str = SERVER_USER) -> "Credentials":
        """New random passwords for the server and each of `tables` (their ids)."""
        tables = list(tables)
        duplicates = sorted({table for table in tables if tables.count(table) > 1})
        if duplicates:
            raise CredentialsError("tables named twice: %s" % ", ".join(duplicates))
        return cls(event, _new_password(), {table: _new_password() for table in tables},
                   server_user)

    def password(self, username: str) -> str:
        """The password of `username` (the server user or a table id)."""
        if username == self.server_user:
            return self.server_password
        try:
            return self.tables[username]
        except KeyError:
            raise CredentialsError("no user %r in the credentials of %s" % (username, self.event)
                                   ) from None

    def users(self) -> dict[str, str]:
        """Every username and its password, the server first."""
        users = {self.server_user: self.server_password}
        users.update(self.tables)
        return users

    def client_id(self, username: str) -> str | None:
        """The only client id `username` may connect with: ``layli-<table id>`` for a table;
        None for the server's user, who may use any (its connections stay apart by their ids).

        >>> Credentials.generate("open-2025", ["table-3"]).client_id("table-3")
        'layli-table-3'
        """
        if username == self.server_user:
            return None
        if username not in self.tables:
            raise CredentialsError("no user %r in the credentials of %s" % (username, self.event))
        return TABLE_CLIENT_PREFIX + username

    def rules(self, username: str) -> tuple[tuple[str, str], ...]:
        """What `username` may do: (access, topic filter) pairs, "read", "write" or
        "readwrite"; nothing for a user it does not know."""
        if username == self.server_user:
            return SERVER_RULES
        if username in self.tables:
            return tuple((kind, pattern.replace("%u", username)) for kind, pattern in TABLE_RULES)
        return ()

    def allows(self, username: str, access: str, topic: str) -> bool:
        """Whether `username` may `access` ("read", "write", or "subscribe" to the filter)
        `topic`, by the same rules the ACL file gives Mosquitto."""
        if access not in ACCESS:
            raise ValueError("access must be one of %s, not %r" % (", ".join(ACCESS), access))
        for kind, allowed in self.rules(username):
            if access == "subscribe":
                if kind in ("read", "readwrite") and filter_covered(allowed, topic):
                    return True
            elif kind in (access, "readwrite") and topic_matches(allowed, topic):
                return True
        return False

    # -- files ------------------------------------------------------------------------------

    def save(self, path: str | os.PathLike) -> None:
        """Keep the credentials in the JSON file `path`, readable by its owner only; written
        whole or not at all."""
        data = {"v": VERSION, "event": self.event,
                "server": {"username": self.server_user, "password": self.server_password},
                "tables": dict(self.tables)}
        write_private(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Credentials":
        """The credentials kept in `path` by `save`, every part checked."""
        path = Path(path)
        text = read_private(path)
        try:
            data = json.loads(text)
        except ValueError as error:
            raise CredentialsError("%s: not JSON (%s)" % (path, error)) from None
        expected = {"v", "event", "server", "tables"}
        if type(data) is not dict or set(data) != expected:
            raise CredentialsError("%s: not a credentials file (an object with the keys %s)"
                                   % (path, ", ".join(sorted(expected))))
        if data["v"] != VERSION or type(data["v"]) is not int:
            raise CredentialsError("%s: version %r, only %d is known" % (path, data["v"], VERSION))
        server = data["server"]
        if type(server) is not dict or set(server) != {"username", "password"}:
            raise CredentialsError('%s: "server" must be {"username": ..., "password": ...}'
                                   % path)
        if type(data["tables"]) is not dict:
            raise CredentialsError('%s: "tables" must map table ids to passwords' % path)
        try:
            return cls(data["event"], server["password"], data["tables"], server["username"])
        except CredentialsError as error:
            raise CredentialsError("%s: %s" % (path, error)) from None

    def write_dynsec_file(self, path: str | os.PathLike) -> None:
        """The configuration of Mosquitto's dynamic-security plugin: every user with its
        password (hashed), its client id (`client_id`) and one role of its own holding its
        `rules`. Whatever a role does not allow is refused, delivery included: a table hears
        its own assignment and ack and nothing else."""
        clients, roles = [], []
        for user, password in self.users().items():
            salt, digest, iterations = mosquitto_hash(password)
            client: dict[str, object] = {"username": user, "password": digest, "salt": salt,
                                         "iterations": iterations,
                                         "roles": [{"rolename": user}]}
            if self.client_id(user) is not None:
                client["clientid"] = self.client_id(user)
            clients.append(client)
            acls = []
            for access, topic in self.rules(user):
                for acl_type in DYNSEC_ACCESS[access]:
                    if acl_type.startswith("subscribe"):
                        acl_type = "subscribePattern" if set(topic) & {"+", "#"} else \
                            "subscribeLiteral"
                    acls.append({"acltype": acl_type, "topic": topic, "allow": True})
            roles.append({"rolename": user, "acls": acls})
        data = {"defaultACLAccess": {"publishClientSend": False, "publishClientReceive": False,
                                     "subscribe": False, "unsubscribe": True},
                "clients": clients, "groups": [], "roles": roles}
        write_private(path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))


# The dynamic-security plugin's ACL types for each of our accesses (subscribe: literal or
# pattern, as the topic has wildcards or not).
DYNSEC_ACCESS = {"read": ("publishClientReceive", "subscribe"),
                 "write": ("publishClientSend",),
                 "readwrite": ("publishClientSend", "publishClientReceive", "subscribe")}


def _new_password() -> str:
    return secrets.token_urlsafe(18)


def _is_password(text: str) -> bool:
    return PASSWORD.match(text) is not None


def _check(value: object, name: str, test, what: str) -> None:
    if not isinstance(value, str) or not test(value):
        raise CredentialsError("%s is %r, not %s" % (name, value, what))


def _table_order(item: tuple[str, str]) -> tuple:
    """table-2 before table-10."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", item[0]))


def read_private(path: str | os.PathLike, what: str = "the credentials") -> str:
    """The UTF-8 text of a secrets file that only its owner may read; CredentialsError naming
    the file and what to do when it cannot be read or others may read it (issue 17: every
    secrets file checked for its mode)."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CredentialsError("%s: cannot read %s (%s)"
                               % (path, what, error.strerror or error)) from None
    except UnicodeDecodeError:
        raise CredentialsError("%s: not UTF-8 text" % path) from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise CredentialsError("%s: others may read it (mode %03o); chmod 600 it"
                               % (path, stat.S_IMODE(mode)))
    return text


def write_private(path: str | os.PathLike, data: bytes) -> None:
    """Write `path` whole or not at all (a temporary file, synced, renamed over it), readable
    by its owner only (mode 0600) from the first byte: for secrets, and for state that must
    survive a power cut (a table's unacknowledged results)."""
    path = Path(path)
    temporary = path.with_name(".%s.%d.tmp" % (path.name, os.getpid()))
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o600)          # an old file of that name may have had another mode
        os.replace(temporary, path)
    except BaseException:
        if temporary.exists():
            temporary.unlink()
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)                 # the rename itself survives a power cut
    finally:
        os.close(directory)
