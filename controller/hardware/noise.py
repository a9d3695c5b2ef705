"""The noise budget of a load-cell board: can each place count its seeds (host-only)?

A place weighs its seeds through a load cell and an HX711. One seed of mass m gives a signal;
the converter adds noise; and the seeds themselves differ (their mass spread, `mass_cv`), so N
seeds weigh N m give or take sqrt(N) cv m. A place can tell N seeds from N - 1 and N + 1 when
half a seed stands above the uncertainty at N by MIN_SEED_NOISE / 2 = 4 standard deviations —
the calibrator's rule (`controller.sensing.calibration.MIN_SEED_NOISE`: one seed at least 8
noise deviations), now with the seeds' own spread added:

    m / 2 >= 4 sqrt(N (cv m)^2 + noise^2)   so   N <= ((m / 8)^2 - noise^2) / (cv m)^2

with the noise in grams. The figures, each from the catalogue (`hardware/parts.toml`) with its
source:

- the signal: a cell's rated output (mV per V of excitation at its capacity; the budget takes the
  lowest its tolerance allows) times the excitation (the SparkFun breakout's regulated 4.3 V),
  per gram of its capacity;
- the HX711 at gain 128, its highest: full scale +-0.5 AVDD / 128 over +-2^23 counts (Avia
  datasheet), and on this breakout AVDD is the excitation, so a count is 4.3 V / 128 / 2^24 =
  2.0 nV;
- the noise at the data rate (80 samples/s: the RATE pin high): the datasheet's input noise
  (90 nV rms at 80 SPS, 50 at 10) or a published measurement on a real breakout with a load
  cell attached (14 noise-free bits: about 311 nV rms), whichever is worse.

Issue 40's example, worked: a 0.45 g seed on a 5 kg TAL220B store (0.85 mV/V at the least).

    >>> from controller.hardware.parts import catalogue
    >>> parts = catalogue()
    >>> amp, cell = parts["hx711"], parts["load-cell-5kg"]
    >>> round(uv_per_gram(cell, amp), 3)                       # 0.85 mV/V x 4.3 V / 5000 g
    0.731
    >>> round(0.45 * uv_per_gram(cell, amp), 3), round(noise_nv(amp) / 1000, 3)   # uV
    (0.329, 0.311)
    >>> largest_count(0.45, 0.03, noise_nv(amp) / 1000 / uv_per_gram(cell, amp))
    -1

Not even one seed: 0.33 uV is 1.06 times the noise (8 needed; 3.7 times even at the
datasheet's 90 nV). The 12.7 mm chrome-steel ball (8.40 g, a mass spread of 0.06%) on the same
cell is 19.8 times the noise, and the store can tell 36,000 of them apart:

    >>> ball = parts["seed-ball-12.7"]
    >>> noise_g = noise_nv(amp) / 1000 / uv_per_gram(cell, amp)
    >>> round(ball.mass_g / noise_g, 1), largest_count(ball.mass_g, ball.mass_cv, noise_g)
    (19.8, 36292)

A glass marble (5.36 g, a spread of 3%) stands out of the noise of a pit's 1 kg cell 63 times
over, yet its spread stops the pit at 17 seeds, short of the 30 it must count:

    >>> pit = parts["load-cell-1kg"]
    >>> marble, noise_g = parts["seed-marble-16"], noise_nv(amp) / 1000 / uv_per_gram(pit, amp)
    >>> round(marble.mass_g / noise_g), largest_count(marble.mass_g, marble.mass_cv, noise_g)
    (63, 17)

What a place must count: a store, every seed of the largest game its board carries
(`body.largest_game`: 2 x 6 Layli Goobalay 48, 2 x 7 Mangala IV 98, 2 x 12 long Layli Goobalay
96); a pit, `body.PIT_SEEDS`
(30: what a relay piles into a pit in a real game, and what the pit is drawn to hold). And its
cell must carry it: the cup, those seeds and a resting hand within the cell's rated capacity.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from controller.hardware.body import PIT_SEEDS, largest_game
from controller.hardware.parts import Part, catalogue
from controller.hardware.problems import Problem
from controller.hardware.profile import Profile, place_label
from controller.sensing.calibration import MIN_SEED_NOISE

AMPLIFIER = "hx711"     # every load-cell profile reads its cells through SparkFun's HX711 breakout
GAIN = 128              # channel A's highest gain (Avia datasheet: 128 or 64; channel B 32)
ADC_BITS = 24           # two's complement, +-2^23 counts over +-0.5 AVDD / GAIN
RATE_SPS = 80           # the RATE pin high, as every profile wires it (hardware/README.md)
RATES = (10, 80)
# Noise-free bits count the peak-to-peak noise; 6.6 standard deviations to the peak-to-peak is
# the usual conversion (Analog Devices MT-229), which reads a measurement the worse way.
PEAK_TO_PEAK_SIGMAS = 6.6
# What stands on a cell besides its seeds. The cups are printed (PLA, 1.24 g/cm3, 1.2 mm walls)
# with their spacer and screws: a pit's cup for 30 balls (50 mm across, about 35 mm deep) is
# some 17 g of plastic and 8 g of spacer and screws, a store's for 98 about three times that;
# the figures below are half as much again, to be safe.
PIT_CUP_G = 40.0
STORE_CUP_G = 100.0
# A hand resting in a pit or on a store: a hand is 0.6% of the body's mass (Winter, Biomechanics
# and Motor Control of Human Movement, table 4.1, after Dempster), 600 g for a 100 kg adult. With
# the cup and every seed the place must count, it must stay within the cell's rated capacity:
# there the cell is linear and calibrated, so a hand in a full place reads as a hand (large,
# never steady), not as a railed or bent cell; a harder push ends on the mount's overload stop.
HAND_G = 600.0


def volts_per_count(amplifier: Part) -> float:
    """One HX711 count at gain 128, in volts: AVDD / 128 / 2^24 (the full scale, +-0.5 AVDD /
    128, over 2^24 counts); AVDD is the breakout's excitation."""
    return amplifier.excitation_v / GAIN / 2 ** ADC_BITS


