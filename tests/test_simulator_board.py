"""The simulator's physical board (issue 3 item 4): clock, seeds and hand, sensors, LED strip."""

import random
import statistics
import time

import pytest
from hypothesis import given, settings, strategies as st

from simulator.board import BoardError, Durations, PhysicalBoard, north_store, south_store
from simulator.clock import SimClock
from simulator.parts.hx711 import HX711
from simulator.leds import LedStrip
from simulator.sensors import (FAULT_OFFSET, FAULT_OUT_OF_RANGE, FAULT_STUCK, RAW_MAX, RAW_MIN,
                               DigitalSensors, LoadCells)

N = 6
PLACES = 2 * N + 2


def new_board(counts=None, seed=1, **options):
    return PhysicalBoard(N, [4] * (2 * N) if counts is None else counts, random.Random(seed),
                         **options)


def snapshot(board):
    """Everything an operation may change."""
    return (board.counts(), list(board.hand), [list(p) for p in board.places],
            list(board.actions), list(board.visits), board.busy_until_ms, board.clock.now_ms)


def expected_raw(cells, masses):
    """What each channel reads with no noise, drift or spike: tare + mass."""
    return [round(cells.tare_raw[c] + masses[c] * cells.raw_per_gram[c])
            for c in range(cells.channels)]


# ---- clock ----------------------------------------------------------------------------------

def test_clock_moves_only_forward_and_in_whole_ms():
    clock = SimClock(100)
    assert clock.advance(0) == 100 and clock.advance(12) == 112 and clock.ticks_ms() == 112
    assert clock.advance_to(200) == 200
    for bad in (lambda: clock.advance(-1), lambda: clock.advance_to(199)):
        with pytest.raises(ValueError):
            bad()
    for bad in (1.5, True, "3"):
        with pytest.raises(TypeError):
            clock.advance(bad)
    assert clock.now_ms == 200


# ---- board: counts, masses, operations --------------------------------------------------------

def test_places_and_counts():
    assert (south_store(N), north_store(N)) == (12, 13)
    board = new_board()
    assert board.counts() == [4] * 12 + [0, 0] and board.total() == 48
    with_stores = new_board([1] * 12 + [5, 7])
    assert with_stores.counts()[12:] == [5, 7] and with_stores.total() == 24
    for bad in ([4] * 11, [4] * 13, [4] * 11 + [-1], [4] * 11 + [1.0]):
        with pytest.raises(ValueError):
            new_board(bad)


def test_seed_masses_have_the_configured_spread():
    board = new_board([1000] * 12)            # 12,000 seeds
    masses = board.all_masses_g()
    mean = statistics.fmean(masses)
    assert abs(mean - 5.0) < 0.01
    assert 0.0185 < statistics.pstdev(masses) / mean < 0.0215
    steel = new_board([1000] * 12, seed_mass_g=8.0, spread=0.005).all_masses_g()
    assert 0.0045 < statistics.pstdev(steel) / statistics.fmean(steel) < 0.0055
    assert min(new_board([500] * 12, spread=2.0).all_masses_g()) > 0    # clipped positive


def test_a_sowing_then_a_capture_into_the_store():
    board = new_board()
    assert board.lift(2).seeds == 4 and len(board.hand) == 4
    for pit in (3, 4, 5, 6):
        board.drop(pit)
    board.move(6, board.south_store, 5)
    assert board.counts() == [4, 4, 0, 5, 5, 5, 0, 4, 4, 4, 4, 4, 5, 0]
    assert board.hand == [] and board.total() == 48
    assert [a.kind for a in board.actions] == ["lift", "drop", "drop", "drop", "drop", "move"]


def test_operations_are_scheduled_not_run_and_take_their_durations():
    board = new_board()
    lift = board.lift(0)
    drop = board.drop(1, 3)
    move = board.move(1, board.south_store, 2)
    assert board.clock.now_ms == 0                      # nothing advanced the clock
    assert (lift.start_ms, lift.end_ms) == (0, 400)     # the hand in the pit, gathering
    assert drop.start_ms == 400 + 150 and drop.end_ms - drop.start_ms == 3 * 250
    assert move.end_ms - move.start_ms == 600           # grab, carry, release
    assert board.busy_until_ms == move.end_ms and not board.idle
    # the log says where the hand was, when; the hand is in no place while it travels
    assert [v.place for v in board.visits] == [0, 1, 1, board.south_store]
    board.clock.advance_to(200)
    assert (board.hand_at, board.hand_since_ms) == (0, 0)
    board.clock.advance_to(450)
    assert board.hand_at is None and board.hand_since_ms is None
    board.clock.advance_to(move.end_ms)
    assert board.idle and board.busy_until_ms == move.end_ms
    # an operation asked for later starts when asked, not in the past
    board.clock.advance(5000)
    assert board.touch(3, 100).start_ms == board.clock.now_ms


