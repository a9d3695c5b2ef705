"""The controller killed (SIGKILL) in the middle of games and restarted from its journal: the
games end with the same records as without the kills. The README's figure runs 50 games:
`python -m simulator.restarts --games 50 --kills 3`."""

import pytest

from simulator.restarts import play_with_restarts


@pytest.mark.parametrize("variant, seed", [("layli-goobalay", 11), ("layli-goobalay", 12),
                                           ("mangala-iv", 13), ("tampoduo", 14)])
def test_a_killed_controller_resumes_the_same_game(tmp_path, variant, seed):
    reference = play_with_restarts(variant, seed, 0, str(tmp_path))
    killed = play_with_restarts(variant, seed, 3, str(tmp_path))
    assert killed.restarts >= 1
    assert '[Result "*"]' not in reference.record
    assert killed.record == reference.record
