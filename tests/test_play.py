"""`layli play`: the terminal game, driven through piped input.

Each test works out with the engine what the game should do, feeds the moves (or bad input) on
stdin, and checks what the terminal game printed against the engine's own answer.
"""

from __future__ import annotations

import importlib.util
import io
import random
import re
import subprocess
import sys

import pytest

from controller import cli, languages
from controller.commands import play as play_command
from controller.commands.play import (DETAIL_LIMIT, draw_board, even_arrangement, script_groups,
                             step_words)
from controller.opponents.players import GreedyPlayer, move_gain
from controller.rules import Game, Match

PLAYS = re.compile(r"^(South|North) \([^)]*\) plays (\d+):", re.M)
FINAL = re.compile(r"^Final score: South (\d+), North (\d+)\.$", re.M)


def play(monkeypatch, capsys, argv: list[str], lines: list[str]) -> tuple[int, str]:
    """Run `layli play ARGV` with `lines` as its standard input; (status, stdout)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = cli.main(["play"] + argv)
    return status, capsys.readouterr().out


def random_moves(game: Game, seed: int) -> list[int]:
    """Play `game` to its end with random legal moves; the moves played."""
    rng = random.Random(seed)
    moves = []
    while not game.over:
        moves.append(game.random_move(rng))
        game.push(moves[-1])
    return moves


def final_scores(out: str) -> list[int]:
    found = FINAL.findall(out)
    assert len(found) == 1, out[-2000:]
    return [int(found[0][0]), int(found[0][1])]


LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The tests read English: the terminal of whoever runs them does not choose another
    language (a test that wants one sets it)."""
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


HUMANS = ["--south", "human", "--north", "human"]
COMPUTERS = ["--south", "computer", "--north", "computer"]


# --- whole games ------------------------------------------------------------------------

def test_human_against_human_whole_game(monkeypatch, capsys):
    game = Game("layli-goobalay")
    moves = random_moves(game, seed=7)
    status, out = play(monkeypatch, capsys, HUMANS, [str(m) for m in moves])
    assert status == 0
    assert final_scores(out) == game.scores
    played = PLAYS.findall(out)
    assert [int(move) for _side, move in played] == moves
    winner = game.winner()
    if winner is None:
        assert "A draw." in out
    else:
        name = ("South (Player 1)", "North (Player 2)")[winner]
        assert "%s wins." % name in out
    assert "Game over: %s has no legal move." % ("South", "North")[game.to_move] in out
    assert "left unfinished" not in out


def test_computer_against_computer_matches_the_engine(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, COMPUTERS + ["--seed", "1"], [])
    assert status == 0
    game = Game("layli-goobalay")
    greedy = GreedyPlayer()
    for side, move in PLAYS.findall(out):
        assert side == ("South", "North")[game.to_move]
        # every choice is one of the greedy player's best moves
        assert int(move) in greedy.best_moves(game)
        game.push(int(move))
    assert game.over
    assert final_scores(out) == game.scores
    # the seed makes the game repeatable
    status, again = play(monkeypatch, capsys, COMPUTERS + ["--seed", "1"], [])
    assert again == out


def test_long_board_fits_in_100_columns(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys,
                       ["layli-goobalay-long"] + COMPUTERS + ["--seed", "3"], [])
    assert status == 0
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "   pit      12    11    10" in out
    final_scores(out)


def test_subprocess_with_piped_input():
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "play", "--seed", "4"],
        input="3\nq\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "South (You) plays 3:" in result.stdout
    assert "North (Computer) plays" in result.stdout
    assert result.stdout.rstrip().endswith("Game left unfinished.")


# --- input ------------------------------------------------------------------------------

def test_bad_input_is_explained_and_asked_again(monkeypatch, capsys):
    setup = "4,0,4,4,4,4,4,4,4,4,4,4"
    status, out = play(monkeypatch, capsys, ["--setup", setup],
                       ["abc", "9", "0", "2", "", "3.5", "q"])
    assert status == 0
    assert "'abc' is not a pit number or a command" in out
    assert "There is no pit 9: your pits are 1 to 6" in out
    assert "There is no pit 0" in out
    assert "Pit 2 is not a legal move: pit 2 is empty (legal: 1, 3, 4, 5, 6)." in out
    assert "Type a pit number (legal: 1, 3, 4, 5, 6)" in out
    assert "'3.5' is not a pit number" in out
    assert out.count("South (You), your move") == 7      # asked again after each
    assert "plays" not in out                             # nothing was played
    assert "Traceback" not in out
    assert out.rstrip().endswith("Game left unfinished.")


