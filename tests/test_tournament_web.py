"""The tournament's live pages and the arbiter's pages over HTTP and the WebSocket (Starlette's
TestClient): every route, every refusal (its status, its message, and that nothing changed),
the arbiter's authentication.

`LiveEvent` is a TournamentServer over an in-memory store that is never connected to a
broker: the tests hand it what tables send through `server.handle(topic, payload)`, just as
paho's network thread would. The browser tests (test_tournament_ui.py) use it too.
"""

from __future__ import annotations

import base64
import gettext
import json
import time
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from controller import languages
from controller.rules import Game
from controller.rules.record import read, write_game
from controller.tournament import messages
from controller.tournament.exports import export_csv, export_json
from controller.tournament.model import Result
from controller.tournament.server import TournamentServer
from controller.tournament.rows import GameRow
from controller.tournament.store import Store
from controller.tournament.web import MAX_BODY, OFF, create_app

EVENT = "Club night"
VARIANT = "layli-goobalay"
PLAYERS = (("Ayan", 1500), ("Hodan", 1620), ("Warsame", 1580), ("Faadumo", 1700), ("Cali", 1450))
ARBITERS = {"Hodan Arbiter": "long enough password", "Deeqa": "another one"}
NOWHERE = "mqtt://127.0.0.1:1"      # a broker nobody runs: the server is never started


class LiveEvent:
    """An event with `tables` tables and `players`, a TournamentServer that is fed the
    tables' messages by hand, and the web app over it."""

    def __init__(self, tables: int = 3, players=PLAYERS, rounds: int = 3,
                 arbiters: dict[str, str] | None = ARBITERS) -> None:
        self.store = Store(":memory:", clock=lambda: 1_700_000_000.0)
        self.store.create_event(EVENT, VARIANT, rounds=rounds)
        for name, rating in players:
            self.store.register(name, rating)
        for number in range(1, tables + 1):
            self.store.add_table("table-%d" % number)
        self.server = TournamentServer(self.store, NOWHERE)
        self.app = create_app(self.server, arbiters)
        self.at = 1_700_000_000.0

    def games(self, round: int | None = None, byes: bool = False) -> list[GameRow]:
        rows = self.store.games(self.store.last_round() if round is None else round)
        return [row for row in rows if byes or not row.pairing.is_bye]

    def names(self, row: GameRow) -> tuple[str, str]:
        names = {player.number: player.name for player in self.store.players()}
        return names[row.pairing.south], names[row.pairing.north]

    def send(self, table: str, kind: str, payload: bytes) -> bool:
        return self.server.handle(messages.topic(table, kind), payload)

    def finish(self, row: GameRow, seed: int = 0) -> Result:
        """Play `row`'s game to its end from the moves reported so far (random moves, the
        same for the same game and seed), each move sent from its table, then its result, as
        the board would."""
        game = Game(VARIANT)
        for move in self.store.moves(row.id):
            game.push(move)
        rng = random.Random("%s/%d" % (row.id, seed))
        while not game.over:
            game.push(rng.choice(game.legal_moves()))
            self.move(row, len(game.moves), game.moves[-1])
        return self.report(row, game)

    def move(self, row: GameRow, ply: int, move: int) -> bool:
        """Send ply `ply` of `row`'s game from its table."""
        return self.send(row.table, "move", messages.move(row.table, row.id, ply, move,
                                                          self.at))

    def report(self, row: GameRow, game: Game) -> Result:
        """Send `game`, over, as `row`'s result from its table (its record and the result it
        gives); returns that result."""
        south, north = self.names(row)
        record = write_game(game, {"Event": EVENT, "South": south, "North": north})
        result = Result({0: 1.0, 1: 0.0, None: 0.5}[game.winner()], *game.scores)
        self.at += 1
        assert self.send(row.table, "result", messages.result(
            row.table, row.id, result.south_points, result.south_seeds, result.north_seeds,
            record, self.at))
        return result

    def finish_round(self) -> None:
        for row in self.games():
            if row.result is None:
                self.finish(row)

    def presence(self, table: str, status: str = "online") -> None:
        assert self.send(table, "presence", messages.presence(table, status, "test 1.0", self.at))

    def state(self, row: GameRow | None, table: str | None = None, **changes: Any) -> dict:
        """Send a state message for `row`'s game (or an idle `table`); returns its fields.
        (A table whose presence is offline stays offline: say it is online first.)"""
        fields: dict[str, Any] = {
            "game": row.id if row else None, "status": "playing" if row else "idle",
            "variant": VARIANT, "pits": [4] * 12, "uur": [None] * 12, "captured": [0, 0],
            "to_move": 0, "ply": 0, "players": list(self.names(row)) if row else ["", ""],
            "faults": [], "at": self.at}
        fields.update(changes)
        assert self.send(table or row.table, "state", messages.state(table or row.table,
                                                                      **fields))
        return fields


def basic(name: str, password: str) -> dict[str, str]:
    token = base64.b64encode(("%s:%s" % (name, password)).encode("utf-8")).decode("ascii")
    return {"Authorization": "Basic " + token}


HODAN = basic("Hodan Arbiter", ARBITERS["Hodan Arbiter"])


@pytest.fixture
def event() -> LiveEvent:
    """Round 1 paired (5 players: two games and a bye), no results yet."""
    live = LiveEvent()
    live.server.pair_next_round()
    return live


@pytest.fixture
def client(event) -> TestClient:
    with TestClient(event.app) as client:
        yield client


def post(client: TestClient, path: str, body: Any, headers: dict | None = None,
         content_type: str = "application/json"):
    text = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(path, content=text, headers={
        **(HODAN if headers is None else headers), "Content-Type": content_type})


# --- the live pages ---------------------------------------------------------------------------


def test_the_pages_and_their_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for script in ("feed.js", "board.js", "live.js"):
        assert '<script src="/static/%s">' % script in page.text
    for name in ("feed.js", "board.js", "live.js", "table.js", "arbiter.js", "tournament.css"):
        assert client.get("/static/" + name).status_code == 200, name
    # the look is the project's: the virtual board's stylesheet, served from its own folder
    shared = client.get("/static/style.css")
    assert shared.status_code == 200 and ".count" in shared.text
    table = client.get("/table/table-2")
    assert table.status_code == 200 and "/static/table.js" in table.text


# --- the reader's language (docs/translations.md) ---------------------------------------------

PICKED = '<option value="%s" lang="%s" selected>%s</option>'


