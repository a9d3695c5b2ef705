"""Counting seeds by weight: raw load-cell frames -> a stable count for every pit and store.

    >>> from controller.sensing import Calibration, CountingSensor
    >>> sensor = CountingSensor(Calibration([0, 0, 0, 0], [1000, 1000, 1000, 1000], noise=50))
    >>> for frame in range(30):                         # 375 ms at 80 frames a second
    ...     changed = sensor.feed(frame * 12.5, [4000 + 40 * (frame % 3 - 1), frame % 2,
    ...                                           frame % 3 - 2, 12005 - frame % 5])
    >>> sensor.counts, sensor.settled
    ([4, 0, 0, 12], [True, True, True, True])
    >>> sensor.reading(0).count, round(sensor.reading(0).confidence, 2)
    (4, 1.0)

One frame arrives about every 10.7 ms (one conversion of the slowest of the board's HX711s at
their fast rate, on their own oscillators; a reading the Pico could not vouch for is None and
is skipped) with one raw reading per channel: the 2n pits, then South's store, then North's store (see `frames`). Each channel
goes through the same small filter, a few integer operations a frame; floats only when a steady
value is judged (a new one every 100 ms until it counts, a counted one every 250 ms):

1. **Range.** A reading at or beyond the converter's limits (the HX711 clips at -2**23 and
   2**23 - 1) is no weight: the channel reports a fault and the reading goes no further.
2. **Stuck.** A real cell always shows noise; the exact same reading for `stuck_ms` means a
   disconnected channel or a hung converter: a fault. So does no reading at all (None) for
   `stuck_ms`: a Pico gives the readings of a cell unplugged or dead as None.
3. **Spikes.** The median of the last 5 readings. One or two wild readings among five (spikes
   of a few seeds come about once in 2,000) never move it; it lags two frames (25 ms).
4. **Band.** The filtered value must stay within `tolerance` seeds of the mean of the current
   band of frames. Leaving the band starts a new one: the place is unsettled (a seed falling in,
   a hand in the pit). A step of one seed always leaves it.
5. **Settle (debounce).** A band `settle_ms` old whose movement is what the noise explains (a
   hand resting on the pit trembles more than that) is judged at once, then again every 100 ms
   until it counts, and every 250 ms once it does (to follow the cell's creep and to notice a
   hand that trembles on a counted place). A judgement takes 0.7 ms a channel on a Pico, a
   fifteenth of a frame (its likelihoods in whole numbers, `weighing`: in floats, every one a heap
   object there, it was 1 to 2 ms), so a frame makes two at most, the others due waiting a
   frame or two; and the re-judgements of counted places are paced: the channels earn them a
   little faster than they fall due and a frame makes only those earned, so they are spread
   over the frames, about one a frame, instead of all falling on one, or on the frame after the
   CPU was away. A frame where a new band is judged (where a count may change, and the guide
   has work to do) makes no re-judgement. Its
   mean is ``x = (mean - tare - drift) / per_seed`` seeds. x below -0.5 is a fault (a tare gone
   wrong, a cell pushed up), and so is x above `max_count` + 0.5 when the sensor is told how
   many seeds are in play (a cell off scale that the converter's range did not catch), both
   by either zero of step 6; otherwise the nearest count k with a `confidence`
   (`count_confidence`) becomes the count, settled, when the confidence reaches `accept`. A
   steady value that is not close to a whole number of seeds (something else on the pit) stays
   unsettled and keeps the last count. A channel back from a fault (its zero may have moved
   meanwhile) re-zeroes on the nearest whole count once, when the fault lasted at most two
   minutes and the count is within MENDED_LIMIT (0.4 seed); otherwise the value is a fault after
   `stuck_ms` (`adrift`), until it counts again or `retare` declares what the place holds.
6. **Re-zero.** The first accepted count of a band that is within TRACK_LIMIT (0.35 seed) of x
   re-zeroes the channel: `drift` takes up the residual x - k at once. Seeds differ in mass, so
   30 seeds weigh 30 mean seeds give or take sqrt(30) * spread; once the place has settled at
   30, the next seed is counted against the 30 as they actually weigh, and only the seeds that
   came or went since (`ref`, the count last zeroed on) add mass error. This is what makes
   stores, which only fill, countable up to any number of seeds.
   The channel also keeps the zero it had when it last settled empty (`empty_drift`; at first
   the calibration's tare), which no seed's mass moves. Every count is judged against both
   zeros, whichever explains it better: 14 light seeds that came one by one read 14 against
   the last zero, and lifted all at once, the pit reads exactly empty against the empty zero
   (against the last zero it reads 0.3, which is no count: the place would never settle).
7. **Drift.** Load cells creep (up to 0.2 seed a minute in the simulator, more with heat).
   While a channel stays settled, both zeros follow the residual with a time constant of
   `track_ms`, so the residual goes to zero. A miscount cannot be tracked in: a wrong count is
   at least half a seed off, and only residuals within TRACK_LIMIT are followed.

A session starts from a calibration made earlier; if the cells crept since, `retare(channel,
count)` declares what a place holds when the players confirm the board (at set-up).

A faulty channel keeps its last good count, unsettled, with confidence 0 and the reason in
`faults`: it never reports a count it did not see. A frame of the wrong length, a reading that
is not an int or time running backwards raises a SensingError and changes nothing.

Memory is fixed at start: a ring of 5 readings and a few numbers per channel. On a Pico, floats
are single precision (24 bits), so the tare stays an int and drift is kept apart from it: a
fraction of a raw unit added to a tare near 2**23 would be lost.

The integers every frame touches (the rings, the band, the times) are kept for all channels in
one flat table, `STATE_WORDS` numbers a channel after a `HEADER` (see the layout below), so that
a native version of the per-frame filter can work on them: the Pico's firmware passes
`native=` (firmware/fast.py, `@micropython.viper`) and feeds readings with `feed_values`; the
native code takes a frame's ordinary channels, starts their bands (a first reading, a band
left), and hands back the few that need this module's Python (a fault, a judgement due, the
times and settled flags of the bands it started). Everywhere else the Python below does it all.

Portable core: MicroPython subset.
"""

from array import array
from collections import namedtuple
from math import exp, sqrt

from .frames import SensingError, channel_name, check_frame, check_time

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

