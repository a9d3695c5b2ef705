"""One test per rule of docs/rules.md, on positions worked out by hand (the expected counts in each
test were computed on paper from the rule text, not by running the engine)."""

import pytest

from controller.rules import (Board, Game, Match, Rules, RulesError, deal_random_setup,
                              END_EMPTY_ROW, END_ENDLESS, END_NO_FEED, END_NO_MOVE,
                              END_REPETITION, END_STONES)

EMPTY = [None] * 12


def played(variant, setup, moves, options=None, first=0, uur=None, script=False):
    game = Game(variant, options, setup, first, uur=uur)
    steps = None
    for move in moves:
        steps = game.push(move, script=script)
    return (game, steps) if script else game


# --- 1. Conventions ------------------------------------------------------------------------

def test_own_pit_numbers_map_to_absolute_indices_and_opposites():
    rules = Rules("layli-goobalay")
    assert rules.pit_index(0, 1) == 0 and rules.pit_index(0, 6) == 5
    assert rules.pit_index(1, 1) == 6 and rules.pit_index(1, 6) == 11
    # North's pit 1 (index 6) holds 1, pit 6 (index 11) holds 2: both playable, nothing else
    game = Game("layli-goobalay", setup=[0] * 6 + [1, 0, 0, 0, 0, 2], first=1)
    assert game.legal_moves() == [1, 6]
    assert game.row(1) == [1, 0, 0, 0, 0, 2]


def test_counterclockwise_sowing_one_seed_per_pit_then_relay():
    game, steps = played("layli-goobalay", None, [3], script=True)
    # pit 3 (index 2) holds 4: indices 3..6, and index 6 held 4, so its 5 are relayed
    assert steps[:7] == [("pick", 2, 4), ("drop", 3), ("drop", 4), ("drop", 5), ("drop", 6),
                         ("pick", 6, 5), ("drop", 7)]


def test_a_lap_of_2n_seeds_drops_into_its_own_origin():
    # 12 seeds from index 0: one into each of 1..11, the 12th back into the emptied origin,
    # which was empty, so the move ends there; the opposite (index 11) then holds 3: an Uur pair
    game, steps = played("layli-goobalay", [12] + [0] * 10 + [2], [1], script=True)
    assert steps == ([("pick", 0, 12)] + [("drop", i) for i in range(1, 12)] + [("drop", 0)]
                     + [("uur", 0, 11)])
    assert game.pits == [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]
    assert game.uur[0] == 0 and game.uur[11] == 0


def test_seeds_are_conserved_along_a_whole_game():
    game = Game("layli-goobalay")
    total = sum(game.pits)
    for move in [3, 1, 2, 6, 4]:
        if not game.is_legal(move):
            move = game.legal_moves()[0]
        game.push(move)
        assert sum(game.pits) + sum(game.captured) == total


# --- 2. Layli Goobalay ---------------------------------------------------------------------

def test_standard_start_is_four_per_pit_south_first():
    game = Game("layli-goobalay")
    assert game.pits == [4] * 12 and game.to_move == 0 and game.legal_moves() == [1, 2, 3, 4, 5, 6]


def test_relay_takes_all_seeds_of_a_non_empty_pit_and_goes_on():
    game, steps = played("layli-goobalay", [2, 0, 1] + [0] * 9, [1], script=True)
    assert game.pits == [0, 1, 0, 1, 1, 0] + [0] * 6
    assert steps[:6] == [("pick", 0, 2), ("drop", 1), ("drop", 2), ("pick", 2, 2),
                         ("drop", 3), ("drop", 4)]


def test_last_seed_in_an_uur_ends_the_move_and_uurs_are_never_played():
    uur = [None, None, 1, None, None, None, None, None, None, 1, None, None]
    game = played("layli-goobalay", [0, 1, 2, 0, 0, 0, 0, 0, 0, 2, 0, 1], [2], uur=uur)
    assert game.pits == [0, 0, 3, 0, 0, 0, 0, 0, 0, 2, 0, 1]
    assert game.captured == [0, 0]
    assert game.legal_moves() == [6]        # North's pit 4 is its Uur: never sown from


