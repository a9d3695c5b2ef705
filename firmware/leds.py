"""The NeoPixel strip, driven by a PIO state machine that DMA feeds: the CPU hands a frame over
and goes on; it never waits for the strip with its interrupts off.

The host (bridge mode) and the guide (standalone mode) think in R, G, B: the host sends 3 bytes
an LED, the guide a colour per place. WS2812B strips want G, R, B on the wire, and other parts
other orders; `Strip` puts the bytes where the strip wants them::

    strip = Strip(pin=22, count=168, order="GRB")
    strip.show(pixel_bytes)                 # R, G, B for every LED, in strip order
    strip.show_places(colours, led_place)   # R, G, B for every place, and each LED's place
    strip.pixels                            # what the strip shows, as R, G, B bytes

Why not MicroPython's `neopixel`: its `write()` is `machine.bitstream`, which sends the bits
from the CPU with interrupts off, 30 us an LED (24 bits of 1.25 us, WS2812B datasheet): 5.3 ms
for a 2 x 6 board's 176 LEDs, 9.6 ms for 2 x 12's 320, during which nothing else runs — not
the USB link, not a timer. Here a PIO program makes the waveform (10 cycles a bit at 8 MHz: a
0 is high 375 ns, a 1 high 875 ns, within the datasheet's 400 and 800 ns +-150) and a DMA
channel feeds it one 32-bit word an LED from RAM. The CPU's only work is to fill the words of
the next frame (`fast.py` does it without a Python loop a LED, on the Pico).

A frame equal to the one on show is not sent again: the strip keeps its colours. One that comes
while the last is still on the wire waits (the newest wins) and goes out at the next `poll()`,
which the main loops call. Between two frames the line stays low at least 300 us, the reset
the WS2812B-V5 needs (older parts: 50 us).

MicroPython on the Pico (rp2); under tests, firmware/fakes/ runs the program and the DMA.
"""

import machine
import rp2

TYPE_CHECKING = False
if TYPE_CHECKING:                   # the PIO assembler's names, for pyright (rp2/asm_pio.pyi)
    from rp2.asm_pio import *       # pyright: ignore[reportWildcardImportFromLibrary]

from config import ORDERS

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

try:
    import fast                         # the Pico: the frame's words filled by native code
except (ImportError, SyntaxError):      # a port without viper (the tests'): plain Python
    fast = None

FREQ = 8000000              # 10 cycles a bit: 800 kbit/s
LED_US = const(30)          # 24 bits of 1.25 us
RESET_US = const(300)       # the line low between frames (WS2812B-V5: at least 280 us)
TIMERAWL = const(0x40054028)
PIO1_TXF0 = const(0x50300010)
DREQ_PIO1_TX0 = const(8)
NO_PLACE = const(255)       # an LED no place lights


def _program():
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
                 pull_thresh=24, fifo_join=rp2.PIO.JOIN_TX)
    def ws2812():
        wrap_target()
        label("bit")
        out(x, 1).side(0)[2]            # 3 cycles low: the end of the bit before
        jmp(not_x, "zero").side(1)[2]   # 3 cycles high: every bit starts high
        jmp("bit").side(1)[3]           # a 1: 4 more high (7 in all), then those 3 low
        label("zero")
        nop().side(0)[3]                # a 0: 4 low (7 low with the 3 of the next bit)
        wrap()

    return ws2812


WS2812 = _program()


def pack(pixels, words, at):
    """Put R, G, B bytes `pixels` into the LED words `words` (a bytearray, 4 bytes an LED,
    little-endian: byte 3 goes out first): colour c of each LED into byte at[c]."""
    r, g, b = at
    j = 0
    for i in range(0, len(pixels), 3):
        words[j + r] = pixels[i]
        words[j + g] = pixels[i + 1]
        words[j + b] = pixels[i + 2]
        j += 4


def pack_places(colours, led_place, words, at):
    """The LED words for a colour per place: `colours` holds R, G, B for place p at 3p,
    `led_place` each LED's place (NO_PLACE: dark)."""
    r, g, b = at
    j = 0
    for place in led_place:
        if place == NO_PLACE:
            words[j + r] = words[j + g] = words[j + b] = 0
        else:
            k = 3 * place
            words[j + r] = colours[k]
            words[j + g] = colours[k + 1]
            words[j + b] = colours[k + 2]
        j += 4


