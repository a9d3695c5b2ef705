"""Virtual pit sensors: load cells through datasheet HX711s with their flaws, and digital (IR /
touch) sensors.

    >>> import random
    >>> from simulator.board import PhysicalBoard
    >>> board = PhysicalBoard(6, [4] * 12, random.Random(1))
    >>> cells = LoadCells(board, board.clock, random.Random(2))
    >>> frames = list(cells.frames(100))
    >>> [frame.time_ms for frame in frames]     # the slowest chip's rhythm: 11,004 us here
    [9, 20, 31, 42, 53, 64, 75, 86, 97]
    >>> len(frames[0].values)       # one channel per place: 12 pits and 2 stores
    14
    >>> frames[0].values[:3], frames[2].values[:3]  # None until the chips' rhythm is known
    ([None, None, None], [-112199, -93993, -97289])
    >>> min(cells.periods_us), max(cells.periods_us)   # every chip on its own oscillator
    (10388, 11004)

Load cells (`pico-bridge` profile): one per place, each through an HX711 of its own
(`simulator.parts.hx711.HX711`, the datasheet model the firmware's tests use), all on one shared
PD_SCK clock and read as the Pico firmware reads them (firmware/hx711.py). Each chip converts on
its own oscillator, about every 10,702 us at RATE high and up to 3% apart from chip to chip
(`spread_periods`, drawn from the rng; olkal, HX711_ADC issue 81), each conversion's end
wandering by up to 20 us. A read can start only when every DOUT is low, so the frames come at
the slowest chip's rhythm (about 10.7 to 11 ms apart, some 93 a second; the datasheet's nominal
80 would be 12.5 ms), and the faster chips' results are replaced unread in between. A
conversion that ends inside a read corrupts it; the firmware's `ReadPlanner`
(controller.sensing.shared_clock) learns each chip's rhythm from its DOUT and delays a read that
a conversion would catch, and here too it chooses when each read is made and vouches for each
reading: one it cannot vouch for (every chip's first two, before its period is measured, or one
a conversion may have caught) is None in the frame, as a Pico bridge sends it as missing, and
sensing waits for the next. `untrusted` counts those, `corrupted` the reads a conversion really
broke into (the models' own count: a corrupted word never comes out as a number if the planner
is right), `delays` the reads the planner moved.

What the chips convert is the signal at their input, a number in converter units:

    tare + mass * raw per gram + drift + noise + a rare spike + a hand pressing

set afresh for every read (a fresh draw of noise; `sample()` gives it) and saturating at the
rails, -2**23 and 2**23 - 1; a frame's value is the 24-bit word the chip shifted out, as a
signed int. Every flaw is expressed in *seed masses* (the nominal seed mass times the raw per
gram), because that is the scale that decides whether the sensing code can still count: the
defaults are noise of 0.05 seed masses per reading (a good HX711 with a 1-5 kg cell), drift of
up to 0.2 seed masses per minute (temperature creep of the cell and the glue), a one-reading
spike of up to 3 seed masses in 1 of 2,000 readings (a conversion made while the supply dips),
and a hand in the pit that presses several seed masses, different in every reading. Faults can
be injected per channel (`inject_fault`).

A real board's figures come from its profile's noise budget (`controller.hardware.noise`):
`LoadCells.from_budget` gives each channel the raw counts per gram of its own cell (a pit's 1 kg
cell reads five times as many counts per seed as a store's 5 kg one) and the noise in counts of
the HX711 at the board's data rate, the worse of the datasheet's and a measured breakout's:

    >>> from controller.hardware import load
    >>> from controller.hardware.noise import noise_budget
    >>> profile = load("pico-bridge-2x6")
    >>> budget = noise_budget(profile)
    >>> seed = budget.seed
    >>> board = PhysicalBoard(6, [4] * 12, random.Random(1), seed.mass_g, seed.mass_cv)
    >>> cells = LoadCells.from_budget(board, board.clock, random.Random(2), budget)
    >>> round(cells.per_seed_raw[0]), round(cells.per_seed_raw[12])     # a pit, a store
    (15333, 3067)
    >>> [round(n, 3) for n in cells.noise[11:13]]                  # in seed masses
    [0.01, 0.051]

Digital sensors (`pi-direct` profile): one per pit, reading 1 while the hand is in the pit. They
see the hand, not seeds. About 1% of activations bounce: a flicker of a few milliseconds at the
start or the end of the activation. A pit can be stuck at 0 or 1.

Both read the board at the clock's current time (`sample()`), and `frames(until_ms)` steps the
clock through the reading times (the load cells': where the reads end, in whole milliseconds;
the digital sensors': a fixed poll), so a driver's loop is
`for frame in cells.frames(board.busy_until_ms): ...`.
Everything random comes from the `rng` each sensor is given, in a fixed order (the chips' own
jitter from seeds drawn from it): the same seed gives the same frames.

Host-only.
"""

