"""Sessions under both runtimes: a journaled game resumes at the same move and step."""

from controller.guide import AWAIT, OVER, RESTORE, SOWING
from controller.guide.frame import LESS, MORE
from controller.rules import RulesError
from controller.session import MemoryStorage, FileStorage, Session
from helpers import follow_leds, raises


def test_resume_in_the_middle_of_a_move():
    storage = MemoryStorage()
    session = Session(storage, "mangala-iv")
    counts = session.game.pits + [0, 0]
    hand = 0
    for _ in range(40):
        if session.guide.phase == OVER:
            break
        hand = follow_leds(session.guide.frame, counts, hand, choose=0)
        session.update(counts)
    again = Session.resume(MemoryStorage(storage.lines()))
    assert again.game.moves == session.game.moves
    if session.guide.phase == SOWING:
        assert again.guide.phase == SOWING and again.guide.done == session.guide.done
    while again.guide.phase != OVER:
        hand = follow_leds(again.guide.frame, counts, hand, choose=0)
        again.update(counts)
    assert again.game.scores == counts[-2:]


def test_file_storage_round_trip():
    path = "/tmp/layli-journal-test.txt"        # /tmp exists on Linux and in MicroPython's FS
    storage = FileStorage(path)
    session = Session(storage, "layli-goobalay")
    counts = session.game.pits + [0, 0]
    counts[0] = 0
    session.update(counts)
    storage.close()
    again = Session.resume(FileStorage(path))
    assert again.guide.phase == SOWING and again.guide.move == 1
    storage.clear()
    # a cleared journal has no lines, so a controller opening it starts a new game (it read
    # as one empty line, which looked like a journal that does not start with a game)
    assert FileStorage(path).lines() == []


def test_file_storage_kept_open():
    """keep_open (a Pico's journal): the file open from the start, each sync written and
    flushed into it, read back while it stays open; clear() empties it and keeps it open."""
    path = "/tmp/layli-journal-open.txt"
    storage = FileStorage(path, keep_open=True)
    storage.clear()
    storage.append("one")
    storage.append("two")
    assert FileStorage(path).lines() == []          # nothing written before a sync
    storage.sync()
    assert FileStorage(path).lines() == ["one", "two"]
    storage.append("three")
    storage.sync()
    assert FileStorage(path).lines() == ["one", "two", "three"] == storage.lines()
    storage.clear()
    storage.append("four")
    storage.close()
    assert FileStorage(path).lines() == ["four"]


def test_the_next_hand_is_set_up_from_the_board():
    from controller.rules import Match
    from controller.guide.setup import HandSetup, COPY, READY
    match = Match("layli-goobalay", {"endless_bound": 2}, [3, 3, 3, 3, 4, 4] + [4] * 6)
    match.end_hand()                            # every move would drop 3+: over at once
    setup = HandSetup(match)
    assert setup.arranger == 0 and setup.frame.where("pick") == [12]
    row = [2, 2, 2, 2, 6, 6]
    setup.update(row + [0] * 6 + [0, 24])       # South's 20 seeds, as South put them
    assert setup.phase == COPY and setup.frame.where("less") == [6, 7, 8, 9, 10, 11]
    setup.update(row + row + [0, 4])            # North copies; 4 seeds stay aside
    assert setup.phase == READY and setup.game.setup == row + row and match.aside == [0, 4]


def test_a_game_moved_from_another_board_carries_on_from_its_moves():
    storage = MemoryStorage()
    session = Session(storage, "layli-goobalay")
    session.carry_on([3, 1, 4])
    assert session.game.moves == [3, 1, 4] and session.guide.phase == RESTORE
    target = session.guide.target.places()
    assert target == session.game.pits + session.game.captured
    # the board still has the first position: the difference view leads it to the moves'
    first = [4] * 12 + [0, 0]
    session.update(first)
    assert session.guide.phase == RESTORE and session.frame.where(MORE) + session.frame.where(LESS)
    session.update(target)
    assert session.guide.phase == AWAIT and session.guide.board.places() == target
    # the journal has them: a power cut resumes the same position
    again = Session.resume(MemoryStorage(storage.lines()))
    assert again.game.moves == [3, 1, 4] and again.game.pits == session.game.pits


def test_carrying_on_an_illegal_move_changes_nothing():
    storage = MemoryStorage()
    session = Session(storage, "layli-goobalay")
    lines = list(storage.lines())
    assert raises(RulesError, session.carry_on, [3, 3, 3, 3, 3, 3, 3])
    assert session.game.moves == [] and storage.lines() == lines
    session.carry_on([])
    assert session.guide.phase == AWAIT or session.guide.phase == RESTORE
    assert raises(ValueError, session.carry_on, [1])