def noise_nv(amplifier: Part, rate_sps: int = RATE_SPS) -> float:
    """The rms noise at the converter's input at `rate_sps` (10 or 80), in nV: the datasheet's
    figure or the published measurement on a real breakout, whichever is worse (the measurement
    is taken at 80 SPS and scaled to 10 as the datasheet scales it)."""
    if rate_sps not in RATES:
        raise ValueError("an HX711 converts at 10 or 80 samples a second, not %r" % (rate_sps,))
    datasheet = amplifier.noise_nv_10sps if rate_sps == 10 else amplifier.noise_nv_80sps
    counts = 2 ** (ADC_BITS - amplifier.measured_noise_free_bits) / PEAK_TO_PEAK_SIGMAS
    measured = counts * volts_per_count(amplifier) * 1e9 * datasheet / amplifier.noise_nv_80sps
    return max(datasheet, measured)


def uv_per_gram(cell: Part, amplifier: Part) -> float:
    """A cell's signal per gram on the amplifier's excitation, in uV, at the lowest rated output
    its tolerance allows (cells differ: the budget must hold for the weakest)."""
    lowest = cell.rated_output_mv_v - cell.rated_output_tol_mv_v
    return lowest * amplifier.excitation_v * 1000 / cell.capacity_g


def largest_count(mass_g: float, mass_cv: float, noise_g: float,
                  sigmas: int = MIN_SEED_NOISE) -> int:
    """The largest N a place can tell from N - 1 and N + 1: one seed at least `sigmas` times the
    uncertainty at N, sqrt(N (cv m)^2 + noise^2) (all in grams). -1 when not even one seed
    stands out of the noise.

        >>> largest_count(10.0, 0.01, 0.5)       # ((10/8)^2 - 0.5^2) / 0.1^2 = 131.25
        131
    """
    room = (mass_g / sigmas) ** 2 - noise_g ** 2
    if room < 0:
        return -1
    return math.floor(room / (mass_cv * mass_g) ** 2)


class PlaceBudget(NamedTuple):
    """One place's noise budget: its cell, one seed's signal (uV, and HX711 counts at gain 128)
    against the noise at the data rate (nV rms, and counts), their ratio (`sigmas`), the largest
    count it can tell apart (`largest`, -1: not one) against what it must count (`needed`), and
    what its cell carries then (`load_g`: cup, seeds and a resting hand) against its capacity."""

    place: int
    label: str                  # S1..Sn, N1..Nn, S store, N store
    cell: str                   # the load cell's part key
    capacity_g: int
    counts_per_gram: float
    seed_uv: float
    seed_counts: float
    noise_nv: float
    noise_counts: float
    sigmas: float
    largest: int
    needed: int
    load_g: float

    @property
    def counts(self) -> bool:
        """It can tell every count it must from the next."""
        return self.largest >= self.needed

    @property
    def carries(self) -> bool:
        """Its cell carries the cup, the seeds and a resting hand within its rating."""
        return self.load_g <= self.capacity_g

    def as_dict(self) -> dict[str, Any]:
        return {"place": self.label, "cell": self.cell, "capacity_g": self.capacity_g,
                "counts_per_gram": round(self.counts_per_gram, 2),
                "seed_uv": round(self.seed_uv, 3), "seed_counts": round(self.seed_counts, 1),
                "noise_nv": round(self.noise_nv, 1), "noise_counts": round(self.noise_counts, 1),
                "sigmas": round(self.sigmas, 2), "largest": self.largest,
                "needed": self.needed, "load_g": round(self.load_g, 1),
                "ok": self.counts and self.carries}