from __future__ import annotations

import math
import random
from typing import Iterator, NamedTuple, Sequence

from controller.hardware.noise import NoiseBudget
from controller.sensing.shared_clock import ReadPlanner

from .board import PhysicalBoard
from .clock import SimClock
from .parts.hx711 import HX711, signed, spread_periods

RAW_MAX = 2 ** 23 - 1       # the HX711's 24-bit two's complement output saturates here...
RAW_MIN = -(2 ** 23)        # ...and here

# The reader, as the Pico firmware's (firmware/hx711.py, whose constants these are): a read of
# 25 pulses (channel A at gain 128), one a microsecond (the PIO program's 10 cycles a bit at
# 10 MHz), 26 us from its first pulse to the snapshot after it; delays of at most 8 ms, and
# none sent later than 200 us before the chips are ready.
GAIN_128_PULSES = 25
READ_US = 26
MOST_US = 8000
LATE_US = 200
# The converters (firmware/fakes/loadcells.py uses the same): oscillators up to 3% apart, and
# each conversion's end wandering by up to 20 us (olkal, HX711_ADC issue 81).
CHIP_SPREAD = 0.03
JITTER_US = 20

# Load-cell faults (`LoadCells.inject_fault`).
FAULT_STUCK = "stuck"                # disconnected: a constant (a rail, by default)
FAULT_OFFSET = "offset"              # shifted by some seed masses (negative, by default)
FAULT_OUT_OF_RANGE = "out-of-range"  # shifted far beyond anything a place can hold
LOAD_CELL_FAULTS = (FAULT_STUCK, FAULT_OFFSET, FAULT_OUT_OF_RANGE)

# Default fault sizes, in seed masses (FAULT_STUCK's default is RAW_MAX: a broken bridge wire).
DEFAULT_OFFSET_SEEDS = -5.0
DEFAULT_OUT_OF_RANGE_SEEDS = 1000.0

# How long the drift keeps one rate before it picks another: temperature changes with the sun,
# the players' hands, the room heating; a constant slope for a whole tournament would be unreal.
DRIFT_SEGMENT_MS = (30_000, 120_000)

# A hand pressing in a pit: `hand_press` seed masses times a factor drawn afresh every sample,
# so the disturbance is large (never mistaken for noise) and never steady (never mistaken for
# a count).
HAND_PRESS_FACTOR = (0.1, 1.9)

# A digital bounce: the reading flips after `a` ms for `b` ms, `a` and `b` drawn in these ranges.
BOUNCE_DELAY_MS = (1, 3)
BOUNCE_LENGTH_MS = (1, 4)


class Frame(NamedTuple):
    """One reading of every channel, taken at `time_ms` (None: a load cell's reading that
    could not be trusted)."""

    time_ms: int
    values: list[int | None]


