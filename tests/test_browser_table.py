"""The board in the browser (`layli sim --ui`): the virtual table, its WebSocket, and the page in
real headless Chromium (Debian's, driven by Playwright)."""

from __future__ import annotations

import json
import random
import socket
import time

import pytest
from starlette.testclient import TestClient

from controller.cli import main
from controller.guide.frame import Frame
from controller.guide.pixels import level
from controller.guide import frame as frames
from controller.rules import VARIANTS, Game, record
from simulator.players import LedPlayer
from simulator.ui.app import create_app
from simulator.ui.table import (COMPUTER, COMPUTERS, PLAY, REHEARSE, REPLAY, SPEEDS, Table,
                                 TableError)
from chromium import needs_chromium



# --- a player who reads only the page's state ------------------------------------------------


def frame_of(state: dict) -> Frame:
    frame = Frame(len(state["places"]))
    frame.places = [tuple(place) for place in state["places"]]
    return frame


def message_for(player: LedPlayer, state: dict) -> dict | None:
    """What a person following the LEDs does next, as the page's message (None: nothing)."""
    player.hand = state["hand"]
    action = player.next_action(frame_of(state), state["counts"])
    kind = action[0]
    if kind == "lift":
        return {"action": "lift", "place": action[1]}
    if kind == "drop":
        return {"action": "drop", "place": action[1]}
    if kind == "move":
        return {"action": "move", "from": action[1], "to": action[2]}
    if kind == "take":
        return {"action": "take", "place": action[1]}
    if kind == "put":
        return {"action": "put", "place": action[1]}
    if kind == "confirm":
        return {"action": "confirm"}
    return None


def connect(client: TestClient):
    socket_ = client.websocket_connect("/ws")
    ws = socket_.__enter__()
    hello = ws.receive_json()
    state = ws.receive_json()
    return socket_, ws, hello, state


# --- the table and its WebSocket --------------------------------------------------------------


def test_hello_then_the_state_with_the_guides_frame_and_the_palette():
    with TestClient(create_app(seed=1)) as client, client.websocket_connect("/ws") as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello"
        assert hello["palette"]["south"] == [0, 114, 178]
        assert {v["name"] for v in hello["variants"]} >= {"layli-goobalay", "mangala-iv"}
        assert [p for p, _ in hello["legend"]] and len({p for p, _ in hello["legend"]}) == len(
            hello["legend"])
        state = ws.receive_json()
        assert state["type"] == "state" and state["phase"] == "await"
        assert state["counts"] == [4] * 12 + [0, 0] and state["hand"] == 0
        assert state["places"][:6] == [["south", "steady"]] * 6
        assert state["places"][6:] == [["off", "dark"]] * 8
        assert state["moves"] == "*" and state["to_move"] == 0


def test_lift_and_drop_are_read_by_the_guide():
    with TestClient(create_app(seed=1)) as client, client.websocket_connect("/ws") as ws:
        ws.receive_json(), ws.receive_json()
        ws.send_json({"action": "lift", "place": 2})
        state = ws.receive_json()
        assert state["hand"] == 4 and state["counts"][2] == 0
        assert state["places"][3] == ["south", "drop"] and state["phase"] == "sowing"
        assert state["status"] == "South lifts pit 3"
        ws.send_json({"action": "drop", "place": 3})
        state = ws.receive_json()
        assert state["hand"] == 3 and state["places"][4] == ["south", "drop"]
        # a seed in the wrong pit flashes there; the expected pit stays lit
        ws.send_json({"action": "drop", "place": 6})
        state = ws.receive_json()
        assert state["places"][6] == ["error", "flash"]
        assert state["places"][4] == ["south", "drop"]
        assert "North's pit 1" in state["status"] and "South's pit 5" in state["status"]
        ws.send_json({"action": "take", "place": 6})          # put it right
        state = ws.receive_json()
        assert state["places"][6] == ["off", "dark"] and state["hand"] == 3


@pytest.mark.parametrize("message, error", [
    ("not json", "not JSON"),
    ([1, 2], "must be a JSON object"),
    ({"action": "jump"}, "unknown action 'jump'"),
    ({"place": 1}, "unknown action None"),
    ({"action": "lift", "place": 12}, "lift: pit 12 is off the board (pits are 0..11)"),
    ({"action": "lift", "place": -1}, "off the board"),
    ({"action": "lift", "place": "3"}, "'place' must be a place number"),
    ({"action": "lift"}, "'place' must be a place number, not None"),
    ({"action": "drop", "place": 3}, "your hand is empty: lift a pit first"),
    ({"action": "drop", "place": 14}, "drop: place 14 is off the board (places are 0..13)"),
    ({"action": "take", "place": 12}, "South's store is empty: there is no seed to take"),
    ({"action": "put", "place": 12}, "your hand is empty"),
    ({"action": "move", "from": 3, "to": 3}, "the same place"),
    ({"action": "move", "from": 3, "to": 4, "seeds": 0}, "1 or more, not 0"),
    ({"action": "move", "from": 3, "to": 4, "seeds": 5}, "South's pit 4 holds only 4 seeds"),
    ({"action": "takeback"}, "nothing to take back"),
    ({"action": "skip"}, "there is no move under way"),
    ({"action": "new", "variant": "oware"}, "new: unknown variant 'oware'"),
    ({"action": "new", "options": {"pits": 9}}, "the new game cannot start: "),
    ({"action": "new", "mode": "chess"}, "unknown mode 'chess'"),
    ({"action": "new", "mode": "replay"}, "a replay needs a game record"),
    ({"action": "new", "mode": "replay", "record": "1. 99 *"}, "the new game cannot start: "),
    ({"action": "break", "place": 3, "kind": "melted"}, "unknown fault 'melted'"),
    ({"action": "mend", "place": 3}, "not broken"),
    ({"action": "step"}, "not the computer's turn"),
])
def test_bad_messages_are_answered_with_what_was_wrong_and_change_nothing(message, error):
    with TestClient(create_app(seed=1)) as client, client.websocket_connect("/ws") as ws:
        ws.receive_json()
        before = ws.receive_json()
        ws.send_text(message if isinstance(message, str) else json.dumps(message))
        answer = ws.receive_json()
        assert answer["type"] == "error" and error in answer["message"], answer
        ws.send_json({"action": "hint"})        # a harmless action: the state comes back
        after = ws.receive_json()
        for key in ("counts", "hand", "phase", "moves", "variant", "mode"):
            assert after[key] == before[key], key


