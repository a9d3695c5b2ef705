"""The event's MQTT broker: Mosquitto run as a managed process, or an embedded one (amqtt).

Both have the same small interface::

    with Mosquitto("/var/lib/layli/broker", credentials=credentials) as broker:
        broker.url              # 'mqtt://127.0.0.1:40123'
        broker.restart()        # the same port; retained messages survive it
    with EmbeddedBroker(credentials=credentials) as broker:
        ...

`Mosquitto` (the production broker: Debian's ``mosquitto``) writes its mosquitto.conf and the
configuration of its dynamic-security plugin (dynamic-security.json) into its directory, and
keeps its retained messages there (``persistence``) and its log (mosquitto.log). With
credentials nobody gets in without a password and with a client id other than its own
(`Credentials.client_id`), and each user may only do what `credentials.TABLE_RULES` /
`SERVER_RULES` allow. Its log comes through a pipe: the lines of what it refused (a login,
a publish; Mosquitto says those only among its "debug" lines) go to `refusals`
(`audit.Refusals`), the chatter of every packet is dropped, the rest kept in mosquitto.log.

`EmbeddedBroker` needs nothing installed: amqtt (pure Python) in a thread of its own with its
own asyncio loop, the laptop default. amqtt 0.12.1 as it comes would not do for a tournament;
three small plugins and a subclass of its broker make it behave like the Mosquitto above:

- passwords: each user's own (`Credentials.password`), a table's own client id only (amqtt
  would let a second connection with a client id take the first one's session, and leave the
  first connected without its subscriptions), and a will only on a topic the user may write
  (amqtt would publish a will anywhere; Mosquitto lets such a client in and drops its will,
  this check refuses it);
- the access rules: `Credentials.allows` for publish, subscribe and delivery;
- what those refuse goes to `refusals` (`audit.Refusals`), as Mosquitto's log lines do;
- retained messages kept in ``retained.json`` in its directory (amqtt's own persistence plugin
  needs SQLAlchemy), so they survive a restart as Mosquitto's do;
- amqtt sends a connecting client the retained messages of *every* filter any client has
  subscribed to, even a client that has subscribed to nothing, and sends retained messages
  without the delivery check: the subclass sends a client only those of its own
  subscriptions that it may read;
- amqtt never drops a client that has gone silent (a table whose network vanished without
  closing the connection would stay "online" for ever): the subclass ends the connection
  after one and a half keep-alives of silence, as Mosquitto does, and the will goes out;
- amqtt walks its subscriptions while it awaits, and a client subscribing meanwhile ended a
  delivery with "dictionary changed size during iteration": the subclass walks a copy;
- amqtt's shutdown can wait a whole keep-alive for a client (Python 3.11's asyncio.wait_for
  loses a cancellation that meets an arriving packet): the subclass closes the connections
  first, and frees the port whatever happens, so that a restart can listen on it again.

What it does not do as Mosquitto does: MQTT 5 (the tables use MQTT 3.1.1); and amqtt
acknowledges a PUBLISH before it has delivered and retained it, so a stop can drop a message
acknowledged in its last milliseconds (it logs "messages not broadcasted"). Nothing is lost
for good: the tables send their presence, state and unacknowledged results again on
reconnect, and the server its acks when the results come again.

A stop of either broker sends the wills of the tables connected at the time: they are
"offline" until they reconnect and say "online" again.
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import json
import logging
import math
import os
import pwd
import shutil
import secrets
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from collections.abc import Callable
from pathlib import Path
from typing import Any

from amqtt.adapters import StreamReaderAdapter, StreamWriterAdapter
from amqtt.broker import Broker, RetainedApplicationMessage
from amqtt.contexts import Action
from amqtt.errors import MQTTError
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.plugins.base import BaseAuthPlugin, BasePlugin, BaseTopicPlugin

from controller.tournament.audit import (AGAIN, LOGIN, OVERSIZED, PUBLISH, SUBSCRIBE, Refusal,
                                         log_text, mosquitto_refusal, user_of_client)
from controller.tournament.certificates import EventTLS, TLSError
from controller.tournament.credentials import Credentials, write_private
from controller.tournament.messages import MAX_PAYLOAD

HOST = "127.0.0.1"
log = logging.getLogger(__name__)

Report = Callable[[Refusal], None]      # where a broker reports what it refused
DYNSEC_PLUGIN = "mosquitto_dynamic_security.so"
# Mosquitto's "debug" lines of every packet, dropped from the log it keeps (a line of each
# refusal among them is reported first, and kept)
CHATTER = ("Received ", "Sending ", "\t", "No will message specified", "Will message specified")
PIPE_BYTES = 1 << 20        # the log pipe's buffer: a second of a flood's lines, if we lag
# The largest MQTT packet either broker takes: a payload of messages.MAX_PAYLOAD and room for
# its topic and headers. The longest real record measured, a random 130-hand match of
# tampoduo, is 56 KB; a game's is under 1 KB (docs/tournament.md). A client sending more is
# disconnected, as MQTT has it, and that is reported.
MAX_PACKET = MAX_PAYLOAD + 1024
# Messages Mosquitto queues for one client beyond those in flight (its default: 1,000): room
# for a second of a flood while the server reads, so that no table's move is dropped
MAX_QUEUED = 10000


class BrokerError(RuntimeError):
    """A broker that will not start or stop; the text says why and what to do."""


def free_port(host: str = HOST) -> int:
    """A TCP port nobody listens on now (the system's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def _reachable(host: str) -> str:
    """Where this computer reaches a listener bound to `host` ("0.0.0.0": itself)."""
    return HOST if host in ("0.0.0.0", "") else "::1" if host == "::" else host


def _accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


class _Managed:
    """What both brokers share: the addresses, `url` and `tls_url`, and the context manager.

    With `tls` (the event's `certificates.EventTLS`) a broker listens twice: plain MQTT on
    `host`:`port` (this computer: the server's own connection), and MQTT over TLS on
    `tls_host`:`tls_port` with the event's server certificate (the tables, across the club's
    Wi-Fi)."""

    host: str
    port: int
    tls: EventTLS | None = None
    tls_host: str = HOST
    tls_port: int = 0

    @property
    def url(self) -> str:
        """The broker's plain address, for the server: ``mqtt://host:port``."""
        return "mqtt://%s:%d" % (self.host, self.port)

    @property
    def tls_url(self) -> str | None:
        """The broker's TLS address, ``mqtts://host:port`` (None without TLS)."""
        if self.tls is None:
            return None
        return "mqtts://%s:%d" % (self.tls_host, self.tls_port)

    def _listen_tls(self, tls: EventTLS | None, host: str, port: int) -> None:
        self.tls = tls
        self.tls_host = host
        self.tls_port = (port or free_port(host)) if tls is not None else 0
        if tls is not None:
            try:
                tls.check()
            except TLSError as error:
                raise BrokerError(str(error)) from None

    def _listening(self) -> bool:
        """Whether every listener accepts connections."""
        return _accepts(self.host, self.port) and (
            self.tls is None or _accepts(_reachable(self.tls_host), self.tls_port))

    def start(self, timeout: float = 10.0) -> None:
        raise NotImplementedError

    def stop(self, timeout: float = 10.0) -> None:
        raise NotImplementedError

    def restart(self, timeout: float = 10.0) -> None:
        """Stop and start again on the same port."""
        self.stop(timeout)
        self.start(timeout)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


# -- Mosquitto -------------------------------------------------------------------------------

def _state(pid: int) -> bytes:
    """The state letter of process `pid` (b"Z": a zombie, gone but not reaped), or b"" once
    it is gone."""
    try:
        return Path("/proc/%d/stat" % pid).read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return b""


def find_mosquitto(binary: str = "mosquitto") -> str:
    """The path of the mosquitto program, also where Debian puts it (/usr/sbin, which is not
    on an ordinary user's PATH), or BrokerError saying how to install it."""
    search = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])
    found = shutil.which(binary, path=search)
    if found is None:
        raise BrokerError("%s not found: install Mosquitto (sudo apt-get install mosquitto), "
                          "or use the embedded broker" % binary)
    return found


