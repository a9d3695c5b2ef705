"""End to end: the host controller (runner, PicoBridge, SerialLink) against the Pico firmware's
bridge (its own process, fake machine/rp2 modules whose HX711s emulate the PIO program) over a
pty, with the simulated board behind the fake load cells and players who follow the LEDs the
Pico shows, on a clean line. `python -m simulator.end_to_end` runs the same; its figures are
in the README. (The line with corrupted bytes and a pulled cable: test_end_to_end_faults.py,
a file of its own so that CI runs the two games side by side.)"""

from controller.rules.record import read
from simulator.end_to_end import play


def test_a_whole_game_through_the_protocol_on_a_clean_line():
    result = play(seed=1, corrupt=0.0, pull=False)
    assert result["completed"] and result["board_matches_engine"], result
    assert result["host_link"]["bad_frames"] == 0
    assert read(result["record"])[0].over           # every move replays under the rules
    assert result["host_link"]["dropped"] == result["device_link"]["dropped"] == 0
    assert result["connections"] == 1
