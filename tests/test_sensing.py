"""The sensing layer (controller/sensing): calibration, counting by weight, activity sensors.

Every signal here is synthetic, made by `LoadCells` below from a seeded `random.Random`: seeds
(each with its own mass) on every place, a tare and a gain per cell, Gaussian noise, rare
spikes, slow drift and, when a test asks, a hand. `Truth` watches a run frame by frame and
counts two kinds of failure: a settled count that is wrong (beyond the two frames the median
filter lags behind a step), and a count that has not followed a step within the settle time.
"""

from __future__ import annotations

import math
import random
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

from controller import micropython
from controller.sensing import (ActivitySensor, Calibration, Calibrator, CountingSensor,
                                HX711_HIGH, HX711_LOW, SensingError, channel_name,
                                count_confidence, median5, reliable_count,
                                seed_spread)
from controller.sensing.frames import pit_name
from controller.sensing import counting
from controller.sensing.counting import JUDGE_MOST, STEADY_MS

FRAME_MS = 12.5             # 80 frames a second
LAG_MS = 40                 # the median of 5 follows a step after 2 frames: 25 ms (+ a frame)
FOLLOW_MS = 200 + 60        # settle_ms + lag + a frame or two: a count follows a step by then


class LoadCells:
    """A synthetic counting board: `channels` load cells (2n pits + 2 stores).

    raw = tare + per_seed * (mass of the seeds + hand + drift_rate * t + noise [+ spike]), with
    masses in seeds (1 +- spread), noise Gaussian with `noise` seeds of deviation, a spike of up
    to `spike` seeds in one frame out of `spike_every`, and a drift of `drift` seeds a minute
    (each cell its own direction and rate up to that)."""

    def __init__(self, rng, channels=14, noise=0.05, spike=3.0, spike_every=2000, drift=0.0,
                 spread=0.0, counts=None):
        self.rng = rng
        self.channels = channels
        self.noise = noise
        self.spike = spike
        self.spike_every = spike_every
        self.spread = spread
        self.tare = [rng.randint(-400_000, 400_000) for _ in range(channels)]
        self.per_seed = [rng.uniform(800.0, 3000.0) for _ in range(channels)]
        self.drift_rate = [rng.uniform(-1.0, 1.0) * drift / 60_000 for _ in range(channels)]
        self.seeds = [[] for _ in range(channels)]
        self.hand = [0.0] * channels        # extra weight, in seeds, that a test sets
        for channel, count in enumerate(counts or [4] * (channels - 2) + [0, 0]):
            self.set_count(channel, count)

    def set_count(self, channel, count):
        """Add or take away seeds (a random few of them) until `channel` holds `count`."""
        seeds = self.seeds[channel]
        while len(seeds) > count:
            seeds.pop(self.rng.randrange(len(seeds)))
        while len(seeds) < count:
            seeds.append(self.rng.gauss(1.0, self.spread) if self.spread else 1.0)

    def count(self, channel):
        return len(self.seeds[channel])

    def weight(self, channel, t_ms):
        """What `channel` weighs at `t_ms`, in seeds, without noise."""
        return sum(self.seeds[channel]) + self.hand[channel] + self.drift_rate[channel] * t_ms

    def frame(self, t_ms):
        rng = self.rng
        raw = []
        for channel in range(self.channels):
            seeds = self.weight(channel, t_ms) + rng.gauss(0.0, self.noise)
            if rng.randrange(self.spike_every) == 0:
                seeds += rng.uniform(-self.spike, self.spike)
            raw.append(self.tare[channel] + round(seeds * self.per_seed[channel]))
        return raw

    def calibration(self, spread=0.02, **extra):
        """The exact calibration (tests of the counting filter: the Calibrator has its own)."""
        return Calibration(self.tare, self.per_seed, max(spread, self.spread),
                           [self.noise * p for p in self.per_seed], **extra)


