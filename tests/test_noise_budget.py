"""The noise budget (controller/hardware/noise.py): can each place of a load-cell board count
its seeds? The shipped boards can; a store with issue 40's 0.45 g seed cannot, and `layli
hardware check` says so place by place with the numbers. The simulator reads what that board
would (simulator/sensors.py, `LoadCells.from_budget`)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from controller import cli
from controller.errors import UsageError
from controller.hardware import ProfileError, check, load, shipped
from controller.hardware.body import PIT_SEEDS, largest_game
from controller.hardware.noise import (HAND_G, STORE_CUP_G, largest_count,
                                       noise_budget, noise_nv, uv_per_gram,
                                       volts_per_count)
from controller.hardware.parts import PARTS_FILE, catalogue, read_catalogue
from controller.hardware.profile import PROFILES
from controller.sensing import SensingError
from controller.sensing.calibration import MIN_SEED_NOISE, Calibration
from controller.sensing.calibrator import Calibrator
from simulator.board import PhysicalBoard
from simulator.run import board_profile
from simulator.sensors import LoadCells


def layli(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def with_seed(tmp_path: Path, name: str, seed: str, *edits: tuple[str, str]) -> Path:
    """Shipped profile `name` with another seed (and each (old, new) text replaced once)."""
    text = (PROFILES / (name + ".toml")).read_text()
    edits = (('part = "seed-ball-12.7"', 'part = "%s"' % seed),) + edits
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / ("%s-%s.toml" % (name, seed))
    path.write_text(text)
    return path


# --- the arithmetic, against figures worked by hand --------------------------------------------

def test_one_count_one_gram_and_the_noise_from_the_catalogues_figures():
    parts = catalogue()
    amp = parts["hx711"]
    # full scale +-0.5 x 4.3 V / 128 over +-2^23 counts: 2.0023 nV a count
    assert volts_per_count(amp) == pytest.approx(4.3 / 128 / 2 ** 24)
    # the published measurement, 14 noise-free bits: 1024 counts peak to peak / 6.6 = 155.2
    # counts, 310.7 nV, worse than the datasheet's 90 at 80 SPS; at 10 SPS scaled by 50/90
    assert noise_nv(amp, 80) == pytest.approx(1024 / 6.6 * 4.3 / 128 / 2 ** 24 * 1e9)
    assert noise_nv(amp, 10) == pytest.approx(noise_nv(amp, 80) * 50 / 90)
    with pytest.raises(ValueError, match="10 or 80"):
        noise_nv(amp, 40)
    # a 5 kg TAL220B at its lowest rated output, 0.85 mV/V, on 4.3 V: 0.731 uV a gram
    assert uv_per_gram(parts["load-cell-5kg"], amp) == pytest.approx(0.85 * 4.3 * 1000 / 5000)
    assert uv_per_gram(parts["load-cell-1kg"], amp) == pytest.approx(0.85 * 4.3 * 1000 / 1000)


def test_the_largest_count_is_where_half_a_seed_is_four_deviations_of_the_uncertainty():
    # m = 10 g, cv 1%, noise 0.5 g: ((10/8)^2 - 0.25) / 0.1^2 = 131.25
    assert largest_count(10.0, 0.01, 0.5) == 131
    n = 131
    for count, tells in ((n, True), (n + 1, False)):
        sigma = math.sqrt(count * (0.01 * 10) ** 2 + 0.5 ** 2)
        assert (10.0 / 2 >= MIN_SEED_NOISE / 2 * sigma) is tells
    assert largest_count(1.0, 0.01, 1.0 / MIN_SEED_NOISE * 1.01) == -1   # not even one seed


def test_what_a_store_must_count_is_the_largest_game_its_board_carries():
    # 2 x 6: Layli Goobalay and Tampoduo, 4 x 12; 2 x 7: Mangala IV, 7 x 14; 2 x 12: the long
    # Layli Goobalay, 4 x 24 (its `pits` option plays it on 6..12 too)
    assert (largest_game(6).seeds, largest_game(7).seeds, largest_game(12).seeds,
            largest_game(9).seeds) == (48, 98, 96, 72)


# --- the shipped boards count their seeds ---------------------------------------------------

@pytest.mark.parametrize("name", sorted(shipped()))
def test_every_shipped_board_counts_what_each_place_must(name):
    profile = load(name)
    assert profile.seed == "seed-ball-12.7" and catalogue()[profile.seed].diameter_mm == 12.7
    figures = noise_budget(profile)
    if profile.sensors.kind != "load-cell":
        assert figures.places == ()               # break beams weigh nothing
        return
    assert len(figures.places) == profile.places and figures.failing == ()
    pits, stores = figures.places[:2 * profile.pits], figures.places[2 * profile.pits:]
    assert [p.label for p in stores] == ["S store", "N store"]
    assert {p.needed for p in pits} == {PIT_SEEDS}
    assert {p.needed for p in stores} == {largest_game(profile.pits).seeds}
    for place in figures.places:
        assert place.sigmas >= MIN_SEED_NOISE and place.largest >= place.needed
        assert place.load_g <= place.capacity_g
    # a pit's 1 kg cell: five times the counts per gram of a store's 5 kg cell, the same noise
    assert pits[0].counts_per_gram == pytest.approx(5 * stores[0].counts_per_gram)
    assert pits[0].noise_counts == pytest.approx(stores[0].noise_counts)


def test_check_prints_the_noise_budget_and_json_carries_its_figures(capsys):
    status, out, err = layli(capsys, "hardware", "check", "pico-bridge-2x7")
    assert status == 0 and err == ""
    text = out[out.index("noise budget"):]
    assert "seed-ball-12.7, 8.4 g, mass spread 0.06%" in text
    pits = next(line for line in text.splitlines() if line.strip().startswith("S1-S7, N1-N7"))
    stores = next(line for line in text.splitlines() if line.strip().startswith("S store"))
    assert "load-cell-1kg" in pits and " 30 " in pits and "REFUSED" not in pits
    assert "load-cell-5kg" in stores and " 98 " in stores and "19.8" in stores
    status, out, _err = layli(capsys, "hardware", "check", "pico-bridge-2x7", "--json")
    data = json.loads(out)["noise_budget"]
    assert status == 0 and data["ok"] and data["seed"] == "seed-ball-12.7"
    assert data["rate_sps"] == 80 and data["game_seeds"] == 98
    store = data["places"][-1]
    assert store["place"] == "N store" and store["needed"] == 98 and store["ok"]
    assert store["seed_uv"] == pytest.approx(8.40 * 0.85 * 4.3 / 5, abs=0.001)
    assert store["load_g"] == pytest.approx(STORE_CUP_G + 98 * 8.40 + HAND_G)
    status, out, _err = layli(capsys, "hardware", "check", "pi-direct-2x6")
    assert status == 0 and "nothing to count by weight" in out


# --- boards that cannot count are refused, place by place -----------------------------------

def test_a_5kg_store_with_the_old_045g_seed_is_refused_with_the_numbers(tmp_path, capsys):
    path = with_seed(tmp_path, "pico-bridge-2x6", "seed-bead-7")
    status, out, err = layli(capsys, "hardware", "check", str(path))
    assert status == 2 and out == ""
    lines = err.splitlines()
    store = [line for line in lines if ": S store: " in line]
    assert len(store) == 1 and store[0].startswith(
        "layli: error: %s: sensors.store_part: S store: " % path)
    # 0.45 g x 0.731 uV/g = 0.329 uV, 164 counts, against 311 nV: 1.1 deviations, not 8
    for words in ("one seed (seed-bead-7, 0.45 g) gives 0.329 uV (164 counts)",
                  "1.1 times the noise (311 nV rms at 80 SPS)",
                  "cannot tell one seed from none, but must count 48",
                  "a lower-capacity cell, or heavier seeds"):
        assert words in store[0], store[0]
    assert "higher gain" not in err
    assert any(": N store: " in line for line in lines)
    # every pit too: 1.6 uV on the 1 kg cell is 5.3 deviations; at 10 SPS it would count 5
    pit = next(line for line in lines if ": S1: " in line)
    assert "5.3 times the noise" in pit and "at 10 SPS" in pit and "up to 5 seeds" in pit
    assert len(lines) == 14
    status, out, _err = layli(capsys, "hardware", "check", str(path), "--json")
    data = json.loads(out)
    assert status == 2 and not data["ok"] and not data["noise_budget"]["ok"]
    assert data["noise_budget"]["places"][-1]["largest"] == -1
    assert any(p["key"] == "sensors.store_part" and "S store" in p["message"]
               for p in data["problems"])


def test_glass_marbles_are_refused_for_their_spread_not_their_weight(tmp_path, capsys):
    path = with_seed(tmp_path, "pico-standalone-2x6", "seed-marble-16")
    with pytest.raises(ProfileError) as caught:
        cli_check(path)
    pit = next(p for p in caught.value.problems if p.message.startswith("S1: "))
    assert "63.1 times the noise" in pit.message and "can count up to 17 seeds" in pit.message
    assert "mass spread (3%) is too wide" in pit.message


def cli_check(path: Path) -> None:
    problems = check(load(path))
    if problems:
        raise ProfileError(problems)


def test_a_cell_that_cannot_carry_the_cup_the_seeds_and_a_hand_is_refused(tmp_path):
    # 98 balls (823 g), the store's cup and a resting hand on a 1 kg cell: 1523 g
    path = with_seed(tmp_path, "pico-bridge-2x7", "seed-ball-12.7",
                     ('store_part = "load-cell-5kg"', 'store_part = "load-cell-1kg"'))
    problems = check(load(path))
    assert [p.key for p in problems] == ["sensors.store_part"] * 2
    assert problems[0].message == ("S store: the cup, 98 seeds and a resting hand weigh 1523 g, "
                                   "more than the load-cell-1kg's 1000 g: a cell of higher "
                                   "capacity, or lighter seeds")


def test_a_profile_names_its_seed_and_only_a_seed(tmp_path):
    text = (PROFILES / "pico-bridge-2x6.toml").read_text()
    start = text.index("[seeds]")
    path = tmp_path / "no-seeds.toml"
    path.write_text(text[:start] + text[text.index("[buttons]"):])
    with pytest.raises(ProfileError, match=r"no-seeds.toml: seeds: missing: the \[seeds\] table"):
        load(path)
    path = with_seed(tmp_path, "pico-bridge-2x6", "load-cell-1kg")
    with pytest.raises(ProfileError, match="seeds.part: 'load-cell-1kg' is a load-cell, not a "
                                           "seed"):
        load(path)


@pytest.mark.parametrize("old, new, message", [
    ("mass_cv = 0.0006\n", "mass_cv = 3\n",
     "seed-ball-12.7.mass_cv: a relative standard deviation: 0.01 is 1%, not 3.0"),
    ("mass_cv = 0.0006\n", "",
     "seed-ball-12.7.mass_cv: missing: a seed part needs the relative standard deviation"),
    ("rated_output_tol_mv_v = 0.15\nrated_output_source = \"HT", "rated_output_source = \"HT",
     "load-cell-5kg.rated_output_tol_mv_v: missing: a load-cell part needs"),
    ("measured_noise_free_bits = 14\n", "measured_noise_free_bits = 30\n",
     "hx711.measured_noise_free_bits: a 24-bit converter has 1..24 noise-free bits, not 30"),
])
def test_the_catalogue_refuses_a_seed_or_cell_without_its_figures(tmp_path, old, new, message):
    text = PARTS_FILE.read_text()
    assert text.count(old) == 1
    path = tmp_path / "parts.toml"
    path.write_text(text.replace(old, new))
    with pytest.raises(ProfileError) as caught:
        read_catalogue(path)
    assert message in str(caught.value) or any(message in str(p) for p in caught.value.problems)


# --- the calibrator says what helps ---------------------------------------------------------

def test_the_calibrators_refusal_says_what_helps_and_no_higher_gain():
    steps = Calibrator(1)
    steps.tare([[1000 + (i % 5) * 10] for i in range(40)])      # noise about 15 raw
    with pytest.raises(SensingError) as caught:
        steps.weigh([[1060 + (i % 5) * 10] for i in range(40)], 1)
    words = str(caught.value)
    assert "only" in words and "times the noise" in words and "higher gain" not in words
    assert "a lower-capacity cell" in words and "heavier seeds" in words and "10 " in words
    with pytest.raises(SensingError, match="lower-capacity cell") as caught:
        Calibration([0], [10.0], noise=[5.0])
    assert "higher gain" not in str(caught.value)


# --- the simulator reads what the board would ------------------------------------------------

def test_the_simulated_cells_have_each_places_sensitivity_and_noise():
    profile = load("pico-bridge-2x12")
    figures = noise_budget(profile)
    seed = figures.seed
    # a 2 x 12 board playing on 8 pits a row: 16 pits on the pit cells, 2 stores
    board = PhysicalBoard(8, [4] * 16, random.Random(1), seed.mass_g, seed.mass_cv)
    cells = LoadCells.from_budget(board, board.clock, random.Random(2), figures,
                                  drift_per_min=0, spike_rate=0)
    pit, store = figures.places[0], figures.places[-1]
    assert cells.raw_per_gram == [pit.counts_per_gram] * 16 + [store.counts_per_gram] * 2
    calibration = cells.calibration()
    assert calibration.noise == pytest.approx([pit.noise_counts] * 18)
    assert calibration.per_seed[0] == pytest.approx(pit.seed_counts)
    assert calibration.per_seed[17] == pytest.approx(store.seed_counts)
    # what a pit reads: its tare and its 4 balls at the pit cell's counts per gram, give or
    # take the noise (155 counts): many readings' spread is that noise
    readings = [cells.sample()[0] for _ in range(400)]
    mean = sum(readings) / len(readings)
    spread = math.sqrt(sum((r - mean) ** 2 for r in readings) / (len(readings) - 1))
    expected = cells.tare_raw[0] + sum(board.places[0]) * pit.counts_per_gram
    assert abs(mean - expected) < 4 * pit.noise_counts / math.sqrt(len(readings))
    assert spread == pytest.approx(pit.noise_counts, rel=0.15)


def test_the_simulator_plays_on_the_board_of_the_games_size_or_the_one_given(capsys):
    assert board_profile(6).name == "pico-bridge-2x6"
    assert board_profile(7).name == "pico-bridge-2x7"
    assert board_profile(12).name == board_profile(8).name == "pico-bridge-2x12"
    assert board_profile(6, "activity").name == "pi-direct-2x6"
    with pytest.raises(UsageError, match="has 6 pits a row; the game needs 7"):
        board_profile(7, "counting", "pico-bridge-2x6")
    status, _out, err = layli(capsys, "sim", "--profile", "pi-direct-2x6")
    assert status == 2 and "digital sensors, which cannot count" in err
    status, _out, err = layli(capsys, "sim", "--profile", "no-such-board")
    assert status == 2 and "no shipped profile of that name" in err


def test_the_simulator_refuses_a_board_that_cannot_count_its_seeds(tmp_path, capsys):
    # its calibration would refuse it, as the real board's would (one seed 5.3 noise deviations)
    path = with_seed(tmp_path, "pico-bridge-2x6", "seed-bead-7")
    status, out, err = layli(capsys, "sim", "--profile", str(path), "--json")
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert "sensors.pit_part: S1: one seed (seed-bead-7, 0.45 g)" in err
    assert "(and 13 more problems)" in err