def find_dynsec_plugin(program: str) -> str:
    """The path of Mosquitto's dynamic-security plugin (Debian: /usr/lib/<arch>/), or
    BrokerError: without it the broker cannot bind a client id to its user."""
    prefix = Path(program).resolve().parent.parent
    places = [prefix / "lib", *sorted((prefix / "lib").glob("*-linux-gnu*")),
              prefix / "lib" / "mosquitto", Path("/usr/lib"), Path("/usr/local/lib"),
              *sorted(Path("/usr/lib").glob("*-linux-gnu*"))]
    for place in places:
        if (place / DYNSEC_PLUGIN).is_file():
            return str(place / DYNSEC_PLUGIN)
    raise BrokerError("Mosquitto's %s not found (it comes with Mosquitto 2.0 and later: "
                      "sudo apt-get install mosquitto); use the embedded broker meanwhile"
                      % DYNSEC_PLUGIN)


class Mosquitto(_Managed):
    """Mosquitto as a child process, configured in `directory` (created if need be).

    `port` 0 takes a free one (and keeps it across restarts). Without `credentials` anybody
    may connect and do anything (a test bench); with them, only their users, each within
    its rules, with its own client id. Listens on `host` only (this computer by default;
    "0.0.0.0" for the tables of a real event). What it refuses goes to `refusals`.
    """

    def __init__(self, directory: str | os.PathLike, port: int = 0,
                 credentials: Credentials | None = None, host: str = HOST,
                 binary: str = "mosquitto", refusals: Report | None = None,
                 tls: EventTLS | None = None, tls_host: str = HOST, tls_port: int = 0) -> None:
        self.directory = Path(directory)
        self.host = host
        self.port = port or free_port(host)
        self._listen_tls(tls, tls_host, tls_port)
        self.credentials = credentials
        self.binary = binary
        self.refusals = refusals
        self.config_path = self.directory / "mosquitto.conf"
        self.dynsec_path = self.directory / "dynamic-security.json"
        self.log_path = self.directory / "mosquitto.log"
        self.pid_path = self.directory / "mosquitto.pid"        # the one we started, running
        self._process: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self.running else None

    def write_config(self, program: str | None = None) -> Path:
        """Write mosquitto.conf (and with credentials the dynamic-security plugin's file);
        `program` is the mosquitto found (its plugin is looked for beside it)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        lines = [
            "# written by controller.tournament.broker; rewritten at every start",
            "listener %d %s" % (self.port, self.host),
            *self._tls_lines(),
            # As root Mosquitto would switch to the user "mosquitto", who cannot write here.
            "user %s" % pwd.getpwuid(os.getuid()).pw_name,
            "persistence true",
            "persistence_location %s/" % self.directory.resolve(),
            # A stop saves at once; between saves, a crash loses only what the tables send
            # again anyway (presence, state and unacknowledged results on reconnect).
            "autosave_interval 30",
            # small messages out at once: Nagle's algorithm held a move back ~30 ms (the
            # live pages' p90 went from 29 ms to 2 ms with this, `layli bench tournament`)
            "set_tcp_nodelay true",
            "max_packet_size %d" % MAX_PACKET,
            "max_queued_messages %d" % MAX_QUEUED,
            # through a pipe to us (`_keep_log`), which keeps it in mosquitto.log; stderr, as
            # Mosquitto writes each line at once there (stdout it holds back in a buffer)
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
            "log_timestamp_format %Y-%m-%dT%H:%M:%S",
        ]
        if self.credentials is None:
            lines.append("allow_anonymous true")
        else:
            plugin = find_dynsec_plugin(program or find_mosquitto(self.binary))
            self.credentials.write_dynsec_file(self.dynsec_path)
            lines += ["allow_anonymous false",
                      "plugin %s" % plugin,
                      "plugin_opt_config_file %s" % self.dynsec_path.resolve(),
                      # the only lines that tell of a refused publish or login
                      "log_type debug"]
        write_private(self.config_path, ("\n".join(lines) + "\n").encode("utf-8"))
        return self.config_path

    def _tls_lines(self) -> list[str]:
        if self.tls is None:
            return []
        return ["listener %d %s" % (self.tls_port, self.tls_host),
                "certfile %s" % self.tls.cert_path.resolve(),
                "keyfile %s" % self.tls.key_path.resolve(),
                "tls_version tlsv1.2"]          # the oldest it takes

    def start(self, timeout: float = 10.0) -> None:
        """Start Mosquitto and wait until it accepts connections, or BrokerError with the
        end of its log."""
        if self.running:
            return
        program = find_mosquitto(self.binary)
        self.write_config(program)
        self._stop_stale(timeout)
        log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        self._process = subprocess.Popen([program, "-c", str(self.config_path)],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)
        self.pid_path.write_text("%d\n" % self._process.pid, encoding="ascii")
        self._reader = threading.Thread(target=self._keep_log, args=(self._process.stderr,),
                                        name="mosquitto-log", daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                code = self._process.returncode
                self._process = None
                self._reader.join(2)
                raise BrokerError("mosquitto stopped at start (exit status %d):\n%s"
                                  % (code, self._tail()))
            # Listening only counts once our process says it runs: another program could
            # hold the port.
            if self._running_since(log_start) and self._listening():
                return
            time.sleep(0.02)
        self.stop()
        raise BrokerError("mosquitto did not accept connections on %s:%d within %.0f s:\n%s"
                          % (self.host, self.port, timeout, self._tail()))

    def _stop_stale(self, timeout: float) -> None:
        """A Mosquitto of this directory left running by a `serve` that was killed (its PID in
        mosquitto.pid, its command line naming this config) holds the port: stop it, and say
        so. A PID that is gone, or is another program now, is only forgotten."""
        try:
            pid = int(self.pid_path.read_text(encoding="ascii").strip())
            command = Path("/proc/%d/cmdline" % pid).read_bytes().split(b"\0")
        except (OSError, ValueError):
            self.pid_path.unlink(missing_ok=True)
            return
        if str(self.config_path).encode() not in command or not any(
                part.endswith(b"mosquitto") for part in command):
            self.pid_path.unlink(missing_ok=True)
            return
        log.warning("a Mosquitto left running by an earlier serve (PID %d, %s): stopping it",
                    pid, self.config_path)
        try:
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and Path("/proc/%d" % pid).exists() and \
                    b"Z" not in _state(pid):
                time.sleep(0.02)
            if Path("/proc/%d" % pid).exists() and b"Z" not in _state(pid):
                os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        except PermissionError as error:
            raise BrokerError("a Mosquitto left running (PID %d) holds the event's broker and "
                              "cannot be stopped from here (%s): stop it, then start again"
                              % (pid, error)) from None
        self.pid_path.unlink(missing_ok=True)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop Mosquitto (it saves its retained messages first)."""
        process, self._process = self._process, None
        self.pid_path.unlink(missing_ok=True)
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        self._end_log()

    def kill(self) -> None:
        """Stop Mosquitto the way a power cut does: nothing saved since its last autosave."""
        process, self._process = self._process, None
        self.pid_path.unlink(missing_ok=True)
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
        self._end_log()

    def _end_log(self) -> None:
        """Wait for the log's last lines (the pipe ends with the process)."""
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.join(2)

    def _keep_log(self, stream: Any) -> None:
        """Read Mosquitto's log from its pipe until it ends: report each refusal, keep in
        mosquitto.log every line but the chatter of each packet."""
        try:
            import fcntl
            fcntl.fcntl(stream.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        except (ImportError, AttributeError, OSError):
            pass                        # the default buffer: Mosquitto waits if we lag
        # Whatever goes wrong here, the pipe is read to its end: Mosquitto would block on a
        # full one, and the event's broker with it.
        try:
            kept = open(self.log_path, "ab")
        except OSError as error:
            log.error("%s cannot be written (%s): Mosquitto's log is read, not kept",
                      self.log_path, error)
            kept = None
        with stream:
            for raw in stream:
                line = raw.decode("utf-8", "replace")
                refusal = mosquitto_refusal(line)
                if refusal is not None and self.refusals is not None:
                    try:
                        self.refusals(refusal)
                    except Exception:           # the log must go on being read
                        log.exception("reporting %r failed", refusal)
                if kept is None or (refusal is None and log_text(line).startswith(CHATTER)):
                    continue
                try:
                    kept.write(raw)
                    kept.flush()
                except OSError as error:        # a full disk: read on, keep nothing
                    log.error("%s: %s; Mosquitto's log is read, no longer kept",
                              self.log_path, error)
                    kept.close()
                    kept = None
        if kept is not None:
            kept.close()

    def _running_since(self, offset: int) -> bool:
        try:
            with open(self.log_path, "rb") as file:
                file.seek(offset)
                return b" running" in file.read()
        except OSError:
            return False

    def _tail(self, lines: int = 15) -> str:
        text = ""
        if self.log_path.exists():
            text = "".join(self.log_path.read_text(errors="replace").splitlines(True)[-lines:])
        return text.rstrip() or "(mosquitto wrote nothing)"


# -- the embedded broker ---------------------------------------------------------------------

class EmbeddedBroker(_Managed):
    """An MQTT broker inside this process (amqtt, its own thread and asyncio loop).

    Without `credentials` anybody may do anything; with them, as `Mosquitto`. With a
    `directory`, retained messages are kept in ``retained.json`` there and survive a restart;
    without, they go with the broker.
    """

    def __init__(self, directory: str | os.PathLike | None = None, port: int = 0,
                 credentials: Credentials | None = None, host: str = HOST,
                 refusals: Report | None = None, tls: EventTLS | None = None,
                 tls_host: str = HOST, tls_port: int = 0) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.host = host
        self.port = port or free_port(host)
        self._listen_tls(tls, tls_host, tls_port)
        self.credentials = credentials
        self.refusals = refusals
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: Broker | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def config(self) -> dict[str, Any]:
        """amqtt's configuration of this broker."""
        here = __name__
        plugins: dict[str, Any] = {}
        if self.credentials is None:
            plugins["amqtt.plugins.authentication.AnonymousAuthPlugin"] = {"allow_anonymous": True}
        else:
            plugins[here + ".CredentialsCheck"] = {"credentials": self.credentials,
                                                   "report": self._report}
            plugins[here + ".AccessRules"] = {"credentials": self.credentials,
                                              "report": self._report}
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
            plugins[here + ".RetainedFile"] = {"path": str(self.directory / "retained.json")}
        listeners: dict[str, Any] = {
            "default": {"type": "tcp", "bind": "%s:%d" % (self.host, self.port)}}
        if self.tls is not None:
            listeners["tls"] = {"type": "tcp", "bind": "%s:%d" % (self.tls_host, self.tls_port),
                                "ssl": True, "certfile": str(self.tls.cert_path),
                                "keyfile": str(self.tls.key_path)}
        return {"listeners": listeners, "plugins": plugins}

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker's thread and wait until it accepts connections."""
        if self.running:
            return
        started = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                self._broker = loop.run_until_complete(self._start_broker())
            except BaseException as error:       # reported to start()'s caller
                failure.append(error)
                started.set()
                loop.close()
                return
            started.set()
            loop.run_forever()
            # what asyncio.run does at its end: amqtt leaves client tasks behind at shutdown
            left = asyncio.all_tasks(loop)
            for task in left:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="embedded-broker", daemon=True)
        self._thread.start()
        if not started.wait(timeout):
            raise BrokerError("the embedded broker did not start within %.0f s" % timeout)
        if failure:
            self._thread.join()
            self._thread = self._loop = None
            raise BrokerError("the embedded broker did not start on %s:%d: %s"
                              % (self.host, self.port, failure[0]))

    def _report(self, refusal: Refusal) -> None:
        if self.refusals is not None:
            try:
                self.refusals(refusal)
            except Exception:               # the broker goes on whatever the audit does
                log.exception("reporting %r failed", refusal)

    async def _start_broker(self) -> Broker:
        broker = _Broker(self.config(), report=self._report)
        await broker.start()
        return broker

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the broker, disconnecting its clients."""
        thread, loop, broker = self._thread, self._loop, self._broker
        self._thread = self._loop = self._broker = None
        if thread is None or loop is None:
            return
        if broker is not None and thread.is_alive():
            future = asyncio.run_coroutine_threadsafe(broker.stop_within(timeout / 2), loop)
            try:
                future.result(timeout)
            except Exception as error:            # stopping anyway; say why it was not clean
                log.warning("the embedded broker did not shut down cleanly: %r", error)
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)


class _Snapshots(dict):
    """amqtt's table of subscriptions, walked over copies: amqtt awaits (the delivery checks)
    while it walks the table, and a client subscribing or leaving meanwhile ended the walk
    with "dictionary changed size during iteration" -- and the message with it."""

    def __iter__(self):
        return iter(list(dict.keys(self)))

    def items(self):
        return [(key, list(value)) for key, value in dict.items(self)]


class Oversized(Exception):
    """A packet larger than the broker takes: its connection ends."""


class _LimitedReader(StreamReaderAdapter):
    """amqtt's reader of one connection, which follows the MQTT framing of what passes
    through it and refuses a packet whose declared length is over `MAX_PACKET` before its
    body is read (amqtt would read up to 256 MB: a SUBSCRIBE a filter at a time, each read
    small): the connection ends, as Mosquitto's ``max_packet_size`` ends it, and the refusal
    is reported. `who` is the connection's user once known, its address before."""

    TYPE, LENGTH, BODY = range(3)

    def __init__(self, reader: asyncio.StreamReader, report: Report) -> None:
        super().__init__(reader)
        self.report = report
        self.who = "somebody"
        self._state = self.TYPE
        self._length = self._shift = self._left = 0

    async def read(self, n: int = -1) -> bytes:
        data = await super().read(n)
        self._follow(data)
        return data

    def _follow(self, data: bytes) -> None:
        """Walk the packets' fixed headers (a type byte, then the remaining length, 7 bits a
        byte) and count their bodies down."""
        at = 0
        while at < len(data):
            if self._state == self.BODY:
                taken = min(self._left, len(data) - at)
                self._left -= taken
                at += taken
                if not self._left:
                    self._state = self.TYPE
                continue
            byte = data[at]
            at += 1
            if self._state == self.TYPE:
                self._state, self._length, self._shift = self.LENGTH, 0, 0
                continue
            self._length += (byte & 0x7F) << self._shift
            self._shift += 7
            if byte & 0x80 and self._shift < 28:
                continue
            if self._length > MAX_PACKET or byte & 0x80:
                self.report(Refusal(OVERSIZED, self.who, "a packet of %d bytes or more"
                                    % self._length))
                raise Oversized("%s sent a packet of %d bytes, more than %d" % (
                    self.who, self._length, MAX_PACKET))
            self._left = self._length
            self._state = self.BODY if self._left else self.TYPE