class Truth:
    """Checks a sensor against the true counts at every frame."""

    def __init__(self, cells):
        self.cells = cells
        self.now = [cells.count(c) for c in range(cells.channels)]
        self.before = self.now[:]
        # at power-on every place's first band starts in the same frame, and their first
        # judgements are made JUDGE_MOST a frame: the last places count a few frames later
        self.changed_at = [c // JUDGE_MOST * FRAME_MS for c in range(cells.channels)]
        self.wrong = []         # (t, channel, reported, true)
        self.late = []
        self.frames = 0

    def change(self, channel, count, t_ms):
        self.cells.set_count(channel, count)
        self.before[channel] = self.now[channel]
        self.now[channel] = count
        self.changed_at[channel] = t_ms

    def restart(self, channel, t_ms):
        """Channel `channel` starts afresh at `t_ms` (after a fault): it must follow again."""
        self.before[channel] = self.now[channel]
        self.changed_at[channel] = t_ms

    def check(self, sensor, t_ms, channels=None):
        self.frames += 1
        for c in range(self.cells.channels) if channels is None else channels:
            age = t_ms - self.changed_at[c]
            count = sensor.counts[c]
            if sensor.settled[c] and count != self.now[c] and not (
                    count == self.before[c] and age <= LAG_MS):
                self.wrong.append((t_ms, c, count, self.now[c]))
            if age >= FOLLOW_MS and not (sensor.settled[c] and count == self.now[c]):
                self.late.append((t_ms, c, sensor.reading(c), self.now[c]))


def run(sensor, cells, truth, start_ms, frames, change=None, channels=None):
    """Feed `frames` frames from `start_ms`; `change(t_ms)` may change the seeds first. Returns
    the time after the last frame."""
    t = start_ms
    for _ in range(frames):
        if change is not None:
            change(t)
        sensor.feed(t, cells.frame(t))
        truth.check(sensor, t, channels)
        t += FRAME_MS
    return t


def settle(sensor, cells, start_ms=0.0, frames=40):
    """Feed frames of a board at rest; return the time after them."""
    t = start_ms
    for _ in range(frames):
        sensor.feed(t, cells.frame(t))
        t += FRAME_MS
    return t


def random_changes(rng, truth, channels, low_ms=400.0, high_ms=6000.0, most=5):
    """A `change(t)` for `run`: each channel, at random intervals, gains 1..most seeds or loses
    some (down to none), as sowings, relays and captures do."""
    due = [rng.uniform(low_ms, high_ms) for _ in range(channels)]

    def change(t_ms):
        for c in range(channels):
            if t_ms >= due[c]:
                count = truth.now[c]
                delta = 0
                while delta == 0:
                    delta = rng.randint(-count, most)
                truth.change(c, count + delta, t_ms)
                due[c] = t_ms + rng.uniform(low_ms, high_ms)
    return change


# --- the filter's pieces --------------------------------------------------------------------

@given(st.lists(st.integers(-2**24, 2**24), min_size=5, max_size=5))
def test_median5_is_the_median(values):
    assert median5(*values) == sorted(values)[2]


def test_median5_every_order_with_ties():
    for code in range(3 ** 5):
        values = [code // 3 ** i % 3 for i in range(5)]
        assert median5(*values) == sorted(values)[2], values


@given(st.integers(0, 60), st.floats(-0.45, 0.45), st.floats(0.0, 0.05), st.floats(0.0, 0.05))
def test_confidence_is_a_probability_highest_for_the_nearest_count(k, off, spread, sigma):
    x = max(k + off, 0.0)
    here = count_confidence(x, k, spread, sigma)
    assert 0.0 <= here <= 1.0
    # near-equal, not exact: k+1's wider spread tilts the peak a hair below k (seen: 1.4e-6)
    assert here <= count_confidence(float(k), k, spread, sigma) + 1e-4
    for other in (k - 1, k + 1):
        if other >= 0:
            assert count_confidence(x, other, spread, sigma) <= here + 1e-9


def test_confidence_reflects_the_mass_spread_of_the_seeds_that_moved():
    assert count_confidence(4.0, 4, 0.02, 0.006) > 0.99
    assert count_confidence(4.3, 4, 0.02, 0.006) < 0.01         # 0.3 seed: not 4 seeds
    assert count_confidence(40.3, 40, 0.02, 0.006) > 0.9        # 40 seeds may be 0.3 off
    assert count_confidence(40.3, 40, 0.02, 0.006, ref=39) < 0.01   # one seed may not
    assert count_confidence(40.5, 40, 0.02, 0.006) < 0.5        # halfway: no better than 41


def test_a_judgement_gives_count_confidences_numbers_in_whole_numbers():
    """A judgement weighs its candidate counts in whole numbers (`weigh`: no float, so
    nothing allocated on a Pico), each candidate's likelihood from either zero worked out
    once, against count_confidence in floats: random channels (noise, spread, drift, the
    zeros together, a seed apart, several apart, where the judgement falls back to floats).
    The confidence stays within 0.015 of the floats' (the values are rounded to 1/1024 seed,
    the likelihoods to 1/256 of a halving), so the count is the same wherever the floats are
    not within that of a tie; the value is the one the likelier zero measures, but where the
    two zeros explain the count equally well within the rounding (or two counts do)."""
    paths = set()
    worst = 0.0
    for seed in range(3000):
        rng = random.Random(seed)
        per_seed = rng.choice([3000, 9000, 20000])
        calibration = Calibration([40000], [per_seed], rng.choice([0.01, 0.02, 0.05]),
                                  noise=[rng.choice([0.0, 3.0, 30.0, 300.0])])
        sensor = CountingSensor(calibration, max_count=200)
        sensor.feed(0, [40000 + 5 * per_seed])
        channel = sensor._channels[0]
        state, at = sensor._state, channel.at
        n = state[at + counting.N] = rng.randrange(1, 64)
        state[at + counting.BASE] = 40000 + int(rng.uniform(0.6, 60) * per_seed)
        state[at + counting.ACC] = int(rng.uniform(-0.6, 0.6) * per_seed * n)
        state[at + counting.FRESH] = 0
        channel.drift = rng.uniform(-2, 2) * per_seed
        channel.empty_drift = channel.drift + rng.choice(
            [0, rng.uniform(-0.7, 0.7), rng.uniform(-4, 4)]) * per_seed
        channel.ref = rng.randrange(0, 40)
        channel.empty_ref = rng.choice([0, channel.ref, rng.randrange(0, 40)])
        x = ((state[at + counting.BASE] - 40000) + state[at + counting.ACC] / n
             - channel.drift) / per_seed
        empty = x + (channel.drift - channel.empty_drift) / per_seed
        sigma = calibration.noise[0] / per_seed * math.sqrt(counting.MEDIAN_VARIANCE / n)
        ref, empty_ref, spread = channel.ref, channel.empty_ref, calibration.spread
        sensor._judge(0, channel, 1000)
        if sensor.faults[0] is not None:
            continue
        k, other = round(x) if x > 0 else 0, round(empty) if empty > 0 else 0
        confidence = count_confidence(x, k, spread, sigma, ref, empty, empty_ref)
        chance = confidence
        if other != k:
            chance = count_confidence(x, other, spread, sigma, ref, empty, empty_ref)
            if chance > confidence:
                k, confidence, chance = other, chance, confidence
        assert abs(sensor.confidence[0] - confidence) < 0.015, seed
        worst = max(worst, abs(sensor.confidence[0] - confidence))
        if confidence - chance > 0.03 and abs(confidence - 0.5) > 0.015:
            assert sensor.counts[0] == (k if confidence >= 0.5 else None), seed
        floor = counting.SIGMA_FLOOR2 + sigma * sigma
        near = counting._likelihood(x, k, ref, spread * spread, floor)
        far = counting._likelihood(empty, k, empty_ref, spread * spread, floor)
        if confidence - chance > 0.03 and abs(near - far) > 0.02 * max(near, far):
            assert sensor.values[0] == (empty if far > near else x), seed
        paths.add(min(abs(k - other), 2))
    assert paths == {0, 1, 2}
    assert worst > 0            # (the whole numbers were used)


def test_the_judgements_tables_are_what_they_say():
    assert list(counting.EXP2) == [round(32768 * 2 ** (-i / 256)) for i in range(256)]
    assert list(counting.HALF_LOG2) == [round(128 * math.log2(1 + i / 256))
                                         for i in range(256)]
    assert counting.FLOOR_Q == round(counting.SIGMA_FLOOR2 * counting.Q ** 2)
    assert counting.OTHER_BITS == round(-256 * math.log2(counting.OTHER / counting.Q))


def test_channel_names():
    """A channel in a message: the hardware's channel number and the place it weighs, in the
    players' words (controller.rules.place_words: pits from 1 on each side)."""
    assert channel_name(0, 14) == "channel 0 (South's pit 1)"
    assert channel_name(11, 14) == "channel 11 (North's pit 6)"
    assert channel_name(12, 14) == "channel 12 (South's store)"
    assert channel_name(13, 14) == "channel 13 (North's store)"
    assert channel_name(2, 3) == "channel 2"            # not a board of 2n pits and 2 stores
    assert pit_name(7, 12) == "North's pit 2"
    assert pit_name(2, 3) == "sensor 2"                 # not a board of 2n pits


def test_the_portable_core_includes_sensing():
    files = micropython.portable_files()
    for name in ("__init__", "frames", "calibration", "counting", "activity"):
        assert "controller/sensing/%s.py" % name in files


# --- counting: steps, noise, spikes, drift --------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 48), min_size=1, max_size=8), st.integers(0, 2**32 - 1))
def test_counts_follow_steps_within_the_settle_time(counts, seed):
    """Uniform seeds here: with a mass spread, a large enough change can be too far from a
    whole number to settle (rarely: see the 10-minute runs, which have fixed seeds)."""
    rng = random.Random(seed)
    cells = LoadCells(rng, channels=4, counts=[counts[0], 0, 3, 0])
    sensor = CountingSensor(cells.calibration())
    truth = Truth(cells)
    t = run(sensor, cells, truth, 0.0, 40)
    for count in counts[1:]:
        truth.change(0, count, t)
        t = run(sensor, cells, truth, t, 32)            # 400 ms each
    assert truth.wrong == []
    assert truth.late == []
    assert sensor.counts[0] == counts[-1] and sensor.settled[0]


def test_a_step_is_counted_between_the_settle_time_and_a_few_frames_more():
    cells = LoadCells(random.Random(5), channels=4, counts=[3, 0, 0, 0])
    sensor = CountingSensor(cells.calibration())
    t = settle(sensor, cells)
    cells.set_count(0, 9)
    start = t
    while sensor.counts[0] != 9:
        sensor.feed(t, cells.frame(t))
        t += FRAME_MS
    assert 200 <= t - start <= FOLLOW_MS
    assert sensor.settled[0] and sensor.confidence[0] > 0.99


@pytest.mark.parametrize("judge_most", [JUDGE_MOST, 1])
def test_steady_counts_are_judged_again_a_few_channels_a_frame(judge_most):
    """The every-250-ms judgements of counted places (floats: 1.4 ms a channel on a Pico) are
    spread over the frames, JUDGE_MOST (2) of 14 channels a frame at most (0.65 a frame on
    average at 80 Hz), or `judge_most` (a Pico's standalone mode: 1), not all 14 in one
    frame, nor on the frame after the CPU was away; each channel is still judged again every
    250 ms, or within 250 ms more once the CPU is back."""
    cells = LoadCells(random.Random(7), channels=14, counts=[4] * 12 + [0, 0])
    sensor = CountingSensor(cells.calibration(), judge_most=judge_most)
    t = settle(sensor, cells)
    last = list(sensor.values)
    judged_at = [t] * 14
    most, longest, total = 0, 0.0, 0
    after_gaps = 0
    for frame in range(400):                    # 5 s
        sensor.feed(t, cells.frame(t))
        judged = [i for i in range(14) if sensor.values[i] != last[i]]
        total += len(judged)
        if frame % 50 == 49:
            after_gaps = max(after_gaps, len(judged))
        else:
            most = max(most, len(judged))
        for i in judged:
            longest = max(longest, t - judged_at[i])
            judged_at[i] = t
        last = list(sensor.values)
        t += FRAME_MS
        if frame % 50 == 48:
            t += 60                             # the CPU away (a collection): 5 frames late
    assert most <= judge_most and after_gaps == judge_most
    assert longest <= 2 * STEADY_MS + 60        # a backlog after the gap clears in ~250 ms
    assert 14 * 5.4 * 1000 / STEADY_MS * 0.9 <= total <= 14 * 5.4 * 1000 / STEADY_MS * 1.1
    assert sensor.counts == [4] * 12 + [0, 0] and all(sensor.settled)


def test_a_large_board_may_judge_its_counted_places_less_often():
    """steady_ms paces the re-judgements of counted places: a 2 x 12 board's 26 channels on a
    Pico every 464 ms (firmware/standalone.py), not 250, so about as many a second as 14
    channels every 250 ms, each channel still judged in its turn and the counts kept."""
    counts = [4] * 24 + [0, 0]
    cells = LoadCells(random.Random(8), channels=26, counts=counts)
    for steady_ms in (STEADY_MS, 464):
        sensor = CountingSensor(cells.calibration(), steady_ms=steady_ms)
        t = settle(sensor, cells)
        last = list(sensor.values)
        judged_at = [t] * 26
        longest, total = 0.0, 0
        for _ in range(400):                    # 5 s
            sensor.feed(t, cells.frame(t))
            judged = [i for i in range(26) if sensor.values[i] != last[i]]
            total += len(judged)
            for i in judged:
                longest = max(longest, t - judged_at[i])
                judged_at[i] = t
            last = list(sensor.values)
            t += FRAME_MS
        expected = 26 * 5.4 * 1000 / steady_ms
        assert expected * 0.9 <= total <= expected * 1.1, (steady_ms, total)
        assert longest <= steady_ms + 3 * FRAME_MS
        assert sensor.counts == counts and all(sensor.settled)


def test_a_frame_that_judges_a_new_band_judges_no_counted_one():
    """A seed dropped into one place of a counted board: the frames where its new band is
    judged (the ones where its count changes and the guide acts) carry no re-judgement of the
    other places (1.4 ms each on a Pico); those wait a frame, and are all still judged."""
    cells = LoadCells(random.Random(9), channels=14, counts=[4] * 12 + [0, 0])
    sensor = CountingSensor(cells.calibration())
    t = settle(sensor, cells)
    fresh_frames, alongside, others = 0, 0, set()
    for drop in range(6):
        place = drop * 2
        cells.set_count(place, 5 + drop)
        last = list(sensor.values)
        for frame in range(60):
            counted = sensor.settled[place] and sensor.counts[place] == 5 + drop
            sensor.feed(t, cells.frame(t))
            judged = [i for i in range(14) if sensor.values[i] != last[i]]
            if place in judged and not counted:     # its new band's judgement
                fresh_frames += 1
                alongside += len(judged) - 1
            others.update(i for i in judged if i != place)
            last = list(sensor.values)
            t += FRAME_MS
        assert sensor.counts[place] == 5 + drop and sensor.settled[place]
    assert fresh_frames >= 6 and alongside == 0, (fresh_frames, alongside)
    assert others == set(range(14))             # the re-judgements went on around them


@pytest.mark.parametrize("judge_most", [JUDGE_MOST, 1])
def test_new_counts_are_judged_two_a_frame_at_most(judge_most):
    """Seeds into every place at once (a board set out): each place's new band is judged
    when it has settled, two places a frame (or `judge_most`: one on a Pico in standalone
    mode), the others a frame or a few later, and all of them count within a few frames of
    one another (14 frames with one a frame)."""
    cells = LoadCells(random.Random(8), channels=14, counts=[0] * 14)
    sensor = CountingSensor(cells.calibration(), judge_most=judge_most)
    t = settle(sensor, cells)
    for c in range(14):
        cells.set_count(c, 4)
    counted_at = {}
    most = 0
    last = list(sensor.values)
    for frame in range(60):
        sensor.feed(t, cells.frame(t))
        most = max(most, sum(1 for i in range(14) if sensor.values[i] != last[i]))
        last = list(sensor.values)
        for c in range(14):
            if sensor.settled[c] and sensor.counts[c] == 4:
                counted_at.setdefault(c, t)
        t += FRAME_MS
    assert most == judge_most and len(counted_at) == 14
    assert max(counted_at.values()) - min(counted_at.values()) <= 14 // judge_most * FRAME_MS


class Apart:
    """A CountingSensor with judge_apart, as a Pico's loop drives it: each frame fed, then
    the judgements due made in a turn of their own (`judge`)."""

    def __init__(self, sensor: CountingSensor) -> None:
        self.sensor = sensor

    def feed(self, t_ms, raw):
        return self.sensor.feed(t_ms, raw) + self.sensor.judge()

    def __getattr__(self, name):
        return getattr(self.sensor, name)


def test_re_judgements_apart_are_made_only_by_judge_at_the_same_pace():
    """judge_apart: a still, counted board's frames re-judge nothing; `judge()` after each
    frame makes the re-judgements, each place about every steady_ms, as feed would have."""
    cells = LoadCells(random.Random(7), channels=14, counts=[4] * 12 + [0, 0])
    sensor = CountingSensor(cells.calibration(), judge_most=1, judge_apart=True)
    t = settle(Apart(sensor), cells)
    assert sensor.counts == [4] * 12 + [0, 0] and all(sensor.settled)
    in_feed = made = 0
    for _ in range(400):                        # 5 s
        last = list(sensor.values)
        sensor.feed(t, cells.frame(t))
        in_feed += sum(1 for i in range(14) if sensor.values[i] != last[i])
        last = list(sensor.values)
        due = sensor.rejudge_due
        assert not sensor.judge_due
        assert sensor.judge() == []
        judged = sum(1 for i in range(14) if sensor.values[i] != last[i])
        assert judged <= 1 and (judged == 1) == due
        assert sensor.judge() == [] and list(sensor.values) == list(sensor.values)
        made += judged
        t += FRAME_MS
    assert in_feed == 0
    assert 14 * 5.4 * 1000 / STEADY_MS * 0.9 <= made <= 14 * 5.4 * 1000 / STEADY_MS * 1.1
    assert sensor.counts == [4] * 12 + [0, 0] and all(sensor.settled)


def test_a_new_band_judged_apart_counts_one_judge_after_its_frame():
    """judge_apart: the frame that makes a new band's judgement due only says so
    (`judge_due`); the next `judge()` counts it, judge_most a call, and a second place that
    changed with it (a capture: pit and store) is due again at the next frame."""
    cells = LoadCells(random.Random(11), channels=14, counts=[4] * 12 + [0, 0])
    sensor = CountingSensor(cells.calibration(), judge_most=1, judge_apart=True)
    t = settle(Apart(sensor), cells)
    cells.set_count(3, 0)                       # a capture: pit 3's four into South's store
    cells.set_count(12, 4)
    counted = []
    while len(counted) < 2:
        before = list(sensor.counts)
        sensor.feed(t, cells.frame(t))
        assert sensor.counts == before          # no count changes in a frame's feed
        if sensor.judge_due:
            changed = sensor.judge()
            assert not sensor.judge_due         # one judgement a call, the rest next frame
            counted += [i for i in changed if sensor.settled[i]]
        t += FRAME_MS
    assert sorted(counted) == [3, 12]
    assert sensor.counts[3] == 0 and sensor.counts[12] == 4 and all(sensor.settled)


@pytest.mark.parametrize("seed", [4, 5])
def test_re_judgements_apart_count_and_track_drift_as_well(seed):
    """Ten minutes of a 2 x 6 board's changes, spikes and drift with the re-judgements made
    apart (a Pico's standalone loop): no settled count wrong, every count in time, the
    creep followed."""
    rng = random.Random(seed)
    cells = LoadCells(rng, channels=14, spread=0.02, drift=0.2)
    sensor = Apart(CountingSensor(cells.calibration(), judge_most=1, judge_apart=True))
    truth = Truth(cells)
    frames = int(10 * 60_000 / FRAME_MS)
    start = settle(sensor, cells)       # (one new count a frame: 14 frames to count them all)
    run(sensor, cells, truth, start, frames, random_changes(rng, truth, 14))
    assert truth.frames == frames and truth.wrong == [] and truth.late == []


@pytest.mark.parametrize("seed, spread", [(1, 0.0), (2, 0.0), (3, 0.02)])
def test_ten_minutes_of_noise_spikes_and_changes_on_14_channels(seed, spread):
    """10 minutes at 80 Hz on a 2 x 6 board (672,000 readings, about 340 spikes of up to 3
    seeds), every place changing every 0.4..6 s: no settled count is ever wrong, and every
    count follows its step within the settle time."""
    rng = random.Random(seed)
    cells = LoadCells(rng, channels=14, spread=spread, drift=0.2)
    sensor = CountingSensor(cells.calibration())
    truth = Truth(cells)
    frames = int(10 * 60_000 / FRAME_MS)
    run(sensor, cells, truth, 0.0, frames, random_changes(rng, truth, 14))
    assert truth.frames == frames
    assert truth.wrong == []
    assert truth.late == []


def test_drift_over_30_minutes_is_tracked():
    """0.2 seed a minute for 30 minutes is 6 seeds: untracked, every count would be wrong. Two
    places never change (tracking alone keeps them right), two change now and then."""
    rng = random.Random(30)
    cells = LoadCells(rng, channels=4, drift=0.2, counts=[4, 0, 17, 3])
    cells.drift_rate = [0.2 / 60_000, -0.2 / 60_000, 0.2 / 60_000, -0.2 / 60_000]
    sensor = CountingSensor(cells.calibration())
    truth = Truth(cells)
    frames = int(30 * 60_000 / FRAME_MS)
    end = run(sensor, cells, truth, 0.0, frames,
              random_changes(rng, truth, 2, low_ms=20_000, high_ms=60_000))
    assert truth.wrong == []
    assert truth.late == []
    for channel in range(4):
        # the tracked drift is the cell's, less the lag of tracking (its rate times track_ms),
        # whether the place changed or not: re-zeroing on seeds leaves the empty zero alone
        true = cells.drift_rate[channel] * end
        lag = cells.drift_rate[channel] * sensor.track_ms
        assert sensor.drift(channel) == pytest.approx(true - lag, abs=0.05)


def test_without_drift_tracking_the_same_drift_miscounts():
    """The check above is not vacuous: with tracking too slow to follow, a place that never
    changes drifts into a wrong count."""
    rng = random.Random(31)
    cells = LoadCells(rng, channels=4, counts=[4, 0, 17, 3])
    cells.drift_rate = [0.2 / 60_000] * 4
    sensor = CountingSensor(cells.calibration(), track_ms=1e12)
    truth = Truth(cells)
    run(sensor, cells, truth, 0.0, int(5 * 60_000 / FRAME_MS))
    assert truth.wrong or truth.late


def test_a_settled_count_is_the_zero_of_the_next_change():
    """Seeds of 2% spread: 30 of them weigh 30 mean seeds give or take 0.11 seed. Once the pit
    has settled at 30, its last zero absorbs that error, so one seed more reads 31 almost
    exactly, with full confidence. The empty zero keeps out of it (the cell has not crept):
    emptied, the pit reads exactly empty against it."""
    rng = random.Random(8)
    cells = LoadCells(rng, channels=4, spread=0.02, counts=[0, 0, 0, 0])
    cells.seeds[0] = [1.004] * 30                           # 0.12 seed more than 30
    sensor = CountingSensor(cells.calibration())
    t = 0.0
    while sensor.counts[0] is None:
        sensor.feed(t, cells.frame(t))
        t += FRAME_MS
    assert sensor.counts[0] == 30 and sensor.values[0] == pytest.approx(30.12, abs=0.02)
    first = sensor.confidence[0]
    t = settle(sensor, cells, t, 20)
    assert sensor.drift(0) == pytest.approx(0.0, abs=0.02)      # no creep: no drift
    cells.seeds[0].append(1.0)
    t = settle(sensor, cells, t, 40)
    assert sensor.counts[0] == 31 and sensor.values[0] == pytest.approx(31.0, abs=0.02)
    assert sensor.confidence[0] > first
    cells.seeds[0] = []
    while sensor.counts[0] != 0:
        sensor.feed(t, cells.frame(t))
        t += FRAME_MS
    assert sensor.settled[0] and sensor.values[0] == pytest.approx(0.0, abs=0.02)



@pytest.mark.parametrize("left", [0, 1, 3])
def test_a_pile_of_light_seeds_lifted_at_once_is_counted_at_once(left):
    """14 seeds, each 2.2% light: 0.3 seed in all, four deviations of 14 seeds' spread (a
    tournament meets it). They come one by one, each counted against the last zero, which so
    absorbs their error. Lifted all at once (or all but `left`), the pit weighs 0.3 seed more
    than the last zero says: no whole count. The empty zero says it exactly. Without it, a
    simulated table stalled here: the emptied pit never settled, then crept into "1 seed".
    The cell creeps throughout, at the most the simulator does."""
    rng = random.Random(14)
    cells = LoadCells(rng, channels=4, counts=[0, 0, 0, 0])
    cells.drift_rate = [0.2 / 60_000, -0.2 / 60_000, 0.0, 0.0]
    sensor = CountingSensor(cells.calibration(spread=0.02))
    truth = Truth(cells)
    t = run(sensor, cells, truth, 0.0, 80)
    for seed in range(14):
        for channel in (0, 1):
            cells.seeds[channel].append(0.978)
            truth.change(channel, seed + 1, t)
        t = run(sensor, cells, truth, t, 8 * 80)        # 8 s a seed, as a slow sowing
    for channel in (0, 1):
        del cells.seeds[channel][left:]
        truth.change(channel, left, t)
    t = run(sensor, cells, truth, t, 80)
    assert truth.wrong == [] and truth.late == []
    assert sensor.counts[:2] == [left, left] and sensor.settled[:2] == [True, True]
    # and the count 0 or `left` goes on from there: seeds back one by one
    for seed in range(left, 14):
        for channel in (0, 1):
            cells.seeds[channel].append(0.978)
            truth.change(channel, seed + 1, t)
        t = run(sensor, cells, truth, t, 80)
    assert truth.wrong == [] and truth.late == []

# --- counting: hands --------------------------------------------------------------------------

def test_a_hand_in_the_pit_is_unsettled_and_never_counted():
    """A hand picks up the 6 seeds of pit 2, pressing and moving for 1.5 s, then leaves."""
    rng = random.Random(11)
    cells = LoadCells(rng, channels=14, counts=[6] * 12 + [0, 0])
    sensor = CountingSensor(cells.calibration())
    truth = Truth(cells)
    t = run(sensor, cells, truth, 0.0, 40)
    start = t
    seen = set()
    for frame in range(120):
        phase = frame * FRAME_MS / 1000
        cells.hand[2] = 2.0 + 1.5 * math.sin(2 * math.pi * 3 * phase) + rng.gauss(0, 0.3)
        if frame == 40:
            truth.change(2, 0, t)           # the seeds go up with the hand
        sensor.feed(t, cells.frame(t))
        if t - start >= LAG_MS:
            assert not sensor.settled[2], (t - start, sensor.reading(2))
            seen.add(sensor.counts[2])
        t += FRAME_MS
    assert seen == {6}                      # the last good count, unsettled
    cells.hand[2] = 0.0
    truth.restart(2, t)
    t = run(sensor, cells, truth, t, 40)
    assert sensor.counts[2] == 0 and sensor.settled[2]
    assert truth.wrong == [] and truth.late == []


@pytest.mark.parametrize("amplitude, hertz, noticed", [
    (0.2, 4, True), (0.2, 8, True), (0.2, 12, True), (0.15, 10, True),
    (0.05, 8, False), (0.2, 1, False)])
def test_a_trembling_hand_inside_the_band(amplitude, hertz, noticed):
    """A finger resting on a pit and trembling, inside the band (0.3 seed): a tremble of 0.2
    seed at 4..12 Hz moves the filtered value more than noise does and unsettles the pit; a
    smaller or slower one goes unnoticed, and the count stays right all along."""
    rng = random.Random(12)
    cells = LoadCells(rng, channels=4, counts=[5, 0, 0, 0])
    sensor = CountingSensor(cells.calibration())
    t = settle(sensor, cells, frames=80)
    assert sensor.settled[0]
    start = t
    for frame in range(160):
        cells.hand[0] = amplitude * math.sin(2 * math.pi * hertz * frame * FRAME_MS / 1000)
        sensor.feed(t, cells.frame(t))
        if t - start >= 400:
            assert sensor.settled[0] != noticed, (t - start, sensor.reading(0))
        assert sensor.counts[0] == 5
        t += FRAME_MS


# --- counting: faults -------------------------------------------------------------------------

def _faulty_run(channel, bad, frames=160, cells=None, calibration=None):
    """Settle a 2 x 6 board, then feed `frames` frames where `bad(t, raw)` returns channel
    `channel`'s reading. Returns (sensor, cells, truth, t, readings seen on that channel)."""
    cells = cells or LoadCells(random.Random(20 + channel), channels=14)
    sensor = CountingSensor(calibration or cells.calibration())
    truth = Truth(cells)
    others = [c for c in range(14) if c != channel]
    t = run(sensor, cells, truth, 0.0, 40)
    seen = []
    for _ in range(frames):
        raw = cells.frame(t)
        raw[channel] = bad(t, raw[channel])
        sensor.feed(t, raw)
        truth.check(sensor, t, others)
        seen.append(sensor.reading(channel))
        t += FRAME_MS
    assert truth.wrong == [] and truth.late == []           # the others are not disturbed
    assert all(sensor.faults[c] is None for c in others)
    return sensor, cells, truth, t, seen


@pytest.mark.parametrize("rail", [HX711_HIGH, HX711_LOW])
def test_saturation_is_a_fault_of_that_channel(rail):
    sensor, cells, truth, t, seen = _faulty_run(3, lambda t, v: rail)
    assert all(r.fault is not None and "saturated" in r.fault for r in seen)
    assert all(r.count == 4 and not r.settled and r.confidence == 0 for r in seen)
    assert str(rail) in seen[-1].fault
    # good readings again: the fault clears, the count comes back after a settle time
    truth.restart(3, t)
    t = run(sensor, cells, truth, t, 30)
    assert sensor.faults[3] is None and sensor.settled[3] and sensor.counts[3] == 4
    assert truth.wrong == [] and truth.late == []


def test_a_configured_range_is_checked_like_saturation():
    cells = LoadCells(random.Random(21), channels=14)
    highs = [t + 100 * round(p) for t, p in zip(cells.tare, cells.per_seed)]   # 100 seeds
    calibration = cells.calibration(high=highs)
    sensor, cells, truth, t, seen = _faulty_run(
        5, lambda t, v: v + 200 * round(cells.per_seed[5]), cells=cells, calibration=calibration)
    assert all(r.fault and "out of range" in r.fault and r.count == 4 for r in seen)


def test_a_disconnected_channel_is_a_fault_and_never_a_count():
    """Channel 7 goes dead reading a constant that looks like 9 seeds: no real cell is that
    still, so it is never settled there, and after stuck_ms it is a fault."""
    cells = LoadCells(random.Random(22), channels=14)
    dead = cells.tare[7] + round(9 * cells.per_seed[7])
    sensor, cells, truth, t, seen = _faulty_run(7, lambda t, v: dead, frames=240, cells=cells)
    assert all(r.count == 4 for r in seen)
    assert all(not r.settled for r in seen[20:])            # unsettled after a settle time
    faulted = [i for i, r in enumerate(seen) if r.fault]
    assert faulted and faulted[0] * FRAME_MS <= 2000 + 2 * FRAME_MS
    assert "disconnected" in seen[-1].fault and seen[-1].confidence == 0
    truth.restart(7, t)
    t = run(sensor, cells, truth, t, 30)                    # the wire is fixed
    assert sensor.faults[7] is None and sensor.counts[7] == 4 and sensor.settled[7]


def test_a_channel_frozen_at_its_last_reading_is_unsettled_then_a_fault():
    frozen = {}
    sensor, cells, truth, t, seen = _faulty_run(
        1, lambda t, v: frozen.setdefault("raw", v), frames=240)
    assert all(r.count == 4 for r in seen)
    assert not seen[30].settled and seen[-1].fault


def test_a_store_that_reads_below_empty_is_a_fault():
    """North's store reads 1.2 seeds less than empty (its tare was taken with seeds on it)."""
    cells = LoadCells(random.Random(23), channels=14)
    sensor, cells, truth, t, seen = _faulty_run(
        13, lambda t, v: v - round(1.2 * cells.per_seed[13]), cells=cells)
    assert sensor.counts[13] == 0                           # the last good count...
    assert not sensor.settled[13] and sensor.confidence[13] == 0
    assert "below empty" in sensor.faults[13]               # ...and why it is no longer good
    assert sensor.values[13] == pytest.approx(-1.2, abs=0.05)


def test_a_fault_before_any_count_reports_no_count():
    cells = LoadCells(random.Random(24), channels=4)
    sensor = CountingSensor(cells.calibration())
    for frame in range(30):
        raw = cells.frame(frame * FRAME_MS)
        raw[2] = HX711_HIGH
        sensor.feed(frame * FRAME_MS, raw)
    assert sensor.reading(2)[:3] == (None, False, 0.0)
    assert sensor.counts[0] == 4


def _redo_everything(state, values, trusted, t_ms):
    """A `native` filter that leaves every trusted channel to the Python step (what a native
    pass does with a band left or a fault): feed_values' dispatch alone."""
    state[counting.REDO] = trusted
    state[counting.JUDGE] = 0


@pytest.mark.parametrize("native", [None, _redo_everything])
def test_feed_values_is_feed_without_a_list(native):
    """The Pico feeds its readings as an array and a bitmask of the ones to trust (no list a
    frame): word for word what feed() makes of the same list with None for the others. (The
    native filter itself, viper, is checked against feed() on the emulated Pico.)"""
    from array import array

    rng = random.Random(12)
    cells = LoadCells(rng, channels=14, noise=0.05, spike_every=200)
    cal = cells.calibration()
    by_list = CountingSensor(cal, stuck_ms=400)
    by_values = CountingSensor(cal, stuck_ms=400, native=native)
    values = array("i", [0] * 14)
    t = 0
    faulted = 0
    for frame in range(600):
        if frame % 37 == 0:
            cells.set_count(rng.randrange(14), rng.randrange(6))
        raw = cells.frame(t)
        if frame % 101 == 0:
            raw[3] = 2 ** 23 - 1                        # at the converter's limit
        trusted = 0
        for c in range(14):
            values[c] = raw[c]
            if rng.randrange(20):
                trusted |= 1 << c
            else:
                raw[c] = None
        assert by_values.feed_values(t, values, trusted) == by_list.feed(t, raw)
        assert _state(by_values) == _state(by_list)
        faulted += any(by_list.faults)
        t += 10 + rng.randrange(3)
    assert faulted and sum(by_list.settled) >= 12      # faults seen; counting all the same


def test_feed_values_refuses_what_feed_refuses():
    from array import array

    cal = Calibration([0] * 4, [1000] * 4)
    sensor = CountingSensor(cal)
    with pytest.raises(SensingError, match="3 readings; this board has 4 channels"):
        sensor.feed_values(0, array("i", [0, 0, 0]), 7)
    sensor.feed_values(10, array("i", [0] * 4), 15)
    with pytest.raises(SensingError, match="before the previous frame's 10 ms"):
        sensor.feed_values(5, array("i", [0] * 4), 15)
    native = CountingSensor(cal, native=_redo_everything)
    with pytest.raises(SensingError, match="whole milliseconds"):
        native.feed_values(12.5, array("i", [0] * 4), 15)
    with pytest.raises(SensingError, match="settle_ms 200.5 and stuck_ms 2000 must be ints"):
        CountingSensor(cal, settle_ms=200.5, native=_redo_everything)


def test_feed_reports_the_channels_that_changed():
    cells = LoadCells(random.Random(25), channels=4, counts=[2, 0, 0, 0])
    sensor = CountingSensor(cells.calibration())
    changes = []
    t = 0.0
    for frame in range(80):
        if frame == 40:
            cells.set_count(1, 3)
        changes.append(sensor.feed(t, cells.frame(t)))
        t += FRAME_MS
    assert sorted(set(c for frame in changes[:30] for c in frame)) == [0, 1, 2, 3]
    later = [c for frame in changes[30:] for c in frame]
    assert later.count(1) == 2 and set(later) == {1}        # unsettled, then settled at 3


def test_retare_declares_a_count():
    cells = LoadCells(random.Random(26), channels=4, counts=[0, 4, 0, 0])
    cells.tare = [tare + round(0.4 * p) for tare, p in zip(cells.tare, cells.per_seed)]
    calibration = cells.calibration()                     # stale: 0.4 seed off everywhere
    cells.tare = [tare - round(0.4 * p) for tare, p in zip(cells.tare, cells.per_seed)]
    sensor = CountingSensor(calibration)
    t = settle(sensor, cells, frames=40)
    assert not any(sensor.settled)
    with pytest.raises(SensingError, match="not steady"):
        CountingSensor(calibration).retare(0)
    for channel, count in enumerate([0, 4, 0, 0]):
        sensor.retare(channel, count)
    settle(sensor, cells, t, 10)
    assert sensor.counts == [0, 4, 0, 0] and all(sensor.settled)
    with pytest.raises(SensingError, match="channel 9"):
        sensor.retare(9)


def test_a_missing_reading_leaves_its_channel_waiting_for_the_next():
    """None in a frame: the Pico could not trust that reading (a conversion may have ended
    while it was read). The channel keeps what it had; the others count as ever."""
    cells = LoadCells(random.Random(27), channels=4, counts=[0, 4, 0, 2])
    sensor = CountingSensor(cells.calibration())
    t = 0
    for frame in range(60):
        raw = cells.frame(t)
        if frame % 3:
            raw[1] = None                   # two readings in three of pit 1 missing
        if frame >= 40:
            raw[3] = None                   # North's store: none at all from frame 40
        sensor.feed(t, raw)
        t += FRAME_MS
        if frame == 39:
            before = _state(sensor)[6][3]
    assert sensor.counts == [0, 4, 0, 2] and all(sensor.settled)
    assert _state(sensor)[6][3] == before   # untouched while it had no reading


# --- counting: bad input ----------------------------------------------------------------------

def _state(sensor):
    """Everything a sensor keeps: per channel its own fields and its words of the flat table
    (counting.STATE_WORDS of them), and the table's header (not a native pass's answers)."""
    state = list(sensor._state)
    channels = [tuple(getattr(ch, name) for name in type(ch).__slots__)
                + tuple(state[ch.at:ch.at + counting.STATE_WORDS]) for ch in sensor._channels]
    return (sensor.counts[:], sensor.settled[:], sensor.confidence[:], sensor.faults[:],
            sensor.values[:], sensor._t, channels, state[counting.SIZE], state[counting.CREDIT])


BAD_FRAMES = [
    ([1, 2, 3], "3 readings; this board has 4 channels"),
    ([1, 2, 3, 4, 5], "5 readings"),
    ([1, 2.0, 3, 4], "channel 1 (North's pit 1): reading 2.0 is not an int"),
    ([1, 2, True, 4], "channel 2 (South's store): reading True is not an int"),
    ([1, 2, 3, "4"], "channel 3 (North's store): reading '4' is not an int"),
    ([1, 2, 3, [4]], "channel 3 (North's store): reading [4] is not an int"),
    ("1234", "a frame is a list of 4 readings, not str"),
    (None, "not NoneType"),
]


@pytest.mark.parametrize("frame, message", BAD_FRAMES)
def test_a_bad_frame_raises_and_changes_nothing(frame, message):
    cells = LoadCells(random.Random(27), channels=4)
    sensor = CountingSensor(cells.calibration())
    t = settle(sensor, cells, frames=33)
    before = _state(sensor)
    with pytest.raises(SensingError) as caught:
        sensor.feed(t, frame)
    assert isinstance(caught.value, ValueError)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert _state(sensor) == before


@pytest.mark.parametrize("t_ms, message", [(-12.5, "before the previous frame"),
                                            ("5", "not a number"), (True, "not a number")])
def test_bad_frame_times_raise(t_ms, message):
    cells = LoadCells(random.Random(28), channels=4)
    sensor = CountingSensor(cells.calibration())
    sensor.feed(0, cells.frame(0))
    before = _state(sensor)
    with pytest.raises(SensingError, match=message):
        sensor.feed(t_ms, cells.frame(0))
    assert _state(sensor) == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(-2**23, 2**23), st.floats(), st.booleans(), st.none(),
                          st.text(max_size=2)), min_size=0, max_size=6))
