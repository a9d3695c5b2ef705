"""Plain tests of the computer opponent, hints and analysis (controller/ai) that run under
CPython (pytest) and MicroPython (tests/test_micropython.py). Small node budgets keep them
quick on MicroPython; the matches and timings are in tests/test_ai.py.
"""

from controller.rules import Game, RulesError, VARIANTS
from controller.rules.game import ENDLESS
from controller.rules.record import read, write_game
from controller.ai import Searcher, LEVELS, BUDGETS, hint, analyse, evaluate
from controller.ai.search import sown
from helpers import raises

# South to move: pit 5 sows one seed into the empty pit 6, whose opposite holds 5: 6 seeds.
CAPTURE = [1, 0, 0, 0, 1, 0, 5, 0, 0, 0, 0, 2]
# South to move, no capture: pit 1 gives North a capture of 5 and pit 4 one of 3; pit 3 none.
DENY = [1, 0, 4, 4, 0, 0, 2, 2, 1, 0, 0, 0]


def _play_out(game, searcher, plies):
    """Let `searcher` play both sides for up to `plies` moves; checks each move is legal and
    that choose leaves the game as it was."""
    for _ in range(plies):
        if game.over:
            return
        before = game.state_json()
        legal = game.legal_moves()
        move = searcher.choose(game)
        assert game.state_json() == before
        assert move in legal, (move, legal)
        assert searcher.last["move"] == move and searcher.last["pv"][0] == move
        assert searcher.last["depth"] >= 1 and searcher.last["nodes"] >= 1
        game.push(move)


def test_levels_are_the_contract():
    assert LEVELS == ("beginner", "easy", "medium", "hard", "strongest")
    for level in LEVELS:
        assert level in BUDGETS
    assert "pico" in BUDGETS


def test_every_variant_gets_legal_moves():
    for variant in sorted(VARIANTS):
        _play_out(Game(variant), Searcher("medium", seed=3, nodes=150), 6)


def test_every_level_gets_a_legal_move():
    for level in LEVELS + ("pico",):
        game = Game("layli-goobalay")
        game.replay([3, 1])
        searcher = Searcher(level, seed=2, nodes=None if level == "strongest" else 300,
                            time_ms=50 if level == "strongest" else None)
        _play_out(game, searcher, 1)


def test_same_seed_and_nodes_same_moves():
    def moves(seed):
        game = Game("layli-goobalay")
        searcher = Searcher("hard", seed=seed, nodes=400)
        found = []
        while not game.over and len(found) < 8:
            found.append((searcher.choose(game), searcher.last["score"], searcher.last["nodes"]))
            game.push(found[-1][0])
        return found
    assert moves(5) == moves(5)


def test_takes_the_capture():
    game = Game("layli-goobalay", setup=CAPTURE)
    assert Searcher("easy").choose(game) == 5
    assert hint(game, Searcher("easy")) == (5, "captures 6 seeds")


def test_denies_the_opponent_a_capture():
    game = Game("layli-goobalay", setup=DENY)
    searcher = Searcher("medium", nodes=500)
    assert searcher.choose(game) == 3
    assert searcher.last["score"] >= -4     # not -5: nothing is given away
    assert hint(game, searcher) == (3, "denies North a capture of 5")


def test_hint_says_makes_an_uur():
    # South's pit 2 sows one seed into the empty pit 3, whose opposite holds 3: an Uur pair.
    game = Game("layli-goobalay", setup=[0, 1, 0, 0, 0, 0, 0, 1, 0, 3, 0, 0])
    move, reason = hint(game, Searcher("easy"))
    assert (move, reason) == (2, "makes an Uur")


def test_hint_of_a_quiet_move_names_the_seeds_kept():
    game = Game("layli-goobalay")
    game.replay([3, 1, 2])
    move, reason = hint(game, Searcher("easy", seed=1))
    assert move in game.legal_moves()
    assert reason, reason
    assert "\n" not in reason


def test_never_an_endless_move():
    # endless=illegal (the default): legal_moves leaves out every move whose relay exceeds
    # the bound; endless=abar makes them legal, and the searcher still leaves them alone
    for endless in ("illegal", "abar"):
        game = Game("layli-goobalay", {"endless_bound": 30, "endless": endless})
        searcher = Searcher("easy", seed=7)
        seen = 0
        while not game.over and game.ply < 30:
            legal = game.legal_moves()
            lasting = [move for move in legal if sown(game, move)[2] == ENDLESS]
            if endless == "illegal":
                assert lasting == []
            seen += len(lasting)
            move = searcher.choose(game)
            assert move not in lasting or len(lasting) == len(legal)
            game.push(move)
        if endless == "abar":
            assert seen > 0     # the test met endless moves (10 of them in 18 plies)


def test_time_budget_reads_the_clock():
    ticks = [0]

    def clock():
        ticks[0] += 1       # a millisecond passes at every reading
        return ticks[0]
    searcher = Searcher("strongest", time_ms=20, now_ms=clock)
    move = searcher.choose(Game("layli-goobalay"))
    assert move in range(1, 7)
    assert ticks[0] <= 22   # the search stopped when the clock said so


def test_pico_table_stays_bounded():
    searcher = Searcher("pico", seed=1, nodes=600)
    game = Game("layli-goobalay")
    game.replay([3, 1])
    searcher.choose(game)
    assert 0 < len(searcher.table) <= 256


