"""Load cells through HX711 converters, all read at once by one PIO state machine.

Every place of the board has its own load cell and HX711. The HX711s share one clock line
(PD_SCK) and each has its own data line (DOUT); a PIO program clocks them together::

    cells = HX711Array(clock=2, data=[3, 4, 5, 6])    # GPIO 2 to every PD_SCK, DOUTs on 3..6
    frame = cells.read()        # None until every cell has a new conversion, then e.g.
                                # [81234, -512, 80960, 8388607]: signed 24-bit, one per cell

How a reading travels (HX711 datasheet; RATE high: 80 conversions a second):

1. A cell's DOUT goes low when its conversion is ready. The program waits until every DOUT is
   low (one WAIT per data pin: a DOUT that went low stays low until clocked).
2. 24 clock pulses; after each, every DOUT holds the next bit of its cell's result, MSB first,
   and one IN samples all the data pins at once into the input shift register: one word per
   pulse, bit k = the data pin `in_base + k`. Autopush hands each word to the RX FIFO.
3. 1, 2 or 3 more pulses choose the next conversion: channel A at gain 128, channel B at gain
   32, channel A at gain 64.

The CPU then turns the 24 words of a reading back into one value per cell (`unpack`): bit
`pin - in_base` of word 0 is the cell's MSB, of word 23 its LSB, in 24-bit two's complement.
The converter saturates at 0x7FFFFF and 0x800000 (8388607 and -8388608): `read` passes those
on, and the sensing layer reports such a cell as faulty.

Timing: the state machine runs at 2 MHz; SCK is high for 1 us (the HX711 wants 0.2..50 us:
over 60 us powers it down) and each bit is sampled 0.5 us after the falling edge, while DOUT
still holds it: a reading takes about 55 us. If the CPU is late, the FIFO (8 words, joined)
fills and the program stalls with SCK low, which the HX711 tolerates; so `read()` must be
called at least every conversion (12.5 ms) to keep every frame.

The HX711s convert on their own oscillators, not in step: the program waits for the last of
them, and a conversion that ends during a read comes in the next frame. Driving every XI pin
from one clock would keep them in step.

Data pins need not be consecutive: the program samples every pin from the lowest data pin to
the highest and the CPU picks the cells' bits; pins in between are only read.
One WAIT per cell and 9 more instructions must fit the PIO's 32: up to 23 cells, all a Pico's
GPIO allow anyway. A board with more cells than pins (a 2 x 12 board has 26) latches the DOUTs
into 74HC165 shift registers instead: `HX711Chain`.

MicroPython on the Pico (rp2); under tests, firmware/fakes/rp2.py runs the same program.
"""

import machine
import rp2

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

BITS = const(24)
FREQ = 2000000          # the state machine's clock: 0.5 us an instruction cycle
CHAIN_FREQ = 4000000    # the shift-register program has 96 shift cycles a bit: go faster
MAX_CELLS = const(23)   # one WAIT per cell + 9 instructions in a PIO's 32
GAIN_PULSES = {128: 1, 32: 2, 64: 3}   # pulses after the 24th: channel A/128, B/32, A/64


def to_signed(raw):
    """A 24-bit two's complement reading as a signed int.

        >>> to_signed(0x7FFFFF), to_signed(0x800000), to_signed(0xFFFFFF)
        (8388607, -8388608, -1)
    """
    return raw - 0x1000000 if raw & 0x800000 else raw


def unpack(words, positions):
    """The signed reading of each cell from the 24 words of one conversion: the cell at bit
    `positions[i]` of every word gets its MSB from words[0] and its LSB from words[23]."""
    values = []
    for bit in positions:
        raw = 0
        for word in words:
            raw = raw << 1 | (word >> bit & 1)
        values.append(raw - 0x1000000 if raw & 0x800000 else raw)
    return values


