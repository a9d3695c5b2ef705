"""A WS2812B LED strip, read off its data line as the Worldsemi WS2812B datasheet times it.

    strip = WS2812Strip(176)
    strip.edge(1, t_ns); strip.edge(0, t_ns + 400)  # every change of the data line
    strip.finish(t_ns)                              # the line has stayed low: latch
    strip.frames[-1]                                # [(r, g, b), ...] the strip shows

Each bit begins with a rising edge; how long the line stays high says which bit it is: 0 for
400 ns, 1 for 800 ns, each within +-150 ns, in a bit period of 1.25 us +-600 ns. An LED takes
24 bits, green, red, blue, most significant bit first, and passes the rest down the strip. The
line held low for 50 us or more (280 us for the WS2812B-V5) ends the frame: each LED shows
what it took. A frame takes 30 us per LED on the wire.

Anything outside those windows is recorded in `errors` and the frame is not shown (a real
strip shows garbage). Times in nanoseconds (this model reads edges timed in clock cycles:
the PIO emulator's and the emulated Pico's).

Works under MicroPython and CPython.
"""

T0H_NS = 400
T1H_NS = 800
TOLERANCE_NS = 150
PERIOD_NS = 1250
PERIOD_TOLERANCE_NS = 600
RESET_NS = 50000            # WS2812B; the -V5 part needs 280 us
BITS_PER_LED = 24


class WS2812Strip:
    """`count` LEDs on one data line (see the module)."""

    def __init__(self, count):
        self.count = count
        self.frames = []            # every frame shown, oldest first: lists of (r, g, b)
        self.frame_ns = []          # how long each frame took on the wire
        self.errors = []
        self._bits = []
        self._rise = -1
        self._start = -1
        self._level = 0
        self._last_edge = -1

    def edge(self, level, t_ns):
        """The data line goes to `level` at `t_ns`."""
        if level == self._level:
            return
        self._level = level
        if level:
            if self._rise >= 0 and t_ns - self._last_edge >= RESET_NS:
                self.finish(self._last_edge + RESET_NS)
            if self._rise >= 0:
                period = t_ns - self._rise
                if abs(period - PERIOD_NS) > PERIOD_TOLERANCE_NS:
                    self.errors.append("bit period %d ns" % period)
            if self._start < 0:
                self._start = t_ns
            self._rise = t_ns
        else:
            high = t_ns - self._rise
            if abs(high - T0H_NS) <= TOLERANCE_NS:
                self._bits.append(0)
            elif abs(high - T1H_NS) <= TOLERANCE_NS:
                self._bits.append(1)
            else:
                self.errors.append("bit high for %d ns" % high)
                self._bits.append(-1)
        self._last_edge = t_ns

    def finish(self, t_ns):
        """The line has been low since its last edge until `t_ns`: if that is a reset, the
        bits so far become a frame."""
        if self._rise < 0 or self._level or t_ns - self._last_edge < RESET_NS:
            return
        bits = self._bits
        if -1 not in bits and len(bits) % BITS_PER_LED == 0 and bits:
            shown = []
            for led in range(min(self.count, len(bits) // BITS_PER_LED)):
                word = 0
                for bit in bits[BITS_PER_LED * led:BITS_PER_LED * (led + 1)]:
                    word = word << 1 | bit
                shown.append((word >> 8 & 0xFF, word >> 16, word & 0xFF))   # G, R, B
            self.frames.append(shown)
            self.frame_ns.append(self._last_edge - self._start)
        elif bits:
            self.errors.append("a frame of %d bits is not whole LEDs" % len(bits))
        self._bits = []
        self._rise = -1
        self._start = -1
