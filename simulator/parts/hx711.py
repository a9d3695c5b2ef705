"""The HX711 24-bit load-cell converter, as its datasheet and the published measurements say.

    chip = HX711(period_us=10702, phase_us=3000)
    chip.value = 81234                  # what channel A at gain 128 converts, from now on
    chip.sck(1, t_us); chip.sck(0, t_us + 1)    # an edge of PD_SCK, driven by the reader
    chip.dout(t_us)                     # the level of DOUT at that time
    chip.clock_out(t_us)                # or a whole read (25 pulses 1 us apart): its word

Sources. The Avia Semiconductor HX711 datasheet: DOUT high while no result is ready and low
once one is; each PD_SCK pulse shifts out one bit, MSB first, of a 24-bit two's complement
result (saturating at 0x7FFFFF and 0x800000); the 25th pulse pulls DOUT high again; 25, 26 or
27 pulses in all choose channel A at gain 128, channel B at gain 32 or channel A at gain 64
for the next conversion; "PD_SCK clock pulses should not be less than 25 or more than 27
within one conversion period"; PD_SCK high 0.2..50 us, low at least 0.2 us; high for more
than 60 us powers the chip down, and its return low resets it (channel A, gain 128).
The datasheet is silent on what happens when a conversion ends before its result is read, or
during a read. Olav Kallhovd (olkal/HX711_ADC, issue 81, 2021) measured a chip with its
internal oscillator on an oscilloscope: at RATE high a conversion every 10,702 us +- 20 us
(the datasheet's nominal 80 samples a second would be 12,500 us: the on-chip oscillator is
not accurate, and differs from chip to chip), 85,635 us at RATE low, and when a result is
not read in time DOUT goes high for 75 us (+- 1) while the next result replaces it.
What this model settles where nothing is measured, on the safe side for a reader:

- conversions run on the chip's own oscillator: reading does not restart them;
- a conversion that ends while a read is under way (1 to 24 pulses) replaces the result being
  shifted out: the bits still to come are the new result's (during the 75 us update DOUT reads
  high), so the read is corrupted (`corrupted` counts them), and that new result counts as
  read;
- a pulse while no result is ready (DOUT high, or inside the 75 us update) does nothing but is
  an error, as is a 28th pulse in one read.

Every chip's oscillator differs: `spread_periods` draws a board's periods within a spread of
the measured 10,702 us.

Counters: `conversions`, `reads` (reads that reached their 24th pulse), `overwritten` (results
replaced before a single pulse read them), `corrupted`, `errors` (what a reader did wrong, as
sentences). `last_read` is (the 24-bit word the last read shifted out, True if it was one
result unbroken), for tests that check what a reader made of it.

Times are whole microseconds (the emulated Pico's harness runs the same model in
nanoseconds). Conversions are worked out lazily, whenever the chip is asked something at a
later time; the input in force (`value`, `value_b`) is what a conversion converts.

Works under MicroPython and CPython.
"""

PERIOD_80SPS_US = 10702         # RATE high, internal oscillator (olkal, HX711_ADC issue 81)
PERIOD_10SPS_US = 85635         # RATE low, likewise
UPDATE_US = 75                  # DOUT high while an unread result is replaced (olkal)
POWER_DOWN_US = 60              # PD_SCK high longer than this powers the chip down
SCK_HIGH_MAX_US = 50            # the datasheet's limit on PD_SCK's high time
GAINS = {25: 128, 26: 32, 27: 64}   # pulses in a read -> the next conversions' input and gain
FULL_SCALE = 0x7FFFFF


def saturate(value):
    """What the converter puts out for an input of `value` converter units: clipped to
    24-bit two's complement, as a 24-bit word."""
    if value > FULL_SCALE:
        value = FULL_SCALE
    elif value < -FULL_SCALE - 1:
        value = -FULL_SCALE - 1
    return value & 0xFFFFFF