def test_last_seed_in_an_empty_pit_of_the_opponent_ends_quietly():
    game = played("layli-goobalay", [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 5], [6])
    assert game.pits == [0] * 6 + [1, 0, 0, 0, 0, 5] and game.captured == [0, 0]


def test_abar_when_the_opposite_pit_is_empty():
    game = played("layli-goobalay", [1] + [0] * 10 + [3], [1])
    assert game.pits == [0, 1] + [0] * 9 + [3] and game.captured == [0, 0]


@pytest.mark.parametrize("held", [1, 2, 4, 7])
def test_capture_takes_the_opposite_pit_and_the_last_seed(held):
    game, steps = played("layli-goobalay", [1] + [0] * 9 + [held, 1], [1], script=True)
    assert steps[-2:] == [("capture", 10, held), ("capture", 1, 1)]
    assert game.captured == [held + 1, 0]
    assert game.pits == [0] * 11 + [1]


def test_capture_last_seed_false_leaves_the_last_seed():
    game = played("layli-goobalay", [1] + [0] * 9 + [2, 1], [1],
                  options={"capture_last_seed": "false"})
    assert game.captured == [2, 0] and game.pits[1] == 1


def test_opposite_three_makes_an_uur_pair_for_the_mover():
    game, steps = played("layli-goobalay", [1] + [0] * 9 + [3, 0], [1], script=True)
    assert steps[:3] == [("pick", 0, 1), ("drop", 1), ("uur", 1, 10)]
    assert game.pits[1] == 2 and game.pits[10] == 2
    assert game.uur[1] == 0 and game.uur[10] == 0     # South owns one in North's row


def test_uurs_receive_seeds_and_score_for_their_owner_in_either_row():
    uur = [None, None, 0, None, None, None, None, None, None, 0, None, None]
    game = played("layli-goobalay", [3, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0], [1], uur=uur)
    assert game.pits == [0, 1, 3, 1, 0, 0, 0, 0, 0, 2, 0, 0]
    # North's only seeds are in South's Uur: North cannot move, and the game is over
    assert game.over and game.end_reason == END_NO_MOVE
    assert game.scores == [1 + 1 + 3 + 2, 0]


def test_the_game_ends_when_the_mover_has_no_legal_move_and_rows_are_scored():
    game = Game("layli-goobalay", setup=[0] * 6 + [1] * 6)
    assert game.over and game.legal_moves() == [] and game.scores == [0, 6]


def test_end_when_either_ends_on_a_bare_row():
    setup = [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0]
    # South's 6 -> North's 1 holds 2 -> relay -> indices 7 (now 2) and 8 (empty): quiet
    default = played("layli-goobalay", setup, [6])
    assert default.pits == [0] * 6 + [0, 2, 1, 0, 0, 0] and not default.over
    either = played("layli-goobalay", setup, [6], options={"end_when": "either"})
    assert either.over and either.end_reason == END_EMPTY_ROW and either.scores == [0, 3]


def test_first_move_right_forces_the_rightmost_pit_once():
    game = Game("layli-goobalay", {"first_move_right": True})
    assert game.legal_moves() == [6]
    with pytest.raises(RulesError, match="not legal"):
        game.push(1)
    game.push(6)
    assert len(game.legal_moves()) > 1


# --- 2.1 Match play ------------------------------------------------------------------------

def stalled(setup, options=None, first=0):
    """A match whose first hand is over at once: every move would drop more than 2 seeds."""
    opts = {"endless_bound": 2}
    opts.update(options or {})
    return Match("layli-goobalay", opts, setup, first)


def test_a_player_holding_fewer_than_six_loses_the_match():
    match = stalled([0, 0, 0, 0, 0, 5] + [4] * 6)
    assert match.game.over and match.game.scores == [5, 24]
    match.end_hand()
    assert match.over and match.winner == 1 and match.end_reason == "short"


