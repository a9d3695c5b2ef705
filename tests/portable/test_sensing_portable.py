"""The sensing layer on the portable core: plain test functions that also run under MicroPython.

No pytest, no `random` (MicroPython's differs): the noise comes from the engine's own Random30,
which gives the same numbers on both runtimes, made roughly Gaussian as the sum of four uniform
draws. Runs are short (a Pico-sized interpreter under node is slow); tests/test_sensing.py has
the long ones.
"""

from controller.rules.rng import Random30
from controller.sensing import (ActivitySensor, Calibration, Calibrator, CountingSensor,
                                HX711_HIGH, SensingError, median5)
from helpers import raises

FRAME_MS = 12.5
PER_SEED = 1000             # raw units a seed
NOISE = 50                  # raw units: 0.05 seed, the simulator's noise
FOLLOW_MS = 260             # settle_ms 200, the median's 25 ms lag and a frame or two





class Cells:
    """Synthetic load cells: `counts` seeds per channel, each cell its own tare, PER_SEED raw a
    seed (`seed_mass[c]` raw on channel c: seeds that are not all alike), noise of NOISE raw, a
    spike of up to 3 seeds once in `spike_every` readings, and a drift of `drift[c]` seeds a
    minute."""

    def __init__(self, seed, counts, spike_every=2000, drift=None):
        self.rng = Random30(seed)
        self.counts = list(counts)
        self.tare = [30011 * c - 70000 for c in range(len(counts))]
        self.spike_every = spike_every
        self.drift = drift or [0.0] * len(counts)
        self.seed_mass = [PER_SEED] * len(counts)
        self.constant = {}          # channel -> a raw reading it is stuck at

    def noise(self):
        draw = self.rng.randrange
        total = draw(2001) + draw(2001) + draw(2001) + draw(2001) - 4000   # deviation 1155
        return total * NOISE // 1155

    def frame(self, t_ms):
        raw = []
        for c in range(len(self.counts)):
            if c in self.constant:
                raw.append(self.constant[c])
                continue
            drift = int(self.drift[c] * PER_SEED * t_ms / 60000)
            value = self.tare[c] + self.counts[c] * self.seed_mass[c] + drift + self.noise()
            if self.rng.randrange(self.spike_every) == 0:
                value += self.rng.randrange(6 * PER_SEED + 1) - 3 * PER_SEED
            raw.append(value)
        return raw

    def calibration(self):
        return Calibration(self.tare, [PER_SEED] * len(self.counts), 0.02,
                           [NOISE] * len(self.counts))


class Truth:
    """Counts wrong settled counts and counts that did not follow their step in time."""

    def __init__(self, cells):
        self.cells = cells
        self.before = list(cells.counts)
        self.changed_at = [0.0] * len(cells.counts)
        self.wrong = 0
        self.late = 0

    def change(self, channel, count, t_ms):
        self.before[channel] = self.cells.counts[channel]
        self.cells.counts[channel] = count
        self.changed_at[channel] = t_ms

    def check(self, sensor, t_ms, channels):
        for c in channels:
            age = t_ms - self.changed_at[c]
            count = sensor.counts[c]
            true = self.cells.counts[c]
            if sensor.settled[c] and count != true and not (
                    count == self.before[c] and age <= 40):
                self.wrong += 1
            if age >= FOLLOW_MS and not (sensor.settled[c] and count == true):
                self.late += 1


def _feed(sensor, cells, t, frames, truth=None, channels=()):
    for _ in range(frames):
        sensor.feed(t, cells.frame(t))
        if truth is not None:
            truth.check(sensor, t, channels)
        t += FRAME_MS
    return t


