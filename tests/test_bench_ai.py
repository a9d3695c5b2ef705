"""`layli bench ai` and the OpenSpiel adapter: the OpenSpiel games agree with the engine, MCTS
plays legal moves on time, the bench plays each opening once with each colour and scores a pair
by its seeds, counts and intervals are right, and bad arguments exit 2 with one line."""

import json
import random
import time

import pytest

pyspiel = pytest.importorskip("pyspiel")

from controller.opponents.openspiel import OpenSpielMcts, load, register_games, short_name
from controller.commands.bench_ai import (Pairs, RandomPlayer, bench, make_opponent, opening,
                                         play_pairs, wilson_interval)
from controller.cli import main
from controller.opponents.players import GreedyPlayer
from controller.rules import VARIANTS, Game, RulesError
from controller.rules.rng import Random30

ALL_VARIANTS = sorted(VARIANTS)


def greedy_stand_in(seed):
    """A cheap "searcher" for harness tests: the bench's logic, not the searcher, is tested."""
    return GreedyPlayer(random.Random(seed))


def expected_returns(game):
    winner = game.winner()
    return [0.0, 0.0] if winner is None else ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])


# --- the OpenSpiel games ---------------------------------------------------------------------

def test_every_variant_is_registered_once_under_its_name():
    register_games()
    register_games()        # a second call must not register twice (OpenSpiel would refuse)
    names = pyspiel.registered_names()
    for variant in ALL_VARIANTS:
        assert short_name(variant) in names
        game = load(variant)
        assert game.get_type().short_name == short_name(variant)
        assert game.num_players() == 2 and game.max_utility() == 1.0
    assert short_name("layli-goobalay") == "python_layli_goobalay"
    assert load("layli-goobalay-long").num_distinct_actions() == 12
    with pytest.raises(ValueError, match="unknown variant 'oware'"):
        short_name("oware")


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_openspiel_state_agrees_with_the_engine_over_random_games(variant):
    ospiel = load(variant)
    rng = Random30(11)
    for _ in range(15):
        game = Game(variant)
        state = ospiel.new_initial_state()
        while True:
            assert state.is_terminal() == game.over
            assert state.history() == [move - 1 for move in game.moves]
            if game.over:
                break
            assert state.current_player() == game.to_move
            assert state.legal_actions() == [move - 1 for move in game.legal_moves()]
            assert state.returns() == [0.0, 0.0]
            move = game.random_move(rng)
            state.apply_action(move - 1)
            game.push(move)
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert state.returns() == expected_returns(game)
        assert str(state) == game.state_json()


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_state_from_a_game_in_play_replays_its_moves_and_clones_apart(variant):
    game = Game(variant)
    rng = Random30(5)
    for _ in range(4):
        game.play_random(rng)
    state = load(variant).state_from(game)
    assert state.history() == [move - 1 for move in game.moves]
    assert str(state) == game.state_json() and state.game is not game
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history() == [move - 1 for move in game.moves]    # the original is untouched
    assert len(clone.history()) == len(game.moves) + 1


def test_state_from_keeps_a_game_s_set_up_first_mover_and_options():
    game = Game("layli-goobalay-long", {"pits": 7}, first=1)
    game.push(game.legal_moves()[-1])
    state = load("layli-goobalay-long").state_from(game)
    assert str(state) == game.state_json()
    assert state.legal_actions() == [move - 1 for move in game.legal_moves()]
    with pytest.raises(ValueError, match="a tampoduo game cannot become a layli-goobalay"):
        load("layli-goobalay").state_from(Game("tampoduo"))


def test_an_illegal_action_is_refused_with_the_engine_s_reason():
    state = load("layli-goobalay").new_initial_state()
    state.apply_action(2)
    state.apply_action(state.legal_actions()[0])
    empty = [pit for pit in range(6) if state.game.row(state.game.to_move)[pit] == 0]
    assert empty
    with pytest.raises(RulesError, match="ply 3: South's move %d is not legal: pit %d is empty"
                                         % (empty[0] + 1, empty[0] + 1)):
        state.apply_action(empty[0])


# --- OpenSpiel's MCTS as a player ------------------------------------------------------------

@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_mcts_picks_legal_moves_and_leaves_the_game_alone(variant):
    player = OpenSpielMcts(simulations=12, seed=3)
    game = Game(variant)
    rng = Random30(2)
    while not game.over:
        before = game.state_json()
        move = player.choose(game)
        assert game.state_json() == before
        assert move in game.legal_moves()
        game.push(move)
        if not game.over:
            game.play_random(rng)
    with pytest.raises(ValueError, match="game is over"):
        player.choose(game)