def test_the_player_holding_fewer_arranges_and_the_other_mirrors_and_holds_the_rest():
    match = stalled([3, 3, 3, 3, 4, 4] + [4] * 6)
    assert match.end_hand() == [20, 24]
    assert match.arranger == 0
    game = match.arrange([2, 2, 2, 2, 6, 6])
    assert game.setup == [2, 2, 2, 2, 6, 6, 2, 2, 2, 2, 6, 6]
    assert match.aside == [0, 4] and game.to_move == 0
    assert match.seeds_accounted() == 44


def test_equal_holdings_the_second_mover_arranges_and_alternate_first():
    match = stalled([4] * 12, {"next_first": "alternate"})
    match.end_hand()
    assert match.arranger == 1
    game = match.arrange([4] * 6)
    assert game.to_move == 1       # alternate: South moved first in hand 1


def test_free_arrangement_and_its_checks():
    match = stalled([3, 3, 3, 3, 4, 4] + [4] * 6, {"arrangement": "free"})
    match.end_hand()
    with pytest.raises(RulesError, match="needs North's counts"):
        match.arrange([2, 2, 2, 2, 6, 6])
    with pytest.raises(RulesError, match="must arrange all"):
        match.arrange([1, 1, 1, 1, 1, 1], [1] * 6)
    with pytest.raises(RulesError, match="at least one seed"):
        match.arrange([0, 4, 4, 4, 4, 4], [4] * 5 + [0])
    with pytest.raises(RulesError, match="as many as South"):
        match.arrange([2, 2, 2, 2, 6, 6], [3] * 6)
    game = match.arrange([2, 2, 2, 2, 6, 6], [5, 5, 5, 1, 1, 3])
    assert game.setup == [2, 2, 2, 2, 6, 6, 5, 5, 5, 1, 1, 3] and match.aside == [0, 4]


def test_mirror_arrangement_rejects_a_different_copy():
    match = stalled([3, 3, 3, 3, 4, 4] + [4] * 6)
    match.end_hand()
    with pytest.raises(RulesError, match="mirror"):
        match.arrange([2, 2, 2, 2, 6, 6], [6, 6, 2, 2, 2, 2])


def test_hands_limit_ends_the_match_on_holdings():
    match = stalled([4] * 12, {"hands": 1})
    match.end_hand()
    assert match.over and match.winner is None and match.end_reason == "hands"
    with pytest.raises(RulesError, match="over"):
        match.arrange([4] * 6)


def test_mangala_has_no_hands():
    with pytest.raises(RulesError, match="not played in hands"):
        Match("mangala-iv")


# --- 3. Long board -------------------------------------------------------------------------

def test_long_board_sows_clockwise_with_four_per_pit():
    game, steps = played("layli-goobalay-long", None, [1], script=True)
    assert len(game.setup) == 24 and sum(game.setup) == 96
    assert steps[:6] == [("pick", 0, 4), ("drop", 23), ("drop", 22), ("drop", 21),
                         ("drop", 20), ("pick", 20, 5)]


def test_long_board_pits_and_direction_options():
    game, steps = played("layli-goobalay-long", None, [1], script=True,
                         options={"pits": 8, "direction": "counterclockwise"})
    assert game.rules.n == 8 and len(game.pits) == 16
    assert steps[:3] == [("pick", 0, 4), ("drop", 1), ("drop", 2)]
    with pytest.raises(RulesError, match="from 6 to 12"):
        Game("layli-goobalay-long", {"pits": 13})


# --- 4. Tampoduo ---------------------------------------------------------------------------

def test_tampoduo_captures_any_count_and_never_makes_uurs():
    game = played("tampoduo", [1] + [0] * 9 + [3, 1], [1])
    assert game.captured == [4, 0] and game.uur == EMPTY


