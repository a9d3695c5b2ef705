"""One board loop for every board: each of the surfaces that run a board drives
`controller.session.loop.BoardLoop` and keeps only its own input and output.

The Pico's standalone mode is shown by its own firmware test under MicroPython and CPython
(firmware/tests/test_standalone.py, `test_standalone_mode_drives_the_board_loop`); the loop's
own behaviour by tests/portable/test_loop_portable.py, under both runtimes too.
"""

from __future__ import annotations

import io
import json
import sys

import pytest

from controller.session.loop import BoardLoop


@pytest.fixture
def loops(monkeypatch):
    """Every BoardLoop made meanwhile, with how many frames each was fed and how many times
    it was asked what happened."""
    made: list[BoardLoop] = []
    fed: dict[int, int] = {}
    reacted: dict[int, int] = {}
    init, feed, update, react = (BoardLoop.__init__, BoardLoop.feed, BoardLoop.update,
                                 BoardLoop.react)

    def spied_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    def spied_feed(self, *args):
        fed[id(self)] = fed.get(id(self), 0) + 1
        return feed(self, *args)

    def spied_update(self, *args):
        fed[id(self)] = fed.get(id(self), 0) + 1
        return update(self, *args)

    def spied_react(self):
        reacted[id(self)] = reacted.get(id(self), 0) + 1
        return react(self)

    monkeypatch.setattr(BoardLoop, "__init__", spied_init)
    monkeypatch.setattr(BoardLoop, "feed", spied_feed)
    monkeypatch.setattr(BoardLoop, "update", spied_update)
    monkeypatch.setattr(BoardLoop, "react", spied_react)

    def driven() -> list[tuple[int, int]]:
        """(frames fed, reactions) of each loop made."""
        return [(fed.get(id(loop), 0), reacted.get(id(loop), 0)) for loop in made]
    return made, driven


def test_layli_run_drives_the_board_loop(loops, capsys):
    """`layli run --simulate`: the Pi's Runner over the simulated board I/O, as over a Pico
    bridge or GPIO (the Runner is the same for every profile)."""
    from controller.cli import main

    made, driven = loops
    assert main(["run", "--profile", "pico-bridge-2x6", "--simulate", "--seed", "3"]) == 0
    assert len(made) == 1 and driven()[0][0] > 1000 and driven()[0][1] > 1000


def test_layli_sim_drives_the_board_loop(loops):
    from simulator.run import play_game

    made, driven = loops
    result = play_game("layli-goobalay", seed=2)
    assert result.completed and result.board_matches_engine
    assert len(made) == 1 and driven()[0][0] > 1000


def test_the_killable_controller_process_drives_the_board_loop(loops, tmp_path, monkeypatch):
    from controller.sensing import Calibration
    from simulator import controller_proc

    made, driven = loops
    calibration = Calibration([0] * 14, [1000.0] * 14)
    lines = ["F %d %s\n" % (t, " ".join(str(4000 * (k < 12) + t % 3) for k in range(14)))
             for t in range(0, 600, 12)] + ["R\n"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(lines)))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert controller_proc.main(["--journal", str(tmp_path / "journal"),
                                 "--calibration", calibration.to_json()]) == 0
    assert "[Variant \"layli-goobalay\"]" in json.loads(sys.stdout.getvalue().splitlines()[-1])
    assert len(made) == 1 and driven()[0] == (len(lines) - 1, len(lines) - 1)


def test_the_browser_table_drives_the_board_loop(loops):
    from simulator.ui.table import Table

    made, driven = loops
    table = Table(seed=1)
    table.act({"action": "lift", "place": 2})
    assert table.loop is made[-1] and table.guide.phase == "sowing"
    assert driven()[-1][0] >= 2 and driven()[-1][1] >= 2


def test_the_tournament_demos_boards_drive_the_board_loop(loops, tmp_path):
    """A demo table is the Pi's Runner over simulated players, as `layli run` is."""
    from simulator.tournament import DemoEvent, FaultPlan

    made, driven = loops
    plan = FaultPlan(table_off_round=0, broker_restart_round=0, server_restart_round=0)
    summary = DemoEvent(tmp_path, tables=2, rounds=1, faults=plan).run(timeout=300)
    assert summary["results_recorded"] == 2
    assert len(made) == 2 and all(frames > 1000 and reactions > 1000
                                  for frames, reactions in driven())