def page_words(page) -> dict:
    """What a page gives its scripts to say (<script id="words">)."""
    start = page.text.index('<script id="words" type="application/json">')
    text = page.text[page.text.index(">", start) + 1:page.text.index("</script>", start)]
    return json.loads(text)


def test_a_page_is_in_english_unless_asked_otherwise(client):
    page = client.get("/")
    assert '<html lang="en">' in page.text and PICKED % ("en", "en", "English") in page.text
    assert ">Pairings</button>" in page.text and "No round has been paired yet." in page.text
    assert page_words(page) == {"language": "en", "words": {}}
    # the picker and the words come before the page's own scripts
    assert page.text.index('<script src="/static/words.js">') < page.text.index(
        '<script src="/static/feed.js">')
    assert page.text.index('id="language"') < page.text.index('id="views"')
    words = client.get("/static/words.js")
    assert words.status_code == 200 and "Layli" in words.text


def test_the_live_page_in_the_language_of_its_address(client):
    page = client.get("/?lang=it")
    assert page.status_code == 200
    assert '<html lang="it">' in page.text
    assert PICKED % ("it", "it", "Italiano") in page.text
    assert '<option value="en" lang="en">English</option>' in page.text
    assert page_words(page)["language"] == "it"


@pytest.mark.parametrize("path", ["/", "/table/table-2", "/arbiter"])
def test_every_page_keeps_the_language_picked_in_its_cookie(client, path):
    page = client.get(path, headers={**HODAN, "Cookie": "layli-language=tr",
                                     "Accept-Language": "it-IT,it;q=0.9"})
    assert page.status_code == 200
    assert '<html lang="tr">' in page.text and PICKED % ("tr", "tr", "Türkçe") in page.text
    assert page_words(page)["language"] == "tr"
    # without the cookie, the browser's language
    page = client.get(path, headers={**HODAN, "Accept-Language": "so-SO,so;q=0.9,en;q=0.8"})
    assert '<html lang="so">' in page.text and PICKED % ("so", "so", "Soomaali") in page.text


def test_the_arbiters_page_asks_for_its_state_in_its_language(client):
    # arbiter.js adds lang= to what it asks, so that a refusal reads in the page's language
    state = client.get("/arbiter/state?round=1&lang=it", headers=HODAN)
    assert state.status_code == 200 and state.json()["round"] == 1
    answer = client.get("/arbiter/state?lang=so&round=x", headers=HODAN)
    assert answer.status_code == 400 and '"x"' in answer.json()["error"]     # in any language


@pytest.mark.parametrize("language", [code for code in languages.LANGUAGES
                                      if code != languages.DEFAULT])
@pytest.mark.parametrize("path, template", [("/", "live.html"), ("/table/table-2", "table.html"),
                                            ("/arbiter", "arbiter.html")])
def test_every_page_is_all_in_its_language(client, language, path, template):
    from test_languages import _english_left
    page = client.get(path + "?lang=" + language, headers=HODAN)
    assert page.status_code == 200 and '<html lang="%s">' % language in page.text
    assert _english_left(page.text, language, (template, "languages.html")) == []


class Marked(gettext.NullTranslations):
    """A language whose every text is the English in «»: what was looked up shows."""

    def gettext(self, message: str) -> str:
        return "«%s»" % message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return "«%s»" % (singular if n == 1 else plural)


def test_the_pages_and_the_refusals_are_looked_up_in_the_readers_language(client, monkeypatch):
    monkeypatch.setitem(languages._loaded, "so", Marked())
    page = client.get("/?lang=so")
    assert ">«Pairings»</button>" in page.text
    assert 'aria-label="«the event\'s views»"' in page.text
    assert "«" not in client.get("/").text
    answer = client.get("/table/table-9", headers={"Cookie": "layli-language=so"})
    assert answer.status_code == 404 and answer.text == (
        "«no table 'table-9' at this event (its tables: table-1, table-2, table-3)»")
    # in the thread pool too, where the state is made and the actions act
    answer = client.get("/arbiter/state?round=9&lang=so", headers=HODAN)
    assert answer.json() == {"error": "«round 9 is not paired (rounds paired: 1)»"}
    answer = post(client, "/arbiter/pair?lang=so", {"round": 1})
    assert answer.json() == {"error": "«round 1 is paired already»"}
    answer = post(client, "/arbiter/confirm?lang=so", {"game": "x", "by": "me"})
    assert answer.json() == {"error": '«unknown key "by" (the request takes exactly game)»'}
    assert post(client, "/arbiter/pair", {"round": 1}).json() == {
        "error": "round 1 is paired already"}


def test_a_table_the_event_does_not_have_is_not_found_and_named(client):
    answer = client.get("/table/table-9")
    assert answer.status_code == 404
    assert answer.text == "no table 'table-9' at this event (its tables: table-1, table-2, table-3)"


def test_api_live_is_the_servers_snapshot(event, client):
    event.state(event.games()[0])
    live = client.get("/api/live").json()
    assert live == json.loads(json.dumps(event.server.snapshot()))
    assert set(live) == {"event", "pairings", "standings", "tables"}
    assert live["tables"]["table-1"]["state"]["pits"] == [4] * 12


def test_the_exports(event, client):
    finished = [event.finish(row) for row in event.games()]
    answer = client.get("/export.json")
    assert answer.status_code == 200 and answer.json() == export_json(event.store)
    assert answer.headers["content-disposition"].startswith(
        'attachment; filename="Club-night.json"')
    answer = client.get("/export.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert answer.headers["content-disposition"] == (
        'attachment; filename="Club-night.csv"; filename*=UTF-8\'\'Club%20night.csv')
    assert answer.text == export_csv(event.store)
    rows = answer.text.splitlines()
    assert rows[0] == "round,board,table,south,north,result,seeds,status"
    assert len(rows) == 4 and rows[3].endswith(",bye,1-0,0-0,confirmed")
    assert rows[1].endswith("%d-%d,reported" % (finished[0].south_seeds,
                                                  finished[0].north_seeds))


def test_records_pgn_has_every_record_in_round_and_board_order(event, client):
    assert client.get("/records.pgn").text == ""        # nothing played yet
    event.finish_round()
    event.server.pair_next_round()
    event.finish_round()
    answer = client.get("/records.pgn")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    assert answer.headers["content-disposition"].startswith('attachment; filename="Club-night.pgn"')
    records = [row.record for row in event.store.games() if row.record]
    assert len(records) == 4
    assert answer.text == "\n\n".join(record.rstrip("\n") for record in records) + "\n"
    # in round and board order: each game's players, as the pairings have them
    where = [answer.text.index('[South "%s"]\n[North "%s"]' % event.names(row))
             for round in (1, 2) for row in event.games(round)]
    assert where == sorted(where)


