"""A player at the club attacking a live event with one table's password (issue 17).

`Attacker` connects with the password of a table of the event that plays no game (a spare
board the player sits at) and tries, in order, what the issue's attack report tried: another's
connection (the server's client id, then a table's), a result and an assignment on another
table's topics, a subscription to everything, a message over the size limit, a flood of bad
messages, malformed payloads, and a state naming another table's game. `swap_record` is the
attack of someone holding a playing board's password: a legal record of another game sent as
the result of the game that board plays (its connection is closed for a moment: the broker
takes a client id once). `tournament demo --attacks` makes them all half-way through round
1; the event must end with the standings of a run without attacks, every result recorded
once, and every attack refused, counted and kept (docs/tournament.md).
"""

from __future__ import annotations

import random
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.rules import Game
from controller.rules.record import write_game
from controller.tournament import messages
from controller.tournament.broker import MAX_PACKET
from controller.tournament.certificates import client_context
from controller.tournament.credentials import SERVER_CLIENT_ID, TABLE_CLIENT_PREFIX
from controller.tournament.table import broker_address

FLOOD = 2000                # small bad messages, as fast as a laptop sends them
WAIT = 5.0                  # seconds for a broker's answer

# payloads a careless or hostile program sends; each is rejected by its form
MALFORMED = (b"\xff\xfe not text", b"[1, 2, 3]", b'{"v": 1}', b'{"v": 99, "table": "x"}',
             b"{" * 5000)


class Attacker:
    """Table `table`'s password (`password`), turned against the event at `url` (`ca`: the
    event's authority, for an mqtts:// url). `victim`: a table of the event that plays."""

    def __init__(self, url: str, table: str, password: str, victim: str,
                 ca: str | None = None) -> None:
        self.url = url
        self.table = table
        self.password = password
        self.victim = victim
        self.ca = ca
        self.done: list[str] = []

    def client(self, client_id: str) -> tuple[mqtt.Client, list[str]]:
        """A connection as this table asking for `client_id`, once the broker answered: (the
        client, the broker's answers)."""
        host, port, tls = broker_address(self.url)
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv311)
        client.username_pw_set(self.table, self.password)
        if tls:
            client.tls_set_context(client_context(self.ca))
        answers: list[str] = []
        client.on_connect = lambda c, u, f, reason_code, p: answers.append(str(reason_code))
        client.connect_async(host, port)
        client.loop_start()
        _wait(lambda: answers, "the broker's answer")
        return client, answers

    def run(self, victim_game: str) -> list[str]:
        """Every attack from the attacker's own table (`victim_game`: the victim's game, for a
        forged result); what was tried, in words."""
        for name, client_id in (("the server's", SERVER_CLIENT_ID),
                                ("%s's" % self.victim, TABLE_CLIENT_PREFIX + self.victim)):
            client, answers = self.client(client_id)
            client.loop_stop()
            client.disconnect()
            self.done.append("takeover of %s connection: %s" % (name, answers[0]))
        client, _answers = self.client(TABLE_CLIENT_PREFIX + self.table)
        try:
            for kind, payload in (("result", messages.result(
                    self.victim, victim_game, 1.0, 48, 0, "forged", time.time())),
                                  ("assignment", b"{}")):
                client.publish(messages.topic(self.victim, kind), payload,
                               qos=1).wait_for_publish(WAIT)
                self.done.append("a %s on %s's topic" % (kind, self.victim))
            granted: list[Any] = []
            client.on_subscribe = lambda c, u, mid, codes, p: granted.extend(codes)
            client.subscribe("layli/#", qos=1)
            _wait(lambda: granted, "the SUBACK")
            self.done.append("a subscription to everything: %s" % granted[0])
            own = messages.topic(self.table, "move")
            sent = [client.publish(own, b'{"v": 1, "flood": %d}' % number, qos=1)
                    for number in range(FLOOD)]
            for payload in MALFORMED:
                sent.append(client.publish(messages.topic(self.table, "state"), payload, qos=1))
            for info in sent:
                info.wait_for_publish(WAIT * 4)
            self.done.append("a flood of %d bad messages and %d malformed ones"
                             % (FLOOD, len(MALFORMED)))
            client.publish(messages.topic(self.table, "state"), b"x" * (MAX_PACKET + 100),
                           qos=1)
            time.sleep(0.5)             # the broker closes the connection
            self.done.append("a message of %d bytes" % (MAX_PACKET + 100))
        finally:
            client.loop_stop()
            client.disconnect()
        return self.done

    def swap_record(self, game: str, players: list[str], variant: str,
                    options: dict[str, Any] | None, reported: list[int],
                    seed: int = 7) -> str:
        """As this table (its own password and client id), issue 41's forgery of `game`, the
        game this table plays, whose moves so far are `reported`: the first of them sent
        again (a replayed old move), a legal record of another game between `players`, one
        that parts from them at move 1, sent as its result; then that game's moves from ply
        1 (rewriting the board's), and its result again."""
        rng = random.Random(seed)
        while True:
            other = Game(variant, options or None)
            while not other.over:
                other.push(rng.choice(other.legal_moves()))
            if not reported or other.moves[0] != reported[0]:
                break
        record = write_game(other, {"South": players[0], "North": players[1]})
        points = {0: 1.0, 1: 0.0, None: 0.5}[other.winner()]
        result = messages.result(self.table, game, points, other.scores[0], other.scores[1],
                                 record, time.time())
        client, _answers = self.client(TABLE_CLIENT_PREFIX + self.table)
        try:
            sent = []
            if reported:
                sent.append(client.publish(messages.topic(self.table, "move"), messages.move(
                    self.table, game, 1, reported[0], time.time()), qos=1))
            sent.append(client.publish(messages.topic(self.table, "result"), result, qos=1))
            for ply, move in enumerate(other.moves, 1):
                sent.append(client.publish(messages.topic(self.table, "move"), messages.move(
                    self.table, game, ply, move, time.time()), qos=1))
            sent.append(client.publish(messages.topic(self.table, "result"), result, qos=1))
            for info in sent:
                info.wait_for_publish(WAIT)
        finally:
            client.loop_stop()
            client.disconnect()
        said = ("%s's first move replayed, then a legal record of another game as its result "
                "of %s, that game's moves over the board's and the record again"
                % (self.table, game))
        self.done.append(said)
        return said

    def state_lie(self, game: str, players: list[str]) -> None:
        """A state claiming another table's game, between made-up players."""
        client, _answers = self.client(TABLE_CLIENT_PREFIX + self.table)
        try:
            client.publish(messages.topic(self.table, "state"), messages.state(
                self.table, game=game, status="playing", variant="layli-goobalay",
                pits=[4] * 12, uur=[None] * 12, captured=[0, 0], to_move=0, ply=0,
                players=players, faults=[], at=time.time()), qos=1).wait_for_publish(WAIT)
            self.done.append("a state of %s's game naming %s" % (self.victim,
                                                                " and ".join(players)))
        finally:
            client.loop_stop()
            client.disconnect()


def _wait(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the attacker waited %g s for %s" % (WAIT, what))
        time.sleep(0.01)
