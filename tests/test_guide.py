"""The LED guide against players who see only the LEDs (counts and touches, no sensor noise:
the noisy physical board is tested in the simulator's tests)."""

import random

import pytest

from controller.guide import Guide, ACTIVITY, AWAIT, OVER, RESTORE, SKIP, SOWING
from controller.guide.guide import LOOKS
from controller.guide.frame import (DROP, PICK, TAKE, UUR, UUR_FROM, UUR_TO, FORCED, PASS,
                                    FLASH, MORE, LESS, BROKEN, STEADY, WIN, HINT, ERROR, FAULT)
from controller.rules import Game
from simulator.players import LedPlayer, apply_action

VARIANTS = ["layli-goobalay", "layli-goobalay-long", "tampoduo", "mangala-iv"]
SHOWS_MISTAKE = (FLASH, MORE, LESS)


def play_counting(variant, seed, rate, as_bytes=False):
    """A whole game: the player acts, the guide reads the counts after every action (as a
    bytearray with `as_bytes`, as a Pico passes them)."""
    rng = random.Random(seed)
    game = Game(variant)
    guide = Guide(game)
    counts = game.pits + [0, 0]
    player = LedPlayer(game.rules.n, rng, rate)
    guide.update(counts)
    stats = {"made": 0, "flagged": 0, "false_alarms": 0}
    pending = False
    for _ in range(100000):
        if guide.phase == OVER:
            break
        made_before = len(player.mistakes)
        action = player.next_action(guide.frame, counts)
        assert action[0] != "wait", (guide.phase, guide.frame, counts)
        apply_action(action, counts, player)
        if len(player.mistakes) > made_before:
            stats["made"] += 1
            pending = True
        guide.update(bytearray(counts) if as_bytes else counts)
        accepted = [e for e in guide.take_events() if e[0] == "step_done"]
        if any(guide.frame.pattern(p) in SHOWS_MISTAKE for p in range(len(counts))):
            if pending:
                stats["flagged"] += 1
                pending = False
            elif not player.mistakes or action[0] not in ("take", "put"):
                stats["false_alarms"] += 1
        if accepted:
            assert not pending, "a step was accepted before the mistake was shown"
    stats["over"] = guide.phase == OVER
    stats["matches"] = counts == guide.board.places() and game.over
    return stats


def random_positions(variant, rng, count, most_moves):
    """Up to `count` games of `variant` a few random moves in (fewer than `most_moves`), none
    over."""
    for _ in range(count):
        game = Game(variant)
        for _ in range(rng.randrange(most_moves)):
            if not game.over:
                game.push(rng.choice(game.legal_moves()))
        if not game.over:
            yield game