def test_mcts_with_a_simulation_budget_repeats_itself_for_a_seed():
    game = Game("layli-goobalay")
    game.replay([3, 1])
    moves = [OpenSpielMcts(simulations=40, seed=9).choose(game) for _ in range(2)]
    assert moves[0] == moves[1]


def test_mcts_is_a_real_player_it_beats_random_with_either_colour():
    mcts_player = OpenSpielMcts(simulations=100, seed=1)
    pairs = play_pairs("layli-goobalay", 1, mcts_player, RandomPlayer(1), "random")
    assert pairs.games == [2, 0, 0] and pairs.outcomes == [1, 0, 0], pairs


def test_timed_mcts_stops_on_the_clock():
    player = OpenSpielMcts(seconds_per_move=0.02, seed=1)
    game = Game("layli-goobalay-long")
    start = time.perf_counter()
    move = player.choose(game)
    took = time.perf_counter() - start
    assert move in game.legal_moves()
    assert 0.02 <= player.last["seconds"] < 0.2 and took < 0.5, player.last


@pytest.mark.parametrize("kwargs, complaint", [
    ({}, "neither"),
    ({"seconds_per_move": 0.1, "simulations": 10}, "both"),
    ({"seconds_per_move": 0}, "seconds_per_move must be more than 0"),
    ({"simulations": 1}, "simulations must be a whole number >= 2"),
    ({"simulations": 2.5}, "simulations must be a whole number >= 2"),
])
def test_mcts_refuses_a_budget_it_cannot_keep(kwargs, complaint):
    with pytest.raises(ValueError, match=complaint):
        OpenSpielMcts(**kwargs)


# --- the bench ---------------------------------------------------------------------------------

class Recorder:
    """Wraps a player and notes the colour it played and the opening it found in each game."""

    def __init__(self, player):
        self.player = player
        self.colours = []
        self.openings = []
        self.game = None

    def choose(self, game):
        if game is not self.game:       # play_game makes a new Game for every game
            self.game = game
            self.colours.append(game.to_move)
            self.openings.append(list(game.moves))
        return self.player.choose(game)


def test_a_pair_is_one_opening_played_with_each_colour_and_the_counts_add_up():
    computer = Recorder(greedy_stand_in(1))
    pairs = play_pairs("layli-goobalay", 3, computer, RandomPlayer(2), "random", seed=5)
    assert computer.colours == [0, 1, 0, 1, 0, 1]
    # the same two random moves open both games of a pair (South's first move is not ours)
    assert [len(moves) for moves in computer.openings] == [2, 3] * 3
    for k in range(3):
        assert computer.openings[2 * k + 1][:2] == computer.openings[2 * k]
        assert computer.openings[2 * k] == opening("layli-goobalay", 2, 5 + k)
    assert computer.openings[0] != computer.openings[2]          # each pair its own opening
    assert pairs.pairs == 3 and sum(pairs.games) == 6
    assert pairs.moves[0] > 0 and pairs.moves[1] > 0
    assert pairs.score == (pairs.outcomes[0] + pairs.outcomes[1] / 2) / 3


def test_a_pair_is_won_by_the_seeds_of_both_games_not_by_the_games():
    """A computer that wins one game 30-18 and loses the other 20-28 gathers 58 seeds to 38:
    the pair is its."""
    class Over:
        def __init__(self, scores):
            self.scores = scores

        def winner(self):
            return None if self.scores[0] == self.scores[1] else int(
                self.scores[1] > self.scores[0])

    pairs = Pairs("greedy")
    pairs.add([Over([30, 18]), Over([28, 20])], [0, 1])     # South 30-18; as North 20-28
    assert pairs.outcomes == [1, 0, 0] and pairs.games == [1, 0, 1]
    assert pairs.seeds == [50, 46]
    pairs.add([Over([24, 24]), Over([24, 24])], [0, 1])
    pairs.add([Over([10, 38]), Over([30, 18])], [0, 1])
    assert pairs.outcomes == [1, 1, 1] and pairs.games == [1, 2, 3]
    assert pairs.as_json() == {"pairs": 3, "pairs_won": 1, "pairs_drawn": 1, "pairs_lost": 1,
                               "score": 0.5, "interval": [0.1253, 0.8747],
                               "games": {"wins": 1, "draws": 2, "losses": 3}}
    assert "pairs won   1  drawn   1  lost   1   score  50.0%" in pairs.line("strongest")