class NoiseBudget(NamedTuple):
    """Every load-cell place of a board with its seed at `rate_sps` (no places on a board of
    digital sensors, which weigh nothing)."""

    profile: str
    seed: Part
    rate_sps: int
    game_seeds: int             # the largest game's seeds: what a store must count
    places: tuple[PlaceBudget, ...]

    @property
    def failing(self) -> tuple[PlaceBudget, ...]:
        return tuple(p for p in self.places if not (p.counts and p.carries))

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.seed.key, "seed_g": self.seed.mass_g, "mass_cv": self.seed.mass_cv,
                "rate_sps": self.rate_sps, "min_seed_noise": MIN_SEED_NOISE,
                "game_seeds": self.game_seeds,
                "places": [place.as_dict() for place in self.places],
                "ok": not self.failing}


def place_budget(place: int, label: str, cell: Part, seed: Part, needed: int, cup_g: float,
                 rate_sps: int = RATE_SPS) -> PlaceBudget:
    """The budget of one place whose `cell` must count `needed` of `seed` under a cup of
    `cup_g`, at `rate_sps`."""
    amplifier = catalogue()[AMPLIFIER]
    count_uv = volts_per_count(amplifier) * 1e6
    per_gram = uv_per_gram(cell, amplifier)
    noise = noise_nv(amplifier, rate_sps)
    seed_uv = seed.mass_g * per_gram
    noise_g = noise / 1000 / per_gram
    return PlaceBudget(
        place=place, label=label, cell=cell.key, capacity_g=cell.capacity_g,
        counts_per_gram=per_gram / count_uv, seed_uv=seed_uv, seed_counts=seed_uv / count_uv,
        noise_nv=noise, noise_counts=noise / 1000 / count_uv, sigmas=seed_uv * 1000 / noise,
        largest=largest_count(seed.mass_g, seed.mass_cv, noise_g), needed=needed,
        load_g=cup_g + needed * seed.mass_g + HAND_G)


def noise_budget(profile: Profile, rate_sps: int = RATE_SPS) -> NoiseBudget:
    """The noise budget of every place of `profile` with its seed, at `rate_sps`."""
    parts = catalogue()
    seed = parts[profile.seed]
    game = largest_game(profile.pits).seeds
    places = []
    sensors = profile.sensors
    if sensors.kind == "load-cell":
        for place in range(profile.places):
            pit = place < 2 * profile.pits
            cell = parts[sensors.pit_part if pit else sensors.store_part]
            places.append(place_budget(
                place, place_label(place, profile.pits), cell, seed,
                PIT_SEEDS if pit else game, PIT_CUP_G if pit else STORE_CUP_G, rate_sps))
    return NoiseBudget(profile.name, seed, rate_sps, game, tuple(places))


def problems(profile: Profile) -> list[Problem]:
    """One Problem per place that cannot count what it must or whose cell cannot carry it,
    naming the place and the numbers, and what would help."""
    figures = noise_budget(profile)
    slow = noise_budget(profile, 10) if figures.failing else figures
    out = []
    for place in figures.failing:
        key = "sensors.%s" % ("pit_part" if place.place < 2 * profile.pits else "store_part")
        if not place.counts:
            at_ten = slow.places[place.place]
            out.append(Problem(profile.label, key, (
                "%s: one seed (%s, %g g) gives %.3f uV (%.0f counts), %.1f times the noise "
                "(%.0f nV rms at %d SPS): it %s, but must count %d: %s" % (
                    place.label, figures.seed.key, figures.seed.mass_g, place.seed_uv,
                    place.seed_counts, place.sigmas, place.noise_nv, figures.rate_sps,
                    _told(place.largest), place.needed,
                    _help(place, at_ten, figures.seed)))))
        if not place.carries:
            out.append(Problem(profile.label, key, (
                "%s: the cup, %d seeds and a resting hand weigh %.0f g, more than the %s's "
                "%d g: a cell of higher capacity, or lighter seeds" % (
                    place.label, place.needed, place.load_g, place.cell, place.capacity_g))))
    return out


def _told(largest: int) -> str:
    """What a place can count, in words."""
    return "cannot tell one seed from none" if largest < 0 else (
        "can count up to %d seeds" % largest)


def _help(place: PlaceBudget, at_ten: PlaceBudget, seed: Part) -> str:
    """What would help a place that cannot count what it must (gain 128 is already the
    HX711's highest)."""
    if place.sigmas >= MIN_SEED_NOISE and place.largest < place.needed and (
            seed.mass_cv * math.sqrt(place.needed) * MIN_SEED_NOISE > 1):
        return ("the seeds' mass spread (%g%%) is too wide for that many: more uniform seeds "
                "(precision balls)" % (100 * seed.mass_cv))
    ten = ("; at 10 SPS (the RATE jumper closed, if the board can wait eight times longer) "
           "it %s" % _told(at_ten.largest))
    return "a lower-capacity cell, or heavier seeds" + ten