def test_an_uur_cannot_be_sown(monkeypatch, capsys):
    setup = [1, 0, 0, 0, 0, 4, 4, 0, 0, 0, 3, 0]
    game = Game("layli-goobalay", setup=setup)
    game.push(1)                        # South 2 and North 5 become South's Uurs
    north = game.legal_moves()[0]
    game.push(north)
    assert not game.over and game.uur[1] == 0 and game.pits[1] > 0
    status, out = play(monkeypatch, capsys,
                       HUMANS + ["--setup", ",".join(map(str, setup))],
                       ["1", str(north), "2", "q"])
    assert "South's pit 2 and North's pit 5 become South's Uurs" in " ".join(out.split())
    assert "Pit 2 is not a legal move: pit 2 is an Uur" in out


def test_end_of_input_leaves_the_game_unfinished(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, [], [])
    assert status == 0
    assert out.rstrip().endswith("Input ended: the game is left unfinished.")


def test_help_and_legal_moves(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, ["--setup", "4,0,4,4,4,4,4,4,4,4,4,4"],
                       ["?", "l", "q"])
    assert "u  undo" in out and "h  hint" in out and "q  quit" in out
    assert "Legal moves: 1, 3, 4, 5, 6." in out


def test_undo_takes_back_the_move_and_the_reply(monkeypatch, capsys):
    start = draw_board(Game("layli-goobalay"), ("You", "Computer"))
    status, out = play(monkeypatch, capsys, ["--seed", "1"], ["u", "1", "u", "q"])
    assert status == 0
    assert "There is no move of yours to take back." in out
    reply = PLAYS.findall(out)[1]
    assert reply[0] == "North"
    assert "Took back: North %s, South 1." % reply[1] in out
    # the board after the undo is the starting board again
    after = out.split("Took back")[1]
    assert start in after
    assert out.count(start) == 2


def test_undo_between_two_people_takes_back_one_move(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, HUMANS, ["3", "u", "l", "q"])
    assert "Took back: South 3." in out
    # South is to move again, from the start
    assert out.split("Took back")[1].count("South (Player 1), your move") == 2
    assert "Legal moves: 1, 2, 3, 4, 5, 6." in out


def test_hint_is_the_greedy_choice(monkeypatch, capsys):
    game = Game("layli-goobalay")
    greedy = GreedyPlayer()
    best = greedy.best_moves(game)
    status, out = play(monkeypatch, capsys, [], ["h", "q"])
    found = re.search(r"Hint: pit (\d+) \(the greedy player's choice: it gains (\d+) seeds", out)
    assert found, out
    move, gain = int(found.group(1)), int(found.group(2))
    assert move in best
    assert gain == move_gain(game, move) == max(greedy.gains(game).values())
    assert "plays" not in out               # a hint plays nothing


# --- the board and the steps ------------------------------------------------------------

def test_board_is_drawn_as_south_sees_it():
    game = Game("layli-goobalay", setup=list(range(1, 13)))
    lines = draw_board(game, ("You", "Computer")).splitlines()
    top = next(line for line in lines if line.startswith("  North  |"))
    bottom = next(line for line in lines if line.startswith("  South  |"))
    # North's row right to left (its pit 1, index 6, at the top right above South's pit 6)
    assert [int(c) for c in top.split("|")[1:-1]] == [12, 11, 10, 9, 8, 7]
    assert [int(c) for c in bottom.split("|")[1:-1]] == [1, 2, 3, 4, 5, 6]
    numbers = [line.split() for line in lines if line.startswith("   pit")]
    assert numbers == [["pit", "6", "5", "4", "3", "2", "1"],
                       ["pit", "1", "2", "3", "4", "5", "6"]]
    assert "North (Computer)   captured 0" in lines[0]
    assert "South (You)   captured 0" in lines[-1]