def test_records_pgn_carries_the_arbiters_correction(event, client):
    row = event.games()[0]
    first = event.finish(row)
    board_record = event.store.game(row.id).record
    assert first not in (Result(0.0, 20, 28), Result(0.5, 24, 24))
    for reason, result in (("seeds miscounted", Result(0.0, 20, 28)),
                           ('agreed a "draw"\nat the end', Result(0.5, 24, 24))):
        assert post(client, "/arbiter/correct", {
            "game": row.id, "south_points": result.south_points,
            "south_seeds": result.south_seeds, "north_seeds": result.north_seeds,
            "reason": reason}).status_code == 200
    text = client.get("/records.pgn").text
    # the last correction stands, after the board's own tags, which the moves still reach
    assert text.index('[Termination "') < text.index('[ArbiterResult "1/2-1/2"]')
    assert '[ArbiterScore "24-24"]\n[Arbiter "Hodan Arbiter"]\n' in text
    assert '[ArbiterReason "agreed a \\"draw\\" at the end"]\n' in text
    assert text.count("[ArbiterResult") == 1
    game, tags = read(text)
    assert game.moves == read(board_record)[0].moves
    assert tags[0]["Result"] == read(board_record)[1][0]["Result"]
    assert (tags[0]["ArbiterResult"], tags[0]["ArbiterReason"]) == (
        "1/2-1/2", 'agreed a "draw" at the end')


# --- the live feed ----------------------------------------------------------------------------


def receive_until(ws, test, limit: int = 50) -> dict:
    """The first message that passes `test` (at most `limit` messages read)."""
    for _ in range(limit):
        message = ws.receive_json()
        if test(message):
            return message
    raise AssertionError("no such message in %d" % limit)


def test_the_feed_sends_everything_then_each_change(event, client):
    with client.websocket_connect("/ws") as ws:
        # the latest of every key, the least recently changed first
        first = {(m["type"], m.get("table")): m for m in (ws.receive_json() for _ in range(7))}
        assert sorted(first, key=str) == sorted([
            ("hello", None), ("event", None), ("pairings", None), ("standings", None),
            ("table", "table-1"), ("table", "table-2"), ("table", "table-3")], key=str)
        assert first["event", None]["name"] == EVENT and first["event", None]["round"] == 1
        assert len(first["pairings", None]["rounds"][0]["games"]) == 3
        # a table's state: its message comes, with the board
        row = event.games()[1]
        event.presence(row.table)
        event.state(row, pits=[5, 0, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4], ply=2, to_move=1)
        table = receive_until(ws, lambda m: m["type"] == "table" and m["state"])
        assert table["table"] == row.table and table["status"] == "playing"
        assert table["state"]["pits"][:2] == [5, 0] and table["state"]["ply"] == 2
        # a move
        assert event.send(row.table, "move", messages.move(row.table, row.id, 1, 4, event.at))
        table = receive_until(ws, lambda m: m["type"] == "table" and m["last_move"])
        assert table["last_move"] == {"game": row.id, "ply": 1, "move": 4, "at": event.at}
        # a result: the pairings and the standings follow
        event.finish(row)
        reported = receive_until(ws, lambda m: m["type"] == "pairings" and any(
            game["status"] == "reported" for game in m["rounds"][0]["games"]))
        finished = [game["game"] for game in reported["rounds"][0]["games"]
                    if game["result"] and game["north"]]
        assert finished == [row.id]
        standings = receive_until(ws, lambda m: m["type"] == "standings" and any(
            line["games"] for line in m["rows"]))
        assert sum(line["games"] for line in standings["rows"]) == 2


# --- the arbiter's authentication -------------------------------------------------------------


def test_without_arbiters_the_arbiters_pages_are_off_and_say_how_to_turn_them_on():
    live = LiveEvent(arbiters=None)
    live.server.pair_next_round()
    with TestClient(live.app) as client:
        page = client.get("/arbiter", headers=HODAN)
        assert page.status_code == 404 and page.text == OFF
        assert "arbiters={name: password}" in OFF
        assert client.get("/arbiter/state", headers=HODAN).json() == {"error": OFF}
        before = export_json(live.store)
        answer = post(client, "/arbiter/pair", {"round": 2})
        assert answer.status_code == 404 and answer.json() == {"error": OFF}
        assert export_json(live.store) == before
    with TestClient(LiveEvent(arbiters={}).app) as client:       # {} is none too
        assert client.get("/arbiter", headers=HODAN).status_code == 404


@pytest.mark.parametrize("headers", [
    {},
    basic("Hodan Arbiter", "wrong"),
    basic("Hodan", ARBITERS["Hodan Arbiter"]),
    basic("Deeqa", ARBITERS["Hodan Arbiter"]),          # another arbiter's password
    basic("Hodan Arbiter", ARBITERS["Hodan Arbiter"] + " "),
    {"Authorization": "Bearer abc"},
    {"Authorization": "Basic not base64!"},
    {"Authorization": "Basic " + base64.b64encode(b"\xff\xfe:x").decode()},
], ids=["none", "wrong password", "unknown name", "another's password", "extra space",
        "not basic", "not base64", "not utf-8"])
def test_the_arbiters_pages_ask_who_is_there(event, client, headers):
    before = export_json(event.store)
    page = client.get("/arbiter", headers=headers)
    assert page.status_code == 401
    assert page.headers["www-authenticate"] == 'Basic realm="layli arbiter", charset="UTF-8"'
    state = client.get("/arbiter/state", headers=headers)
    assert state.status_code == 401 and "name and password" in state.json()["error"]
    for path, body in (("/arbiter/confirm", {"game": "x"}), ("/arbiter/pair", {"round": 2})):
        answer = post(client, path, body, headers=headers)
        assert answer.status_code == 401 and "www-authenticate" in answer.headers
    assert export_json(event.store) == before


def test_each_arbiter_gets_in_with_their_own_password(client):
    page = client.get("/arbiter", headers=HODAN)
    assert page.status_code == 200 and "/static/arbiter.js" in page.text
    assert page.headers["cache-control"] == "no-store"
    state = client.get("/arbiter/state", headers=basic("Deeqa", "another one")).json()
    assert state["arbiter"] == "Deeqa"


