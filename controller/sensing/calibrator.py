"""The calibration procedure, step by step, for a person at the board: each step checked
before the next (see `calibration` for what the numbers mean)::

    >>> steps = Calibrator(4)                     # 2 pits and 2 stores, say
    >>> empty = [[1000 + i % 3, -500 - i % 2, 20 + i % 4, 0 - i % 3] for i in range(81)]
    >>> steps.tare(empty)                         # 1. the board empty, hands off, ~1 s of frames
    [1001, -500, 21, -1]
    >>> loaded = [[f[0] + 4000, f[1] + 4400, f[2] + 3600, f[3] + 4000] for f in empty]
    >>> steps.weigh(loaded, 4)                    # 2. the same 4 seeds on every place
    [1000.0, 1100.0, 900.0, 1000.0]
    >>> mean, spread = steps.singles([1010, 990, 1000, 1020, 980, 1000])    # 3. one by one
    >>> mean, round(spread, 4)                    # a 1.4% spread: fine for counting
    (1000.0, 0.0141)
    >>> calibration = steps.calibration()
    >>> calibration.problems()
    []

Weigh with the same seeds on every channel, as many as you can (all the game's seeds is best):
`per_seed` is then the mean mass of the game's own seeds. The counting filter re-zeroes a place
on every settled count, so a count errs only by the spread of the seeds that came or went since.

A module of its own: a calibrated board (a Pico playing) never loads its bytecode.

Portable core: MicroPython subset.
"""

from .frames import SensingError, HX711_LOW, HX711_HIGH, channel_name, check_frame
from .calibration import (Calibration, LIGHT_SEED_HELP, MIN_FRAMES, MIN_SEED_NOISE, UNSTEADY,
                          channel_numbers, median, robust_noise, seed_spread)


