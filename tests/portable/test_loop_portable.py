"""The board loop under both runtimes: frames and presses in; the session, sounds and the
record out, as every board (Pi, Pico alone, simulator, browser table) has them."""

from controller.guide import AWAIT, RESTORE, SKIP, SOWING
from controller.guide.events import BOARD_MATCHES, MISTAKE, MOVE_TAKEN_BACK, TO_SET
from controller.protocol.messages import BUTTONS
from controller.sensing import Calibration, CountingSensor
from controller.session import MemoryStorage, Session
from controller.session.loop import BoardLoop, CONFIRM, HINT, NEW_GAME, SOUNDS, UNDO, Sound
from helpers import follow_leds, raises

PER_SEED = 1000.0


def _loop(variant="layli-goobalay", sensing=True):
    """A loop over a new game with a counting sensor (zero at 0, a seed 1000 raw units), its
    sounds and the games it kept."""
    session = Session(MemoryStorage(), variant)
    sensor = None
    if sensing:
        places = session.guide.size
        sensor = CountingSensor(Calibration([0] * places, [PER_SEED] * places))
    sounds = []
    kept = []
    loop = BoardLoop(session, sensor, sound=sounds.append,
                     new_session=lambda: Session(MemoryStorage(), variant),
                     finished=kept.append)
    return loop, sounds, kept