def test_board_marks_uurs(monkeypatch, capsys):
    setup = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0]
    game = Game("layli-goobalay", setup=setup)
    game.push(1)
    drawn = draw_board(game, ("You", "Computer"))
    assert drawn.count("(2)S") == 2
    top = next(line for line in drawn.splitlines() if line.startswith("  North  |"))
    bottom = next(line for line in drawn.splitlines() if line.startswith("  South  |"))
    # North 5 (index 10) is the second cell from the left, above South 2
    assert top.split("|")[2].strip() == "(2)S"
    assert bottom.split("|")[2].strip() == "(2)S"
    assert "an Uur holding k seeds" in drawn
    status, out = play(monkeypatch, capsys, ["--setup", ",".join(map(str, setup))], ["1"])
    assert drawn in out
    assert "South's pit 2 and North's pit 5 become South's Uurs" in " ".join(out.split())
    assert "Game over: North has no legal move." in out
    assert final_scores(out) == game.scores == [4, 0]


def test_steps_in_words(monkeypatch, capsys):
    game = Game("layli-goobalay")
    script = game.push(3, script=True)
    status, out = play(monkeypatch, capsys, HUMANS + ["--steps"], ["3", "q"])
    assert "    1. pick 4 from South's pit 3" in out
    assert "    2. drop in South's pit 4" in out
    # every step of the engine's script, in order, numbered, the later picks as relays
    picks = 0
    for k, step in enumerate(script, 1):
        words = step_words(game.rules, step, 0, relay=picks > 0)
        picks += step[0] == "pick"
        assert re.search(r"^ *%d\. %s$" % (k, re.escape(words)), out, re.M), words
    assert picks > 1 and "relay: pick" in out
    rules = game.rules
    assert step_words(rules, ("capture", 10, 3), 0) == "capture 3 from North's pit 5"
    assert step_words(rules, ("uur", 1, 10), 0) == (
        "Uur: move one seed from North's pit 5 to South's pit 2; both are South's Uurs now")
    assert step_words(rules, ("pass", 1), 0) == "North has no stones and passes"
    assert step_words(rules, ("collect", 3, 2, 0), 1) == \
        "collect 2 from South's pit 4 into South's store"


def test_steps_with_the_board(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys,
                       HUMANS + ["--steps=board", "--setup", "1,0,0,0,0,0,0,0,0,0,3,0"], ["1"])
    assert "Uur: move one seed from North's pit 5 to South's pit 2; both are South's Uurs now" \
        in out
    assert "collect 2 from South's pit 2 into South's store" in out
    # after the pick, South's pit 1 is drawn empty
    assert re.search(r"1\. pick 1 from South's pit 1\n +North  \|.*\n +South  \|  0  \|  0  \|",
                     out)


def test_a_long_move_is_summarised_per_lap(monkeypatch, capsys):
    setup = [0, 1, 11, 4, 0, 2, 0, 4, 1, 2, 2, 10]
    game = Game("layli-goobalay", setup=setup, first=1)
    script = game.push(4, script=True)
    assert len(script) > DETAIL_LIMIT
    laps = sum(1 for step in script if step[0] == "pick")
    status, out = play(monkeypatch, capsys,
                       HUMANS + ["--steps", "--first", "1", "--setup",
                                 ",".join(map(str, setup))], ["4", "q"])
    steps_shown = re.findall(r"^ +\d+\. .*$", out, re.M)
    assert len(steps_shown) <= 30
    assert "more laps" in out
    assert "  1. pick 2 from North's pit 4, drop 2: North's pit 5 .. North's pit 6" in out
    assert "capture 6 from South's pit 4" in out
    groups = script_groups(game.rules, script, 1)
    assert sum(len(steps) for _words, steps in groups) == len(script)
    assert len([g for g in groups if g[1][0][0] == "pick"]) == laps


# --- Mangala IV -------------------------------------------------------------------------

MANGALA_SETUP = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0]


def test_mangala_ritual_forced_moves_and_passes(monkeypatch, capsys):
    game = Game("mangala-iv", setup=MANGALA_SETUP)
    moves = []
    while not game.over:
        moves.append(game.legal_moves()[0])
        game.push(moves[-1])
    # Player 1 hides 2, Player 2 guesses even (right) and takes North
    lines = ["2", "even", "north"] + [""] * len(moves)
    status, out = play(monkeypatch, capsys,
                       ["mangala-iv", "--setup", ",".join(map(str, MANGALA_SETUP))] + HUMANS,
                       lines)
    assert status == 0
    assert "Player 2 guessed right, so Player 2 chooses the sides." in out
    assert "Player 1 plays South, Player 2 plays North; South moves first." in out
    assert out.count("your move is forced") == len(moves)
    assert out.count("South (Player 1) has no stones and passes.") == 4
    assert [int(m) for _s, m in PLAYS.findall(out)] == moves
    assert "at most one stone is left" in out
    assert final_scores(out) == game.scores == [2, 0]
    assert "(hidden)" in out and "Player 1, hide 1 or 2 stones" in out


