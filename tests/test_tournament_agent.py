"""The table agent: a simulated board plays what it is assigned and reports it (no broker here:
a recording link stands in for TableLink; tests/test_tournament_demo.py has the real thing)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from controller.guide.frame import STEADY, waiting
from controller.rules import Game
from controller.rules.record import read
from simulator import tournament as demo
from controller.tournament import agent as agent_module
from controller.tournament.agent import AGENT_FILE
from controller.tournament.server import result_of_record

GAME = "club/r1/b3"
PLAYERS = ["Hodan", "Cali"]


class RecordingLink:
    """What a TableLink is told, kept in order; its assignment set by the test."""

    def __init__(self, table_id: str, *args, **kwargs) -> None:
        self.table_id = table_id
        self.assignment = None
        self.moves: list[tuple[str, int, int]] = []
        self.states: list[dict] = []
        self.results: list[tuple] = []
        self.abandoned = self.closed = False

    def assign(self, game: str | None, players=PLAYERS, round: int = 1, board: int = 3,
               moves=()) -> None:
        self.assignment = SimpleNamespace(fields={
            "game": game, "round": round, "board": board, "variant": "layli-goobalay",
            "options": {}, "format": "game", "players": list(players), "event": "club",
            "moves": list(moves)})

    def publish_state(self, fields: dict) -> None:
        self.states.append(dict(fields))

    def publish_move(self, game: str, ply: int, move: int) -> None:
        self.moves.append((game, ply, move))

    def publish_result(self, game, south_points, south_seeds, north_seeds, record) -> None:
        self.results.append((game, south_points, south_seeds, north_seeds, record))

    def abandon(self) -> None:
        self.abandoned = True

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setattr(agent_module, "TableLink", RecordingLink)
    made = demo.SimulatedTable("table-3", "mqtt://127.0.0.1:1", "x" * 16, tmp_path,
                               lambda name: 120, seed=5)
    yield made
    made.close()


def play_until(table, done, steps: int = 200000) -> None:
    for _ in range(steps):
        table.step()
        if done():
            return
    raise AssertionError("not done after %d steps" % steps)


def engine_game(game_id: str, players=PLAYERS, nodes: int = 120) -> Game:
    """The game as the players' searcher plays it straight on the engine."""
    game = Game("layli-goobalay")
    while not game.over:
        game.push(demo.chosen_move(game, game_id, nodes))
    return game


def test_the_board_waits_for_its_assignment_then_plays_and_reports_it(table):
    link = table.link
    shown = []
    show = table.io.show
    table.io.show = lambda frame, pixels: (shown.append(frame), show(frame, pixels))
    for _ in range(2000):
        table.step()
    assert table.agent.game is None and link.moves == [] and link.results == []
    assert link.states[-1]["status"] == "idle"
    # no game lit for anyone to start: the board shows it waits
    assert table.runner.waiting == agent_module.WAITING
    assert shown and all(frame == waiting(14) for frame in shown)
    link.assign(GAME)
    table.step()                            # the agent starts the game after the board's step
    table.step()
    assert table.runner.waiting is None and shown[-1].where(STEADY)
    play_until(table, lambda: link.results)
    expected = engine_game(GAME)
    # every move once, ply by ply, as the engine plays the game
    assert link.moves == [(GAME, ply, move) for ply, move in enumerate(expected.moves, 1)]
    (game, points, south, north, record), = link.results
    assert game == GAME and [south, north] == expected.scores
    assert points == {0: 1.0, 1: 0.0, None: 0.5}[expected.winner()]
    # the server's own check of a result: the record replays to the same result
    replayed = result_of_record(record, "layli-goobalay", {}, tuple(PLAYERS))
    assert (replayed.south_points, replayed.south_seeds, replayed.north_seeds) == (
        points, south, north)
    _, tags = read(record)
    assert tags[0]["Event"] == "club" and tags[0]["Round"] == "1" and tags[0]["Site"] == "table-3"
    assert link.states[-1]["status"] == "finished" and link.states[-1]["game"] == GAME
    assert link.states[-1]["players"] == PLAYERS
    for _ in range(500):                    # a finished game is reported once
        table.step()
    assert len(link.results) == 1


def test_a_power_cut_mid_move_resumes_the_same_game(table, tmp_path, monkeypatch):
    link = table.link
    link.assign(GAME)
    play_until(table, lambda: len(table.runner.session.game.moves) >= 3
               and table.runner.session.guide.phase == "sowing"
               and table.runner.session.guide.done >= 2)
    before = list(link.moves)
    table.power_cut()
    assert link.abandoned
    kept = json.loads((tmp_path / "table-3" / AGENT_FILE).read_text())
    assert kept["game"] == GAME and kept["reported"] is False
    table.power_on()                        # a new controller: journal, calibration, agent file
    new_link = table.link
    assert new_link is not link and table.agent.game == GAME
    new_link.assign(GAME)                   # the retained assignment arrives again
    play_until(table, lambda: new_link.results)
    expected = engine_game(GAME)
    assert table.runner.session.game.moves == expected.moves
    # back on, the board sends the game's moves again from the first, from its journal (any
    # the old link had not delivered come before the result; the server keeps the rest as
    # copies), then the rest follow on
    every = [(GAME, ply, move) for ply, move in enumerate(expected.moves, 1)]
    assert before == every[:len(before)] and new_link.moves == every
    assert new_link.results[0][2:4] == tuple(expected.scores)