def test_bench_plays_every_opponent_with_a_stand_in_computer():
    results = bench("tampoduo", 2, 0.01, ("random", "greedy", "openspiel_mcts"), seed=4,
                    make_computer=greedy_stand_in)
    assert list(results) == ["random", "greedy", "openspiel_mcts"]
    for name, pairs in results.items():
        assert pairs.opponent == name and pairs.pairs == 2 and sum(pairs.games) == 4
        assert pairs.seconds_per_move(1) < 0.1


def test_the_ten_times_mcts_thinks_ten_times_as_long():
    mcts = make_opponent("openspiel_mcts", 0.01, 1)
    mcts_10x = make_opponent("openspiel_mcts_10x", 0.01, 1)
    assert mcts.seconds_per_move == 0.01 and mcts_10x.seconds_per_move == pytest.approx(0.1)


def test_a_level_is_an_opponent_and_the_levels_below_play_their_own_budgets():
    from controller.ai import LEVELS, Searcher

    assert LEVELS == ("beginner", "easy", "medium", "hard", "strongest")
    easy = make_opponent("easy", 0.5, 3)
    assert isinstance(easy, Searcher) and easy.level == "easy"
    results = bench("layli-goobalay", 1, 0.01, ("beginner",), seed=2, level="easy")
    assert results["beginner"].pairs == 1 and sum(results["beginner"].games) == 2


def test_the_same_seed_plays_the_same_pairs_when_nothing_is_timed():
    first = bench("layli-goobalay", 3, 0.01, ("random", "greedy"), seed=7,
                  make_computer=greedy_stand_in)
    again = bench("layli-goobalay", 3, 0.01, ("random", "greedy"), seed=7,
                  make_computer=greedy_stand_in)
    assert [p.as_json() for p in first.values()] == [p.as_json() for p in again.values()]


def test_an_illegal_move_names_the_player_and_the_ply():
    class Cheat:
        def choose(self, game):
            return 99

    with pytest.raises(RuntimeError, match=r"ply 4: cheat \(North\) chose 99, which is not "
                                           r"legal: "):
        play_pairs("layli-goobalay", 1, greedy_stand_in(1), Cheat(), "cheat")


@pytest.mark.parametrize("score, games, low, high", [
    (81, 263, 0.2553, 0.3662),      # Newcombe (1998), example (a): the score method
    (0, 10, 0.0, 0.2775),           # z^2 / (n + z^2) at the top
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (7.5, 10, 0.4422, 0.9191),      # draws as halves: 7 wins, 1 draw, 2 losses (by hand)
])
def test_the_wilson_interval_on_known_inputs(score, games, low, high):
    got = wilson_interval(score, games)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_the_wilson_interval_refuses_impossible_scores():
    with pytest.raises(ValueError, match="at least one game"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="a score of 11 is not between 0 and 10 games"):
        wilson_interval(11, 10)


# --- the command -------------------------------------------------------------------------------

def test_bench_ai_json_has_exactly_the_opponents_and_their_counts(capsys):
    assert main(["bench", "ai", "--pairs", "1", "--seconds-per-move", "0.01", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report) == ["random", "greedy", "openspiel_mcts", "openspiel_mcts_10x"]
    for counts in report.values():
        assert set(counts) == {"pairs", "pairs_won", "pairs_drawn", "pairs_lost", "score",
                               "interval", "games"}
        assert counts["pairs"] == 1 == (counts["pairs_won"] + counts["pairs_drawn"]
                                        + counts["pairs_lost"])
        assert sum(counts["games"].values()) == 2
        low, high = counts["interval"]
        assert 0 <= low <= counts["score"] <= high <= 1


def test_bench_ai_table_names_the_interval(capsys):
    assert main(["bench", "ai", "--variant", "mangala-iv", "--pairs", "1", "--level", "easy",
                 "--opponents", "greedy,beginner"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].startswith("easy vs greedy") and lines[2].startswith("easy vs beginner")
    assert "Wilson score interval" in lines[-1]


@pytest.mark.parametrize("argv, complaint", [
    (["--pairs", "0"], "--pairs"),
    (["--pairs", "many"], "--pairs"),
    (["--level", "grandmaster"], "--level"),
    (["--opening-plies", "21"], "--opening-plies"),
    (["--seconds-per-move", "0"], "--seconds-per-move"),
    (["--seconds-per-move", "-1"], "--seconds-per-move"),
    (["--seconds-per-move", "61"], "--seconds-per-move"),
    (["--opponents", "random,alphazero"], "unknown opponent 'alphazero'"),
    (["--opponents", "greedy,greedy"], "opponent 'greedy' given twice"),
    (["--variant", "oware"], "--variant"),
    (["--seed", "-3"], "--seed"),
])
def test_bench_ai_bad_arguments(capsys, argv, complaint):
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "ai", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: " in err and complaint in err, err