def test_any_frame_is_taken_or_refused_cleanly(frame):
    cells = LoadCells(random.Random(29), channels=4)
    sensor = CountingSensor(cells.calibration())
    t = settle(sensor, cells, frames=20)
    before = _state(sensor)
    # an int per channel, or None for a channel whose reading was not trusted this time
    good = len(frame) == 4 and all(type(v) is int or v is None for v in frame)
    try:
        sensor.feed(t, frame)
    except SensingError as error:
        assert not good and str(error).count("\n") == 0
        assert _state(sensor) == before
    else:
        assert good


def test_bad_parameters_are_refused():
    calibration = LoadCells(random.Random(1), channels=4).calibration()
    for kwargs, message in [({"settle_ms": 0}, "settle_ms"), ({"tolerance": 1.5}, "tolerance"),
                            ({"accept": 1}, "accept"), ({"track_ms": -1}, "track_ms"),
                            ({"motion": "x"}, "motion"), ({"steady_ms": 99}, "steady_ms 99"),
                            ({"steady_ms": 250.0}, "whole number"),
                            ({"judge_most": 3}, "judge_most 3 .* 1 to 2"),
                            ({"judge_most": 1.0}, "judge_most 1.0"),
                            ({"judge_most": True}, "judge_most True")]:
        with pytest.raises(SensingError, match=message):
            CountingSensor(calibration, **kwargs)
    with pytest.raises(SensingError, match="needs a Calibration"):
        CountingSensor([1, 2, 3])


