"""Activity sensing: one digital sensor per pit (IR break-beam, touch or hall) -> debounced
activations.

An activity board cannot count; it tells when a hand goes into a pit. The guide checks those
moments against the step script (the next seed goes into pit 7: did a hand just visit pit 7?).

    >>> sensor = ActivitySensor(3, debounce_ms=30)
    >>> sensor.feed(0, [0, 1, 0])               # pit 1 goes active...
    []
    >>> sensor.feed(5, [0, 0, 0])               # ...and bounces: the timer starts over
    []
    >>> sensor.feed(10, [0, 1, 0]), sensor.feed(30, [0, 1, 0]), sensor.feed(40, [0, 1, 0])
    ([], [], [1])
    >>> sensor.active
    [False, True, False]

Each pit's level must hold for `debounce_ms` before the debounced state follows it, both ways:
a contact that bounces for a few ms as it closes (1% of the simulator's activations do) gives one
activation, and a level that drops for a few ms in the middle of one does not end it. A sensor
active far longer than a hand stays in a pit (`stuck_ms`) reports a fault: a beam blocked by a
seed or a sleeve, a stuck switch. It clears when the sensor releases.

Portable core: MicroPython subset.
"""

from .frames import SensingError, pit_name, check_frame, check_time

LEVELS = (0, 1)


class ActivitySensor:
    """Debounced activity per pit. `feed(t_ms, levels)` returns the pits whose activation
    started in this frame; `active` (bool per pit) and `faults` (None or a short text per pit)
    are kept up to date in place.

    Parameters:

    - `debounce_ms=30`: how long a level must hold. Contacts bounce for a few ms; a hand in a pit
      stays a tenth of a second or more. At one frame every 12.5 ms, 30 ms is three frames.
    - `stuck_ms=10000`: how long a pit may stay active before it is called stuck. Picking up
      a big relay handful takes a few seconds; ten is far beyond any hand.
    """

    __slots__ = ("pits", "debounce_ms", "stuck_ms", "active", "faults", "_level", "_changed_at",
                 "_active_since", "_t")

    def __init__(self, pits, debounce_ms=30, stuck_ms=10000):
        if isinstance(pits, bool) or not isinstance(pits, int) or pits < 1:
            raise SensingError("a board has at least one pit sensor, not %r" % (pits,))
        for value, what in ((debounce_ms, "debounce_ms"), (stuck_ms, "stuck_ms")):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise SensingError("%s %r must be a number of milliseconds, 0 or more" % (
                    what, value))
        if stuck_ms <= debounce_ms:
            raise SensingError("stuck_ms (%s) must be longer than debounce_ms (%s)" % (
                stuck_ms, debounce_ms))
        self.pits = pits
        self.debounce_ms = debounce_ms
        self.stuck_ms = stuck_ms
        self.active = [False] * pits
        self.faults = [None] * pits  # type: list[str | None]
        self._level = [0] * pits            # the last raw level
        self._changed_at = [None] * pits    # when the raw level last changed (None: no frame)
        self._active_since = [0] * pits     # when the debounced activation started
        self._t = None

    def feed(self, t_ms, levels):
        """Take one frame: `t_ms` (milliseconds, never decreasing) and `levels` (0 or 1 per
        pit; True and False are refused like any non-int). Returns the pits, in order, whose
        debounced activation started in this frame."""
        check_time(t_ms, self._t)
        pits = self.pits
        check_frame(levels, pits, pit_name, LEVELS)
        self._t = t_ms
        started = []
        debounce_ms = self.debounce_ms
        level_of = self._level
        changed_at = self._changed_at
        active = self.active
        for i in range(pits):
            level = levels[i]
            if level != level_of[i] or changed_at[i] is None:
                level_of[i] = level
                changed_at[i] = t_ms
            on = level == 1
            if on != active[i] and t_ms - changed_at[i] >= debounce_ms:
                active[i] = on
                if on:
                    self._active_since[i] = t_ms
                    started.append(i)
                elif self.faults[i] is not None:
                    self.faults[i] = None       # released: it was not stuck after all
            elif on and active[i] and self.faults[i] is None and (
                    t_ms - self._active_since[i] > self.stuck_ms):
                self.faults[i] = "active for more than %s s: blocked or stuck sensor" % (
                    _seconds(self.stuck_ms))
        return started


def _seconds(ms):
    """Milliseconds as seconds for a message: "10", "2.5"."""
    text = "%.1f" % (ms / 1000)
    return text[:-2] if text.endswith(".0") else text