def test_seeds_leave_when_the_hand_does_and_land_while_it_hovers():
    board = new_board(durations=Durations(lift_ms=400, drop_ms=200, travel_ms=100))
    board.lift(2)
    board.drop(3)                           # the hand in pit 3 from 500 to 700: lands at 600
    assert board.counts()[2:4] == [0, 5]    # the truth once the hand has done it all
    for now, pits in ((0, [4, 4]), (399, [4, 4]), (400, [0, 4]), (599, [0, 4]), (600, [0, 5])):
        board.clock.advance_to(now)
        assert board.counts_now()[2:4] == pits
    assert board.masses_now_g()[3] == pytest.approx(sum(board.places[3]))


def test_knock_moves_one_seed_without_the_hand_in_the_other_place():
    board = new_board()
    action = board.knock(4, 5)
    assert board.counts()[4:6] == [3, 5] and board.hand == []
    assert (action.to_place, action.seeds) == (5, 1)
    assert [v.place for v in board.visits] == [4]


@pytest.mark.parametrize("operation", [
    lambda b: b.drop(0),                    # empty hand
    lambda b: b.put(0, 1),
    lambda b: b.take(0, 5),                 # more than the pit holds
    lambda b: b.move(0, 1, 5),
    lambda b: b.move(0, 0, 1),              # nowhere to go
    lambda b: b.lift(12),                   # an empty store
    lambda b: b.knock(12, 11),
    lambda b: b.knock(3, 3),
    lambda b: b.lift(14),                   # no such place
    lambda b: b.lift(-1),
    lambda b: b.drop(True),
    lambda b: b.take(0, 0),                 # no seeds is not an operation
    lambda b: b.touch(0, 0),
])
def test_impossible_operations_raise_and_change_nothing(operation):
    board = new_board()
    before = snapshot(board)
    with pytest.raises(ValueError):         # BoardError is a ValueError
        operation(board)
    assert snapshot(board) == before


OPERATIONS = st.tuples(st.sampled_from(["lift", "drop", "take", "put", "move", "knock", "touch"]),
                       st.integers(-1, PLACES), st.integers(-1, PLACES), st.integers(0, 6))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=12, max_size=12),
       st.lists(OPERATIONS, max_size=60), st.integers(0, 2 ** 32))
def test_seeds_are_conserved_through_any_operations(pits, operations, seed):
    board = PhysicalBoard(N, pits, random.Random(seed))
    total, masses = board.total(), board.all_masses_g()
    clock_steps = random.Random(seed)
    for kind, a, b, k in operations:
        before = snapshot(board)
        try:
            if kind in ("lift",):
                board.lift(a)
            elif kind in ("drop", "take", "put"):
                getattr(board, kind)(a, k)
            elif kind == "move":
                board.move(a, b, k)
            elif kind == "knock":
                board.knock(a, b)
            else:
                board.touch(a, k * 100)
        except BoardError:
            assert snapshot(board) == before
        assert board.total() == total and board.all_masses_g() == masses
        assert sum(board.counts()) + len(board.hand) == total
        assert min(board.counts()) >= 0
        board.clock.advance(clock_steps.randrange(0, 800))
        assert sum(board.counts_now()) <= total
    board.clock.advance_to(board.busy_until_ms)
    assert board.counts_now() == board.counts()
    assert board.masses_now_g() == pytest.approx([sum(p) for p in board.places])


# ---- load cells -----------------------------------------------------------------------------

def still_readings(cells, ms):
    """Per channel, the readings of a board nobody touches, for `ms` simulated milliseconds
    (the readings the planner could not vouch for, None, left out)."""
    frames = list(cells.frames(cells.clock.now_ms + ms))
    return [[frame.values[c] for frame in frames if frame.values[c] is not None]
            for c in range(cells.channels)]