@pytest.mark.parametrize("arbiters, error", [
    ({"a:b": "x"}, "without a colon"),
    ({" Hodan": "x"}, "spaces at its ends"),
    ({"": "x"}, "an arbiter's name"),
    ({"Hodan": ""}, "arbiter Hodan's password must be non-empty"),
    ({"Hodan": None}, "password must be non-empty text"),
    (["Hodan"], "must map names to passwords"),
])
def test_arbiters_are_checked_when_the_app_is_made(event, arbiters, error):
    with pytest.raises(ValueError, match=error):
        create_app(event.server, arbiters)


# --- the arbiter's state and actions ----------------------------------------------------------


def test_the_arbiters_state(event, client):
    state = client.get("/arbiter/state", headers=HODAN).json()
    assert state["arbiter"] == "Hodan Arbiter" and state["event"] == EVENT
    assert (state["round"], state["latest_round"], state["rounds"]) == (1, 1, 3)
    assert [game["board"] for game in state["games"]] == [1, 2, 3]
    bye = state["games"][2]
    assert bye["bye"] and bye["north"] is None and bye["table"] is None
    assert bye["result"] == {"south_points": 1.0, "south_seeds": 0, "north_seeds": 0}
    assert [game["status"] for game in state["games"][:2]] == ["assigned", "assigned"]
    assert not state["round_complete"] and not state["can_pair"] and state["next_round"] == 2
    assert state["rejected"] == [] and state["corrections"] == []
    # a forged message: rejected, and the arbiter sees why
    assert not event.send("table-1", "result", messages.result(
        "table-1", event.games()[1].id, 1.0, 30, 18, "1. 3 *", 1.0))
    state = client.get("/arbiter/state", headers=HODAN).json()
    assert state["rejected_counts"] == {"MessageError": 1}
    assert "which is played at table-2" in state["rejected"][0]["detail"]
    assert state["rejected"][0]["topic"] == "layli/table/table-1/result"


def test_confirm(event, client):
    row = event.games()[0]
    event.finish(row)
    answer = post(client, "/arbiter/confirm", {"game": row.id})
    assert answer.status_code == 200
    game = answer.json()["games"][0]
    assert game["status"] == "confirmed" and game["confirmed_by"] == "Hodan Arbiter"
    stored = event.store.game(row.id)
    assert stored.status == "confirmed" and stored.confirmed_by == "Hodan Arbiter"
    # the live feed has it too
    _, text = event.server.live.latest("pairings")
    assert json.loads(text)["rounds"][0]["games"][0]["status"] == "confirmed"


def test_correct(event, client):
    row = event.games()[0]
    first = event.finish(row)
    new = Result(0.5 if first.south_points != 0.5 else 1.0, 24, 24)
    answer = post(client, "/arbiter/correct", {
        "game": row.id, "south_points": new.south_points, "south_seeds": 24,
        "north_seeds": 24, "reason": "  the players agreed a draw before the end  "})
    assert answer.status_code == 200, answer.text
    state = answer.json()
    assert state["games"][0]["status"] == "corrected"
    assert state["games"][0]["result"] == {"south_points": new.south_points,
                                           "south_seeds": 24, "north_seeds": 24}
    assert state["corrections"] == [{
        "game": row.id, "arbiter": "Hodan Arbiter",
        "reason": "the players agreed a draw before the end", "at": 1_700_000_000.0,
        "old": {"south_points": first.south_points, "south_seeds": first.south_seeds,
                "north_seeds": first.north_seeds},
        "new": {"south_points": new.south_points, "south_seeds": 24, "north_seeds": 24}}]
    assert event.store.game(row.id).result == new
    # the standings on the live feed follow the correction
    _, text = event.server.live.latest("standings")
    south = event.names(row)[0]
    line = [line for line in json.loads(text)["rows"] if line["name"] == south][0]
    assert line["points"] == new.south_points
    # 0 and 1 as JSON whole numbers are points too
    answer = post(client, "/arbiter/correct", {
        "game": row.id, "south_points": 0, "south_seeds": 20, "north_seeds": 28,
        "reason": "the seeds were miscounted"})
    assert answer.status_code == 200 and event.store.game(row.id).result == Result(0.0, 20, 28)


def test_the_arbiter_enters_the_result_of_a_game_whose_board_failed(event, client):
    row = event.games()[0]
    answer = post(client, "/arbiter/correct", {
        "game": row.id, "south_points": 0.5, "south_seeds": 24, "north_seeds": 24,
        "reason": "the board lost power for good; the players agreed a draw"})
    assert answer.status_code == 200, answer.text
    state = answer.json()
    assert state["games"][0]["status"] == "corrected"
    assert state["corrections"][0]["old"] is None
    assert event.store.game(row.id).result == Result(0.5, 24, 24)
    assert event.store.game(row.id).source == "arbiter"
    # the event's records list it too: its players and table, no moves, the arbiter's result
    event.finish(event.games()[1])
    text = client.get("/records.pgn").text
    first, second = text.split("\n\n[")
    (failed, tags), (played, _) = read(first), read("[" + second)
    south, north = event.names(row)
    assert failed.moves == [] and tags[0]["Result"] == "*" and played.moves
    assert (tags[0]["South"], tags[0]["North"], tags[0]["Site"], tags[0]["Round"]) == (
        south, north, row.table, "1")
    assert tags[0]["Event"] == row.id.rsplit("/", 2)[0] and tags[0]["Variant"] == "layli-goobalay"
    assert (tags[0]["ArbiterResult"], tags[0]["ArbiterScore"]) == ("1/2-1/2", "24-24")
    assert tags[0]["ArbiterReason"] == "the board lost power for good; the players agreed a draw"


