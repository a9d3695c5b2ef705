"""The firmware's time: milliseconds that only go forward, behind a small interface.

Everything in the firmware asks a clock for the time and never calls `time` itself, so a test
can run minutes of play in a moment on a clock it moves by hand::

    >>> clock = ManualClock()
    >>> clock.sleep_ms(250)         # sleeping is moving the clock on
    >>> clock.ticks_ms()
    250

A clock has two methods:

- `ticks_ms()`: milliseconds since the clock started (the Pico: since boot), an int that never
  goes back and never wraps;
- `sleep_ms(ms)`: wait that long (the main loop's idle time).

On the Pico `TicksClock` reads `time.ticks_ms()`, which wraps every 2**30 ms (12.4 days), and
unwraps it with `ticks_diff`: the sensing layer needs time that never runs backwards. Under
CPython (a host running the firmware against a pty) it reads `time.monotonic_ns()`.

Works under MicroPython and CPython.
"""

import time

try:
    from time import ticks_ms, ticks_diff, sleep_ms
except ImportError:                 # CPython: the same interface from monotonic time
    def ticks_ms():
        return time.monotonic_ns() // 1000000  # pyright: ignore[reportAttributeAccessIssue]

    def ticks_diff(new, old):
        return new - old

    def sleep_ms(ms):
        time.sleep(ms / 1000)


class TicksClock:
    """Real time: `time.ticks_ms()` unwrapped. Read it at least once every 6 days (half the
    tick counter's period), which any main loop does."""

    def __init__(self):
        self._last = ticks_ms()
        self._now = self._last

    def ticks_ms(self):
        tick = ticks_ms()
        self._now += ticks_diff(tick, self._last)
        self._last = tick
        return self._now

    def sleep_ms(self, ms):
        if ms > 0:
            sleep_ms(ms)


class ManualClock:
    """Simulated time: it stands still until `advance`d or slept on (tests, simulations)."""

    def __init__(self, start_ms=0):
        self.now_ms = start_ms

    def ticks_ms(self):
        return self.now_ms

    def sleep_ms(self, ms):
        if ms > 0:
            self.now_ms += ms

    def advance(self, ms):
        """Move on by `ms` milliseconds; returns the new time."""
        if ms < 0:
            raise ValueError("time only moves forward: advance(%d)" % ms)
        self.now_ms += ms
        return self.now_ms
