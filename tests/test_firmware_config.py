"""`layli firmware config`: the game a board's config.json carries fits the board (issue 40,
item 9): without --variant the first variant with the board's pits a row, and a variant that
does not fit is refused naming the ones that do, with exit status 2."""

from __future__ import annotations

import json

import pytest

from controller import cli
from controller.errors import UsageError
from controller.hardware.firmware import BoardGame, board_games, firmware_config
from controller.hardware.profile import load, shipped
from controller.rules import Rules

PICO_PROFILES = [name for name in shipped() if name.startswith("pico-")]


def config(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(["firmware", "config", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_games_of_each_board_size():
    assert board_games(6) == [BoardGame("layli-goobalay", {}), BoardGame("tampoduo", {}),
                              BoardGame("layli-goobalay-long", {"pits": 6})]
    assert board_games(7) == [BoardGame("mangala-iv", {}),
                              BoardGame("layli-goobalay-long", {"pits": 7})]
    assert board_games(12) == [BoardGame("layli-goobalay-long", {})]
    assert board_games(13) == []
    for pits in range(6, 13):
        for game in board_games(pits):
            assert Rules(game.variant, game.options).n == pits, game


@pytest.mark.parametrize("name", PICO_PROFILES)
def test_without_a_variant_every_pico_board_gets_one_that_fits(name):
    profile = load(name)
    made = firmware_config(profile)
    game = made["game"]
    assert (game["variant"], game["options"]) == tuple(board_games(profile.pits)[0])
    assert Rules(game["variant"], game["options"]).n == profile.pits
    assert game["max_ma"] == profile.power.strip_max_ma     # the bridge's cap, too


def test_the_2x12_standalone_board_needs_no_variant(capsys):
    status, out, err = config(capsys, "pico-standalone-2x12")
    assert status == 0 and err == ""
    game = json.loads(out)["game"]
    assert (game["variant"], game["options"]) == ("layli-goobalay-long", {})


def test_a_variant_that_does_not_fit_names_the_ones_that_do(capsys):
    status, out, err = config(capsys, "pico-standalone-2x12", "--variant", "layli-goobalay")
    assert status == 2 and out == ""
    assert ("layli-goobalay has 6 pits a row; the board of profile pico-standalone-2x12 has "
            "12: give one that fits, --variant layli-goobalay-long") in err
    with pytest.raises(UsageError, match="--variant mangala-iv or --variant "
                                         "layli-goobalay-long --option pits=7"):
        firmware_config(load("pico-bridge-2x7"), "tampoduo")


def test_a_long_board_shortened_by_its_option_fits_a_shorter_board(capsys):
    status, out, _err = config(capsys, "pico-bridge-2x7", "--variant", "layli-goobalay-long",
                               "--option", "pits=7")
    assert status == 0      # the option as the command line gave it: the Pico's Rules parse it
    assert json.loads(out)["game"] == dict(json.loads(out)["game"], variant="layli-goobalay-long",
                                           options={"pits": "7"})