async def _close(writer: Any) -> None:
    """Close a refused connection's writer; one the client has already dropped (reset, a
    TLS session ended first) is closed all the same."""
    try:
        await writer.close()
    except OSError:
        pass


class _Broker(Broker):
    """amqtt's broker, delivering every message while clients come and go, dropping clients
    gone silent, and sending retained messages only where they belong."""

    def __init__(self, *args: Any, report: Report = lambda refusal: None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._subscriptions = _Snapshots()
        self.report = report

    async def stop_within(self, seconds: float) -> None:
        """amqtt's shutdown, given `seconds`; whatever becomes of it, the port is let go, so
        that a restart can listen on it again."""
        try:
            await asyncio.wait_for(self._close_then_shutdown(), seconds)
        except Exception as error:                  # reported, and the port freed anyway
            log.warning("the embedded broker did not shut down cleanly: %r", error)
        finally:
            for server in self._servers.values():
                if server.instance is not None:
                    server.instance.close()

    async def _close_then_shutdown(self) -> None:
        # amqtt stops each client by cancelling its reader; under Python 3.11 a cancellation
        # that meets an arriving packet is lost (asyncio.wait_for), and the shutdown waits a
        # keep-alive for that reader. Closing the connections first ends every reader at once.
        for _session, handler in list(self._sessions.values()):
            if handler is not None and handler.writer is not None:
                await handler.writer.close()
        await self.shutdown()

    async def stream_connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                               listener_name: str) -> None:
        await self._client_connected(listener_name, _LimitedReader(reader, self.report),
                                     StreamWriterAdapter(writer))

    async def _initialize_client_session(self, reader: Any, writer: Any, remote_address: str,
                                         remote_port: int) -> tuple[Any, Any]:
        # amqtt sets a connection's session up before it asks who connects: a newcomer with
        # someone else's client id deleted that one's subscriptions (a clean session) or gave
        # its session the newcomer's username (a resumed one), and the connection it silenced
        # stayed open. Here the plugins judge the newcomer first (its password, its client
        # id); one refused is told so and changes nothing. Every session is a clean one (the
        # event's clients ask for nothing else; amqtt would keep the others in memory only).
        if isinstance(reader, _LimitedReader):
            reader.who = remote_address
        try:
            handler, session = await BrokerProtocolHandler.init_from_connect(
                reader, writer, self.plugins_manager)
        except (MQTTError, Oversized) as error:
            await _close(writer)
            raise MQTTError(str(error)) from None
        if not await self._authenticate(session, None):
            handler.attach(session, reader, writer)
            try:
                await handler.mqtt_connack_authorize(False)
            except OSError:
                pass                    # it has gone already: refused all the same
            await _close(writer)
            raise MQTTError("%s refused: %s:%s" % (_shown(session.client_id), remote_address,
                                                   remote_port))
        if isinstance(reader, _LimitedReader):
            reader.who = _shown(session.username)
        session.clean_session = True
        old, old_handler = self._sessions.get(session.client_id, (None, None))
        if old_handler is not None and old.transitions.is_connected():
            # as Mosquitto does: the older connection of a client id is closed (its will goes)
            self.report(Refusal(AGAIN, user_of_client(session.client_id),
                                "client id " + session.client_id))
            await old_handler.handle_connection_closed()
        if session.client_id:
            await self._delete_session(session.client_id)
        else:
            session.client_id = "auto-%s" % secrets.token_hex(8)     # as amqtt would
        session.parent = 0
        return handler, session

    async def _handle_client_session(self, reader: Any, writer: Any, client_session: Any,
                                     handler: Any, server: Any, listener_name: str) -> None:
        # amqtt's broker never drops a client gone silent (its handler ignores the keep-alive
        # timeout): a table whose network vanished without closing the connection would stay
        # "online" for ever. As MQTT (and Mosquitto) has it, one and a half keep-alives of
        # silence end the connection, and the will goes out.
        if client_session.keep_alive > 0:
            client_session.keep_alive = math.ceil(client_session.keep_alive * 1.5)

            def silent() -> None:
                asyncio.ensure_future(handler.handle_connection_closed())
            handler.handle_read_timeout = silent
        await super()._handle_client_session(reader, writer, client_session, handler, server,
                                             listener_name)

    async def _publish_retained_messages_for_subscription(self, subscription: tuple[str, int],
                                                          session: Any) -> None:
        # amqtt calls this when `session` subscribes to a filter, and when any client connects
        # for every filter anyone has subscribed to: only the session's own subscriptions
        # count, at the QoS it was granted, and only for topics it may read.
        topic_filter = subscription[0]
        granted = [qos for subscriber, qos in self._subscriptions.get(topic_filter, ())
                   if subscriber.client_id == session.client_id]
        handler = self._get_handler(session)
        if not granted or handler is None:
            return
        sends = []
        for topic, retained in list(self._retained_messages.items()):
            if (self._matches(topic, topic_filter)
                    and await self._topic_filtering(session, topic, Action.RECEIVE)):
                qos = min(granted[0], retained.qos or 0)
                sends.append(asyncio.ensure_future(
                    handler.mqtt_publish(retained.topic, retained.data, qos, retain=True)))
        if sends:
            await asyncio.wait(sends)


