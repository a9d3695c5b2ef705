"""End to end: the host controller (runner, PicoBridge, SerialLink) against the Pico firmware's
bridge (its own process, fake machine/rp2 modules whose HX711s emulate the PIO program) over a
pty, with the simulated board behind the fake load cells and players who follow the LEDs the
Pico shows, with 1% of the bytes corrupted and the cable pulled in the middle of a move.
`python -m simulator.end_to_end --corrupt 0.01 --pull` runs the same; its figures are in the
README. (A clean line, with the real firmware on the emulated Pico: tests/test_emulated_games.py's
bridge game.)"""

import pytest

from controller.rules.record import read
from simulator.end_to_end import play


def test_a_game_through_the_protocol_with_corrupted_bytes_and_a_pulled_cable():
    """Its first move, a relay of 21 simulated seconds, the cable pulled three seeds into
    it: about 20 s here. Its first six moves took CI a minute and a half and the whole game
    three, for nothing more; `python -m simulator.end_to_end --corrupt 0.01 --pull` plays it
    all (the cable pulled in the fifth move)."""
    result = play(seed=1, corrupt=0.01, pull=True, moves=1, pull_in_move=1)
    assert result["completed"] and result["board_matches_engine"], result
    assert result["host_link"]["bad_frames"] == 0
    assert len(read(result["record"])[0].moves) == result["moves"] >= 1    # replays
    assert result["bits_flipped"] > 1000
    assert result["host_link"]["dropped"] > 0 and result["device_link"]["dropped"] > 0
    assert result["pulled"]["step"] >= 3        # in the middle of a move
    assert result["connections"] == 2           # reconnected by itself


@pytest.mark.parametrize("argv, words", [
    (["--moves", "-2"], "--moves must be 0 (the whole game) or more, not -2"),
    (["--corrupt", "1.5"], "--corrupt is a share of bytes, 0 to under 1, not 1.5")])
def test_the_command_refuses_bad_arguments(argv, words, capsys):
    from simulator.end_to_end import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2 and words in capsys.readouterr().err
