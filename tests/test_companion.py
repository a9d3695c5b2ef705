"""The table companion page (`layli run --ui`): the state a runner publishes (players, turn,
moves, hint, faults, a match's set-up between hands, events in words), only when it changed;
the server pushing it over a WebSocket; the command; the page in headless Chromium."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

import pytest
from starlette.testclient import TestClient

from controller.commands.run import read_config
from controller.errors import UsageError
from controller.hardware.profile import load
from controller.board.runner import Runner, open_session
from controller.sensing import Calibration
from controller.session import MemoryStorage, Session
from controller.web import Publisher, create_app, start_in_thread
from simulator.players import LedPlayer, apply_action
from chromium import needs_chromium

PLAYERS = ("Amina", "Yusuf")


class ScriptedIO:
    """A board whose sensor frames a test hands in (as in test_run.py)."""

    def __init__(self):
        self.frames, self.presses = [], []

    def read(self):
        frames, presses = self.frames, self.presses
        self.frames, self.presses = [], []
        return frames, presses

    def show(self, frame, pixels):
        pass

    def beep(self, name):
        pass

    def close(self):
        pass


def make_runner(tmp_path, publish, session=None):
    io = ScriptedIO()
    calibration = Calibration([0] * 14, [1000] * 14, noise=[20] * 14)
    if session is None:
        session = open_session(tmp_path / "journal.jsonl", "layli-goobalay", None, "counting")
    runner = Runner(io, session, load("pico-bridge-2x6").led_layout(), "counting", calibration,
                    now_ms=lambda: 0, players=PLAYERS, publish=publish)
    return io, runner


def feed(io, runner, counts, start_ms, ms=400):
    for t in range(start_ms, start_ms + ms, 12):
        io.frames.append((t, [c * 1000 + (t // 12 % 3) * 7 for c in counts]))
        runner.step()
    return start_ms + ms


def play_one_move(io, runner, t, pit=None):
    """Lift `pit` (the hint when None) and sow it as the LEDs say; the time after."""
    session = runner.session
    moves = len(session.game.moves)
    counts = session.guide.board.places()
    legal = session.guide._legal_pits()
    pit = session.guide.hint if pit is None else pit
    counts[legal[session.game.legal_moves().index(pit)]] = 0
    t = feed(io, runner, counts, t)
    while len(session.game.moves) == moves or session.guide.phase != "await":
        guide = session.guide
        board = guide.board.copy()
        board.apply(guide.script[guide.done], guide.mover)
        t = feed(io, runner, board.places(), t)
    return t


def test_the_runner_publishes_players_turn_hint_and_moves_only_when_they_change(tmp_path):
    published = []
    io, runner = make_runner(tmp_path, published.append)
    t = feed(io, runner, [4] * 12 + [0, 0], 0)
    state = published[-1]
    assert state["players"] == ["Amina", "Yusuf"] and state["to_move"] == 0
    assert state["phase"] == "await" and state["moves"] == "*" and state["hint"] is None
    assert state["captured"] == [0, 0] and state["faults"] == [] and state["setup"] is None
    assert state["waiting"] is None
    before = len(published)
    t = feed(io, runner, [4] * 12 + [0, 0], t)          # nothing changes: nothing is published
    assert len(published) == before
    runner.press("hint")
    runner.step()
    hint = runner.session.guide.hint
    assert published[-1]["hint"] == hint and published[-1]["hint_words"] == \
        "Amina lifts pit %d: %s" % (hint, runner.hint_reason)
    assert runner.hint_reason == "captures 7 seeds"         # the computer opponent's reason
    t = play_one_move(io, runner, t)
    state = published[-1]
    assert state["moves"] == "1. %d *" % hint and state["to_move"] == 1
    assert state["hint"] is None and state["moving"] is False
    assert "Amina lifts pit %d" % hint in state["events"]
    assert any(s["moving"] and s["to_move"] == 0 for s in published)   # sowing was shown
    # states are plain JSON, and each one differs from the one before
    texts = [json.dumps(s) for s in published]
    assert all(a != b for a, b in zip(texts, texts[1:]))


def test_each_page_gets_the_state_in_its_own_language(tmp_path):
    """The board says an event once; the Publisher keeps the state in every language and a
    page in Italian reads Italian, another in English English (a WebSocket asks `?lang=`)."""
    from controller.languages import _, using
    publisher = Publisher()
    io, runner = make_runner(tmp_path, publisher.publish)
    t = feed(io, runner, [4] * 12 + [0, 0], 0)
    runner.press("hint")
    runner.step()
    play_one_move(io, runner, t)
    english = json.loads(publisher.latest(language="en")[1])
    italian = json.loads(publisher.latest(language="it")[1])
    assert english["players"] == italian["players"] == ["Amina", "Yusuf"]   # names stay
    assert english["events"][0].startswith("Amina lifts pit")
    with using("it"):
        lifts = _("%(player)s lifts pit %(pit)d") % {"player": "Amina", "pit": 1}
    assert italian["events"][0].startswith(lifts[:lifts.index("1")].rstrip())
    assert italian["events"] != english["events"]
    with TestClient(create_app(publisher)) as client:
        with client.websocket_connect("/ws?lang=it") as socket:
            assert json.loads(socket.receive_text())["events"] == italian["events"]
        page = client.get("/?lang=it").text
        assert '<html lang="it">' in page and "Mosse" in page


def test_a_sensor_fault_is_published_in_words(tmp_path):
    published = []
    io, runner = make_runner(tmp_path, published.append)
    feed(io, runner, [4] * 12 + [0, 0], 0)
    faults = [None] * 14
    faults[8] = "stuck: no change for 3 s"
    runner.session.update([4] * 12 + [0, 0], [True] * 14, faults)
    runner.step()
    fault, = published[-1]["faults"]
    assert fault == {"place": 8, "where": "Yusuf's pit 3", "why": "stuck: no change for 3 s",
                     "words": "the sensor of Yusuf's pit 3 is faulty (stuck: no change for 3 s): "
                              "do its steps by hand and press confirm"}
    runner.step()
    assert fault["words"] in runner.said      # the page's fault is the log's event, word for word


def test_the_set_up_of_a_matchs_next_hand_is_published_as_instructions(tmp_path):
    session = Session(MemoryStorage(), "layli-goobalay", {"hands": 3}, match=True)
    counts = session.game.pits + [0, 0]
    player = LedPlayer(6, random.Random(1))
    session.update(counts)
    for _ in range(20000):                      # the first hand, played as the LEDs say
        if session.setup is not None:
            break
        apply_action(player.next_action(session.frame, counts), counts, player)
        session.update(counts)
    setup = session.setup
    assert setup is not None
    published = []
    io, runner = make_runner(tmp_path, published.append, session)
    runner.step()
    state = published[-1]
    arranger, other = PLAYERS[setup.arranger], PLAYERS[setup.other]
    assert state["phase"] == "setup" and state["to_move"] is None and state["match_hand"] == 1
    assert state["setup"] == ("%s takes all %d seeds from their store and places them in "
                              "their own pits, one at least in each, as they like; %s waits"
                              % (arranger, setup.holdings[setup.arranger], other))
    # the arranger fills their row from their store: now the other player copies it
    n = setup.n
    store = 2 * n + setup.arranger
    row = [0] * n
    for k in range(counts[store]):
        row[k % n] += 1
    counts[store] = 0
    counts[setup.arranger * n:setup.arranger * n + n] = row
    session.update(counts)
    runner.step()
    words = published[-1]["setup"]
    assert words.startswith("%s copies %s's pits, pit for pit: %s; %d stay" % (
        other, arranger, ", ".join(map(str, row)), setup.holdings[setup.other] - sum(row)))
    assert "%s's pit 1: %d too few" % (other, row[0]) in words      # their row is still empty


def test_the_server_pushes_each_new_state_to_every_page():
    publisher = Publisher()
    client = TestClient(create_app(publisher))
    assert "companion.js" in client.get("/").text
    assert "#moves" in client.get("/static/style.css").text        # the board's stylesheet
    assert client.get("/static/companion.js").status_code == 200
    with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
        assert first.receive_json() == {"type": "waiting"}
        assert second.receive_json() == {"type": "waiting"}
        publisher.publish({"type": "state", "moves": "*"})
        publisher.publish({"type": "state", "moves": "*"})        # the same: not sent again
        publisher.publish({"type": "state", "moves": "1. 3 *"})
        for page in (first, second):
            got = page.receive_json()
            if got["moves"] == "*":     # a page may skip a state in between, never the last
                got = page.receive_json()
            assert got == {"type": "state", "moves": "1. 3 *"}
    publisher.publish({"type": "state", "moves": "1. 3 5 *"})    # no page: nothing waits
    with client.websocket_connect("/ws") as late:                  # a late page gets the newest
        assert late.receive_json()["moves"] == "1. 3 5 *"


def test_publish_never_waits_for_a_server_that_is_gone():
    publisher = Publisher()
    url, server, thread = start_in_thread(create_app(publisher))
    with TestClient(create_app(publisher)) as client:
        with client.websocket_connect("/ws") as page:
            page.receive_json()
    server.should_exit = True
    thread.join(5)
    started = time.monotonic()
    for k in range(1000):
        publisher.publish({"type": "state", "k": k})
    assert time.monotonic() - started < 1.0


def test_players_in_the_config_file_are_checked(tmp_path):
    config = tmp_path / "layli.toml"
    config.write_text('players = ["Amina", "Yusuf"]\n')
    assert read_config(str(config))["players"] == ["Amina", "Yusuf"]
    for text, error in (('players = "Amina"\n', "players must be a list"),
                        ('players = ["Amina"]\n', "players must be two names"),
                        ('players = ["Amina", ""]\n', "players must be two names")):
        config.write_text(text)
        with pytest.raises(UsageError, match=error):
            read_config(str(config))


def test_layli_run_simulate_ui_serves_the_game_until_sigterm(tmp_path):
    config = tmp_path / "layli.toml"
    config.write_text('players = ["Amina", "Yusuf"]\n')
    process = subprocess.Popen(
        [sys.executable, "-m", "controller", "run", "--profile", "pi-direct-2x6", "--simulate",
         "--config", str(config), "--ui", "--ui-port", "0", "--speed", "0", "--seed", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("the table companion is at http://127.0.0.1:"), line
        url = line.split()[-1]
        assert process.stdout.readline().startswith("the game is over")
        from websockets.sync.client import connect
        with connect(url.replace("http", "ws") + "ws", open_timeout=5) as page:
            state = json.loads(page.recv(timeout=5))
        assert state["over"] and state["players"] == ["Amina", "Yusuf"]
        assert state["result"].startswith(("Amina wins", "Yusuf wins", "a draw"))
        assert state["moves"].startswith("1. ") and state["events"][-1].startswith("game over")
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=10)
    assert process.returncode == 0, err[-2000:]
    assert "stopped (SIGTERM)" in err


def test_layli_run_ui_names_a_port_that_is_taken():
    import socket
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "controller", "run", "--profile", "pi-direct-2x6",
             "--simulate", "--ui", "--ui-port", str(taken.getsockname()[1])],
            capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert result.returncode == 2
    assert "is taken" in result.stderr and "--ui-port" in result.stderr


@needs_chromium
def test_the_page_in_chromium_follows_the_turn_and_the_moves(tmp_path, browser):
    from playwright.sync_api import expect

    publisher = Publisher()
    url, server, thread = start_in_thread(create_app(publisher))
    io, runner = make_runner(tmp_path, publisher.publish)
    page = browser.new_page()
    try:
        page.goto(url)
        runner.wait("waiting for the tournament to give this table a game")
        t = feed(io, runner, [4] * 12 + [0, 0], 0)
        expect(page.locator("#turn")).to_have_text(
            "No game yet: waiting for the tournament to give this table a game", timeout=5000)
        expect(page.locator("#player-0")).to_have_class("player")
        runner.wait(None)
        t = feed(io, runner, [4] * 12 + [0, 0], t)
        expect(page.locator("#turn")).to_have_text("Amina to move", timeout=5000)
        expect(page.locator("#player-0")).to_have_class("player to-move")
        expect(page.locator("#player-1 .name")).to_have_text("Yusuf")
        play_one_move(io, runner, t, pit=3)
        expect(page.locator("#turn")).to_have_text("Yusuf to move", timeout=5000)
        expect(page.locator("#moves")).to_have_text("1. 3 *")
        expect(page.locator("#events li").first).to_contain_text("Amina played pit 3")
    finally:
        page.close()
        server.should_exit = True
        thread.join(5)