RING = const(5)             # readings the median filter holds (median5 is written for 5)
JUDGE_MS = const(100)       # a steady band is judged again every 100 ms until it counts...
STEADY_MS = const(250)      # ... then every 250 ms
JUDGE_MOST = const(2)       # judgements in one frame at most (see _judge_due)
BAND_CAP = const(64)        # frames a band's mean holds at full weight before halving (0.8 s)
MOTION_SHIFT = const(4)     # the band's motion is a running mean over 2**4 = 16 frames
MOTION_FRAMES = const(16)
# The flat table (`CountingSensor._state`): a header, then STATE_WORDS ints per channel. A native
# filter (firmware/fast.py) reads and writes the same words, by the same numbers.
SIZE = const(0)             # header: the number of channels
CREDIT = const(1)           # ... the re-judgements earned, channel-ms (see _earn)
REDO = const(2)             # ... a native pass's answer: channels for the Python step (bits)
JUDGE = const(3)            # ... the channels whose new band's judgement is due (bits)
STEADY = const(4)           # ... and those whose counted band's re-judgement is due (bits)
STARTED = const(5)          # ... and those whose filter it started afresh (bits)
LEFT = const(6)             # ... and those whose band it saw left and started again (bits)
SETTLE = const(7)           # ... settle_ms (a new band's first judgement is due after it)
HEADER = const(8)
LOW = const(0)              # per channel: readings at or beyond these are out of range
HIGH = const(1)
TOL = const(2)              # the band's half-width, raw units
CALM = const(3)             # `motion` of noise alone, raw units
STUCK_AFTER = const(4)      # ms of one repeated reading that make a fault (0: never)
POS = const(5)              # where the next reading goes in the ring
SAME = const(6)             # 1 while the reading repeats the last one...
SAME_SINCE = const(7)       # ... since when, ms
N = const(8)                # frames in the band; 0: the filter starts afresh (DOWN: after
                            # a fault, once good readings return)
BASE = const(9)             # the band's first filtered value, raw
ACC = const(10)             # sum of (filtered - base) over the band
MOTION = const(11)          # MOTION_FRAMES * the recent mean |filtered change|
DUE = const(12)             # when the band is judged next, ms
FRESH = const(13)           # 1: no confident count yet in this band
READINGS = const(14)        # the last 5 readings; then the last 5 medians (READINGS + RING)
STATE_WORDS = const(24)
DOWN = const(-1)            # N of a channel that is down (ch.down: why)
OK = const(0)               # why a channel is down: it is not
RANGE = const(1)            # a reading at or beyond the converter's limits
STUCK = const(2)            # the same reading for stuck_ms
SILENT = const(3)           # no reading for stuck_ms: its converter unplugged or dead
NEAR_COUNTS = const(4)      # a judgement's candidate counts: k - 1 .. k + 1 and the other zero's
Q = const(1024)             # a judgement's whole numbers (weighing.py): seeds in 1/1024...
FLOOR_Q = const(1678)       # ... SIGMA_FLOOR2 in 1/Q**2 seed**2 (0.0016 * 2**20)...
OTHER_BITS = const(4005)    # ... and OTHER as likelihoods are there: -256 log2(0.02 / Q)
NONE = const(1 << 20)       # ... and a likelihood of 0 (z2 over 100)
WHOLE_SEEDS = const(256)    # a value or zero this many seeds or more: floats (no board's)
NOISE_MOST = const(1 << 21)     # a channel's noise variance at most (1.4 seeds: no scale)
HALF_Q = 1024.5             # x * Q + HALF_Q - Q: x rounded to 1/Q seed, for x >= -0.5
ROOT = 1096538610001        # 2**(-1/256) * 2**40, rounded (_tables)
SPREAD_MOST = const(16384)  # a mass spread (squared, in 1/Q**2) this wide: floats (0.125 seed)
# A judgement's words (weighing.weigh's: an array of WEIGH_WORDS ints), in 1/Q seed and
# 1/Q**2 seed**2:
W_X = const(0)              # given: the value from the channel's zero and from the empty zero
W_EMPTY = const(1)
W_K = const(2)              # ... the nearest count to each
W_OTHER = const(3)
W_REF = const(4)            # ... the counts each zero was taken on
W_EMPTY_REF = const(5)
W_SPREAD = const(6)         # ... the seeds' mass spread, squared
W_VARIANCE = const(7)       # ... a value's variance at the zero's own count (floor and noise)
W_MINE = const(8)           # worked out: k's confidence W_MINE / W_TOTAL...
W_TOTAL = const(9)
W_CHANCE = const(10)        # ... other's, W_CHANCE / W_CHANCE_TOTAL (when other != k)...
W_CHANCE_TOTAL = const(11)
W_LIKELIER = const(12)      # ... 1: the empty zero explains k better, 2: other
W_NEAR = const(13)          # ... and the candidates' likelihoods from the channel's zero...
W_FAR = const(17)           # ... and from the empty zero
WEIGH_WORDS = const(21)

NEGATIVE = -0.5             # seeds: below this a place reads less than empty: a fault
MENDED_LIMIT = 0.4          # seeds a zero may creep during a fault and still be re-zeroed ...
MENDED_MS = const(120000)   # ... if the fault lasted no longer than this
MEDIAN_STEP = 0.455         # mean |m(t) - m(t-3)| of the median of 5 m, in noise sigmas
MEDIAN_VARIANCE = 1.25      # a mean of n medians of 5 has variance 1.25 sigma**2 / n
SIGMA_FLOOR = 0.04          # seeds: what calibration and drift tracking leave uncertain
SIGMA_FLOOR2 = SIGMA_FLOOR * SIGMA_FLOOR
OTHER = 0.02                # likelihood that a value is no whole number of seeds (see below)
TRACK_LIMIT = 0.35          # drift is tracked only on counts this close (and accepted)
STUCK_NOISE = 0.3           # raw units: a channel this noisy never repeats a reading for long
FLAT_NOISE = 1.0            # raw units: ... nor for a whole settle time

# One channel: `count` (int, the last settled count; None before the first), `settled` (bool),
# `confidence` (0..1), `fault` (None or a short text), `value` (float: the last judged value in
# seeds, None before the first). (No docstring: MicroPython's namedtuple types take none.)
Reading = namedtuple("Reading", ("count", "settled", "confidence", "fault", "value"))


