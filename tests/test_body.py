"""The board's geometry from the hand outward (controller/hardware/body.py): every shipped
board's pits and stores pass the capacity and the two-finger probe checks, and a board that
would not names the place and the numbers.

The figures are checked against the world's: the seed's size, a loose random packing (Onoda &
Liniger's 0.555) made looser by the wall (Dixon's correlation), the LED strip's pitch."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from controller.errors import UsageError
from controller.hardware import body as B
from controller.hardware.parts import catalogue
from controller.hardware.profile import load, shipped


@pytest.mark.parametrize("name", shipped())
def test_every_pit_and_store_holds_its_seeds_and_passes_the_probe(name):
    profile = load(name)
    board = B.check(profile)                       # raises, naming the place, if not
    assert B.problems(board) == []
    pit, store = board.pit.cup, board.store.cup
    # a hand's pit: 50 mm across inside, at least 30 seeds of 12.7 mm below the heap
    assert pit.inner_d >= 50 and pit.capacity >= 30 and pit.wanted == 30
    # a store: every seed of the largest game the board carries
    assert store.wanted == board.game.seeds and store.capacity >= board.game.seeds
    assert board.game.seeds == {6: 48, 7: 98, 12: 96}[profile.pits]
    for cup in (pit, store):
        # the seeds' mean level lies a heap (25 degrees across the cup) below the rim
        level = cup.depth - cup.inner_d / 2 * math.tan(math.radians(25))
        held = cup.volume_mm3(level) * cup.packing / (math.pi / 6 * 12.7 ** 3)
        assert int(held) == cup.capacity >= cup.wanted
        # two fingers (22 mm, a round tip) slide down the wall and touch the floor
        assert cup.inner_d >= 22 and cup.fillet <= 11 and B.probe_gap(cup) == 0
        assert cup.depth <= B.PROBE_REACH
    # the rims are level, the cups clear of their collars by 1.5 mm all round
    assert board.stack("pit").rim == board.stack("store").rim
    for pocket in (board.pit, board.store):
        assert (pocket.collar.inner_d - pocket.cup.outer_d) / 2 >= 1.5


def test_the_packing_is_loose_and_looser_against_the_wall():
    # Dixon 1988 at D/d = 50 / 12.7: voidage 0.4 + 0.05 x 0.254 + 0.412 x 0.254^2 = 0.439
    assert round(B.packing(12.7, 50.0), 3) == round(0.555 * (1 - 0.4390) / 0.6, 3) == 0.519
    assert B.packing(12.7, 500.0) < 0.555 and B.packing(12.7, 500.0) > B.packing(12.7, 50.0)
    with pytest.raises(UsageError, match="less than two 12.7 mm seeds wide"):
        B.packing(12.7, 20.0)


def test_the_largest_game_of_each_board():
    assert B.largest_game(6) == B.Game("layli-goobalay", 6, 48)
    assert B.largest_game(7) == B.Game("mangala-iv", 7, 98)             # 14 pits of 7
    assert B.largest_game(12) == B.Game("layli-goobalay-long", 12, 96)
    assert B.largest_game(9).seeds == 72                                 # the long board's 9
    with pytest.raises(UsageError, match="no variant is played on a board of 2 x 3 pits"):
        B.largest_game(3)


def test_the_arcs_are_the_strips_pitch_round_a_circle():
    parts = catalogue()
    pit, store = B.arc(parts["led-arc-12"]), B.arc(parts["led-arc-16"])
    assert (pit.leds, store.leds) == (12, 16)                   # the guide's counts, kept
    assert round(pit.length, 1) == 200.0 and round(pit.diameter, 2) == 63.66
    assert round(store.diameter, 2) == 84.88
    # the catalogue's diameters are the arcs': across the strip's back and the LEDs' faces
    for part, strip in ((parts["led-arc-12"], pit), (parts["led-arc-16"], store)):
        assert (part.outer_mm, part.inner_mm) == (round(strip.back_d, 2), round(strip.face_d, 2))
        assert strip.diameter / 2 >= B.STRIP_MIN_BEND_R
    # 12 x 12 + 2 x 16 LEDs of a 2 x 6 board from 3 metres of 60 (5 + 5 + 2 pit arcs and
    # both store arcs); a 2 x 12 board's 320 LEDs from 6
    assert B.strip_metres(load("pico-bridge-2x6")) == 3
    assert B.strip_metres(load("pico-bridge-2x7")) == 4
    assert B.strip_metres(load("pico-bridge-2x12")) == 6


def test_a_board_that_fails_names_the_place_and_the_numbers():
    board = B.body(load("pico-bridge-2x12"))
    small = replace(board, pit=board.pit._replace(cup=replace(board.pit.cup, depth=30.0)))
    found = B.problems(small)
    assert any(p.startswith("pico-bridge-2x12: the pit cup holds 16 seeds of 12.7 mm (50 mm "
                            "across, 30 mm deep, packing 0.519, heap 11.7 mm), fewer than "
                            "the 30 it must") for p in found), found
    assert any("the pits' rims stand at" in p for p in found)
    round_floor = replace(board, store=board.store._replace(
        cup=replace(board.store.cup, fillet=14.0)))
    assert B.problems(round_floor) == [     # a rounder floor holds less, and stops fingers
        "pico-bridge-2x12: the store cup holds 93 seeds of 12.7 mm (71 mm across, 66 mm deep, "
        "packing 0.535, heap 16.6 mm), fewer than the 96 it must",
        "pico-bridge-2x12: the store cup's floor fillet (r 14.0 mm) holds the 22 mm probe's "
        "tip 3.0 mm above the floor along the wall: make it r 11.0 or less"]
    wide = replace(board, pit=board.pit._replace(cup=replace(board.pit.cup, wall=3.0)))
    assert B.problems(wide) == [
        "pico-bridge-2x12: the pit cup (56.00 mm outside) has 0.58 mm all round in its collar "
        "(57.16 mm opening): it needs 1.5"]


def test_a_board_of_neopixel_rings_is_refused_by_name(tmp_path, capsys):
    from controller import cli
    from controller.hardware.profile import PROFILES

    text = (PROFILES / "pico-bridge-2x6.toml").read_text()
    path = tmp_path / "rings.toml"
    path.write_text(text.replace('pit_part = "led-arc-12"', 'pit_part = "neopixel-ring-12"'))
    status = cli.main(["hardware", "model", str(path)])
    out = capsys.readouterr()
    assert status == 2 and out.out == ""
    assert ("neopixel-ring-12 (NeoPixel Ring, 12 x 5050 RGB LED (WS2812B), 37 mm across) is not "
            "an arc of 12 LEDs of a 60 LEDs/m strip (63.96 mm across its back, 60.16 across its "
            "LEDs, not 37 and 23)") in out.err