def test_every_chip_converts_on_its_own_oscillator():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(2))
    periods = cells.periods_us
    assert len(periods) == PLACES == len(set(periods))   # no two alike
    assert all(10702 * 0.97 <= p <= 10702 * 1.03 for p in periods)    # olkal's 10,702, +-3%
    assert max(periods) - min(periods) > 10702 * 0.02
    board = new_board()
    again = LoadCells(board, board.clock, random.Random(2))
    other = LoadCells(board, board.clock, random.Random(3))
    assert [c.period_us for c in again.chips] == periods != other.periods_us
    # what a board's chips do is told by the datasheet model (the firmware's fakes use it)
    assert all(isinstance(chip, HX711) for chip in cells.chips)
    given = LoadCells(board, board.clock, random.Random(2),
                      periods_us=[10702] * 13 + [85635])       # one breakout at 10 SPS
    assert given.periods_us[-1] == 85635
    for bad in ([10702] * 13, [10702] * 13 + [40], [10702] * 13 + [300_000]):
        with pytest.raises(ValueError):
            LoadCells(board, board.clock, random.Random(2), periods_us=bad)


def test_frames_follow_the_slowest_chip_not_the_nominal_80_per_second():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(2))
    frames = list(cells.frames(10_000))
    times = [frame.time_ms for frame in frames]
    slowest = max(cells.periods_us)                     # 11,004 us with this seed
    # a read needs every chip's result, so it waits for the slowest chip: one read for each
    # of its conversions (not 800 frames on a 12.5 ms grid)
    assert 0.97 * 10_000_000 / slowest <= len(frames) <= 10_000_000 / slowest + 1
    assert len(frames) > 10 * 88
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert min(gaps) >= 10 and max(gaps) <= 20
    assert statistics.fmean(gaps) == pytest.approx(slowest / 1000, rel=0.03)
    assert all(len(frame.values) == PLACES for frame in frames)
    assert times == sorted(times) and times[-1] <= 10_000 == board.clock.now_ms
    # the faster chips' results are replaced unread while the read waits for the slowest
    assert all(chip.overwritten > 0 for chip in cells.chips if chip.period_us < 0.99 * slowest)
    assert cells.chips[cells.periods_us.index(slowest)].overwritten == 0
    # the next call goes on where this one stopped
    assert times[-1] < next(cells.frames(10_100)).time_ms <= times[-1] + 20


def test_a_reading_the_planner_cannot_vouch_for_is_none_and_counted():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(2))
    frames = list(cells.frames(120_000))
    nones = sum(value is None for frame in frames for value in frame.values)
    assert nones == cells.untrusted
    # the first two reads: each chip's period is measured from the spans between the ends
    # of its conversions, and is known once two spans agree
    assert frames[0].values == frames[1].values == [None] * PLACES
    assert None not in frames[2].values
    # from then on the planner times every read so that no conversion ends inside it, and
    # vouches for nearly every reading
    assert cells.delays > 0.1 * len(frames) and cells.corrupted == 0
    assert nones - 2 * PLACES < 0.001 * PLACES * len(frames)
    # a reader left behind by the clock starts afresh, the rhythm to be learnt again: the
    # chips had results waiting, so its first read comes before it has seen any conversion
    board.clock.advance_to(130_000)
    after = list(cells.frames(130_100))
    assert cells.restarts == 1 and after[0].time_ms >= 130_000
    assert after[0].values == after[1].values == [None] * PLACES
    assert None not in after[3].values


def test_a_read_a_conversion_caught_never_comes_out_as_a_number():
    """The first reads are made before the planner knows any rhythm: as soon as every DOUT is
    low, and now and then a conversion ends inside one. The model says which (its corrupted
    count, `last_read`); every one of them is None in its frame."""
    caught = 0
    for seed in range(150):
        board = new_board()
        cells = LoadCells(board, board.clock, random.Random(seed))
        for frame in cells.frames(40):
            for chip, value in zip(cells.chips, frame.values):
                if not chip.last_read[1]:           # the word it shifted out was broken
                    caught += 1
                    assert value is None
        assert cells.corrupted <= cells.untrusted
    assert caught > 0


