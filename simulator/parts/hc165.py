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

Timing (a few tens of nanoseconds at 3.3 V) is far below a microsecond, this model's unit;
the emulated Pico's harness checks it in nanoseconds. What the datasheet forbids and a
microsecond can show is recorded in `errors`: a CLK rising edge while SH/LD is low (the load
wins and the edge is lost).

Works under MicroPython and CPython.
"""

INPUTS = "ABCDEFGH"


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