def test_the_arbiter_moves_a_game_whose_board_failed_to_a_spare_table(event, client,
                                                                      monkeypatch):
    sent: list[tuple[str, str, dict]] = []
    monkeypatch.setattr(event.server, "_send", lambda table, kind, payload: sent.append(
        (table, kind, json.loads(payload))))
    row, other = event.games()                 # tables 1 and 2; table-3 is spare (a bye)
    state = client.get("/arbiter/state", headers=HODAN).json()
    assert state["spare_tables"] == ["table-3"] and state["relocations"] == []
    game = Game(VARIANT)
    rng = random.Random(4)
    for ply in range(1, 6):                    # table-1 reports five moves, then fails
        move = rng.choice(game.legal_moves())
        game.push(move)
        assert event.send("table-1", "move", messages.move("table-1", row.id, ply, move, 1.0))
    event.state(row, ply=5)
    refusals = [
        ({"table": "table-2"}, "table-2 has game %s of round 1: choose a table with no game "
                               "this round (spare: table-3)" % other.id),
        ({"table": "table-9"}, "there is no table 'table-9' at this event"),
        ({"table": "table-1"}, "is at table-1 already"),
        ({"table": 3}, "'table' must be a table id such as \"table-3\", not 3"),
        ({"reason": " "}, "'reason' must say why the game moves"),
        ({"game": "Club night/r1/b9"}, "this event has no game"),
    ]
    good = {"game": row.id, "table": "table-3", "reason": "table-1's load cells died"}
    for change, message in refusals:
        answer = post(client, "/arbiter/move", {**good, **change})
        assert answer.status_code == 400 and message in answer.json()["error"], answer.text
    assert sent == [] and event.store.game(row.id).table == "table-1"
    answer = post(client, "/arbiter/move", good)
    assert answer.status_code == 200, answer.text
    state = answer.json()
    assert state["games"][0]["table"] == "table-3" and state["spare_tables"] == ["table-1"]
    (moved,) = state["relocations"]
    assert (moved["game"], moved["from"], moved["to"], moved["ply"], moved["arbiter"]) == (
        row.id, "table-1", "table-3", 5, "Hodan Arbiter")
    # table-3 is told the game and its moves; table-1 that it has none
    assignments = {table: payload for table, kind, payload in sent if kind == "assignment"}
    assert assignments["table-3"]["game"] == row.id
    assert assignments["table-3"]["moves"] == game.moves
    assert assignments["table-1"]["game"] is None and assignments["table-1"]["moves"] == []
    assert assignments["table-2"]["game"] == other.id and assignments["table-2"]["moves"] == []
    # table-1, back, is refused; table-3 plays on and its result is recorded
    assert not event.send("table-1", "move", messages.move("table-1", row.id, 6, 1, 2.0))
    assert event.store.rejected(1)[0].detail.endswith("which is played at table-3")
    result = event.finish(event.store.game(row.id))
    assert event.store.game(row.id).result == result
    answer = post(client, "/arbiter/move", {**good, "table": "table-1"})
    assert answer.status_code == 400 and "has a result already" in answer.json()["error"]

def played(row: GameRow, seed: int) -> Game:
    """A whole random game of `row`'s (the same for the same seed)."""
    game = Game(VARIANT)
    rng = random.Random("%s/%d" % (row.id, seed))
    while not game.over:
        game.push(rng.choice(game.legal_moves()))
    return game


def test_a_record_that_parts_from_the_moves_reported_is_held_for_the_arbiter(event, client):
    """Issue 17: a table sent 23 live moves of one game, then a legal record of another."""
    row, other = event.games()
    live = played(row, 1).moves[:23]
    for ply, move in enumerate(live, 1):
        assert event.send(row.table, "move", messages.move(row.table, row.id, ply, move, 1.0))
    sent: list[tuple[str, bytes]] = []
    event.server._send = lambda table, kind, payload: sent.append((kind, payload))
    game = played(row, 2)                           # another game, legal, between the two
    assert game.moves[:23] != live
    claimed = event.report(row, game)
    # not recorded; held with both lines; the table is acknowledged (it has done its part)
    assert event.store.game(row.id).result is None
    assert [kind for kind, _ in sent] == ["ack"]
    ply = next(index for index, (a, b) in enumerate(zip(live, game.moves), 1) if a != b)
    (held,) = event.store.held()
    assert (held.game_id, held.table, held.result, held.ply) == (row.id, row.table, claimed, ply)
    assert list(held.live) == live and list(held.recorded) == game.moves
    assert event.server.counters["held"] == 1 and event.server.counters["recorded"] == 0
    assert event.report(row, game) == claimed       # sent again: counted, held once
    assert event.store.held()[0].copies == 2 and event.server.counters["held"] == 1
    # the arbiter sees it, both lines side by side, and accepts it
    state = client.get("/arbiter/state", headers=HODAN).json()
    (shown,) = state["held"]
    assert (shown["game"], shown["ply"], shown["decision"]) == (row.id, ply, None)
    assert shown["live"] == live and shown["recorded"] == game.moves
    assert post(client, "/arbiter/accept", {"game": other.id}).status_code == 400
    answer = post(client, "/arbiter/accept", {"game": row.id})
    assert answer.status_code == 200, answer.text
    assert answer.json()["held"][0]["decision"] == "accepted"
    recorded = event.store.game(row.id)
    assert (recorded.result, recorded.status, recorded.confirmed_by) == (
        claimed, "confirmed", "Hodan Arbiter")
    assert post(client, "/arbiter/accept", {"game": row.id}).status_code == 400


def test_a_held_result_the_arbiter_replaces_is_kept_with_the_decision(event, client):
    row, _other = event.games()
    live = played(row, 1).moves[:5]
    for ply, move in enumerate(live, 1):
        assert event.send(row.table, "move", messages.move(row.table, row.id, ply, move, 1.0))
    event.report(row, played(row, 3))
    assert event.store.held(undecided=True)
    answer = post(client, "/arbiter/correct", {"game": row.id, "south_points": 0.5,
                                               "south_seeds": 24, "north_seeds": 24,
                                               "reason": "the players agreed the board's "
                                                         "live moves"})
    assert answer.status_code == 200, answer.text
    (held,) = event.store.held()
    assert (held.decision, held.arbiter) == ("replaced", "Hodan Arbiter")
    assert event.store.held(undecided=True) == []
    assert event.store.game(row.id).result == Result(0.5, 24, 24)


def test_a_board_back_from_a_power_cut_sends_its_moves_again_and_its_result_counts(event):
    """A move lost on the way (the power went with it still in the link's queue): the moves
    after it wait for it. The board, back on, sends the game's moves again from its journal,
    from the first: those the server had are copies, the lost one fills the gap, and the
    record, equal to the moves, counts."""
    row, _other = event.games()
    game = played(row, 1)
    for ply, move in enumerate(game.moves[:30], 1):
        if ply != 12:                               # one lost
            assert event.move(row, ply, move)
    seen = event.store.line(row.id)
    assert len(seen.moves) == 11 and seen.waiting == 18
    for ply, move in enumerate(game.moves[:30], 1):
        assert event.move(row, ply, move)
    seen = event.store.line(row.id)
    assert seen.moves == game.moves[:30] and seen.copies == 29 and seen.takebacks == []
    result = event.finish(row, seed=1)
    assert event.store.game(row.id).result == result and event.store.held() == []