def test_must_feed_keeps_only_moves_that_feed_and_ends_when_none_can():
    setup = [1, 0, 0, 0, 0, 1] + [0] * 6
    assert Game("tampoduo", setup=setup).legal_moves() == [1, 6]
    assert Game("tampoduo", {"must_feed": True}, setup).legal_moves() == [6]
    stuck = Game("tampoduo", {"must_feed": True}, [1] + [0] * 11)
    assert stuck.over and stuck.end_reason == END_NO_FEED and stuck.scores == [1, 0]


# --- 5. Mangala IV -------------------------------------------------------------------------

def test_mangala_seven_each_and_the_forced_leftmost_start():
    game = Game("mangala-iv")
    assert game.pits == [7] * 14 and game.legal_moves() == [1]
    assert Game("mangala-iv", {"start": "rightmost"}).legal_moves() == [7]
    assert Game("mangala-iv", {"start": "free"}).legal_moves() == [1, 2, 3, 4, 5, 6, 7]
    assert Game("mangala-iv", {"first": 1}).to_move == 1
    skip = Game("mangala-iv", setup=[0, 0, 3, 1, 0, 0, 0] + [1] * 7)
    assert skip.legal_moves() == [3]


def test_mangala_random_setups_keep_two_per_pit_and_replay_from_a_seed():
    rules = Rules("mangala-iv", {"setup": "random"})
    deal = deal_random_setup(rules, seed=7)
    assert len(deal) == 14 and sum(deal) == 98 and min(deal) >= 2
    assert deal == deal_random_setup(rules, seed=7)
    assert deal != deal_random_setup(rules, seed=8)
    game = Game(rules)
    assert sum(game.setup) == 98 and min(game.setup) >= 2


def test_mangala_relays_on_three_and_ends_quietly_on_one():
    game, steps = played("mangala-iv", [1, 2, 0, 0, 0, 0, 0] + [0] * 6 + [1], [1], script=True)
    assert steps[:6] == [("pick", 0, 1), ("drop", 1), ("pick", 1, 3), ("drop", 2),
                         ("drop", 3), ("drop", 4)]
    assert game.pits == [0, 0, 1, 1, 1, 0, 0] + [0] * 6 + [1] and game.captured == [0, 0]


def test_mangala_relays_on_five_or_more():
    game, steps = played("mangala-iv", [1, 4] + [0] * 11 + [2], [1], script=True)
    assert steps[:3] == [("pick", 0, 1), ("drop", 1), ("pick", 1, 5)]


def test_mangala_capture_on_four_takes_the_opposite_too():
    # index 0's stone makes index 1 hold 4: take it and index 12 (5); index 0 is now empty
    game, steps = played("mangala-iv", [1, 3, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 5, 0], [1],
                         script=True)
    assert steps[2:] == [("capture", 1, 4), ("capture", 12, 5)]
    assert game.captured == [9, 0] and game.pits == [0] * 7 + [1, 1, 0, 0, 0, 0, 0]


def test_mangala_backward_chain_crosses_rows_reading_the_board_before_taking():
    game, steps = played("mangala-iv", [0, 0, 0, 0, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0], [5],
                         script=True)
    assert steps[-3:] == [("capture", 7, 2), ("capture", 6, 2), ("capture", 5, 2)]
    assert game.captured == [6, 0]


def test_mangala_pass_is_a_step_not_a_ply():
    game = Game("mangala-iv", setup=[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0])
    assert game.push(7, script=True) == [("pick", 6, 1), ("drop", 7)]   # South's row is empty
    assert game.push(1, script=True) == [("pick", 7, 1), ("drop", 8), ("pass", 0)]
    assert game.ply == 2 and game.to_move == 1 and game.passes == [0]
    start = Game("mangala-iv", setup=[0] * 12 + [2, 3])
    assert start.to_move == 1 and start.start_script() == [("pass", 0)]