def test_readings_are_tare_plus_mass():
    board = new_board([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    cells = LoadCells(board, board.clock, random.Random(3), per_seed_raw=2000.0)
    readings = still_readings(cells, 5000)
    for channel, values in enumerate(readings):
        seeds = (statistics.median(values) - cells.tare_raw[channel]) / 2000.0
        assert seeds == pytest.approx(board.counts()[channel], abs=0.3)


def test_same_seeds_same_frames():
    def run():
        board = new_board(seed=5)
        cells = LoadCells(board, board.clock, random.Random(6))
        board.lift(0)
        board.drop(1, 4)
        return list(cells.frames(5000))
    assert run() == run()


def test_noise_is_005_seed_masses_per_sample():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(4), drift_per_min=0, spike_rate=0)
    for values in still_readings(cells, 60_000):
        assert 0.045 < statistics.pstdev(values) / 2000.0 < 0.055
    # with every flaw on, a robust spread (median absolute deviation) still says 0.05
    cells = LoadCells(board, board.clock, random.Random(4))
    for values in still_readings(cells, 20_000):
        middle = statistics.median(values)
        mad = statistics.median(abs(v - middle) for v in values)
        assert 0.04 < mad * 1.4826 / 2000.0 < 0.06


def test_spikes_are_rare_and_at_most_3_seed_masses():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(7), noise=0, drift_per_min=0)
    expected = expected_raw(cells, board.masses_now_g())
    frames = list(cells.frames(250_000))                 # 23,000 reads of 14 channels
    deviations = [frame.values[c] - expected[c] for frame in frames for c in range(PLACES)
                  if frame.values[c] is not None]
    spikes = [d for d in deviations if d != 0]
    samples = len(deviations)
    assert 0.7 < len(spikes) / (samples / 2000) < 1.3    # about 1 in 2,000 (160 here)
    # each spike drawn is in the word read out, unless that reading was None
    assert cells.spike_count - cells.untrusted <= len(spikes) <= cells.spike_count
    assert max(abs(d) for d in spikes) <= 3 * 2000
    assert min(spikes) < -2000 and max(spikes) > 2000    # either sign, up to 3 seed masses
    # a spike lasts one reading
    for channel in range(PLACES):
        column = [frame.values[channel] not in (expected[channel], None) for frame in frames]
        assert not any(a and b for a, b in zip(column, column[1:]))


def test_drift_stays_within_02_seed_masses_per_minute():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(8), noise=0, spike_rate=0)
    expected = expected_raw(cells, board.masses_now_g())

    def within_the_allowance(drift):
        """`drift`: (time_ms, per channel the drift in seed masses)."""
        for i in range(len(drift)):
            for j in range(i + 1, min(i + 121, len(drift))):    # every window up to 2 minutes
                minutes = (drift[j][0] - drift[i][0]) / 60_000
                for c in range(PLACES):
                    assert abs(drift[j][1][c] - drift[i][1][c]) <= 0.2 * minutes + 0.001

    # the words read out carry it: three minutes of frames, the first of each second
    seconds, second = [], 1
    for frame in cells.frames(3 * 60_000):
        if frame.time_ms >= 1000 * second and None not in frame.values:
            seconds.append((frame.time_ms, [(frame.values[c] - expected[c]) / 2000.0
                                            for c in range(PLACES)]))
            second = frame.time_ms // 1000 + 1
    assert len(seconds) >= 3 * 60 - 2
    within_the_allowance(seconds)
    assert max(abs(value) for value in seconds[-1][1]) > 0.05
    # and over twenty minutes, the signal the chips convert (`sample`), once a second
    signal = []
    for second in range(3 * 60 + 1, 20 * 60 + 1):
        board.clock.advance_to(1000 * second)
        signal.append((1000 * second, [(v - expected[c]) / 2000.0
                                       for c, v in enumerate(cells.sample())]))
    within_the_allowance(seconds[-120:] + signal)
    # it does drift: some channel moved by a good part of the allowance in 20 minutes
    assert max(abs(value) for value in signal[-1][1]) > 0.3


def test_readings_saturate_at_the_24_bit_rails():
    board = new_board([5000] + [0] * 11)                # 5,000 seeds: 10,000,000 raw
    cells = LoadCells(board, board.clock, random.Random(9), tare_raw=[0] * 13 + [-8_388_600])
    values = still_readings(cells, 2000)
    assert set(values[0]) == {RAW_MAX} == {2 ** 23 - 1}
    assert min(values[13]) == RAW_MIN == -(2 ** 23) < max(values[13])   # noise at the rail
    assert all(RAW_MIN <= v <= RAW_MAX for channel in values for v in channel)