class CredentialsCheck(BaseAuthPlugin):
    """amqtt plugin: a user gets in with its own password, its own client id
    (`Credentials.client_id`), and a will only on a topic it may write; each refusal is
    reported (`Refusal`, `LOGIN`)."""

    @dataclass
    class Config:
        credentials: Any = None
        report: Any = None

    async def authenticate(self, *, session: Any) -> bool:
        why = self.refused(session)
        if why is None:
            return True
        known = session.username in self.config.credentials.users()
        who = session.username if known else (session.remote_address or "somebody")
        self.context.logger.warning("login refused: %s (%s)", who, why)
        if self.config.report is not None:
            self.config.report(Refusal(LOGIN, who, why))
        return False

    def refused(self, session: Any) -> str | None:
        """Why `session` may not connect, or None when it may."""
        credentials: Credentials = self.config.credentials
        username, given = session.username, session.password
        if username is None or given is None:
            return "no username or password"
        if username not in credentials.users():
            return "no user %r" % _shown(username)
        if isinstance(given, bytes):
            given = given.decode("utf-8", "replace")
        if not hmac.compare_digest(given.encode("utf-8"),
                                   credentials.password(username).encode("utf-8")):
            return "a wrong password"
        own = credentials.client_id(username)
        if own is not None and session.client_id != own:
            return "client id %r, not its own %r" % (_shown(session.client_id), own)
        if session.will_flag and not credentials.allows(username, "write", session.will_topic):
            return "a will on %s, not its own topic" % _shown(session.will_topic)
        return None