# what Strip uses: natively on the Pico (the same bytes: tests/test_emulated_pico.py)
_pack = pack if fast is None else fast.pack
_pack_places = pack_places if fast is None else fast.pack_places


def led_places(layout_leds, count):
    """Each LED's place (NO_PLACE for LEDs no place lights), from a layout's LEDs per place."""
    places = bytearray([NO_PLACE] * count)
    for place in range(len(layout_leds)):
        for i in layout_leds[place]:
            places[i] = place
    return places


# what a frame holds: every LED off; R, G, B bytes an LED; R, G, B bytes a place and each
# LED's place
OFF = const(0)
PIXELS = const(1)
PLACES = const(2)


class Strip:
    """`count` RGB NeoPixels on GPIO `pin`, wired in colour `order` (one of ORDERS), on PIO
    state machine `state_machine` (4..7, block 1: block 0 reads the load cells)."""

    def __init__(self, pin, count, order="GRB", state_machine=4):
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1024:
            raise ValueError("leds: a strip of %r LEDs: give 1..1024" % (count,))
        if order not in ORDERS:
            raise ValueError("leds: colour order %r is not one of %s" % (order, ", ".join(ORDERS)))
        if state_machine not in (4, 5, 6, 7):
            raise ValueError("leds: state machine %r: the strip's program goes in PIO block 1 "
                             "(4..7)" % (state_machine,))
        self.count = count
        self.order = order
        self.state_machine = state_machine
        # where R, G and B go in an LED's word: the first colour on the wire in byte 3
        self._at = (3 - order.index("R"), 3 - order.index("G"), 3 - order.index("B"))
        self._buffers = (bytearray(4 * count), bytearray(4 * count))   # every LED off
        self._next = 0                  # the buffer the next frame is filled into
        # two frames: the one on the strip, and the one waiting for the line (kind OFF and
        # nothing waiting: False). Each is a kind, the strip's own copy of its bytes and
        # (PLACES) each LED's place. The copies are kept, two a kind, and a frame given is
        # copied into the one not on show: a new bytearray a frame is a search of the
        # heap's table, which on a Pico whose heap is nearly full took 1 to 3 ms
        self._copies = {PIXELS: None, PLACES: None}
        self._kind, self._bytes, self._led_place = OFF, None, None
        self._waiting = False
        self._waiting_kind, self._waiting_bytes, self._waiting_led_place = OFF, None, None
        self._sent_us = 0
        self._frame_us = LED_US * count + RESET_US
        self._sm = rp2.StateMachine(state_machine, WS2812, freq=FREQ,
                                    sideset_base=machine.Pin(pin))
        self._sm.active(1)
        self._dma = rp2.DMA()
        self._fifo = PIO1_TXF0 + 4 * (state_machine % 4)
        self._ctrl = self._dma.pack_ctrl(size=2, inc_read=True, inc_write=False,
                                         treq_sel=DREQ_PIO1_TX0 + state_machine % 4,
                                         irq_quiet=True)
        self.writes = 0                 # frames sent
        self.waited = 0                 # times a frame waited for the one on the wire
        self._send()                    # all off: a strip powers up any way

    # --- what to show -----------------------------------------------------------------------

    def show(self, pixels):
        """Show `pixels`: R, G, B bytes for each LED (3 * count bytes). A ValueError for any
        other length, and the strip keeps what it showed. False when it shows them already."""
        if len(pixels) != 3 * self.count:
            raise ValueError("leds: %d bytes for a strip of %d LEDs (3 each: %d)" % (
                len(pixels), self.count, 3 * self.count))
        return self._want(PIXELS, pixels, None)

    def show_places(self, colours, led_place):
        """Show a colour per place: `colours` R, G, B bytes, 3 a place (copied: the caller
        may fill them again for its next frame); `led_place` each LED's place (`led_places`
        makes it from a layout; kept as given). False when the strip shows them already."""
        if len(led_place) != self.count:
            raise ValueError("leds: %d LEDs placed for a strip of %d" % (
                len(led_place), self.count))
        return self._want(PLACES, colours, led_place)

    def show_pixels(self, colours):
        """Show a list of (r, g, b) tuples, one per LED."""
        if len(colours) != self.count:
            raise ValueError("leds: %d colours for a strip of %d LEDs" % (
                len(colours), self.count))
        data = bytearray(3 * self.count)
        i = 0
        for colour in colours:
            data[i] = colour[0]
            data[i + 1] = colour[1]
            data[i + 2] = colour[2]
            i += 3
        return self.show(data)

    def off(self):
        """Every LED off."""
        return self._want(OFF, None, None)

    @property
    def pixels(self):
        """What the strip shows (or is about to), as R, G, B bytes for each LED."""
        if self._waiting:
            kind, data, led_place = (self._waiting_kind, self._waiting_bytes,
                                     self._waiting_led_place)
        else:
            kind, data, led_place = self._kind, self._bytes, self._led_place
        if kind == OFF:
            return bytes(3 * self.count)
        if kind == PIXELS:
            return bytes(data)
        out = bytearray(3 * self.count)
        for i in range(self.count):
            place = led_place[i]
            if place != NO_PLACE:
                out[3 * i:3 * i + 3] = data[3 * place:3 * place + 3]
        return bytes(out)

    # --- the line ---------------------------------------------------------------------------

    def _want(self, kind, data, led_place):
        if self._waiting:
            latest, latest_bytes, latest_led_place = (self._waiting_kind, self._waiting_bytes,
                                                      self._waiting_led_place)
        else:
            latest, latest_bytes, latest_led_place = self._kind, self._bytes, self._led_place
        if kind == latest and (kind == OFF or latest_bytes == data and (
                kind == PIXELS or latest_led_place is led_place
                or latest_led_place == led_place)):
            return False
        if kind != OFF:
            copy = self._spare(kind, len(data))
            copy[:] = data
            data = copy
        self._waiting = True
        self._waiting_kind, self._waiting_bytes, self._waiting_led_place = kind, data, led_place
        self.poll()
        return True

    def _spare(self, kind, size):
        """The copy of a `kind` frame's bytes that is not on show, `size` bytes long."""
        copies = self._copies[kind]
        if copies is None or len(copies[0]) != size:
            copies = self._copies[kind] = (bytearray(size), bytearray(size))
        return copies[1] if self._bytes is copies[0] else copies[0]

    def busy(self):
        """True while a frame is on the wire, or its reset time has not passed yet."""
        return self._dma.active() or (
            (machine.mem32[TIMERAWL] - self._sent_us) & 0xFFFFFFFF < self._frame_us)

    def poll(self):
        """Send the frame that waits, if the line is free (the main loops call this)."""
        if not self._waiting:
            return
        if self.busy():
            self.waited += 1
            return
        self._waiting = False
        self._kind, self._bytes, self._led_place = (self._waiting_kind, self._waiting_bytes,
                                                    self._waiting_led_place)
        self._waiting_bytes = self._waiting_led_place = None
        self._send()

    def flush(self, clock):
        """Wait (on `clock`, see clock.py) until the frame that waits is on the strip: for a
        frame shown once with no main loop to poll after it (a fault at boot)."""
        for _ in range(100):            # a frame takes 10 ms at the most
            if not self._waiting:
                return
            clock.sleep_ms(1)
            self.poll()

    def _send(self):
        """The frame on show (self._kind ...) onto the wire."""
        words = self._buffers[self._next]
        self._next ^= 1
        kind = self._kind
        if kind == PIXELS:
            _pack(self._bytes, words, self._at)
        elif kind == PLACES:
            _pack_places(self._bytes, self._led_place, words, self._at)
        else:
            _pack(bytes(3 * self.count), words, self._at)
        self._sent_us = machine.mem32[TIMERAWL]
        self._dma.config(read=words, write=self._fifo, count=self.count, ctrl=self._ctrl,
                         trigger=True)
        self.writes += 1