def test_lifting_with_seeds_in_hand_and_lifting_an_empty_pit_are_refused():
    table = Table(seed=1)
    table.act({"action": "lift", "place": 2})
    with pytest.raises(TableError, match="you are holding 4 seeds: sow them"):
        table.act({"action": "lift", "place": 4})
    for place in (3, 4, 5, 6):
        table.act({"action": "drop", "place": place})
    with pytest.raises(TableError, match="South's pit 3 is empty"):
        table.act({"action": "lift", "place": 2})


def test_a_whole_game_to_the_end_through_the_websocket():
    """A person who sees only the state the page gets plays both sides to the end."""
    player = LedPlayer(6, random.Random(3))
    with TestClient(create_app(seed=3)) as client, client.websocket_connect("/ws") as ws:
        ws.receive_json()
        state = ws.receive_json()
        for _ in range(5000):
            if state["over"]:
                break
            message = message_for(player, state)
            assert message is not None, state
            ws.send_json(message)
            state = ws.receive_json()
            assert state["type"] == "state", state
        assert state["over"] and state["phase"] == "over"
        assert sum(state["counts"][:12]) == 0
        assert state["scores"] == state["counts"][12:] and sum(state["scores"]) == 48
        winner = state["winner"]
        assert state["places"][12 + winner] == [("south", "north")[winner], "win"]
        assert state["result"] in state["status"]
        # the move list is the record's: it replays to the same end
        text = '[Variant "layli-goobalay"]\n\n' + state["moves"] + "\n"
        game, _ = record.read(text)
        assert game.over and game.scores == state["scores"]
        # and the analysis: the record with an evaluation after every move, the worst moves
        analysis = state["analysis"]
        annotated, _ = record.read('[Variant "layli-goobalay"]\n\n' + analysis["moves"] + "\n")
        assert annotated.moves == game.moves and analysis["moves"].count("{") == len(game.moves)
        assert analysis["mistakes"] and all(isinstance(line, str) for line in analysis["mistakes"])


def test_against_the_computer_its_move_is_lit_as_a_hint_then_carried_out():
    table = Table(mode=COMPUTER, seed=2, hint_seconds=0, step_seconds=0)
    assert table.autoplay_wait() is None          # South, a person, is to move
    person = LedPlayer(6, random.Random(2))
    while table.game.to_move == 0:
        state = table.state()
        table.act(message_for(person, state))
    assert table.autoplay_wait() == 0.0
    assert table.autoplay_step()                  # first the choice, lit as a hint
    hinted = [p for p, (colour, pattern) in enumerate(table.state()["places"])
              if (colour, pattern) == (frames.HINT, frames.PICK)]
    assert len(hinted) == 1 and hinted[0] >= 6
    steps = 0
    while table.computer_turn():
        assert table.autoplay_step()
        steps += 1
    assert steps > 2 and table.game.to_move == 0 and len(table.game.moves) == 2
    assert table.game.moves[1] == hinted[0] - 6 + 1
    assert table.counts == table.guide.board.places()


def test_against_the_computer_through_the_websocket_with_delays():
    app = create_app(mode=COMPUTER, seed=2, hint_seconds=0.01, step_seconds=0.0,
                     way=REHEARSE)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.receive_json()
        state = ws.receive_json()
        person = LedPlayer(6, random.Random(2))
        while len(state["moves"].split()) < 4:        # "1. m1 m2 *": both have moved
            if state["to_move"] == 0:                 # the person's turn: they act
                ws.send_json(message_for(person, state))
            state = ws.receive_json()                 # the computer's: its hand's next action
        assert state["to_move"] == 0 and state["phase"] == "await"
        assert "North played" in " ".join(state["events"])
        # takeback against the computer goes back to the person's own move
        ws.send_json({"action": "takeback"})
        state = ws.receive_json()
        assert state["phase"] == "restore" and state["to_move"] == 0


def test_two_computers_and_a_replay_of_their_record():
    table = Table(mode=COMPUTERS, seed=5, hint_seconds=0, step_seconds=0)
    for _ in range(20000):
        if not table.autoplay_step():
            break
    assert table.game.over and table.counts == table.guide.board.places()
    text = record.write_game(table.game)
    replay = Table(mode=REPLAY, record_text=text, hint_seconds=0, step_seconds=0)
    replay.act({"action": "pause"})
    assert replay.autoplay_wait() is None
    replay.act({"action": "step"})                # one action on demand while paused
    assert replay.guide.hint == table.game.moves[0]
    replay.act({"action": "pause"})
    for _ in range(20000):
        if not replay.autoplay_step():
            break
    assert replay.game.moves == table.game.moves and replay.game.scores == table.game.scores
    with pytest.raises(TableError, match="it is not the computer.s turn"):
        replay.act({"action": "step"})


def test_in_the_play_way_a_chosen_pit_is_sown_for_the_person():
    """Issue 16: a lit pit chosen, the move is sown for the person by the table's hand, an
    action every `speed`; the board ends as the engine says; what cannot be played is named."""
    table = Table(mode=COMPUTER, seed=2, hint_seconds=0, step_seconds=0)
    assert table.way == PLAY and table.state()["way"] == "play"
    with pytest.raises(TableError, match="South's pit 7 cannot be played now"):
        table.act({"action": "play", "pit": 7})
    table.act({"action": "play", "pit": 3})
    assert table.state()["sowing_for_you"] and table.guide.hint == 3
    assert table.autoplay_step()                # the table's hand lifts pit 3
    with pytest.raises(TableError, match="a move is under way"):
        table.act({"action": "play", "pit": 4})
    while table.game.moves == []:
        assert table.autoplay_step()
    assert table.game.moves == [3] and table.counts == table.guide.board.places()
    assert table.state()["sowing_for_you"] is False
    with pytest.raises(TableError, match="it is North's turn, and the computer plays it"):
        table.act({"action": "play", "pit": 1})


