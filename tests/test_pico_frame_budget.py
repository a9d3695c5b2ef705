"""benchmarks/pico_frame_budget.py's standalone mode, the parts that need no emulated Pico: its
arguments, and the player it plays the game with (who must follow the LEDs so well that the
guide never sees a mistake, or the Pico would be timed showing one)."""

from __future__ import annotations

import pytest

from controller.guide.guide import Guide, OVER, SOWING
from controller.rules import Game

from benchmark_scripts import load_benchmark

budget = load_benchmark("pico_frame_budget")


@pytest.mark.parametrize("args, words", [
    (["--mode", "standalone", "--board", "pico-bridge-2x6"],
     "--board pico-bridge-2x6 is a bridge board: it needs --mode bridge"),
    (["--board", "pico-standalone-2x6"],
     "--board pico-standalone-2x6 is a standalone board: it needs --mode standalone"),
    (["--mode", "standalone", "--seconds", "5"], "--seconds is the bridge's run"),
    (["--moves", "3"], "--moves and --seed are for --mode standalone"),
    (["--mode", "standalone", "--moves", "-1"], "--moves must be 0 (the whole game) or more"),
    (["--mode", "standalone", "--board", "pi-direct-2x6"], "invalid choice"),
])
def test_bad_arguments_say_what_is_wrong(args, words, capsys):
    with pytest.raises(SystemExit) as stopped:
        budget.main(args)
    assert stopped.value.code == 2 and words in capsys.readouterr().err


def _play(variant: str, seed: int, moves: int = 0) -> tuple[Guide, list[int], set[str], int]:
    """The benchmark's player against the portable guide, as on the Pico but with the counts
    given straight to the guide: the guide, the board, the kinds of step played, the most
    laps of a relay."""
    game = Game(variant)
    guide = Guide(game)
    counts = guide.board.places()
    player = budget.Player(counts, seed)
    kinds: set[str] = set()
    laps = 0
    while guide.phase != OVER and (not moves or len(game.moves) < moves):
        if guide.phase == SOWING:
            kinds.add(guide.script[guide.done][0])
        assert player.act(guide.frame), guide.frame
        guide.update(counts)
        events = guide.take_events()
        assert not [e for e in events if e[0] == "mistake"], events
        if guide.phase == SOWING:
            laps = max(laps, guide.laps)
    assert player.problems == []
    return guide, counts, kinds, laps


@pytest.mark.parametrize("board", sorted(budget.STANDALONE))
def test_the_player_follows_the_leds_through_a_whole_game(board):
    guide, counts, _, _ = _play(budget.STANDALONE[board], budget.SEEDS[board])
    assert guide.game.over and counts == guide.board.places()
    assert not budget.Player(counts, 1).act(guide.frame)       # nothing more to do


@pytest.mark.parametrize("board", ["pico-standalone-2x6", "pico-standalone-2x12"])
def test_the_default_moves_relay_capture_and_make_an_uur(board):
    _, _, kinds, laps = _play(budget.STANDALONE[board], budget.SEEDS[board], budget.MOVES)
    assert {"drop", "pick", "capture", "uur"} <= kinds and laps >= 3, (kinds, laps)


def test_the_median_comes_from_the_picos_histogram():
    histogram = [0] * budget.HISTOGRAM
    histogram[40], histogram[70], histogram[399] = 3, 1, 1        # 4.0-4.1, 7.0-7.1, 39.9+ ms
    assert budget.percentile(histogram, 0.5) == pytest.approx(4.1)
    assert budget.percentile(histogram, 0.8) == pytest.approx(7.1)
    assert budget.percentile(histogram, 1.0) == pytest.approx(40.0)


def _entry(us: int, sense: int = 0, update: int = 0, judged: int = 0, tick: int = 0) -> list[int]:
    """A step's figures as the Pico reports them (see worst_frame)."""
    entry = [1, us, sense, 0, 0, 0, update] + [0] * (budget.ENTRY - 7)
    entry[14], entry[15] = judged, tick
    return entry


def test_the_report_names_the_worst_frame_without_a_collection_and_its_parts():
    histogram = [0] * budget.HISTOGRAM
    histogram[36] = 10
    result = {
        "board": "pico-standalone-2x12", "variant": "layli-goobalay-long", "seed": 45,
        "moves": 3, "over": False, "scores": None, "total_ms": 28000, "frames": 2400,
        "untrusted": 100, "corrupted": 40, "reader": [300, 5, 2, 80, 0], "slow_takes": [],
        "worst": {"drop": _entry(9800, sense=6500, update=3000, judged=1, tick=300),
                  "reading+gc": _entry(35000, sense=1500), "flash": _entry(220000),
                  "render": _entry(13000)},
        "histogram": histogram, "longest_us": 220000, "longest": "flash",
        "collections": 80, "heap_peak": 244000, "heap_total": 246016, "heap_live": 205000,
        "heap_start": 185000, "flash_free": 1064960, "flash_free_after": 1060864,
        "steps": 4000, "busy": [21000000, 800, 3200000, 2000000]}
    assert budget.worst_frame(result)[0] == "drop"
    assert budget.worst_frame(result, collected=True)[0] == "reading+gc"
    report = budget.standalone_report(result)
    assert "worst guide frame 9.8 ms against a period of 10.7 ms" in report
    assert "(drop: sensing 3.5 with 1 judgements, session 3.0" in report
    assert "tick 0.3" in report and "median 3.7 ms" in report
    assert "drop 9.8 (sensing 3.5)" in report
    assert "the loop's steps 75% of the run (4000 steps); 800 plain turns, 3200 ms in all, " \
        "2000 of it the device's ticks" in report
    assert "no take of a reading over 2.5 ms" in report


def test_the_report_says_what_the_slow_takes_parsed():
    """A take after a long turn parses the readings that came meanwhile: the report counts
    the takes over SLOW_TAKE_US and, of those the Pico kept, how many readings each parsed."""
    result = {"slow_count": 5, "slow_takes": [[3000, 2, 1, 0], [4100, 3, 1, 0], [2600, 1, 0, 0],
                                              [3100, 2, 0, 0]]}
    assert budget.slow_takes(result) == (
        "5 takes of a reading over 2.5 ms, the longest 4.1 (of the first 4: 1 parsing 1 "
        "reading, 2 parsing 2 readings, 1 parsing 3 readings; 2 after a pass-over)")