# --- counting: memory and cost ----------------------------------------------------------------

def test_the_state_does_not_grow():
    cells = LoadCells(random.Random(40), channels=14)
    sensor = CountingSensor(cells.calibration())
    frames = [cells.frame(i * FRAME_MS) for i in range(400)]
    t = 0.0
    for frame in frames:
        sensor.feed(t, frame)
        t += FRAME_MS
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(20):
            for frame in frames:
                sensor.feed(t, frame)
                t += FRAME_MS
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 2000, grown


# --- calibration ------------------------------------------------------------------------------

def _frames(cells, start_ms, count=80):
    return [cells.frame(start_ms + i * FRAME_MS) for i in range(count)]


def test_the_calibration_procedure_on_a_synthetic_board():
    rng = random.Random(50)
    cells = LoadCells(rng, channels=14, spread=0.02, counts=[0] * 14)
    steps = Calibrator(14)
    tare = steps.tare(_frames(cells, 0))
    for c in range(14):
        assert abs(tare[c] - cells.tare[c]) < 0.03 * cells.per_seed[c]
        assert steps.noise[c] == pytest.approx(0.05 * cells.per_seed[c], rel=0.5)
    # the same 48 seeds go from place to place (here: all at once, the same masses everywhere)
    masses = [rng.gauss(1.0, 0.02) for _ in range(48)]
    for c in range(14):
        cells.seeds[c] = masses[:]
    per_seed = steps.weigh(_frames(cells, 2000), 48)
    mean_mass = sum(masses) / 48
    for c in range(14):
        assert per_seed[c] == pytest.approx(cells.per_seed[c] * mean_mass, rel=0.002)
        cells.seeds[c] = []
    singles = []
    for mass in masses[:24]:
        cells.seeds[0] = [mass]
        frames = _frames(cells, 4000, 16)
        singles.append(sorted(f[0] for f in frames)[8])
    mean, spread = steps.singles(singles, channel=0)
    assert mean == pytest.approx(per_seed[0], rel=0.02)
    assert 0.01 < spread < 0.035
    calibration = steps.calibration()
    assert calibration.problems() == []
    # and it counts
    cells.seeds = [[] for _ in range(14)]
    for c in range(14):
        cells.set_count(c, 4 if c < 12 else 0)
    sensor = CountingSensor(calibration)
    truth = Truth(cells)
    run(sensor, cells, truth, 0.0, 4800, random_changes(rng, truth, 14))
    assert truth.wrong == [] and truth.late == []


