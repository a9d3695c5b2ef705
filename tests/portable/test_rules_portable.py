"""Plain test functions for the rules engine that run under CPython (pytest) and MicroPython.

No pytest here: tests/test_micropython.py copies this file into MicroPython and calls every
test_* function with controller/micropython/plain_tests.py. Random games use the engine's own
Random30, not `random`, whose generators differ between the runtimes: both play the same games.
"""

from controller.rules import Game, Match, RulesError, VARIANTS
from controller.rules.replay import replay
from controller.rules.rng import Random30
from helpers import raises

GAMES_PER_VARIANT = 2
MAX_PLIES = 150         # random games end by themselves (repetition rule); this bounds the time


def _variants():
    return sorted(VARIANTS)





def _random_games(variant, count=GAMES_PER_VARIANT):
    """Yield (game, chooser) for `count` fresh games; the caller plays them with _pick."""
    for seed in range(1, count + 1):
        yield Game(variant), Random30(seed * 7919)


def _pick(game, chooser):
    """A legal move chosen by `chooser`, or None when the game is over."""
    legal = game.legal_moves()
    if not legal:
        return None
    return legal[chooser.randrange(len(legal))]


def _total(game):
    return sum(game.pits) + game.captured[0] + game.captured[1]


class _Board:
    """Counts of the pits, the two stores and the hand, changed one step at a time (docs/rules.md
    section 7), checking that each step is possible."""

    def __init__(self, game):
        self.pits = game.pits[:]
        self.stores = game.captured[:]
        self.hand = 0

    def apply(self, step, mover):
        kind = step[0]
        pits = self.pits
        if kind == "pick":
            assert pits[step[1]] == step[2] and step[2] > 0, step
            pits[step[1]] = 0
            self.hand += step[2]
        elif kind == "drop":
            assert self.hand > 0, step
            self.hand -= 1
            pits[step[1]] += 1
        elif kind == "uur":
            assert pits[step[2]] > 0, step
            pits[step[2]] -= 1
            pits[step[1]] += 1
        elif kind == "capture":
            assert 0 < step[2] <= pits[step[1]], step
            pits[step[1]] -= step[2]
            self.stores[mover] += step[2]
        elif kind == "collect":
            assert 0 < step[2] == pits[step[1]], step
            pits[step[1]] = 0
            self.stores[step[3]] += step[2]
        else:
            assert kind == "pass" and step[1] in (0, 1), step


def test_standard_starts():
    for variant in _variants():
        game = Game(variant)
        n = game.rules.n
        assert len(game.pits) == 2 * n
        assert game.ply == 0 and not game.over
        assert game.legal_moves() == list(range(1, n + 1)) or game.rules.mangala


def test_setup_as_list_or_tuple():
    setup = [5, 3, 2, 1, 0, 4, 3, 0, 1, 3, 5, 14]
    assert Game("layli-goobalay", setup=setup).pits == setup
    assert Game("layli-goobalay", setup=tuple(setup)).pits == setup
    raises(RulesError, Game, "layli-goobalay", None, "4,4,4")
    raises(RulesError, Game, "layli-goobalay", None, [4] * 11)


def test_seeds_conserved_in_random_games():
    for variant in _variants():
        for game, chooser in _random_games(variant):
            total = _total(game)
            while game.ply < MAX_PLIES:
                move = _pick(game, chooser)
                if move is None:
                    break
                game.push(move)
                assert _total(game) == total, (variant, game.moves)
                assert min(game.pits) >= 0
            if game.over:
                left = game.on_board if game.end_reason == "one-stone" else 0
                assert sum(game.scores) + left == total, (variant, game.moves)


def test_legal_is_legal_moves_shared_and_unchangeable():
    """`legal` is legal_moves() without a list made: the same moves, the same tuple each
    time it is read, through a game and at its end."""
    for variant in _variants():
        for game, chooser in _random_games(variant, 2):
            while game.ply < MAX_PLIES:
                legal = game.legal
                assert isinstance(legal, tuple) and game.legal is legal
                assert list(legal) == game.legal_moves()
                move = _pick(game, chooser)
                if move is None:
                    break
                game.push(move)
            assert game.legal == () or game.ply >= MAX_PLIES