def test_a_hand_in_a_pit_is_a_large_disturbance_on_that_channel_only():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(10), spike_rate=0)
    expected = expected_raw(cells, board.masses_now_g())
    list(cells.frames(100))                              # the chips' rhythm learnt
    touch = board.touch(3, 2000)
    # a read shows what its conversions converted, the signal at the read before (each
    # conversion integrates the last ~11 ms): the first read inside the visit may not see it
    frames = [f for f in cells.frames(touch.end_ms)
              if touch.start_ms + 12 <= f.time_ms < touch.end_ms]
    assert not any(None in frame.values for frame in frames)
    for channel in range(PLACES):
        seeds = [(frame.values[channel] - expected[channel]) / 2000.0 for frame in frames]
        if channel == 3:
            assert statistics.fmean(seeds) > 3            # several seed masses
            assert statistics.pstdev(seeds) > 1           # different in every sample
            assert min(seeds) > 0.3
        else:
            assert max(abs(s) for s in seeds) < 0.3       # noise and a little drift only
    after = list(cells.frames(touch.end_ms + 1000))
    assert abs(after[-1].values[3] - expected[3]) < 0.3 * 2000


def test_a_lift_shows_as_the_hand_then_an_empty_pit():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(11), spike_rate=0)
    # (the first two readings are None: the chips' rhythm is not known yet)
    before = [f.values[5] - cells.tare_raw[5] for f in list(cells.frames(1000))[2:]]
    lift = board.lift(5)
    frames = list(cells.frames(lift.end_ms + 500))
    assert None not in [f.values[5] for f in frames]
    during = [f.values[5] - cells.tare_raw[5] for f in frames if f.time_ms < lift.end_ms]
    # (a read shows the signal at the read before: one more frame of the hand)
    after = [f.values[5] - cells.tare_raw[5] for f in frames if f.time_ms >= lift.end_ms + 12]
    assert all(abs(v - 4 * 2000) < 0.3 * 2000 for v in before)     # four seeds
    assert statistics.fmean(during) > 4 * 2000 + 2 * 2000           # four seeds and a hand
    assert all(abs(v) < 0.3 * 2000 for v in after)                  # an empty pit


def test_load_cell_faults():
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(12), noise=0, drift_per_min=0,
                      spike_rate=0)
    healthy = cells.sample()
    cells.inject_fault(0, FAULT_STUCK)                   # disconnected: at the rail
    cells.inject_fault(1, FAULT_STUCK, 1234)             # disconnected: a constant
    cells.inject_fault(2, FAULT_OFFSET)                  # a negative offset
    cells.inject_fault(3, FAULT_OUT_OF_RANGE)
    cells.inject_fault(4, FAULT_OFFSET, 2.5)
    faulty = cells.sample()
    assert faulty[:2] == [RAW_MAX, 1234]
    assert faulty[2] - healthy[2] == -5 * 2000
    assert faulty[3] - healthy[3] == 1000 * 2000
    assert faulty[4] - healthy[4] == 2.5 * 2000
    assert faulty[5:] == healthy[5:]
    cells.clear_fault(0)
    assert cells.sample()[:2] == [healthy[0], 1234]
    cells.clear_fault()
    assert cells.sample() == healthy
    for channel, kind in ((0, "melted"), (14, FAULT_STUCK), (-1, FAULT_STUCK)):
        with pytest.raises(ValueError):
            cells.inject_fault(channel, kind)
    with pytest.raises(ValueError):
        LoadCells(board, SimClock(), random.Random(1))   # not the board's clock


def test_a_10_minute_game_runs_in_simulated_time():
    """Sow for ten simulated minutes with the sensors streaming. No timing assertion: the
    wall time is printed (run with -s) and must stay far below the 600 s simulated."""
    board = new_board()
    cells = LoadCells(board, board.clock, random.Random(13))
    rng = random.Random(14)
    started = time.perf_counter()
    frames = 0
    while board.clock.now_ms < 600_000:
        pit = rng.choice([p for p in range(12) if board.counts()[p]])
        board.lift(pit)
        for step in range(1, len(board.hand) + 1):
            board.drop((pit + step) % 12)
        frames += sum(1 for _ in cells.frames(board.busy_until_ms + 1000))
    print("10 simulated minutes, %d frames: %.2f s wall" % (frames, time.perf_counter() - started))
    assert board.total() == 48 and frames >= 600 * 80
    assert board.clock.now_ms >= 600_000


# ---- digital sensors ------------------------------------------------------------------------