def test_calibration_with_one_weighed_channel_shared():
    cells = LoadCells(random.Random(51), channels=4, counts=[0] * 4)
    steps = Calibrator(4)
    steps.tare(_frames(cells, 0))
    cells.set_count(2, 10)
    assert len(steps.weigh(_frames(cells, 1000), 10, channels=[2])) == 1
    steps.singles([1.0, 1.02, 0.98, 1.01, 0.99])
    with pytest.raises(SensingError, match="channel 0 \\(South's pit 1\\) was never weighed"):
        steps.calibration()
    calibration = steps.calibration(share=True)
    assert calibration.per_seed == [calibration.per_seed[2]] * 4


def _calibrator_with_tare(cells):
    steps = Calibrator(cells.channels)
    steps.tare(_frames(cells, 0))
    return steps


def test_calibration_refuses_what_cannot_count():
    cells = LoadCells(random.Random(52), channels=4, counts=[0] * 4)
    # a cell mounted upside down reads less with seeds on it
    steps = _calibrator_with_tare(cells)
    cells.per_seed[1] = -cells.per_seed[1]
    cells.set_count(1, 8)
    with pytest.raises(SensingError,
                       match="channel 1 \\(North's pit 1\\) reads no more with 8 seeds"):
        steps.weigh(_frames(cells, 1000), 8, channels=[1])
    # a cell too noisy for its seeds (one seed = 5 noise deviations)
    cells = LoadCells(random.Random(53), channels=4, counts=[0] * 4, noise=0.2)
    steps = _calibrator_with_tare(cells)
    cells.set_count(3, 8)
    with pytest.raises(SensingError, match="North's store.* only [0-9.]+ times the noise"):
        steps.weigh(_frames(cells, 1000), 8, channels=[3])
    with pytest.raises(SensingError, match="only [0-9.]+ times the noise"):
        Calibration([0, 0], [100, 100], noise=[20, 5])