def test_mangala_ends_at_one_stone_which_is_not_scored_or_collected():
    game, steps = played("mangala-iv", [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [1],
                         script=True)
    assert game.over and game.end_reason == END_STONES
    assert game.scores == [2, 0] and not [s for s in steps if s[0] == "collect"]


# --- 6. Endless moves and repetition --------------------------------------------------------

ENDLESS_SETUP = [5, 3, 2, 1, 0, 4, 3, 0, 1, 3, 5, 14]


def test_an_endless_move_is_not_legal():
    game = Game("layli-goobalay", setup=ENDLESS_SETUP)
    assert 1 not in game.legal_moves()
    with pytest.raises(RulesError, match="not legal"):
        game.push(1)


def test_endless_abar_is_legal_and_changes_only_the_turn():
    game = Game("layli-goobalay", {"endless": "abar"}, ENDLESS_SETUP)
    assert 1 in game.legal_moves()
    assert game.push(1, script=True) == []
    assert game.pits == ENDLESS_SETUP and game.to_move == 1


def test_only_endless_moves_means_no_legal_move():
    game = Game("layli-goobalay", {"endless_bound": 3})   # every pit would drop 4 > 3
    assert game.over and game.end_reason == END_NO_MOVE and game.scores == [24, 24]


def test_mangala_endless_forced_move_ends_the_game_scoring_rows():
    game = Game("mangala-iv", {"endless_bound": 5})
    assert game.over and game.end_reason == END_ENDLESS and game.scores == [49, 49]
    assert game.start_script() == [("collect", i, 7, 0 if i < 7 else 1) for i in range(14)]
    free = Game("mangala-iv", {"endless_bound": 5, "start": "free"})
    assert free.over and free.end_reason == END_ENDLESS and free.scores == [49, 49]


def test_a_repeated_position_ends_the_game():
    game = Game("layli-goobalay", {"endless": "abar", "endless_bound": 3})
    game.push(1)
    assert not game.over
    game.push(1)            # the start again, South to move: its second occurrence
    assert game.over and game.end_reason == END_REPETITION and game.scores == [24, 24]


def test_a_capture_clears_the_positions_remembered():
    game = Game("layli-goobalay", {"endless": "abar", "endless_bound": 3},
                [1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 2, 4])
    game.push(1)                        # captures 2 + 1: no earlier position can recur
    assert game.captured == [3, 0]
    assert [len(h) for h in game._history] == [0, 1]


# --- 7. Step scripts -----------------------------------------------------------------------

def test_a_move_that_ends_the_game_collects_every_pit_in_pit_order():
    game, steps = played("layli-goobalay", [2, 0, 1] + [0] * 9, [1], script=True)
    assert game.over and game.scores == [3, 0]
    assert steps[-3:] == [("collect", 1, 1, 0), ("collect", 3, 1, 0), ("collect", 4, 1, 0)]
    board = Board(game.setup)
    board.play(steps, 0)
    assert board.pits == [0] * 12 and board.stores == game.scores and board.hand == 0


def test_board_rejects_an_impossible_step():
    board = Board([1, 0])
    with pytest.raises(RulesError, match="holds 1"):
        board.apply(("pick", 0, 2), 0)
    with pytest.raises(RulesError, match="empty hand"):
        board.apply(("drop", 1), 0)


# --- Bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("variant, options, setup, message", [
    ("oware", None, None, "unknown variant"),
    ("layli-goobalay", {"colour": "red"}, None, "unknown option 'colour'"),
    ("layli-goobalay", {"endless_bound": "many"}, None, "whole number"),
    ("layli-goobalay", {"end_when": "never"}, None, "one of mover, either"),
    ("layli-goobalay", {"capture_last_seed": "maybe"}, None, "true or false"),
    ("layli-goobalay", None, [4] * 11, "has 11 counts"),
    ("layli-goobalay", None, [4] * 11 + [-1], "negative"),
    ("mangala-iv", None, [7] * 12, "needs 14"),
])
def test_bad_input_is_one_clear_error(variant, options, setup, message):
    with pytest.raises(RulesError, match=message):
        Game(variant, options, setup)


