"""Calibrating a counting board: what each load cell reads empty, what one seed adds, and how much
the seeds differ from each other.

A load cell behind an HX711 reads a signed integer that grows with the weight on it:
``raw = tare + seeds * per_seed + noise``. Three numbers per channel turn raw readings into seed
counts, and one number about the seeds says how far that can be trusted:

- `tare`: the raw reading of the empty place (an int: the median of about a second of frames);
- `per_seed`: raw units one seed adds (a float, measured with K seeds on the place);
- `noise`: the standard deviation of one raw reading of a still place, in raw units (measured
  while taring; the counting filter's thresholds scale with it);
- `spread`: the coefficient of variation of the seeds' masses (0.02: one seed in three is more
  than 2% off the mean). Counting by weight is reliable only with uniform seeds, about 2% or
  less (docs/architecture.md): k seeds weigh k mean seeds give or take sqrt(k) * spread seeds,
  so at 5% even 25 seeds are a quarter of a seed uncertain.

The procedure that measures them, for a person at the board, is `calibrator.Calibrator` (loaded
apart: a calibrated board never needs its bytecode). A calibration is kept as JSON (`to_json` /
`Calibration.from_json`).

Portable core: MicroPython subset.
"""

import json

from .frames import SensingError, HX711_LOW, HX711_HIGH, channel_name

SPREAD_LIMIT = 0.05         # above this seed mass spread, counting by weight is unreliable
SPREAD_GOOD = 0.02          # docs/architecture.md: reliable at about 2% or less
MIN_SEED_NOISE = 8          # one seed must weigh at least this many noise deviations
MIN_FRAMES = 16             # frames a calibration step needs (80 = one second is better)
MIN_SINGLES = 5             # single-seed weighings a spread needs (20 or more is better)
DEFAULT_NOISE = 0.05        # noise in seeds when a calibration gives none (a typical HX711)
ROBUST_SIGMA = 1.4826       # median absolute deviation -> standard deviation, Gaussian noise
UNSTEADY = 3                # a weighing noisier than this many times the tare's moved
# What helps a seed too light for its cell's noise. Not a higher gain: 128 is already the
# HX711's highest. `layli hardware check` budgets it before a board is built.
LIGHT_SEED_HELP = ("a lower-capacity cell (more signal per gram), heavier seeds, or the 10 "
                   "samples/s rate's lower noise if the board can wait (the HX711's gain, 128, "
                   "is already its highest)")