@pytest.mark.parametrize("variant", VARIANTS)
def test_look_ahead_boards_are_the_script_replayed(variant):
    """The look-ahead follows only the places each step touches: its boards, and the places
    where each differs from now, are those of the script replayed on a copy of the board
    and every place compared."""
    rng = random.Random(11)
    for game in random_positions(variant, rng, 40, 8):
        guide = Guide(game)
        start = guide.board.places()
        for move in game.legal_moves():
            looks, _ = guide._lookup(move, 0)
            board = guide.board.copy()
            steps = guide.scripts[move][:6]
            assert len(looks) == len(steps)
            for step, (expected, changed) in zip(steps, looks):
                board.apply(step, game.to_move)
                now = board.places()
                assert list(expected) == now, (move, step)
                assert list(changed) == [p for p in range(len(now)) if now[p] != start[p]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_lift_is_read_alike_with_or_without_the_work_ahead(variant):
    """Random readings near the board (pits lifted, seeds dropped, places unsettled), read
    by a guide whose scripts and look-aheads are all made and by one with none made (a
    player quicker than `prepare`, whose lifted pit's move is tried first): the same move
    starts, as far in, or the same mistake shows."""
    rng = random.Random(5)
    started = mistaken = 0
    for game in random_positions(variant, rng, 60, 4):
        game.legal_moves()
        start = Guide(game.copy()).board.places()
        for _ in range(6):
            counts = list(start)
            if rng.random() < 0.6:              # a legal move's pit lifted
                counts[game.rules.pit_index(game.to_move, rng.choice(game.legal))] = 0
            for _ in range(rng.randrange(3)):
                place = rng.randrange(len(counts))
                counts[place] = rng.choice([0, counts[place] + 1, max(0, counts[place] - 1)])
            settled = [rng.random() > 0.1 for _ in counts]
            made, bare = Guide(game.copy()), Guide(game.copy())
            while made.prepare():
                pass
            for guide in (made, bare):
                guide.update(counts, settled)
            read = [(guide.phase, getattr(guide, "move", None), getattr(guide, "done", None),
                     guide.mistake is None) for guide in (made, bare)]
            assert read[0] == read[1], (counts, settled, read)
            started += read[0][0] == SOWING
            mistaken += not read[0][3]
    assert started >= 10 and mistaken >= 10, (started, mistaken)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_move_ruled_out_by_its_lifted_pit_is_ruled_out_exactly(variant):
    """The reading where a pit is lifted is compared with every legal move's next boards; a
    move whose boards all change one place (its own pit) is ruled out at once when that place
    reads unchanged or unsettled. Random readings near the board (pits lifted, seeds dropped,
    places unsettled or faulty, confirm pressed), as a list or a bytearray: every answer is
    the full comparison's."""

    class Full(Guide):              # the same guide comparing every board, no shortcut
        def _lookup(self, move, done):
            return Guide._lookup(self, move, done)[0], None

    rng = random.Random(7)
    for game in random_positions(variant, rng, 150, 4):
        fast, full = Guide(game.copy()), Guide(game.copy())
        full.__class__ = Full
        start = fast._places()
        for _ in range(20):
            counts = list(start)
            for _ in range(rng.randrange(1, 4)):
                place = rng.randrange(len(counts))
                counts[place] = rng.choice([0, counts[place] + 1, max(0, counts[place] - 1)])
            settled = [rng.random() > 0.1 for _ in counts]
            faults = [("broken" if rng.random() < 0.05 else None) for _ in counts]
            confirmed = rng.random() < 0.2
            for guide in (fast, full):
                guide.faults = faults[:]
                guide.confirmed = confirmed
            for move in game.legal_moves():
                answer = full._ahead(counts, settled, move, 0)
                assert fast._ahead(counts, settled, move, 0) == answer, (counts, settled, move)
                # a Pico's counts, a bytearray compared with the boards in one go: the same
                assert fast._ahead(bytearray(counts), settled, move, 0) == answer


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_reading_that_completes_a_prepared_move_sows_nothing(variant, monkeypatch):
    """While a move is sown the guide works ahead (prepare, on a Pico's idle turns): the next
    steps' boards, then the position after the move with its legal moves. The reading that
    completes the move then sows no pit (a relay of many laps each, milliseconds on a Pico,
    in the frame the players wait for) and lights the same pits as an unprepared guide. A
    reading draws no frame: it is drawn when asked for, once (on a Pico on a turn of its
    own, 25 times a second; a move's end once drew it twice in the reading's time)."""
    rng = random.Random(3)
    for _ in range(6):
        game, plain = Game(variant), Game(variant)
        guide, unprepared = Guide(game), Guide(plain)
        counts = game.pits + [0, 0]
        player = LedPlayer(game.rules.n, rng, 0.0)
        sown = []
        rules = type(game.rules)
        real_sow = rules.sow
        for _ in range(20 * len(counts) * 48):
            if guide.phase == OVER:
                break
            action = player.next_action(guide.frame, counts)
            apply_action(action, counts, player)
            moves = len(game.moves)
            monkeypatch.setattr(rules, "sow", lambda *a, **k: sown.append(1) or real_sow(*a, **k))
            del sown[:]
            drawn = []
            monkeypatch.setattr(guide, "_render", lambda: drawn.append(1) or Guide._render(guide))
            guide.update(counts)
            assert drawn == []                  # drawn when asked for ...
            shown = guide.frame
            assert guide.frame is shown and len(drawn) == 1     # ... once
            monkeypatch.setattr(rules, "sow", real_sow)
            unprepared.update(counts)
            assert shown == unprepared.frame
            if len(game.moves) > moves:
                assert not sown, "the reading that completed a move sowed"
            while guide.prepare():
                pass
        assert game.moves == plain.moves and guide.phase == OVER


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("rate", [0.0, 0.05])
def test_whole_games_counting(variant, rate):
    made = 0
    for seed in range(8):
        stats = play_counting(variant, seed, rate)
        assert stats["over"] and stats["matches"], (seed, stats)
        assert stats["flagged"] == stats["made"] and stats["false_alarms"] == 0, (seed, stats)
        made += stats["made"]
    assert (made > 0) == (rate > 0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_guide_drawing_into_one_frame_shows_what_a_new_frame_would(variant):
    """Guide(one_frame=True), a Pico's: every frame drawn into the same Frame, place for
    place what a guide drawing a new Frame each change shows, through a game with mistakes."""
    rng = random.Random(3)
    game, mirror = Game(variant), Game(variant)
    guide, kept = Guide(game), Guide(mirror, one_frame=True)
    counts = game.pits + [0, 0]
    player = LedPlayer(game.rules.n, rng, 0.05)
    frames = set()
    for _ in range(100000):
        if guide.phase == OVER:
            break
        guide.update(counts)
        kept.update(counts)
        assert kept.frame.places == guide.frame.places, (guide.phase, counts)
        frames.add(id(kept.frame))
        apply_action(player.next_action(guide.frame, counts), counts, player)
    assert kept.phase == OVER and len(frames) == 1 and player.mistakes


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_move_sown_to_its_end_keeps_its_board_which_is_the_engines_position(variant):
    """The reading that completes a move keeps the board the move was sown on (no new one: a
    Pico's heap is slow to find room for it), and that board is, count for count and Uur for
    Uur, the one made from the engine's position; at the game's end (the collection) and
    where the board is not the engine's position (here a move the engine alone made), the
    guide makes it anew. Whole games with mistakes put right."""
    rng = random.Random(5)
    game = Game(variant)
    guide = Guide(game)
    counts = game.pits + [0, 0]
    player = LedPlayer(game.rules.n, rng, 0.05)
    kept = 0
    for _ in range(100000):
        if guide.phase == OVER:
            break
        before, moves = guide.board, len(game.moves)
        guide.update(counts)
        if len(game.moves) > moves:
            made = guide._position_board()
            assert (guide.board.pits, guide.board.stores, guide.board.uur, guide.board.hand) \
                == (made.pits, made.stores, made.uur, made.hand)
            if guide.phase == AWAIT:
                assert guide.board is before
                kept += 1
        apply_action(player.next_action(guide.frame, counts), counts, player)
    assert guide.phase == OVER and kept == len(game.moves) - 1
    assert guide.board.places() == counts               # the collection's board, made anew
    guide = Guide(Game(variant))
    board = guide.board
    guide.game.push(guide.game.legal[0])                # the engine moved, the board did not
    guide._await()
    assert guide.board is not board and guide.board.places() == guide._position_board().places()


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_counting_with_a_picos_bytearray_of_counts(variant):
    for seed in range(3):
        stats = play_counting(variant, seed, 0.05, as_bytes=True)
        assert stats["over"] and stats["matches"], (seed, stats)
        assert stats["flagged"] == stats["made"] and stats["false_alarms"] == 0, (seed, stats)


def play_activity(variant, seed, rate):
    rng = random.Random(seed)
    game = Game(variant)
    guide = Guide(game, ACTIVITY)
    counts = game.pits + [0, 0]
    pits = 2 * game.rules.n
    player = LedPlayer(game.rules.n, rng, rate, ACTIVITY)
    made = flagged = 0
    for _ in range(100000):
        if guide.phase == OVER:
            break
        made_before = len(player.mistakes)
        action = player.next_action(guide.frame, counts)
        assert action[0] != "wait", (guide.phase, guide.frame, counts)
        if action[0] != "touch":
            apply_action(action, counts, player)
        touched = [action[1], action[2]] if action[0] == "move" else [action[1]]
        for pit in touched:                     # a move's hand goes into both places
            if pit < pits:
                guide.touch(pit)
        if len(player.mistakes) > made_before:
            made += 1
            assert guide.frame.pattern(action[1]) == FLASH     # shown at once
            flagged += 1
    return guide.phase == OVER, counts == guide.board.places(), made, flagged


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_activity(variant):
    for seed in range(6):
        over, matches, made, flagged = play_activity(variant, seed, 0.05)
        assert over and matches and made == flagged


def start(setup=None, variant="layli-goobalay", **options):
    game = Game(variant, options or None, setup)
    guide = Guide(game)
    counts = game.pits + [0, 0]
    guide.update(counts)
    return game, guide, counts


def test_legal_pits_lit_in_the_movers_colour_then_the_next_pit():
    game, guide, counts = start()
    assert guide.phase == AWAIT
    assert guide.frame.where(STEADY) == [0, 1, 2, 3, 4, 5]
    assert {guide.frame.colour(p) for p in range(6)} == {"south"}
    counts[2] = 0                               # South lifts pit 3
    guide.update(counts)
    assert guide.phase == SOWING and guide.frame.where(DROP) == [3]
    assert ("move_started", 3) in guide.take_events()


def test_a_seed_in_the_wrong_pit_flashes_there_and_the_expected_pit_stays_lit():
    game, guide, counts = start()
    counts[2] = 0
    guide.update(counts)
    counts[4] += 1                              # should have gone into index 3
    guide.update(counts)
    assert guide.frame.pattern(4) == FLASH and guide.frame.colour(4) == ERROR
    assert guide.frame.pattern(3) == DROP
    assert ("mistake", "wrong_pit", 4, 3) in guide.take_events()
    counts[4] -= 1
    guide.update(counts)
    assert guide.frame.where(FLASH) == [] and guide.frame.where(DROP) == [3]


def test_difference_view_and_it_never_accepts_a_wrong_board():
    game, guide, counts = start()
    counts[2] = 0
    guide.update(counts)
    counts[3] += 2                              # two seeds at once
    guide.update(counts)
    assert guide.frame.where(MORE) == [3] and guide.done == 1
    counts[3] -= 1
    counts[0] -= 1                              # and a seed knocked out of pit 1
    guide.update(counts)
    assert guide.frame.where(LESS) == [0] and guide.done == 1
    counts[0] += 1
    guide.update(counts)
    assert guide.done == 2 and guide.frame.where(DROP) == [4]


def test_unsettled_places_are_not_judged():
    game, guide, counts = start()
    counts[2] = 0
    guide.update(counts)
    settled = [True] * 14
    settled[3] = False                          # a hand in the pit
    counts[3] += 7
    guide.update(counts, settled)
    assert guide.done == 1 and not guide.frame.where(MORE)
    counts[3] -= 6
    guide.update(counts)
    assert guide.done == 2


def test_relay_pick_capture_and_uur_have_their_own_patterns():
    # South's 1 seed lands in empty pit 2 opposite a 3: an Uur pair (docs/rules.md 2)
    game, guide, counts = start([1] + [0] * 9 + [3, 1])
    counts[0] = 0
    guide.update(counts)
    counts[1] += 1
    guide.update(counts)
    assert guide.frame.pattern(10) == UUR_FROM and guide.frame.pattern(1) == UUR_TO
    counts[10] -= 1
    counts[1] += 1
    guide.update(counts)
    assert game.uur[1] == 0 and guide.frame.pattern(1) == UUR
    assert guide.frame.colour(10) == "south"    # South's Uur in North's row: South's colour
    # a relay and a capture
    game, guide, counts = start([2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    counts[0] = 0
    guide.update(counts)
    counts[1] += 1
    counts[2] += 1
    guide.update(counts)
    assert guide.frame.pattern(2) == PICK
    game, guide, counts = start([1] + [0] * 9 + [2, 1])
    counts[0] = 0
    counts[1] = 1
    guide.update(counts)
    assert guide.frame.pattern(10) == TAKE and guide.frame.pattern(12) == STEADY


def test_mangala_forced_move_and_a_pass_are_shown_as_such():
    game, guide, counts = start(variant="mangala-iv")
    assert guide.frame.where(FORCED) == [0]
    game, guide, counts = start([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0], "mangala-iv")
    for pit, to in ((6, 7), (7, 8)):
        counts[pit] -= 1
        counts[to] += 1
        guide.update(counts)
    assert ("pass", 0) in guide.take_events()
    assert guide.frame.where(PASS) == [0, 1, 2, 3, 4, 5, 6]     # South's empty row passes


def test_hint_and_takeback():
    game, guide, counts = start()
    guide.show_hint(5)
    assert guide.frame.colour(4) == HINT and guide.frame.pattern(4) == PICK
    counts[2] = 0                               # lift pit 3, then take it back
    guide.update(counts)
    assert guide.takeback() and guide.phase == RESTORE
    guide.update(counts)
    assert guide.frame.where(LESS) == [2]
    counts[2] = 4
    guide.update(counts)
    assert guide.phase == AWAIT and not game.moves


def test_skip_ahead_is_offered_on_long_moves_and_sets_the_result():
    game, guide, counts = start()
    player = LedPlayer(6, random.Random(0))
    events = []
    while not any(e[0] == "skip_offered" for e in events):
        apply_action(player.next_action(guide.frame, counts), counts, player)
        guide.update(counts)
        events = guide.take_events()
    move, played = guide.move, len(game.moves)
    assert guide.laps > 3 and len(guide.script) - guide.done >= 24
    assert guide.skip_ahead() and guide.phase == SKIP
    after = game.copy()
    after.push(move)
    target = after.pits + after.captured
    assert guide.target.places() == target
    guide.update(counts)                        # not there yet: the difference view
    assert guide.phase == SKIP and guide.frame.where(MORE) + guide.frame.where(LESS)
    guide.update(target)                        # the players set the board
    assert guide.phase == AWAIT and game.moves[played:] == [move]


def test_a_faulty_sensor_is_shown_and_a_person_confirms_its_place():
    game, guide, counts = start()
    faults = [None] * 14
    faults[3] = "stuck"
    faults[8] = "saturated"
    counts[2] = 0
    guide.update(counts, faults=faults)
    events = guide.take_events()
    assert ("fault", 3, "stuck") in events and ("fault", 8, "saturated") in events
    # the next drop's pit still says "drop here", in the fault colour; the other is broken
    assert guide.frame.places[3] == (FAULT, DROP) and guide.frame.places[8] == (FAULT, BROKEN)
    guide.update(counts, faults=faults)
    assert guide.done == 1                      # the drop into the faulty pit waits ...
    guide.confirm()
    guide.update(counts, faults=faults)
    assert guide.done == 2                      # ... for a person to vouch for it
    assert not guide.skip_ahead()               # a faulty sensor could not check a skip


def test_confirm_is_judged_at_once_and_a_broken_legal_pit_can_start_a_move():
    game, guide, counts = start()
    faults = [None] * 14
    faults[2] = "stuck"
    guide.update(counts, faults=faults)
    assert guide.frame.places[2] == (FAULT, STEADY)     # still a legal pit, in the fault colour
    counts[2] = 0                                       # lifted: its broken sensor cannot tell
    guide.update(counts, faults=faults)
    assert guide.phase == AWAIT
    guide.confirm()                                     # no new reading needed
    assert guide.phase == SOWING and guide.move == 3 and guide.frame.where(DROP) == [3]
    assert guide.take_events()[-1] == ("step_done", 1)


def test_a_difference_goes_when_only_unsettled_places_are_left():
    game, guide, counts = start()
    counts[2] = 0
    guide.update(counts)
    counts[9] += 2                                      # seeds where none belong
    guide.update(counts)
    assert guide.frame.pattern(9) == MORE
    counts[9] -= 2                                      # taken out; meanwhile another pit
    settled = [True] * 14                               # goes quiet (a sensor dying)
    settled[7] = False
    guide.update(counts, settled)
    assert guide.mistake is None and guide.frame.where(MORE) == []


def test_activity_faults_are_shown_and_confirm_does_the_step_by_hand():
    game = Game("layli-goobalay")
    guide = Guide(game, ACTIVITY)
    guide.touch(2)
    guide.touch(9)                                      # an activation nowhere near the script
    assert guide.frame.pattern(9) == FLASH
    faults = [None] * 12
    faults[9] = "active for more than 10 s"             # ... it was the sensor sticking
    faults[3] = "active for more than 10 s"
    guide.set_faults(faults)
    assert guide.frame.where(FLASH) == []
    assert guide.frame.places[9] == (FAULT, BROKEN) and guide.frame.places[3] == (FAULT, DROP)
    events = guide.take_events()
    assert ("mistake_cleared", 9) in events and ("fault", 3, faults[3]) in events
    guide.confirm()                                     # the seed went into pit 3: vouched
    assert guide.frame.where(DROP) == [4]
    assert ("confirmed", 3) in guide.take_events()
    guide.confirm()                                     # pit 4's sensor works: no vouching
    assert guide.frame.where(DROP) == [4]


def test_a_target_view_waits_for_a_broken_place_it_would_have_to_change():
    game, guide, counts = start([1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0])
    counts[0] = 0                               # South's pit 1: one seed into pit 2
    guide.update(counts)
    counts[1] = 1
    guide.update(counts)
    assert game.moves == [1] and guide.phase == AWAIT
    guide.takeback()                            # the seed must go back from pit 2 to pit 1
    faults = [None] * 14
    faults[1] = "stuck"                         # ... and pit 2's cell breaks
    faults[9] = "stuck"                         # so does one the takeback leaves alone
    counts[1], counts[0] = 0, 1
    guide.update(counts, faults=faults)
    guide.confirm()
    assert guide.phase == RESTORE               # pit 2's change was never shown: it waits
    faults[1] = None                            # mended: its count is seen again
    guide.update(counts, faults=faults)
    assert guide.phase == AWAIT and not game.moves   # pit 10 vouched for, unchanged


def test_the_end_collects_and_lights_the_winner():
    game, guide, counts = start([2, 0, 1] + [0] * 9)
    player = LedPlayer(6, random.Random(0))
    while guide.phase != OVER:
        apply_action(player.next_action(guide.frame, counts), counts, player)
        guide.update(counts)
    assert counts[:12] == [0] * 12 and counts[12:] == [3, 0]
    assert guide.frame.pattern(12) == WIN


def test_activity_mode_advances_on_the_expected_pit_and_flags_others():
    game = Game("layli-goobalay")
    guide = Guide(game, ACTIVITY)
    guide.touch(2)
    assert guide.phase == SOWING and guide.frame.where(DROP) == [3]
    guide.touch(7)                              # a seed into the wrong pit
    assert guide.frame.pattern(7) == FLASH and guide.frame.where(DROP) == [3]
    guide.touch(7)                              # taken back
    assert guide.frame.where(FLASH) == []
    guide.touch(3)
    assert guide.frame.where(DROP) == [4]


def test_bad_readings_are_refused():
    game, guide, counts = start()
    with pytest.raises(ValueError, match="14 places"):
        guide.update(counts[:-1])
    with pytest.raises(ValueError, match="mode"):
        Guide(game, "smell")


def test_asking_whether_prepared_works_nothing_out():
    """`prepared` is asked on a Pico's turns that have a reading to judge: it says False
    while the position's legal moves are unknown, without sowing to find them; `prepare`
    finds them, a piece of its own, then makes the scripts and their look-aheads one a
    call."""
    game = Game("layli-goobalay-long")
    guide = Guide(game)
    assert not game.resolved        # a new game finds out only whether it is over
    assert not guide.prepared and not game.resolved
    assert guide.prepare() and game.resolved and not guide.scripts
    while not guide.prepared:
        assert guide.prepare()
    assert set(guide.scripts) == set(game.legal_moves())
    assert not guide.prepare()          # the look-aheads made too: nothing left


def test_a_heap_with_no_room_for_a_script_stops_the_work_ahead_and_the_lift_makes_it(
        monkeypatch):
    """A 2 x 12 Pico's heap, full and cut up, once had no kilobyte in one piece for a relay's
    script that `prepare` was making (MemoryError: the standalone board stopped). The work
    ahead stops for the position instead (prepared, nothing more to do), and the pit lifted
    has its script made then, after the other moves' scripts are let go."""
    game = Game("layli-goobalay-long")
    guide = Guide(game)
    make = Guide._script
    full = [True]

    def script(self, move):
        if full[0] and move not in self.scripts and len(self.scripts) >= 2:
            raise MemoryError("memory allocation failed, allocating 1024 bytes")
        return make(self, move)

    monkeypatch.setattr(Guide, "_script", script)
    for _ in range(10):
        if not guide.prepare():
            break
    assert len(guide.scripts) == 2 and guide.prepared and not guide.prepare()
    full[0] = False                     # the heap is no fuller than before: the lift's turn
    move = [m for m in game.legal_moves() if m not in guide.scripts][0]
    counts = guide.board.places()
    counts[game.rules.pit_index(game.to_move, move)] = 0
    guide.update(counts)
    assert guide.phase == SOWING and guide.move == move and list(guide.scripts) == [move]


def test_a_move_lets_go_of_the_other_moves_scripts_and_looks():
    """What the board waited with (every legal move's script and look-ahead) is let go once
    a move starts: a Pico's heap needs the room for the move's own work."""
    game = Game("layli-goobalay-long")
    guide = Guide(game)
    while guide.prepare():
        pass
    assert guide.prepared and len(guide.scripts) == len(game.legal_moves()) > 1
    counts = guide.board.places()
    counts[game.rules.pit_index(game.to_move, 1)] = 0
    guide.update(counts)
    assert guide.phase == SOWING and list(guide.scripts) == [1]
    assert guide._made is None
    assert {key // LOOKS for key in guide._looks} <= {1}


@pytest.mark.parametrize("move", [1, 7, 12])
def test_a_pit_lifted_before_prepare_is_done_costs_its_own_script_alone(move):
    """A player quicker than `prepare` (a 2 x 12 Pico makes a relay's script in up to 20 ms,
    its look-ahead in 2): the reading where a pit is lifted works out that move's script and
    look-ahead first, not those of every legal move before it, and the move starts as
    before."""
    game = Game("layli-goobalay-long")
    guide = Guide(game)
    counts = guide.board.places()
    game.legal_moves()
    counts[game.rules.pit_index(game.to_move, move)] = 0
    guide.update(counts)
    assert guide.phase == SOWING and guide.move == move and guide.done == 1
    assert list(guide.scripts) == [move]


@pytest.mark.parametrize("move", [3, 7, 12])
def test_a_quick_players_drops_into_their_own_pits_cost_no_script_of_those_pits(move):
    """A player quicker still: the reading shows the pit lifted and two seeds dropped into
    the mover's own next pits, which read more seeds than before. A pit that gained seeds is
    another move's drop, not that move's lift: only the lifted move's script and look-ahead are
    made (each a look was 3 ms on a 2 x 12 Pico), and the move starts three steps in."""
    game = Game("layli-goobalay-long")
    guide = Guide(game)
    game.legal_moves()
    scout = Guide(Game("layli-goobalay-long"))          # the same position, to read the script
    board = scout.board.copy()
    for step in scout._script(move)[:3]:
        board.apply(step, game.to_move)
    counts = [board.count(place) for place in range(guide.size)]
    gained = [pit for pit in range(guide.size) if counts[pit] > guide.board.places()[pit]]
    own = {game.rules.pit_index(game.to_move, other) for other in game.legal}
    assert len(gained) == 2 and set(gained) <= own      # the pits of two other legal moves
    guide.update(counts)
    assert guide.phase == SOWING and guide.move == move and guide.done == 3
    assert list(guide.scripts) == [move]


@pytest.mark.parametrize("move", [1, 7, 12])
def test_a_lift_before_its_look_ahead_makes_one_board_of_it(move, monkeypatch):
    """The reading where a pit is lifted, the scripts made but not yet the look-ahead (a
    quick player: `prepare` makes every script first): only the lifted move's first step's
    board is made (the whole look-ahead was 5.6 ms of that frame on a 2 x 12 Pico), and the
    move starts one step in, as it does with the look-ahead made."""
    from controller.rules.script import Board

    game = Game("layli-goobalay-long")
    guide = Guide(game)
    while not guide.game.resolved or len(guide.scripts) < len(game.legal):
        assert guide.prepare()
    assert not guide._looks
    counts = guide.board.places()
    counts[game.rules.pit_index(game.to_move, move)] = 0
    applied = []
    apply = Board.apply

    def counted(board, step, mover):
        applied.append(step)
        return apply(board, step, mover)

    monkeypatch.setattr(Board, "apply", counted)
    guide.update(counts)
    assert guide.phase == SOWING and guide.move == move and guide.done == 1
    # the first step's board, then the guide's own board
    assert applied == [guide.script[0]] * 2, applied


def test_a_lift_no_legal_move_explains_is_still_a_mistake_when_nothing_was_prepared():
    """The moves whose pit reads as before are tried too, after the others: a reading that
    none of them explains shows the mistake, as with every look-ahead made."""
    game = Game("layli-goobalay-long")
    guide = Guide(game)
    counts = guide.board.places()
    game.legal_moves()
    counts[24] += 1                             # a seed put in South's store
    guide.update(counts)
    assert guide.phase == AWAIT and guide.mistake is not None
    assert set(guide.scripts) == set(game.legal)


def test_ready_says_whether_the_next_steps_boards_are_made():
    """`ready` is False after a step is accepted until `prepare` has made the boards of the
    move's next steps (a Pico gives that a turn of its own); the reading of the next step
    then finds them made, and the move goes on as without."""
    game, guide, counts = start()
    assert guide.ready                          # no move under way
    counts[2] = 0                               # South lifts pit 3: four seeds
    guide.update(counts)
    assert guide.phase == SOWING and not guide.ready
    assert guide.prepare() and guide.ready
    counts[3] += 1                              # the first seed into pit 4
    guide.update(counts)
    assert guide.done == 2 and not guide.ready
    assert guide.prepare() and guide.ready