def test_bad_moves_change_nothing():
    game = Game("layli-goobalay", setup=ENDLESS_SETUP)
    before = game.state_json()
    for move, message in [(0, "not a pit number"), (7, "not a pit number"), ("2", "not a pit"),
                          (5, "not legal"), (1, "not legal")]:
        with pytest.raises(RulesError, match=message):
            game.push(move)
        assert game.state_json() == before
    over = Game("layli-goobalay", setup=[0] * 6 + [1] * 6)
    with pytest.raises(RulesError, match="after the end"):
        over.push(1)


def test_pop_takes_back_moves_exactly():
    game = Game("layli-goobalay")
    states = [game.state_json()]
    for _ in range(6):
        game.push(game.legal_moves()[-1])
        states.append(game.state_json())
    for expected in reversed(states[:-1]):
        game.pop()
        assert game.state_json() == expected
    with pytest.raises(RulesError, match="no move"):
        game.pop()


@pytest.mark.parametrize("variant, options", [
    ("layli-goobalay", None), ("layli-goobalay-long", None), ("tampoduo", {"must_feed": True}),
    ("mangala-iv", None), ("layli-goobalay", {"endless": "abar", "endless_bound": 3}),
    ("layli-goobalay", {"first_move_right": True}),
])
def test_a_prepared_push_plays_exactly_as_a_plain_one(variant, options):
    """prepare_push works the next position out ahead (as a guide does while the move is
    sown); push then takes it over. Whole random games, moves prepared and then played, or
    prepared and another played, or taken back, give every position, legal list, end and
    score of the same games played plainly."""
    import random
    for seed in range(12):
        rng = random.Random(seed)
        plain, prepared = Game(variant, options), Game(variant, options)
        while not plain.over and plain.ply < 300:
            legal = plain.legal_moves()
            assert prepared.legal_moves() == legal
            move = rng.choice(legal)
            decoy = rng.choice(legal)
            assert prepared.prepare_push(decoy) is True
            assert prepared.prepare_push(decoy) is False        # done once
            if decoy != move and rng.random() < 0.5:
                prepared.prepare_push(move)
            if rng.random() < 0.1 and plain.ply:
                plain.pop()
                prepared.pop()                  # a takeback forgets what was prepared
            else:
                plain.push(move)
                prepared.push(move)
            assert prepared.state_json() == plain.state_json()
            assert prepared.over == plain.over and prepared.end_reason == plain.end_reason
            assert prepared.moves == plain.moves
        assert prepared.scores == plain.scores
    with pytest.raises(RulesError):
        Game(variant, options).prepare_push(99)


def test_copy_is_independent_and_keeps_the_remembered_positions():
    game = Game("layli-goobalay", {"endless": "abar", "endless_bound": 3})
    game.push(1)
    twin = game.copy()
    twin.push(1)                    # repeats the start in the copy only
    assert twin.over and twin.end_reason == END_REPETITION
    assert not game.over and game.moves == [1] and twin.moves == [1, 1]


@pytest.mark.parametrize("variant, options, setup, move, reason", [
    ("layli-goobalay", None, [0] + [4] * 11, 1, "pit 1 is empty"),
    ("layli-goobalay", None, ENDLESS_SETUP, 1, "never ends"),
    ("mangala-iv", None, None, 3, "starts from the leftmost pit"),
    ("layli-goobalay", {"first_move_right": True}, None, 2, "rightmost playable pit"),
    ("tampoduo", {"must_feed": True}, [1, 0, 0, 0, 0, 1] + [0] * 6, 1, "would leave it so"),
])
def test_why_illegal_says_why(variant, options, setup, move, reason):
    game = Game(variant, options, setup)
    assert reason in game.why_illegal(move)
    assert game.why_illegal(game.legal_moves()[0]) is None


def test_why_illegal_names_an_uur():
    uur = [None, None, 1, None, None, None, None, None, None, 1, None, None]
    game = Game("layli-goobalay", setup=[0, 1, 2, 0, 0, 0, 0, 0, 0, 2, 0, 1], first=1, uur=uur)
    assert "an Uur" in game.why_illegal(4)


