"""A chain of 74HC165 parallel-in, serial-out shift registers, as TI's SN74HC165 datasheet
says.

    chain = HC165Chain(4)                     # U1..U4; U1's QH goes to the reader
    chain.wire(0, hx711.dout)                 # input sr.0: U1's A (a level function of t_us)
    chain.load(0, t); chain.load(1, t)        # SH/LD low, then high: every input latched
    bit = chain.qh(t)                         # U1's QH: U1's H input first
    chain.clock(1, t); chain.clock(0, t)      # a CLK rising edge: one place on

Each chip has eight flip-flops QA..QH behind its inputs A..H, a serial input SER and the
output QH, which is the H flip-flop. While SH/LD is low the flip-flops follow A..H (the
parallel load is asynchronous). On a rising edge of CLK while SH/LD is high (CLK INH tied
low, as on our boards), every flip-flop takes its neighbour's value: QH <- QG, ..., QB <- QA,
QA <- SER. In a chain each chip's SER is the next chip's QH and the last chip's SER is tied
low, so after a load the chain puts out U1.H, U1.G, ..., U1.A, then U2.H ... U2.A, and so on:
**H first**. Chain input k is chip k // 8's input "ABCDEFGH"[k % 8], the numbering the
board profiles and wiring diagrams use (`sr.k`); `shift_position(k)` is how many places
out it comes (0: the first bit).

What the datasheet forbids and a microsecond can show is recorded in `errors`: a CLK rising
edge while SH/LD is low (the load wins and the edge is lost). The timing, tens of nanoseconds,
is `HC165Timing`'s: it takes the same edges in nanoseconds (a bench that runs a PIO program
cycle by cycle: tests/pio_check.py) and refuses a program that breaks the datasheet.

**The datasheet's figures, and 3.3 V.** TI specifies the 74HC165 at 2, 4.5 and 6 V only; for a
supply in between TI recommends linear interpolation (TI E2E, "SN74HC165: clock frequency",
which gives an fclock of 12 MHz at 3.3 V from SN74HC165 table 6.13). The columns used are
the -40..85 C ones, the SN74HC165's own range (a board in a warm room, or a cheap chip, is
slower than the 25 C column), in ns at 2 / 4.5 / 6 V:

| figure | 2 V | 4.5 V | 6 V | at 3.3 V | source |
|---|---|---|---|---|---|
| tw, CLK high or low; SH/LD low | 100 | 20 | 17 | 59 | TI SCHS156D (CD74HC165), 5.5 |
| tsu, SER before CLK rises | 100 | 20 | 17 | 59 | same table |
| SH/LD high before CLK rises (trec) | 125 | 25 | 21 | 73 | NXP 74HC165 rev. 3, table 7 |
| tpd, CLK or SH/LD to QH (max) | 205 | 41 | 35 | 120 | NXP 74HC165 rev. 3, table 7 |

(At 25 C TI's tw is 80 / 16 / 14 ns: about 47 ns at 3.3 V.) The delay of CMOS falls with
the supply ever more slowly, so the straight line between 2 V and 4.5 V lies above the
curve: interpolated figures err on the slow, safe side. `limits(vcc)` works them out.

A chain adds one constraint of its own: chip k's SER is chip k + 1's QH, which changes tpd
after a CLK rise and must then be steady tsu before the next: CLK rises at least
tpd + tsu apart (179 ns at 3.3 V). And the reader samples QH through the RP2040's 2-flop
synchroniser, 2 clk_sys cycles (16 ns) before the instruction that reads it: a sample must
come at least tpd after the CLK rise or SH/LD fall that changed QH.

Works under MicroPython and CPython.
"""

INPUTS = "ABCDEFGH"
VOLTS = (2.0, 4.5, 6.0)         # the datasheets' columns
TW_NS = (100, 20, 17)           # CLK high or low, SH/LD low (-40..85 C)
TSU_SER_NS = (100, 20, 17)      # SER before CLK rises
TREC_NS = (125, 25, 21)         # SH/LD high before CLK rises
TPD_NS = (205, 41, 35)          # CLK rise or SH/LD fall to QH, at most
SUPPLY_V = 3.3                  # the Pico's: the board's 74HC165s run from its 3V3