def median5(a, b, c, d, e):
    """The median of five numbers in six comparisons, without a list (no allocation: this
    runs for every channel of every frame).

        >>> median5(3, 900, 1, 2, -50)
        2
    """
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:                   # pairs (a <= b) and (c <= d); swap them so that a <= c
        a, b, c, d = c, d, a, b
    # a is below b, c and d: at most one value (e) is smaller, so a is not the median
    a = e
    if a > b:
        a, b = b, a
    if a > c:
        a, b, c, d = c, d, a, b
    # the same again: a ranks first or second of the five; b, c, d are the top three
    return b if b < c else c


def count_confidence(x, k, spread, sigma, ref=0, empty=None, empty_ref=0):
    """How sure a value of `x` seeds is `k` seeds (0..1), on a channel last zeroed with `ref`
    seeds on it (0: the calibration's tare). `empty`, when given, is the same weight measured
    from a second zero, taken with `empty_ref` seeds on the place (0: the place was empty);
    each candidate count is then judged against the zero that explains it better.

    Each candidate count j (k - 1, k, k + 1) explains x with a normal likelihood whose variance
    is what the place can show at j seeds: ``|j - ref| * spread**2`` (the masses of the seeds
    that came or went since the channel was zeroed differ from the mean seed), plus
    ``sigma**2`` (the noise left in the averaged value), plus SIGMA_FLOOR**2 (calibration and
    drift tracking are not exact). Against them stands OTHER, a constant likelihood that the
    value is no whole number of seeds at all (a hand resting on the pit, a foreign object). The
    confidence is k's share of the total: near 1 when x is close to k, and falling fast when x
    is several deviations from every count (halfway between two small counts, it is near 0:
    seeds do not differ that much, so something else is on the place).

        >>> round(count_confidence(4.0, 4, 0.02, 0.01), 3)
        0.999
        >>> round(count_confidence(4.2, 4, 0.02, 0.01), 3)        # 3.5 deviations off
        0.67
        >>> round(count_confidence(4.5, 4, 0.02, 0.01), 3)        # no whole number
        0.0
        >>> round(count_confidence(40.2, 40, 0.02, 0.01), 3)      # 40 seeds vary more...
        0.992
        >>> round(count_confidence(40.2, 40, 0.02, 0.01, 36), 3)  # ...than the 4 that came
        0.67
        >>> round(count_confidence(0.33, 0, 0.02, 0.01, 14), 3)   # 14 light seeds lifted...
        0.252
        >>> round(count_confidence(0.33, 0, 0.02, 0.01, 14, 0.01), 3)  # ...: as heavy as empty
        0.999
    """
    floor = SIGMA_FLOOR2 + sigma * sigma
    spread2 = spread * spread
    total = OTHER
    mine = 0.0
    for j in (k - 1, k, k + 1):
        if j < 0:
            continue
        likelihood = _likelihood(x, j, ref, spread2, floor)
        if empty is not None:
            other = _likelihood(empty, j, empty_ref, spread2, floor)
            if other > likelihood:
                likelihood = other
        total += likelihood
        if j == k:
            mine = likelihood
    return mine / total


def _tables():
    """weighing.weigh's tables, for i = 0..255: 32768 * 2**(-i / 256) and 128 * log2(1 + i / 256),
    rounded (tests/test_sensing.py checks them). Worked out in whole numbers, so that every
    runtime has exactly the same ones (a Pico's floats have 24 bits: not enough), and not
    written out (a literal stays in a Pico's heap as long as the module): p = 2**55 *
    2**(-d / 256) for d = 0..256, 2**(-1/256) being ROOT / 2**40, within 2**-45 of it; and
    128 log2(1 + i / 256) is (d + 1) // 2 for the largest d with p >= 2**55 * 256 / (256 +
    i), that is d <= 256 log2(1 + i / 256)."""
    powers = [1 << 55]
    for _ in range(256):
        powers.append(powers[-1] * ROOT >> 40)
    exp2 = array("H", [(p + (1 << 39)) >> 40 for p in powers[:256]])
    half_log2 = bytearray(256)
    d = 0
    for i in range(256):
        least = (1 << 55) * 256 // (256 + i)
        while d < 256 and powers[d + 1] >= least:
            d += 1
        half_log2[i] = (d + 1) // 2
    return exp2, bytes(half_log2)


EXP2, HALF_LOG2 = _tables()


def _likelihood(x, j, ref, spread2, floor):
    """The (unnormalised) likelihood that `x` seeds, measured from a zero taken on `ref` seeds,
    are `j` seeds: normal, with the variance of count_confidence."""
    variance = (j - ref if j >= ref else ref - j) * spread2 + floor
    off = x - j
    z2 = off * off / variance
    if z2 > 100:
        return 0.0              # exp(-50): nothing next to the others
    return exp(-0.5 * z2) / sqrt(variance)


class _Channel:
    """What one channel keeps besides its words in the flat table (at offset `at`): the
    floats and the rarely touched."""

    __slots__ = ("at", "quiet", "flat", "down", "bad", "since", "judged_at", "drift", "ref",
                 "empty_drift", "empty_ref", "lag", "lag_at", "suspect", "fault_since",
                 "odd_since")

    def __init__(self, at, quiet, flat):
        self.at = at                # where its words start in the flat table
        self.quiet = quiet          # the most `motion` of a quiet band
        self.flat = flat            # True: a reading repeated for a settle time is suspect
        self.down = OK              # RANGE or STUCK while the channel is faulty...
        self.bad = None             # ... and the reading that made it so
        self.since = 0              # when the band started, ms
        self.judged_at = 0          # when it was last judged, ms
        self.drift = 0.0            # tracked drift, raw units, apart from the int tare
        self.ref = 0                # the count the channel was last re-zeroed on (tare: 0)
        self.empty_drift = 0.0      # the drift when the place last settled empty...
        self.empty_ref = 0          # ... (0), or when a count was declared or mended on it
        self.lag = 0.0              # creep that tracking had not yet followed, raw units...
        self.lag_at = 0             # ... when it was last tracked, ms
        self.suspect = False        # faulty since it last counted: its zero may have moved
        self.fault_since = 0        # when it became suspect, ms
        self.odd_since = None       # when a suspect band was first judged steady, no count