def test_mangala_ritual_can_swap_the_sides(monkeypatch, capsys):
    # Player 1 hides 1, Player 2 guesses even (wrong): Player 1 assigns the rows, takes North
    status, out = play(monkeypatch, capsys, ["mangala-iv"] + HUMANS,
                       ["3", "1", "maybe", "even", "x", "n", "q"])
    assert "Please answer one of: 1, 2." in out
    assert out.count("Player 1, hide 1 or 2 stones") == 2
    assert "Please answer one of: cift, even, odd, tek." in out
    assert "Player 2 guessed wrong, so Player 1 chooses the sides." in out
    assert "Player 1 takes North: Player 2 plays South, Player 1 plays North" in out
    assert "South: Player 2 (human)" in out
    assert "South (Player 2): your move is forced, pit 1" in out


def test_mangala_auto_forced_against_the_computer(monkeypatch, capsys):
    game = Game("mangala-iv", setup=MANGALA_SETUP)
    while not game.over:
        game.push(game.legal_moves()[0])
    status, out = play(monkeypatch, capsys,
                       ["mangala-iv", "--no-ritual", "--auto-forced", "--setup",
                        ",".join(map(str, MANGALA_SETUP))], [])
    assert status == 0
    assert "South (You)'s move is forced: pit 7." in out
    assert "South (You) has no stones and passes." in out
    assert final_scores(out) == game.scores


def test_mangala_computer_ritual_takes_the_winning_side(monkeypatch, capsys):
    # from the standard start the forced game is known: the computer, if it chooses, picks
    # the side that wins it
    game = Game("mangala-iv")
    while not game.over:
        game.push(game.legal_moves()[0])
    winning = ("South", "North")[game.winner()]
    for seed in range(6):
        status, out = play(monkeypatch, capsys, ["mangala-iv", "--seed", str(seed)],
                           ["odd", "south", "q"])
        found = re.search(r"^Computer takes (South|North):", out, re.M)
        if found:
            assert found.group(1) == winning
        else:
            assert "You take South: You play South" in out


# --- matches ----------------------------------------------------------------------------

def test_match_of_two_hands_with_a_typed_arrangement(monkeypatch, capsys):
    match = Match("layli-goobalay", {"hands": 2})
    first_hand = random_moves(match.game, seed=2)
    match.end_hand()
    assert not match.over
    arranger = match.arranger
    held = match.holdings[arranger]
    counts = [held - 5, 1, 1, 1, 1, 1]
    match.arrange(counts)
    second_hand = random_moves(match.game, seed=3)
    holdings = match.end_hand()
    assert match.over
    lines = ([str(m) for m in first_hand]
             + ["1 2 3", "0 %d 1 1 1 1" % (held - 4), "%d 1 1 1 1 1" % held, "x 1 1 1 1 1",
                " ".join(map(str, counts))]
             + [str(m) for m in second_hand])
    status, out = play(monkeypatch, capsys, ["--match", "--option", "hands=2"] + HUMANS,
                       lines)
    assert status == 0
    assert "=== Hand 2 ===" in out
    side = ("South", "North")[arranger]
    assert "Not accepted: %s's arrangement must be 6 counts." % side in out
    assert ("Not accepted: %s's pit 1 holds 0: every pit needs at least one seed." % side
            in out)
    assert ("Not accepted: %s holds %d seeds and must arrange all of them, not %d." % (
        side, held, held + 5)) in out
    assert "Not accepted: count 'x' is not a whole number." in out
    assert out.count("%s (Player %d), place all your" % (side, arranger + 1)) == 5
    assert "copies the arrangement pit for pit" in out
    assert "After hand 2: South holds %d, North holds %d." % tuple(holdings) in out
    assert "Match over: the limit of 2 hands was reached." in out
    if match.winner is None:
        assert "The match is drawn" in out
    else:
        assert re.search(r"^%s \(Player \d\) wins the match, %d seeds to %d\.$" % (
            ("South", "North")[match.winner], holdings[match.winner],
            holdings[1 - match.winner]), out, re.M)
    assert "%s (Player %d), place all your %d seeds" % (side, arranger + 1, held) in out
    # the second hand started from the typed arrangement, mirrored: both rows show it
    north_row = "  North  |" + "|".join(str(c).center(5) for c in reversed(counts)) + "|"
    south_row = "  South  |" + "|".join(str(c).center(5) for c in counts) + "|"
    second = out.split("=== Hand 2 ===")[1]
    assert north_row in second and south_row in second