def test_history_as_lists_or_keys_gives_the_same_games(monkeypatch):
    """Short runs of positions are kept as lists, long ones as keys: the games are the same."""
    import random

    from controller.rules import game as game_module

    def games():
        ends = []
        for variant, options in [("layli-goobalay", {"endless": "abar", "endless_bound": 40}),
                                 ("tampoduo", {"endless": "abar", "endless_bound": 40}),
                                 ("mangala-iv", {"endless_bound": 60}),
                                 ("layli-goobalay-long", {"endless_bound": 60})]:
            rules = Rules(variant, options)
            for seed in range(60):
                rng = random.Random(seed)
                game = Game(rules)
                while True:
                    move = game.random_move(rng)
                    if move is None:
                        break
                    game.push(move)
                ends.append((game.moves, game.end_reason, game.scores))
        return ends

    mixed = games()
    assert any(reason == END_REPETITION for _moves, reason, _scores in mixed)
    monkeypatch.setattr(game_module, "HISTORY_LISTED", 0)      # keys from the start
    assert games() == mixed
    monkeypatch.setattr(game_module, "HISTORY_LISTED", 2)       # lists, then keys
    assert games() == mixed
    monkeypatch.setattr(game_module, "HISTORY_LISTED", 10 ** 6)  # lists only
    assert games() == mixed


def test_play_random_plays_what_random_move_draws():
    import random

    for variant in ["layli-goobalay", "mangala-iv", "tampoduo"]:
        drawn, played = Game(variant), Game(variant)
        first, second = random.Random(4), random.Random(4)
        while True:
            move = drawn.random_move(first)
            assert played.play_random(second) == move
            if move is None:
                break
            drawn.push(move)
            assert played.state_json() == drawn.state_json()
        assert played.over and played.scores == drawn.scores


@pytest.mark.parametrize("make, message", [
    (lambda: Game().push(True), "True is not a pit number"),
    (lambda: Game().push(3.0), "3.0 is not a pit number"),
    (lambda: Game(captured=5), "captured must be two counts"),
    (lambda: Game(captured=[1.5, 0]), "captured must be two counts"),
    (lambda: Game(captured=["a", "b"]), "captured must be two counts"),
    (lambda: Game(uur=[True] + [None] * 10 + [True]), "not an owner"),
    (lambda: Game(first=True), "first must be 0"),
    (lambda: Game(setup=[4] * 11 + [4.0]), "not a whole number"),
])
def test_values_of_the_wrong_type_are_refused(make, message):
    with pytest.raises(RulesError, match=message):
        make()


def test_mirror_arrangement_checks_the_other_row_too():
    match = stalled([3, 3, 3, 3, 4, 4] + [4] * 6)
    match.end_hand()
    with pytest.raises(RulesError, match="North's arrangement must be 6 counts"):
        match.arrange([2, 2, 2, 2, 6, 6], 5)


def test_mangala_setup_option_takes_an_explicit_list():
    counts = [3] + [7] * 12 + [11]
    game = Game("mangala-iv", {"setup": ",".join(map(str, counts))})
    assert game.setup == counts
    assert Game("mangala-iv", {"setup": counts}).setup == counts
    with pytest.raises(RulesError, match="14 counts, not 3"):
        Rules("mangala-iv", {"setup": "7,7,7"})
    with pytest.raises(RulesError, match="not a whole number"):
        Rules("mangala-iv", {"setup": "7,7,7,7,7,7,7,7,7,7,7,7,7,x"})


def test_a_position_where_a_player_must_pass_counts_for_repetition():
    game = Game("mangala-iv", setup=[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0])
    game.push(7)
    game.push(1)                    # South's row is empty: South passes, North moves again
    assert game.passes == [0] and game.to_move == 1
    south, north = game._history
    assert game.pits in south       # remembered with South to move (and passing)
    assert game.pits in north       # and with North to move after the pass