def test_finish_sows_the_rest_of_the_move_at_once_and_the_speed_is_the_persons():
    table = Table(seed=2, hint_seconds=0)
    for speed, seconds in SPEEDS.items():
        table.act({"action": "speed", "speed": speed})
        assert table.step_seconds == seconds and table.state()["speed"] == speed
    table.act({"action": "speed", "speed": "slow"})
    with pytest.raises(TableError, match="no move is being sown for you"):
        table.act({"action": "finish"})
    table.act({"action": "play", "pit": 1})     # Layli Goobalay's pit 1: a long relay
    assert table.autoplay_step(force=True)
    table.act({"action": "finish"})
    assert table.game.moves == [1] and table.counts == table.guide.board.places()
    assert table.guide.phase == "await" and not table.computer_turn()
    with pytest.raises(TableError, match="'warp' is not a speed"):
        table.act({"action": "speed", "speed": "warp"})
    with pytest.raises(TableError, match="'auto' is not a way to play"):
        table.act({"action": "way", "way": "auto"})
    table.act({"action": "way", "way": "rehearse"})
    assert table.state()["way"] == "rehearse"


def test_set_the_board_for_me_after_a_takeback_and_a_skip_ahead():
    """Issue 16 item 1: rehearsing, a takeback or a skip ahead leaves the seeds to move by
    hand as the lights lead, or "set the board for me" moves them all at once; playing, the
    table does it by itself."""
    table = Table(seed=2, way=REHEARSE, hint_seconds=0, step_seconds=0)
    with pytest.raises(TableError, match="nothing to set"):
        table.act({"action": "set"})
    hand = table.hand
    while not table.game.moves:
        if table.guide.phase == "await":
            table.act({"action": "lift", "place": 2})
        else:
            table.act_as_hand(hand.next_action(table.guide.frame, table.counts))
    table.act({"action": "takeback"})
    assert table.guide.phase == "restore" and table.state()["can_set"]
    table.act({"action": "set"})
    assert table.guide.phase == "await" and not table.game.moves
    assert table.counts == table.guide.board.places() and not table.state()["can_set"]
    # playing, a takeback sets the board by itself
    table.act({"action": "play", "pit": 3})
    while table.autoplay_step(force=True):
        pass
    assert table.game.moves == [3]
    table.act({"action": "way", "way": "play"})
    table.act({"action": "takeback"})
    assert table.game.moves == [] and table.guide.phase == "await"
    assert table.counts == table.guide.board.places() and table.hand.hand == 0
    # a long relay skipped ahead (as test_skip_ahead_... finds one), and set at once
    table = Table(mode=COMPUTERS, seed=1, hint_seconds=0, step_seconds=0, way=REHEARSE)
    while not table.guide.skip_offered:
        assert table.autoplay_step(), "no long relay in this game"
    plies = len(table.game.moves)
    table.act({"action": "skip"})
    assert table.guide.phase == "skip" and table.state()["can_set"]
    table.act({"action": "set"})
    assert len(table.game.moves) == plies + 1 and table.counts == table.guide.board.places()


def test_a_broken_cell_is_shown_and_confirm_carries_on():
    table = Table(seed=1)
    table.act({"action": "lift", "place": 2})
    table.act({"action": "break", "place": 3, "kind": "stuck"})
    state = table.state()
    assert state["places"][3] == ["fault", "drop"]       # the step there, in the fault colour
    assert "South's pit 4 is faulty (stuck)" in state["status"]
    table.act({"action": "drop", "place": 3})
    assert table.state()["places"][3] == ["fault", "drop"]   # the guide cannot see it ...
    table.act({"action": "confirm"})
    assert table.state()["places"][4] == ["south", "drop"]   # ... until a person vouches
    table.act({"action": "mend", "place": 3})
    assert table.state()["broken_cells"][3] is None


def test_a_new_game_with_a_variant_and_options():
    table = Table(seed=1)
    table.act({"action": "new", "variant": "layli-goobalay-long",
               "options": {"pits": "8", "direction": "counterclockwise"}, "mode": "people"})
    state = table.state()
    assert state["n"] == 8 and len(state["counts"]) == 18
    assert state["options"]["pits"] == 8 and state["options"]["direction"] == "counterclockwise"
    table.act({"action": "new", "variant": "mangala-iv"})
    assert table.state()["places"][0] == ["south", "forced"]


def test_skip_ahead_is_offered_on_a_long_relay_and_sets_the_result():
    table = Table(mode=COMPUTERS, seed=1, hint_seconds=0, step_seconds=0, way=REHEARSE)
    with pytest.raises(TableError, match="there is no move under way"):
        table.act({"action": "skip"})
    while not table.state()["skip_offered"]:
        assert table.autoplay_step(), "no long relay in this game"
    moves = len(table.game.moves)
    table.act({"action": "skip"})
    state = table.state()
    assert state["phase"] == "skip" and "skip ahead" in " ".join(state["events"])
    assert state["status"].startswith("to set the board: ")
    assert any(pattern in ("more", "less") for _, pattern in state["places"])
    while table.guide.phase == "skip":          # the hand sets the board by the difference view
        assert table.autoplay_step()
    assert len(table.game.moves) == moves + 1 and table.counts == table.guide.board.places()
    assert "skipped to the end" in " ".join(table.state()["events"])


# --- the command line -------------------------------------------------------------------------


def test_sim_ui_serves_without_a_browser(monkeypatch):
    calls = []
    monkeypatch.setattr("simulator.ui.server.serve", lambda *a, **k: calls.append((a, k)))
    assert main(["sim", "--ui", "--no-browser", "--port", "9123", "--variant", "tampoduo"]) == 0
    (args, kwargs), = calls
    assert args[0] == "tampoduo" and kwargs["port"] == 9123 and kwargs["open_browser"] is False


@pytest.mark.parametrize("against, mode, level", [
    (None, "computer", "medium"), ("computer", "computer", "medium"),
    ("computer:strongest", "computer", "strongest"), ("people", "people", "medium"),
])
def test_sim_ui_against_the_computer_at_a_level_or_two_people(monkeypatch, against, mode, level):
    calls = []
    monkeypatch.setattr("simulator.ui.server.serve", lambda *a, **k: calls.append((a, k)))
    argv = ["sim", "--ui", "--no-browser"] + (["--against", against] if against else [])
    assert main(argv) == 0
    (args, kwargs), = calls
    assert kwargs["mode"] == mode and kwargs["level"] == level


@pytest.mark.parametrize("against", ["computer:wizard", "robots", "people:hard"])
def test_sim_ui_refuses_who_it_cannot_play_against(capsys, against):
    with pytest.raises(SystemExit) as stopped:
        main(["sim", "--ui", "--no-browser", "--against", against])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.count("\n") == 1, err
    assert "give people, or computer or computer:LEVEL with LEVEL one of beginner" in err


