"""The guide under both runtimes: whole games followed from the LEDs alone (plain functions,
no pytest, no random: the same games on CPython and MicroPython)."""

from controller.rules import Game
from controller.guide import Guide, ACTIVITY, OVER
from controller.guide.frame import DROP, PICK, TAKE, UUR_FROM, UUR_TO, STEADY, FORCED, FLASH


def _follow(guide, counts, hand):
    """One action of a careful player who reads only the frame; returns the new hand."""
    frame = guide.frame
    pits = len(counts) - 2
    drop, pick, take = frame.where(DROP), frame.where(PICK), frame.where(TAKE)
    if drop:
        counts[drop[0]] += 1
        return hand - 1
    if pick:
        hand += counts[pick[0]]
        counts[pick[0]] = 0
        return hand
    if take:
        store = pits if frame.colour(take[0]) == "south" else pits + 1
        counts[store] += counts[take[0]]
        counts[take[0]] = 0
        return hand
    if frame.where(UUR_FROM):
        counts[frame.where(UUR_FROM)[0]] -= 1
        counts[frame.where(UUR_TO)[0]] += 1
        return hand
    legal = [p for p in range(pits) if frame.pattern(p) in (STEADY, FORCED)]
    hand += counts[legal[-1]]
    counts[legal[-1]] = 0
    return hand


def _play(variant, mode="counting"):
    game = Game(variant)
    guide = Guide(game, mode)
    counts = game.pits + [0, 0]
    hand = 0
    for _ in range(20000):
        if guide.phase == OVER:
            break
        before = counts[:]
        hand = _follow(guide, counts, hand)
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