def test_calibration_refuses_dead_saturated_and_moving_channels():
    cells = LoadCells(random.Random(54), channels=4, counts=[0] * 4)
    frames = _frames(cells, 0)
    dead = [f[:2] + [1234] + f[3:] for f in frames]
    with pytest.raises(SensingError, match="channel 2 .*constant 1234.*disconnected"):
        Calibrator(4).tare(dead)
    saturated = [f[:3] + [HX711_HIGH] for f in frames]
    with pytest.raises(SensingError, match="North's store\\) reads 8388607, at the converter"):
        Calibrator(4).tare(saturated)
    with pytest.raises(SensingError, match="at least 16 frames"):
        Calibrator(4).tare(frames[:10])
    with pytest.raises(SensingError, match="taring, frame 3: the frame has 3 readings"):
        Calibrator(4).tare(frames[:3] + [frames[3][:3]] + frames[4:])
    steps = _calibrator_with_tare(cells)
    cells.set_count(0, 6)
    moving = _frames(cells, 1000)
    for i, frame in enumerate(moving):                     # a hand still on pit 0
        frame[0] += round(cells.per_seed[0] * math.sin(i / 3))
    with pytest.raises(SensingError, match="South's pit 1\\) moved while it was weighed"):
        steps.weigh(moving, 6)
    with pytest.raises(SensingError, match="tare the empty board"):
        Calibrator(4).weigh(frames, 6)
    with pytest.raises(SensingError, match="whole number of seeds"):
        steps.weigh(frames, 0)
    with pytest.raises(SensingError, match="no channel 4"):
        steps.weigh(frames, 3, channels=[4])


