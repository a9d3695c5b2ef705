"""Game records (controller.rules.record): PGN-style text and JSON, round trips and bad input."""

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from controller.rules import Game, Match, Rules, RulesError, deal_random_setup
from controller.rules.record import (game_to_json, match_to_json, read, read_all, read_games,
                                     read_json, result_text, write_game, write_match)

VECTORS = os.path.join(os.path.dirname(__file__), "vectors", "shared_rules.jsonl")

# (variant, options) pairs the round trips cover: every variant, defaults and non-defaults.
RULES = [
    ("layli-goobalay", None),
    ("layli-goobalay", {"capture_last_seed": False}),
    ("layli-goobalay", {"end_when": "either", "first_move_right": True}),
    ("layli-goobalay-long", None),
    ("layli-goobalay-long", {"pits": 8, "direction": "counterclockwise"}),
    ("tampoduo", None),
    ("tampoduo", {"must_feed": True}),
    ("mangala-iv", None),
    ("mangala-iv", {"start": "free"}),
    ("mangala-iv", {"start": "rightmost", "first": 1}),
]


def play_random(game, rng, limit=None):
    """Play random legal moves until the game is over (or `limit` plies)."""
    while not game.over and (limit is None or game.ply < limit):
        game.push(game.random_move(rng))
    return game


def positions(game):
    """Every position of `game` from its start, as docs/rules.md section 8's JSON lines."""
    replay = Game(game.rules, None, game.setup, game.first)
    lines = [replay.state_json()]
    for move in game.moves:
        replay.push(move)
        lines.append(replay.state_json())
    return lines


def assert_same_game(got, want):
    assert got.rules.name == want.rules.name
    assert got.rules.options == want.rules.options
    assert got.setup == want.setup
    assert got.first == want.first
    assert got.moves == want.moves
    assert got.state_json() == want.state_json()
    assert got.scores == want.scores
    assert got.end_reason == want.end_reason
    assert positions(got) == positions(want)


def arrange_randomly(match, rng):
    """Start the next hand with a random arrangement the rules allow."""
    n = match.rules.n
    held = match.holdings[match.arranger]
    rows = []
    for _ in range(2):
        counts = [1] * n
        for _ in range(held - n):
            counts[rng.randrange(n)] += 1
        rows.append(counts)
    if match.rules.options["arrangement"] == "mirror":
        return match.arrange(rows[0])
    return match.arrange(rows[0], rows[1])


def random_match(seed, variant="layli-goobalay", options=None, most=4):
    rng = random.Random(seed)
    match = Match(variant, options)
    while True:
        play_random(match.game, rng)
        if len(match.games) == most:
            return match
        match.end_hand()
        if match.over:
            return match
        arrange_randomly(match, rng)


def short_game():
    game = Game("layli-goobalay")
    for move in (1, 1, 3):
        game.push(move)
    return game


# --- round trips ------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), which=st.integers(0, len(RULES) - 1),
       first=st.sampled_from([0, 1]))
def test_random_games_round_trip_as_text_and_json(seed, which, first):
    variant, options = RULES[which]
    game = play_random(Game(variant, options, first=first), random.Random(seed))
    text = write_game(game)
    got, tags = read(text)
    assert isinstance(got, Game)
    assert_same_game(got, game)
    assert len(tags) == 1 and tags[0]["Variant"] == variant
    assert tags[0]["Result"] == result_text(game)
    assert write_game(got, tags[0]) == text          # the read tags can be passed back
    for line in text.split("\n"):
        assert len(line) <= 80
    got, tags = read_json(game_to_json(game))
    assert_same_game(got, game)
    assert game_to_json(got, tags[0]) == game_to_json(game)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), limit=st.integers(0, 12))
def test_unfinished_games_round_trip_with_a_star(seed, limit):
    game = play_random(Game("tampoduo"), random.Random(seed), limit)
    text = write_game(game)
    got, tags = read(text)
    assert_same_game(got, game)
    if not game.over:
        assert tags[0]["Result"] == "*"
        assert text.endswith(" *\n") or text.endswith("\n*\n")
        assert "Score" not in tags[0] and "Termination" not in tags[0]