def test_the_next_assignment_starts_a_new_game_once_the_last_is_reported(table):
    link = table.link
    link.assign(GAME)
    play_until(table, lambda: link.results)
    link.assign("club/r2/b1", players=["Cali", "Hodan"], round=2, board=1)
    play_until(table, lambda: len(link.results) == 2)
    second = engine_game("club/r2/b1", players=["Cali", "Hodan"])
    assert [move for game, ply, move in link.moves if game == "club/r2/b1"] == second.moves
    assert table.runner.players == ("Cali", "Hodan")


def test_a_game_moved_here_carries_on_from_its_moves_and_its_old_board_waits(
        table, tmp_path, monkeypatch):
    """Table 3 plays the first moves of GAME, then fails; the arbiter moves the game to table 4,
    which is told the moves so far: its players set the seeds out as they stood (the
    difference view leads them) and play on to the end; the record has every move."""
    link = table.link
    link.assign(GAME)
    play_until(table, lambda: len(table.runner.session.game.moves) >= 4
               and table.runner.session.guide.phase == "await")
    played = list(table.runner.session.game.moves)
    # table 3's game is taken away: it waits, and sends nothing more for it
    link.assign(None, board=0)
    table.step()
    assert table.agent.game is None and table.runner.waiting == agent_module.WAITING
    sent = len(link.moves)
    for _ in range(500):
        table.step()
    assert len(link.moves) == sent and link.results == []
    # table 4 gets it with its moves
    spare = demo.SimulatedTable("table-4", "mqtt://127.0.0.1:1", "x" * 16, tmp_path,
                                lambda name: 120, seed=6)
    try:
        for _ in range(300):                # it waited: its sensors have long settled
            spare.step()
        spare.link.assign(GAME, moves=played)
        spare.step()
        spare.step()
        session = spare.runner.session
        assert session.game.moves == played and session.guide.phase == "restore"
        play_until(spare, lambda: spare.link.results)
        expected = engine_game(GAME)
        assert session.game.moves == expected.moves         # the same game, played on
        # only the moves made here are sent: the server has the others
        assert spare.link.moves == [(GAME, ply, move) for ply, move in
                                    enumerate(expected.moves, 1)][len(played):]
        (game, points, south, north, record), = spare.link.results
        replayed = result_of_record(record, "layli-goobalay", {}, tuple(PLAYERS))
        assert read(record)[0].moves == expected.moves and replayed.south_seeds == south
    finally:
        spare.close()

def test_an_unreadable_agent_file_is_kept_aside(tmp_path, monkeypatch):
    monkeypatch.setattr(agent_module, "TableLink", RecordingLink)
    (tmp_path / "table-1").mkdir()
    (tmp_path / "table-1" / AGENT_FILE).write_text("{not json")
    table = demo.SimulatedTable("table-1", "mqtt://127.0.0.1:1", "x" * 16, tmp_path,
                                lambda name: 120)
    try:
        assert table.agent.game is None
        assert list((tmp_path / "table-1").glob(AGENT_FILE + ".unreadable-*"))
    finally:
        table.close()


def test_a_match_of_hands_is_played_and_reported_with_its_record(tmp_path, monkeypatch):
    """An event of matches: the assignment says "hands", the board plays a match (the next
    hand set up from the load cells), and the result is the match's, with its record."""
    import random

    from test_match_session import set_up

    from simulator.players import LedPlayer, apply_action

    monkeypatch.setattr(agent_module, "TableLink", RecordingLink)
    table = demo.SimulatedTable("table-2", "mqtt://127.0.0.1:1", "x" * 16, tmp_path,
                                lambda name: 120)
    try:
        link = table.link
        link.assign(GAME)
        link.assignment.fields.update(format="hands", options={"hands": 2})
        table.agent.step()
        session = table.runner.session
        assert session.match is not None and table.agent.game == GAME
        # the players' hands at count level (the simulated board's players do not set up
        # hands): the LEDs followed, the next hand arranged as tests/test_match_session does
        counts = session.game.pits + [0, 0]
        player, rng = LedPlayer(6, random.Random(3)), random.Random(4)
        session.update(counts)
        for _ in range(40000):
            if session.match.over:
                break
            if session.setup is not None:
                set_up(session, counts, rng)
            else:
                apply_action(player.next_action(session.frame, counts), counts, player)
            session.update(counts)
            table.agent.step()
        table.agent.step()
        assert session.match.over and len(session.match.games) >= 1
        (game, points, south, north, record), = link.results
        replayed = result_of_record(record, "layli-goobalay", {"hands": 2}, tuple(PLAYERS))
        assert (replayed.south_points, replayed.south_seeds, replayed.north_seeds) == (
            points, south, north)
        assert [south, north] == session.match.holdings
    finally:
        table.close()
