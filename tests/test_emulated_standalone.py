"""A standalone board on the emulated Pico: the whole controller on MicroPython's real port,
deployed as a maker deploys a standalone board (its config and the load cells' calibration),
an acceptance game with a power cut, and a Pico whose watchdog bites. A file of its own, so
that CI's workers play it beside the bridge's games (tests/test_emulated_games.py). Without
the kit (see tests/emulated_kit.py) each test skips and says why.
"""

from __future__ import annotations

from pprint import pformat

import pytest

from emulated_kit import GAME_SEED, emulated, game, needs_kit

pytestmark = needs_kit


def test_a_pico_that_resets_itself_in_a_game_is_reported_with_its_crash():
    """A standalone Pico whose watchdog bites (main.py leaves crash.txt when its loop dies):
    the game stops with PicoReset, crash.txt read after a safe boot, not a bare emulator
    error."""
    from simulator.clock import SimClock

    with emulated.EmulatedPico(board=game.STANDALONE) as pico:
        pico.exec("with open('crash.txt', 'w') as f:\n"
                  "    f.write('MemoryError: memory allocation failed')\n"
                  "from machine import WDT\n"
                  "WDT(timeout=200)\n")
        pico.disconnect()
        pico.set_mode("paused")
        clock = SimClock()
        with pytest.raises(game.PicoReset) as reset:
            for _ in range(100):
                game.run_turn(pico, clock)
                clock.advance_to(clock.now_ms + game.TURN_MS)
    assert "MemoryError" in reset.value.crash and "reset itself" in str(reset.value)


@pytest.fixture(scope="module")
def standalone_image(tmp_path_factory):
    """A maker's first standalone board: `layli firmware deploy CONFIG --port ... --mpy
    --calibration FILE` with pico-standalone-2x6's config and the load cells' calibration (as
    the calibration procedure gives it) installs everything onto the emulated Pico, which
    powers up again into main.py's standalone mode. Its flash kept for the test. (A deployed
    board given another config, `--config-only`: tests/test_firmware.py's dry run.)"""
    folder = tmp_path_factory.mktemp("standalone")
    image = folder / "flash.bin"
    calibration = game.table(GAME_SEED)[3].calibration().to_json()
    with emulated.EmulatedPico(board=game.STANDALONE) as pico:
        game.deploy(pico, folder, game.STANDALONE, calibration=calibration)
        pico.command("save_flash", path=str(image))
    return image


def test_a_game_in_standalone_mode_with_players_who_follow_the_strip(standalone_image):
    """The acceptance game in standalone mode, six moves: the whole controller on the
    emulated Pico (sensing, the rules engine, the guide, the journal), players who see only
    its strip, hear only its buzzer and press its buttons; relays of several laps, captures,
    mistakes flagged and put right, and the power cut after the first seed is sown, with
    seeds in the players' hand: the Pico resumes the game from its journal and they play on.
    Then the board is powered up again with CONFIRM held (safe mode), its journal read off
    the flash and replayed on the host's engine: the board equals it. The game of GAME_SEED
    (`python firmware/emulator/game.py --mode standalone --moves 6 --quick --power-cut
    --seed 263`; figures in firmware/emulator/README.md)."""
    with emulated.EmulatedPico(board=game.STANDALONE, flash_in=standalone_image,
                               mode="paused") as pico:
        result = game.play_standalone(pico, moves=6, seed=GAME_SEED, durations=game.QUICK,
                                      power_cut=True)
    said = pformat(result, width=100)       # the whole story, when an assertion fails
    assert result["moves"] == 6 and result["board_matches_engine"], said
    assert result["moves_heard"] == 6, said  # each move's chirp
    assert {"drop", "pick", "capture"} <= set(result["kinds"]) and result["most_laps"] >= 2, \
        said
    assert result["mistakes_made"] >= 1 and result["mistakes_heard"] >= 1, said
    assert result["mistakes_put_right"] >= 1, said
    cut = result["power_cut"]
    assert cut is not None and cut["seeds_in_hand"] >= 1, said
    assert result["calibration"]["channels"] == 14, said  # saved at the move, readable
    assert result["unknown_tones"] == [] and result["crash"] is None, said
    assert result["frames_read"] >= 20, said
    assert result["torn_rings"] == result["unknown_colours"] == 0, said
    assert result["strip_errors"] == [], said