def test_a_new_game_against_the_computer_at_the_level_chosen():
    table = Table(mode=COMPUTER, seed=2)
    assert table.state()["level"] == "hard" and table.chooser.level == "hard"
    table.act({"action": "new", "mode": "computer", "level": "beginner"})
    assert table.state()["level"] == "beginner" and table.chooser.level == "beginner"
    with pytest.raises(TableError, match="the computer's level 'wizard' is not one of"):
        table.act({"action": "new", "level": "wizard"})
    assert table.level == "beginner"


def test_sim_ui_names_a_port_that_is_taken(capsys):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        assert main(["sim", "--ui", "--no-browser", "--port", str(port)]) == 2
    finally:
        taken.close()
    err = capsys.readouterr().err
    assert "port %d on 127.0.0.1 is taken" % port in err and "--port" in err


# --- the page in headless Chromium ------------------------------------------------------------

@pytest.fixture
def served():
    """A fresh table served on a free port, every seed moved by hand: (url, table)."""
    from simulator.ui.server import start_in_thread
    app = create_app(seed=1, way=REHEARSE)
    url, server, thread = start_in_thread(app)
    yield url, app.state.table
    server.should_exit = True
    thread.join(5)


@pytest.fixture
def opened(browser, served):
    """The served table's page open on a laptop's screen: (page, table, Page)."""
    url, table = served
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    page.goto(url)
    page.wait_for_function("() => layli.state !== null")
    yield page, table, Page(page, table)
    page.close()


RINGS = ("() => [...document.querySelectorAll('#board .ring')]"
         ".map(r => [r.dataset.colour, r.dataset.pattern])")


class Page:
    """The page, clicked as a person would, waiting for the server's answer each time."""

    def __init__(self, page, table: Table) -> None:
        self.page = page
        self.table = table

    def rings(self) -> list[list[str]]:
        return self.page.evaluate(RINGS)

    def place(self, place: int):
        return self.page.locator('#board g.place[data-place="%d"] .%s' % (
            place, "store" if place >= 2 * self.table.game.rules.n else "pit"))

    def answered(self, do) -> None:
        version = self.page.evaluate("layli.version")
        do()
        self.page.wait_for_function("v => layli.version > v", arg=version, timeout=5000)
        # the DOM shows exactly the guide's frame (between a match's hands, the set-up's)
        assert self.rings() == [list(p) for p in self.table.session.frame.places]

    def click(self, place: int, **kwargs) -> None:
        self.answered(lambda: self.place(place).click(**kwargs))

    def tap(self, place: int) -> None:
        """A finger on a touch screen (the page's context has touch)."""
        self.answered(lambda: self.place(place).tap())

    def key(self, key: str) -> None:
        self.answered(lambda: self.page.keyboard.press(key))

    def where(self, pattern: str) -> list[int]:
        return [i for i, (_, p) in enumerate(self.rings()) if p == pattern]


@needs_chromium
def test_the_js_level_is_pythons_level_for_every_pattern(browser, served):
    url, _ = served
    page = browser.new_page()
    page.goto(url)
    times = list(range(0, 2600, 7)) + [12345, 99999, 1000000 + 333, 2 ** 31 - 1]
    got = page.evaluate("([patterns, times]) => patterns.map(p => times.map(t => level(p, t)))",
                        [list(frames.PATTERNS), times])
    want = [[level(pattern, t) for t in times] for pattern in frames.PATTERNS]
    assert got == want
    # a level is light (a PWM duty); the screen's values are sRGB, gamma-encoded: an eighth of
    # South's blue (0, 114, 178) is drawn at (0.125 ** (1 / 2.2)) of each value, not an eighth
    assert page.evaluate("[rgb('south', 256), rgb('south', 32), rgb('south', 0)]") == [
        "rgb(0,114,178)", "rgb(0,44,69)", "rgb(0,0,0)"]
    page.close()


@needs_chromium
def test_a_short_game_by_clicks_with_a_mistake_and_a_takeback(browser, served):
    url, table = served
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    page.goto(url)
    page.wait_for_function("() => layli.state !== null")
    board = Page(page, table)
    assert board.rings()[:6] == [["south", "steady"]] * 6
    # South lifts pit 3 and sows where the LEDs say, to the end of the move (relays and all)
    board.click(2)
    assert board.rings()[3] == ["south", "drop"]
    for _ in range(200):
        if table.game.moves:
            break
        drop, pick, take = board.where("drop"), board.where("pick"), board.where("take")
        if drop:
            board.click(drop[0])
        elif pick:
            board.click(pick[0])
        else:
            store = 12 if board.rings()[12][1] == "steady" else 13
            board.answered(lambda: board.place(take[0]).drag_to(board.place(store)))
    assert table.game.moves == [3]
    assert page.locator("#moves").inner_text().startswith("1. 3")
    rings = board.rings()
    legal = [i for i in range(6, 12) if rings[i] == ["north", "steady"]]
    assert legal and page.locator("#turn").inner_text() == "North to move"
    # North lifts; a seed into the wrong pit flashes there, the expected pit stays lit
    board.click(legal[0])
    expected = board.where("drop")[0]
    wrong = (expected + 2) % 12
    board.click(wrong)
    assert board.rings()[wrong] == ["error", "flash"]
    assert board.rings()[expected] == ["north", "drop"]
    assert "belongs in" in page.locator("#status").inner_text()
    board.click(wrong, modifiers=["Shift"])             # take it back out
    assert board.rings()[wrong][1] != "flash" and board.rings()[expected] == ["north", "drop"]
    # takeback (u): the move in progress; the difference view leads the seeds back
    board.key("u")
    assert board.where("less") == [legal[0]]
    board.click(legal[0])
    while board.where("less"):
        board.click(board.where("less")[0])
    rings = board.rings()
    assert [i for i in range(6, 12) if rings[i] == ["north", "steady"]] == legal
    assert table.counts == table.guide.board.places() and table.game.moves == [3]
    page.close()


@needs_chromium
def test_a_capture_by_dragging_the_pit_onto_the_store(browser, served):
    url, table = served
    hand = table.hand                          # the table's own hand, following the LEDs
    for _ in range(5000):                      # play by the LEDs until a pit is to be emptied
        if table.guide.frame.where(frames.TAKE):
            break
        table.act_as_hand(hand.next_action(table.guide.frame, table.counts))
    pit = table.guide.frame.where(frames.TAKE)[0]
    store = [s for s in (12, 13) if table.guide.frame.pattern(s) == frames.STEADY][0]
    seeds, banked = table.counts[pit], table.counts[store]
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    page.goto(url)
    page.wait_for_function("() => layli.state !== null")
    board = Page(page, table)
    assert board.rings()[pit][1] == "take"
    board.answered(lambda: board.place(pit).drag_to(board.place(store)))
    assert table.counts[pit] == 0 and table.counts[store] == banked + seeds
    assert board.rings()[pit][1] != "take"
    assert page.locator('#board .count[data-place="%d"]' % store).text_content() == str(
        banked + seeds)
    page.close()