class Calibrator:
    """The calibration procedure, one step per method, each checking what it was given.

    1. `tare(frames)`: about a second of frames (80) of the empty board, hands off. Gives each
       channel's tare (the median: a spike cannot move it) and noise, and refuses a channel
       that is saturated or shows no noise at all (no real cell is that still: disconnected).
    2. `weigh(frames, seeds, channels=None)`: the same `seeds` seeds on each listed channel
       (all of them when None), hands off; per_seed = (median - tare) / seeds. Weigh channel by
       channel if there are too few seeds for all at once. Refuses a per_seed that is not
       positive or too small against the noise, and frames that moved (a hand still there).
    3. `singles(weights, channel=None)`: the raw readings of single seeds weighed one at a time
       on `channel` (its tare is subtracted), or net weights in any unit when None. Gives the
       seeds' mean and spread.
    4. `calibration(share=False)`: the Calibration. Channels never weighed take the mean
       per_seed of those weighed only with `share=True` (load cells differ by several percent,
       so weigh every channel when you can).
    """

    __slots__ = ("channels", "low", "high", "tare_values", "noise", "per_seed", "spread")

    def __init__(self, channels, low=HX711_LOW, high=HX711_HIGH):
        if isinstance(channels, bool) or not isinstance(channels, int) or channels < 1:
            raise SensingError("a board has at least one channel, not %r" % (channels,))
        self.channels = channels
        self.low = channel_numbers(low, channels, "low", int)
        self.high = channel_numbers(high, channels, "high", int)
        self.tare_values = None
        self.noise = None
        self.per_seed = [None] * channels  # type: list[float | None]
        self.spread = None

    def _columns(self, frames, step):
        """The frames as one list of readings per channel, every frame checked."""
        if not isinstance(frames, (list, tuple)) or len(frames) < MIN_FRAMES:
            raise SensingError("%s needs at least %d frames (80, one second, is better)" % (
                step, MIN_FRAMES))
        columns = [[] for _ in range(self.channels)]
        for number in range(len(frames)):
            try:
                check_frame(frames[number], self.channels, missing=True)
            except SensingError as error:
                raise SensingError("%s, frame %d: %s" % (step, number, error))
            frame = frames[number]
            for i in range(self.channels):
                value = frame[i]
                if value is None:               # no trusted reading of it in this frame
                    continue
                if value <= self.low[i] or value >= self.high[i]:
                    raise SensingError("%s: %s reads %d, at the converter's limit: an overloaded "
                                       "or miswired cell" % (
                                           step, channel_name(i, self.channels), value))
                columns[i].append(value)
        for i in range(self.channels):
            if len(columns[i]) < MIN_FRAMES:
                raise SensingError("%s: %s has %d readings of %d frames, under the %d it needs"
                                   % (step, channel_name(i, self.channels), len(columns[i]),
                                      len(frames), MIN_FRAMES))
        return columns

    def tare(self, frames):
        """Step 1: the tare of every channel, from frames of the empty board."""
        columns = self._columns(frames, "taring")
        tare = []
        noise = []
        for i in range(self.channels):
            centre = median(columns[i])
            spread = robust_noise(columns[i], centre)
            if spread == 0:
                raise SensingError("taring: %s reads a constant %d: a real cell always shows "
                                   "some noise, so this one is disconnected" % (
                                       channel_name(i, self.channels), columns[i][0]))
            tare.append(int(centre))
            noise.append(spread)
        self.tare_values = tare
        self.noise = noise
        return tare[:]

    def weigh(self, frames, seeds, channels=None):
        """Step 2: per_seed of the listed channels (all when None), each holding `seeds`
        seeds in these frames. Returns the per_seed of every listed channel."""
        if self.tare_values is None:
            raise SensingError("tare the empty board before weighing seeds")
        if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
            raise SensingError("weigh a whole number of seeds, at least 1, not %r" % (seeds,))
        if channels is None:
            channels = list(range(self.channels))
        for channel in channels:
            if isinstance(channel, bool) or not isinstance(channel, int) or not (
                    0 <= channel < self.channels):
                raise SensingError("there is no channel %r on a board of %d channels" % (
                    channel, self.channels))
        columns = self._columns(frames, "weighing")
        found = []
        for channel in channels:
            name = channel_name(channel, self.channels)
            column = columns[channel]
            centre = median(column)
            noise = self.noise[channel]
            if robust_noise(column, centre) > UNSTEADY * noise + 1:
                raise SensingError("weighing: %s moved while it was weighed (a hand on it?): "
                                   "keep hands off and weigh again" % name)
            per_seed = (centre - self.tare_values[channel]) / seeds
            if per_seed <= 0:
                raise SensingError("weighing: %s reads no more with %d seeds than empty "
                                   "(%.1f raw per seed): are the seeds on it, is the cell "
                                   "mounted upside down?" % (name, seeds, per_seed))
            if per_seed < MIN_SEED_NOISE * noise:
                raise SensingError("weighing: on %s one seed (%.1f raw) is only %.1f times the "
                                   "noise (%.1f raw); counting needs %d: %s" % (
                                       name, per_seed, per_seed / noise, noise, MIN_SEED_NOISE,
                                       LIGHT_SEED_HELP))
            found.append(float(per_seed))
        for k in range(len(channels)):         # only once every channel passed
            self.per_seed[channels[k]] = found[k]
        return found

    def singles(self, weights, channel=None):
        """Step 3: (mean, spread) of seeds weighed one at a time. With `channel`, `weights`
        are that channel's raw readings and its tare is subtracted."""
        if channel is not None:
            if self.tare_values is None:
                raise SensingError("tare the empty board before weighing single seeds on it")
            if not isinstance(channel, int) or not 0 <= channel < self.channels:
                raise SensingError("there is no channel %r on a board of %d channels" % (
                    channel, self.channels))
            if isinstance(weights, (list, tuple)):
                tare = self.tare_values[channel]
                weights = [w - tare if isinstance(w, (int, float)) and not isinstance(w, bool)
                           else w for w in weights]
        mean, spread = seed_spread(weights)
        self.spread = spread
        return mean, spread

    def calibration(self, share=False):
        """Step 4: the Calibration. Its `problems()` say whether counting will be reliable."""
        if self.tare_values is None:
            raise SensingError("tare the empty board first")
        weighed = [p for p in self.per_seed if p is not None]
        if not weighed:
            raise SensingError("weigh seeds on the board before finishing")
        per_seed = self.per_seed[:]
        for i in range(self.channels):
            if per_seed[i] is None:
                if not share:
                    raise SensingError("%s was never weighed (weigh it, or share the others' "
                                       "per_seed)" % channel_name(i, self.channels))
                per_seed[i] = sum(weighed) / len(weighed)
        if self.spread is None:
            raise SensingError("weigh single seeds to measure their spread before finishing")
        return Calibration(self.tare_values, per_seed, self.spread, self.noise, self.low,
                           self.high)
