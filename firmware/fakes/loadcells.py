"""Fake HX711 load-cell converters and a fake chain of 74HC165 shift registers, wired to the
fake pins (tests only).

An `HX711` behaves as its datasheet says, edge by edge on its PD_SCK line: DOUT is high while
no conversion is ready and low once one is (80 a second with RATE high); each SCK pulse shifts
out one bit of the 24-bit two's complement result, MSB first; the 25th pulse pulls DOUT high
again; 25, 26 or 27 pulses in all choose the next conversion's input and gain (A/128, B/32,
A/64). SCK held high for more than 60 us powers the chip down; the fake records that, and any
pulse while no conversion is ready, in `errors`.

Where the datasheet is silent the fake settles it so: a conversion that ends during a read is
held until the read is over, and a read is over when SCK has stayed low for 20 us after 25 or
26 pulses, or after the 27th (the gain pulses come within microseconds of each other).

    cells = direct(sck=2, data=[3, 4, 5])       # three HX711s, DOUT on GPIO 3, 4, 5
    cells[0].value = -1234                      # what its next conversions read

`value` is what the cell's bridge measures, in converter units; beyond the 24-bit range the
converter saturates (0x7FFFFF / 0x800000) as a real one does. `reads` counts the readings
clocked out and `gain` is the gain the last read's pulses chose.

Works under MicroPython and CPython.
"""

import machine
from simulator.parts.hc165 import HC165Chain

PERIOD_US = 12500           # 80 conversions a second
HIGH_LIMIT_US = 60          # SCK high longer than this powers an HX711 down
GAINS = {25: 128, 26: 32, 27: 64}
GAP_US = 20                 # SCK low this long after a gain pulse: the read is over


def saturate(value):
    """What the converter puts out for `value`: clipped to 24-bit two's complement."""
    if value > 0x7FFFFF:
        return 0x7FFFFF
    if value < -0x800000:
        return -0x800000
    return value


class HX711:
    """One converter on clock line `sck`; `dout(t_us)` is its DOUT level (`direct` wires it to
    a GPIO, `chained` to a shift register's input)."""

    def __init__(self, sck, value=0, phase_us=0, period_us=PERIOD_US):
        self.value = value
        self.phase_us = phase_us    # when its first conversion ends (chips are not in step)
        self.period_us = period_us
        self.pulses = 0             # SCK pulses of the read in progress or last done
        self.word = 0               # the 24-bit result being shifted out
        self.taken = -1             # the conversion last read
        self.done = 0               # reads completed before the current one
        self.chosen = 128           # the gain chosen by the reads before the current one
        self.errors = []
        self.high_since = None
        self.low_since = 0
        machine.watch(sck, self._sck)

    def _latest(self, t_us):
        """The index of the latest conversion finished at `t_us` (-1: none yet); conversion
        k ends at phase_us + k * period_us."""
        if t_us < self.phase_us + self.period_us:
            return -1
        return int((t_us - self.phase_us) // self.period_us)

    def ready(self, t_us):
        latest = self._latest(t_us)
        return latest >= 0 and latest != self.taken

    @property
    def reads(self):
        return self.done + (1 if self.pulses >= 24 else 0)

    @property
    def gain(self):
        return GAINS.get(self.pulses, self.chosen)

    def _closed(self, t_us):
        """After 25..27 pulses: the read is over once SCK has stayed low GAP_US (gain pulses
        follow each other within microseconds), or after the 27th."""
        return self.pulses == 27 or t_us - self.low_since >= GAP_US

    def dout(self, t_us):
        pulses = self.pulses
        if 1 <= pulses <= 24:
            return self.word >> (24 - pulses) & 1
        if pulses and not self._closed(t_us):
            return 1
        # a conversion that ended during the read waits for its end
        return 0 if self.ready(t_us) else 1

    def _sck(self, level, t_us):
        if not level:
            since = self.high_since
            if since is not None and t_us - since > HIGH_LIMIT_US:
                self.errors.append("SCK high for %d us: powered down" % (t_us - since))
            self.low_since = t_us
            return
        self.high_since = t_us
        pulses = self.pulses
        if 0 < pulses < 24:             # the usual pulse, in the middle of a read
            self.pulses = pulses + 1
            return
        if pulses >= 25 and self._closed(t_us):
            self.chosen = GAINS[pulses]
            self.done += 1
            pulses = 0
        if pulses == 0:
            if not self.ready(t_us):
                self.errors.append("SCK pulsed at %d us with no conversion ready" % t_us)
                return
            self.taken = self._latest(t_us)
            self.word = saturate(self.value) & 0xFFFFFF
        self.pulses = pulses + 1
        if pulses + 1 > 27:
            self.errors.append("%d SCK pulses in one read" % (pulses + 1))


def direct(sck, data, values=None, phases=None):
    """HX711s sharing clock GPIO `sck`, the DOUT of cell i on GPIO data[i]; returns them."""
    cells = []
    for i in range(len(data)):
        cell = HX711(sck, 0 if values is None else values[i], 0 if phases is None else phases[i])
        machine.source(data[i], cell.dout)
        cells.append(cell)
    return cells


class ShiftChain:
    """74HC165s in a chain on the fake pins: SH/LD on `latch`, CLK on `clock`, U1's QH on
    `serial`; the registers themselves are simulator/parts/hc165.py's datasheet model (H
    shifted out first). `inputs[k]` is the level function of chain input k (chip k // 8's
    input "ABCDEFGH"[k % 8]; None: tied low)."""

    def __init__(self, latch, clock, serial, inputs):
        self.model = HC165Chain((len(inputs) + 7) // 8)
        for k in range(len(inputs)):
            if inputs[k] is not None:
                self.model.wire(k, inputs[k])
        self.latch_gpio = latch
        machine.watch(latch, self.model.load)
        machine.watch(clock, self.model.clock)
        machine.source(serial, self.model.qh)

    @property
    def shifts(self):
        return self.model.shifts


def chained(sck, latch, clock, serial, cells, values=None, phases=None):
    """`cells` HX711s sharing clock `sck`, their DOUTs on the inputs of a 74HC165 chain read
    through `latch`, `clock` and `serial`: cell k on chain input k (chip k // 8's input
    "ABCDEFGH"[k % 8], as the profiles wire `sr.k`); the rest of the last register's inputs
    are tied low. Returns (cells, chain)."""
    made = []
    for i in range(cells):
        made.append(HX711(sck, 0 if values is None else values[i],
                          0 if phases is None else phases[i]))
    registers = (cells + 7) // 8
    inputs = [cell.dout for cell in made] + [None] * (8 * registers - cells)
    return made, ShiftChain(latch, clock, serial, inputs)
