"""A fake `neopixel` module: MicroPython's NeoPixel class, whose `write()` records the bytes it
would send down the strip instead of sending them, and takes as long as the real one: 30 us an
LED with interrupts off (tests only).

    >>> import machine, neopixel
    >>> strip = neopixel.NeoPixel(machine.Pin(22), 2)
    >>> strip[0] = (255, 16, 0)           # (r, g, b): stored in the strip's order, GRB
    >>> strip.write()
    >>> strip.writes[-1]
    b'\\x10\\xff\\x00\\x00\\x00\\x00'

Same buffer layout and ORDER attribute as the real module (micropython-lib's neopixel.py), so
firmware that writes `buf` directly is checked as well as firmware that sets pixels.

Works under MicroPython and CPython.
"""

import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)        # GRB(W): where r, g, b (and w) go within a pixel's bytes
    instances = []              # every strip made since machine.reset_fakes(), oldest first

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        self.writes = []            # bytes(buf) at each write(), oldest first
        NeoPixel.instances.append(self)
        pin.init(pin.OUT)
        machine.line(pin.id).owner = "neopixel"

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        offset = index * self.bpp
        for k in range(self.bpp):
            self.buf[offset + self.ORDER[k]] = value[k]

    def __getitem__(self, index):
        offset = index * self.bpp
        return tuple([self.buf[offset + self.ORDER[k]] for k in range(self.bpp)])

    def fill(self, value):
        for index in range(self.n):
            self[index] = value

    def write(self):
        # MicroPython's neopixel.write is machine.bitstream with interrupts off: 24 bits of
        # 1.25 us an LED (WS2812B datasheet), during which the CPU does nothing else
        self.writes.append(bytes(self.buf))
        machine.spend_us(self.n * self.bpp * 8 * 1250 // 1000)