def _settle(loop, counts, t_ms):
    """Frames of `counts` for 400 ms (the sensing settles in 250), each through the loop;
    the time after them and the events they made."""
    events = []
    for _ in range(40):
        t_ms += 10
        # a cell's noise: a few raw units either way (a constant reading is a dead cell)
        loop.feed(t_ms, [int(count * PER_SEED) + (t_ms // 10 + place) % 3 * 10 - 10
                         for place, count in enumerate(counts)])
        events.extend(loop.react())
    return t_ms, events


def _seed_by_seed(loop, counts, target):
    """`counts` brought to `target` one seed at a time, place by place, each change through
    the loop; the events it made."""
    events = []
    for place in range(len(counts)):
        while counts[place] != target[place]:
            counts[place] += 1 if counts[place] < target[place] else -1
            loop.update(counts)
            events.extend(loop.react())
    return events


def test_the_buttons_are_numbered_as_the_protocol_names_them():
    assert [BUTTONS[NEW_GAME], BUTTONS[UNDO], BUTTONS[HINT], BUTTONS[CONFIRM]] == [
        "new_game", "undo", "hint", "confirm"]
    assert SOUNDS[-1] == Sound.GAME_OVER and SOUNDS[0] == Sound.MOVE_DONE   # most urgent last
    loop = _loop()[0]
    assert "0 to 3" in str(raises(ValueError, loop.press, 4))


def test_a_move_made_by_the_load_cells_frames():
    loop, sounds, kept = _loop()
    session = loop.session
    counts = session.game.pits + [0, 0]
    t_ms, events = _settle(loop, counts, 0)
    assert session.guide.phase == AWAIT and events == []
    hand = 0
    while not session.game.moves:
        hand = follow_leds(session.frame, counts, hand, choose=2)
        t_ms, events = _settle(loop, counts, t_ms)
        assert loop.recent[-len(events):] == events or not events
    assert session.game.moves == [3] and session.guide.board.places() == counts
    assert Sound.MOVE_DONE in sounds and Sound.MISTAKE not in sounds
    assert loop.calibration_due                 # the zeros are worth keeping after a move
    assert kept == []                           # nothing ended


def test_a_place_not_counted_yet_is_given_as_empty():
    loop = _loop()[0]
    loop.judge_board()                          # nothing counted: nothing judged
    assert loop.session.guide.board.places() == loop.session.game.pits + [0, 0]
    frame = [None] * loop.session.guide.size
    loop.feed(10, frame)
    assert loop.session.events == []


def test_one_sound_a_batch_the_most_urgent():
    loop, sounds, kept = _loop(sensing=False)
    session = loop.session
    session.events.extend([("move_done", 1), ("mistake", "wrong_pit", 3, 4)])
    assert len(loop.react()) == 2 and sounds == [Sound.MISTAKE]
    session.events.extend([("move_done", 1), ("game_over", (30, 18))])
    loop.react()
    assert sounds == [Sound.MISTAKE, Sound.GAME_OVER]
    assert loop.react() == () and sounds == [Sound.MISTAKE, Sound.GAME_OVER]    # none: silent


def test_a_game_is_kept_once_when_it_ends_and_not_again_for_a_new_one():
    loop, sounds, kept = _loop(sensing=False)
    game = loop.session.game
    assert loop.press(NEW_GAME) and kept == []      # no move played: nothing to keep
    game = loop.session.game
    game.push(game.legal_moves()[0])
    loop.session.events.append(("game_over", (24, 24)))
    loop.react()
    assert kept == [game]
    assert loop.press(NEW_GAME) and kept == [game] and loop.session.game is not game
    assert not BoardLoop(loop.session).press(NEW_GAME)     # a board that makes no new games


def test_undo_and_hint():
    loop = _loop(sensing=False)[0]
    session = loop.session
    counts = session.game.pits + [0, 0]
    loop.update(counts)
    assert not loop.press(UNDO)                     # nothing to take back
    assert loop.press(HINT)
    assert session.guide.hint in session.game.legal_moves()
    assert session.guide.hint == loop.hint_move(session.game)
    hand = follow_leds(session.frame, counts, 0, choose=0)
    loop.update(counts)
    assert session.guide.phase == SOWING and not loop.press(HINT)   # a hint is for a move's start
    assert hand and loop.press(UNDO)


def test_confirm_takes_the_offer_to_skip_ahead():
    loop, sounds, kept = _loop(sensing=False)
    session = loop.session
    counts = session.game.pits + [0, 0]
    hand = 0
    loop.update(counts)
    while not session.guide.skip_offered:           # South's pit 1: a long relay
        hand = follow_leds(session.frame, counts, hand, choose=0)
        loop.update(counts)
    assert loop.react()[-1][0] == "skip_offered" and sounds[-1] == Sound.OFFER
    assert loop.press(CONFIRM) and session.guide.phase == SKIP
    assert not loop.confirm()                       # no offer now: a plain confirm


def test_seeds_put_back_after_a_takeback_are_work_not_mistakes():
    """Led back to the position before a move (as after a skip ahead, a resumed game or a
    new one), each seed moved shows what is left to move: no mistake, and no buzz."""
    loop, sounds, kept = _loop(sensing=False)
    session = loop.session
    start = session.game.pits + [0, 0]
    counts = start[:]
    loop.update(counts)
    hand = 0
    while not session.game.moves:
        hand = follow_leds(session.frame, counts, hand, choose=2)
        loop.update(counts)
    loop.react()
    del sounds[:]
    assert loop.press(UNDO)
    events = list(loop.react())
    events.extend(_seed_by_seed(loop, counts, start))
    kinds = [event[0] for event in events]
    assert kinds[0] == MOVE_TAKEN_BACK and kinds[-1] == BOARD_MATCHES
    assert MISTAKE not in kinds and kinds.count(TO_SET) > 10
    assert session.guide.phase == AWAIT and not session.game.moves
    assert Sound.MISTAKE not in sounds


def test_a_new_game_leads_the_last_games_seeds_back_to_the_start():
    """NEW GAME on a board still holding the last game's seeds: setting the board up is work
    the LEDs lead, not a run of mistakes; the first move waits until the board is set."""
    loop, sounds, kept = _loop(sensing=False)
    session = loop.session
    start = session.game.pits + [0, 0]
    counts = start[:]
    loop.update(counts)
    hand = 0
    while len(session.game.moves) < 2:              # two moves: seeds moved, some captured
        hand = follow_leds(session.frame, counts, hand, choose=0)
        loop.update(counts)
    loop.react()
    del sounds[:]
    assert counts != start
    assert loop.press(NEW_GAME)
    session = loop.session
    assert not session.game.moves and session.guide.phase == RESTORE
    assert loop.press(HINT) is False                # nothing to hint until the board is set
    events = list(loop.react())
    events.extend(_seed_by_seed(loop, counts, start))  # the players set the board up
    kinds = [event[0] for event in events]
    assert MISTAKE not in kinds and TO_SET in kinds and kinds[-1] == BOARD_MATCHES
    assert session.guide.phase == AWAIT and Sound.MISTAKE not in sounds
    assert len(kept) == 1 and len(kept[0].moves) == 2


def test_a_capture_carried_by_hand_is_not_a_mistake_on_the_way():
    """The captured seeds lifted from their pit and put into the store by the handful, as a
    person does: the pit empty and the store not yet full is seeds in a hand, not a mistake
    (no mistake shown, no buzz); each capture is accepted once they are all in the store."""
    loop, sounds, kept = _loop(sensing=False)
    session = loop.session
    counts = session.game.pits + [0, 0]
    loop.update(counts)
    hand = follow_leds(session.frame, counts, 0, choose=1)      # South's pit 2: it captures
    loop.update(counts)
    captures = 0
    events = []
    while not session.game.moves:
        guide = session.guide
        step = guide.script[guide.done]
        if step[0] == "capture":
            pit, seeds = step[1], step[2]
            store = len(counts) - 2
            counts[pit] = 0                         # lifted into the hand
            loop.update(counts)
            events.extend(loop.react())
            assert guide.mistake is None and guide.done == guide.script.index(step)
            counts[store] += seeds // 2             # the first handful into the store
            loop.update(counts)
            events.extend(loop.react())
            assert guide.mistake is None
            counts[store] += seeds - seeds // 2     # the rest
            captures += 1
        else:
            hand = follow_leds(session.frame, counts, hand)
        loop.update(counts)
        events.extend(loop.react())
    assert captures == 2 and session.game.moves == [2]
    assert session.guide.board.places() == counts
    assert [event for event in events if event[0] == MISTAKE] == []
    assert Sound.MISTAKE not in sounds


def test_the_core_packages_load_their_lazy_names_and_submodules():
    """The rules and sensing packages load Match, ActivitySensor and Calibrator when first
    asked for (a Pico's heap), and a submodule not imported yet still imports by name."""
    import controller.rules
    import controller.sensing
    from controller.sensing import shared_clock, ActivitySensor, Calibrator
    from controller.rules import Match, record
    assert shared_clock.ReadPlanner and record.write_game
    assert ActivitySensor.__name__ == "ActivitySensor" and Calibrator.__name__ == "Calibrator"
    assert Match.__name__ == "Match"
    assert isinstance(raises(AttributeError, getattr, controller.sensing, "nothing_here"),
                      AttributeError)
    assert isinstance(raises(AttributeError, getattr, controller.rules, "Nothing"),
                      AttributeError)
