"""The NeoPixel strip: whole frames in, each LED in the strip's own colour order.

The host (bridge mode) and the guide (standalone mode) both think in R, G, B: the host sends
3 bytes an LED, the guide's `render` gives (r, g, b) tuples. WS2812B strips want G, R, B on the
wire, and other parts other orders; `Strip` puts the bytes where the strip wants them::

    strip = Strip(pin=22, count=168, order="GRB")
    strip.show(pixel_bytes)                 # R, G, B for every LED, in strip order
    strip.show_pixels(render(frame, layout, t_ms))
    strip.pixels                            # what the strip shows, as R, G, B bytes

A frame equal to the one on show is not sent again: the strip keeps its colours without being
refreshed, and 168 LEDs take 5 ms of the CPU to send.

MicroPython's `neopixel` module (a fake one under tests).
"""

import machine
import neopixel

from config import ORDERS


class Strip:
    """`count` RGB NeoPixels on GPIO `pin`, wired in colour `order` (one of ORDERS)."""

    def __init__(self, pin, count, order="GRB"):
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1024:
            raise ValueError("leds: a strip of %r LEDs: give 1..1024" % (count,))
        if order not in ORDERS:
            raise ValueError("leds: colour order %r is not one of %s" % (order, ", ".join(ORDERS)))
        self.count = count
        self.order = order
        # where R, G and B go within an LED's 3 bytes on the wire
        self._at = (order.index("R"), order.index("G"), order.index("B"))
        self._strip = neopixel.NeoPixel(machine.Pin(pin), count)
        self.pixels = bytes(3 * count)
        self.writes = 0
        self._send()                # all off: a strip powers up showing whatever it likes

    def show(self, pixels):
        """Show `pixels`: R, G, B bytes for each LED (3 * count bytes). A ValueError for any
        other length, and the strip keeps what it showed."""
        if len(pixels) != 3 * self.count:
            raise ValueError("leds: %d bytes for a strip of %d LEDs (3 each: %d)" % (
                len(pixels), self.count, 3 * self.count))
        if pixels == self.pixels:
            return False
        buf = self._strip.buf
        if self._at == (0, 1, 2):
            buf[:] = pixels
        else:
            r, g, b = self._at
            for i in range(0, 3 * self.count, 3):
                buf[i + r] = pixels[i]
                buf[i + g] = pixels[i + 1]
                buf[i + b] = pixels[i + 2]
        self.pixels = bytes(pixels)
        self._send()
        return True

    def show_pixels(self, colours):
        """Show a list of (r, g, b) tuples, one per LED (what guide.pixels.render gives)."""
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
        return self.show(bytes(3 * self.count))

    def _send(self):
        self._strip.write()
        self.writes += 1
