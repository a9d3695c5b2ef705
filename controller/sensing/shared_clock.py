"""When HX711s on one shared clock can be read without catching a conversion mid-read.

A board's HX711s share their PD_SCK line, so one read clocks all of them at once, and it can
only start when every one has a result ready (every DOUT low). But each converts on its own
oscillator (about 10.7 ms a conversion at RATE high, a few per cent apart from chip to chip:
olkal's measurements, simulator/parts/hx711.py): while the read waits for the last of them,
the first may come to the end of its next conversion — and a conversion that ends during a
read replaces the result being shifted out, which comes out corrupted. Read as soon as the
last chip is ready, that happens to about one reading in 400 for a 27 us read, and far more
for a longer one (a 74HC165 chain's) or a read the CPU leaves half done.

A `ReadPlanner` prevents it. It learns each chip's rhythm from when its DOUT was seen to change
(a fall 75 us after a conversion ends, once the result before it was read; a rise at the end
of one whose result nobody read), and it predicts each chip's next conversions:

    planner = ReadPlanner(cells=14, read_us=27)
    planner.saw_end(3, t_us)             # chip 3 finished a conversion at t_us
    ready, wait = planner.plan(end_us)   # when every chip will next have a result, and how
                                         # long to wait then so that no chip's conversion
                                         # ends inside the read (0: none would)
    planner.intact(start_us, end_us)     # per chip: could a conversion have ended in there?

A delayed read starts just after the chip that was about to convert has done so (its newer
result is read; the older one was never going to be). `intact` judges a read after the fact:
a chip whose conversion may have ended inside it, or whose rhythm is not known yet, is not
trusted.

Times are whole microseconds on a clock of the caller's (the Pico's timer), as small ints:
`shift(offset)` moves every stored time when the caller rebases its clock.

Portable core: MicroPython subset. The Pico firmware plans its reads with it; the simulator's
load cells deliver frames at the times it plans.
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

UPDATE_US = const(75)           # DOUT high while a new result replaces one (olkal)
NOMINAL_US = const(10702)       # a conversion at RATE high on the internal oscillator
GUARD_US = const(30)            # a conversion predicted this near a read may have been in
                                # it: olkal's +-20 us wander, and the prediction's own error
SLACK_US = const(5)             # planned reads keep this more: the program's few cycles from
                                # every DOUT low to its first pulse, the timer's microsecond
FIXED = const(16)               # periods are kept in 1/16 us
UNKNOWN = const(-1)
CANDIDATE = const(-1)           # in `measured`: one span seen, its period not confirmed yet
SHORTEST = const(85616)         # the spans a period may be, in 1/16 us: half the nominal
LONGEST = const(2054784)        # to 12 of them, 128 ms (RATE low: 85.6 ms on the internal
                                # oscillator, 100 ms on a crystal)


class ReadPlanner:
    """The rhythm of `cells` HX711s on one clock, and the reads it allows (see the module).
    `read_us` is how long a read takes from its first clock pulse to its last."""

    def __init__(self, cells, read_us, update_us=UPDATE_US, guard_us=GUARD_US):
        self.cells = cells
        self.read_us = read_us
        self.update_us = update_us
        self.guard_us = guard_us
        self.ends = [UNKNOWN] * cells               # the last conversion end seen, per chip
        self.periods = [NOMINAL_US * FIXED] * cells  # in 1/16 us
        self.measured = [0] * cells                  # periods measured so far, per chip

    def shift(self, offset):
        """Move every stored time by `offset` us (the caller's clock was rebased)."""
        ends = self.ends
        for cell in range(self.cells):
            if ends[cell] != UNKNOWN:
                ends[cell] += offset

    def saw_end(self, cell, end_us):
        """Chip `cell` finished a conversion at `end_us`. Each conversion takes the chip's
        period give or take some tens of microseconds of its own (olkal: +-20 us), so the
        best guess of the next end is the last one seen plus the period; the period is a
        running mean of the spans seen.

        The first span is taken as one whole period, a candidate, and the chip's period is
        known once the next span agrees with it. Not the nominal period's multiple: a
        breakout at RATE low converts every 85.6 ms, within 0.1% of eight periods at RATE
        high, and must be seen as slow, not as eight conversions missed."""
        last = self.ends[cell]
        if last != UNKNOWN and end_us - last < self.periods[cell] // (2 * FIXED):
            return                                  # the same conversion seen again
        self.ends[cell] = end_us
        if last == UNKNOWN:
            return
        span = (end_us - last) * FIXED
        state = self.measured[cell]
        if state == 0:
            self._candidate(cell, span)
            return
        period = self.periods[cell]
        count = (span + period // 2) // period
        if count < 1 or abs(span - count * period) > period // 8 or (
                state == CANDIDATE and count != 1):
            self._candidate(cell, span)             # lost track (a restart): start afresh
            return
        measured = span // count
        if state == CANDIDATE:                      # the second span agrees: known
            self.periods[cell] = (period + measured) // 2
            self.measured[cell] = 1
        else:                                       # a running mean that follows a drift
            self.periods[cell] = (15 * period + measured) // 16
            self.measured[cell] += 1

    def _candidate(self, cell, span):
        """A span that may be one period (or none: outside any HX711's)."""
        if SHORTEST <= span <= LONGEST:
            self.periods[cell] = span
            self.measured[cell] = CANDIDATE
        else:
            self.measured[cell] = 0

    def period_us(self, cell):
        """Chip `cell`'s conversion period as measured, in us (0 while none is)."""
        return self.periods[cell] // FIXED if self.measured[cell] > 0 else 0

    def known(self, cell):
        """True once chip `cell`'s period has been measured."""
        return self.measured[cell] > 0

    def all_known(self):
        """True once every chip's period has been measured (before, there is nothing to plan
        with)."""
        for cell in range(self.cells):
            if self.measured[cell] <= 0:
                return False
        return True

    def next_end(self, cell, after_us):
        """The end of chip `cell`'s first conversion at or after `after_us` (its last seen end
        when none is known: the caller must not rely on it)."""
        last = self.ends[cell]
        if last == UNKNOWN:
            return after_us
        if last >= after_us:
            return last
        period = self.periods[cell]
        count = ((after_us - last) * FIXED + period - 1) // period
        return last + count * period // FIXED

    def next_ready(self, after_us):
        """When every chip will next have a result, after a read that ended at `after_us`
        (each one's next conversion, plus its update)."""
        ready = after_us
        for cell in range(self.cells):
            when = self.next_end(cell, after_us + 1) + self.update_us
            if when > ready:
                ready = when
        return ready

    def _later_end(self, cell, from_us, after_us):
        """Chip `cell`'s first conversion end at or after `from_us` other than the one a read
        after `after_us` is for (its first after `after_us`)."""
        first = self.next_end(cell, after_us + 1)
        return self.next_end(cell, from_us if from_us > first else first + 1)

    def _all_low(self, ready_us, after_us):
        """The moments the program may find every DOUT low, from `ready_us` on: when each chip
        has a result and none is in its update. A fast chip that finishes a second conversion
        near that moment (within the wander of two predictions: twice the guard) may do so
        just before it (its update then holds DOUT high) or just after: both are kept."""
        moments = [ready_us]
        for _ in range(self.cells + 1):
            t = moments[-1]
            late = -1
            for cell in range(self.cells):
                end = self._later_end(cell, t - self.update_us + 1, after_us)
                if end <= t + 2 * self.guard_us and end + self.update_us > late:
                    late = end + self.update_us
            if late <= t:
                break
            moments.append(late)
        return moments

    def _clash(self, start_us, after_us, margin):
        """The end of the first conversion that would spoil a read starting at `start_us`
        (ending during the update before it, during the read, or within `margin`), or -1."""
        low = start_us - self.update_us - margin
        high = start_us + self.read_us + margin
        for cell in range(self.cells):
            end = self._later_end(cell, low, after_us)
            if end <= high:
                return end
        return -1

    def plan(self, after_us, most_us=8000, widen_us=0):
        """The next read after one that ended at `after_us`: (when the program will first find
        every DOUT low and take its delay, the delay in us). The delay is 0 when no chip's
        conversion would end inside a read starting then; otherwise it moves the read to just
        after the update of the conversion that would (and of any that would then), whichever
        of the moments `_all_low` allows the program counts it from. Past `most_us` it gives
        up and says 0 (then `intact` tells which readings to trust).

        A read is planned twice the guard (and SLACK_US) away from every conversion, and
        `widen_us` more: for a read planned a few conversions ahead, from a read end that is
        itself a prediction, the predictions wander further."""
        margin = 2 * self.guard_us + SLACK_US + widen_us   # twice as far off as judged
        moments = self._all_low(self.next_ready(after_us), after_us)
        wait = 0
        for _ in range(2 * self.cells + 2):
            moved = False
            for moment in moments:
                end = self._clash(moment + wait, after_us, margin)
                if end >= 0:
                    wait = end + self.update_us + margin + 1 - moment
                    moved = True
            if not moved:
                return moments[0], wait
            if wait > most_us:
                break
        return moments[0], 0

    def intact(self, start_us, end_us):
        """For each chip: True if a read from `start_us` to `end_us` got one result unbroken
        (its rhythm is known and no conversion of it can have ended within the read and the
        guard around it)."""
        mask = self.trusted(start_us, end_us)
        return [bool(mask >> cell & 1) for cell in range(self.cells)]

    def trusted(self, start_us, end_us):
        """`intact` as a bitmask: bit c set when chip c's reading is to be trusted."""
        low = start_us - self.guard_us
        high = end_us + self.guard_us
        mask = 0
        for cell in range(self.cells):
            if self.measured[cell] > 0 and self.next_end(cell, low) > high:
                mask |= 1 << cell
        return mask
