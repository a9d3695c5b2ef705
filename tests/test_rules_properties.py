"""Property tests over random games of every variant and random options (hypothesis)."""

import random

from hypothesis import given, settings, strategies as st

from controller.rules import Board, Game, Rules, deal_random_setup

OPTION_CHOICES = {
    "layli-goobalay": {"capture_last_seed": [True, False], "end_when": ["mover", "either"],
                       "first_move_right": [False, True], "endless": ["illegal", "abar"],
                       "endless_bound": [10000, 60]},
    "layli-goobalay-long": {"pits": [12, 6, 9], "direction": ["clockwise", "counterclockwise"],
                            "capture_last_seed": [True, False], "endless": ["illegal", "abar"],
                            "endless_bound": [10000, 120]},
    "tampoduo": {"must_feed": [False, True], "capture_last_seed": [True, False],
                 "end_when": ["mover", "either"], "endless_bound": [10000, 40]},
    "mangala-iv": {"start": ["leftmost", "rightmost", "free"], "endless_bound": [10000, 150],
                   "first": [0, 1]},
}


@st.composite
def games(draw):
    variant = draw(st.sampled_from(sorted(OPTION_CHOICES)))
    options = {name: draw(st.sampled_from(values))
               for name, values in OPTION_CHOICES[variant].items()}
    rules = Rules(variant, options)
    kind = draw(st.sampled_from(["standard", "random"]))
    if kind == "standard":
        setup = None
    elif rules.mangala:
        setup = deal_random_setup(rules, seed=draw(st.integers(0, 2 ** 32 - 1)))
    else:
        setup = draw(st.lists(st.integers(0, 7), min_size=rules.size, max_size=rules.size))
    first = draw(st.sampled_from([0, 1]))
    return Game(rules, setup=setup, first=first), draw(st.integers(0, 2 ** 31))


def check_uurs(game):
    size = game.rules.size
    for i, owner in enumerate(game.uur):
        if owner is not None:
            assert game.uur[size - 1 - i] == owner, "Uurs come in opposite pairs"
            assert game.pits[i] > 0, "an Uur is never empty"


@settings(max_examples=400, deadline=None)
@given(games())
def test_random_games_conserve_seeds_follow_their_scripts_and_end(case):
    game, seed = case
    rng = random.Random(seed)
    total = sum(game.pits) + sum(game.captured)
    board = Board(game.pits, game.captured)
    board.play(game.start_script(), game.to_move)
    for _ in range(20000):
        if game.over:
            break
        mover = game.to_move
        before = Board(game.pits, game.captured)
        steps = game.push(rng.choice(game.legal_moves()), script=True)
        for step in steps:
            before.apply(step, mover)
            assert before.total() == total, "seeds conserved after every step"
        assert before.hand == 0
        check_uurs(game)
        if game.over:
            # the collection moved every scored seed into the stores
            assert before.stores == game.scores
            assert sum(before.pits) == (total - sum(game.scores))
        else:
            assert before.pits == game.pits and before.stores == game.captured
    assert game.over, "every game ends"
    assert sum(game.scores) <= total


@settings(max_examples=40, deadline=None)
@given(games())
def test_random_move_is_always_legal_and_pop_restores(case):
    game, seed = case
    rng = random.Random(seed)
    states = [game.state_json()]
    while True:
        move = game.random_move(rng)
        if move is None:
            break
        assert move in game.legal_moves()
        game.push(move)
        states.append(game.state_json())
        if len(states) > 400:
            break
    assert game.legal_moves() == [] if game.over else game.legal_moves()
    for _ in range(min(3, len(states) - 1)):
        states.pop()
        game.pop()
        assert game.state_json() == states[-1]


def test_engine_agrees_with_the_plain_reference_loop():
    """The benchmark's plain hand-written loop and the engine play the same games."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "plain_layli.py"
    spec = importlib.util.spec_from_file_location("plain_layli", path)
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    for seed in range(300):
        expected = plain.playout(random.Random(seed))
        game = Game("layli-goobalay")
        rng = random.Random(seed)
        while True:
            move = game.random_move(rng)
            if move is None:
                break
            game.push(move)
        assert (len(game.moves), game.scores) == expected, seed