class CountingSensor:
    """Seed counts from load-cell frames; see the module's docstring for the filter.

    `feed(t_ms, raw)` takes one frame and returns the channels whose count, settled flag or
    fault changed in it. Per channel, kept up to date in place (read them, do not change them):
    `counts` (int; None before the first settled value), `settled`, `confidence`, `faults`
    (None or a short text) and `values` (the last judged value in seeds); `reading(channel)`
    bundles them.

    Parameters (defaults for HX711s at RATE high, 80 samples a second nominal, a conversion
    every 10.7 ms measured, and seeds of about 2% mass spread):

    - `settle_ms=200`: how long a value must hold before a new count is accepted. A seed
      dropped into a pit bounces and the plate rings for about 100 ms; 200 ms of steadiness is
      16 frames, whose mean is 4 times less noisy than one frame; and a player sees 0.2 s as
      immediate. A count follows a step about settle_ms + 25 ms after it (a frame later for
      every two places that changed in the same frame: judge_most).
    - `tolerance=0.3`: the band's half-width in seeds. Noise at 0.05 seed a frame moves the
      median of 5 by 0.03 seed: 0.3 is ten deviations away, so noise never breaks a band, and a
      seed (1.0) always does.
    - `accept=0.5`: the confidence a new count needs (more likely this count than anything
      else).
    - `track_ms=10000`: the time constant of drift tracking. At 0.2 seed a minute the tracked
      value lags 0.03 seed behind; short enough to follow a warming cell.
    - `stuck_ms=2000`: how long a reading may stay exactly the same. Noise of even 0.3 raw
      unit makes 160 equal readings in a row practically impossible. Channels calibrated with
      less noise (a noiseless simulation) are not checked; channels with 1 raw unit or more are
      also never settled on a reading that has not changed for a whole settle time.
    - `motion=3.5`: a band is quiet while its filtered value moves at most this many times what
      noise alone makes it move. The movement is |m(t) - m(t-3)|, the change of the median over
      3 frames (noise alone: 0.455 deviations on average), averaged over the last 16 frames or
      so. Over 3 frames rather than 1: the median of 5 turns a few noise readings that happen
      to alternate high and low into a large frame-to-frame swing, which the 3-frame change
      hardly sees, while a tremble shows better. Noise alone reached 2.9 times its mean at most
      in 4 million simulated frames: 3.5 keeps false alarms out. It catches a hand trembling by
      0.15 seed at 6..10 Hz, or 0.2 seed at 4..12 Hz, inside the band within 0.2..0.4 s;
      smaller or slower trembles go unnoticed, which is harmless: inside the band the mean, and
      so the count, stays right. A hand that presses or lifts by more than the band unsettles
      the place at once.
    - `steady_ms=250`: how often a counted place is judged again (its creep followed, a
      trembling hand noticed). Each judgement is about 0.7 ms on a Pico, and its few
      floats are heap objects there: a board with many channels may pace them slower
      (firmware/standalone.py does, above 14 channels).
    - `judge_most=2`: judgements in one frame at most, of new bands or of counted places
      (JUDGE_MOST, 2, is the most). One keeps every frame's floats to one judgement's, where
      two places change together (a capture: the pit and the store) or a CPU that was away
      has earned two re-judgements; the second place then counts a frame later
      (firmware/standalone.py, where a frame with two was 1 to 2 ms over the frame's time).
    - `judge_apart=False`: True leaves every judgement out of `feed` and `feed_values` for
      `judge()` to make, in a turn of the owner's loop of its own: a new band's (the count
      the players wait for: `judge_due` after the frame that made it due, judge_most of
      them, the others a frame later as without it), and a counted place's re-judgement
      (`rejudge_due`, paced as without it). On a Pico a judgement is 1 to 3 ms, and a
      frame's turn that also parsed the reading, or carried a step of the game, was over
      the frame's time.
    - `native=None`: a native version of the per-frame filter for `feed_values` (the Pico's
      firmware/fast.py `counting`): ``native(state, values, trusted, t_ms)`` works on the flat
      table, as the module says, and leaves in its header which channels need the Python step
      (REDO) and which are due a judgement (JUDGE). With it the table is an array of 32-bit
      ints, so times and settle_ms and stuck_ms must be whole milliseconds.
    - `native_weigh=None`: a native version of weighing.weigh, a judgement's candidate
      counts in whole numbers (the Pico's firmware/fast.py `weigh`): ``native_weigh(words,
      EXP2, HALF_LOG2)`` must leave exactly the words `weigh` leaves.
    """

    __slots__ = ("calibration", "settle_ms", "tolerance", "accept", "track_ms", "stuck_ms",
                 "motion", "max_count", "counts", "settled", "confidence", "faults", "values",
                 "steady_ms", "judge_most", "judge_apart", "_channels", "_state", "_native",
                 "_t", "_words", "_limit", "_weigh", "_noise_q", "_missing", "_missing_since")

    def __init__(self, calibration, settle_ms=200, tolerance=0.3, accept=0.5, track_ms=10000,
                 stuck_ms=2000, motion=3.5, max_count=None, native=None, steady_ms=STEADY_MS,
                 judge_most=JUDGE_MOST, judge_apart=False, native_weigh=None):
        if not hasattr(calibration, "per_seed") or not hasattr(calibration, "tare"):
            raise SensingError("a CountingSensor needs a Calibration, not %s"
                               % type(calibration).__name__)
        _positive(settle_ms, "settle_ms")
        _positive(tolerance, "tolerance")
        _positive(track_ms, "track_ms")
        _positive(stuck_ms, "stuck_ms")
        _positive(motion, "motion")
        if isinstance(steady_ms, bool) or not isinstance(steady_ms, int) or steady_ms < JUDGE_MS:
            raise SensingError("steady_ms %r must be a whole number of milliseconds, %d or more"
                               % (steady_ms, JUDGE_MS))
        if isinstance(judge_most, bool) or not isinstance(judge_most, int) or not (
                1 <= judge_most <= JUDGE_MOST):
            raise SensingError("judge_most %r must be a whole number of judgements, 1 to %d"
                               % (judge_most, JUDGE_MOST))
        if not 0 < tolerance < 1:
            raise SensingError("tolerance %r must be between 0 and 1 seed" % (tolerance,))
        if isinstance(accept, bool) or not isinstance(accept, (int, float)) or not (
                0 < accept < 1):
            raise SensingError("accept %r must be a confidence between 0 and 1" % (accept,))
        if native is not None and not (isinstance(settle_ms, int) and isinstance(stuck_ms, int)):
            raise SensingError("a native filter counts whole milliseconds: settle_ms %r and "
                               "stuck_ms %r must be ints" % (settle_ms, stuck_ms))
        self.calibration = calibration
        self.settle_ms = settle_ms
        self.tolerance = tolerance
        self.accept = accept
        self.track_ms = track_ms
        self.stuck_ms = stuck_ms
        self.motion = motion
        self.steady_ms = steady_ms
        self.judge_most = judge_most
        self.judge_apart = judge_apart
        if max_count is not None:
            _positive(max_count, "max_count")
        self.max_count = max_count      # the seeds in play: no place can hold more
        size = len(calibration.tare)
        self._channels = []
        state = [0] * (HEADER + STATE_WORDS * size)
        state[SIZE] = size
        state[SETTLE] = settle_ms
        for i in range(size):
            per_seed = calibration.per_seed[i]
            noise = calibration.noise[i]
            # a channel calibrated without noise (a noiseless simulation) repeats its readings
            # legitimately: no stuck check there
            stuck = stuck_ms if noise >= STUCK_NOISE else 0
            flat = noise >= FLAT_NOISE
            if noise < 1:
                noise = 1.0     # readings are ints: a median that moves moves a whole unit
            tol = int(tolerance * per_seed)
            calm = MOTION_FRAMES * MEDIAN_STEP * noise
            at = HEADER + STATE_WORDS * i
            state[at + LOW] = calibration.low[i]
            state[at + HIGH] = calibration.high[i]
            state[at + TOL] = tol if tol > 0 else 1
            state[at + CALM] = int(calm)
            state[at + STUCK_AFTER] = stuck
            state[at + FRESH] = 1
            self._channels.append(_Channel(at, motion * calm, flat))
        if native is not None:
            state = array("i", state)
        self._state = state
        self._native = native
        self.counts = [None] * size
        self.settled = [False] * size
        self.confidence = [0.0] * size
        self.faults = [None] * size  # type: list[str | None]
        self.values = [None] * size
        self._t = None
        self._missing = 0                   # channels with no reading since _missing_since
        self._missing_since = [0] * size
        # a judgement's whole numbers (weighing.py): the seeds' mass spread and each channel's
        # noise as variances in 1/Q**2 seed**2 (the noise's over a band of n frames: / n,
        # and at most NOISE_MOST: a noisier cell is no scale)
        spread = calibration.spread
        spread2 = int(spread * spread * (Q * Q) + 0.5)
        self._words = array("i", [0] * WEIGH_WORDS)
        self._words[W_SPREAD] = spread2
        # values and zeros below this many seeds are judged in whole numbers; none (NEGATIVE)
        # where the spread is so wide that the variances would not fit 31 bits
        self._limit = WHOLE_SEEDS if spread2 < SPREAD_MOST else NEGATIVE
        if native_weigh is None:
            from .weighing import weigh as native_weigh     # (only where none is given: no
            # Pico loads its bytecode)
        self._weigh = native_weigh
        self._noise_q = []
        for i in range(size):
            ratio = calibration.noise[i] / calibration.per_seed[i]
            noise = int(ratio * ratio * MEDIAN_VARIANCE * (Q * Q) + 0.5)
            self._noise_q.append(noise if noise < NOISE_MOST else NOISE_MOST)

    @property
    def channels(self):
        return len(self._channels)

    def reading(self, channel):
        """Channel `channel`'s Reading(count, settled, confidence, fault, value)."""
        return Reading(self.counts[channel], self.settled[channel], self.confidence[channel],
                       self.faults[channel], self.values[channel])

    def drift(self, channel):
        """The drift tracked on `channel` since calibration, in seeds: how far the empty place's
        zero has crept (the seeds' mass errors, which the last zero also carries, are not in
        it)."""
        return self._channels[channel].empty_drift / self.calibration.per_seed[channel]

    def calibration_now(self):
        """The calibration with the drift tracked so far folded into the tares: what to save
        now and then, so that a controller that restarts (a power cut) starts from today's
        zero and not from the day it was calibrated (cells creep by seeds an hour)."""
        cal = self.calibration
        from .calibration import Calibration
        tare = [cal.tare[i] + int(round(self._channels[i].empty_drift))
                for i in range(len(self._channels))]
        return Calibration(tare, cal.per_seed, cal.spread, cal.noise, cal.low, cal.high)

    def feed(self, t_ms, raw):
        """Take one frame: `t_ms` (milliseconds, never decreasing) and `raw` (one int per
        channel, or None for a channel with no reading this time: the converter's reading was
        not trusted, and the channel waits for its next). Returns the list of channels whose
        count, settled flag or fault changed."""
        check_time(t_ms, self._t)
        size = len(self._channels)
        check_frame(raw, size, missing=True)
        self._earn(t_ms)
        changed = []
        missing = 0
        for i in range(size):
            v = raw[i]
            if v is not None:
                self._step(i, v, t_ms, changed)
            else:
                missing |= 1 << i
        if missing or self._missing:
            self._silence(t_ms, missing, changed)
        self._judge_due(t_ms, changed)
        return changed

    def feed_values(self, t_ms, values, trusted):
        """`feed` without a list of readings: `values` holds one int per channel (an
        array('i'), as the Pico's HX711 reader fills it) and `trusted` is a bitmask of the
        channels whose reading counts (bit i for channel i; the others wait for their next).
        With a native filter (see the class) it does the ordinary channels' work and this
        module's Python only the rest."""
        check_time(t_ms, self._t)
        size = len(self._channels)
        if len(values) != size:
            raise SensingError("%d readings; this board has %d channels" % (len(values), size))
        self._earn(t_ms)
        changed = []
        if self._native is None:
            for i in range(size):
                if trusted >> i & 1:
                    self._step(i, values[i], t_ms, changed)
        else:
            if not isinstance(t_ms, int):
                raise SensingError("time %r: a native filter counts whole milliseconds"
                                   % (t_ms,))
            self._native(self._state, values, trusted, t_ms)
            st = self._state
            redo = st[REDO]
            started = st[STARTED]
            left = st[LEFT]
            work = redo | started | left
            i = 0
            bit = 1
            while work:                 # in channel order, as `feed` appends to `changed`
                if not work & 0xFF:     # eight channels at once (a store is channel 25 on a
                    work >>= 8          # 2 x 12 board: bit by bit, 25 turns of this loop)
                    bit <<= 8
                    i += 8
                    continue
                if work & 1:
                    if redo & bit:
                        self._step(i, values[i], t_ms, changed)
                    else:               # a band the native pass started: its times (_band)
                        ch = self._channels[i]
                        ch.since = ch.judged_at = t_ms
                        ch.odd_since = None
                        if left & bit:  # ... and the band it left (_step)
                            if self.settled[i]:
                                self.settled[i] = False
                                changed.append(i)
                            self.confidence[i] = 0.0
                work >>= 1
                bit <<= 1
                i += 1
        missing = ~trusted & ((1 << size) - 1)
        if missing or self._missing:
            self._silence(t_ms, missing, changed)
        self._judge_due(t_ms, changed)
        return changed

    def _silence(self, t_ms, missing, changed):
        """The channels with no reading in this frame (`missing`, bit i for channel i): one
        silent for stuck_ms is a fault, its converter unplugged or dead (a Pico gives the
        readings of a cell whose DOUT stopped moving as None, firmware/hx711.py). Its first
        reading back starts it afresh (`_step`, as after any fault)."""
        since = self._missing_since
        was = self._missing
        self._missing = missing
        work = missing
        i = 0
        while work:
            if not work & 0xFF:         # eight channels at once (see feed_values)
                work >>= 8
                i += 8
                continue
            if work & 1:
                bit = 1 << i
                if not was & bit:
                    since[i] = t_ms
                elif t_ms - since[i] >= self.stuck_ms and self._down(
                        i, self._channels[i], SILENT, None):
                    changed.append(i)
            work >>= 1
            i += 1

    @property
    def judge_due(self):
        """True when `judge()` has a new band's judgement to make (judge_apart): a count may
        change. The last frame made it due; one `judge()` makes judge_most of them and leaves
        the rest to the next frame."""
        return self._state[JUDGE] != 0

    @property
    def rejudge_due(self):
        """True when `judge()` has a counted place's re-judgement to make (judge_apart): one
        is due by the last frame and earned."""
        return self._state[STEADY] != 0 and self._state[CREDIT] >= self.steady_ms

    def judge(self):
        """With judge_apart: the judgements due by the last frame, as of that frame (its
        time and its readings): the new bands' (judge_due) if there are any, else the counted
        places' re-judgements earned (rejudge_due); judge_most at most. Returns the channels
        whose count, settled flag or fault changed, as `feed` does."""
        changed = []
        if self._t is not None:
            self._judge_due(self._t, changed, True)
        return changed

    def _judge_due(self, t_ms, changed, apart=False):
        """The frame's judgements, in channel order: the new bands' that are due (the counts
        the players wait for); in a frame with none of those, the counted bands'
        re-judgements that are due and earned (`_earn`); judge_most at most. Each costs a Pico
        0.7 ms: a frame where a count changes carries no re-judgement. With judge_apart they
        are left for `judge` (`apart`: its call)."""
        if self.judge_apart and not apart:
            return
        st = self._state
        due = st[JUDGE]
        fresh = due != 0
        if fresh:
            st[JUDGE] = 0               # the ones not made now: due again at the next frame
        else:
            due = st[STEADY]
        most = self.judge_most
        i = 0
        made = 0
        while due and made < most:
            if not due & 0xFF:          # eight channels at once (see feed_values)
                due >>= 8
                i += 8
                continue
            if due & 1:
                ch = self._channels[i]
                if fresh:
                    st[ch.at + DUE] = t_ms + JUDGE_MS
                elif st[CREDIT] >= self.steady_ms:
                    st[CREDIT] -= self.steady_ms
                    st[ch.at + DUE] = t_ms + self.steady_ms
                    st[STEADY] &= ~(1 << i)     # made (judge: not again before a frame)
                else:
                    return                  # not yet earned: a frame or two later
                made += 1
                if self._judge(i, ch, t_ms):
                    changed.append(i)
            due >>= 1
            i += 1

    def _earn(self, t_ms):
        """Time moves on to `t_ms`, a new frame: no judgement made in it yet, and the
        re-judgements of counted bands earned by now (in channel-ms: one costs steady_ms), at
        one and a half times the rate they fall due (a backlog clears), no more than
        judge_most at once; a new band's judgements need none."""
        state = self._state
        state[JUDGE] = state[STEADY] = 0
        if self._t is not None:
            credit = state[CREDIT] + (3 * len(self._channels) * int(t_ms - self._t) >> 1)
            most = self.judge_most * self.steady_ms
            state[CREDIT] = credit if credit < most else most
        self._t = t_ms

    def _step(self, i, v, t_ms, changed):
        """Channel i's share of a frame: its reading `v` (an int) through the filter; i is
        appended to `changed` when its count, settled flag or fault changed."""
        ch = self._channels[i]
        st = self._state
        at = ch.at
        if v <= st[at + LOW] or v >= st[at + HIGH]:
            if self._down(i, ch, RANGE, v):
                changed.append(i)
            return
        ring = at + READINGS
        n = st[at + N]
        if n <= 0:
            # the first reading, or the first good one after a fault (DOWN): start afresh,
            # with a full settle time before any count
            if n == DOWN:
                if ch.down == STUCK and v == ch.bad:
                    return                      # still the same reading: still stuck
                ch.down = OK
                self.faults[i] = None
                changed.append(i)
            st[ring] = st[ring + 1] = st[ring + 2] = st[ring + 3] = st[ring + 4] = v
            st[at + POS] = 0
            st[at + SAME] = 0
            self._band(ch, v, t_ms)
            return
        pos = st[at + POS]
        if v == st[ring + (pos - 1 if pos else RING - 1)]:
            # the same reading as the last frame: how long has this been going on?
            if not st[at + SAME]:
                st[at + SAME] = 1
                st[at + SAME_SINCE] = t_ms
            elif st[at + STUCK_AFTER] and t_ms - st[at + SAME_SINCE] >= st[at + STUCK_AFTER]:
                if self._down(i, ch, STUCK, v):
                    changed.append(i)
                return
        elif st[at + SAME]:
            st[at + SAME] = 0
        st[ring + pos] = v
        m = median5(st[ring], st[ring + 1], st[ring + 2], st[ring + 3], st[ring + 4])
        st[at + POS] = pos + 1 if pos < RING - 1 else 0
        dev = m - st[at + BASE]
        acc = st[at + ACC]
        off = dev - acc // n
        tol = st[at + TOL]
        if off > tol or off < -tol:
            # out of the band: something moves; a new band starts at this value
            self._band(ch, m, t_ms)
            if self.settled[i]:
                self.settled[i] = False
                changed.append(i)
            self.confidence[i] = 0.0
            return
        acc += dev
        if n > 2:
            # two frames after the band started, the ring holds only readings of it: from
            # then on the median moves by noise alone, unless something trembles. The
            # movement is m(t) - m(t-3): the median (pos - 3) % 5
            step = m - st[ring + (pos + 7 if pos < 3 else pos + 2)]
            # a running mean over about MOTION_FRAMES frames, kept as MOTION_FRAMES times
            # the mean in an int: motion += |step| - motion / MOTION_FRAMES
            motion = st[at + MOTION]
            st[at + MOTION] = motion + (step if step >= 0 else -step) - (motion >> MOTION_SHIFT)
        st[ring + RING + pos] = m
        n += 1
        if n >= BAND_CAP:
            # halve the band's weight: its mean stays, old frames fade (drift moves on)
            n >>= 1
            acc //= 2
        st[at + N] = n
        st[at + ACC] = acc
        if t_ms >= st[at + DUE]:        # judged after the frame's steps: _judge_due
            if st[at + FRESH]:
                st[JUDGE] |= 1 << i
            else:
                st[STEADY] |= 1 << i

    def adrift(self, channel):
        """True when `channel`'s fault is a zero that moved while it was faulty (steady, yet no
        whole number of seeds since): the one fault a person's word (`retare`) mends."""
        ch = self._channels[channel]
        return self._state[ch.at + N] > 0 and ch.odd_since is not None and \
            self.faults[channel] is not None and self._t - ch.odd_since >= self.stuck_ms

    def retare(self, channel, count=0):
        """Declare that `channel` now holds `count` seeds: its drift is set so that the current
        value reads exactly `count`. For the moments the players confirm the board (set-up, an
        empty board at the end); the channel must be steady for settle_ms first."""
        if isinstance(channel, bool) or not isinstance(channel, int) or not (
                0 <= channel < len(self._channels)):
            raise SensingError("there is no channel %r" % (channel,))
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise SensingError("%s: count %r is not a number of seeds" % (
                channel_name(channel, len(self._channels)), count))
        ch = self._channels[channel]
        st = self._state
        at = ch.at
        n = st[at + N]
        if ch.down != OK or n <= 0 or self._t is None or self._t - ch.since < self.settle_ms:
            raise SensingError("%s is not steady: keep hands off for %d ms, then retare" % (
                channel_name(channel, len(self._channels)), self.settle_ms))
        cal = self.calibration
        ch.drift = (st[at + BASE] - cal.tare[channel]) + st[at + ACC] / n - \
            count * cal.per_seed[channel]
        ch.ref = count
        ch.empty_drift = ch.drift       # the person's word outweighs a zero taken hours ago
        ch.empty_ref = count
        ch.lag = 0.0
        st[at + FRESH] = 0
        ch.suspect = False
        ch.odd_since = None
        st[at + DUE] = self._t      # judged again at the next frame

    # --- inside the filter ---------------------------------------------------------------------

    def _band(self, ch, m, t_ms):
        """Start a new band at filtered value `m`."""
        st = self._state
        at = ch.at
        st[at + BASE] = m
        st[at + ACC] = 0
        st[at + N] = 1
        st[at + MOTION] = st[at + CALM]     # noise alone until the band shows otherwise
        medians = at + READINGS + RING
        st[medians] = st[medians + 1] = st[medians + 2] = st[medians + 3] = st[medians + 4] = m
        ch.since = t_ms
        st[at + DUE] = t_ms + self.settle_ms
        ch.judged_at = t_ms
        st[at + FRESH] = 1
        ch.odd_since = None

    def _suspect(self, ch, t_ms):
        if not ch.suspect:
            ch.suspect = True
            ch.fault_since = t_ms

    def _down(self, i, ch, why, v):
        """Channel i is faulty (a reading out of range, or stuck): it keeps its count, unsettled,
        and starts afresh when good readings return. True when its state changed."""
        self._state[ch.at + N] = DOWN
        self._suspect(ch, self._t)
        ch.odd_since = None
        was = self.faults[i]
        if ch.down == why and v == ch.bad:
            return False        # the same fault as the last frame: no text to build
        ch.down = why
        ch.bad = v
        if why == RANGE:
            text = "raw %d out of range %d..%d (saturated)" % (
                v, self._state[ch.at + LOW] + 1, self._state[ch.at + HIGH] - 1)
        elif why == SILENT:
            text = "no reading for %d ms: converter unplugged or dead?" % int(self.stuck_ms)
        else:
            text = "constant raw %d for %d ms: disconnected?" % (v, int(self.stuck_ms))
        self.faults[i] = text
        self.confidence[i] = 0.0
        settled = self.settled[i]
        self.settled[i] = False
        return settled or was != text

    def _judge(self, i, ch, t_ms):
        """Judge channel i's steady band: count, settled, confidence, fault, drift. True when
        the count, the settled flag or the fault changed."""
        cal = self.calibration
        per_seed = cal.per_seed[i]
        st = self._state
        at = ch.at
        n = st[at + N]
        x = ((st[at + BASE] - cal.tare[i]) + st[at + ACC] / n - ch.drift) / per_seed
        empty = x + (ch.drift - ch.empty_drift) / per_seed     # the same, from the empty zero
        self.values[i] = x
        elapsed = t_ms - ch.judged_at
        ch.judged_at = t_ms
        count = self.counts[i]
        if x < NEGATIVE and empty < NEGATIVE:
            self._suspect(ch, t_ms)
            return self._set(i, count, False, 0.0,
                             "reads below empty (under -0.5 seed): tare off or cell pushed up")
        if self.max_count is not None and x > self.max_count - NEGATIVE and \
                empty > self.max_count - NEGATIVE:
            self._suspect(ch, t_ms)
            return self._set(i, count, False, 0.0, "reads %d seeds, more than the %d in play" % (
                int(x + 0.5), self.max_count))
        if st[at + MOTION] > ch.quiet:
            return self._set(i, count, False, 0.0, None)     # steady on average, yet trembling
        if ch.flat and st[at + SAME] and t_ms - st[at + SAME_SINCE] >= self.settle_ms:
            # not one reading changed for a settle time: no real cell is that still, so this
            # may be a channel going dead; the stuck fault follows if it stays so
            return self._set(i, count, False, 0.0, None)
        # the nearest count from either zero (0 below half a seed), the likelier of the two
        k = int(x + 0.5) if x > 0 else 0
        other = int(empty + 0.5) if empty > 0 else 0
        low = (k if k < other else other) - 1
        high = (other if k < other else k) + 1
        limit = self._limit
        if high - low < NEAR_COUNTS and NEGATIVE <= x < limit and NEGATIVE <= empty < limit \
                and ch.ref < limit and ch.empty_ref < limit:
            # count_confidence of k and of other, in whole numbers (every float is a heap
            # object on a Pico, and a judgement made of them was about 1 ms there; weighing)
            words = self._words
            words[W_X] = int(x * Q + HALF_Q) - Q        # x >= -0.5: rounded to 1/Q seed
            words[W_EMPTY] = int(empty * Q + HALF_Q) - Q
            words[W_K] = k
            words[W_OTHER] = other
            words[W_REF] = ch.ref
            words[W_EMPTY_REF] = ch.empty_ref
            words[W_VARIANCE] = FLOOR_Q + self._noise_q[i] // n
            self._weigh(words, EXP2, HALF_LOG2)
            confidence = words[W_MINE] / words[W_TOTAL]
            likelier = words[W_LIKELIER] & 1
            if other != k:
                chance = words[W_CHANCE] / words[W_CHANCE_TOTAL]
                if chance > confidence:
                    k, confidence = other, chance
                    likelier = words[W_LIKELIER] & 2
            # the value as the zero that explains k better measures it
            value = empty if likelier else x
        else:           # the two zeros more than a seed apart, or a value out of range: rare
            spread = cal.spread
            sigma = cal.noise[i] / per_seed * sqrt(MEDIAN_VARIANCE / n)
            confidence = count_confidence(x, k, spread, sigma, ch.ref, empty, ch.empty_ref)
            chance = count_confidence(x, other, spread, sigma, ch.ref, empty, ch.empty_ref)
            if chance > confidence:
                k, confidence = other, chance
            floor = SIGMA_FLOOR2 + sigma * sigma
            value = empty if _likelihood(empty, k, ch.empty_ref, spread * spread, floor) > \
                _likelihood(x, k, ch.ref, spread * spread, floor) else x
        self.values[i] = value
        if confidence < self.accept and ch.suspect and \
                -MENDED_LIMIT <= value - k <= MENDED_LIMIT and t_ms - ch.fault_since <= MENDED_MS:
            # back from a short fault: its zero crept while it could not be followed (0.2 seed
            # a minute at most, so two minutes move it 0.4 at most): re-zero on the nearest
            # whole count, once, as a fresh band does. After a longer fault the nearest count
            # may be the wrong one: that is `adrift`, for a person to settle
            self._zero(ch, x, k, per_seed)
            ch.empty_drift = ch.drift       # both zeros moved with the cell, by how much
            ch.empty_ref = k                # the seeds on it do not say
            ch.lag = 0.0
            ch.suspect = False
            ch.odd_since = None
            return self._set(i, k, True, self.accept, None)
        if confidence < self.accept:
            odd = None
            if ch.suspect:
                # back from a fault, steady, and no whole number of seeds: its zero moved
                # while it could not be followed (a fault that lasted minutes). Past stuck_ms
                # that is a fault of its own: a person looks, and `retare` takes their word.
                if ch.odd_since is None:
                    ch.odd_since = t_ms
                if t_ms - ch.odd_since >= self.stuck_ms:
                    odd = "steady at %s seeds since a fault, not a whole number: its zero " \
                          "moved" % _two_places(value)
            return self._set(i, count, False, confidence, odd)
        ch.suspect = False
        ch.odd_since = None
        residual = value - k
        if -TRACK_LIMIT <= residual <= TRACK_LIMIT:
            if st[at + FRESH]:
                # the first confident count of a band: re-zero on it, so that the next change
                # is measured from here (only the seeds that move then add mass error)
                self._zero(ch, x, k, per_seed)
                if k == 0:
                    ch.empty_drift = ch.drift       # empty: the cell's own zero, measured
                    ch.empty_ref = 0
                else:
                    # the re-zero took up the seeds' mass error and the creep that tracking
                    # had not followed; the empty zero takes the creep alone. A creeping cell
                    # keeps a residual of its rate times track_ms: that lag, and the creep at
                    # that rate since it was last tracked (the seeds were moving meanwhile)
                    gap = t_ms - ch.lag_at
                    if gap > self.track_ms:
                        gap = self.track_ms
                    ch.empty_drift += ch.lag * (1 + gap / self.track_ms)
                ch.lag = 0.0
            else:
                # settled and still: follow the slow creep of the cell, on both zeros
                if elapsed > self.steady_ms:
                    elapsed = self.steady_ms    # not more than a judgement's worth after a gap
                ch.lag = residual * per_seed
                ch.lag_at = t_ms
                creep = ch.lag * elapsed / self.track_ms
                ch.drift += creep
                ch.empty_drift += creep
        return self._set(i, k, True, confidence, None)

    def _zero(self, ch, x, k, per_seed):
        """Re-zero `ch` so that its value `x` (from its last zero) reads `k` seeds exactly."""
        ch.drift += (x - k) * per_seed
        ch.ref = k
        self._state[ch.at + FRESH] = 0

    def _set(self, i, count, settled, confidence, fault):
        changed = (count != self.counts[i] or settled != self.settled[i]
                   or fault != self.faults[i])
        self.counts[i] = count
        self.settled[i] = settled
        self.confidence[i] = confidence
        self.faults[i] = fault
        return changed


def _two_places(x):
    """x with two decimals, for a message (MicroPython formats floats its own way)."""
    hundredths = int(x * 100 + (0.5 if x >= 0 else -0.5))
    sign = "-" if hundredths < 0 else ""
    hundredths = -hundredths if hundredths < 0 else hundredths
    return "%s%d.%02d" % (sign, hundredths // 100, hundredths % 100)


def _positive(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise SensingError("%s %r must be a positive number" % (what, value))