def _between(column, vcc):
    """The figure of `column` at `vcc`, on the straight line between the two columns around
    it (whole ns, rounded up: the safe side)."""
    if not VOLTS[0] <= vcc <= VOLTS[-1]:
        raise ValueError("74HC165: a supply of %r V is outside the datasheet's 2..6 V" % (vcc,))
    k = 0 if vcc <= VOLTS[1] else 1
    low, high = VOLTS[k], VOLTS[k + 1]
    value = column[k] + (column[k + 1] - column[k]) * (vcc - low) / (high - low)
    whole = int(value)
    return whole if whole == value else whole + 1


class Limits:
    """The 74HC165's timing at one supply, in ns (see the module): `tw` (CLK high or low,
    SH/LD low), `tsu_ser`, `trec` (SH/LD high before CLK rises), `tpd` (to QH, at most) and
    `period` (CLK rise to rise in a chain: tpd + tsu_ser)."""

    def __init__(self, vcc):
        self.vcc = vcc
        self.tw = _between(TW_NS, vcc)
        self.tsu_ser = _between(TSU_SER_NS, vcc)
        self.trec = _between(TREC_NS, vcc)
        self.tpd = _between(TPD_NS, vcc)
        self.period = self.tpd + self.tsu_ser


def limits(vcc=SUPPLY_V):
    """The datasheet's limits at `vcc` volts (2..6)."""
    return Limits(vcc)


class HC165TimingError(ValueError):
    """A reader broke the 74HC165's timing: the message names the edge, its width and the
    minimum."""


class HC165Timing:
    """The 74HC165 chain's pins as a reader drives and samples them, edge by edge in ns,
    against `limits(vcc)` with `margin` (1.0: the datasheet's figures; 1.25: a quarter more).
    A broken limit raises HC165TimingError. `closest` keeps, per rule, the smallest
    time / limit any edge came to (1.0 and over: kept)."""

    def __init__(self, vcc=SUPPLY_V, margin=1.0, chips=1):
        self.limits = limits(vcc)
        self.margin = margin
        self.chips = chips
        self.closest = {}
        self.load_level = 1
        self.load_at = None         # when SH/LD last changed (ns)
        self.clk_level = 0
        self.clk_at = None
        self.rise_at = None         # the last CLK rise with SH/LD high
        self.qh_at = None           # the last CLK rise or SH/LD fall: QH changes tpd after it
        self.qh_before = None       # the one before it

    def _check(self, what, span_ns, limit_ns, name):
        need = limit_ns * self.margin
        ratio = span_ns / limit_ns
        if what not in self.closest or ratio < self.closest[what]:
            self.closest[what] = ratio
        if span_ns < need:
            raise HC165TimingError(
                "74HC165 at %.1f V: %s for %d ns, under the %d ns minimum (%s%s)" % (
                    self.limits.vcc, what, span_ns, need, name,
                    "" if self.margin == 1.0 else ", %d ns times a margin of %.2f" % (
                        limit_ns, self.margin)))

    def sh_ld(self, level, t_ns):
        """SH/LD goes to `level` at `t_ns`."""
        level = 1 if level else 0
        if level == self.load_level:
            return
        lim = self.limits
        if level and self.load_at is not None:
            self._check("SH/LD low", t_ns - self.load_at, lim.tw, "tw")
        if not level:
            self._qh_changes(t_ns)
        self.load_level, self.load_at = level, t_ns

    def clk(self, level, t_ns):
        """CLK goes to `level` at `t_ns`."""
        level = 1 if level else 0
        if level == self.clk_level:
            return
        lim = self.limits
        if self.clk_at is not None:
            self._check("CLK %s" % ("high" if self.clk_level else "low"),
                        t_ns - self.clk_at, lim.tw, "tw")
        self.clk_level, self.clk_at = level, t_ns
        if not level or not self.load_level:
            return
        if self.load_at is not None:
            self._check("SH/LD high before CLK rose", t_ns - self.load_at, lim.trec, "trec")
        if self.chips > 1 and self.rise_at is not None and (
                self.load_at is None or self.load_at < self.rise_at):
            self._check("CLK rise to rise", t_ns - self.rise_at, lim.period,
                        "a chained chip's SER: tpd %d + tsu %d" % (lim.tpd, lim.tsu_ser))
        self.rise_at = t_ns
        self._qh_changes(t_ns)

    def _qh_changes(self, t_ns):
        self.qh_before, self.qh_at = self.qh_at, t_ns

    def qh_sampled(self, t_ns):
        """The reader takes QH as it was at `t_ns` (its synchroniser's delay already taken
        off): QH must have settled since the change before it (a sample taken just before a
        CLK rise reads the bit of the rise before)."""
        at = self.qh_at if self.qh_at is not None and t_ns >= self.qh_at else self.qh_before
        if at is not None:
            self._check("QH read after it changed", t_ns - at, self.limits.tpd, "tpd")