class _Sampler:
    """A sensor polled on a fixed grid (the digital sensors; the load cells are read when
    their converters have results, see `LoadCells`): the board, the clock, the grid."""

    def __init__(self, board: PhysicalBoard, clock: SimClock, rate_hz: float) -> None:
        if clock is not board.clock:
            raise ValueError("the sensors must read the board's own clock")
        if not rate_hz > 0:
            raise ValueError("rate_hz must be positive, not %r" % (rate_hz,))
        self.board = board
        self.clock = clock
        self.rate_hz = rate_hz
        self._origin_ms = clock.now_ms
        self._frame_index = 0

    def sample(self) -> list[int]:
        raise NotImplementedError

    def frames(self, until_ms: int) -> Iterator[Frame]:
        """Step the clock through the sampling times up to `until_ms`, yielding a `Frame` at
        each; then leave the clock at `until_ms`.

        Sampling times are origin + k * 1000 // rate_hz: at a rate that does not divide a
        second (80 Hz: steps of 12 and 13 ms) they are exact on average, so the clock stays
        in whole milliseconds and never drifts against the period. If the clock was moved
        past some sampling times, those samples are simply not taken (as when a real reader
        is late).
        """
        clock = self.clock
        while True:
            time_ms = self._next_frame_ms()
            if time_ms > until_ms:
                break
            clock.advance_to(time_ms)
            self._frame_index += 1
            yield Frame(time_ms, self.sample())
        if clock.now_ms < until_ms:
            clock.advance_to(until_ms)

    def _next_frame_ms(self) -> int:
        rate = self.rate_hz
        elapsed = self.clock.now_ms - self._origin_ms
        time_ms = self._origin_ms + int(self._frame_index * 1000 // rate)
        if time_ms < self.clock.now_ms:      # skip the sampling times the clock has passed
            self._frame_index = math.ceil(elapsed * rate / 1000)
            time_ms = self._origin_ms + int(self._frame_index * 1000 // rate)
        return time_ms


class LoadCells:
    """A load cell under every place (2n + 2 channels), each through an HX711 of its own on
    one shared clock, read as the Pico firmware reads them. See the module docstring."""

    def __init__(self, board: PhysicalBoard, clock: SimClock, rng: random.Random,
                 per_seed_raw: float | Sequence[float] = 2000.0,
                 tare_raw: int | Sequence[int] | None = None,
                 noise: float | Sequence[float] = 0.05, drift_per_min: float = 0.2,
                 spike_rate: float = 1 / 2000, spike_max: float = 3.0,
                 hand_press: float = 6.0, periods_us: int | Sequence[int] | None = None,
                 spread: float = CHIP_SPREAD, jitter_us: int = JITTER_US) -> None:
        """`per_seed_raw`: raw counts per nominal seed mass (one value, or one per channel):
        2000 is an HX711 at gain 128 with a 5 kg cell and 5 g seeds, leaving room for far more
        seeds than a pit holds before the rail. `tare_raw`: what an empty place reads (the cup
        on the cell plus the bridge's own imbalance); by default drawn per channel, because
        no two real cells agree. `noise` (one value, or one per channel), `drift_per_min`,
        `spike_max`, `hand_press` are in seed masses; `spike_rate` is per reading.

        The converters: `periods_us`, each chip's conversion period (by default drawn with
        `simulator.parts.hx711.spread_periods`: 10,702 us give or take `spread`, a fraction);
        `jitter_us`, how far each conversion's end wanders (olkal: +-20 us)."""
        if clock is not board.clock:
            raise ValueError("the sensors must read the board's own clock")
        self.board = board
        self.clock = clock
        self.rng = rng
        channels = board.place_count
        self.channels = channels
        self.per_seed_raw = _per_channel(per_seed_raw, channels, "per_seed_raw", float)
        if tare_raw is None:
            tare_raw = [rng.randint(-150_000, 150_000) for _ in range(channels)]
        self.tare_raw = _per_channel(tare_raw, channels, "tare_raw", int)
        self.noise = _per_channel(noise, channels, "noise", float)
        for name, value in (("noise", min(self.noise)), ("drift_per_min", drift_per_min),
                            ("spike_max", spike_max), ("hand_press", hand_press),
                            ("spread", spread), ("jitter_us", jitter_us)):
            if value < 0:
                raise ValueError("%s must not be negative, not %r" % (name, value))
        if not 0 <= spike_rate < 1:
            raise ValueError("spike_rate must be in [0, 1), not %r" % (spike_rate,))
        if spread >= 0.5:
            raise ValueError("spread is a fraction of the period, under 0.5, not %r"
                             % (spread,))
        self.drift_per_min = drift_per_min
        self.spike_rate = spike_rate
        self.spike_max = spike_max
        self.hand_press = hand_press
        self.raw_per_gram = [raw / board.seed_mass_g for raw in self.per_seed_raw]
        self._noise_raw = [n * raw for n, raw in zip(self.noise, self.per_seed_raw)]  # raw std
        self.faults: dict[int, tuple[str, float]] = {}
        self.sample_count = 0
        self.spike_count = 0            # spikes put into samples so far (for tests and demos)
        # The converters: one HX711 model a channel, each on its own oscillator, none in step
        # with another (a random phase each), all of them on the board's time in microseconds.
        if periods_us is None:
            periods_us = spread_periods(channels, spread, rng.randrange(1, 2 ** 31 - 1))
        periods = _per_channel(periods_us, channels, "periods_us", int)
        for period in periods:
            if not 2 * READ_US < period <= 200_000:
                raise ValueError("a conversion period of %r us is no HX711's (10,702 at 80 "
                                 "samples a second, 85,635 at 10)" % (period,))
        origin_us = clock.now_ms * 1000
        self.chips = [HX711(period, origin_us + rng.randint(1, period),
                            jitter_us=int(jitter_us), seed=rng.randrange(1, 2 ** 31 - 1))
                      for period in periods]
        self.planner = ReadPlanner(channels, READ_US)
        self.frame_count = 0            # reads made: every frame
        self.untrusted = 0              # readings given as None (a conversion may have caught them)
        self.delays = 0                 # reads the planner moved
        self.late = 0                   # delays worked out too late to use
        self.restarts = 0               # times the reader started afresh (the clock left it behind)
        self._after_us = origin_us      # when the last read ended (the reader's start at first)
        self._start_us: int | None = None   # the next read, once its moment is known
        self._delay_us = 0              # the delay the planner asked of the next read
        # Drift: per channel, a straight line from (segment start, offset) with its own slope
        # in raw counts per ms, until the segment ends and a new slope is drawn. Each slope is
        # at most drift_per_min seed masses per minute, so the drift over any window is too.
        now = clock.now_ms
        self._drift_start_ms = [now] * channels
        self._drift_offset = [0.0] * channels
        self._drift_slope = [0.0] * channels
        self._drift_end_ms = [now] * channels
        for channel in range(channels):
            self._new_drift_segment(channel, now)
        self._until_spike = [self._spike_gap() for _ in range(channels)]

    @property
    def periods_us(self) -> list[int]:
        """Each converter's own conversion period, in microseconds."""
        return [chip.period_us for chip in self.chips]

    @property
    def corrupted(self) -> int:
        """Reads a conversion broke into, over every chip (the models' count: whether the
        reader noticed or not)."""
        return sum(chip.corrupted for chip in self.chips)

    def inputs(self) -> list[int]:
        """What each converter converts now: the signal set for the conversions under way
        (a firmware test harness gives these to its own HX711 models)."""
        return [chip.value for chip in self.chips]

    def calibration(self):
        """The calibration a careful person would measure on these cells: their tare, one
        seed's raw weight, the seeds' mass spread and the noise (controller.sensing)."""
        from controller.sensing import Calibration
        return Calibration(self.tare_raw, self.per_seed_raw, spread=self.board.spread,
                           noise=list(self._noise_raw))

    @classmethod
    def from_budget(cls, board: PhysicalBoard, clock: SimClock, rng: random.Random,
                    budget: NoiseBudget, **flaws) -> LoadCells:
        """The load cells of the board a profile's noise budget describes: every pit's channel
        with the pit cell's raw counts per gram and noise in counts, the stores' with the
        store cell's (`flaws`: the other keywords of the constructor). The board may have fewer
        pits a row than the profile (a 2 x 12 board playing on 8): its pits use the pit cell."""
        if not budget.places:
            raise ValueError("%s has no load cells (its sensors are digital)" % budget.profile)
        pit, store = budget.places[0], budget.places[-1]
        cells = [pit] * board.size + [store] * 2
        per_seed = [place.counts_per_gram * board.seed_mass_g for place in cells]
        noise = [place.noise_counts / raw for place, raw in zip(cells, per_seed)]
        return cls(board, clock, rng, per_seed_raw=per_seed, noise=noise, **flaws)

    # ---- faults -------------------------------------------------------------------------------

    def inject_fault(self, channel: int, kind: str, value: float | None = None) -> None:
        """Make `channel` misbehave until `clear_fault`:

        - FAULT_STUCK: reads `value` raw, always (default RAW_MAX: a disconnected cell rails);
        - FAULT_OFFSET: reads `value` seed masses off (default -5: a cup seated badly);
        - FAULT_OUT_OF_RANGE: reads `value` seed masses off (default +1000: more than a place
          can ever hold, so the only sane reading is "broken").
        """
        if isinstance(channel, bool) or not isinstance(channel, int) or not (
                0 <= channel < self.channels):
            raise ValueError("channel must be 0..%d, not %r" % (self.channels - 1, channel))
        if kind == FAULT_STUCK:
            value = RAW_MAX if value is None else _clamp(int(value))
        elif kind == FAULT_OFFSET:
            value = DEFAULT_OFFSET_SEEDS if value is None else float(value)
        elif kind == FAULT_OUT_OF_RANGE:
            value = DEFAULT_OUT_OF_RANGE_SEEDS if value is None else float(value)
        else:
            raise ValueError("unknown load-cell fault %r; one of %s" % (
                kind, ", ".join(LOAD_CELL_FAULTS)))
        self.faults[channel] = (kind, value)

    def clear_fault(self, channel: int | None = None) -> None:
        """Mend `channel`, or every channel when None."""
        if channel is None:
            self.faults.clear()
        else:
            self.faults.pop(channel, None)

    # ---- reading --------------------------------------------------------------------------

    def frames(self, until_ms: int) -> Iterator[Frame]:
        """Read the converters up to `until_ms`, stepping the clock to each read's end and
        yielding a `Frame` for it; then leave the clock at `until_ms`.

        Each read is where the firmware's reader would make it (firmware/hx711.py): as soon
        as every DOUT is low (every chip has a result), or after the delay the planner asked
        for so that no conversion ends inside the read. A frame's time is the millisecond the
        read ended in; its values are the words the chips shifted out, as signed ints, None
        where the planner could not vouch for the reading. A read whose frame would fall
        after `until_ms` waits for the next call. If the clock was moved on past it, that
        read is not made (the chips converted on meanwhile, and nobody read them): the reader
        starts afresh from the clock's time, its planner learning the chips' rhythm again."""
        clock = self.clock
        while True:
            start = self._start_us
            if start is None or (start + READ_US) // 1000 < clock.now_ms:
                start = self._start_us = self._next_read()
            time_ms = (start + READ_US) // 1000
            if time_ms > until_ms:
                break
            clock.advance_to(time_ms)
            yield Frame(time_ms, self._read(start))
        if clock.now_ms < until_ms:
            clock.advance_to(until_ms)

    def _next_read(self) -> int:
        """Get every chip to the moment of the next read, and return it (in us): each chip's
        input set from the signal now, the conversions watched until every DOUT is low (the
        planner told of each, as the PIO program's DOUT snapshots tell the firmware), and the
        planner's delay taken. The inputs hold for every conversion up to the read: each of
        them ends within one period of now, so now is a moment of its own integration."""
        chips = self.chips
        for chip, value in zip(chips, self.sample()):
            chip.value = value
        t = self._after_us
        now_us = self.clock.now_ms * 1000
        if now_us > t:
            # the reader was away (the clock moved on without frames): the chips converted
            # unwatched, and what the planner knew of their rhythm is stale (each conversion's
            # end wanders): it starts afresh, its first readings untrusted, as at power-on
            for chip in chips:
                chip.advance(now_us)
            t = now_us
            self._delay_us = 0
            self.planner = ReadPlanner(self.channels, READ_US)
            self.restarts += 1
        planner = self.planner
        while True:
            t = self._watch(t)
            delay, self._delay_us = self._delay_us, 0
            if not delay:
                return t
            # the program waits `delay` us, then looks at every DOUT once more: a chip that
            # is high then (a conversion the planner did not foresee) is waited for, and the
            # firmware, seeing it rise, takes the end of its conversion to be then
            t += delay
            high = [cell for cell in range(self.channels) if chips[cell].dout(t)]
            if not high:
                return t
            for cell in high:
                planner.saw_end(cell, t)

    def _watch(self, t: int) -> int:
        """From `t` us, the first moment every DOUT is low, each conversion that ends before
        it reported to the planner: it happens, and DOUT shows it (a fall 75 us after it, or
        a rise at its end when it replaces a result nobody read), which the firmware turns
        into that conversion's end."""
        chips, saw_end = self.chips, self.planner.saw_end
        cells = range(self.channels)
        while True:
            low_from = t
            for cell in cells:
                chip = chips[cell]
                end = chip.next_end_us
                while end <= t:
                    chip.advance(end)
                    saw_end(cell, end)
                    end = chip.next_end_us
                if chip.ready:                  # its result waits (once its update is over)
                    low = chip.updating_until
                else:                           # read: low once the next one is in
                    low = end + chip.update_us
                if low > low_from:
                    low_from = low
            if low_from == t:
                return t
            t = low_from

    def _read(self, start: int) -> list[int | None]:
        """The read from `start` us: 25 pulses (channel A, gain 128 next) one microsecond
        apart, as the firmware's PIO program clocks them; each chip's word as a signed int,
        or None where the planner says a conversion may have ended inside the read (or does
        not know the chip's rhythm yet). Then the next read's delay, planned at its end."""
        words = [chip.clock_out(start, GAIN_128_PULSES) for chip in self.chips]
        end = start + READ_US
        planner = self.planner
        trusted = planner.trusted(start, end)
        values: list[int | None] = []
        for cell in range(self.channels):
            if trusted >> cell & 1:
                values.append(signed(words[cell]))
            else:
                values.append(None)
                self.untrusted += 1
        self.frame_count += 1
        self._after_us = end
        self._start_us = None
        if planner.all_known():
            ready, wait = planner.plan(end, MOST_US)
            if wait:
                if end > ready - LATE_US:   # the program would have the chips ready already
                    self.late += 1
                else:
                    self._delay_us = wait
                    self.delays += 1
        return values

    def sample(self) -> list[int]:
        """The signal at each place's converter (2n pits, then the stores) at the clock's
        current time, in converter units: tare, mass, drift, a fresh draw of noise, a spike
        when one is due, the hand's pressing, a fault. What a conversion now would convert."""
        now = self.clock.now_ms
        masses = self.board.masses_now_g()
        visit = self.board.visit_at(now)
        hand_place = -1 if visit is None else visit.place
        gauss = self.rng.gauss
        sigma = self._noise_raw
        # Locals: this loop runs for every read, about 93 times a simulated second.
        tare, per_gram, per_seed_raw = self.tare_raw, self.raw_per_gram, self.per_seed_raw
        offset, slope, start, end = (self._drift_offset, self._drift_slope,
                                     self._drift_start_ms, self._drift_end_ms)
        until_spike, faults = self._until_spike, self.faults
        values = []
        for channel in range(self.channels):
            if now >= end[channel]:
                self._new_drift_segment(channel, now)
            per_seed = per_seed_raw[channel]
            raw = (tare[channel] + masses[channel] * per_gram[channel] + offset[channel]
                   + slope[channel] * (now - start[channel]) + gauss(0.0, sigma[channel]))
            # A spike arrives after a geometric number of samples: one countdown per channel
            # costs far less than a random draw per channel per sample.
            until_spike[channel] -= 1
            if until_spike[channel] == 0:
                until_spike[channel] = self._spike_gap()
                self.spike_count += 1
                raw += self.rng.uniform(-self.spike_max, self.spike_max) * per_seed
            if channel == hand_place:
                raw += self.rng.uniform(*HAND_PRESS_FACTOR) * self.hand_press * per_seed
            if faults:
                fault = faults.get(channel)
                if fault is not None:
                    kind, value = fault
                    raw = value if kind == FAULT_STUCK else raw + value * per_seed
            raw = round(raw)
            values.append(RAW_MIN if raw < RAW_MIN else RAW_MAX if raw > RAW_MAX else raw)
        self.sample_count += 1
        return values

    def _new_drift_segment(self, channel: int, now: int) -> None:
        """Carry the drift on from where it is, at a new slope, for a new stretch of time."""
        self._drift_offset[channel] += self._drift_slope[channel] * (
            now - self._drift_start_ms[channel])
        per_ms = self.drift_per_min * self.per_seed_raw[channel] / 60_000
        self._drift_slope[channel] = self.rng.uniform(-per_ms, per_ms)
        self._drift_start_ms[channel] = now
        self._drift_end_ms[channel] = now + self.rng.randint(*DRIFT_SEGMENT_MS)

    def _spike_gap(self) -> int:
        """Samples until the next spike on a channel: geometric with mean 1 / spike_rate
        (0 never counts down to a spike: no spikes)."""
        if self.spike_rate == 0:
            return 0
        u = 1.0 - self.rng.random()        # (0, 1]: log(u) is finite
        return 1 + int(math.log(u) / math.log(1.0 - self.spike_rate))


class DigitalSensors(_Sampler):
    """A digital sensor in every pit (2n channels, the stores have none): 1 while the hand is
    in the pit, with bounces and injectable stuck faults. See the module docstring."""

    def __init__(self, board: PhysicalBoard, clock: SimClock, rng: random.Random,
                 bounce_rate: float = 0.01, rate_hz: float = 200) -> None:
        """`bounce_rate`: the fraction of activations that bounce. `rate_hz`: how often
        `frames` polls (200 Hz, a modest poll loop on a Pi: some bounces fall between two
        polls, as they do for real; poll faster to see every one)."""
        super().__init__(board, clock, rate_hz)
        if not 0 <= bounce_rate <= 1:
            raise ValueError("bounce_rate must be in [0, 1], not %r" % (bounce_rate,))
        self.rng = rng
        self.channels = board.size
        self.bounce_rate = bounce_rate
        self.faults: dict[int, int] = {}
        self.bounce_count = 0           # activations that bounced so far
        self._visits_seen = 0           # board visits whose bounce is already decided
        self._flickers: list[tuple[int, int, int]] = []     # (start_ms, end_ms, pit) to come

    def inject_fault(self, pit: int, stuck_at: int) -> None:
        """Make `pit` read `stuck_at` (0 or 1) until `clear_fault`: a dirty IR window, a
        shorted touch pad, a broken wire."""
        if isinstance(pit, bool) or not isinstance(pit, int) or not 0 <= pit < self.channels:
            raise ValueError("pit must be 0..%d, not %r" % (self.channels - 1, pit))
        if stuck_at not in (0, 1):
            raise ValueError("stuck_at must be 0 or 1, not %r" % (stuck_at,))
        self.faults[pit] = stuck_at

    def clear_fault(self, pit: int | None = None) -> None:
        """Mend `pit`, or every pit when None."""
        if pit is None:
            self.faults.clear()
        else:
            self.faults.pop(pit, None)

    def sample(self) -> list[int]:
        """One reading (0 or 1) per pit at the clock's current time."""
        now = self.clock.now_ms
        self._decide_bounces()
        values = [0] * self.channels
        visit = self.board.visit_at(now)
        if visit is not None and visit.place < self.channels:
            values[visit.place] = 1
        if self._flickers:
            self._flickers = [f for f in self._flickers if f[1] > now]
            for start, end, pit in self._flickers:
                if start <= now:
                    values[pit] ^= 1
        for pit, stuck_at in self.faults.items():
            values[pit] = stuck_at
        return values

    def _decide_bounces(self) -> None:
        """Decide, once and in log order, whether each new activation of a pit bounces, and
        where: just after the hand arrives (1, 0, 1) or just after it leaves (0, 1, 0)."""
        visits = self.board.visits
        rng = self.rng
        for visit in visits[self._visits_seen:]:
            if visit.place >= self.channels or rng.random() >= self.bounce_rate:
                continue
            edge = visit.start_ms if rng.random() < 0.5 else visit.end_ms
            start = edge + rng.randint(*BOUNCE_DELAY_MS)
            self._flickers.append((start, start + rng.randint(*BOUNCE_LENGTH_MS), visit.place))
            self.bounce_count += 1
        self._visits_seen = len(visits)


def _per_channel(value, channels: int, name: str, kind: type) -> list:
    """`value` as a list of `channels` numbers: one value for all, or a sequence of them."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [kind(value)] * channels
    values = [kind(v) for v in value]
    if len(values) != channels:
        raise ValueError("%s: %d values for %d channels" % (name, len(values), channels))
    return values


def _clamp(raw: int) -> int:
    """What the HX711 gives for `raw`: saturated at its rails."""
    return RAW_MIN if raw < RAW_MIN else RAW_MAX if raw > RAW_MAX else raw