def test_bad_levels_and_budgets_are_named():
    assert "unknown level 'grandmaster'" in str(raises(ValueError, Searcher, "grandmaster"))
    error = raises(ValueError, Searcher, "easy", 1, None, 0)
    assert "nodes must be a whole number >= 1, not 0" in str(error)
    over = Game("layli-goobalay", setup=[0] * 6 + [1] * 6)
    assert "game is over" in str(raises(ValueError, Searcher("easy").choose, over))


def test_evaluation_counts_captures_and_uurs():
    game = Game("layli-goobalay", setup=[0, 1, 0, 0, 0, 0, 0, 1, 0, 3, 0, 0], captured=[5, 1])
    assert evaluate(game) == (5 - 1) * 4 + (1 - 4)     # captures, then a quarter a seed
    game.push(2)                                        # the Uur pair: 4 seeds banked
    assert evaluate(game) == -((5 + 4 - 1) * 4 + (0 - 1))


def test_analysis_goes_into_the_record_and_back():
    game = Game("layli-goobalay")
    searcher = Searcher("easy", seed=4)
    while not game.over:
        game.push(searcher.choose(game))
    report = analyse(game, nodes=120)
    assert [entry["move"] for entry in report.plies] == game.moves
    comments = report.comments()
    assert len(comments) == len(game.moves)
    for entry in report.plies:
        assert entry["loss"] >= 0 and entry["best"] in range(1, 7)
    final = game.scores[0] - game.scores[1]
    assert report.plies[-1]["score"] == final       # the last position is scored exactly
    text = write_game(game, report.tags(), comments=comments)
    assert "{" + comments[0] + "}" in text
    again, tags = read(text)
    assert again.moves == game.moves
    assert tags[0]["Mistakes"] == report.tags()["Mistakes"]
    assert analyse(text, nodes=120).comments() == comments     # from the record: the same


def test_record_comments_are_checked():
    game = Game("layli-goobalay")
    game.replay([3, 1])
    error = raises(RulesError, write_game, game, None, ["+1.0"])
    assert "one text (or None) per move: 2 moves" in str(error)
    error = raises(RulesError, write_game, game, None, ["+1.0", "a } b"])
    assert "comment 2" in str(error)
    text = write_game(game, None, [None, "-2.5 ?? best 1"])
    assert "1. 3 1 {-2.5 ?? best 1} *" in text
    assert read(text)[0].moves == [3, 1]


def test_book_replies_from_the_standard_start_only():
    from controller.ai.book import BOOK, book_move
    for variant, lines in BOOK.items():
        for line, reply in lines.items():
            game = Game(variant)
            game.replay(list(line))
            assert reply in game.legal_moves(), (variant, line, reply)
            assert book_move(game) == reply
    game = Game("layli-goobalay")
    assert book_move(game) is None                  # South's first move is the search's
    game.push(4)
    assert book_move(game) is None                  # not in the book: North is winning here
    for other in (Game("layli-goobalay", setup=[5, 3] + [4] * 10),
                  Game("layli-goobalay", options={"capture_last_seed": False}),
                  Game("layli-goobalay", captured=[0, 0], first_move=False)):
        other.push(3)
        assert book_move(other) is None, other.setup


def test_hard_and_strongest_play_the_book_and_say_so():
    game = Game("layli-goobalay")
    game.push(3)
    for level in ("hard", "strongest"):
        searcher = Searcher(level, seed=5, nodes=300)
        assert searcher.choose(game) == 1
        assert searcher.last["book"] is True and searcher.last["pv"][0] == 1
        assert searcher.last["depth"] == 1
    for searcher in (Searcher("medium", seed=5, nodes=300),
                     Searcher("strongest", seed=5, nodes=300, book=False)):
        searcher.choose(game)
        assert "book" not in searcher.last
        assert searcher.last["depth"] > 1
    game.push(1)
    searcher = Searcher("strongest", seed=5, nodes=300)
    searcher.choose(game)
    assert "book" not in searcher.last              # past the book: the search again


def test_a_decided_game_scores_its_result_then_its_margin():
    from controller.ai.search import final_score, final_margin, in_seeds, WON, SCALE
    from controller.rules.rng import Random30
    rng = Random30(11)
    game = Game("layli-goobalay")
    while game.play_random(rng) is not None:
        pass
    margin = final_margin(game)
    score = final_score(game)
    assert score == (margin + WON if margin > 0 else margin - WON if margin < 0 else 0)
    assert in_seeds(score) == margin / SCALE
    assert in_seeds(-score) == -margin / SCALE
    assert in_seeds(3 * SCALE) == 3.0 and in_seeds(-7) == -1.75       # undecided: as it is
    assert final_score(game, 0) == margin and in_seeds(margin, 0) == margin / SCALE
    # a few plies before that end, searched to the end: the score the searcher reports is the
    # margin in seeds, never the bonus
    moves = game.moves
    start = Game("layli-goobalay")
    start.replay(moves[:len(moves) - 4])
    for result_first in (True, False):
        searcher = Searcher("strongest", seed=1, nodes=20000, book=False,
                            result_first=result_first)
        searcher.choose(start)
        assert abs(searcher.last["score"]) <= 48, searcher.last