# a phone held upright: 390 x 844 CSS pixels, a touch screen
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@needs_chromium
@pytest.mark.parametrize("by", ["click", "key", "tap"])
def test_a_whole_game_against_the_computer_one_click_a_move(browser, by):
    """Issue 16's first acceptance: in the play way, a whole game against the computer by
    clicks, one click a move of ours (each a lit pit of South's row); every seed sown for us,
    the computer's moves the same. By the keyboard only: the pit's number key. And on a phone
    held upright (390 x 844), by taps."""
    from simulator.ui.server import start_in_thread
    app = create_app(mode=COMPUTER, seed=4, hint_seconds=0.01, step_seconds=0.0)
    url, server, thread = start_in_thread(app)
    table = app.state.table
    context = browser.new_context(**(PHONE if by == "tap" else
                                     {"viewport": {"width": 1300, "height": 800}}))
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        assert page.locator('#way input[value="play"]').is_checked()
        board = Page(page, table)
        clicks = 0
        deadline = time.monotonic() + 300
        while not table.game.over and time.monotonic() < deadline:
            game = table.game
            if game.to_move == 0 and table.guide.phase == "await" and not table.sown_for \
                    and not table.hand.hand:
                # the page shows what the table is at (its state may lag by a broadcast)
                page.wait_for_function(
                    "c => layli.state.phase === 'await' && layli.state.to_move === 0 && "
                    "JSON.stringify(layli.state.counts) === JSON.stringify(c)",
                    arg=table.counts, timeout=5000)
                rings = board.rings()
                lit = [pit for pit in range(6) if rings[pit][0] == "south"
                       and rings[pit][1] in ("steady", "forced")]
                assert lit, rings
                plies = len(game.moves)
                if by == "click":
                    page.locator('#board g.place[data-place="%d"] .pit' % lit[0]).click()
                elif by == "tap":
                    page.locator('#board g.place[data-place="%d"] .pit' % lit[0]).tap()
                else:
                    page.keyboard.press(str(lit[0] + 1))
                clicks += 1
                while len(table.game.moves) == plies and time.monotonic() < deadline:
                    time.sleep(0.01)
            else:
                time.sleep(0.01)
        assert table.game.over, "the game did not end in 300 s"
        assert clicks == sum(1 for ply in range(len(table.game.moves)) if _mover(table, ply) == 0)
        assert clicks >= 5 and len(table.game.moves) > clicks        # a real game, both sides
        assert table.counts == table.guide.board.places()
        page.wait_for_function("() => layli.state.over")
        assert page.locator("#turn").inner_text().startswith("game over: ")
    finally:
        context.close()
        server.should_exit = True
        thread.join(5)


@needs_chromium
def test_the_new_game_form_offers_the_computers_levels_and_hides_what_does_not_apply(
        browser, served):
    url, table = served
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        # two people: neither the computer's level nor the record box (a replay's) shows
        assert not page.locator("#level-label").is_visible()
        assert not page.locator("#record-label").is_visible()
        page.select_option("#mode", "computer")
        assert page.locator("#level-label").is_visible()
        assert page.locator("#level option").all_inner_texts() == [
            "as a beginner", "easy", "medium", "hard", "its strongest"]
        page.select_option("#level", "easy")
        version = page.evaluate("layli.version")
        page.click("#new")
        page.wait_for_function("v => layli.version > v", arg=version)
        assert (table.mode, table.level) == ("computer", "easy")
        page.select_option("#mode", "replay")
        assert page.locator("#record-label").is_visible()
        assert not page.locator("#level-label").is_visible()
    finally:
        page.close()


@needs_chromium
def test_the_form_speaks_players_words_and_keeps_the_simulation_aside(browser, served):
    """Issue 16 item 4: options in players' words, the rules grouped, their source in a
    tooltip; the sensor faults, confirm and the rules' fine print in a closed "board
    simulation" part; the variant's name without its source."""
    url, table = served
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        assert page.locator("#title").inner_text() == "Layli Goobalay"
        assert "Jama Musse Jama" in page.locator("#title").get_attribute("title")
        rules = page.locator("#rules-options").inner_text()
        assert "the capturing seed is captured too" in rules and "the game ends" in rules
        for name in ("capture_last_seed", "end_when", "endless_bound", "next_first",
                     "arrangement"):
            assert name not in page.locator("body").inner_text(), name
        # a match's options only for a match
        assert page.locator("#match-options").is_hidden()
        page.select_option("#match", "match")
        assert "the most hands in a match" in page.locator("#match-options").inner_text()
        page.select_option("#match", "game")
        assert not page.locator("#simulation").get_attribute("open")
        assert not page.locator("#break").is_visible() and not page.locator("#confirm").is_visible()
        assert page.locator("#legend").inner_text().count("tournament") == 0
        ends = page.locator('#rules-options select[data-option="end_when"] option')
        assert ends.all_inner_texts()[0] == "when the player to move has no move"   # default
        page.click("#simulation summary")
        assert page.locator("#break").is_visible()
        assert "a move that would never end" in page.locator("#advanced-options").inner_text()
        # a rule changed in words reaches the game as the option
        page.select_option('#rules-options select[data-option="end_when"]', "either")
        version = page.evaluate("layli.version")
        page.click("#new")
        page.wait_for_function("v => layli.version > v", arg=version)
        assert table.game.rules.options["end_when"] == "either"
        page.select_option("#variant", "mangala-iv")
        firsts = page.locator('#rules-options select[data-option="first"] option')
        assert firsts.all_inner_texts() == ["South", "North"]
        page.select_option('#rules-options select[data-option="first"]', "1")
        version = page.evaluate("layli.version")
        page.click("#new")
        page.wait_for_function("v => layli.version > v", arg=version)
        assert table.game.rules.name == "mangala-iv" and table.game.first == 1
    finally:
        page.close()