def shift_position(k):
    """Which bit out of the chain (0: the first) carries chain input k (chip k // 8's input
    "ABCDEFGH"[k % 8]): the H input of each chip comes out first.

        >>> [shift_position(k) for k in (0, 7, 8, 25)]
        [7, 0, 15, 30]
    """
    return 8 * (k // 8) + 7 - k % 8


class HC165Chain:
    """`chips` 74HC165s in a chain (see the module); inputs not wired read low (tied)."""

    def __init__(self, chips):
        self.chips = chips
        self.inputs = [None] * (8 * chips)      # level functions of t_us; None: tied low
        self.flops = [0] * (8 * chips)          # by chain input k (chip k // 8, flop k % 8)
        self.changes = []
        self.loading = False
        self.shifts = 0
        self.loads = 0
        self.errors = []

    def wire(self, k, level, next_change=None):
        """Input k (chip k // 8, pin "ABCDEFGH"[k % 8]) follows `level(t_us)`; `next_change(t)`,
        if given, says when that level may next change (see `next_change`)."""
        self.inputs[k] = level
        if next_change is not None:
            self.changes.append(next_change)

    def _follow(self, t_us):
        inputs = self.inputs
        flops = self.flops
        for k in range(len(inputs)):
            source = inputs[k]
            flops[k] = 0 if source is None else source(t_us)

    def load(self, level, t_us):
        """SH/LD goes to `level`: low latches (and follows) the inputs."""
        if not level:
            if not self.loading:
                self.loads += 1
            self.loading = True
            self._follow(t_us)
        elif self.loading:
            self._follow(t_us)               # the levels at the rising edge are kept
            self.loading = False

    def clock(self, level, t_us):
        """CLK goes to `level`: a rising edge with SH/LD high shifts one place on."""
        if not level:
            return
        if self.loading:
            self.errors.append("CLK rising at %d us while SH/LD is low: the load wins" % t_us)
            return
        flops = self.flops
        for chip in range(self.chips):
            base = 8 * chip
            after = flops[base + 15] if chip + 1 < self.chips else 0    # next chip's QH
            # within a chip: H <- G <- ... <- A <- SER
            for pin in range(7, 0, -1):
                flops[base + pin] = flops[base + pin - 1]
            flops[base] = after
        self.shifts += 1

    def next_change(self, t_us):
        """The first time after `t_us` an input wired with a `next_change` of its own may
        change (QH follows it only while loading, or at the next load): -1 if none says."""
        best = -1
        for source in self.changes:
            when = source(t_us)
            if when > t_us and (best < 0 or when < best):
                best = when
        return best

    def qh(self, t_us):
        """U1's QH: the chain's output."""
        if self.loading:
            self._follow(t_us)
        return self.flops[7]