def test_a_large_spread_is_reported():
    assert seed_spread([1.0, 1.1, 0.9, 1.05, 0.95])[1] == pytest.approx(0.079, abs=0.001)
    calibration = Calibration([0, 0, 0, 0], [1000.0] * 4, spread=0.07)
    [problem] = calibration.problems()
    assert "7.0%" in problem and "unreliable" in problem and "2%" in problem
    assert reliable_count(0.02) == 39 and reliable_count(0.05) == 6
    with pytest.raises(SensingError, match="at least 5 seeds"):
        seed_spread([1.0, 1.1])
    with pytest.raises(SensingError, match="weight 1 \\('x'\\) is not a number"):
        seed_spread([1.0, "x", 1.0, 1.0, 1.0])


def test_a_calibration_round_trips_through_json():
    cells = LoadCells(random.Random(55), channels=14)
    calibration = cells.calibration(spread=0.015)
    text = calibration.to_json()
    again = Calibration.from_json(text)
    assert again.to_json() == text
    assert text.startswith('{"tare": [') and "\n" not in text
    for bad, message in [("[1]", "JSON object"), ("{", "not JSON"),
                         ('{"tare": [0], "per_seed": [1.0]}', "no 'spread'"),
                         ('{"tare": [0.5], "per_seed": [100], "spread": 0.02}', "not an int"),
                         ('{"tare": [0], "per_seed": [100, 1], "spread": 0.02}', "2 values"),
                         ('{"tare": [0], "per_seed": [0], "spread": 0.02}', "not positive"),
                         ('{"tare": [0], "per_seed": [100], "spread": -1}', "spread")]:
        with pytest.raises(SensingError, match=message):
            Calibration.from_json(bad)


