"""Game records on the portable core: plain test functions that also run under MicroPython.

No pytest, no fixtures, no `random` (MicroPython's differs): the games are fixed or chosen by a
rule of thumb, so both runtimes play and write exactly the same records.
"""

from controller.rules import Game, Match, RulesError
from controller.rules.record import (game_to_json, match_to_json, read, read_json, write_game,
                                     write_match)

SHORT = ('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[South "?"]\n[North "?"]\n'
         '[Variant "layli-goobalay"]\n[Options ""]\n[Setup "4,4,4,4,4,4,4,4,4,4,4,4"]\n'
         '[Result "*"]\n[First "South"]\n\n1. 1 1 2. 3 *\n')


def play(game, pick):
    """Play to the end, choosing legal_moves()[pick(ply, count)]."""
    while not game.over:
        legal = game.legal_moves()
        game.push(legal[pick(game.ply, len(legal))])
    return game


def spread(ply, count):
    return (ply * 7 + 3) % count


def test_a_short_game_round_trips_byte_for_byte():
    game = Game("layli-goobalay")
    for move in (1, 1, 3):
        game.push(move)
    assert write_game(game) == SHORT
    again, tags = read(SHORT)
    assert again.moves == [1, 1, 3]
    assert again.state_json() == game.state_json()
    assert tags[0]["Result"] == "*" and tags[0]["Variant"] == "layli-goobalay"
    assert game_to_json(game) == (
        '{"tags": {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "South": "?", '
        '"North": "?", "Variant": "layli-goobalay", "Options": "", '
        '"Setup": "4,4,4,4,4,4,4,4,4,4,4,4", "Result": "*", "First": "South"}, '
        '"moves": [1, 1, 3]}')
    again, tags = read_json(game_to_json(game))
    assert again.state_json() == game.state_json()


def test_a_whole_game_with_north_first_round_trips():
    game = play(Game("tampoduo", {"capture_last_seed": False}, first=1), spread)
    text = write_game(game, {"South": "Ayan", "North": "Hodan"})
    assert "\n\n1... " in text
    assert '[Options "capture_last_seed=false"]' in text
    again, tags = read(text)
    assert again.moves == game.moves
    assert again.scores == game.scores and again.end_reason == game.end_reason
    assert tags[0]["North"] == "Hodan"
    assert write_game(again, tags[0]) == text


def test_mangala_passes_round_trip():
    game = Game("mangala-iv", setup=[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0], first=0)
    play(game, lambda ply, count: 0)
    text = write_game(game)
    assert text.endswith("\n\n1. 7 1 2... 2 3... 3 4... 4 5... 5 6. 1 1-0\n")
    again, _tags = read(text)
    assert again.moves == game.moves and again.scores == [2, 0]


def test_a_match_of_two_hands_round_trips():
    match = Match("layli-goobalay")
    play(match.game, spread)
    match.end_hand()
    assert not match.over
    held = match.holdings[match.arranger]
    counts = [1] * 6
    counts[0] += held - 6           # every pit at least one, the rest in pit 1
    match.arrange(counts)
    play(match.game, lambda ply, count: count - 1)
    text = write_match(match, {"Event": "Final"})
    assert '[Hand "2"]' in text
    again, tags = read(text)
    assert len(again.games) == 2 and len(tags) == 2
    for k in range(2):
        assert again.games[k].moves == match.games[k].moves
        assert again.games[k].setup == match.games[k].setup
        assert again.games[k].first == match.games[k].first
        assert again.games[k].state_json() == match.games[k].state_json()
    assert tags[1]["Aside"] == "%d,%d" % (match.aside[0], match.aside[1])
    assert again.holdings == match.end_hand()      # the reader closes an ended last hand
    assert write_match(again, tags) == text
    again, _tags = read_json(match_to_json(match))
    assert again.games[1].moves == match.games[1].moves


def test_a_bad_move_names_the_move():
    text = SHORT.replace("1. 1 1 2. 3", "1. 1 4 2. 3")
    try:
        read(text)
    except RulesError as error:
        assert str(error) == "line 13, move 1 (North 4): not legal (legal: 1, 2, 5, 6)"
    else:
        assert False, "an illegal move was read"


def test_a_bad_record_names_the_line():
    for text, expected in (
            (SHORT.replace("layli-goobalay", "oware"), "line 7: Variant: unknown variant"),
            (SHORT.replace('[Result "*"]', '[Result "1-0"]'), "line 10: Result: 1-0, but"),
            (SHORT.replace("2. 3", "2. e4"), "line 13: 'e4' is not a move"),
            (SHORT.replace('[Site "?"]', '[Site "?'), "line 2: bad tag line")):
        try:
            read(text)
        except RulesError as error:
            assert str(error).startswith(expected), str(error)
        else:
            assert False, "a bad record was read: " + expected