@needs_chromium
def test_every_place_is_a_named_button_for_the_keyboard_and_screen_readers(browser, served):
    """Issue 16 item 8: each place an element with its name, count and light in its accessible
    name; Enter presses it; the arrow keys move along the board as it is drawn."""
    url, table = served                         # (rehearsing: Enter lifts and drops)
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        pit3 = page.get_by_role("button", name="South's pit 3, 4 seeds: a pit you may play; "
                                               "the store the seeds go to")
        assert pit3.count() == 1
        assert page.get_by_role("button", name="North's store, 0 seeds").count() == 1
        pit3.focus()
        version = page.evaluate("layli.version")
        page.keyboard.press("Enter")            # lifts South's pit 3
        page.wait_for_function("v => layli.version > v", arg=version)
        assert table.hand.hand == 4 and table.counts[2] == 0
        page.keyboard.press("ArrowRight")       # to South's pit 4, where the next seed goes
        focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert focused == "South's pit 4, 4 seeds: drop the next seed here"
        version = page.evaluate("layli.version")
        page.keyboard.press("Enter")
        page.wait_for_function("v => layli.version > v", arg=version)
        assert table.counts[3] == 5 and table.hand.hand == 3
    finally:
        page.close()


@needs_chromium
@needs_chromium
def test_the_page_works_under_its_content_security_policy(browser, served):
    """Issue 17: the policy lets the page's own scripts, styles and WebSocket through and
    nothing else; the page breaks none of it (Chromium reports every refusal)."""
    url, table = served
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.on("pageerror", lambda error: refused.append(str(error)))
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        version = page.evaluate("layli.version")
        Page(page, table).place(2).click()               # a lift, answered over the socket
        page.wait_for_function("v => layli.version > v", arg=version)
        page.locator("#simulation summary").click()
        assert page.evaluate("document.querySelectorAll('#howto figure svg').length") > 0
        assert refused == []
    finally:
        page.close()


def test_a_double_click_lifts_once_and_is_no_error(opened):
    """A quick second press waits for the board's answer to the first, instead of acting on
    the board as it was (a second lift: "you are holding 4 seeds")."""
    page, table, board = opened
    board.answered(lambda: board.place(2).dblclick())
    page.wait_for_timeout(200)
    assert table.hand.hand == 4 and table.counts[2] == 0
    assert page.evaluate("layli.errors") == []
    assert page.locator("#error").inner_text() == ""


def test_every_light_has_a_symbol_of_its_own():
    """Issue 16, item 2: no meaning told by colour and rhythm alone: each pattern in the
    legend has a symbol, and no two the same."""
    from simulator.ui.app import hello

    message = hello()
    patterns = [pattern for pattern, _ in message["legend"]]
    assert set(message["symbols"]) == set(patterns)
    assert all(message["symbols"].values())
    assert len(set(message["symbols"].values())) == len(patterns)


def _strokes(page, place: int, samples: int = 16) -> set[str]:
    """The ring's colours at `samples` moments 40 ms apart."""
    return set(page.evaluate("""async ([place, samples]) => {
        const ring = document.querySelector(`#board .ring[data-place="${place}"]`);
        const seen = [];
        for (let i = 0; i < samples; i++) {
            seen.push(ring.style.stroke);
            await new Promise((done) => setTimeout(done, 40));
        }
        return seen; }""", [place, samples]))


@needs_chromium
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_each_lit_place_shows_its_symbol_and_asked_for_less_motion_nothing_blinks(
        browser, served, motion):
    url, table = served
    table.act({"action": "lift", "place": 2})
    table.act({"action": "drop", "place": 5})          # a seed in the wrong pit: it flashes
    page = browser.new_page(viewport={"width": 1300, "height": 800}, reduced_motion=motion)
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        symbols = page.evaluate("layli.symbols")
        shown = page.evaluate("""() => [...document.querySelectorAll('#board .glyph')]
            .map(g => g.textContent)""")
        for place, (colour, pattern) in enumerate(table.guide.frame.places):
            assert shown[place] == ("" if colour == "off" else symbols[pattern]), place
        assert shown[5] == "✕" and shown[3] == "↓"
        flashes = _strokes(page, 5)
        if motion == "reduce":
            assert len(flashes) == 1                   # still, at its brightest
        else:
            assert len(flashes) > 1                    # on and off, eight times a second
    finally:
        page.close()


def test_every_variant_has_its_how_to_play():
    from controller.rules import VARIANTS
    from simulator.ui.howto import HOW_TO_PLAY

    assert set(HOW_TO_PLAY) == set(VARIANTS)
    for name, paragraphs in HOW_TO_PLAY.items():
        titles = [title for title, _ in paragraphs]
        assert "A move" in titles and "The end" in titles, name
        assert all(words.strip() and "{" not in words for _, words in paragraphs), name
    layli = " ".join(words for _, words in HOW_TO_PLAY["layli-goobalay"])
    assert "Uur" in layli and "exactly 3" in layli and "relay" in layli
    assert "Uur" not in " ".join(words for _, words in HOW_TO_PLAY["tampoduo"][1:])


def test_the_how_to_play_shows_moves_on_small_boards_as_the_rules_play_them():
    from simulator.ui.howto import ILLUSTRATED_BY, illustration

    for variant, titles in ILLUSTRATED_BY.items():
        for title in titles:
            picture = illustration(variant, title)
            n = picture["n"]
            # the seeds are all there after the move, and the pit lifted is South's
            assert sum(picture["before"]) == sum(picture["after"]), (variant, title)
            assert 0 <= picture["pit"] < n and picture["before"][picture["pit"]] > 0
            assert picture["after"][picture["pit"]] == 0 or title != "Capture"
    capture = illustration("layli-goobalay", "Capture")
    assert capture["after"][-2:] == [3, 0]              # 2 facing and the capturing seed
    uur = illustration("layli-goobalay", "Uur")
    assert sorted(owner for owner in uur["uur"] if owner is not None) == [0, 0]   # a pair
    end = illustration("layli-goobalay", "The end")
    assert end["after"] == [0] * 12 + [9, 0]             # the row's seeds to its owner
    assert illustration("layli-goobalay", "The board") is None