def test_median5_every_order_with_ties():
    for code in range(243):
        values = [code // 3 ** i % 3 for i in range(5)]
        ordered = sorted(values)
        assert median5(values[0], values[1], values[2], values[3], values[4]) == ordered[2]
    assert median5(-8388608, 5, 8388607, 4, 6) == 5


def test_steps_are_counted_within_the_settle_time_despite_noise_and_spikes():
    """40 s on 2 pits and 2 stores, a change every half second somewhere, spikes of up to 3
    seeds ten times as often as the simulator's: never a wrong settled count, never late."""
    cells = Cells(7, [4, 4, 0, 0], spike_every=200)
    sensor = CountingSensor(cells.calibration())
    truth = Truth(cells)
    pattern = [5, 0, 1, 3, 12, 11, 4, 0, 48, 47, 9, 2]
    t = 0.0
    for step in range(80):
        channel = step % 4
        truth.change(channel, pattern[(step * 5 + channel) % len(pattern)], t)
        t = _feed(sensor, cells, t, 40, truth, range(4))
    assert truth.wrong == 0, truth.wrong
    assert truth.late == 0, truth.late
    assert sensor.counts == cells.counts and sensor.settled == [True] * 4


def test_drift_is_tracked():
    """0.4 seed a minute for 90 s: 0.6 seed, more than half a seed, on places that never
    change: only tracking keeps their counts."""
    cells = Cells(8, [3, 0], drift=[0.4, -0.4])
    sensor = CountingSensor(cells.calibration())
    truth = Truth(cells)
    _feed(sensor, cells, 0.0, 7200, truth, range(2))
    assert truth.wrong == 0 and truth.late == 0
    assert abs(sensor.drift(0) - 0.6) < 0.1 and abs(sensor.drift(1) + 0.6) < 0.1



def test_light_seeds_lifted_at_once_read_empty():
    """14 seeds 2.2% light come one by one: each is counted against the last zero, which so
    takes up their 0.3 seed of error. Lifted all at once, the pit is empty by its empty zero
    (by the last zero it is 0.3 seed, no whole count, and would never settle)."""
    cells = Cells(10, [0, 0])
    cells.seed_mass[0] = 978
    sensor = CountingSensor(cells.calibration())
    truth = Truth(cells)
    t = _feed(sensor, cells, 0.0, 40, truth, range(2))
    for count in range(1, 15):
        truth.change(0, count, t)
        t = _feed(sensor, cells, t, 40, truth, range(2))
    truth.change(0, 0, t)
    t = _feed(sensor, cells, t, 40, truth, range(2))
    assert truth.wrong == 0 and truth.late == 0
    assert sensor.counts == [0, 0] and sensor.settled == [True, True]

def test_faults_name_the_channel_and_keep_the_last_count():
    cells = Cells(9, [4, 4, 2, 0])
    sensor = CountingSensor(cells.calibration())
    t = _feed(sensor, cells, 0.0, 40)
    assert sensor.counts == [4, 4, 2, 0] and sensor.faults == [None] * 4
    # pit 1 saturates, pit 0 goes dead at a reading that looks like 9 seeds, North's store
    # reads 1.5 seeds below empty
    cells.constant[1] = HX711_HIGH
    cells.constant[0] = cells.tare[0] + 9 * PER_SEED
    cells.tare[3] -= 1500
    for frame in range(200):
        sensor.feed(t, cells.frame(t))
        t += FRAME_MS
        assert sensor.counts == [4, 4, 2, 0]
        assert not sensor.settled[1] and sensor.confidence[1] == 0
        if frame >= 20:
            assert not sensor.settled[0] and not sensor.settled[3]
    assert "saturated" in sensor.faults[1] and "8388607" in sensor.faults[1]
    assert "disconnected" in sensor.faults[0]
    assert "below empty" in sensor.faults[3]
    assert sensor.faults[2] is None and sensor.settled[2]
    # repaired: every fault clears and the counts come back
    del cells.constant[0]
    del cells.constant[1]
    cells.tare[3] += 1500
    _feed(sensor, cells, t, 30)
    assert sensor.faults == [None] * 4 and sensor.settled == [True] * 4
    assert sensor.counts == [4, 4, 2, 0]


def test_a_hand_in_the_pit_is_unsettled():
    cells = Cells(10, [6, 0, 0, 0])
    sensor = CountingSensor(cells.calibration())
    t = _feed(sensor, cells, 0.0, 40)
    hand = [0, 900, 2500, 1800, 3200, 2600, 1200, 2900]      # raw units the hand adds
    for frame in range(96):
        if frame == 48:
            cells.counts[0] = 0                             # the seeds leave with the hand
        raw = cells.frame(t)
        raw[0] += hand[frame % len(hand)]
        sensor.feed(t, raw)
        t += FRAME_MS
        if frame >= 3:
            assert not sensor.settled[0] and sensor.counts[0] == 6
    _feed(sensor, cells, t, 30)
    assert sensor.counts[0] == 0 and sensor.settled[0]


def test_bad_frames_raise_and_change_nothing():
    cells = Cells(11, [4, 0, 0, 0])
    frames = [cells.frame(i * FRAME_MS) for i in range(60)]
    calibration = cells.calibration()
    clean = CountingSensor(calibration)
    tried = CountingSensor(calibration)
    bad = [[1, 2, 3], [1, 2, 3, 4, 5], [1, 2.5, 3, 4], [1, 2, 3, True], None, "abcd"]
    for i in range(60):
        t = i * FRAME_MS
        if i % 10 == 5:
            frame = bad[(i // 10) % len(bad)]
            error = raises(SensingError, tried.feed, t, frame)
            assert isinstance(error, ValueError) and "\n" not in str(error)
            raises(SensingError, tried.feed, t - 100, frames[i])       # time went back
        assert clean.feed(t, frames[i]) == tried.feed(t, frames[i])
    assert clean.counts == tried.counts == [4, 0, 0, 0]
    assert clean.values == tried.values
    error = raises(SensingError, tried.feed, 1000, [1, 2, True, 4])
    assert str(error) == "channel 2 (South's store): reading True is not an int"


def test_activity_debounces_bounces():
    sensor = ActivitySensor(3, debounce_ms=30)
    starts = []
    t = 0
    # pit 1: a press that bounces at first (1, 0, 1 at 2 ms steps), held 150 ms, released
    # with a bounce; pit 2: a 10 ms blip
    levels = [(1, 1, 0)] * 1 + [(1, 0, 0)] + [(1, 1, 0)] * 75 + [(1, 0, 0)] * 2 + [
        (1, 1, 0)] + [(1, 0, 1)] * 5 + [(1, 0, 0)] * 40
    for frame in levels:
        starts += [(t, pit) for pit in sensor.feed(t, [0, frame[1], frame[2]])]
        t += 2
    assert starts == [(34, 1)], starts
    assert sensor.active == [False, False, False]
    error = raises(SensingError, sensor.feed, t, [0, 2, 0])
    assert str(error) == "sensor 1: reading 2 is not one of 0/1"     # (3 sensors: no board)
    # stuck: active for more than stuck_ms
    sensor = ActivitySensor(2, debounce_ms=30, stuck_ms=1000)
    for i in range(100):
        sensor.feed(i * 20, [1, 0])
    assert sensor.active == [True, False] and "stuck" in sensor.faults[0]
    sensor.feed(2000, [0, 0])
    sensor.feed(2040, [0, 0])
    assert sensor.faults == [None, None]


def test_the_calibration_procedure():
    cells = Cells(12, [0, 0, 0, 0])
    steps = Calibrator(4)
    tare = steps.tare([cells.frame(i * FRAME_MS) for i in range(80)])
    for c in range(4):
        assert abs(tare[c] - cells.tare[c]) < 25
        assert 25 < steps.noise[c] < 100
    cells.counts = [10, 10, 10, 10]
    per_seed = steps.weigh([cells.frame(i * FRAME_MS) for i in range(80)], 10)
    for value in per_seed:
        assert abs(value - PER_SEED) < 5
    # twelve seeds one at a time on pit 0, 2% apart
    singles = [tare[0] + PER_SEED + 20 * ((i * 7) % 5 - 2) for i in range(12)]
    mean, spread = steps.singles(singles, channel=0)
    assert abs(mean - PER_SEED) < 10 and 0.01 < spread < 0.03
    calibration = steps.calibration()
    assert calibration.problems() == []
    again = Calibration.from_json(calibration.to_json())
    assert again.to_json() == calibration.to_json()
    # a bag of uneven seeds: counting by weight is unreliable, and the calibration says so
    steps.singles([PER_SEED * (100 + 8 * ((i * 3) % 5 - 2)) // 100 for i in range(10)])
    problems = steps.calibration().problems()
    assert len(problems) == 1 and "unreliable" in problems[0]
    # what cannot count is refused, naming the channel
    cells.counts = [0, -3, 0, 0]
    frames = [cells.frame(i * FRAME_MS) for i in range(80)]
    error = raises(SensingError, steps.weigh, frames, 3, [1])
    assert "channel 1 (North's pit 1) reads no more with 3 seeds" in str(error)
    assert steps.per_seed == per_seed                       # nothing changed
    cells.constant[2] = 777
    error = raises(SensingError, Calibrator(4).tare, [cells.frame(i) for i in range(40)])
    assert "channel 2 (South's store) reads a constant 777" in str(error)


def test_a_place_reading_more_seeds_than_are_in_play_is_a_fault():
    cells = Cells(9, [4, 4, 2, 0])
    sensor = CountingSensor(cells.calibration(), max_count=10)
    t = _feed(sensor, cells, 0.0, 40)
    assert sensor.counts == [4, 4, 2, 0]
    cells.tare[2] += 40 * PER_SEED          # a cell off scale, far inside the converter's range
    t = _feed(sensor, cells, t, 40)
    assert sensor.faults[2] == "reads 42 seeds, more than the 10 in play"
    assert sensor.counts[2] == 2 and not sensor.settled[2]
    cells.tare[2] -= 40 * PER_SEED          # reseated: the count comes back
    _feed(sensor, cells, t, 40)
    assert sensor.faults[2] is None and sensor.counts == [4, 4, 2, 0]
    raises(SensingError, lambda: CountingSensor(cells.calibration(), max_count=0))


def test_back_from_a_fault_a_place_that_is_no_whole_count_is_a_fault_until_retared():
    cells = Cells(9, [4, 4, 2, 0])
    sensor = CountingSensor(cells.calibration())
    t = _feed(sensor, cells, 0.0, 40)
    cells.constant[1] = HX711_HIGH          # a broken wire for three minutes ...
    t = _feed(sensor, cells, t, 40)
    t += 180000.0
    del cells.constant[1]                   # ... mended; meanwhile its zero moved 0.7 seed
    cells.tare[1] -= 7 * PER_SEED // 10
    t = _feed(sensor, cells, t, 100)        # 1.25 s: unsettled, not yet a fault
    assert sensor.faults[1] is None and not sensor.settled[1] and sensor.counts[1] == 4
    t = _feed(sensor, cells, t, 200)
    fault = sensor.faults[1]
    assert fault.startswith("steady at 3.2") or fault.startswith("steady at 3.3"), fault
    assert fault.endswith(" seeds since a fault, not a whole number: its zero moved")
    assert sensor.adrift(1) and not sensor.adrift(0)
    sensor.retare(1, 4)                     # a person looked: it holds 4
    _feed(sensor, cells, t, 40)
    assert sensor.faults[1] is None and sensor.settled[1] and sensor.counts == [4, 4, 2, 0]


def test_back_from_a_fault_a_zero_that_crept_a_little_is_taken_up():
    cells = Cells(9, [4, 4, 2, 0])
    sensor = CountingSensor(cells.calibration())
    t = _feed(sensor, cells, 0.0, 40)
    cells.constant[2] = HX711_HIGH          # a broken wire for a while ...
    t = _feed(sensor, cells, t, 40)
    del cells.constant[2]                   # ... mended: meanwhile the cell crept 0.3 seed
    cells.tare[2] += 3 * PER_SEED // 10
    _feed(sensor, cells, t, 60)
    assert sensor.faults[2] is None and sensor.settled[2] and sensor.counts == [4, 4, 2, 0]
    assert not sensor.adrift(2)
