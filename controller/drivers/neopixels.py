"""NeoPixels on a Raspberry Pi: the guide's LED frames on a WS2812 (or SK6812) strip.

    strip = NeoPixelStrip(pin=18, count=168)                 # GPIO 18, 14 rings of 12 LEDs
    strip.show(render(frame, layout, t_ms))                  # sent only if the frame changed
    strip.close()                                            # dark, and the pin released

`show()` takes the list of `(r, g, b)` that `controller.guide.pixels.render()` returns, one per
LED along the strip. The strip is driven through adafruit-circuitpython-neopixel with
`auto_write` off and its own brightness at 1.0: `render()` has already applied the board's
brightness and supply-current caps, and a second scaling here would dim twice. One frame is one
`show()`, and a frame equal to the one showing is not sent at all: a steady board costs no
transfers, and the Pi 1-4 driver (rpi_ws281x, through PWM and DMA) is busy only when a pattern
moves.

Which pins: on a Pi 1-4 rpi_ws281x drives GPIO 10 (SPI), 12 or 18 (PWM) or 21 (PCM), and needs
root; on a Pi 5 Blinka drives any GPIO through the RP1's PIO. Pixel order: most WS2812 strips
are GRB, some RGB; SK6812 RGBW strips take a four-letter order (their white LED stays off:
`render()` mixes colours from red, green and blue).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations
from typing import Any

from .common import DeviceError, bcm_pin, check_number

PIXEL_ORDERS = tuple("".join(order) for letters in ("RGB", "RGBW")
                     for order in permutations(letters))

Pixel = Sequence[int]                                  # (r, g, b), each 0..255
# (pin, count, pixel_order) -> an adafruit_pixelbuf.PixelBuf with auto_write off
PixelBufMaker = Callable[[int, int, str], Any]


def blinka_neopixel(pin: int, count: int, pixel_order: str) -> Any:
    """A `neopixel.NeoPixel` on BCM pin `pin` through Blinka, at full brightness with
    `auto_write` off. Raises DeviceError on a machine where Blinka cannot drive NeoPixels (not a
    Raspberry Pi, or its driver not installed) or whose board has no such pin."""
    try:
        import microcontroller       # Blinka's pins of the board it detected
        import neopixel
    except (ImportError, NotImplementedError, RuntimeError) as error:
        raise DeviceError("NeoPixels on GPIO %d: Blinka cannot drive them on this machine (%s); "
                          "they need a Raspberry Pi with adafruit-circuitpython-neopixel and "
                          "its driver (rpi_ws281x, or Adafruit-Blinka-Raspberry-Pi5-Neopixel on "
                          "a Pi 5)" % (pin, error)) from error
    board_pin = getattr(microcontroller.pin, "D%d" % pin, None)
    if board_pin is None:
        raise DeviceError("NeoPixels on GPIO %d: this board (%s) has no such pin" % (
            pin, _board_id()))
    return neopixel.NeoPixel(board_pin, count, brightness=1.0, auto_write=False,
                             pixel_order=pixel_order)


def _board_id() -> str:
    """The board Blinka detected, for messages."""
    import board
    return str(board.board_id)


class NeoPixelStrip:
    """A strip of `count` NeoPixels on BCM pin `pin`, in `pixel_order` ("GRB", "RGB", ... or a
    four-letter RGBW order), that shows frames of `(r, g, b)` values.

    `make_pixelbuf(pin, count, pixel_order)` builds the `adafruit_pixelbuf.PixelBuf` that holds
    and sends the bytes; the default is `blinka_neopixel`, the real strip. Tests pass a PixelBuf
    that records what it would send.
    """

    def __init__(self, pin: int, count: int, pixel_order: str = "GRB", *,
                 make_pixelbuf: PixelBufMaker = blinka_neopixel) -> None:
        self.pin = bcm_pin(pin, "the LED strip")
        check_number(count, "the LED strip's length (its count of LEDs)", integer=True)
        if pixel_order not in PIXEL_ORDERS:
            raise ValueError("unknown pixel order %r: give the order the strip takes its colours "
                             "in, one of %s" % (pixel_order, ", ".join(PIXEL_ORDERS)))
        self.count = count
        self.pixel_order = pixel_order
        self.frames_sent = 0                  # how many show()s reached the strip
        self._buf = make_pixelbuf(pin, count, pixel_order)
        if self._buf.auto_write:
            raise ValueError("the strip's PixelBuf must have auto_write off: with it on, every "
                             "LED set would be a transfer of its own")
        # An RGBW PixelBuf turns an (r, g, b) with r == g == b into its white LED alone; four
        # values with white 0 keep the colours render() computed.
        self._white = len(pixel_order) == 4
        self._shown: list | None = None       # the frame on the strip now (None: not known)

    def show(self, pixels: Sequence[Pixel]) -> bool:
        """Show `pixels`, one `(r, g, b)` per LED, each 0..255. Returns True when the frame was
        sent, False when it was the one already showing (nothing is sent then)."""
        if self._buf is None:
            raise ValueError("the LED strip on GPIO %d is closed" % self.pin)
        if not isinstance(pixels, (list, tuple)):
            raise ValueError("a frame is a list of (r, g, b), one per LED, not %s" % (
                type(pixels).__name__,))
        frame = [tuple(pixel) if isinstance(pixel, (list, tuple)) else pixel for pixel in pixels]
        if frame == self._shown:
            return False
        self._check(frame)
        self._buf[:] = [pixel + (0,) for pixel in frame] if self._white else frame
        self._buf.show()
        self._shown = frame
        self.frames_sent += 1
        return True

    def _check(self, frame: list) -> None:
        """Raise a ValueError naming the first LED whose value is not (r, g, b) of ints 0..255."""
        if len(frame) != self.count:
            raise ValueError("a frame of %d pixels for a strip of %d LEDs" % (
                len(frame), self.count))
        for index, pixel in enumerate(frame):
            if not (isinstance(pixel, tuple) and len(pixel) == 3 and all(
                    not isinstance(c, bool) and isinstance(c, int) and 0 <= c <= 255
                    for c in pixel)):
                raise ValueError("LED %d: %r is not (r, g, b) with each an int 0..255" % (
                    index, pixel))

    def clear(self) -> bool:
        """Turn every LED off (sent only if any was on)."""
        return self.show([(0, 0, 0)] * self.count)

    def close(self) -> None:
        """Turn the strip off and release its pin. Closing twice does nothing."""
        if self._buf is None:
            return
        deinit = getattr(self._buf, "deinit", None)
        if deinit is not None:
            deinit()                     # neopixel.NeoPixel: sends it dark, releases the pin
        else:
            self._shown = None           # sent dark whatever it showed
            self.clear()
        self._buf = None

    def __enter__(self) -> NeoPixelStrip:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<NeoPixelStrip GPIO %d, %d LEDs, %s%s>" % (
            self.pin, self.count, self.pixel_order, "" if self._buf else ", closed")
