"""A virtual NeoPixel strip: what the guide lights, kept for the players and the tests to see.

    >>> strip = LedStrip(3)
    >>> strip[1] = (0, 40, 0)
    >>> strip.pixel(1)          # set, but not shown yet: the LEDs still show the last frame
    (0, 0, 0)
    >>> strip.show()
    >>> strip.pixel(1), strip.frames_shown
    ((0, 40, 0), 1)

A real strip has a buffer the driver writes and a moment it is latched (`show()`): until then the
LEDs keep showing the previous frame. The virtual strip keeps both, because a guide that forgets
`show()` leaves the players looking at the old frame, and a test should see that.

It mirrors the small common API of the NeoPixel drivers (adafruit-circuitpython-neopixel on a Pi:
`strip[i] = (r, g, b)`, `strip.fill(colour)`, `strip.show()`, `len(strip)`), so code that drives
LEDs takes either. MicroPython's `neopixel.NeoPixel` calls `show()` `write()` instead (with no
argument); here `write(pixels)` sets the whole buffer at once, the way the guide hands over an LED
frame. Colours are (r, g, b) tuples of whole numbers 0..255, checked on the way in so that a bad
colour fails here, in the simulator, rather than as a wrong colour on a real board.

Host-only.
"""

from __future__ import annotations

from typing import Sequence

Colour = tuple[int, int, int]
OFF: Colour = (0, 0, 0)


class LedStrip:
    """`count` RGB LEDs: a buffer to write, and the frame last shown."""

    def __init__(self, count: int) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError("an LED strip needs a whole number >= 1 of LEDs, not %r" % (count,))
        self.count = count
        self.buffer: list[Colour] = [OFF] * count    # what the next show() latches
        self.shown: list[Colour] = [OFF] * count     # what the LEDs show now
        self.frames_shown = 0

    def __len__(self) -> int:
        return self.count

    def __setitem__(self, index: int, colour: Sequence[int]) -> None:
        self.buffer[self._check_index(index)] = check_colour(colour)

    def __getitem__(self, index: int) -> Colour:
        """The buffered colour of LED `index` (as drivers read back their buffer)."""
        return self.buffer[self._check_index(index)]

    def fill(self, colour: Sequence[int]) -> None:
        """Set every LED of the buffer to `colour`."""
        self.buffer = [check_colour(colour)] * self.count

    def write(self, pixels: Sequence[Sequence[int]]) -> None:
        """Set the whole buffer: one colour per LED, in strip order."""
        if len(pixels) != self.count:
            raise ValueError("%d colours for a strip of %d LEDs" % (len(pixels), self.count))
        self.buffer = [check_colour(colour) for colour in pixels]  # all checked, then stored

    def show(self) -> None:
        """Latch the buffer: the LEDs now show it."""
        self.shown = self.buffer[:]
        self.frames_shown += 1

    def pixel(self, index: int) -> Colour:
        """The colour LED `index` shows now (what a player sees)."""
        return self.shown[self._check_index(index)]

    def lit(self) -> dict[int, Colour]:
        """The LEDs that show a colour other than off, by index."""
        return {i: colour for i, colour in enumerate(self.shown) if colour != OFF}

    def _check_index(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int) or not (
                -self.count <= index < self.count):
            raise IndexError("LED index must be 0..%d (or negative, from the end), not %r" % (
                self.count - 1, index))
        return index

    def __repr__(self) -> str:
        return "LedStrip(%d LEDs, %d frames shown)" % (self.count, self.frames_shown)


def check_colour(colour: Sequence[int]) -> Colour:
    """`colour` as an (r, g, b) tuple, or a ValueError saying what is wrong with it."""
    # the renderer's plain tuples of ints pass at a glance (a simulated game writes its whole
    # strip every turn); anything else gets the full check below and its error
    if type(colour) is tuple and len(colour) == 3:
        r, g, b = colour
        if (type(r) is int and type(g) is int and type(b) is int
                and 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255):
            return colour
    if isinstance(colour, (str, bytes)) or not hasattr(colour, "__len__") or len(colour) != 3:
        raise ValueError("a colour is (r, g, b), not %r" % (colour,))
    for value in colour:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
            raise ValueError("colour %r: each of r, g, b must be a whole number 0..255" % (
                colour,))
    return (colour[0], colour[1], colour[2])
