"""Simulated time: the one clock every part of the virtual board reads.

    >>> clock = SimClock()
    >>> clock.advance(250)
    250
    >>> clock.now_ms
    250

Nothing in the simulator sleeps. The board schedules what the hand does on this clock, the sensors
sample the board at the clock's time, and whoever drives the simulation moves the clock forward
(usually by stepping through sensor frames). So a ten-minute game runs in as long as the
arithmetic takes, and a run with the same random seed replays exactly.

Time is a whole number of milliseconds, like MicroPython's `time.ticks_ms()` (which `ticks_ms`
mirrors, so code written against that clock interface can be handed a `SimClock`). Whole numbers
keep every comparison exact: no 12.499999 ms frame period drifting against the hand's schedule.
"""


class SimClock:
    """Simulated milliseconds since the start of the run; moves only when advanced."""

    __slots__ = ("_now_ms",)

    def __init__(self, start_ms: int = 0) -> None:
        self._now_ms = _whole_ms(start_ms, "start_ms")

    @property
    def now_ms(self) -> int:
        """The current simulated time in milliseconds."""
        return self._now_ms

    def ticks_ms(self) -> int:
        """The current time, under the name MicroPython's `time` module gives it."""
        return self._now_ms

    def advance(self, ms: int) -> int:
        """Move time forward by `ms` (>= 0) milliseconds; returns the new time."""
        ms = _whole_ms(ms, "ms")
        if ms < 0:
            raise ValueError("time only moves forward: advance(%d)" % ms)
        self._now_ms += ms
        return self._now_ms

    def advance_to(self, time_ms: int) -> int:
        """Move time forward to `time_ms`, which must not be in the past; returns it."""
        time_ms = _whole_ms(time_ms, "time_ms")
        if time_ms < self._now_ms:
            raise ValueError("time only moves forward: it is %d ms, not %d" % (
                self._now_ms, time_ms))
        self._now_ms = time_ms
        return time_ms

    def __repr__(self) -> str:
        return "SimClock(%d ms)" % self._now_ms


def _whole_ms(value: int, name: str) -> int:
    """`value` when it is a whole number (not a bool, not a float), else a TypeError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be a whole number of milliseconds, not %r" % (name, value))
    return value
