"""The guide under both runtimes: whole games followed from the LEDs alone (plain functions,
no pytest, no random: the same games on CPython and MicroPython)."""

from controller.rules import Game
from controller.guide import Guide, ACTIVITY, OVER, SOWING
from controller.guide.guide import LOOKAHEAD
from controller.guide.frame import DROP, FLASH
from helpers import follow_leds


def _play(variant, mode="counting", prepare=False):
    game = Game(variant)
    guide = Guide(game, mode)
    counts = game.pits + [0, 0]
    hand = 0
    for _ in range(20000):
        if guide.phase == OVER:
            break
        while prepare and guide.prepare():
            pass
        before = counts[:]
        hand = follow_leds(guide.frame, counts, hand)
        if mode == ACTIVITY:
            changed = [p for p in range(len(counts) - 2) if counts[p] != before[p]]
            guide.touch(changed[0])
        else:
            guide.update(counts)
    assert guide.phase == OVER and game.over, (variant, guide.phase)
    assert counts == guide.board.places() and hand == 0
    assert counts[-2:] == game.scores
    return game


def test_whole_games_from_the_leds_alone():
    for variant in ("layli-goobalay", "tampoduo", "mangala-iv"):
        _play(variant)


def test_scripts_prepared_while_the_board_waits_are_the_moves_own():
    game = Game("layli-goobalay")
    guide = Guide(game)
    prepared = 0
    resolving = 0 if game.resolved else 1       # the legal moves: a piece of their own
    while not guide.prepared:
        assert guide.prepare()
        prepared += 1
    # the legal moves, each one's script, then the boards of each one's first steps
    legal = game.legal_moves()
    assert prepared == resolving + 2 * len(legal) and sorted(guide.scripts) == sorted(legal)
    assert not guide.prepare()
    for move in legal:
        script = game.copy().push(move, script=True)
        assert guide.scripts[move] == script
        board = guide.board.copy()
        start = board.places()
        looks = []
        for step in script[:LOOKAHEAD]:
            board.apply(step, game.to_move)
            places = board.places()
            looks.append((bytes(places),
                          bytes(p for p in range(len(places)) if places[p] != start[p])))
        assert guide._look(move, 0) == looks
    # during a move, the boards of its next steps, then the position after it
    counts = game.pits + [0, 0]
    follow_leds(guide.frame, counts, 0)             # the lit pit lifted
    guide.update(counts)
    assert guide.phase == SOWING and guide.prepare() and guide.prepare()
    assert not guide.prepare()
    # a whole game with the guide working ahead whenever it can is the same game
    assert _play("layli-goobalay", prepare=True).moves == _play("layli-goobalay").moves


def test_whole_game_in_activity_mode():
    _play("mangala-iv", ACTIVITY)


def test_a_wrong_pit_flashes_until_taken_back():
    game = Game("layli-goobalay")
    guide = Guide(game)
    counts = game.pits + [0, 0]
    counts[2] = 0
    guide.update(counts)
    counts[5] += 1
    guide.update(counts)
    assert guide.frame.where(FLASH) == [5] and guide.frame.where(DROP) == [3]
    counts[5] -= 1
    guide.update(counts)
    assert guide.frame.where(FLASH) == []


def test_pixels_follow_the_frame_within_the_current_cap():
    from controller.guide.frame import Frame, STEADY
    from controller.guide.pixels import LedLayout, render, current_ma
    frame = Frame(14)
    for place in range(14):
        frame.set(place, "fault", STEADY)
    pixels = render(frame, LedLayout.rings(14, 12, brightness=256, max_ma=1500), 0)
    assert len(pixels) == 168 and current_ma(pixels) <= 1500
