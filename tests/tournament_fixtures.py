"""Brokers and listeners for the tournament's tests: import what a test file needs,

    from tournament_fixtures import credentials, mosquitto, embedded_broker, broker, Listener

- `credentials`: an event "test-event" with the tables in TABLES and the server user;
- `mosquitto`: a real Mosquitto with those credentials and the ACL, on a free port in the
  test's own directory (skipped, saying how to install it, when there is no mosquitto);
- `embedded_broker`: the embedded broker with the same credentials and rules;
- `broker`: each test that uses it runs twice, once on each of the two;
- `Listener`: an MQTT client (the server's user by default) that records what it receives;
- `wait_for(condition)`: polls until `condition()` is true, or fails saying what it waited for.

Every wait polls against a deadline: nothing sleeps longer than it must.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.tournament.broker import BrokerError, EmbeddedBroker, Mosquitto, find_mosquitto
from controller.tournament import messages
from controller.tournament.credentials import SERVER_USER, TABLE_CLIENT_PREFIX, Credentials
from controller.tournament.table import broker_address

TABLES = ("table-1", "table-2", "table-3")
EVENT = "test-event"
WAIT = 5.0          # seconds: how long any one thing may take before a test fails


def wait_for(condition: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """The first true value of `condition()`, polled every few milliseconds, or a test
    failure naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail("waited %.1f s for %s" % (timeout, what))
        time.sleep(0.01)


class Received(NamedTuple):
    topic: str
    payload: bytes
    retain: bool


class Listener:
    """An MQTT client that subscribes to `topics` (again after each reconnect) and records
    every message; the server's user unless told otherwise."""

    def __init__(self, url: str, username: str, password: str,
                 topics: tuple[str, ...] = ("layli/#",), connect: bool = True,
                 client_id: str | None = None) -> None:
        self.received: list[Received] = []
        self.refused: str | None = None
        self._connected = threading.Event()
        self._lock = threading.Lock()
        self.topics = topics
        if client_id is None:       # a table's own id (the brokers take no other), or one apart
            client_id = (TABLE_CLIENT_PREFIX + username if messages.is_table_id(username)
                         else "listener-%d" % id(self))
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  protocol=mqtt.MQTTv311)
        self.client.username_pw_set(username, password)
        self.client.reconnect_delay_set(0.05, 0.5)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *args: self._connected.clear()
        self.client.on_message = self._on_message
        host, port, _tls = broker_address(url)
        self.client.connect_async(host, port, keepalive=10)
        self.client.loop_start()
        if connect:
            wait_for(lambda: self._connected.is_set() or self.refused,
                     "the listener to connect to " + url)
            if self.refused:
                self.close()
                pytest.fail("the broker refused the listener: %s" % self.refused)

    @classmethod
    def server(cls, url: str, credentials: Credentials, **kwargs: Any) -> "Listener":
        return cls(url, SERVER_USER, credentials.password(SERVER_USER), **kwargs)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = str(reason_code)
            return
        client.subscribe([(topic, 1) for topic in self.topics])
        self._connected.set()

    def _on_message(self, client, userdata, message) -> None:
        with self._lock:
            self.received.append(Received(message.topic, message.payload, bool(message.retain)))

    def messages(self, topic: str | None = None) -> list[Received]:
        with self._lock:
            return [m for m in self.received if topic is None or m.topic == topic]

    def wait_for(self, topic: str, test: Callable[[Received], bool] = lambda m: True,
                 timeout: float = WAIT) -> Received:
        """The first message on `topic` that passes `test` (already received or to come)."""
        def found():
            return next((m for m in self.messages(topic) if test(m)), None)
        return wait_for(found, "a message on " + topic, timeout)

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        info.wait_for_publish(WAIT)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def credentials() -> Credentials:
    return Credentials.generate(EVENT, TABLES)


@pytest.fixture
def mosquitto(tmp_path, credentials) -> Iterator[Mosquitto]:
    try:
        find_mosquitto()
    except BrokerError as error:
        pytest.skip(str(error))
    broker = Mosquitto(tmp_path / "mosquitto", credentials=credentials)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def embedded_broker(tmp_path, credentials) -> Iterator[EmbeddedBroker]:
    broker = EmbeddedBroker(tmp_path / "embedded", credentials=credentials)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(params=["mosquitto", "embedded"])
def broker(request):
    """Mosquitto, then the embedded broker: the same test on both."""
    return request.getfixturevalue(request.param if request.param == "mosquitto"
                                   else "embedded_broker")
