"""End to end: the host controller (runner, PicoBridge, SerialLink) against the Pico firmware's
bridge (its own process, fake machine/rp2 modules whose HX711s emulate the PIO program) over a
pty, with the simulated board behind the fake load cells and players who follow the LEDs the
Pico shows. `python -m simulator.end_to_end` runs the same; its figures are in the README."""

import pytest

from controller.rules.record import read
from simulator.end_to_end import play


@pytest.mark.parametrize("corrupt, pull", [(0.0, False), (0.01, True)])
def test_a_whole_game_through_the_protocol(corrupt, pull):
    result = play(seed=1, corrupt=corrupt, pull=pull)
    assert result["completed"] and result["board_matches_engine"], result
    assert result["host_link"]["bad_frames"] == 0
    assert read(result["record"])[0].over           # every move replays under the rules
    if corrupt:
        assert result["bits_flipped"] > 1000
        assert result["host_link"]["dropped"] > 0 and result["device_link"]["dropped"] > 0
    else:
        assert result["host_link"]["dropped"] == result["device_link"]["dropped"] == 0
    if pull:
        assert result["pulled"]["step"] >= 3        # in the middle of a move
        assert result["connections"] == 2           # reconnected by itself