# --- activity -------------------------------------------------------------------------------

def _press_levels(presses, pits, end_ms, step_ms):
    """Levels per frame: `presses` is a list of (pit, start, end, bounces) where bounces are
    (at_ms, length_ms) dips of the level inside the press."""
    frames = []
    t = 0.0
    while t < end_ms:
        levels = [0] * pits
        for pit, start, end, bounces in presses:
            if start <= t < end and not any(at <= t < at + length for at, length in bounces):
                levels[pit] = 1
        frames.append((t, levels))
        t += step_ms
    return frames


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_activity_bounces_give_one_activation_per_press(data):
    """Presses of 80..600 ms, 60 ms or more apart, each bouncing (up to 4 dips of 1..8 ms
    near its start and end): exactly one activation per press, debounce_ms after it began."""
    pits = 4
    presses = []
    t = 20.0
    for _ in range(data.draw(st.integers(1, 6))):
        pit = data.draw(st.integers(0, pits - 1))
        length = data.draw(st.integers(80, 600))
        bounces = []
        for _ in range(data.draw(st.integers(0, 4))):
            at = data.draw(st.one_of(st.integers(0, 10), st.integers(length - 12, length - 2)))
            bounces.append((t + at, data.draw(st.integers(1, 8))))
        presses.append((pit, t, t + length, bounces))
        t += length + data.draw(st.integers(60, 300))
    sensor = ActivitySensor(pits, debounce_ms=30)
    started = []
    for frame_t, levels in _press_levels(presses, pits, t + 100, 2.0):
        for pit in sensor.feed(frame_t, levels):
            started.append((frame_t, pit))
    assert [pit for _, pit in started] == [pit for pit, _, _, _ in presses]
    for (at, _), (pit, start, end, bounces) in zip(started, presses):
        steady = max([start] + [b + length for b, length in bounces if b < start + 15])
        assert start + 30 <= at <= steady + 30 + 4
    assert not any(sensor.active) and sensor.faults == [None] * pits


def test_activity_one_percent_of_a_thousand_presses_bounce():
    rng = random.Random(60)
    sensor = ActivitySensor(12)
    t = 0.0
    count = 0
    for press in range(1000):
        pit = rng.randrange(12)
        bounce = rng.random() < 0.01
        for frame in range(12):                 # 150 ms in, a bounce of 2 frames at 25 ms
            levels = [0] * 12
            levels[pit] = 0 if bounce and frame in (2, 3) else 1
            count += len(sensor.feed(t, levels))
            t += FRAME_MS
        for frame in range(8):
            count += len(sensor.feed(t, [0] * 12))
            t += FRAME_MS
    assert count == 1000


def test_activity_short_blips_are_ignored():
    sensor = ActivitySensor(2, debounce_ms=30)
    assert sensor.feed(0, [1, 0]) == [] and sensor.feed(12.5, [1, 0]) == []
    assert sensor.feed(25, [0, 0]) == [] and sensor.feed(100, [0, 0]) == []
    assert sensor.active == [False, False]


def test_activity_stuck_sensor_is_a_fault_until_released():
    sensor = ActivitySensor(3, debounce_ms=30, stuck_ms=10_000)
    t = 0.0
    assert sensor.feed(t, [0, 0, 0]) == []
    started = []
    while t < 12_000:
        t += FRAME_MS
        started += sensor.feed(t, [0, 0, 1])
        if t < 10_000:
            assert sensor.faults[2] is None
    assert started == [2]
    assert "stuck" in sensor.faults[2] and sensor.faults[:2] == [None, None]
    for _ in range(4):
        t += FRAME_MS
        sensor.feed(t, [0, 0, 0])
    assert sensor.faults[2] is None and sensor.active == [False] * 3


@pytest.mark.parametrize("levels, message", [
    ([0, 2, 0], "sensor 1: reading 2 is not one of 0/1"),     # (3 sensors: no board's shape)
    ([0, 0, True], "sensor 2: reading True is not an int"),
    ([0, 0], "2 readings; this board has 3 channels"),
    ([0, "1", 0], "sensor 1: reading '1' is not an int"),
])
def test_activity_bad_levels_raise_and_change_nothing(levels, message):
    sensor = ActivitySensor(3)
    sensor.feed(0, [1, 0, 0])
    with pytest.raises(SensingError, match=message):
        sensor.feed(20, levels)
    assert sensor.feed(40, [1, 0, 0]) == [0]        # the press goes on as if nothing happened


def test_activity_bad_parameters():
    with pytest.raises(SensingError):
        ActivitySensor(0)
    with pytest.raises(SensingError, match="longer than debounce_ms"):
        ActivitySensor(3, debounce_ms=50, stuck_ms=50)
    with pytest.raises(SensingError, match="debounce_ms"):
        ActivitySensor(3, debounce_ms=-1)


def test_the_read_planner_learns_each_chips_own_period():
    from controller.sensing.shared_clock import ReadPlanner
    planner = ReadPlanner(3, read_us=300)
    # chip 0 at RATE high (10.5 ms), chip 1 left at RATE low (85.6 ms: within 0.1% of eight
    # RATE-high periods, so it must not be taken for eight), chip 2 whose first span is two
    # periods (an end missed during a read)
    for k in range(6):
        planner.saw_end(0, 1000 + k * 10500)
        planner.saw_end(1, 2000 + k * 85635)
    for t in (3000, 3000 + 2 * 10800, 3000 + 3 * 10800, 3000 + 4 * 10800, 3000 + 5 * 10800):
        planner.saw_end(2, t)
    assert abs(planner.period_us(0) - 10500) <= 1
    assert abs(planner.period_us(1) - 85635) <= 1
    assert abs(planner.period_us(2) - 10800) <= 1
    assert planner.all_known()
    # one span seen is only a candidate: not known until the next agrees
    fresh = ReadPlanner(1, read_us=300)
    fresh.saw_end(0, 0)
    fresh.saw_end(0, 10700)
    assert not fresh.known(0) and fresh.period_us(0) == 0
    fresh.saw_end(0, 21400)
    assert fresh.known(0) and fresh.period_us(0) == 10700
    # a span no HX711 makes (200 ms: the chip powered down, or its DOUT off its pin) is none
    lost = ReadPlanner(1, read_us=300)
    lost.saw_end(0, 0)
    lost.saw_end(0, 200000)
    lost.saw_end(0, 400000)
    assert not lost.known(0)


def test_a_read_planned_further_ahead_keeps_further_from_the_conversions():
    from controller.sensing.shared_clock import ReadPlanner, GUARD_US, SLACK_US, UPDATE_US
    planner = ReadPlanner(2, read_us=30)
    for k in range(4):                      # chip 0 last to be ready, chip 1 converting
        planner.saw_end(0, 5000 + k * 10000)    # 2 * GUARD_US + SLACK_US + 40 us after
        planner.saw_end(1, 5000 + UPDATE_US + 30 + 2 * GUARD_US + SLACK_US + 40 + k * 10000)
    after = 35100                           # the read for the conversions at 35 ms ended
    ready, wait = planner.plan(after)
    assert ready == 45000 + UPDATE_US and wait == 0     # 40 us clear: read at once
    ready, wait = planner.plan(after, widen_us=60)      # kept 60 us further off: after it
    clash = 45000 + UPDATE_US + 30 + 2 * GUARD_US + SLACK_US + 40
    assert wait == clash + UPDATE_US + 2 * GUARD_US + SLACK_US + 60 + 1 - ready