def test_step_script_carries_out_the_move():
    for variant in _variants():
        for game, chooser in _random_games(variant):
            board = _Board(game)
            while game.ply < MAX_PLIES:
                move = _pick(game, chooser)
                if move is None:
                    break
                mover = game.to_move
                board = _Board(game)
                steps = game.push(move, script=True)
                collected = [step for step in steps if step[0] == "collect"]
                for step in steps:
                    if step[0] != "collect":
                        board.apply(step, mover)
                assert board.hand == 0, (variant, game.moves)
                assert board.pits == game.pits, (variant, game.moves, steps)
                assert board.stores == game.captured, (variant, game.moves, steps)
                for step in collected:
                    board.apply(step, mover)
            if game.over:
                assert board.stores == game.scores, (variant, game.moves)


def test_push_pop_restores_the_position():
    for variant in _variants():
        game, chooser = next(_random_games(variant, 1))
        lines = [game.state_json()]
        for _ in range(12):
            move = _pick(game, chooser)
            if move is None:
                break
            game.push(move)
            lines.append(game.state_json())
        while game.moves:
            lines.pop()
            game.pop()
            assert game.state_json() == lines[-1], variant
        raises(RulesError, game.pop)


def test_illegal_move_names_the_legal_ones():
    game = Game("layli-goobalay", setup=[0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4])
    error = raises(RulesError, game.push, 1)      # an empty pit
    assert str(error) == ("ply 1: South's move 1 is not legal: pit 1 is empty "
                          "(legal: 2, 3, 4, 5, 6)"), str(error)
    error = raises(RulesError, game.push, 7)
    assert "1..6" in str(error), str(error)
    assert game.ply == 0 and game.pits[0] == 0


def test_replay_writes_state_json():
    lines = []
    game = replay("layli-goobalay", None, None, 0, ["3", 4], False, lines.append)
    assert len(lines) == 3
    assert lines[-1] == game.state_json()
    assert lines[0].startswith('{"ply": 0, "pits": [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], ')
    lines = []
    raises(RulesError, replay, "layli-goobalay", None, None, 0, ["x"], False, lines.append)
    assert len(lines) == 1


def test_random30_is_the_same_everywhere():
    chooser = Random30(1)
    assert [chooser.next() for _ in range(3)] == [80018, 1053956584, 835173437]
    assert Random30(0).state == 1 and Random30(1073741788).state == 1   # never zero
    draws = [chooser.randrange(6) for _ in range(600)]
    assert min(draws) == 0 and max(draws) == 5


def test_match_hands():
    chooser = Random30(2024)
    match = Match("layli-goobalay")
    total = match.total
    for _ in range(3):
        game = match.game
        while True:
            move = _pick(game, chooser)
            if move is None:
                break
            game.push(move)
            assert match.seeds_accounted() == total
        holdings = match.end_hand()
        assert holdings[0] + holdings[1] == total, holdings
        if match.over:
            assert match.winner in (0, 1, None)
            break
        arranger = match.arranger
        held = holdings[arranger]
        n = match.rules.n
        row = [held // n] * n
        row[n - 1] += held - sum(row)
        game = match.arrange(row)
        assert game.row(arranger) == row and game.row(1 - arranger) == row
        assert match.seeds_accounted() == total
        raises(RulesError, match.arrange, row)     # the next hand is in play


def test_copy_is_independent():
    game = Game("layli-goobalay")
    game.push(3)
    twin = game.copy()
    twin.push(twin.legal_moves()[0])
    assert game.ply == 1 and twin.ply == 2 and game.moves == [3]
    assert game.state_json() != twin.state_json()
    game.pop()
    assert game.ply == 0 and twin.ply == 2