@settings(max_examples=20, deadline=None)
@given(deal=st.integers(0, 2 ** 32 - 1), seed=st.integers(0, 2 ** 32 - 1))
def test_mangala_random_setup_is_carried_as_counts(deal, seed):
    rules = Rules("mangala-iv", {"setup": "random"})
    setup = deal_random_setup(rules, deal)
    game = play_random(Game(rules, setup=setup), random.Random(seed))
    got, tags = read(write_game(game))
    assert tags[0]["Options"] == "setup=random"
    assert tags[0]["Setup"] == ",".join([str(count) for count in setup])
    assert_same_game(got, game)
    got, _tags = read_json(game_to_json(game))
    assert_same_game(got, game)


def test_options_tag_lists_the_non_default_options():
    game = play_random(Game("layli-goobalay", {"capture_last_seed": "false", "hands": 3}),
                       random.Random(7))
    got, tags = read(write_game(game))
    assert tags[0]["Options"] == "capture_last_seed=false hands=3"
    assert got.rules.options["capture_last_seed"] is False
    assert got.rules.options["hands"] == 3
    assert_same_game(got, game)


def test_a_game_where_north_moves_first():
    game = Game("layli-goobalay", first=1)
    for move in (2, 1, 1):
        game.push(move)
    text = write_game(game)
    assert '[First "North"]' in text
    assert text.endswith("\n\n1... 2 2. 1 1 *\n")
    got, _tags = read(text)
    assert got.first == 1
    assert_same_game(got, game)


def test_mangala_passes_are_implied_and_numbered_with_three_dots():
    game = Game("mangala-iv", setup=[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0], first=0)
    while not game.over:
        game.push(game.legal_moves()[0])
    text = write_game(game)
    # South sows into North's row and then passes while North plays on, so North's moves
    # answer no South move: they take numbers of their own
    assert text.endswith("\n\n1. 7 1 2... 2 3... 3 4... 4 5... 5 6. 1 1-0\n")
    assert '[Score "2-0"]' in text and '[Termination "one-stone"]' in text
    got, _tags = read(text)
    assert_same_game(got, game)
    # move numbers are not checked: the same moves bare read the same game
    bare = text.replace("1. 7 1 2... 2 3... 3 4... 4 5... 5 6. 1", "7 1 2 3 4 5 1")
    assert read(bare)[0].moves == game.moves


def test_the_test_vectors_round_trip():
    with open(VECTORS) as handle:
        vectors = [json.loads(line) for line in handle if line.strip()]
    assert vectors
    for vector in vectors:
        game = Game(vector["variant"], vector["options"], vector["setup"], vector["first"])
        game.replay(vector["moves"])
        if vector["to_end"]:
            while not game.over:
                game.push(game.legal_moves()[0])
        assert game.state_json() == json.dumps(vector["positions"][-1]), vector["name"]
        got, _tags = read(write_game(game))
        assert_same_game(got, game)
        assert got.state_json() == json.dumps(vector["positions"][-1]), vector["name"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1),
       rules=st.sampled_from([("layli-goobalay", None),
                              ("layli-goobalay", {"arrangement": "free",
                                                  "next_first": "alternate"}),
                              ("layli-goobalay-long", {"pits": 6}),
                              ("tampoduo", {"hands": 3})]))
def test_matches_round_trip(seed, rules):
    variant, options = rules
    match = random_match(seed, variant, options)
    text = write_match(match)
    got, tags = read(text)
    assert isinstance(got, Match)
    assert len(got.games) == len(match.games) == len(tags)
    for k in range(len(match.games)):
        assert_same_game(got.games[k], match.games[k])
        assert tags[k]["Hand"] == str(k + 1)
    assert tags[0]["Aside"] == "0,0"
    assert got.aside == match.aside or got.game.over    # an ended last hand is closed
    assert write_match(got, tags) == text
    # the reader closes a last hand that is over: as the writer's match is once closed
    if got.game.over:
        if match.holdings is None:
            match.end_hand()
        assert got.holdings == match.holdings
        assert (got.over, got.winner, got.arranger) == (match.over, match.winner, match.arranger)
    got, tags = read_json(match_to_json(match))
    assert [game.moves for game in got.games] == [game.moves for game in match.games]
    assert match_to_json(got, tags) == match_to_json(match)