def test_a_replayed_old_move_changes_nothing(event):
    """Issue 41: an old move message sent again (by anyone with the table's password) is a
    copy, kept in the evidence log: the moves reported stay, and the board's result counts."""
    row, _other = event.games()
    game = played(row, 1)
    for ply, move in enumerate(game.moves[:10], 1):
        assert event.move(row, ply, move)
    assert event.move(row, 1, game.moves[0])        # replayed
    assert event.store.moves(row.id) == game.moves[:10]
    assert len(event.store.evidence(row.id)) == 11
    result = event.finish(row, seed=1)
    assert event.store.game(row.id).result == result and event.store.held() == []


def test_a_forged_result_cannot_be_recorded_over_the_boards_moves(event, client):
    """Issue 41's forgery, by someone with one table's password: the board has reported ten
    moves of its game G; a legal record H that parts from G at move 1 is held; a move message
    for ply 1 with H's first move, then H's every move, then H's result again: still held,
    the takeback of ten moves at once named. The board plays on and sends its moves and its
    result: the evidence shows a takeback no player makes, so that too waits for the arbiter,
    who sees why and accepts the board's; it is recorded."""
    row, _other = event.games()
    board = played(row, 1)
    for ply, move in enumerate(board.moves[:10], 1):
        assert event.move(row, ply, move)
    forged = next(game for game in (played(row, seed) for seed in range(2, 40))
                  if game.moves[0] != board.moves[0])
    event.report(row, forged)
    (held,) = event.store.held()
    assert held.ply == 1 and "parts from the board's moves at move 1" in held.reason
    for ply, move in enumerate(forged.moves, 1):    # the forger's takeback, and H's moves
        assert event.move(row, ply, move)
    assert event.store.moves(row.id) == forged.moves
    event.report(row, forged)
    assert event.store.game(row.id).result is None
    _first, held = event.store.held()               # each kept, as it came
    assert "took back 10 moves at once, from move 1" in held.reason, held.reason
    # the board plays on from its own moves: its move 11 is one more takeback (of the
    # forger's line), then its game to the end, and its result
    for ply, move in enumerate(board.moves, 1):
        event.move(row, ply, move)
    claimed = event.report(row, board)
    seen = event.store.line(row.id)
    assert seen.moves == board.moves
    # the board's line is back, but the log holds the forger's takeback: held for the arbiter
    assert event.store.game(row.id).result is None
    *forgeries, held = event.store.held(undecided=True)
    assert held.result == claimed and "took back" in held.reason and len(forgeries) == 2
    state = client.get("/arbiter/state", headers=HODAN).json()
    assert [item["reason"] for item in state["held"]][-1] == held.reason
    assert [item["newest"] for item in state["held"]] == [False, False, True]
    answer = post(client, "/arbiter/accept", {"game": row.id})
    assert answer.status_code == 200, answer.text
    assert event.store.game(row.id).result == claimed
    assert [item.decision for item in event.store.held()] == ["replaced", "replaced",
                                                               "accepted"]


def test_a_result_before_any_move_and_a_record_past_the_last_move_are_held(event):
    """Held, and not acknowledged: the board sends such a result again after its moves (a
    result that overtook them counts then; tests/test_tournament_cli.py's serve killed)."""
    row, other = event.games()
    sent: list[tuple[str, bytes]] = []
    event.server._send = lambda table, kind, payload: sent.append((kind, payload))
    event.report(row, played(row, 1))               # no move reported
    (held,) = event.store.held()
    assert held.reason == "the board reported no moves of this game before its result"
    game = played(other, 1)
    for ply, move in enumerate(game.moves[:6], 1):
        assert event.move(other, ply, move)
    event.report(other, game)                       # runs on past move 6
    held = {item.game_id: item for item in event.store.held()}[other.id]
    assert held.reason == "the record runs on past move 6, the last the board reported"
    assert event.store.game(row.id).result is None and event.store.game(other.id).result is None
    assert "ack" not in [kind for kind, _ in sent]


def test_a_state_must_say_what_its_assignment_says(event):
    row, other = event.games()
    event.presence(row.table)
    south, north = event.names(row)
    event.state(row)                                # as assigned: shown
    assert event.server.table_view(row.table)["state"]["players"] == [south, north]
    refused = {
        "players": (["Somebody", north], "naming Somebody and %s, not its players" % north),
        "variant": ("tampoduo", "in tampoduo, not the event's layli-goobalay"),
        "game": (other.id, "which is played at %s" % other.table),
    }
    for key, (value, words) in refused.items():
        fields = {"game": row.id, "status": "playing", "variant": VARIANT,
                  "pits": [4] * 12, "uur": [None] * 12, "captured": [0, 0], "to_move": 0,
                  "ply": 0, "players": [south, north], "faults": [], "at": 5.0, key: value}
        if key == "game":
            fields["players"] = list(event.names(other))
        assert not event.send(row.table, "state", messages.state(row.table, **fields)), key
        assert words in event.store.rejected(1)[0].detail, key
    assert event.server.table_view(row.table)["state"]["players"] == [south, north]
    assert event.server.counters["rejected"] == 3


def test_a_broken_table_is_retired_and_paired_no_more_until_it_returns(event, client):
    row, other = event.games()                 # tables 1 and 2; table-3 is spare (a bye)
    answer = post(client, "/arbiter/retire", {"table": "table-1", "reason": "cells broken"})
    assert answer.status_code == 400
    assert "has game %s, which has no result: move it to another table first" % row.id in \
        answer.json()["error"]
    assert post(client, "/arbiter/retire", {"table": "table-1"}).status_code == 400
    answer = post(client, "/arbiter/move", {"game": row.id, "table": "table-3",
                                            "reason": "cells broken"})
    assert answer.status_code == 200
    answer = post(client, "/arbiter/retire", {"table": "table-1", "reason": "cells broken"})
    assert answer.status_code == 200, answer.text
    state = answer.json()
    assert state["spare_tables"] == []
    tables = {item["table"]: item["retired"] for item in state["tables"]}
    assert tables["table-2"] is None and tables["table-1"]["reason"] == "cells broken"
    assert tables["table-1"]["arbiter"] == "Hodan Arbiter"
    assert client.get("/api/live").json()["tables"]["table-1"]["retired"] == "cells broken"
    # round 2 is paired on tables 2 and 3 only
    event.finish_round()
    assert post(client, "/arbiter/pair", {"round": 2}).status_code == 200
    assert sorted(game.table for game in event.games()) == ["table-2", "table-3"]
    answer = post(client, "/arbiter/return", {"table": "table-1"})
    assert answer.status_code == 200
    assert all(item["retired"] is None for item in answer.json()["tables"])
    assert answer.json()["spare_tables"] == ["table-1"]
    answer = post(client, "/arbiter/return", {"table": "table-1"})
    assert answer.status_code == 400 and "table table-1 is not retired" in answer.json()["error"]