@needs_chromium
def test_the_page_tells_how_to_play_the_variant_on_the_board(browser, served):
    url, table = served
    page = browser.new_page(viewport={"width": 1300, "height": 800})
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        assert page.locator("#howto").get_attribute("open") is not None    # open at first
        text = page.locator("#howto-text").inner_text()
        assert "Uur" in text and "relay" in text and "Tek mi" not in text
        # four paragraphs beside a move before and after, each board a picture with words
        assert page.locator("#howto figure.illustration").count() == 4
        assert page.locator("#howto figure svg[role=img]").count() == 8
        assert "North's row" in page.locator("#howto figure svg").first.get_attribute(
            "aria-label")
        page.select_option("#variant", "mangala-iv")
        version = page.evaluate("layli.version")
        page.click("#new")
        page.wait_for_function("v => layli.version > v", arg=version)
        text = page.locator("#howto-text").inner_text()
        assert "Tek mi, Çift mi?" in text and "Uur" not in text
    finally:
        page.close()


def _mover(table: Table, ply: int) -> int:
    """Who played ply `ply` of the table's game (a pass does not take a ply)."""
    replay = Game(table.game.rules, setup=table.game.setup, first=table.game.first)
    for move in table.game.moves[:ply]:
        replay.push(move)
    return replay.to_move


def test_the_page_and_its_files_are_served():
    from starlette.testclient import TestClient
    from simulator.ui.app import create_app
    client = TestClient(create_app("layli-goobalay"))
    assert "<svg" in client.get("/").text or "board" in client.get("/").text
    for name in ("leds.js", "board.js", "style.css"):
        assert client.get("/static/" + name).status_code == 200, name


# --- the lessons of the first game --------------------------------------------------------


# what each lesson's move shows: (relay lifts, a capture, an Uur made, the game over)
TEACHES = {
    "layli-goobalay": [(1, False, False, False), (2, False, False, False),
                       (1, True, False, False), (1, False, True, False),
                       (1, False, False, True)],
    "tampoduo": [(1, False, False, False), (2, False, False, False), (1, True, False, False),
                 (1, False, False, True)],
    "mangala-iv": [(1, False, False, False), (2, False, False, False),
                   (1, True, False, False), (1, True, False, True)],
}


@pytest.mark.parametrize("variant", sorted(TEACHES))
def test_each_lesson_shows_what_it_teaches(variant):
    """The lessons' positions, checked by the rules engine: South has the lesson's move, and
    it shows sowing (one lap, nothing captured), a relay (a second lap), a capture, an Uur
    (Layli Goobalay's), and the end of the game with the count."""
    from controller.rules import Step
    from simulator.ui.lessons import LESSONS, TAUGHT_IN

    shows = []
    for lesson in LESSONS[variant]:
        game = Game(TAUGHT_IN[variant], setup=list(lesson.setup))
        assert game.to_move == 0 and lesson.pit in game.legal_moves()
        kinds = [step[0] for step in game.push(lesson.pit, script=True)]
        shows.append((kinds.count(Step.PICK), Step.CAPTURE in kinds, Step.UUR in kinds,
                      game.over))
    assert shows == TEACHES[variant]


def test_every_variant_has_lessons_the_long_board_layli_goobalay_s():
    from simulator.ui.lessons import LESSONS, TAUGHT_IN

    assert set(LESSONS) == set(TAUGHT_IN) == set(VARIANTS)
    assert LESSONS["layli-goobalay-long"] is LESSONS["layli-goobalay"]


def test_a_lesson_on_the_table_tells_what_to_do_then_what_it_showed():
    table = Table(seed=1, mode=COMPUTER)
    with pytest.raises(TableError, match="a lesson 1..5"):
        table.act({"action": "lesson", "number": 6})
    table.act({"action": "lesson", "number": 3})
    state = table.state()
    assert state["lesson"] == {"number": 3, "of": 5, "title": "a capture", "done": False,
                               "words": state["lesson"]["words"]}
    assert "Lift your pit 3" in state["lesson"]["words"]
    assert state["way"] == REHEARSE and state["computers"] == []
    assert state["counts"] == [0, 0, 3, 0, 0, 0, 2, 4, 4, 4, 2, 3, 0, 0]
    for _ in range(100):
        if table.state()["lesson"]["done"]:
            break
        table.act_as_hand(table.hand.next_action(table.guide.frame, table.counts))
    state = table.state()
    assert state["lesson"]["done"] and "you captured them" in state["lesson"]["words"]
    assert state["counts"][12] == 3
    table.act({"action": "lesson", "number": 0})    # back to a game as before the lessons
    state = table.state()
    assert state["lesson"] is None and state["mode"] == COMPUTER and state["way"] == PLAY
    assert state["counts"] == [4] * 12 + [0, 0]
    # another game's lessons, asked for by name; leaving them, the game of before
    table.act({"action": "new", "variant": "mangala-iv"})
    table.act({"action": "lesson", "number": 1, "variant": "tampoduo"})
    assert table.game.rules.name == "tampoduo" and table.state()["lesson"]["of"] == 4
    table.act({"action": "lesson", "number": 4})
    assert table.state()["lesson"]["title"] == "the end"
    with pytest.raises(TableError, match="unknown variant 'oware'"):
        table.act({"action": "lesson", "number": 1, "variant": "oware"})
    table.act({"action": "lesson", "number": 0})
    assert table.game.rules.name == "mangala-iv" and table.lesson is None


def _do_by_page(board: Page, action: tuple) -> None:
    """A LedPlayer's action, done on the page as a person would with a mouse."""
    kind = action[0]
    if kind in ("lift", "drop", "put"):
        board.click(action[1])
    elif kind == "take":
        board.click(action[1], modifiers=["Shift"])
    elif kind == "move":
        board.answered(lambda: board.place(action[1]).drag_to(board.place(action[2])))
    else:
        raise AssertionError("a lesson needs no %r" % (action,))


@needs_chromium
@pytest.mark.parametrize("variant", ["layli-goobalay", "tampoduo", "mangala-iv"])
def test_a_newcomer_learns_by_playing_the_lessons(opened, variant):
    """Issue 16, item 3: the interactive first game. From "Learn by playing", each lesson of
    the game on the table, its move made by following the rings with clicks and drags, its
    words after it, then the next lesson; the last one leads back to a game."""
    from simulator.ui.lessons import LESSONS

    page, table, board = opened
    if variant != table.game.rules.name:
        board.answered(lambda: table_new(page, variant))
    board.answered(lambda: page.click("#learn"))
    hand = LedPlayer(table.game.rules.n, random.Random(1))
    count = len(LESSONS[variant])
    for number in range(1, count + 1):
        assert page.locator("#lesson-title").inner_text().startswith(
            "Lesson %d of %d" % (number, count))
        before = page.locator("#lesson-words").inner_text()
        assert page.locator("#lesson-next").is_hidden()
        actions = 0
        while not table.state()["lesson"]["done"]:
            hand.hand = table.hand.hand
            _do_by_page(board, hand.next_action(table.guide.frame, table.counts))
            actions += 1
            assert actions < 40
        page.wait_for_function("() => layli.state.lesson.done")
        assert page.locator("#lesson-words").inner_text() != before
        assert table.counts == table.guide.board.places()
        board.answered(lambda: page.click("#lesson-next"))
    assert page.locator("#lesson").is_hidden() and table.lesson is None
    assert table.game.rules.name == variant and not table.game.moves
    assert table.counts == table.game.pits + [0, 0]