def test_a_pit_reads_1_while_the_hand_is_in_it():
    board = new_board()
    sensors = DigitalSensors(board, board.clock, random.Random(1), bounce_rate=0)
    lift = board.lift(4)
    move = board.drop(board.north_store, 4)              # the store has no digital sensor
    readings = [(f.time_ms, f.values) for f in sensors.frames(move.end_ms + 100)]
    visits = board.visits
    for time_ms, values in readings:
        assert len(values) == 12
        in_pit = any(v.start_ms <= time_ms < v.end_ms and v.place == 4 for v in visits)
        assert values == [1 if (p == 4 and in_pit) else 0 for p in range(12)]
    assert any(values[4] for _, values in readings)
    assert lift.end_ms < move.start_ms


def poll_around_edges(sensors, visit, pit):
    """Readings of `pit` every millisecond from just before the hand arrives to a little after
    it leaves (skipping the steady middle)."""
    clock, readings = sensors.clock, []
    for start, end in ((visit.start_ms - 2, visit.start_ms + 10), (visit.end_ms - 2,
                                                                  visit.end_ms + 12)):
        for t in range(start, end):
            clock.advance_to(max(t, clock.now_ms))
            readings.append(sensors.sample()[pit])
    return readings


def test_about_1_percent_of_activations_bounce():
    board = new_board()
    sensors = DigitalSensors(board, board.clock, random.Random(2))
    rng = random.Random(3)
    bounced = 0
    board.touch(board.south_store, 10)      # no sensor there; the first pit visit comes later
    for _ in range(5000):
        pit = rng.randrange(12)
        board.touch(pit, 60)
        visit = board.visits[-1]
        readings = poll_around_edges(sensors, visit, pit)
        changes = sum(1 for a, b in zip(readings, readings[1:]) if a != b)
        assert readings[0] == 0 and readings[-1] == 0 and changes in (2, 4)
        bounced += changes == 4
    assert bounced == sensors.bounce_count
    assert 25 <= bounced <= 80                            # about 50 (1%); 3.5 sigma either way


def test_digital_faults_and_frames():
    board = new_board()
    sensors = DigitalSensors(board, board.clock, random.Random(4), bounce_rate=0)
    sensors.inject_fault(0, 1)
    sensors.inject_fault(1, 0)
    board.touch(1, 500)
    frames = list(sensors.frames(400))
    assert {f.values[0] for f in frames} == {1} and {f.values[1] for f in frames} == {0}
    assert [f.time_ms for f in frames[:3]] == [0, 5, 10]                # 200 Hz polling
    sensors.clear_fault()
    assert sensors.sample()[:2] == [0, 1]
    for pit, value in ((12, 1), (0, 2)):
        with pytest.raises(ValueError):
            sensors.inject_fault(pit, value)


# ---- LED strip ------------------------------------------------------------------------------

def test_led_strip_mirrors_a_neopixel_driver():
    strip = LedStrip(4)
    strip[0] = (255, 0, 0)
    strip[-1] = [0, 0, 255]                               # lists and negative indices, as drivers
    assert strip[0] == (255, 0, 0) and strip.pixel(0) == (0, 0, 0)   # buffered, not shown
    strip.show()
    assert strip.pixel(0) == (255, 0, 0) and strip.pixel(3) == (0, 0, 255)
    assert strip.lit() == {0: (255, 0, 0), 3: (0, 0, 255)}
    strip.fill((1, 2, 3))
    strip.show()
    assert strip.shown == [(1, 2, 3)] * 4 and strip.frames_shown == 2 and len(strip) == 4
    strip.write([(0, 0, 0), (9, 9, 9), (0, 0, 0), (0, 0, 0)])
    strip.show()
    assert strip.lit() == {1: (9, 9, 9)} and strip.frames_shown == 3


@pytest.mark.parametrize("colour", [(256, 0, 0), (-1, 0, 0), (1.0, 0, 0), (True, 0, 0),
                                    (1, 2), (1, 2, 3, 4), "rgb", 0xFF0000, None])
def test_led_strip_validates_colours(colour):
    strip = LedStrip(3)
    strip.write([(5, 5, 5)] * 3)
    for bad in (lambda: strip.__setitem__(0, colour), lambda: strip.fill(colour),
                lambda: strip.write([(0, 0, 0), colour, (0, 0, 0)])):
        with pytest.raises(ValueError):
            bad()
    assert strip.buffer == [(5, 5, 5)] * 3                # nothing half-written


def test_led_strip_validates_indices_and_lengths():
    strip = LedStrip(3)
    for index in (3, -4, 1.0, True):
        with pytest.raises(IndexError):
            strip[index] = (0, 0, 0)
    with pytest.raises(ValueError):
        strip.write([(0, 0, 0)] * 2)
    with pytest.raises(ValueError):
        LedStrip(0)