def test_an_earlier_rounds_game_is_corrected_and_shown_with_its_round(event, client):
    event.finish_round()
    event.server.pair_next_round()
    row = event.games(1)[0]
    result = event.store.game(row.id).result
    new = Result(result.south_points, result.south_seeds + 1, result.north_seeds - 1)
    answer = post(client, "/arbiter/correct", {
        "game": row.id, "south_points": new.south_points, "south_seeds": new.south_seeds,
        "north_seeds": new.north_seeds, "reason": "a seed was in the wrong store"})
    assert answer.status_code == 200 and answer.json()["round"] == 1
    assert answer.json()["latest_round"] == 2
    state = client.get("/arbiter/state?round=1", headers=HODAN).json()
    assert state["round"] == 1 and state["games"][0]["status"] == "corrected"


def test_pair(event, client):
    event.finish_round()
    state = client.get("/arbiter/state", headers=HODAN).json()
    assert state["round_complete"] and state["can_pair"] and state["next_round"] == 2
    answer = post(client, "/arbiter/pair", {"round": 2})
    assert answer.status_code == 200
    state = answer.json()
    assert (state["round"], state["latest_round"], state["next_round"]) == (2, 2, 3)
    assert len(state["games"]) == 3 and not state["can_pair"]
    assert event.store.last_round() == 2
    _, text = event.server.live.latest("event")
    assert json.loads(text)["round"] == 2
    # the same click again (a second arbiter, a double click): refused, nothing paired
    answer = post(client, "/arbiter/pair", {"round": 2})
    assert answer.status_code == 400 and answer.json() == {"error": "round 2 is paired already"}
    event.finish_round()
    assert post(client, "/arbiter/pair", {"round": 3}).status_code == 200
    event.finish_round()
    answer = post(client, "/arbiter/pair", {"round": 4})
    assert answer.status_code == 400
    assert answer.json() == {"error": "all 3 rounds are paired already"}
    assert client.get("/arbiter/state", headers=HODAN).json()["next_round"] is None


def refusals(event: LiveEvent) -> list[tuple[str, Any, str, str]]:
    """(path, body, content type, what the error says) for an event whose round 1 has board
    1's result reported and confirmed, board 2 still playing, board 3 a bye."""
    done, playing, bye = (row.id for row in event.games(byes=True))
    result = event.store.game(done).result
    good = {"game": done, "south_points": 0.5, "south_seeds": 24, "north_seeds": 24,
            "reason": "agreed"}
    if result.south_points == 0.5:
        good["south_points"] = 1.0
    json_type = "application/json"
    return [
        # the body
        ("/arbiter/confirm", '{"game": ', json_type, "the request is not JSON: Expecting value"),
        ("/arbiter/confirm", b"\xff\xfe", json_type, "the request is not JSON"),
        ("/arbiter/confirm", [done], json_type,
         'must be a JSON object with game, not ["Club night/r1/b1"]'),
        ("/arbiter/confirm", {"game": done}, "text/plain",
         "Content-Type must be application/json, not text/plain"),
        ("/arbiter/confirm", {"game": done}, "application/x-www-form-urlencoded",
         "must be application/json"),
        ("/arbiter/confirm", {}, json_type, 'missing "game" (the request takes exactly game)'),
        ("/arbiter/confirm", {"game": done, "by": "me"}, json_type, 'unknown key "by"'),
        ("/arbiter/confirm", {"game": 7}, json_type, "'game' must be a game id"),
        ("/arbiter/confirm", {"game": "Club night/r9/b1"}, json_type,
         "'game': this event has no game \"Club night/r9/b1\""),
        ("/arbiter/confirm", " " * (MAX_BODY + 1), json_type, "more than 65536"),
        # the event's state
        ("/arbiter/confirm", {"game": done}, json_type, "is confirmed already (by Deeqa)"),
        ("/arbiter/confirm", {"game": playing}, json_type, "has no result to confirm"),
        ("/arbiter/confirm", {"game": bye}, json_type, "is a bye"),
        # a correction
        ("/arbiter/correct", dict(good, south_points=2), json_type,
         "'south_points' (South's points) must be 1, 0.5 or 0, not 2"),
        ("/arbiter/correct", dict(good, south_points=True), json_type, "not true"),
        ("/arbiter/correct", dict(good, south_points="1"), json_type, 'not "1"'),
        ("/arbiter/correct", dict(good, south_points=None), json_type, "not null"),
        ("/arbiter/correct", dict(good, south_seeds=-1), json_type,
         "'south_seeds' must be a whole number of seeds >= 0, not -1"),
        ("/arbiter/correct", dict(good, north_seeds=3.5), json_type, "not 3.5"),
        ("/arbiter/correct", dict(good, north_seeds=24.0), json_type, "not 24.0"),
        ("/arbiter/correct", dict(good, north_seeds="24"), json_type, 'not "24"'),
        ("/arbiter/correct", dict(good, reason=""), json_type,
         "'reason' must say why the result is corrected"),
        ("/arbiter/correct", dict(good, reason="   "), json_type, "must say why"),
        ("/arbiter/correct", dict(good, reason=None), json_type, "must say why"),
        ("/arbiter/correct", dict(good, reason="x" * 501), json_type,
         "'reason' is 501 characters long, more than 500"),
        ("/arbiter/correct", dict(good, reason="a\x00b"), json_type, "control character"),
        ("/arbiter/correct", {key: good[key] for key in good if key != "reason"}, json_type,
         'missing "reason"'),
        ("/arbiter/correct", dict(good, arbiter="Deeqa"), json_type, 'unknown key "arbiter"'),
        ("/arbiter/correct", dict(good, game=bye), json_type, "is a bye"),
        ("/arbiter/correct", dict(good, south_points=result.south_points,
                                  south_seeds=result.south_seeds,
                                  north_seeds=result.north_seeds), json_type,
         "has that result already"),
        # pairing
        ("/arbiter/pair", {}, json_type, 'missing "round"'),
        ("/arbiter/pair", {"round": "2"}, json_type,
         "'round' must be the number of the round to pair (1, 2, ...), not \"2\""),
        ("/arbiter/pair", {"round": 0}, json_type, "not 0"),
        ("/arbiter/pair", {"round": 1}, json_type, "round 1 is paired already"),
        ("/arbiter/pair", {"round": 3}, json_type, "the next round is 2, not 3"),
        ("/arbiter/pair", {"round": 2}, json_type,
         "round 2 cannot be paired before round 1 is over: Club night/r1/b2 has no result"),
    ]


