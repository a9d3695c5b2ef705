"""A load cell that stops answering (unplugged, dead: the Pico gives its readings as None) is a
fault after stuck_ms, and clears when its readings return. Plain test functions that also run
under MicroPython (tests/test_micropython.py)."""

from array import array

from controller.sensing import Calibration, CountingSensor

FRAME_MS = 12.5


def _frame(k):
    """Readings of 3 and 2 seeds (1000 raw a seed) with a little noise that never repeats
    a reading."""
    return [3000 + k * 37 % 101 - 50, 2000 + k * 53 % 97 - 48]


def test_a_channel_without_readings_for_stuck_ms_is_faulty_until_they_return():
    sensor = CountingSensor(Calibration([0, 0], [1000, 1000], noise=50))
    t = 0.0
    for k in range(40):
        sensor.feed(t, _frame(k))
        t += FRAME_MS
    assert sensor.counts == [3, 2] and sensor.faults == [None, None]
    silent_from = t
    k = 40
    while t - silent_from < 1990:                   # under stuck_ms (2 s): waited past
        sensor.feed(t, [_frame(k)[0], None])
        t += FRAME_MS
        k += 1
    assert sensor.faults == [None, None] and sensor.settled == [True, True]
    changed = []
    for _ in range(3):
        changed += sensor.feed(t, [_frame(k)[0], None])
        t += FRAME_MS
        k += 1
    assert changed == [1]
    assert "no reading for 2000 ms" in sensor.faults[1], sensor.faults
    assert not sensor.settled[1] and sensor.confidence[1] == 0 and sensor.counts[1] == 2
    assert sensor.faults[0] is None and sensor.settled[0]
    for _ in range(40):                             # plugged in again
        sensor.feed(t, _frame(k))
        t += FRAME_MS
        k += 1
    assert sensor.faults == [None, None] and sensor.settled == [True, True]
    assert sensor.counts == [3, 2]


def test_the_same_through_feed_values_and_its_trusted_mask():
    sensor = CountingSensor(Calibration([0, 0], [1000, 1000], noise=50))
    values = array("i", [0, 0])
    t = 0
    for k in range(40 + 170):                       # channel 0 untrusted from frame 40 on
        values[0], values[1] = _frame(k)
        sensor.feed_values(t, values, 0b11 if k < 40 else 0b10)
        t += 12
    assert "no reading" in sensor.faults[0] and sensor.faults[1] is None
