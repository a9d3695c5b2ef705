"""The tables' MQTT side of a tournament: messages, credentials, the brokers and TableLink.

The broker tests run real brokers that they start, stop, restart and kill themselves: Mosquitto
(a child process) and the embedded amqtt broker, most of them on both (`broker`). A table
that loses power is a child process running a TableLink, killed with SIGKILL.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from controller.tournament import messages
from controller.tournament.broker import BrokerError, EmbeddedBroker, Mosquitto, find_mosquitto
from controller.tournament.certificates import EventTLS
from controller.tournament.credentials import (SERVER_USER, Credentials,
                                               CredentialsError, mosquitto_hash)
from controller.tournament.messages import MessageError, topic, validate
from controller.tournament.table import RESULTS_FILE, TableLink, TableStateError
from tournament_fixtures import (EVENT, Listener, broker, credentials,  # noqa: F401
                                 embedded_broker, mosquitto, wait_for)

ROOT = Path(__file__).resolve().parent.parent
GAME = "test-event/r1/b1"
FAST = {"reconnect_delay": (0.05, 0.5)}          # tests reconnect at once

STATE = dict(game=GAME, status="playing", variant="layli-goobalay", pits=[4] * 12,
             uur=[None] * 12, captured=[0, 0], to_move=0, ply=0, players=["Ayan", "Hodan"],
             faults=[], at=1.5)


def _payloads() -> dict[str, bytes]:
    """One valid payload of each kind, for table-1."""
    return {
        "presence": messages.presence("table-1", "online", "0.1.0", 1.0),
        "state": messages.state("table-1", **STATE),
        "move": messages.move("table-1", GAME, 1, 3, 2.0),
        "result": messages.result("table-1", GAME, 0.5, 24, 24, "[Event \"x\"]\n\n1. 3 *", 3.0),
        "assignment": messages.assignment("table-1", GAME, 1, 1, "layli-goobalay",
                                          {"hands": 3, "setup": [7] * 14}, ["Ayan", "Hodan"],
                                          "test-event", moves=[3, 1]),
        "ack": messages.ack("table-1", GAME),
    }


# -- messages ---------------------------------------------------------------------------------

def test_every_kind_round_trips_with_its_keys_in_order():
    for kind, payload in _payloads().items():
        name = topic("table-1", kind)
        message = validate(name, payload)
        assert (message.table, message.kind, message.topic) == ("table-1", kind, name)
        assert list(message.fields)[:2] == ["v", "table"]
        assert list(message.fields)[2:] == [key for key, _check in messages.SCHEMA[kind]]
        assert json.loads(payload) == message.fields
    assert validate(topic("table-1", "result"), _payloads()["result"]).fields["south_points"] == 0.5
    nothing = messages.assignment("table-1", None, 2, 0, "", {}, ["", ""], "test-event")
    assert validate(topic("table-1", "assignment"), nothing).fields["game"] is None


def test_topics_and_games():
    assert messages.parse_topic("layli/table/t-9/ack") == ("t-9", "ack")
    assert messages.topic_filter("state") == "layli/table/+/state"
    for bad, why in [("layli/table/T1/ack", '"T1" is not a table id'),
                     ("layli/table/t1/score", '"score" is not a kind'),
                     ("layli/table/t1/ack/x", "is not layli/table/<table>/<kind>"),
                     ("other/table/t1/ack", "is not under layli/table/"),
                     ("layli/table/" + "a" * 33 + "/ack", "is not a table id")]:
        with pytest.raises(MessageError, match=why):
            messages.parse_topic(bad)
    with pytest.raises(MessageError, match="not a table id"):
        topic("table 1", "move")
    assert messages.parse_game(messages.game_id("Hargeisa Open", 12, 3)) == ("Hargeisa Open", 12, 3)
    assert messages.game_id("Open + Blitz #2", 1, 1) == "Open + Blitz #2/r1/b1"
    for bad in ["x/r0/b1", "x/r1", "a/b/r1/b1", "/r1/b1", "x/r1/b1 ", " x/r1/b1", "x" * 101 + "/r1/b1"]:
        with pytest.raises(MessageError, match="not a game id"):
            messages.parse_game(bad)


def _changed(kind: str, **changes) -> bytes:
    data = json.loads(_payloads()[kind])
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data).encode()


MALFORMED = [
    # (kind, payload, what the error must say)
    ("move", b"\xff\xfe", "not UTF-8 (byte 0)"),
    ("move", b"{\"v\": 1,", "not JSON"),
    ("move", b"[1, 2]", "a list, not a JSON object"),
    ("move", b'"move"', "text, not a JSON object"),
    ("move", b"[" * 32000 + b"]" * 32000, "nests too deep"),
    ("move", b" " * (65 * 1024), "65 * 1024"),
    ("move", _changed("move", at=1).replace(b'"at": 1', b'"at": NaN'), "NaN is not a number"),
    ("move", _changed("move").replace(b'{"v": 1', b'{"v": 1, "v": 1'), 'the key "v" appears twice'),
    ("move", _changed("move", v=KeyError), '"v" (the payload version) is missing'),
    ("move", _changed("move", v=2), '"v" is 2: payload version 1'),
    ("move", _changed("move", v=True), '"v" is true'),
    ("move", _changed("move", ply=KeyError), 'missing "ply"'),
    ("move", _changed("move", extra=1), 'unknown "extra"'),
    ("move", _changed("move", ply=True), '"ply" is true, not a whole number'),
    ("move", _changed("move", ply=0), '"ply" is 0, not a whole number from 1'),
    ("move", _changed("move", move=2.0), '"move" is 2.0, not a whole number'),
    ("move", _changed("move", table="table-2"), '"table" is "table-2", not the topic\'s table "table-1"'),
    ("move", _changed("move", table="Table 1"), '"table" is "Table 1", not a table id'),
    ("move", _changed("move", game="r1/b1"), '"game" is "r1/b1", not a game id'),
    ("move", _changed("move", at=-1), '"at" is -1, not a time'),
    ("move", _changed("move", at="now"), '"at" is "now", not a time'),
    ("move", _changed("move", at=10 ** 400), 'not a time in seconds'),
    ("move", _changed("move", at=1).replace(b'"at": 1', b'"at": 1e400'), '"at" is Infinity'),
    ("move", _changed("move", at=1).replace(b'"at": 1', b'"at": 1' + b"0" * 5000), "not JSON"),
    ("presence", _changed("presence", firmware="\ud800"), "unpaired surrogate"),
    ("presence", _changed("presence", status="away"), '"status" is "away", not one of "online", "offline"'),
    ("state", _changed("state", pits=[4] * 11, uur=[None] * 11), '"pits" has 11 places, not two equal rows'),
    ("state", _changed("state", uur=[None] * 10), '"uur" has 10 items, not one per pit'),
    ("state", _changed("state", uur=[None] * 11 + [2]), '"uur"[11] is 2, not one of 0, 1'),
    ("state", _changed("state", pits=[4] * 11 + [-1]), '"pits"[11] is -1'),
    ("state", _changed("state", captured=[0]), '"captured" has 1 items, not 2 items'),
    ("state", _changed("state", to_move=False), '"to_move" is false, not one of 0, 1'),
    ("state", _changed("state", players=["Ayan", "Ho\x00dan"]), 'control character'),
    ("result", _changed("result", south_points=0.25), '"south_points" is 0.25, not South\'s points'),
    ("result", _changed("result", south_points=True), '"south_points" is true'),
    ("result", _changed("result", north_seeds=None), '"north_seeds" is null'),
    ("result", _changed("result", record=""), '"record" is empty'),
    ("assignment", _changed("assignment", game="test-event/r1/b2"), 'but event, round and board make it "test-event/r1/b1"'),
    ("assignment", _changed("assignment", options={"hands": {"a": 1}}), 'not an option value'),
    ("assignment", _changed("assignment", game=None, board=1), '"board" is 1, not 0 with no game'),
    ("assignment", _changed("assignment", players=["Ayan", ""]), '"players"[1] is empty'),
    ("assignment", _changed("assignment", moves=[3, 0]), '"moves"[1] is 0, not a whole number from 1'),
    ("assignment", _changed("assignment", moves="3 1"), '"moves" is "3 1", not a list'),
    ("assignment", _changed("assignment", game=None, board=0, moves=[3]), '"moves" has 1 moves, not none with no game'),
    ("ack", _changed("ack", game=None), '"game" is null, not a game id'),
    ("ack", _changed("ack", game="x\u0085y/r1/b1"), '"game" has a control character'),
]


@pytest.mark.parametrize("kind, payload, why", MALFORMED,
                         ids=["%s-%d" % (case[0], i) for i, case in enumerate(MALFORMED)])
def test_malformed_payloads_are_named(kind, payload, why):
    name = topic("table-1", kind)
    with pytest.raises(MessageError) as error:
        validate(name, payload)
    text = str(error.value)
    assert text.startswith(name + ": ")
    assert why.replace("65 * 1024", str(65 * 1024)) in text


def test_builders_check_what_they_are_given():
    with pytest.raises(MessageError, match=r'layli/table/table-1/result: "south_points" is 2'):
        messages.result("table-1", GAME, 2, 0, 0, "x", 1.0)
    with pytest.raises(MessageError, match=r'"pits" is null, not a list'):
        messages.state("table-1", **dict(STATE, pits=None))
    with pytest.raises(MessageError, match="more than 65536"):
        messages.result("table-1", GAME, 1, 0, 0, "x" * 65530, 1.0)
    # tuples are lists, points floats
    payload = messages.state("table-1", **dict(STATE, captured=(3, 4)))
    assert json.loads(payload)["captured"] == [3, 4]
    assert b'"south_points":1.0' in messages.result("table-1", GAME, 1, 30, 18, "x", 1.0)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(10 ** 20, 10 ** 400) | st.floats()
    | st.text(st.characters(exclude_categories=()), max_size=8),   # surrogates too
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(messages.KINDS), data=st.binary(max_size=200) | JSON.map(
    lambda value: json.dumps(value).encode()))
def test_random_bytes_and_json_raise_only_message_error(kind, data):
    try:
        validate(topic("table-1", kind), data)
    except MessageError:
        pass


@given(name=st.text(max_size=40) | st.builds(
    "/".join, st.lists(st.sampled_from(["layli", "table", "t-1", "+", "#", "", "ack", "X"]),
                       max_size=5)))
def test_random_topics_raise_only_message_error(name):
    try:
        table, kind = messages.parse_topic(name)
    except MessageError:
        return
    assert topic(table, kind) == name


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(messages.KINDS), key=st.text(max_size=12), value=JSON,
       drop=st.booleans())
def test_a_valid_payload_with_one_key_changed_raises_only_message_error(kind, key, value, drop):
    data = json.loads(_payloads()[kind])
    key = key if key and not drop else sorted(data)[len(key) % len(data)]
    if drop:
        del data[key]
    else:
        data[key] = value
    try:
        message = validate(topic("table-1", kind), json.dumps(data).encode())
    except MessageError:
        return
    assert message.fields["v"] == 1 and message.table == "table-1"


# -- credentials ------------------------------------------------------------------------------

def test_credentials_save_and_load(tmp_path):
    credentials = Credentials.generate(EVENT, ["table-10", "table-2", "table-1"])
    assert list(credentials.tables) == ["table-1", "table-2", "table-10"]
    assert len(set(credentials.users().values())) == 4
    path = tmp_path / "credentials.json"
    credentials.save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Credentials.load(path) == credentials
    with pytest.raises(CredentialsError, match="no user 'table-4'"):
        credentials.password("table-4")
    with pytest.raises(CredentialsError, match="tables named twice: t1"):
        Credentials.generate(EVENT, ["t1", "t1"])


@pytest.mark.parametrize("change, why", [
    (lambda d: d.update(v=2), "version 2"),
    (lambda d: d.pop("tables"), "not a credentials file"),
    (lambda d: d["tables"].update({"Table 9": "x" * 20}), "a table is 'Table 9', not a table id"),
    (lambda d: d["tables"].update({"table-1": "short"}), "table table-1's password is 'short'"),
    (lambda d: d["server"].update(username="table-1"), "server_user is 'table-1'"),
    (lambda d: d.update(event="a/b"), "event is 'a/b', not an event name"),
])
def test_credentials_load_names_what_is_wrong(tmp_path, change, why):
    path = tmp_path / "credentials.json"
    Credentials.generate(EVENT, ["table-1"]).save(path)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(CredentialsError) as error:
        Credentials.load(path)
    assert str(error.value).startswith(str(path)) and why in str(error.value)


def test_credentials_others_may_not_read(tmp_path):
    path = tmp_path / "credentials.json"
    Credentials.generate(EVENT, ["table-1"]).save(path)
    os.chmod(path, 0o644)
    with pytest.raises(CredentialsError, match=r"others may read it \(mode 644\); chmod 600"):
        Credentials.load(path)
    with pytest.raises(CredentialsError, match="cannot read"):
        Credentials.load(tmp_path / "missing.json")


def test_passwords_hashed_as_mosquitto_passwd_hashes_them(tmp_path):
    """Our hash of a password with mosquitto_passwd's salt is mosquitto_passwd's hash (the
    dynamic-security plugin keeps the same PBKDF2-SHA512, in pieces)."""
    if shutil.which("mosquitto_passwd", path=os.environ.get("PATH", "") + ":/usr/bin") is None:
        pytest.skip("mosquitto_passwd not installed (sudo apt-get install mosquitto)")
    theirs = tmp_path / "theirs"
    theirs.touch()
    subprocess.run(["mosquitto_passwd", "-b", str(theirs), "table-1", "a-password-of-ours"],
                   check=True)
    user, hashed = theirs.read_text().strip().split(":", 1)
    _, seven, iterations, salt, digest = hashed.split("$")
    assert (user, seven) == ("table-1", "7")
    assert mosquitto_hash("a-password-of-ours", base64.b64decode(salt), int(iterations)) == (
        salt, digest, int(iterations))


def test_dynamic_security_file_and_the_same_rules_in_python(tmp_path):
    credentials = Credentials.generate(EVENT, ["table-1", "table-2"])
    credentials.write_dynsec_file(tmp_path / "dynsec.json")
    assert stat.S_IMODE((tmp_path / "dynsec.json").stat().st_mode) == 0o600
    data = json.loads((tmp_path / "dynsec.json").read_text())
    assert data["defaultACLAccess"] == {"publishClientSend": False, "publishClientReceive": False,
                                        "subscribe": False, "unsubscribe": True}
    clients = {client["username"]: client for client in data["clients"]}
    assert list(clients) == [SERVER_USER, "table-1", "table-2"]
    assert "clientid" not in clients[SERVER_USER]          # the server's user: any id
    assert clients["table-2"]["clientid"] == "layli-table-2" == credentials.client_id("table-2")
    for user, client in clients.items():
        digest = hashlib.pbkdf2_hmac("sha512", credentials.password(user).encode(),
                                     base64.b64decode(client["salt"]), client["iterations"])
        assert base64.b64decode(client["password"]) == digest
        assert client["roles"] == [{"rolename": user}]
    roles = {role["rolename"]: {(acl["acltype"], acl["topic"]) for acl in role["acls"]}
             for role in data["roles"]}
    assert roles["table-1"] == {("publishClientSend", topic("table-1", kind))
                                for kind in ("presence", "state", "move", "result")} | {
        (acl, topic("table-1", kind)) for kind in ("assignment", "ack")
        for acl in ("publishClientReceive", "subscribeLiteral")}
    assert roles[SERVER_USER] == {("publishClientSend", "layli/#"),
                                  ("publishClientReceive", "layli/#"),
                                  ("subscribePattern", "layli/#")}
    allows = credentials.allows
    for kind in ("presence", "state", "move", "result"):
        assert allows("table-1", "write", topic("table-1", kind))
        assert not allows("table-1", "write", topic("table-2", kind))
        assert not allows("table-1", "read", topic("table-1", kind))
    for kind in ("assignment", "ack"):
        assert allows("table-1", "read", topic("table-1", kind))
        assert allows("table-1", "subscribe", topic("table-1", kind))
        assert not allows("table-1", "write", topic("table-1", kind))
        assert not allows("table-1", "read", topic("table-2", kind))
    assert not allows("table-1", "subscribe", "layli/table/+/ack")
    assert not allows("table-1", "subscribe", "layli/#")
    assert allows(SERVER_USER, "subscribe", "layli/table/+/+")
    assert allows(SERVER_USER, "write", topic("table-2", "ack"))
    assert not allows(SERVER_USER, "write", "elsewhere/x")
    assert not allows("stranger", "read", topic("table-1", "ack"))


# -- the brokers ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["mosquitto", "embedded"])
def test_tables_reach_the_broker_over_tls_trusting_the_events_authority_only(
        tmp_path, credentials, kind):
    if kind == "mosquitto":
        try:
            find_mosquitto()
        except BrokerError as error:
            pytest.skip(str(error))
    tls = EventTLS(tmp_path / "tls")
    tls.create(EVENT, ["arbiter.local"])
    other = EventTLS(tmp_path / "another")      # another event's authority
    other.create("another event", ["arbiter.local"])
    make = Mosquitto if kind == "mosquitto" else EmbeddedBroker
    broker = make(tmp_path / kind, credentials=credentials, tls=tls)
    broker.start()
    links = []
    try:
        assert broker.tls_url == "mqtts://127.0.0.1:%d" % broker.tls_port
        server = Listener.server(broker.url, credentials)        # plain, on this computer
        good = TableLink("table-1", broker.tls_url, "table-1", credentials.password("table-1"),
                         tmp_path / "t1", ca=tls.ca_text(), reconnect_delay=(0.05, 0.5))
        links.append(good)
        server.wait_for(topic("table-1", "presence"))
        # a table trusting another authority does not get in: the server is not its event's
        fooled = TableLink("table-2", broker.tls_url, "table-2",
                           credentials.password("table-2"), tmp_path / "t2",
                           ca=other.ca_text(), reconnect_delay=(0.05, 0.5))
        links.append(fooled)
        # plain MQTT on the TLS port gets nowhere either
        plain = TableLink("table-3", "mqtt://127.0.0.1:%d" % broker.tls_port, "table-3",
                          credentials.password("table-3"), tmp_path / "t3",
                          reconnect_delay=(0.05, 0.5))
        links.append(plain)
        time.sleep(1.0)
        assert good.connected and not fooled.connected and not plain.connected
        assert not server.messages(topic("table-2", "presence"))
        assert not server.messages(topic("table-3", "presence"))
        server.close()
    finally:
        for link in links:
            link.close(timeout=1)
        broker.stop()


def test_mosquitto_starts_stops_and_restarts_on_its_port(mosquitto, credentials):
    port, config = mosquitto.port, mosquitto.config_path.read_text()
    assert mosquitto.url == "mqtt://127.0.0.1:%d" % port and mosquitto.running
    assert "allow_anonymous false" in config and "persistence true" in config
    assert "plugin_opt_config_file" in config and "mosquitto_dynamic_security.so" in config
    assert stat.S_IMODE(mosquitto.dynsec_path.stat().st_mode) == 0o600
    mosquitto.stop()
    assert not mosquitto.running and not _accepts(port)
    mosquitto.start()
    assert mosquitto.port == port and _accepts(port)
    assert "running" in mosquitto.log_path.read_text()


def test_mosquitto_that_cannot_start_says_why(tmp_path):
    with pytest.raises(BrokerError, match=r"no-such-mosquitto not found: install Mosquitto "
                                          r"\(sudo apt-get install mosquitto\)"):
        Mosquitto(tmp_path, binary="no-such-mosquitto").start()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        broker = Mosquitto(tmp_path / "b", port=taken.getsockname()[1])
        try:
            broker.start(timeout=5)
        except BrokerError as error:
            assert "Address already in use" in str(error)
        else:                           # pragma: no cover - a broker that binds anyway
            broker.stop()
            pytest.fail("mosquitto started on a port that was taken")


def test_brokers_without_credentials_let_anybody_in(tmp_path):
    if shutil.which("mosquitto", path=os.environ.get("PATH", "") + ":/usr/sbin") is None:
        pytest.skip("mosquitto not installed (sudo apt-get install mosquitto)")
    for anybodys in (Mosquitto(tmp_path), EmbeddedBroker()):
        with anybodys:
            listener = Listener(anybodys.url, "anyone", "anything")
            listener.publish("layli/table/x/state", b"{}", retain=True)
            listener.wait_for("layli/table/x/state")
            listener.close()
    assert "allow_anonymous true" in (tmp_path / "mosquitto.conf").read_text()


def test_embedded_broker_walks_its_subscriptions_over_copies(embedded_broker):
    """amqtt awaits while it walks its subscriptions to deliver a message; a client that
    subscribed meanwhile ended the walk (and the delivery) with a RuntimeError."""
    subscriptions = embedded_broker._broker._subscriptions
    subscriptions["a/#"] = [("session", 1)]
    for key, subscribers in subscriptions.items():
        subscriptions["b/" + key] = []               # a subscription arrives mid-walk
        subscribers.append(("another", 0))           # a copy: the broker's list is untouched
    for key in subscriptions:
        del subscriptions[key]
    assert subscriptions == {}


def test_embedded_broker_starts_stops_restarts(embedded_broker):
    port = embedded_broker.port
    assert embedded_broker.running and _accepts(port)
    embedded_broker.restart()
    assert embedded_broker.port == port and _accepts(port)
    embedded_broker.stop()
    assert not embedded_broker.running and not _accepts(port)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(BrokerError, match="did not start on 127.0.0.1:%d" % taken.getsockname()[1]):
            EmbeddedBroker(port=taken.getsockname()[1]).start()


def test_wrong_password_and_strangers_are_refused(broker, credentials, tmp_path):
    for user, password in [("table-1", credentials.password("table-2")),
                           ("stranger", "a-password-of-sorts"), (SERVER_USER, "guess-guess-guess")]:
        listener = Listener(broker.url, user, password, connect=False)
        try:
            refused = wait_for(lambda: listener.refused, "the broker to refuse " + user)
            assert refused in ("Not authorized", "Bad user name or password")
            assert not listener.connected
        finally:
            listener.close()
    link = TableLink("table-1", broker.url, "table-1", "not-the-password-at-all", tmp_path, **FAST)
    try:
        wait_for(lambda: link.last_error, "the table to be refused")
        assert not link.connected and link.last_error == "Not authorized"
    finally:
        link.close()


def test_a_table_cannot_publish_for_another_or_as_the_server(broker, credentials, tmp_path):
    server = Listener.server(broker.url, credentials)
    link = TableLink("table-1", broker.url, "table-1", credentials.password("table-1"),
                     tmp_path, **FAST)
    spy = None
    try:
        server.wait_for(topic("table-1", "presence"))           # retained now
        # another table that asks for everything gets only its own (stock amqtt would send
        # it table-1's retained presence when it connects, as the server subscribed to it)
        spy = Listener(broker.url, "table-2", credentials.password("table-2"),
                       topics=("layli/#", topic("table-2", "assignment")))
        wait_for(lambda: link.connected, "table-1 to connect")
        forged = {
            topic("table-2", "result"): messages.result("table-2", GAME, 1, 48, 0, "x", 1.0),
            topic("table-2", "presence"): messages.presence("table-2", "offline", "", 1.0),
            topic("table-1", "assignment"): _payloads()["assignment"],
            topic("table-1", "ack"): _payloads()["ack"],
        }
        for name, payload in forged.items():
            link._client.publish(name, payload, qos=1, retain=True).wait_for_publish(5)
        link.publish_move(GAME, 1, 3)           # after the forgeries, on the same connection
        server.wait_for(topic("table-1", "move"))
        assert not [m for m in server.messages() if m.topic in forged]
        # what table-1 says, another table does not hear, though it asked for everything
        server.publish(topic("table-2", "assignment"), _payloads()["assignment"].replace(
            b"table-1", b"table-2"), retain=True)
        spy.wait_for(topic("table-2", "assignment"))
        assert {m.topic for m in spy.messages()} == {topic("table-2", "assignment")}
        assert link.rejected == 0 and link.pending_results() == []
    finally:
        link.close()
        if spy is not None:
            spy.close()
        server.close()


def test_a_will_on_another_tables_topic_never_arrives(broker, credentials):
    server = Listener.server(broker.url, credentials)
    forger = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="layli-table-2",
                         protocol=mqtt.MQTTv311)
    forger.username_pw_set("table-2", credentials.password("table-2"))
    forger.will_set(topic("table-1", "presence"), messages.presence("table-1", "offline", "", 1),
                    qos=1, retain=True)
    outcome = []
    forger.on_connect = lambda client, u, f, reason_code, p: outcome.append(str(reason_code))
    forger.connect("127.0.0.1", broker.port)
    try:
        wait_for(lambda: (forger.loop(0.01), outcome)[1], "the forger's CONNACK")
        # amqtt (with our check) refuses it; Mosquitto lets it in and drops the will
        if outcome[0] == "Success":
            forger.socket().close()           # the connection dies: the broker's turn
        late = Listener.server(broker.url, credentials)
        time.sleep(0.2)                       # time enough for a will to arrive
        assert not server.messages(topic("table-1", "presence"))
        assert not late.messages(topic("table-1", "presence"))
        late.close()
    finally:
        server.close()


def test_a_table_gone_silent_is_offline_after_one_and_a_half_keepalives(broker, credentials):
    """A network that vanishes without closing the connection: no more packets, no goodbye."""
    server = Listener.server(broker.url, credentials)
    table = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="layli-table-3",
                        protocol=mqtt.MQTTv311)
    table.username_pw_set("table-3", credentials.password("table-3"))
    table.will_set(topic("table-3", "presence"), messages.presence("table-3", "offline", "", 1),
                   qos=1, retain=True)
    connected = []
    table.on_connect = lambda client, u, f, reason_code, p: connected.append(str(reason_code))
    table.connect("127.0.0.1", broker.port, keepalive=1)
    try:
        wait_for(lambda: (table.loop(0.01), connected)[1], "the table's CONNACK")
        assert connected == ["Success"]
        silent = time.monotonic()           # the loop is not run again: no PINGREQ
        server.wait_for(topic("table-3", "presence"), timeout=8)
        waited = time.monotonic() - silent
        # 1.5 keep-alives at least; Mosquitto 2.0 looks at keep-alives every 5 s or so
        assert 1.4 <= waited < 7.5, waited
    finally:
        table.socket().close()
        server.close()


# -- TableLink --------------------------------------------------------------------------------

CHILD = r"""
import os, sys, time
from controller.tournament.table import TableLink
table, url, state_dir = sys.argv[1:4]
link = TableLink(table, url, table, os.environ["LAYLI_TEST_PASSWORD"], state_dir,
                 firmware="child-1", reconnect_delay=(0.05, 0.5))