def test_match_with_free_arrangement(monkeypatch, capsys):
    match = Match("layli-goobalay", {"hands": 2, "arrangement": "free"})
    first_hand = random_moves(match.game, seed=2)
    match.end_hand()
    arranger = match.arranger
    opponent = 1 - arranger
    held = match.holdings[arranger]
    opponent_holds = match.holdings[opponent]
    mine = even_arrangement(held, 6)
    theirs = [1, 1, 1, 1, 1, held - 5]
    match.arrange(mine, theirs)
    aside = match.aside[opponent]
    second_hand = random_moves(match.game, seed=5)
    holdings = match.end_hand()
    lines = ([str(m) for m in first_hand] + [" ".join(map(str, mine)),
                                             "1 1 1 1 1 %d" % (held - 4),
                                             " ".join(map(str, mine)),
                                             ",".join(map(str, theirs))]
             + [str(m) for m in second_hand])
    status, out = play(monkeypatch, capsys,
                       ["--match", "--option", "hands=2", "--option", "arrangement=free"]
                       + HUMANS, lines)
    assert status == 0
    assert aside == opponent_holds - held
    assert "place %d of your %d seeds (the rest are held aside)" % (held, opponent_holds) in out
    other = ("South", "North")[opponent]
    assert ("Not accepted: %s must place %d seeds, as many as %s, not %d." % (
        other, held, ("South", "North")[arranger], held + 1)) in out
    # both rows were asked again
    assert out.count(", place all your %d seeds" % held) == 2
    assert "holds %d seeds aside." % aside in out
    assert "held aside %d" % aside in out                   # on the board's owner line
    assert "After hand 2: South holds %d, North holds %d." % tuple(holdings) in out


def test_match_against_the_computer_arranges_evenly(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys,
                       ["--match", "--option", "hands=2"] + COMPUTERS + ["--seed", "2"], [])
    assert status == 0
    found = re.search(r"arranges ([\d ]+)\.\n", out)
    assert found
    counts = [int(c) for c in found.group(1).split()]
    assert counts == even_arrangement(sum(counts), 6)
    assert "Match over" in out


def test_even_arrangement():
    assert even_arrangement(20, 6) == [3, 3, 3, 3, 4, 4]
    assert even_arrangement(6, 6) == [1] * 6


def test_match_needs_a_variant_with_hands(monkeypatch, capsys):
    status = cli.main(["play", "mangala-iv", "--match"])
    assert status == 2
    assert "mangala-iv is not played in hands" in capsys.readouterr().err


def test_unknown_variant_is_an_error(capsys):
    assert cli.main(["play", "oware"]) == 2
    assert "unknown variant 'oware'" in capsys.readouterr().err


# --- records ----------------------------------------------------------------------------

def _record_module():
    if importlib.util.find_spec("controller.rules.record") is None:
        pytest.skip("controller/rules/record.py (write_game, write_match) is not written yet")
    from controller.rules import record
    return record


def test_record_is_saved(monkeypatch, capsys, tmp_path):
    record = _record_module()
    path = tmp_path / "game.txt"
    status, out = play(monkeypatch, capsys,
                       COMPUTERS + ["--seed", "1", "--record", str(path)], [])
    assert status == 0
    assert "Record saved to %s." % path in out
    moves = [int(move) for _side, move in PLAYS.findall(out)]
    game, tags = record.read(path.read_text(encoding="utf-8"))
    assert game.moves == moves
    assert game.over and game.scores == final_scores(out)
    assert (tags[0]["South"], tags[0]["North"]) == ("Computer 1", "Computer 2")
    assert tags[0]["Seed"] == "1"