def test_a_match_of_several_hands_carries_aside_and_first():
    for seed in range(200):
        match = random_match(seed)
        if len(match.games) >= 3:
            break
    assert len(match.games) >= 3
    got, tags = read(write_match(match, {"Event": "Final", "South": "Ayan", "North": "Hodan"}))
    n = match.rules.n
    for k in range(1, len(match.games)):
        before = match.games[k - 1]
        held = [before.scores[0] + int(tags[k - 1]["Aside"].split(",")[0]),
                before.scores[1] + int(tags[k - 1]["Aside"].split(",")[1])]
        setup = match.games[k].setup
        aside = [held[0] - sum(setup[:n]), held[1] - sum(setup[n:])]
        assert tags[k]["Aside"] == "%d,%d" % (aside[0], aside[1])
        assert min(aside) == 0      # only the player holding more holds seeds aside
        assert tags[k]["First"] == ("South", "North")[match.games[k].first]
        assert tags[k]["Event"] == "Final" and tags[k]["North"] == "Hodan"
    assert got.aside == match.aside or got.game.over
    assert read_games(write_match(match))[-1].moves == match.games[-1].moves


def test_several_games_in_one_file():
    one = play_random(Game("layli-goobalay"), random.Random(1))
    two = play_random(Game("mangala-iv"), random.Random(2))
    match = random_match(3, most=2)
    text = write_game(one) + "\n" + write_match(match) + "\n" + write_game(two)
    items = read_all(text)
    assert [type(item) for item, _tags in items] == [Game, Match, Game]
    assert_same_game(items[0][0], one)
    assert_same_game(items[2][0], two)
    games = read_games(text)
    assert [game.moves for game in games] == (
        [one.moves] + [game.moves for game in match.games] + [two.moves])
    with pytest.raises(RulesError, match="holds 3 games or matches, not one"):
        read(text)


def test_comments_and_loose_move_numbers_are_accepted():
    game = short_game()
    text = ('[Variant "layli-goobalay"]\n[Result "*"]\n\n'
            "{a comment\n[that spans lines]} 1.1 {after} 1 2... 3 {no South move: the\n"
            "number is not checked} * {after the result}\n")
    got, tags = read(text)
    assert got.moves == game.moves
    assert tags[0] == {"Variant": "layli-goobalay", "Result": "*"}
    assert got.setup == game.setup and got.first == 0


def test_windows_line_ends_and_tabs_are_read():
    game = play_random(Game("tampoduo"), random.Random(4))
    text = write_game(game).replace("\n", "\r\n").replace(" ", "\t")
    got, tags = read(text.replace('[Event\t"?"]', '[Event "?"]'))
    assert_same_game(got, game)
    assert tags[0]["Termination"] == game.end_reason


def test_json_is_one_line_in_a_fixed_order():
    text = game_to_json(short_game(), {"Site": "Hargeisa", "Round": 2, "Zeta": "z", "Alpha": "a"})
    assert text == (
        '{"tags": {"Event": "?", "Site": "Hargeisa", "Date": "????.??.??", "Round": "2", '
        '"South": "?", "North": "?", "Variant": "layli-goobalay", "Options": "", '
        '"Setup": "4,4,4,4,4,4,4,4,4,4,4,4", "Result": "*", "First": "South", '
        '"Alpha": "a", "Zeta": "z"}, "moves": [1, 1, 3]}')
    data = json.loads(text)
    assert data["moves"] == [1, 1, 3]


def test_escaped_tag_values_round_trip():
    tags = {"Event": 'The "Ayo" \\ cup', "South": "Çağrı"}
    text = write_game(short_game(), tags)
    assert '[Event "The \\"Ayo\\" \\\\ cup"]' in text
    _game, got = read(text)
    assert got[0]["Event"] == tags["Event"] and got[0]["South"] == "Çağrı"
    _game, got = read_json(game_to_json(short_game(), tags))
    assert got[0]["Event"] == tags["Event"] and got[0]["South"] == "Çağrı"


# --- bad moves --------------------------------------------------------------------------------


def test_an_illegal_move_names_the_move_and_the_legal_ones():
    text = write_game(short_game()).replace("1. 1 1 2. 3", "1. 1 4 2. 3")
    with pytest.raises(RulesError) as caught:
        read(text)
    assert str(caught.value) == "line 13, move 1 (North 4): not legal (legal: 1, 2, 5, 6)"