def signed(word):
    """A 24-bit two's complement word as an int."""
    return word - 0x1000000 if word & 0x800000 else word


class _Lcg:
    """A small generator of its own (the same numbers on every runtime, small ints only)."""

    def __init__(self, seed):
        self.state = seed % 2147483647 or 1

    def below(self, bound):
        # Park and Miller's minimal standard, with Schrage's trick: no value reaches 2**31
        x = self.state
        x = 16807 * (x % 127773) - 2836 * (x // 127773)
        if x <= 0:
            x += 2147483647
        self.state = x
        return x % bound


def spread_periods(count, spread=0.03, seed=1, nominal_us=PERIOD_80SPS_US):
    """The conversion periods of `count` chips whose oscillators differ by up to +-`spread`
    (a fraction) from `nominal_us`, drawn from `seed`: a board's worth of real chips."""
    rng = _Lcg(seed)
    steps = 10000
    periods = []
    for _ in range(count):
        u = (rng.below(2 * steps + 1) - steps) / steps     # -1 .. 1
        periods.append(int(nominal_us * (1 + spread * u) + 0.5))
    return periods


class HX711:
    """One HX711 (see the module). `phase_us` is when its first conversion ends (chips on one
    board are not in step); `jitter_us` moves each conversion's end by up to that much."""

    def __init__(self, period_us=PERIOD_80SPS_US, phase_us=None, update_us=UPDATE_US,
                 jitter_us=0, seed=1):
        self.value = 0              # channel A's input, in converter units at gain 128
        self.value_b = 0            # channel B's, at gain 32
        self.period_us = period_us
        self.update_us = update_us
        self.jitter_us = jitter_us
        self._rng = _Lcg(seed)
        self.next_end_us = period_us if phase_us is None else phase_us
        self.pulses = 0             # rising edges of the read under way (0: none)
        self.word = 0               # the output register
        self.ready = False          # a result waits to be read
        self.gain = 128             # the input and gain of the conversions to come
        self.updating_until = -1    # DOUT is high until then: a result being replaced
        self.powered = True
        self.high_since = -1        # when PD_SCK went high (-1: it is low)
        self.conversions = 0
        self.reads = 0
        self.overwritten = 0
        self.corrupted = 0
        self.errors = []
        self.last_read = None
        self._out = 0               # the bits the read under way has shifted out
        self._broken = False        # a conversion ended during the read under way

    # --- the converter's own time ---------------------------------------------------------

    def advance(self, t_us):
        """Let every conversion that ends by `t_us` happen (and a power-down that is due)."""
        until = t_us
        down = self.high_since >= 0 and self.powered and (
            t_us - self.high_since > POWER_DOWN_US)
        if down:
            until = self.high_since + POWER_DOWN_US
        while self.powered and self.next_end_us <= until:
            self._convert(self.next_end_us)
            step = self.period_us
            if self.jitter_us:
                step += self._rng.below(2 * self.jitter_us + 1) - self.jitter_us
            self.next_end_us += step
        if down:
            self._power_down(until)

    def _convert(self, t_us):
        self.conversions += 1
        pulses = self.pulses
        if 1 <= pulses <= 24 and not self._broken:    # once a read
            self.corrupted += 1
            self._broken = True
        if self.ready:
            self.overwritten += 1
        if pulses >= 25:                    # the read before is over: its pulses chose
            self.gain = GAINS.get(pulses, self.gain)
            self.pulses = pulses = 0
        if self.gain == 32:
            self.word = saturate(self.value_b)
        elif self.gain == 64:
            self.word = saturate(self.value >> 1)
        else:
            self.word = saturate(self.value)
        self.updating_until = t_us + self.update_us
        self.ready = pulses == 0

    def next_change(self, t_us):
        """The first time after `t_us` that DOUT may change by itself (a conversion's end, or
        the end of its update), or -1 while powered down: a harness may sleep until then."""
        self.advance(t_us)
        if not self.powered:
            return -1
        if t_us < self.updating_until < self.next_end_us:
            return self.updating_until
        return self.next_end_us

    # --- the pins ---------------------------------------------------------------------------

    def dout(self, t_us):
        """DOUT's level at `t_us`."""
        self.advance(t_us)
        if not self.powered or t_us < self.updating_until:
            return 1
        pulses = self.pulses
        if pulses:
            return self.word >> (24 - pulses) & 1 if pulses <= 24 else 1
        return 0 if self.ready else 1

    def sck(self, level, t_us):
        """PD_SCK goes to `level` at `t_us` (the reader drives it)."""
        self.advance(t_us)
        if level:
            if self.high_since < 0:
                self.high_since = t_us
                if self.powered:
                    self._rise(t_us)
            return
        since = self.high_since
        self.high_since = -1
        if since < 0:
            return
        high = t_us - since
        if not self.powered:
            self._reset(t_us)
        elif high > SCK_HIGH_MAX_US:
            self.errors.append("SCK high for %d us: over the 50 us the datasheet allows" % high)

    def _rise(self, t_us):
        pulses = self.pulses
        if pulses == 0:
            if not self.ready or t_us < self.updating_until:
                self.errors.append("SCK pulsed at %d us with no conversion ready" % t_us)
                return
            self.ready = False
            self._out = 0
            self._broken = False
        pulses += 1
        self.pulses = pulses
        if pulses <= 24:
            bit = 1 if t_us < self.updating_until else self.word >> (24 - pulses) & 1
            self._out = self._out << 1 | bit
            if pulses == 24:
                self.reads += 1
                self.last_read = (self._out, not self._broken)
        elif pulses == 28:
            self.errors.append("more than 27 SCK pulses in one read")

    def clock_out(self, t_us, pulses=25, step_us=1):
        """A whole read in one call: `pulses` PD_SCK pulses (25, 26 or 27), one every
        `step_us` from `t_us`, each as short as whole microseconds allow (high and low again
        within the same microsecond), and DOUT sampled after each of the first 24 falls, as
        a reader clocking that way does. Returns the 24-bit word it sampled.

        Edge for edge what `sck` and `dout` give (a conversion that ends inside the read
        corrupts it, a chip with no result ready is an error and shifts out ones), in one
        step when nothing happens inside the read: a reader of many chips (the simulator's
        load cells, 14 of them for every frame of a game) can afford it."""
        if step_us < 1:
            raise ValueError("hx711: pulses at least 1 us apart, not %r" % (step_us,))
        last = t_us + (pulses - 1) * step_us
        self.advance(t_us)
        if (24 <= pulses <= 27 and self.powered and self.high_since < 0 and self.pulses == 0
                and self.ready and t_us >= self.updating_until and self.next_end_us > last):
            # the result waits, no conversion ends before the last pulse: every bit is the
            # result's, and the pulses leave the chip as the edges one by one would
            word = self.word
            self.ready = False
            self.pulses = pulses
            self._out = word
            self._broken = False
            self.reads += 1
            self.last_read = (word, True)
            return word
        word = 0
        for k in range(pulses):
            t = t_us + k * step_us
            self.sck(1, t)
            self.sck(0, t)
            if k < 24:
                word = word << 1 | self.dout(t)
        return word

    def _power_down(self, t_us):
        self.powered = False
        self.errors.append("SCK high for over %d us at %d us: powered down" % (
            POWER_DOWN_US, t_us))

    def power_up(self, t_us):
        """Power comes back at `t_us` (a cell plugged in again): the chip starts afresh at
        channel A, gain 128, its first conversion a period later."""
        self.high_since = -1
        self._reset(t_us)

    def _reset(self, t_us):
        """PD_SCK back low after a power-down: the chip starts afresh."""
        self.powered = True
        self.gain = 128
        self.pulses = 0
        self.ready = False
        self.updating_until = -1
        self.next_end_us = t_us + self.period_us