def test_record_can_be_declined(monkeypatch, capsys, tmp_path):
    _record_module()
    path = tmp_path / "game.txt"
    status, out = play(monkeypatch, capsys,
                       ["--setup", "1,0,0,0,0,0,0,0,0,0,3,0", "--record", str(path)], ["1", "n"])
    assert "Save the record to %s? [Y/n] n" % path in out
    assert "Record not saved." in out
    assert not path.exists()


def test_mangala_record_says_who_is_south(monkeypatch, capsys, tmp_path):
    record = _record_module()
    path = tmp_path / "game.txt"
    status, out = play(monkeypatch, capsys,
                       ["mangala-iv", "--setup", ",".join(map(str, MANGALA_SETUP)),
                        "--auto-forced", "--record", str(path)] + HUMANS,
                       ["1", "odd", "south", "y"])
    game, tags = record.read(path.read_text(encoding="utf-8"))
    assert (tags[0]["South"], tags[0]["North"]) == ("Player 2", "Player 1")
    assert tags[0]["Ritual"] == "Player 1 hid 1, Player 2 guessed odd, Player 2 chose South"
    assert game.scores == final_scores(out)


def test_match_record_is_saved(monkeypatch, capsys, tmp_path):
    record = _record_module()
    path = tmp_path / "match.txt"
    status, out = play(monkeypatch, capsys,
                       ["--match", "--option", "hands=2", "--seed", "2", "--record", str(path)]
                       + COMPUTERS, [])
    assert status == 0
    match, tags = record.read(path.read_text(encoding="utf-8"))
    assert len(match.games) == 2
    holdings = match.holdings           # reading closes the ended last hand
    assert match.over
    assert "After hand 2: South holds %d, North holds %d." % tuple(holdings) in out


def test_the_computer_plays_at_every_level_of_the_search(monkeypatch, capsys):
    """`--level`: greedy (the default) or any level of the search (controller.ai.LEVELS)."""
    from controller.ai import LEVELS
    from controller.commands.play import GREEDY, PLAY_LEVELS

    assert PLAY_LEVELS == (GREEDY,) + LEVELS
    status, out = play(monkeypatch, capsys, ["--south", "computer", "--north", "computer",
                                             "--level", "beginner", "--seed", "3"], [])
    assert status == 0 and "Final score: South " in out, out[-500:]
    with pytest.raises(SystemExit) as stopped:
        cli.main(["play", "--level", "wizard"])
    assert stopped.value.code == 2
    assert "invalid choice: 'wizard'" in capsys.readouterr().err


# --- languages --------------------------------------------------------------------------

def test_an_unknown_language_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["play", "--language", "xx"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "argument --language: invalid choice: 'xx'" in error
    for language in languages.LANGUAGES:
        assert repr(language) in error                  # the ones there are are named


def test_the_language_comes_from_the_environment(monkeypatch):
    assert languages.environment_language({"LANG": "tr_TR.UTF-8"}) == "tr"
    assert languages.environment_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert languages.environment_language({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}) == "it"
    assert languages.environment_language({"LANGUAGE": "de:so", "LANG": "tr_TR"}) == "so"
    assert languages.environment_language({"LC_MESSAGES": "it_IT@euro", "LANG": "so"}) == "it"
    assert languages.environment_language({}) == "en"
    # what `layli play` speaks: --language, else the environment's, else English
    spoken = []
    monkeypatch.setattr(play_command.Session, "play_game",
                        lambda session, setup, first: spoken.append(languages.current()))
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    assert cli.main(["play"]) == 0
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert cli.main(["play"]) == 0
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    assert cli.main(["play", "--language", "it"]) == 0
    assert cli.main(["play", "--language", "en"]) == 0
    assert spoken == ["tr", "en", "it", "en"]
    assert languages.current() == "en"          # the command's language ends with it


def test_a_game_in_italian(monkeypatch, capsys):
    """`--language it`: the game speaks the Italian catalogue (a text it does not have yet
    reads in English); the record's names stay English."""
    status, out = play(monkeypatch, capsys, ["--language", "it", "--seed", "4"], ["3", "q"])
    assert status == 0
    assert "Traceback" not in out
    with languages.using("it"):
        unfinished = languages._("Game left unfinished.")
        south = languages._("South")
    assert out.rstrip().endswith(unfinished)
    assert re.search(r"^ *%s  *\|" % re.escape(south), out, re.M)       # the board's rows
    if unfinished != "Game left unfinished.":
        assert "Game left unfinished." not in out