def chain_position(k):
    """How many bits out of a 74HC165 chain cell k comes (0: the first): chain input k is
    input "ABCDEFGH"[k % 8] of register k // 8, and each register shifts out H first.

        >>> [chain_position(k) for k in (0, 7, 8, 25)]
        [7, 0, 15, 30]
    """
    return 8 * (k // 8) + 7 - k % 8


def gain_pulses(gain):
    """The extra clock pulses that select `gain` (128, 64 or 32), or a ValueError."""
    pulses = GAIN_PULSES.get(gain)
    if pulses is None:
        raise ValueError("hx711: gain %r is not 128, 64 (channel A) or 32 (channel B)"
                         % (gain,))
    return pulses


def parallel_program(span, waits, pulses):
    """The PIO program for cells whose DOUTs lie within `span` pins from in_base: wait for the
    pins at offsets `waits` to go low, clock 24 bits sampling all `span` pins, then `pulses`
    gain pulses. Set pin 0 is PD_SCK."""

    @rp2.asm_pio(set_init=rp2.PIO.OUT_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT, autopush=True,
                 push_thresh=span, fifo_join=rp2.PIO.JOIN_RX)
    def hx711_parallel():
        wrap_target()
        for index in waits:         # every conversion ready: every DOUT low
            wait(0, pin, index)
        set(x, 23)
        label("bit")
        set(pins, 1)[1]             # SCK high 1 us: each HX711 puts out its next bit
        set(pins, 0)
        in_(pins, span)             # all DOUTs at once; autopush: one word per bit
        jmp(x_dec, "bit")
        set(x, pulses - 1)
        label("gain")
        set(pins, 1)[1]
        set(pins, 0)
        jmp(x_dec, "gain")
        wrap()

    return hx711_parallel


def chain_program(bits, pulses):
    """The PIO program for DOUTs latched into a chain of 74HC165s of `bits` inputs in all. Set
    pins: 0 PD_SCK, 1 the registers' SH/LD (low: load), 2 their CLK; in pin and jmp pin: the
    chain's serial output (the first register's QH)."""

    @rp2.asm_pio(set_init=(rp2.PIO.OUT_LOW, rp2.PIO.OUT_HIGH, rp2.PIO.OUT_LOW),
                 in_shiftdir=rp2.PIO.SHIFT_LEFT, autopush=True, push_thresh=bits,
                 fifo_join=rp2.PIO.JOIN_RX)
    def hx711_chain():
        wrap_target()
        label("poll")
        set(pins, 0b000)            # SH/LD low: the registers take every DOUT
        set(pins, 0b010)            # shift mode: the first DOUT is on QH
        set(x, bits - 1)
        label("check")
        jmp(pin, "poll")            # a DOUT still high: not every conversion is ready
        set(pins, 0b110)            # CLK: the next DOUT to QH
        set(pins, 0b010)
        jmp(x_dec, "check")
        set(y, 23)
        label("bit")
        set(pins, 0b011)[1]         # SCK high: each HX711 puts out its next bit
        set(pins, 0b010)
        set(pins, 0b000)            # latch the bits
        set(pins, 0b010)
        set(x, bits - 1)
        label("shift")
        in_(pins, 1)                # autopush: one word per bit, the first cell's bit highest
        set(pins, 0b110)
        set(pins, 0b010)
        jmp(x_dec, "shift")
        jmp(y_dec, "bit")
        set(x, pulses - 1)
        label("gain")
        set(pins, 0b011)[1]
        set(pins, 0b010)
        jmp(x_dec, "gain")
        wrap()

    return hx711_chain


class _Reader:
    """What both kinds of wiring share: a running state machine, 24 words a reading."""

    def _start(self, state_machine, program, freq, positions, **pins):
        self.channels = len(positions)
        self._positions = positions
        self._words = [0] * BITS
        self._sm = rp2.StateMachine(state_machine, program, freq=freq, **pins)
        self._sm.active(1)
        self.frames = 0

    def read(self):
        """The next reading of every cell (a list of signed ints), or None when the cells have
        none ready yet. Never blocks for long: once the first word is in, the rest follow
        within 0.1 ms (HX711Array) or 1 ms (HX711Chain)."""
        sm = self._sm
        if sm.rx_fifo() == 0:
            return None
        words = self._words
        for k in range(BITS):
            words[k] = sm.get()
        self.frames += 1
        return unpack(words, self._positions)

    def close(self):
        """Stop the state machine (SCK stays low: the HX711s keep converting)."""
        self._sm.active(0)


class HX711Array(_Reader):
    """HX711s on one clock pin, each DOUT on its own GPIO (see the module)."""

    def __init__(self, clock, data, gain=128, state_machine=0, freq=FREQ):
        # which pins exist and that each is used once, config.py checks for the whole board
        if not isinstance(data, (list, tuple)) or not data:
            raise ValueError("hx711: data must list one GPIO per cell")
        if len(data) > MAX_CELLS:
            raise ValueError("hx711: %d cells are over the %d one PIO program reads directly; "
                             "latch them into 74HC165s (HX711Chain)" % (len(data), MAX_CELLS))
        base = min(data)
        span = max(data) - base + 1         # at most 30: the RP2040 has GPIO 0..29
        offsets = [pin - base for pin in data]
        for pin in data:
            machine.Pin(pin, machine.Pin.IN)
        self.gain = gain
        self.data = list(data)
        self._start(state_machine, parallel_program(span, offsets, gain_pulses(gain)), freq,
                    offsets, in_base=machine.Pin(base), set_base=machine.Pin(clock))


class HX711Chain(_Reader):
    """HX711s on one clock pin, their DOUTs latched into a chain of 74HC165s: SH/LD on GPIO
    clock + 1, CLK on clock + 2 (three consecutive pins: one SET drives them), the chain's
    output on `serial` (the first register's QH). Cell k is wired to chain input k: input
    "ABCDEFGH"[k % 8] of register k // 8 (the profiles' `sr.k`); inputs left over are tied
    low. A 74HC165 shifts out its H input first (TI's SN74HC165 datasheet: QH is the last
    flip-flop), then G ... A, then the next register's H: `chain_position` says where each
    cell's bit comes. Up to 32 cells (four registers) on one state machine. At 4 MHz SCK is high for 0.5 us and
    a reading takes about 0.8 ms: after each SCK pulse the program latches every DOUT and
    shifts all 32 bits in, one word per bit; before a reading it shifts them in to check that
    every DOUT is low."""

    def __init__(self, clock, serial, cells, gain=128, state_machine=0, freq=CHAIN_FREQ):
        if clock > 27:
            raise ValueError("hx711: clock pin %d leaves no room for SH/LD and CLK on the next "
                             "two GPIO" % clock)
        if isinstance(cells, bool) or not isinstance(cells, int) or not 1 <= cells <= 32:
            raise ValueError("hx711: a chain reads 1..32 cells (four 74HC165s), not %r"
                             % (cells,))
        bits = 8 * ((cells + 7) // 8)
        machine.Pin(serial, machine.Pin.IN)
        self.gain = gain
        # autopush after `bits` bits: the first bit shifted out is the word's highest
        positions = [bits - 1 - chain_position(k) for k in range(cells)]
        self._start(state_machine, chain_program(bits, gain_pulses(gain)), freq, positions,
                    in_base=machine.Pin(serial), jmp_pin=machine.Pin(serial),
                    set_base=machine.Pin(clock))