def test_every_refusal_says_what_was_wrong_and_changes_nothing(event, client):
    done, playing = event.games()
    event.finish(done)
    event.state(playing)
    event.server.confirm(done.id, "Deeqa")
    cases = refusals(event)
    assert len(cases) > 30
    for path, body, content_type, error in cases:
        before = (export_json(event.store), event.server.live.since(0))
        answer = post(client, path, body, content_type=content_type)
        assert answer.status_code == 400, (path, body, answer.text)
        assert error in answer.json()["error"], (path, body, answer.json())
        assert (export_json(event.store), event.server.live.since(0)) == before, (path, body)


@pytest.mark.parametrize("query, error", [
    ("round=x", 'round must be a round\'s number (1, 2, ...), not "x"'),
    ("round=-1", "round must be a round's number"),
    ("round=2", "round 2 is not paired (rounds paired: 1)"),
    ("round=0", "round 0 is not paired"),
    ("r=1", 'unknown query parameter "r" (the state takes only round)'),
])
def test_the_state_of_a_round_that_is_not_there_is_refused(client, query, error):
    answer = client.get("/arbiter/state?" + query, headers=HODAN)
    assert answer.status_code == 400 and error in answer.json()["error"]


def test_before_round_one_the_arbiter_can_pair_it():
    live = LiveEvent()
    with TestClient(live.app) as client:
        state = client.get("/arbiter/state", headers=HODAN).json()
        assert (state["round"], state["games"], state["can_pair"], state["next_round"]) == (
            0, [], True, 1)
        answer = client.get("/arbiter/state?round=1", headers=HODAN)
        assert answer.status_code == 400
        assert answer.json() == {"error": "round 1 is not paired (rounds paired: none yet)"}
        answer = post(client, "/arbiter/pair", {"round": 1})
        assert answer.status_code == 200 and len(answer.json()["games"]) == 3
        # the live page's snapshot shows the round
        assert client.get("/api/live").json()["event"]["round"] == 1


# --- issue 17: the pages hardened --------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/table/table-2", "/api/live", "/export.csv",
                                  "/static/style.css", "/arbiter", "/arbiter/state"])
def test_every_answer_carries_the_security_headers(client, path):
    answer = client.get(path, headers=HODAN)
    assert answer.status_code == 200, answer.text
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


def test_wrong_arbiter_passwords_lock_the_address_out_for_a_growing_time(client, caplog):
    wrong = basic("Hodan Arbiter", "a guess")
    caplog.set_level("WARNING", logger="controller.tournament.web")
    assert client.get("/arbiter").status_code == 401          # the browser asks: no failure
    for _attempt in range(3):                                   # three are free
        assert client.get("/arbiter/state", headers=wrong).status_code == 401
    assert client.get("/arbiter/state", headers=HODAN).status_code == 200   # clears the count
    for _attempt in range(4):
        assert client.get("/arbiter/state", headers=wrong).status_code == 401
    # the fourth in a row locked the address out for a second: even the right password waits
    locked = client.get("/arbiter/state", headers=HODAN)
    assert locked.status_code == 429 and locked.headers["retry-after"] == "1"
    assert "too many wrong passwords" in locked.json()["error"]
    time.sleep(1.1)
    assert client.get("/arbiter/state", headers=wrong).status_code == 401   # 2 s now
    assert client.get("/arbiter/state", headers=HODAN).headers["retry-after"] == "2"
    refused = [r.getMessage() for r in caplog.records if "arbiter login refused" in r.getMessage()]
    assert len(refused) == 8 and "(4 in a row; locked out for 1 s)" in refused[-2]
    assert "locked out for 2 s" in refused[-1]


def test_the_login_guard_doubles_up_to_its_longest_and_forgets_the_oldest():
    from controller.tournament.web import LoginGuard
    now = [0.0]
    guard = LoginGuard(free=1, longest=8, remembered=2, clock=lambda: now[0])
    waits = []
    for _attempt in range(7):
        guard.failed("10.0.0.1")
        waits.append(guard.wait("10.0.0.1"))
    assert waits == [0, 1, 2, 4, 8, 8, 8]
    guard.failed("10.0.0.2")
    guard.failed("10.0.0.3")                    # three addresses: the oldest is forgotten
    assert guard.wait("10.0.0.1") == 0 and set(guard.failures) == {"10.0.0.2", "10.0.0.3"}


def test_the_pages_learn_when_the_server_has_lost_the_broker(event, client):
    """The event's message says whether the server reaches the broker (here it never does:
    NOWHERE), and the pages say "reconnecting" on their connection line (feed.js)."""
    with client.websocket_connect("/ws") as socket:
        seen = {}
        for _message in range(10):
            message = json.loads(socket.receive_text())
            seen[message["type"]] = message
            if "event" in seen:
                break
    assert seen["event"]["broker"] is False


def test_a_game_moved_away_and_back_shows_its_tables_state_again(event):
    row, _other = event.games()                 # table-3 is spare (a bye)
    event.presence("table-1")
    event.server.move_game(row.id, "table-3", "Deeqa", "its board froze")
    before = event.server.table_view("table-1")["state"]
    event.state(event.store.game(row.id), table="table-1")  # its old board, from before
    assert event.server.table_view("table-1")["state"] == before    # passed over
    event.server.move_game(row.id, "table-1", "Deeqa", "mended after all")
    fields = event.state(event.store.game(row.id), table="table-1", ply=0)
    assert event.server.table_view("table-1")["state"]["game"] == fields["game"] == row.id
    assert event.server.counters["rejected"] == 0
