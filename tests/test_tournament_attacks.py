"""Attacks a player at the club could make with one table's own password (issue 17), on a live
event over both brokers: each is refused, the server and the real tables keep their
connections, and what the broker refused reaches the server's counts and the arbiter's page.

Mosquitto refuses by its dynamic-security plugin and tells of it in its log; the embedded
broker by our plugins. Mosquitto names no user for a refused login (only the address) and
says nothing of a refused subscription: the tests say so where the two differ.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.tournament import server as server_module
from controller.tournament.audit import (AGAIN, LIMITED, LOGIN, OVERSIZED, PUBLISH, SUBSCRIBE,
                                         Refusal, Refusals)
from controller.tournament.broker import MAX_PACKET, Mosquitto
from controller.tournament.credentials import SERVER_CLIENT_ID, Credentials
from controller.tournament.messages import MAX_PAYLOAD, topic
from controller.tournament.server import TournamentServer
from controller.tournament.store import Store
from controller.tournament.table import TableLink
from controller.tournament.web import arbiter_state
from simulator.attacks import Attacker
from tournament_fixtures import (EVENT, TABLES, Listener, broker, credentials,  # noqa: F401
                                 embedded_broker, mosquitto, wait_for)

PLAYERS = ("Ayan", "Hodan", "Warsame", "Faadumo", "Cali", "Deeqa")
FLOOD = 5000        # the flood: small bad messages from one table


class Event:
    """A live event over `broker`: the server (with the broker's refusals) and every table's
    link, round 1 paired and announced."""

    def __init__(self, broker, credentials: Credentials, state_dir) -> None:
        self.broker = broker
        self.credentials = credentials
        self.refusals = Refusals()
        broker.refusals = self.refusals
        store = Store(":memory:")
        store.create_event(EVENT, "layli-goobalay", rounds=2)
        for name in PLAYERS:
            store.register(name, None)
        for table in TABLES:
            store.add_table(table)
        self.server = TournamentServer(store, broker.url, credentials.server_user,
                                       credentials.server_password, refusals=self.refusals)
        self.server.start()
        self.disconnects = 0
        on_disconnect = self.server._client.on_disconnect

        def counted(*args) -> None:         # the server's own connection never drops
            self.disconnects += 1
            on_disconnect(*args)
        self.server._client.on_disconnect = counted
        self.server.pair_next_round()
        self.links = {table: TableLink(table, broker.url, table, credentials.password(table),
                                       state_dir / table, reconnect_delay=(0.05, 0.5))
                      for table in TABLES}
        # round 1's assignment: the server, as it connected, may first have said "no game
        # yet" (round 0), retained, and a link may hear that one first
        for table, link in self.links.items():
            wait_for(lambda: link.assignment is not None
                     and link.assignment.fields["game"] is not None,
                     "%s's assignment" % table)

    def close(self) -> None:
        for link in self.links.values():
            link.close()
        self.server.stop()
        self.server.store.close()

    def game_of(self, table: str) -> str:
        return self.links[table].assignment.fields["game"]

    def moves_heard(self, table: str) -> int | None:
        last = self.server.table_view(table)["last_move"]
        return None if last is None else last["ply"]


@pytest.fixture
def event(broker, credentials, tmp_path) -> Iterator[Event]:  # noqa: F811
    live = Event(broker, credentials, tmp_path)
    try:
        yield live
    finally:
        live.close()


def attacker(broker, credentials: Credentials, username: str, client_id: str,
             password: str | None = None) -> tuple[mqtt.Client, list[str]]:
    """A client of `username` (its own password unless told) asking for `client_id`, trying
    again and again as a stubborn attacker would; the answers to its CONNECTs so far."""
    client, answers = Attacker(broker.url, username, password or credentials.password(username),
                               victim="").client(client_id)
    client.reconnect_delay_set(0.05, 0.2)
    return client, answers


def refused_login_by(event: Event, username: str) -> str:
    """Who a refused login of `username` is counted under: Mosquitto knows only the address."""
    return "127.0.0.1" if isinstance(event.broker, Mosquitto) else username


def test_another_tables_password_cannot_take_the_servers_connection(event, broker,  # noqa: F811
                                                                   credentials):  # noqa: F811
    client, answers = attacker(broker, credentials, "table-3", SERVER_CLIENT_ID)
    try:
        time.sleep(1.0)                         # a stubborn attacker tries again and again
        assert answers and set(answers) == {"Not authorized"}
    finally:
        client.loop_stop()
    # the server never lost its connection, and hears the tables as before
    assert event.server.connected and event.disconnects == 0
    event.links["table-1"].publish_move(event.game_of("table-1"), 1, 3)
    wait_for(lambda: event.moves_heard("table-1") == 1, "table-1's move at the server")
    who = refused_login_by(event, "table-3")
    rows = [row for row in event.refusals.rows() if row["kind"] == LOGIN and row["who"] == who]
    assert rows and rows[0]["count"] >= len(answers)
    if not isinstance(broker, Mosquitto):
        assert "client id 'layli_server', not its own 'layli-table-3'" in rows[0]["what"]
    # the arbiter sees them, and the event's counts say so within a second
    state = arbiter_state(event.server, "Deeqa")
    assert state["refused_counts"][LOGIN] >= len(answers)
    assert any(row["who"] == who for row in state["refused"])
    wait_for(lambda: json.loads(event.server.live.latest("event")[1])["refused"].get(LOGIN),
             "the counts on the live feed", timeout=3)


def test_another_tables_password_cannot_take_a_tables_connection(event, broker,  # noqa: F811
                                                                credentials):  # noqa: F811
    victim = event.links["table-2"]
    client, answers = attacker(broker, credentials, "table-3", "layli-table-2")
    try:
        time.sleep(0.5)
        assert set(answers) == {"Not authorized"}
    finally:
        client.loop_stop()
    assert victim.connected
    # table-2 still hears the server: a result it sends is acknowledged
    game = event.game_of("table-2")
    victim.publish_move(game, 1, 2)
    wait_for(lambda: event.moves_heard("table-2") == 1, "table-2's move at the server")
    assert event.server.table_view("table-2")["presence"] == "online"
    assert event.refusals.counts()[LOGIN] >= 1


def test_a_wrong_password_and_a_stranger_are_refused_and_counted(event, broker,  # noqa: F811
                                                                credentials):  # noqa: F811
    for username, client_id in (("table-1", "layli-table-1"), ("nobody", "whoever")):
        client, answers = attacker(broker, credentials, username, client_id,
                                   password="not-the-password-at-all")
        client.loop_stop()
        assert answers[0] == "Not authorized"
    assert event.links["table-1"].connected
    wait_for(lambda: event.refusals.counts().get(LOGIN, 0) >= 2, "two refused logins")
    if not isinstance(broker, Mosquitto):
        whats = {row["who"]: row["what"] for row in event.refusals.rows()}
        assert whats["table-1"] == "a wrong password"
        assert "nobody" not in whats and whats["127.0.0.1"] == "no user 'nobody'"


def test_a_publish_on_another_tables_topic_is_refused_and_reported(event, broker,  # noqa: F811
                                                                   credentials,  # noqa: F811
                                                                   caplog):
    caplog.set_level(logging.WARNING, "controller.tournament.audit")
    link = event.links["table-3"]
    forged = topic("table-1", "result")
    for _ in range(12):
        link._client.publish(forged, b'{"v": 1}', qos=1).wait_for_publish(5)
    link._client.publish(topic("table-1", "assignment"), b"{}", qos=1).wait_for_publish(5)
    wait_for(lambda: event.refusals.counts().get(PUBLISH, 0) >= 13, "13 refused publishes")
    rows = {(row["who"], row["what"]): row["count"] for row in event.refusals.rows()
            if row["kind"] == PUBLISH}      # one row a table and kind, its latest topic
    assert rows == {("table-3", topic("table-1", "assignment")): 13}
    assert link.connected and event.server.counters["rejected"] == 0
    # the log says the first of each, then at 10 times: not one line a message
    said = [record.getMessage() for record in caplog.records
            if "publish refused: table-3 on %s" % forged in record.getMessage()]
    assert said == ["turned away: publish refused: table-3 on %s" % forged,
                    "turned away: publish refused: table-3 on %s (10 times)" % forged]


def test_strangers_cannot_push_the_events_users_out_of_the_refusals(caplog):
    """Refused logins with made-up names from many addresses fill the rows kept for
    strangers; a table's own refusal still gets its row, and its first log line."""
    caplog.set_level(logging.WARNING, "controller.tournament.audit")
    refusals = Refusals(users=["layli_server", "table-5"], limit=50)
    for number in range(200):
        refusals(Refusal(LOGIN, "10.0.%d.%d" % (number // 250, number % 250),
                         "no user 'bot%d'" % number))
    refusals(Refusal(PUBLISH, "table-5", topic("table-3", "result")))
    rows = {(row["kind"], row["who"]): row for row in refusals.rows()}
    assert rows[(PUBLISH, "table-5")]["count"] == 1
    assert rows[(LOGIN, "others")]["count"] == 150 and len(rows) == 52
    assert caplog.records[-1].getMessage() == (
        "turned away: publish refused: table-5 on %s" % topic("table-3", "result"))


def test_a_subscription_to_everything_is_refused(event, broker, credentials):  # noqa: F811
    spy = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="layli-table-3",
                      protocol=mqtt.MQTTv311)
    spy.username_pw_set("table-3", credentials.password("table-3"))
    granted: list = []
    heard: list = []
    spy.on_subscribe = lambda c, u, mid, codes, p: granted.extend(codes)
    spy.on_message = lambda c, u, message: heard.append(message.topic)
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    try:
        spy.subscribe("layli/#", qos=1)
        wait_for(lambda: granted, "the SUBACK")
        assert granted[0].is_failure
        event.links["table-1"].publish_move(event.game_of("table-1"), 1, 3)
        wait_for(lambda: event.moves_heard("table-1") == 1, "table-1's move at the server")
        assert not [name for name in heard if "table-1" in name]
        if isinstance(broker, Mosquitto):       # Mosquitto 2.0 logs no refused subscription
            assert SUBSCRIBE not in event.refusals.counts()
        else:
            assert [(row["who"], row["what"]) for row in event.refusals.rows()
                    if row["kind"] == SUBSCRIBE] == [("table-3", "layli/#")]
    finally:
        spy.loop_stop()
        spy.disconnect()


def test_a_tables_own_id_again_closes_its_older_connection(event, broker,  # noqa: F811
                                                           credentials):  # noqa: F811
    """Its own password and id: a board that restarted (or a stolen password) takes its own
    connection, as MQTT has it; the broker says so, and nobody else is touched."""
    second, answers = attacker(broker, credentials, "table-3", "layli-table-3")
    try:
        assert answers[0] == "Success"
        wait_for(lambda: event.refusals.counts().get(AGAIN), "the second connection reported")
        assert [(row["who"], row["what"]) for row in event.refusals.rows()
                if row["kind"] == AGAIN][0] == ("table-3", "client id layli-table-3")
        assert event.server.connected and event.disconnects == 0
        assert event.links["table-1"].connected and event.links["table-2"].connected
    finally:
        second.loop_stop()
        second.disconnect()


def test_an_oversized_message_is_refused_and_never_kept(event, broker,  # noqa: F811
                                                        credentials):  # noqa: F811
    """Issue 17: a 10 MB retained payload was kept and sent again at every reconnect."""
    event.links.pop("table-3").close()      # its holder, alone on its connection
    client, answers = attacker(broker, credentials, "table-3", "layli-table-3")
    gone: list = []
    client.on_disconnect = lambda *args: gone.append(args)
    client.reconnect_delay_set(60, 60)          # no second try within the test
    try:
        client.publish(topic("table-3", "result"), b"x" * (MAX_PACKET + 10), qos=1,
                       retain=True)
        wait_for(lambda: gone, "the broker to close the connection")
        wait_for(lambda: event.refusals.counts().get(OVERSIZED), "the refusal reported")
        (row,) = [row for row in event.refusals.rows() if row["kind"] == OVERSIZED]
        assert row["who"] == "table-3"
    finally:
        client.loop_stop()
    # nothing of it kept: a newcomer reading everything gets no such result
    late = Listener.server(broker.url, credentials, topics=(topic("table-3", "result"),))
    try:
        time.sleep(0.3)
        assert all(len(message.payload) < MAX_PACKET for message in late.messages())
    finally:
        late.close()
    assert event.server.connected and event.disconnects == 0
    # the largest payload a message may have still passes
    assert len(b"x" * MAX_PAYLOAD) + len(topic("table-3", "result")) + 5 < MAX_PACKET


def test_one_tables_flood_is_dropped_at_the_door_and_the_others_go_on(event, broker,  # noqa: F811
                                                                      credentials):  # noqa: F811
    """Issue 17: 5,000 small bad messages from one table in a few seconds."""
    flood = event.links["table-3"]._client
    before = event.server.counters["received"]
    began = time.monotonic()
    infos = [flood.publish(topic("table-3", "move"), b'{"v": 1, "bad": %d}' % number, qos=1)
             for number in range(FLOOD)]
    game = event.game_of("table-1")                 # another table plays on meanwhile
    event.links["table-1"].publish_move(game, 1, 3)
    wait_for(lambda: event.moves_heard("table-1") == 1, "table-1's move during the flood",
             timeout=10)
    for info in infos:
        info.wait_for_publish(10)
    # every flood message reached the server (none dropped by the broker), and was either
    # read and rejected or dropped unread over the limit; the store keeps one row of them
    wait_for(lambda: event.server.counters["received"] - before >= FLOOD + 1,
             "every message at the server", timeout=20)
    took = time.monotonic() - began
    counters = event.server.counters
    assert counters["limited"] + counters["rejected"] == FLOOD
    # the server reads a burst, then MESSAGE_RATE a second for as long as the flood lasted (a
    # loaded machine's broker passes it on more slowly: more are read, never more than that)
    assert counters["rejected"] <= server_module.MESSAGE_BURST + server_module.MESSAGE_RATE * took
    assert counters["limited"] >= FLOOD / 2
    rows = event.server.store.rejected()
    assert [(row.table, row.reason, row.count) for row in rows] == [
        ("table-3", "MessageError", counters["rejected"])]
    (limited,) = [row for row in event.refusals.rows() if row["kind"] == LIMITED]
    assert (limited["who"], limited["what"], limited["count"]) == (
        "table-3", "move", counters["limited"])
    assert event.server.connected and event.disconnects == 0


def test_a_packet_too_large_is_refused_however_it_is_read(event, broker,  # noqa: F811
                                                          credentials):  # noqa: F811
    """A SUBSCRIBE of many small filters, 3 MB in all: amqtt reads it a filter at a time, so
    the limit is on the length the packet declares, not on each read."""
    event.links.pop("table-3").close()      # its holder, alone on its connection
    client, answers = attacker(broker, credentials, "table-3", "layli-table-3")
    gone: list = []
    client.on_disconnect = lambda *args: gone.append(args)
    client.reconnect_delay_set(60, 60)
    try:
        client.subscribe([("layli/table/table-3/%s/%06d" % ("x" * 40, number), 0)
                          for number in range(50000)])
        wait_for(lambda: gone, "the broker to close the connection")
        wait_for(lambda: event.refusals.counts().get(OVERSIZED), "the refusal reported")
    finally:
        client.loop_stop()
    assert event.server.connected and event.disconnects == 0
