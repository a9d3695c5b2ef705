"""Sessions: the journal resumes a game at the same move and step, whatever stops it."""

import json
import random

import pytest

from controller.guide import OVER, SOWING
from controller.rules.record import write_game
from controller.session import FileStorage, MemoryStorage, Session, SessionError, SYNC_MOVE
from simulator.players import LedPlayer, apply_action


def run(session, counts, player, stop_after=None):
    """Play on until the game is over (or `stop_after` actions); the actions taken."""
    taken = 0
    while session.guide.phase != OVER and (stop_after is None or taken < stop_after):
        action = player.next_action(session.guide.frame, counts)
        assert action[0] != "wait"
        apply_action(action, counts, player)
        session.update(counts)
        taken += 1
    return taken


@pytest.mark.parametrize("variant", ["layli-goobalay", "mangala-iv", "tampoduo"])
def test_a_restart_anywhere_gives_the_same_game(variant):
    storage = MemoryStorage()
    whole = Session(storage, variant)
    counts = whole.game.pits + [0, 0]
    player = LedPlayer(whole.game.rules.n, random.Random(1), 0.05)
    whole.update(counts)
    total = run(whole, counts, player)
    expected = write_game(whole.game)
    for cut in random.Random(2).sample(range(1, total), 12):
        storage = MemoryStorage()
        session = Session(storage, variant)
        counts = session.game.pits + [0, 0]
        player = LedPlayer(session.game.rules.n, random.Random(1), 0.05)
        session.update(counts)
        run(session, counts, player, cut)
        moves, phase = list(session.game.moves), session.guide.phase
        done = session.guide.done if phase == SOWING else None
        again = Session.resume(MemoryStorage(storage.lines()))     # the power came back
        assert again.game.moves == moves
        if done is not None:
            assert again.guide.phase == SOWING and again.guide.done == done
        again.update(counts)
        run(again, counts, player)
        assert write_game(again.game) == expected


def test_file_storage_and_a_torn_last_line(tmp_path):
    path = str(tmp_path / "journal")
    session = Session(FileStorage(path), "layli-goobalay")
    counts = session.game.pits + [0, 0]
    counts[2] = 0
    session.update(counts)
    counts[3] += 1
    session.update(counts)
    session.storage.close()
    with open(path, "a") as handle:
        handle.write('{"e": "st')              # the power went mid-line
    again = Session.resume(FileStorage(path))
    assert again.guide.phase == SOWING and again.guide.move == 3 and again.guide.done == 2


def test_move_sync_resumes_from_what_reached_the_storage():
    storage = MemoryStorage()
    session = Session(storage, "mangala-iv", sync=SYNC_MOVE)
    counts = session.game.pits + [0, 0]
    player = LedPlayer(7, random.Random(3))
    session.update(counts)
    run(session, counts, player, 60)
    again = Session.resume(MemoryStorage(storage.lines()), SYNC_MOVE)
    assert again.game.moves == session.game.moves
    # a move's steps are not journaled: they would be synced only with the move's own line
    kinds = [json.loads(line)["e"] for line in storage.lines()[1:]]
    assert "step" not in kinds and kinds.count("move") == len(session.game.moves) >= 1


def test_damaged_journals_are_refused_with_the_line():
    with pytest.raises(SessionError, match="does not start with a game"):
        Session.resume(MemoryStorage(['{"e": "step", "done": 1}']))
    storage = MemoryStorage()
    Session(storage, "layli-goobalay")
    lines = storage.lines() + ["garbage", '{"e": "start", "move": 3}']
    with pytest.raises(SessionError, match="line 2 is damaged"):
        Session.resume(MemoryStorage(lines))
    lines = storage.lines() + ['{"e": "move", "move": 9}']
    with pytest.raises(SessionError, match="journal line 2"):
        Session.resume(MemoryStorage(lines))


class RetareRecorder:
    """A CountingSensor's adrift() and retare(), as Session.confirm uses them."""

    def __init__(self, faults, adrift):
        self.faults = faults
        self.drifted = adrift
        self.retared = []

    def adrift(self, channel):
        return channel in self.drifted

    def retare(self, channel, count):
        self.retared.append((channel, count))


def test_confirm_re_zeroes_the_cells_whose_zero_moved_on_the_expected_counts():
    session = Session(MemoryStorage())
    counts = session.guide.board.places()
    faults = [None] * 14
    faults[2] = "steady at 3.31 seeds since a fault, not a whole number: its zero moved"
    faults[7] = "raw 8388607 out of range (saturated)"
    session.update(counts, None, faults)
    counts[2] = 0                               # South lifts pit 3: its cell cannot tell
    session.update(counts, None, faults)
    sensor = RetareRecorder(faults, {2})
    session.confirm(sensor)
    assert session.guide.phase == SOWING and session.guide.move == 3
    assert sensor.retared == [(2, 0)]           # pit 8's cell is saturated: it waits