def test_an_illegal_move_in_a_match_names_the_hand():
    match = random_match(5, most=2)
    assert len(match.games) == 2
    text = write_match(match)
    head, moves = text.rsplit("\n\n", 1)
    game = Game(match.rules, None, match.games[1].setup, match.games[1].first)
    for move in match.games[1].moves[:3]:
        game.push(move)
    mover = ("South", "North")[game.to_move]
    bad = [m for m in range(1, match.rules.n + 1) if m not in game.legal_moves()][0]
    moves = " ".join([str(m) for m in match.games[1].moves[:3]] + [str(bad), "*"])
    with pytest.raises(RulesError) as caught:
        read(head + "\n\n" + moves + "\n")
    message = str(caught.value)
    assert ", hand 2, move " in message
    assert "(%s %d): not legal (legal: %s)" % (
        mover, bad, ", ".join([str(m) for m in game.legal_moves()])) in message
    assert "\n" not in message


def test_moves_after_the_end_and_off_the_board_are_refused():
    game = Game("mangala-iv", setup=[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0])
    while not game.over:
        game.push(game.legal_moves()[0])
    text = write_game(game)
    # the game ends with South's 1: whatever number it is given, the next move is North's
    with pytest.raises(RulesError, match=r"line 15, move 6 \(North 2\): the game is already "
                                         r"over \(one-stone\)"):
        read(text.replace("6. 1 1-0", "6. 1 7. 2 1-0"))
    with pytest.raises(RulesError, match=r"line 15, move 1 \(South 9\): not a pit number 1..7"):
        read(text.replace("1. 7 1 2...", "1. 9 1 2..."))


# --- malformed records ------------------------------------------------------------------------