def table_new(page, variant: str) -> None:
    """A new game of `variant` from the page's form."""
    page.select_option("#variant", variant)
    page.click("#new")


# --- a match of hands -----------------------------------------------------------------------


def test_a_match_on_the_table_arranged_by_the_person_and_the_computer():
    table = Table(seed=2, mode=COMPUTER, step_seconds=0.0, hint_seconds=0.0)
    with pytest.raises(TableError, match="not played in hands"):
        table.act({"action": "new", "variant": "mangala-iv", "match": True})
    with pytest.raises(TableError, match="no row for you to place"):
        table.act({"action": "arrange", "row": [2] * 6})
    table.act({"action": "new", "mode": COMPUTER, "match": True,
               "options": {"hands": 2, "arrangement": "free"}})
    arranged = None
    for _ in range(20000):
        state = table.state()
        if state["match_over"]:
            break
        plan = state["arrange"]
        if plan:
            assert state["phase"] == "setup" and state["to_move"] is None
            with pytest.raises(TableError, match="at least one seed"):
                table.act({"action": "arrange", "row": [0] + [1] * 5})
            with pytest.raises(TableError, match="places %d seeds, not" % plan["seeds"]):
                table.act({"action": "arrange", "row": [1] * 6})
            arranged = [plan["seeds"] - 5] + [1] * 5
            table.act({"action": "arrange", "row": arranged})
        elif table.computer_turn() or table.sown_for:
            table.autoplay_step(force=True)
        elif state["phase"] == "await" and state["to_move"] == 0:
            table.act({"action": "play", "pit": table.game.legal_moves()[0]})
    state = table.state()
    match = table.session.match
    assert state["match_over"] and len(match.games) == 2 and arranged is not None
    assert match.games[1].setup[:6] == arranged            # South's row as the person placed it
    assert state["held"] == match.held() and len(state["held"]) == 2
    assert state["match_result"].startswith(("South wins the match", "North wins the match",
                                              "the match is a draw"))
    played = record.read(state["record"])[0]
    assert [game.moves for game in played.games] == [game.moves for game in match.games]
    assert [game.setup for game in played.games] == [game.setup for game in match.games]


@needs_chromium
def test_a_two_hand_match_with_a_free_arrangement_played_on_the_page(browser):
    """Issue 16's acceptance: a match of two hands against the computer, chosen in the
    new-game form with the free arrangement, played on the page by clicks (a lit pit a move,
    the next hand's row placed in the set-up's fields) to its end; the match's record the
    page shows read back by the rules' reader: the same hands, set-ups and moves."""
    from simulator.ui.server import start_in_thread
    app = create_app(mode=COMPUTER, seed=2, hint_seconds=0.01, step_seconds=0.0)
    url, server, thread = start_in_thread(app)
    table = app.state.table
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        page.select_option("#match", "match")
        assert page.locator("#match-options").is_visible()
        page.locator('[data-option="hands"]').fill("2")
        page.select_option('[data-option="arrangement"]', "free")
        page.click("#new")
        page.wait_for_function("() => layli.state.match && layli.state.match_hand === 1")
        assert table.session.match.rules.options["arrangement"] == "free"
        arranged = None
        deadline = time.monotonic() + 300
        while not table.session.match.over and time.monotonic() < deadline:
            state = page.evaluate("layli.state")
            if state["arrange"] and table.arrangement():
                plan = state["arrange"]
                arranged = [plan["seeds"] - 5] + [1] * 5
                for k, count in enumerate(arranged):
                    page.locator("#arrange-row input").nth(k).fill(str(count))
                assert page.locator("#arrange-sum").inner_text() == "%d of %d placed" % (
                    plan["seeds"], plan["seeds"])
                page.click("#arrange-go")
                page.wait_for_function("() => !layli.state.arrange", timeout=5000)
            elif (table.session.setup is None and table.guide.phase == "await"
                  and table.game.to_move == 0 and not table.sown_for and not table.game.over
                  and state["phase"] == "await" and state["to_move"] == 0
                  and state["counts"] == table.counts):
                lit = [pit for pit in range(6) if state["places"][pit][0] == "south"]
                plies = len(table.game.moves)
                page.locator('#board g.place[data-place="%d"] .pit' % lit[0]).click()
                while len(table.game.moves) == plies and time.monotonic() < deadline:
                    time.sleep(0.01)
            else:
                time.sleep(0.02)
        match = table.session.match
        assert match.over and len(match.games) == 2 and arranged is not None
        assert match.games[1].setup[:6] == arranged         # South's row as placed
        page.wait_for_function("() => layli.state.match_over")
        assert page.locator("#turn").inner_text() == table.state()["match_result"]
        page.click("#match-record summary")
        text = page.locator("#record-text").inner_text()
        played = record.read(text)[0]
        assert [game.setup for game in played.games] == [game.setup for game in match.games]
        assert [game.moves for game in played.games] == [game.moves for game in match.games]
        assert played.held() == match.held()
    finally:
        page.close()
        server.should_exit = True
        thread.join(5)


@needs_chromium
def test_the_readme_s_pictures_are_made_by_one_command(tmp_path):
    """Issue 16's acceptance: the README's pictures of both ways to play, a phone, a lesson
    and a page in Somali come from `python -m simulator.ui.screenshot FOLDER` (each a real
    page)."""
    import struct
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "simulator.ui.screenshot", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = {}
    for name in ("board-play.png", "board-rehearse.png", "board-phone.png",
                 "board-lesson.png", "board-somali.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20000, name
        sizes[name] = struct.unpack(">II", data[16:24])      # the IHDR's width and height
    assert sizes["board-play.png"] == sizes["board-rehearse.png"] == (1360, 1000)
    assert sizes["board-somali.png"] == (1360, 1000)
    assert sizes["board-phone.png"] == (390, 844)
    assert done.stdout.count("wrote ") == 5