def _shown(text: Any, longest: int = 80) -> str:
    """A client's own words, safe to log: printable, and cut short."""
    text = "".join(char if char.isprintable() else "?" for char in str(text))
    return text if len(text) <= longest else text[:longest] + "…"


class AccessRules(BaseTopicPlugin):
    """amqtt plugin: what each user may publish, subscribe to and receive
    (`Credentials.allows`); a refused publish or subscription is reported (`Refusal`)."""

    @dataclass
    class Config:
        credentials: Any = None
        report: Any = None

    ACCESS = {Action.PUBLISH: "write", Action.SUBSCRIBE: "subscribe", Action.RECEIVE: "read"}
    REPORTED = {Action.PUBLISH: PUBLISH, Action.SUBSCRIBE: SUBSCRIBE}

    async def topic_filtering(self, *, session: Any = None, topic: str | None = None,
                              action: Action | None = None) -> bool:
        if session is None or topic is None or action not in self.ACCESS:
            return False
        if self.config.credentials.allows(session.username, self.ACCESS[action], topic):
            return True
        if action in self.REPORTED and self.config.report is not None:
            self.config.report(Refusal(self.REPORTED[action], _shown(session.username),
                                       _shown(topic)))
        return False


class RetainedFile(BasePlugin):
    """amqtt plugin: the retained messages kept in a JSON file, put back at start.

    Writes are gathered for a moment (`DELAY`) so that a busy event does not rewrite the
    file for every state message; a crash loses at most that moment, which the tables
    publish again when they reconnect."""

    DELAY = 0.2

    @dataclass
    class Config:
        path: str = ""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self._kept: dict[str, tuple[bytes, int]] = {}
        self._pending: asyncio.TimerHandle | None = None

    async def on_broker_post_start(self) -> None:
        path = Path(self.config.path)
        if not path.exists():
            return
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            for topic, (data, qos) in stored.items():
                self._kept[topic] = (base64.b64decode(data), int(qos))
        except (ValueError, TypeError) as error:
            self.context.logger.error("%s: retained messages unreadable, starting without: %s",
                                      path, error)
            self._kept.clear()
        for topic, (data, qos) in self._kept.items():
            self.context.retained_messages[topic] = RetainedApplicationMessage(None, topic, data, qos)

    async def on_broker_retained_message(self, *, client_id: str | None,
                                         retained_message: RetainedApplicationMessage) -> None:
        if client_id is not None:        # kept for one offline session, not for the topic
            return
        if retained_message.data:
            self._kept[retained_message.topic] = (bytes(retained_message.data),
                                                  retained_message.qos or 0)
        else:
            self._kept.pop(retained_message.topic, None)
        if self._pending is None:
            self._pending = asyncio.get_running_loop().call_later(self.DELAY, self._write)

    async def on_broker_post_shutdown(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._write()

    def _write(self) -> None:
        self._pending = None
        stored = {topic: [base64.b64encode(data).decode("ascii"), qos]
                  for topic, (data, qos) in self._kept.items()}
        write_private(self.config.path, json.dumps(stored).encode("utf-8"))