def bad(text, *fragments):
    """Reading `text` raises RulesError whose one-line message holds every fragment."""
    with pytest.raises(RulesError) as caught:
        read(text)
    message = str(caught.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_malformed_records_say_what_and_where():
    good = write_game(short_game())
    assert read(good)[0].moves == [1, 1, 3]
    bad(good.replace('[Site "?"]', '[Site "?]'), "line 2: bad tag line")
    bad(good.replace('[Site "?"]', "[Site ?]"), "line 2: bad tag line")
    bad(good.replace('[Site "?"]', '[Site "a\\b"]'), "line 2: bad tag line")
    bad(good.replace('[Site "?"]', '[Event "x"]'), "line 2: tag Event is given twice")
    bad(good.replace("layli-goobalay", "layli-goo"), "line 7: Variant: unknown variant 'layli-goo'")
    bad(good.replace('[Variant "layli-goobalay"]\n', ""), "no Variant tag")
    bad(good.replace('[Options ""]', '[Options "colour=red"]'),
        "line 8: Options: unknown option 'colour'")
    bad(good.replace('[Options ""]', '[Options "hands=many"]'),
        "line 8: Options: option hands of layli-goobalay 'many' is not a whole number")
    bad(good.replace("4,4,4,4,4,4,4,4,4,4,4,4", "4,4,4,4,4,4,4,4,4,4,4"),
        "line 9: Setup: set-up has 11 counts; layli-goobalay on 6 pits per row needs 12")
    bad(good.replace("4,4,4,4,4,4,4,4,4,4,4,4", "4,4,4,4,4,4,4,4,4,4,4,x"),
        "line 9: Setup: count 'x' is not a whole number")
    bad(good.replace('[Result "*"]', '[Result "1-0"]'),
        "line 10: Result: 1-0, but the game is not over after its moves")
    bad(good.replace('[Result "*"]', '[Result "win"]'), "line 10: Result: 'win' is not 1-0")
    bad(good.replace("3 *", "3 0-1"), "line 13: the movetext ends 0-1, but the game is not over")
    bad(good.replace('[First "South"]', '[First "East"]'), "line 11: First: 'East' is not South")
    bad(good.replace("2. 3", "2. e4"), "line 13: 'e4' is not a move")
    bad(good.replace("2. 3", "2.. 3"), "line 13: '2..' is not a move")
    bad(good.replace(" *\n", "\n"), "has no result at the end")
    bad(good.replace(" *\n", " * 4\n"), "line 13: '4' after the result *")
    bad(good.replace("2. 3", "{2. 3"), "line 13: a comment '{' is never closed")
    bad(good.replace("2. 3", "2. 3}"), "line 13: '}' without a '{'")
    bad(good.replace("\n[Round", "\nRound"), "line 4: 'Round' is not a move")
    bad("1. 3 *\n", "line 1: a record starts with tag lines")
    bad("", "the record holds no game")
    bad(good.replace(" *\n", "\n") + "\n" + good, "line 15: a tag line inside the movetext")
    bad(good.replace('[First "South"]', '[First "South"]\n[Aside "0,0"]'),
        "line 12: Aside: only the hands of a match")


def test_wrong_scores_and_terminations_are_refused():
    game = play_random(Game("layli-goobalay"), random.Random(11))
    text = write_game(game)
    score = "%d-%d" % tuple(game.scores)
    bad(text.replace('[Score "%s"]' % score, '[Score "99-0"]'), "Score: 99-0, but the game ends")
    bad(text.replace('[Termination "%s"]' % game.end_reason, '[Termination "resigned"]'),
        "Termination: resigned, but the game ends")
    other = "0-1" if result_text(game) != "0-1" else "1-0"
    bad(text.replace('[Result "%s"]' % result_text(game), '[Result "%s"]' % other),
        "line 10: Result: %s, but the game ends %s (%s, %s)" % (
            other, result_text(game), score, game.end_reason))


def test_malformed_matches_are_refused():
    match = random_match(5, most=2)
    text = write_match(match)
    first, second = text.split("\n\n[Event")
    second = "[Event" + second
    # hands out of order, a second hand without the first, a second hand with other options
    bad(second, "Hand: hand 2 where hand 1 should come")
    bad(first + "\n" + second.replace('[Hand "2"]', '[Hand "3"]'), "hand 3 where hand 2")
    bad(first + "\n" + second.replace('[Hand "2"]', '[Hand "two"]'), "Hand: 'two' is not")
    bad(first + "\n" + second.replace('[Hand "2"]', '[Hand "\u00b2"]'), "is not a hand number")
    bad(first + "\n" + second.replace('[Options ""]', '[Options "hands=9"]'),
        "hand 2: Variant: every hand of a match is played with the rules of hand 1")
    # an arrangement the rules do not allow, a wrong Aside, a wrong First
    setup = match.games[1].setup
    broken = setup[:6] + [setup[6] + 1, setup[7] - 1] + setup[8:]   # North's row, not a copy
    if setup[7] == 1:
        broken = setup[:6] + [setup[6] - 1, setup[7] + 1] + setup[8:]
    bad(first + "\n" + second.replace(
        '[Setup "%s"]' % ",".join(map(str, setup)),
        '[Setup "%s"]' % ",".join(map(str, broken))), "hand 2: Setup: the mirror arrangement")
    aside = second.split('[Aside "')[1].split('"')[0]
    bad(first + "\n" + second.replace('[Aside "%s"]' % aside, '[Aside "1,1"]'),
        "hand 2: Aside: 1,1, but the players hold %s aside" % aside)
    side = ("South", "North")[match.games[1].first]
    other = ("South", "North")[1 - match.games[1].first]
    bad(first + "\n" + second.replace('[First "%s"]' % side, '[First "%s"]' % other),
        "hand 2: First: %s, but %s moves first" % (other, side))
    # a hand after an unfinished one; a match of Mangala IV
    unfinished = first.rsplit("\n\n", 1)[0] + "\n\n*\n"
    unfinished = unfinished.replace('[Result "%s"]' % result_text(match.games[0]), '[Result "*"]')
    for name in ("Score", "Termination"):
        unfinished = "\n".join([line for line in unfinished.split("\n")
                                if not line.startswith("[%s " % name)])
    assert read(unfinished)[0].games[0].ply == 0
    bad(unfinished + "\n" + second, "Hand: hand 1 is not over, so no hand can follow it")
    mangala = write_game(Game("mangala-iv")).replace('[First "South"]',
                                                     '[First "South"]\n[Hand "1"]')
    bad(mangala, "Hand: mangala-iv is not played in hands")


def test_a_hand_after_the_end_of_the_match_is_refused():
    for seed in range(300):
        match = random_match(seed, options={"hands": 1})
        if match.games[0].winner() is not None:
            break
    assert match.over and match.holdings is not None
    text = write_match(match)
    extra = text.replace('[Hand "1"]', '[Hand "2"]').replace('[Aside "0,0"]', '[Aside "?"]')
    bad(text + "\n" + extra, "Hand: the match was over after hand 1")


def test_malformed_json_records_are_refused():
    good = game_to_json(short_game())
    assert read_json(good)[0].moves == [1, 1, 3]

    def bad_json(text, fragment):
        with pytest.raises(RulesError) as caught:
            read_json(text)
        assert fragment in str(caught.value), str(caught.value)

    bad_json("{", "not a JSON record")
    bad_json("[" * 100000, "not a JSON record")         # nested too deep: no RecursionError
    bad_json("[1, 2]", 'an object with "tags" and "moves"')
    bad_json('{"tags": {}, "moves": 3}', '"moves" must be a list')
    bad_json('{"tags": [], "moves": []}', '"tags" must be an object')
    bad_json(good.replace("[1, 1, 3]", "[1, true, 3]"), "move True is not a pit number")
    bad_json(good.replace('"Round": "?"', '"Round": 3'), "tag Round must be text")
    bad_json(good.replace("[1, 1, 3]", "[1, 4, 3]"), "move 1 (North 4): not legal")
    bad_json(good.replace('"Result": "*"', '"Result": "1-0"'), "Result: 1-0, but the game")
    bad_json(good.replace("layli-goobalay", "oware"), "Variant: unknown variant 'oware'")
    bad_json('{"hands": []}', '"hands" must be a list')
    bad_json('{"hands": [3]}', "hands[0] must be an object")
    match = random_match(5, most=2)
    text = match_to_json(match).replace('"Hand": "2"', '"Hand": "5"')
    bad_json(text, "hand 5: Hand: hand 5 where hand 2 should come")


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_damaged_records_never_raise_anything_but_rules_errors(data):
    text = write_match(random_match(data.draw(st.integers(0, 50)), most=2))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        insert = data.draw(st.text(alphabet='[]{}"\\ .0123456789-*/\nxNS', max_size=3))
        text = text[:at] + insert + text[at + cut:]
    try:
        read_all(text)
    except RulesError as error:
        assert "\n" not in str(error)


# --- writing ----------------------------------------------------------------------------------


def test_writing_refuses_what_a_record_cannot_carry():
    with pytest.raises(RulesError, match="starts from a position in play"):
        write_game(Game("layli-goobalay", captured=[2, 0],
                        setup=[4, 4, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4]))
    with pytest.raises(RulesError, match="control character"):
        write_game(short_game(), {"Event": "two\nlines"})
    with pytest.raises(RulesError, match="tag name '1st'"):
        write_game(short_game(), {"1st": "x"})
    with pytest.raises(RulesError, match="2 tag dicts for a match of 1 hands"):
        write_match(Match("tampoduo"), [{}, {}])


def test_tags_the_game_decides_come_from_the_game():
    game = short_game()
    text = write_game(game, {"Result": "1-0", "Variant": "oware", "Event": "E"})
    _game, tags = read(text)
    assert tags[0]["Result"] == "*" and tags[0]["Variant"] == "layli-goobalay"
    assert tags[0]["Event"] == "E"
    lines = text.split("\n")
    assert [line.split(" ")[0] for line in lines[:11]] == [
        "[Event", "[Site", "[Date", "[Round", "[South", "[North", "[Variant", "[Options",
        "[Setup", "[Result", "[First"]
    assert lines[2] == '[Date "????.??.??"]'


def test_digits_of_other_scripts_and_huge_numbers_are_refused():
    good = write_game(short_game())
    bad(good.replace("4,4,4,4,4,4,4,4,4,4,4,4", "4,4,4,4,4,4,4,4,4,4,4,\u00b2"),
        "Setup: count", "is not a whole number")
    bad(good.replace("4,4,4,4,4,4,4,4,4,4,4,4", "4,4,4,4,4,4,4,4,4,4,4," + "9" * 5000),
        "Setup: count", "is too large")
    bad(good.replace("1. 1 1 2. 3", "1. 1 1 2. " + "3" * 5000), "is too large")
    bad(good.replace('[Options ""]', '[Options "hands=\u0663"]'), "is not a whole number")