deadline = time.monotonic() + 10
while not link.connected and time.monotonic() < deadline:
    time.sleep(0.01)
link.publish_state(dict(game=None, status="idle", variant="layli-goobalay", pits=[4] * 12,
                        uur=[None] * 12, captured=[0, 0], to_move=0, ply=0,
                        players=["", ""], faults=[]))
if len(sys.argv) > 4:
    link.publish_result(sys.argv[4], 1, 30, 18, "the record")
print("connected" if link.connected else "not connected", flush=True)
time.sleep(60)
"""


def _table_process(table, url, credentials, state_dir, result_game=None):
    """A table in a process of its own (to be killed like a power cut); returns once it is
    connected and has published."""
    args = [sys.executable, "-c", CHILD, table, url, str(state_dir)]
    if result_game:
        args.append(result_game)
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, text=True,
                               env=dict(os.environ, LAYLI_TEST_PASSWORD=credentials.password(table)))
    assert process.stdout.readline().strip() == "connected"
    return process


def _kill(process):
    process.send_signal(signal.SIGKILL)
    process.wait()


def test_presence_online_then_the_will_when_the_table_dies(broker, credentials, tmp_path):
    server = Listener.server(broker.url, credentials)
    process = _table_process("table-1", broker.url, credentials, tmp_path)
    try:
        online = server.wait_for(topic("table-1", "presence"))
        fields = validate(online.topic, online.payload).fields
        assert (fields["status"], fields["firmware"]) == ("online", "child-1")
        server.wait_for(topic("table-1", "state"))
    finally:
        _kill(process)
    offline = server.wait_for(topic("table-1", "presence"),
                              lambda m: validate(m.topic, m.payload).fields["status"] == "offline")
    assert validate(offline.topic, offline.payload).fields["table"] == "table-1"
    late = Listener.server(broker.url, credentials)
    try:
        retained = late.wait_for(topic("table-1", "presence"))
        assert retained.retain and b'"offline"' in retained.payload
        state = late.wait_for(topic("table-1", "state"))
        assert state.retain and validate(state.topic, state.payload).fields["status"] == "idle"
    finally:
        late.close()
        server.close()


def test_an_abandoned_link_leaves_its_will_and_its_results(broker, credentials, tmp_path):
    """abandon(): a power cut in the same process (for simulated tables)."""
    server = Listener.server(broker.url, credentials)
    link = TableLink("table-1", broker.url, "table-1", credentials.password("table-1"),
                     tmp_path, **FAST)
    try:
        wait_for(lambda: link.connected, "table-1 to connect")
        link.publish_result(GAME, 1, 30, 18, "the record")
        server.wait_for(topic("table-1", "result"))
        link.abandon()
        server.wait_for(topic("table-1", "presence"), lambda m: b'"offline"' in m.payload)
        time.sleep(0.1)                     # it does not come back
        assert [validate(m.topic, m.payload).fields["status"]
                for m in server.messages(topic("table-1", "presence"))] == ["online", "offline"]
        again = TableLink("table-1", broker.url, "table-1", credentials.password("table-1"),
                          tmp_path, **FAST)
        assert [m.fields["game"] for m in again.pending_results()] == [GAME]
        again.close()
    finally:
        link.close()                        # nothing more to do: already gone
        server.close()


def test_close_says_offline_and_a_late_subscriber_sees_the_state(broker, credentials, tmp_path):
    server = Listener.server(broker.url, credentials)
    link = TableLink("table-2", broker.url, "table-2", credentials.password("table-2"),
                     tmp_path, firmware="1.2", clock=lambda: 1000.0, **FAST)
    wait_for(lambda: link.connected, "table-2 to connect")
    link.publish_state(dict(STATE, at=5.0))
    later = dict(STATE, ply=1, pits=[0] + [5] * 4 + [4] * 7, to_move=1)
    del later["at"]                                     # the link's clock gives it
    link.publish_state(later)
    link.close()
    server.wait_for(topic("table-2", "presence"), lambda m: b'"offline"' in m.payload)
    server.close()
    late = Listener.server(broker.url, credentials)
    try:
        state = late.wait_for(topic("table-2", "state"))
        presence = late.wait_for(topic("table-2", "presence"))
        assert state.retain and validate(state.topic, state.payload).fields["ply"] == 1
        assert validate(state.topic, state.payload).fields["at"] == 1000.0
        assert presence.retain and validate(presence.topic, presence.payload).fields == {
            "v": 1, "table": "table-2", "status": "offline", "firmware": "1.2", "at": 1000.0}
    finally:
        late.close()


def test_assignments_and_forged_messages_reaching_a_table(broker, credentials, tmp_path):
    server = Listener.server(broker.url, credentials)
    seen = []
    link = TableLink("table-1", broker.url, "table-1", credentials.password("table-1"),
                     tmp_path, on_assignment=seen.append, **FAST)
    try:
        assignment_topic = topic("table-1", "assignment")
        good = _payloads()["assignment"]
        server.publish(assignment_topic, good, retain=True)     # whenever the table subscribes
        wait_for(lambda: seen, "the assignment")
        assert seen[0].fields["players"] == ["Ayan", "Hodan"] and link.assignment == seen[0]
        bad = [b"not json", good.replace(b'"v":1', b'"v":2'),
               good.replace(b'"table":"table-1"', b'"table":"table-2"'),
               good.replace(b'"round":1', b'"round":"1"'), b'{"v":1}']
        for payload in bad:
            server.publish(assignment_topic, payload)
        server.publish(topic("table-1", "ack"), b'{"v":1,"table":"table-1","game":"x"}')
        wait_for(lambda: link.rejected == 6, "six rejections")
        assert len(seen) == 1 and link.assignment == seen[0]
        server.publish(assignment_topic, good, retain=True)        # the same again: no news
        server.publish(assignment_topic, b"", retain=True)         # cleared: not a rejection
        nothing = messages.assignment("table-1", None, 2, 0, "", {}, ["", ""], "test-event")
        server.publish(assignment_topic, nothing, retain=True)
        wait_for(lambda: len(seen) == 2, "the second assignment")
        assert seen[1].fields["game"] is None and link.rejected == 6
    finally:
        link.close()
        server.close()


def test_a_result_is_kept_until_acknowledged_across_broker_and_table_restarts(
        broker, credentials, tmp_path):
    server = Listener.server(broker.url, credentials)
    link = TableLink("table-3", broker.url, "table-3", credentials.password("table-3"),
                     tmp_path, **FAST)
    result_topic = topic("table-3", "result")
    try:
        wait_for(lambda: link.connected, "table-3 to connect")
        broker.stop()
        wait_for(lambda: not link.connected, "table-3 to see the broker go")
        link.publish_result(GAME, 0, 18, 30, "the record")       # while the broker is down
        assert [m.fields["game"] for m in link.pending_results()] == [GAME]
        kept = json.loads((tmp_path / RESULTS_FILE).read_text())
        assert len(kept["results"]) == 1 and kept["table"] == "table-3"
        broker.start()
        sent = server.wait_for(result_topic)            # the server reconnected too
        assert validate(sent.topic, sent.payload).fields["south_seeds"] == 18
        wait_for(lambda: link.connected, "table-3 to reconnect")
    finally:
        link.close()
    # the table restarts (no ack yet) and sends its result again
    count = len(server.messages(result_topic))
    link = TableLink("table-3", broker.url, "table-3", credentials.password("table-3"),
                     tmp_path, **FAST)
    try:
        assert [m.fields["game"] for m in link.pending_results()] == [GAME]
        wait_for(lambda: len(server.messages(result_topic)) > count, "the result again")
        server.publish(topic("table-3", "ack"), messages.ack("table-3", GAME), retain=True)
        wait_for(lambda: not link.pending_results(), "the ack to clear the result")
        assert json.loads((tmp_path / RESULTS_FILE).read_text())["results"] == []
    finally:
        link.close()
        server.close()
    again = TableLink("table-3", broker.url, "table-3", credentials.password("table-3"),
                      tmp_path, **FAST)
    again.close()
    assert again.pending_results() == []


def test_a_table_killed_before_the_ack_sends_its_result_when_it_comes_back(
        mosquitto, credentials, tmp_path):
    server = Listener.server(mosquitto.url, credentials)
    try:
        process = _table_process("table-2", mosquitto.url, credentials, tmp_path, GAME)
        server.wait_for(topic("table-2", "result"))
        _kill(process)
        server.wait_for(topic("table-2", "presence"), lambda m: b'"offline"' in m.payload)
        # the broker restarts meanwhile: the retained result is still there
        mosquitto.restart()
        late = Listener.server(mosquitto.url, credentials)
        assert late.wait_for(topic("table-2", "result")).retain
        late.close()
        count = len(server.messages(topic("table-2", "result")))
        link = TableLink("table-2", mosquitto.url, "table-2", credentials.password("table-2"),
                         tmp_path, **FAST)
        wait_for(lambda: len(server.messages(topic("table-2", "result"))) > count,
                 "the result sent again")
        server.publish(topic("table-2", "ack"), messages.ack("table-2", GAME), retain=True)
        wait_for(lambda: not link.pending_results(), "the ack")
        link.close()
    finally:
        server.close()


def test_unacknowledged_results_are_sent_again_while_connected(embedded_broker, credentials,
                                                               tmp_path):
    server = Listener.server(embedded_broker.url, credentials)
    link = TableLink("table-1", embedded_broker.url, "table-1", credentials.password("table-1"),
                     tmp_path, resend_every=0.1, **FAST)
    try:
        wait_for(lambda: link.connected, "table-1 to connect")
        link.publish_result(GAME, 1, 30, 18, "first game")
        link.publish_result("test-event/r2/b1", 0.5, 24, 24, "second game")
        wait_for(lambda: len(server.messages(topic("table-1", "result"))) >= 6, "three rounds")
        server.publish(topic("table-1", "ack"), messages.ack("table-1", GAME))
        wait_for(lambda: len(link.pending_results()) == 1, "the first ack")
        assert link.pending_results()[0].fields["record"] == "second game"
    finally:
        link.close()
        server.close()


def test_embedded_broker_keeps_retained_messages_across_a_restart(embedded_broker, credentials,
                                                                  tmp_path):
    server = Listener.server(embedded_broker.url, credentials)
    server.publish(topic("table-1", "assignment"), _payloads()["assignment"], retain=True)
    server.publish(topic("table-1", "ack"), _payloads()["ack"], retain=True)
    server.publish(topic("table-1", "ack"), b"", retain=True)      # cleared
    # amqtt acknowledges before it delivers, and a stop drops what it has in hand: the
    # server hears its own clearing once the broker has done it
    server.wait_for(topic("table-1", "ack"), lambda m: m.payload == b"")
    server.close()
    embedded_broker.restart()
    late = Listener.server(embedded_broker.url, credentials)
    try:
        assert late.wait_for(topic("table-1", "assignment")).payload == _payloads()["assignment"]
        time.sleep(0.1)
        assert not late.messages(topic("table-1", "ack"))
    finally:
        late.close()


def test_kept_results_that_cannot_be_read_are_named(tmp_path, embedded_broker, credentials):
    path = tmp_path / RESULTS_FILE
    for text, why in [("{", "cannot read"), ('{"v": 1}', "not a results file"),
                      ('{"v": 1, "table": "table-2", "results": []}', "of table 'table-2'"),
                      ('{"v": 1, "table": "table-1", "results": ["{}"]}', "result 1: layli/table/table-1/result: \"v\"")]:
        path.write_text(text)
        with pytest.raises(TableStateError, match=str(path)) as error:
            TableLink("table-1", embedded_broker.url, "table-1", "x" * 20, tmp_path)
        assert why in str(error.value)
    with pytest.raises(ValueError, match="is not mqtt://host"):
        TableLink("table-1", "http://x", "table-1", "x" * 20, tmp_path / "other")


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def test_a_mosquitto_left_by_a_killed_serve_is_stopped_at_the_next_start(mosquitto, caplog):
    """Issue 17: `serve` killed with SIGKILL leaves its Mosquitto running on the event's port;
    the next start found it by its PID file and command line and stops it, instead of failing
    with "Address already in use"."""
    orphan = mosquitto._process             # the killed serve's child, still serving
    caplog.set_level("WARNING", logger="controller.tournament.broker")
    again = Mosquitto(mosquitto.directory, port=mosquitto.port,
                      credentials=mosquitto.credentials)
    try:
        again.start()
        assert orphan.poll() is not None                        # stopped
        assert again.running and again.pid != orphan.pid
        assert "left running by an earlier serve (PID %d" % orphan.pid in caplog.text
    finally:
        again.stop()
        if orphan.poll() is None:
            orphan.kill()
    assert not (mosquitto.directory / "mosquitto.pid").exists()
    # a PID file naming a process that is not ours is only forgotten
    (mosquitto.directory / "mosquitto.pid").write_text("1\n")
    again.start()
    again.stop()


def test_a_broker_that_dies_under_serve_is_started_again(mosquitto, caplog):
    """Issue 17: the event's own broker killed under a running `serve` is started again by
    its watch (`keep_alive`, called every second), on the same port."""
    import os
    import signal as signals

    from controller.commands.tournament_event import keep_alive

    assert keep_alive(mosquitto) is False                   # running: left alone
    first = mosquitto.pid
    os.kill(first, signals.SIGKILL)                         # from outside, as a crash
    mosquitto._process.wait()
    caplog.set_level("WARNING")
    assert keep_alive(mosquitto) is True
    assert mosquitto.running and mosquitto.pid != first
    assert "has stopped: starting it again" in caplog.text
    assert keep_alive(None) is False                        # an outside broker: not ours