def median(values):
    """The median of a non-empty list of numbers (the mean of the two middle ones when the
    count is even; an int when they are ints and their sum is even)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    low, high = ordered[middle - 1], ordered[middle]
    total = low + high
    return total // 2 if isinstance(total, int) and total % 2 == 0 else total / 2


def robust_noise(values, centre):
    """The standard deviation of `values` around `centre`, estimated from the median absolute
    deviation so that a spike or two in a second of frames does not inflate it. When more than
    half the readings equal the centre (a converter that barely moves), the plain standard
    deviation instead; 0.0 only when every reading is the same."""
    spread = median([abs(v - centre) for v in values]) * ROBUST_SIGMA
    if spread:
        return float(spread)
    total = 0
    for v in values:
        total += (v - centre) * (v - centre)
    return (total / len(values)) ** 0.5


def seed_spread(weights):
    """(mean, coefficient of variation) of single-seed weights, in any unit (raw units above the
    tare, or grams from a kitchen scale). The CV uses the sample standard deviation (n - 1).

        >>> mean, cv = seed_spread([9.8, 10.0, 10.2, 9.9, 10.1])
        >>> mean, round(cv, 4)
        (10.0, 0.0158)
    """
    if not isinstance(weights, (list, tuple)) or len(weights) < MIN_SINGLES:
        raise SensingError("weigh at least %d seeds one at a time (20 or more is better)"
                           % MIN_SINGLES)
    for i in range(len(weights)):
        w = weights[i]
        if isinstance(w, bool) or not isinstance(w, (int, float)):
            raise SensingError("single-seed weight %d (%r) is not a number" % (i, w))
    mean = sum(weights) / len(weights)
    if mean <= 0:
        raise SensingError("single seeds weigh %s on average: nothing was on the place" % mean)
    total = 0.0
    for w in weights:
        total += (w - mean) * (w - mean)
    return mean, (total / (len(weights) - 1)) ** 0.5 / mean


def reliable_count(spread):
    """The most seeds that may come or go at once and still be counted within a quarter of a
    seed at two standard deviations (2 * sqrt(k) * spread <= 0.25): 39 at 2%, 6 at 5%. The
    counting filter re-zeroes a place on every settled count, so only the seeds of one change
    (a pit emptied, a capture) add mass error, not all the seeds a store has gathered."""
    if spread <= 0:
        return None
    return int((0.125 / spread) ** 2)


class Calibration:
    """Per channel `tare`, `per_seed`, `noise` (raw units) and the valid raw range (`low`,
    `high`: readings at or beyond are saturated), plus the seeds' mass `spread`.

    Refuses what cannot count (a SensingError naming the channel): a non-positive per_seed, or
    one seed that is not clearly larger than the noise. `problems()` lists what can count but
    not reliably (a large spread)."""

    __slots__ = ("tare", "per_seed", "noise", "spread", "low", "high")

    def __init__(self, tare, per_seed, spread=SPREAD_GOOD, noise=None, low=HX711_LOW,
                 high=HX711_HIGH):
        channels = _length(tare, "tare")
        if channels < 1:
            raise SensingError("a calibration needs at least one channel")
        self.tare = channel_numbers(tare, channels, "tare", int)
        self.per_seed = channel_numbers(per_seed, channels, "per_seed", float)
        if noise is None:
            noise = [DEFAULT_NOISE * p for p in self.per_seed]
        self.noise = channel_numbers(noise, channels, "noise", float)
        self.low = channel_numbers(low, channels, "low", int)
        self.high = channel_numbers(high, channels, "high", int)
        if isinstance(spread, bool) or not isinstance(spread, (int, float)) or spread < 0:
            raise SensingError("spread %r is not a coefficient of variation (0.02 = 2%%)"
                               % (spread,))
        self.spread = float(spread)
        for i in range(channels):
            name = channel_name(i, channels)
            if not self.low[i] < self.tare[i] < self.high[i]:
                raise SensingError("%s: tare %d is outside the valid range %d..%d" % (
                    name, self.tare[i], self.low[i], self.high[i]))
            if self.per_seed[i] <= 0:
                raise SensingError("%s: per_seed %s is not positive (a cell mounted upside "
                                   "down, or no seeds on it when weighing)" % (
                                       name, self.per_seed[i]))
            if self.noise[i] < 0:
                raise SensingError("%s: noise %s is negative" % (name, self.noise[i]))
            if self.per_seed[i] < MIN_SEED_NOISE * self.noise[i]:
                raise SensingError("%s: one seed (%.1f raw) is only %.1f times the noise (%.1f "
                                   "raw); counting needs %d: %s" % (
                                       name, self.per_seed[i], self.per_seed[i] / self.noise[i],
                                       self.noise[i], MIN_SEED_NOISE, LIGHT_SEED_HELP))

    @property
    def channels(self):
        return len(self.tare)

    def problems(self):
        """What makes counting unreliable, as sentences to show the person calibrating; []
        when nothing does."""
        found = []
        if self.spread > SPREAD_LIMIT:
            found.append("the seeds' masses spread %.1f%% (more than %d%%): counting by weight "
                         "is unreliable (%d seeds moved at once at most; it needs uniform seeds, "
                         "about %d%% or less): use more uniform seeds or an activity board" % (
                             100 * self.spread, 100 * SPREAD_LIMIT,
                             reliable_count(self.spread), 100 * SPREAD_GOOD))
        return found

    def to_json(self):
        """One line of JSON, keys in a fixed order (the same text on every runtime)."""
        return ('{"tare": %s, "per_seed": %s, "noise": %s, "spread": %s, "low": %s, '
                '"high": %s}' % (json.dumps(self.tare), json.dumps(self.per_seed),
                                 json.dumps(self.noise), json.dumps(self.spread),
                                 json.dumps(self.low), json.dumps(self.high)))

    @classmethod
    def from_json(cls, text):
        """The calibration `to_json` wrote; a SensingError for anything else."""
        try:
            data = json.loads(text)
        except ValueError:
            raise SensingError("a calibration is a JSON object; this text is not JSON")
        if not isinstance(data, dict):
            raise SensingError("a calibration is a JSON object, not %s" % type(data).__name__)
        for key in ("tare", "per_seed", "spread"):
            if key not in data:
                raise SensingError("the calibration has no %r" % key)
        return cls(data["tare"], data["per_seed"], data["spread"], data.get("noise"),
                   data.get("low", HX711_LOW), data.get("high", HX711_HIGH))


def _length(values, what):
    if not isinstance(values, (list, tuple)):
        raise SensingError("%s must be a list with one value per channel" % what)
    return len(values)


def channel_numbers(values, channels, what, kind):
    """`values` (a list per channel, or one number for every channel) as a fresh list of
    `kind` (int: whole numbers only; float: any number), or a SensingError."""
    if not isinstance(values, (list, tuple)):
        values = [values] * channels
    if len(values) != channels:
        raise SensingError("%s has %d values; the calibration has %d channels" % (
            what, len(values), channels))
    out = []
    for i in range(channels):
        v = values[i]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or (
                kind is int and not isinstance(v, int)):
            raise SensingError("%s: %s %r is not %s" % (
                channel_name(i, channels), what, v, "an int" if kind is int else "a number"))
        out.append(kind(v))
    return out
