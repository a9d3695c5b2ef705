"""Load cells through HX711 converters on one shared clock: read by a PIO state machine that
never waits for the CPU, every word copied into RAM by DMA, each read timed so that no
conversion ends inside it.

    cells = HX711Array(clock=2, data=[3, 4, 5, 6])    # GPIO 2 to every PD_SCK, DOUTs on 3..6
    frame = cells.read()        # None until a reading is in, then e.g.
                                # [81234, -512, 80960, None]: signed 24-bit, one per cell
                                # (None: that cell's reading could not be trusted)

What the HX711 does (its datasheet, and olkal's oscilloscope measurements: HX711_ADC issue 81;
simulator/parts/hx711.py models it): DOUT goes low when a result is ready; 24 PD_SCK pulses
shift it out MSB first; 1, 2 or 3 more pulses choose channel A/128, B/32 or A/64 for what
follows; PD_SCK high for over 60 us powers the chip down. Each chip converts on its own
oscillator — about every 10.7 ms at RATE high, a few per cent apart from chip to chip — and a
conversion does not wait for a read: one that ends before its result was read replaces it
(DOUT high for 75 us meanwhile), and one that ends *during* a read corrupts it.

So this driver:

1. **never lets a read stall.** The PIO program pushes every word into its RX FIFO and two DMA
   channels empty it at once into a ring in RAM — the word, then the timer's microsecond
   (TIMERAWL) — so a CPU that is busy (writing flash, collecting garbage) cannot leave a read
   half done: it finds every word in the ring later. Nothing in a read waits on the CPU.
   Back from longer than `keep_us` away (a flash write), it parses only the ring's last
   `keep_us` — by default the readings a queue of QUEUE keeps — and passes over the rest.
2. **watches the converters.** While it waits for every DOUT to be low, the program pushes the
   DOUT levels each time they change. A chip's DOUT falls 75 us after its conversion ends (or
   rises at the end of one whose result nobody read), so the CPU learns every chip's rhythm
   from the ring (controller.sensing.shared_clock.ReadPlanner).
3. **times each read.** Once every DOUT is low, the program takes a delay from its TX FIFO (0
   when the CPU sent none) before it clocks: the planner asks for one when a chip's next
   conversion would end inside the read, so that the read starts just after that chip's
   update instead. After the delay the program checks once more that every DOUT is low.
   `plan_ahead()` queues the next four reads' delays at once, for a CPU about to be away (a
   garbage collection: device.py's Device.tick collects just after one).
4. **judges each read.** A reading that a conversion may have caught (the planner's estimate,
   with a margin: the CPU was too late to delay it, or a chip's rhythm is not known yet, in
   the first frames after start) comes out as None instead of a number.
5. **reads on without a dead cell.** The DOUTs are pulled down, so an unplugged cell never
   holds a read up; one whose DOUT stops moving is `absent` and reads as None (`_watch`), and
   on DOUTs of their own one held high is masked (`_stalled`). The sensing marks its place
   faulty; the others are read on.

The ring's words: a DOUT snapshot (the cells' levels, bit `position` per cell), or MARK and
then the 24 words of one read (bit `position` of word k: the cell's bit 23 - k). After the read
the program forces a snapshot: the time the read ended.

Two wirings, two programs, one protocol:

- `HX711Array`: every DOUT on a GPIO of its own, consecutive pins (one `in pins, N` samples
  them all at once): up to 30 cells; the 2 x 6 and 2 x 7 boards.
- `HX711Chain`: the DOUTs latched into a chain of 74HC165s (the 2 x 12 board's 26 cells on
  four chips), which shift out each chip's H input first (TI's SN74HC165 datasheet).

Each program fills all 32 instruction slots of PIO block 0 (state machines 0..3); the LEDs
use block 1. MicroPython on the Pico (rp2); under tests, firmware/fakes/ runs the same program
and DMA against the datasheet models.
"""

from array import array

import machine
import rp2

TYPE_CHECKING = False
if TYPE_CHECKING:                   # the PIO assembler's names, for pyright (rp2/asm_pio.pyi)
    from rp2.asm_pio import *       # pyright: ignore[reportWildcardImportFromLibrary]

from controller.sensing.shared_clock import FIXED, ReadPlanner, UPDATE_US

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

try:
    import uctypes
except ImportError:                     # CPython without the fakes: not on a Pico
    uctypes = None

try:
    import fast                         # the Pico: the ring and the planner in native code
except (ImportError, SyntaxError):      # a port without viper (the tests'): plain Python
    fast = None

BITS = const(24)
FREQ = 10000000             # the parallel program's clock: 0.1 us an instruction cycle
CHAIN_FREQ = 8333333        # the chain's: 120 ns a cycle (clk_sys 125 MHz / 15, a whole
                            # divider), the 74HC165 at 3.3 V with margin (see chain_program)
SCK_HIGH_NS = const(500)    # PD_SCK high 0.5 us a pulse (the datasheet wants 0.2..50 us)
STALL_US = const(150000)    # no reading this long: a chip is stuck half read; revive them
MAX_CELLS = const(30)       # a DOUT snapshot is one word below MARK's bits
MAX_CHAIN = const(31)       # a chain's snapshot must never be all ones (MARK)
GAIN_PULSES = {128: 1, 32: 2, 64: 3}   # pulses after the 24th: channel A/128, B/32, A/64
MARK = 0xFFFFFFFF           # in the ring: a read's 24 words follow
RING = const(1024)          # entries of the ring: about 250 ms of readings
TIMERAWL = const(0x40054028)    # the RP2040 timer's low word, in microseconds
PIO0_BASE = const(0x50200000)
RXF0 = const(0x20)
DREQ_PIO0_RX0 = const(4)
TREQ_PERMANENT = const(0x3F)
REBASE = const(0x10000000)  # times are kept below 2**29 us, moved down by this when due
LATE_US = const(200)        # a delay must reach the program this long before the chips are ready
QUEUE = const(8)            # readings kept for a CPU that reads late
MOST_US = const(8000)       # the longest delay the planner may ask for
GONE_US = const(200000)     # a CPU away longer may find the ring gone round: start afresh
ROUND_MARGIN = const(64)    # ... from this many entries after the DMA's, the oldest it keeps
KEEP_US = const(88000)      # a CPU back from longer away parses only the ring's last KEEP_US:
                            # QUEUE readings, 10.7 ms apart; the older would leave the queue
AHEAD = const(4)            # reads `plan_ahead` times at once: the TX FIFO's depth, 40 ms
WATCH_US = const(50000)     # how often the cells are looked at (see _watch)
DEAD_PERIODS = const(3)     # a DOUT that has not moved for this many of its conversions...
DEAD_US = const(250000)     # ... or for this long, its period not known: no HX711 there
IO_BANK0 = const(0x40014000)    # GPIOn_STATUS at + 8n, GPIOn_CTRL at + 8n + 4 (RP2040
INFROMPAD = const(1 << 17)      # datasheet 2.19.6.1): STATUS's pad level before overrides,
INOVER = const(3 << 16)         # CTRL's input override: 0 none, 1 inverted, 2 low, 3 high
INOVER_LOW = const(2 << 16)
WANDER_US = const(30)       # ... each read further ahead planned this much further off the
                            # conversions (a conversion's +-20 us, the moment's own error)


def _signed(word):
    """A 32-bit word as an array('i') holds it."""
    return word - 0x100000000 if word & 0x80000000 else word


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


def _high_cycles(freq, most):
    """The delay that holds PD_SCK high SCK_HIGH_NS at `freq` (the instruction's own cycle
    and this many more), within a delay field that holds `most`."""
    cycles = (SCK_HIGH_NS * (freq // 1000) + 999999) // 1000000
    return min(max(cycles - 1, 0), most)


def parallel_program(cells, pulses, freq=FREQ):
    """The PIO program for `cells` DOUTs on consecutive pins from in_base, run at `freq`; set
    pin 0 is PD_SCK. 31 instructions; the words it pushes are described in the module."""
    high = _high_cycles(freq, 31)   # a closure: asm_pio runs the body with PIO names only

    @rp2.asm_pio(set_init=rp2.PIO.OUT_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT)
    def hx711_parallel():
        mov(y, invert(null))        # y unlike any levels: the first ones are pushed
        wrap_target()
        label("watch")
        mov(isr, null)
        in_(pins, cells)            # every DOUT at once
        mov(x, isr)
        jmp(x_not_y, "changed")
        jmp("watch")
        label("changed")
        push(noblock)               # the new levels, timed by the DMA that takes them
        mov(y, x)
        jmp(not_x, "ready")         # every DOUT low: every chip has a result
        jmp("watch")
        label("ready")
        pull(noblock)               # the delay the CPU asked for, or x (0): none
        mov(x, osr)
        label("delay")
        jmp(x_dec, "delay")
        mov(isr, null)              # still every DOUT low after the delay?
        in_(pins, cells)
        mov(x, isr)
        jmp(x_not_y, "watch")       # no (y is 0): watch, which pushes the change
        mov(isr, invert(null))
        push(block)                 # MARK: the read's words follow
        set(x, 23)
        label("bit")
        set(pins, 1)[high]  # PD_SCK high: each HX711 puts out its next bit
        set(pins, 0)
        mov(isr, null)
        in_(pins, cells)            # sampled 0.2 us after the falling edge
        push(block)                 # the DMA keeps the FIFO empty: this never waits long
        jmp(x_dec, "bit")
        set(x, pulses - 1)
        label("gain")
        set(pins, 1)[high]
        set(pins, 0)[2]
        jmp(x_dec, "gain")
        mov(y, invert(null))        # the levels after the read (all high) are pushed: its end
        wrap()

    return hx711_parallel


def chain_program(freq=CHAIN_FREQ):
    """The PIO program for DOUTs latched into a chain of 74HC165s: set pins 0 PD_SCK and 1 the
    registers' SH/LD (low: load), side-set pin their CLK, in pin the chain's output (the first
    register's QH). 32 instructions, at gain 128 (one pulse after the 24th: channel A).

    Every poll and every bit shifts 32 places: past the last register the chain gives zeros
    (the last SER is tied low), so fewer registers need no other program. Once every DOUT is
    low it takes the CPU's delay, then polls once more (the OSR, still full, says the delay
    was taken): a chip that went into its update meanwhile is waited for, not clocked.

    Its clock, CHAIN_FREQ (120 ns a cycle), keeps the 74HC165 within its datasheet at 3.3 V
    (simulator/parts/hc165.py: TI's and NXP's 2 V and 4.5 V columns at -40..85 C,
    interpolated) with at least a third to spare: CLK high and low and SH/LD low one cycle,
    120 ns (tw 59 ns); SH/LD high two cycles before CLK rises (74 ns); CLK rising every two
    cycles, 240 ns, so that a chained chip's SER, the next one's QH, has settled before the
    next rise (tpd 120 + tsu 59 = 179 ns), and QH, read 16 ns before the next rise by the
    RP2040's synchroniser, 224 ns after it changed (tpd 120). At 25 MHz (40 ns a cycle) it
    broke all of them. A read is 1,783 cycles: 214 us (79 us at 25 MHz), a fiftieth of a
    conversion period."""
    high = _high_cycles(freq, 15)   # a closure: asm_pio runs the body with PIO names only

    @rp2.asm_pio(set_init=(rp2.PIO.OUT_LOW, rp2.PIO.OUT_HIGH), sideset_init=rp2.PIO.OUT_LOW,
                 in_shiftdir=rp2.PIO.SHIFT_LEFT)
    def hx711_chain():
        jmp("force").side(0)        # start with y unlike any levels: the first poll is pushed
        label("changed")
        push(noblock).side(0)       # the new levels, timed by the DMA that takes them
        mov(y, x).side(0)
        jmp(not_x, "ready").side(0)     # every DOUT low: every chip has a result
        wrap_target()
        label("watch")              # (the levels unchanged, or not all low: poll again)
        set(pins, 0b00).side(0)     # SH/LD low: every register takes its DOUTs
        set(pins, 0b10).side(0)     # shift mode: the first register's H on QH
        set(x, 31).side(0)
        label("poll")
        # QH is read as CLK rises: an input reaches the state machine through the RP2040's
        # two-flop synchroniser (2 clk_sys cycles late), so this reads QH from before the edge,
        # while the next bit, out up to 120 ns after it (74HC165 at 3.3 V), is read two
        # cycles later
        in_(pins, 1).side(1)
        jmp(x_dec, "poll").side(0)
        mov(x, isr).side(0)
        jmp(x_not_y, "changed").side(0)
        wrap()
        label("ready")
        jmp(not_osre, "read").side(0)   # the delay was taken and the DOUTs are still low
        pull(noblock).side(0)       # the delay the CPU asked for, or x (0): none
        mov(x, osr).side(0)         # (the OSR stays full until the read: the flag)
        label("delay")
        jmp(x_dec, "delay").side(0)
        label("force")
        mov(y, invert(null)).side(0)    # the next poll's levels are pushed
        jmp("watch").side(0)
        label("read")
        out(null, 32).side(0)       # the flag down
        mov(isr, invert(null)).side(0)
        push(block).side(0)         # MARK: the read's words follow
        set(y, 23).side(0)
        label("bit")
        set(pins, 0b11).side(0)[high]   # PD_SCK high: each HX711's next bit
        set(pins, 0b00).side(0)     # PD_SCK low, SH/LD low: every DOUT's bit latched
        set(pins, 0b10).side(0)
        set(x, 31).side(0)
        label("shift")
        in_(pins, 1).side(1)        # QH read as CLK rises, as in the poll
        jmp(x_dec, "shift").side(0)
        push(block).side(0)
        jmp(y_dec, "bit").side(0)
        set(pins, 0b11).side(0)[high]   # the 25th pulse: channel A at gain 128 next
        set(pins, 0b10).side(0)
        jmp("force").side(0)        # the levels after the read are pushed: its end

    return hx711_chain


def program_cycles(program):
    """The cycles each instruction of an assembled program takes (1 + its delay), read off the
    words, so that what the planner assumes follows the program. The delay field's top bits
    are the side-set's when the program has one (item 7 of asm_pio's list: its pins; bit 30
    of item 3, EXECCTRL: an optional side-set, one bit more)."""
    sideset = program[7]
    bits = 0 if sideset is None else (1 if isinstance(sideset, int) else len(sideset))
    bits += program[3] >> 30 & 1
    mask = (1 << (5 - bits)) - 1
    return [1 + (word >> 8 & mask) for word in program[0]]


class _Ring:
    """Every word the state machine pushes, and the microsecond it was pushed at, copied into
    RAM round and round by two chained DMA channels: one takes the word from the RX FIFO when
    it arrives, then triggers the other, which copies the timer's TIMERAWL beside it and
    triggers the first again. Each ring is `entries` words in a buffer aligned to its size (a
    DMA ring wraps on its address bits)."""

    def __init__(self, sm_id, entries=RING):
        size = 4 * entries
        bits = 0
        while 1 << bits < size:
            bits += 1
        if 1 << bits != size:
            raise ValueError("hx711: a ring of %d entries is not a power of two" % entries)
        self.entries = entries
        self._keep = []                 # the buffers, so that they outlive their addresses
        self.words = self._aligned(size)
        self.times = self._aligned(size)
        # every entry stamped now, so that the ring's times rise from the oldest entry round
        # to the newest before it has gone round once (a reader taken up late bisects them)
        now = machine.mem32[TIMERAWL]
        for at in range(self.times, self.times + size, 4):
            machine.mem32[at] = now
        self._word = rp2.DMA()
        self._time = rp2.DMA()
        # rp2.DMA's channel, read, write, count and ctrl are attributes (MicroPython's
        # ports/rp2/rp2_dma.c); micropython-rp2-rpi-pico-stubs 1.27.0.post1 lacks them
        word_channel = self._word.channel  # pyright: ignore[reportAttributeAccessIssue]
        time_channel = self._time.channel  # pyright: ignore[reportAttributeAccessIssue]
        block, machine_index = sm_id // 4, sm_id % 4
        fifo = PIO0_BASE + 0x100000 * block + RXF0 + 4 * machine_index
        self._word.config(
            read=fifo, write=self.words, count=1,
            ctrl=self._word.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_size=bits,
                                      ring_sel=True, chain_to=time_channel,
                                      treq_sel=DREQ_PIO0_RX0 + 8 * block + machine_index,
                                      irq_quiet=True))
        self._time.config(
            read=TIMERAWL, write=self.times, count=1,
            ctrl=self._time.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_size=bits,
                                      ring_sel=True, chain_to=word_channel,
                                      treq_sel=TREQ_PERMANENT, irq_quiet=True))
        self._word.active(1)
        self.taken = 0                  # entries the CPU has taken, modulo `entries`

    def _aligned(self, size):
        """The address of `size` bytes of RAM aligned to `size` (allocated twice as large)."""
        buffer = bytearray(2 * size)
        self._keep.append(buffer)
        start = uctypes.addressof(buffer)
        return (start + size - 1) & ~(size - 1)

    def written(self):
        """The index of the next entry the DMA will complete (its pair of words both in)."""
        written = self._time.write  # pyright: ignore[reportAttributeAccessIssue] (see __init__)
        return (written - self.times) // 4 % self.entries

    def close(self):
        self._word.active(0)
        self._time.active(0)
        self._word.close()
        self._time.close()


class _Reader:
    """What both wirings share: the state machine, its ring, the planner, the readings.

    Two ways through the ring, with the same results: on the Pico `fast.drain` does it all
    natively (the ring's parse, the planner, the unpacking, the queue); elsewhere (the tests'
    runtimes, which have no native code) the plain Python here, `_entry` and the methods after
    it, with controller.sensing.shared_clock.ReadPlanner: the reference the native code is
    checked against."""

    def _start(self, state_machine, program, positions, read_cycles, freq, sck, clock,
               lag_cycles=0, **pins):
        self.channels = len(positions)
        self.positions = positions
        self.freq = freq
        self.sck = sck
        self.delays = 0                 # reads the planner moved
        self.late = 0                   # reads whose delay came too late to send
        self.restarts = 0               # times the ring went round under a CPU away too long
        self.passed_over = 0            # times older entries were passed over (see _pass_over)
        # back from longer away, only the ring's last keep_us is parsed: QUEUE readings for a
        # bridge, whose host wants every one it can have; a guide wants only the newest
        self.keep_us = KEEP_US
        self.revivals = 0               # times the chips were reset after a stall
        self.absent = 0                 # cells whose readings come out None (see _watch)
        self.masked = 0                 # cells whose DOUT input is forced low (see _stalled)
        self.masks = 0                  # times a cell was masked
        self._gpios = None              # each cell's DOUT GPIO, where it has one of its own
        self._stand_in = [-1] * self.channels   # a silent cell's end as _watch put it
        self._clock = clock
        self._program = program
        self._pins = pins
        # the read as the planner sees it: from when it is planned to its last pulse
        self._read_us = (read_cycles + lag_cycles) * 1000 // (freq // 1000) + 1
        self.planner = self._new_planner()
        self._epoch = None
        self._last_reading = None
        self._next_read = 0             # the next read's number (frames + 1) once planned,
        self._next_ready = 0            # when the program will find every DOUT low for it,
        self._next_wait = 0             # the delay it is to take then (us),
        self._next_sent = False         # and whether that delay went to the program
        self._ahead_to = 0              # the reads up to this number have their delays queued
        self._sm = rp2.StateMachine(state_machine, program, freq=freq, **pins)
        self._pio = rp2.PIO(state_machine // 4)   # the block its program is loaded into
        self._ring = _Ring(state_machine)
        if fast is None:
            self._frames = 0
            self._untrusted = 0
            self._queue = []            # (values, trusted) of the readings not yet taken
            self._spare = []            # their arrays, given back, for the next readings
        else:                           # what fast.drain works on (see there)
            self._positions8 = bytearray(positions)
            self._scratch = array("i", [0] * (fast.ROWS + 6))
            self._slots = array("i", [0] * (QUEUE * (1 + self.channels)))
            self._values = array("i", [0] * self.channels)
            context = self._context = array("i", [0] * fast.CONTEXT)
            context[fast.WORDS] = self._ring.words
            context[fast.TIMES] = self._ring.times
            context[fast.ENTRIES] = self._ring.entries
            context[fast.POSITIONS] = uctypes.addressof(self._positions8)
            self._cells_at = fast.cells_at(self._positions8)
            context[fast.CELLS_AT] = uctypes.addressof(self._cells_at)
            context[fast.SCRATCH] = uctypes.addressof(self._scratch)
            context[fast.QUEUE] = uctypes.addressof(self._slots)
            context[fast.SLOTS] = QUEUE
            context[fast.MOST_US] = MOST_US
            context[fast.TIMER] = TIMERAWL
        self._forget()
        # when the ring was last drained (us after the epoch); the first drain is one back
        # from an absence since now (a firmware that replays a journal before its loop finds
        # a ring full of readings it parses only keep_us of)
        self._last_drain = self._now()
        self._sm.active(1)

    @property
    def frames(self):
        """Readings made (every cell trusted or not)."""
        return self._frames if fast is None else self._context[fast.FRAMES]

    @property
    def untrusted(self):
        """Cell readings given as None."""
        return self._untrusted if fast is None else self._context[fast.UNTRUSTED]

    def _new_planner(self):
        if fast is not None:
            return fast.Planner(self.channels, self._read_us)
        return ReadPlanner(self.channels, self._read_us)

    def _forget(self):
        """Nothing known of the ring's stream: the next levels seen start it afresh."""
        self._snapshot = -1             # the last levels seen (-1: none yet)
        self._block = None              # the read under way in the ring: its words
        self._start_us = 0
        self._after_read = False
        self._seeking = False           # True: nothing is parsed before the next read's MARK
        self._end_us = 0                # when the newest reading's read ended
        self._next_read = 0             # no plan in force: plan_ahead waits for one
        self._watch_from = self._watched_at = self._now()   # DOUTs watched since then
        if fast is not None:
            context = self._context
            context[fast.HAVE] = context[fast.LEVELS] = context[fast.START] = 0
            context[fast.AFTER] = context[fast.PLANNED] = 0
            context[fast.BLOCK] = -1
            state = self.planner.state  # pyright: ignore[reportAttributeAccessIssue]
            context[fast.PLANNER] = uctypes.addressof(state)

    def _revive(self):
        """No reading for STALL_US: a chip left half read (noise on PD_SCK, a dip of its
        supply) holds its DOUT at a data bit, and the program, waiting for every DOUT low,
        would wait for ever. Power every chip down (PD_SCK high 1 ms: over 60 us does it, the
        datasheet says) and up again: they start afresh at channel A, gain 128, their
        rhythms to be learnt again."""
        self._sm.active(0)
        pin = machine.Pin(self.sck, machine.Pin.OUT, value=1)
        self._clock.sleep_ms(1)
        pin.value(0)
        self._sm.init(self._program, freq=self.freq, **self._pins)    # the pins back to it
        self.planner = self._new_planner()
        self._forget()
        self._last_reading = None
        self._sm.active(1)
        self.revivals += 1

    # --- the cells that are not there ------------------------------------------------------

    def _watch(self, now):
        """Which cells are there (every WATCH_US). A live HX711's DOUT moves at least once a
        conversion: it falls when a result is ready, rises at a read's 25th pulse or while
        an unread result is replaced. One whose DOUT the ring has not seen move for
        DEAD_PERIODS of its periods (DEAD_US while its period is not known) has no chip
        behind it: unplugged (the pull-down holds its DOUT low, which the program takes for a
        result ready, and reads as 0), without power, or with its PD_SCK wire off. Its
        readings come out None from then on, never as a weight; the sensing marks its place
        faulty (controller.sensing.counting: no reading for stuck_ms) and the game goes on,
        its steps confirmed by hand. A DOUT that moves again is a cell back. A masked cell
        (see `_stalled`) whose pad reads low (a chip with a result ready) is given back to
        the program."""
        self._watched_at = now
        planner = self.planner
        ends, periods, measured = planner.ends, planner.periods, planner.measured
        since = self._watch_from
        stand_in = self._stand_in
        gone = 0
        for cell in range(self.channels):
            last = ends[cell]
            if self.absent >> cell & 1 and last == stand_in[cell]:
                gone |= 1 << cell               # still silent: the planner's is a stand-in
                continue
            if last < since:
                last = since
            if now - last > (DEAD_PERIODS * periods[cell] // FIXED if measured[cell] > 0
                             else DEAD_US):
                gone |= 1 << cell
        if gone:
            # the planner would go on planning the reads around a silent cell's conversions
            # (and wait for a rhythm it never learns): each is given a live cell's rhythm,
            # a stand-in that adds no constraint of its own, renewed at every look; the
            # planner's seeing the cell's DOUT move again replaces it
            twin = 0
            while twin < self.channels and (gone >> twin & 1 or measured[twin] <= 0):
                twin += 1
            if twin < self.channels:
                for cell in range(self.channels):
                    if gone >> cell & 1:
                        ends[cell] = stand_in[cell] = ends[twin]
                        periods[cell] = periods[twin]
                        measured[cell] = measured[twin]
        if self.masked:
            for cell in range(self.channels):
                if self.masked >> cell & 1 and not machine.mem32[
                        IO_BANK0 + 8 * self._gpios[cell]] & INFROMPAD:
                    self._override(cell, 0)
        self.absent = gone | self.masked

    def _stalled(self):
        """No reading for STALL_US: the program waits for a DOUT that stays high. On DOUTs of
        their own (HX711Array), the cells high in the last levels seen while others were low
        are what it waits for (a chip without power behind a pull-up, in power-down, or
        stuck): each is masked, its GPIO's input forced low for the PIO by IO_BANK0's
        GPIOn_CTRL.INOVER (RP2040 datasheet 2.19.6.1), its readings None, and the others are
        read on. Then every chip is revived (a chip left half read starts afresh; one that
        was masked for it has a result ready 11 ms later and is given back, see `_watch`).
        A 74HC165 chain has no input to mask: it is revived, and read again once the chip
        that held it lets its DOUT fall (its pull-down resistor takes an unplugged one low)."""
        if self._gpios is not None:
            held = self._held()
            if held and held != (1 << self.channels) - 1:
                for cell in range(self.channels):
                    if held >> cell & 1:
                        self._override(cell, INOVER_LOW)
                        self.masks += 1
                self.absent |= self.masked
        self._revive()

    def _held(self):
        """The cells high in the last DOUT levels the ring gave (a bitmask by cell)."""
        if fast is None:
            word = self._snapshot
            if word < 0:
                return 0
        else:
            if not self._context[fast.HAVE]:
                return 0
            word = self._context[fast.LEVELS]
        held = 0
        for cell in range(self.channels):
            if word >> self.positions[cell] & 1:
                held |= 1 << cell
        return held

    def _override(self, cell, inover):
        """Cell's DOUT GPIO as the PIO sees it: INOVER_LOW (masked) or 0 (its pad's level)."""
        ctrl = IO_BANK0 + 8 * self._gpios[cell] + 4
        machine.mem32[ctrl] = machine.mem32[ctrl] & ~INOVER | inover
        if inover:
            self.masked |= 1 << cell
        else:
            self.masked &= ~(1 << cell)

    # --- time ------------------------------------------------------------------------------

    def _us(self, raw):
        """A timer word as microseconds since this reader's epoch (a small int; negative
        for a word from before it, as a ring's first entries may be)."""
        if self._epoch is None:
            self._epoch = raw
            if fast is not None:
                self._context[fast.EPOCH] = _signed(raw)
        return _signed((raw - self._epoch) & 0xFFFFFFFF)

    def _now(self):
        """The timer now, in us after the epoch (a small int: no allocation on the Pico)."""
        if self._epoch is not None and fast is not None:
            return fast.elapsed(self._context)
        return self._us(machine.mem32[TIMERAWL] & 0xFFFFFFFF)

    def _rebase(self, t_us):
        """Keep every time a small int: past 2 * REBASE us, move the epoch (and every time
        kept) on by REBASE. Called once a drain, with the latest time it saw."""
        if t_us < 2 * REBASE:
            return
        self._epoch = (self._epoch + REBASE) & 0xFFFFFFFF
        self.planner.shift(-REBASE)
        self._start_us -= REBASE
        self._next_ready -= REBASE
        self._last_drain -= REBASE
        self._watch_from -= REBASE
        self._watched_at -= REBASE
        stand_in = self._stand_in
        for cell in range(self.channels):
            if self.absent >> cell & 1:
                stand_in[cell] -= REBASE    # as the planner's ends were (shift)
        if self._last_reading is not None:
            self._last_reading -= REBASE
        if fast is not None:
            context = self._context
            context[fast.START] -= REBASE
            context[fast.LAST] -= REBASE
            context[fast.EPOCH] = _signed(self._epoch)

    # --- the readings ------------------------------------------------------------------------

    def read(self):
        """The oldest reading not yet taken — a list of signed ints, None for a cell whose
        reading could not be trusted — or None when there is none. Never blocks."""
        if fast is None:
            self._drain()
            if not self._queue:
                return None
            values, trusted = self._queue.pop(0)
            self._spare.append(values)
            trusted &= ~self.absent
        else:
            values = self._values
            trusted = self.take(values)
            if trusted < 0:
                return None
        return [values[cell] if trusted >> cell & 1 else None
                for cell in range(self.channels)]

    def take(self, values):
        """`read` without a list: the oldest reading into `values` (an array('i') of
        `channels`), and the bitmask of the cells to trust (bit c for cell c); -1 when there
        is none. Never blocks; allocates nothing on the Pico (the bridge sends every reading
        this way). A cell not there (see `_watch`) is never trusted."""
        self._drain()
        if fast is not None:
            trusted = fast.take(self._context, values)
            return trusted if trusted < 0 else trusted & ~self.absent
        if not self._queue:
            return -1
        mine, trusted = self._queue.pop(0)
        self._spare.append(mine)
        values[:] = mine
        return trusted & ~self.absent

    def periods_us(self):
        """Each cell's conversion period as measured from its DOUT (0 while not known): about
        10,700 us at RATE high, 85,600 at RATE low (a breakout left at 10 samples a second)."""
        return [self.planner.period_us(cell) for cell in range(self.channels)]

    # --- the ring --------------------------------------------------------------------------

    def _drain(self):
        ring = self._ring
        end = ring.written()
        now = self._now()
        if now - self._last_drain > self.keep_us:
            if now - self._last_drain > GONE_US:
                # away so long that the ring may have gone round: what was taken last may be
                # overwritten; its oldest entries are those after `end` (the first few left
                # to the DMA, which goes on writing them while they are parsed)
                self.restarts += 1
                ring.taken = (end + ROUND_MARGIN) % ring.entries
            self._pass_over(ring, end, now - self.keep_us)
        self._last_drain = now
        if self._last_reading is None:
            self._last_reading = now
        if end != ring.taken:
            self._parse(ring, end, now)
        if now - self._watched_at >= WATCH_US:
            self._watch(now)
        # no reading for STALL_US: a chip is stuck (a CPU that was away as long, writing the
        # flash, has just parsed the readings of meanwhile)
        if now - self._last_reading > STALL_US and self._clock is not None:
            self._stalled()

    def _parse(self, ring, end, now):
        """The ring's new entries, up to `end`, parsed into readings and the chips' rhythms."""
        if fast is None:
            self._drain_plain(ring, end, now)
            return
        context = self._context
        context[fast.TAKEN] = ring.taken
        context[fast.END] = end
        if fast.drain(context):
            self._last_reading = now
            if self.planner.all_known():
                self._planned(context[fast.FRAMES] + 1, context[fast.READY],
                              context[fast.DELAY])
        ring.taken = end
        context[fast.PLANNED] = 0
        self._rebase(context[fast.LAST])

    def _pass_over(self, ring, end, since_us):
        """Back from a long absence (a flash write: up to 200 ms), pass over the ring's entries
        from before `since_us` unparsed: the readings among them would leave the queue anyway,
        and parsing them took a Pico 0.75 ms a reading (16 ms after a flash write). The parse
        starts again at the first read after them. The planner keeps every chip's rhythm:
        the conversions it did not see are counted in whole periods at the next one it sees
        (ReadPlanner.saw_end). The readings queued before the absence and not yet taken
        are older still: they go too (a guide fed them first would count what the players
        have since moved)."""
        taken, entries = ring.taken, ring.entries
        times = ring.times
        mem32 = machine.mem32
        low, high = 0, (end - taken) % entries      # the entries' times rise from `taken`:
        while low < high:                           # the first one at or after since_us
            middle = (low + high) // 2
            if self._us(mem32[times + 4 * ((taken + middle) % entries)] & 0xFFFFFFFF) < \
                    since_us:
                low = middle + 1
            else:
                high = middle
        ring.taken = (taken + low) % entries
        if fast is None:
            while self._queue:
                self._spare.append(self._queue.pop()[0])
        else:
            self._context[fast.COUNT] = 0
        self._forget()
        self._seek()
        self.passed_over += 1

    def _seek(self):
        """Parse nothing before the next read's MARK (the ring is taken up anywhere: in the
        middle of a read its words would read as DOUT levels)."""
        self._seeking = True
        if fast is not None:
            self._context[fast.AFTER] = fast.SEEK

    def _planned(self, read, ready, wait):
        """The planner's plan for read number `read`: its delay to the program, unless
        `plan_ahead` queued it already or the chips may be ready already (then it would delay
        the read after, which it was not planned for: leave it to `trusted`)."""
        self._next_read = read
        self._next_ready = ready
        self._next_wait = wait
        self._next_sent = False
        if not wait or read <= self._ahead_to:
            return
        if self._now() > ready - LATE_US:
            self.late += 1
            return
        self._sm.put(self._cycles(wait))
        self._next_sent = True
        self.delays += 1

    def _cycles(self, wait_us):
        """A delay of `wait_us` as the program's delay loop counts it: one cycle a count
        (the chain's 8.33 MHz is no whole number of MHz: 8,000 us is 66,664 counts)."""
        return wait_us * (self.freq // 1000) // 1000

    def plan_ahead(self, reads=AHEAD):
        """Put the delays of the next `reads` reads (up to AHEAD, the program's TX FIFO) in
        the program's FIFO now, so that they stay planned while the CPU is away: a garbage
        collection takes 25 to 30 ms on a Pico, three conversions, and unplanned reads are
        trusted less (on a 74HC165 chain, whose reads are long, seldom). True when they are
        queued; False when that cannot be done now (the chips' rhythms not learnt yet, the
        next read too near or under way: try again after the next reading).

        Call it just after a reading came in (`take` or `read` gave one), then be away."""
        if not (0 < reads <= AHEAD) or self._next_read != self.frames + 1 or (
                self._ahead_to >= self._next_read):
            return False
        ready, wait = self._next_ready, self._next_wait
        if self._now() > ready - LATE_US or self._sm.tx_fifo() != int(self._next_sent):
            return False
        if not self._next_sent:
            self._sm.put(self._cycles(wait))
        planner = self.planner
        widen = 0
        for _ in range(reads - 1):      # each read planned from the end the one before has,
            widen += WANDER_US          # kept further from the conversions the further ahead
            ready, wait = planner.plan(ready + wait + self._read_us, MOST_US, widen)
            self._sm.put(self._cycles(wait))
        self._ahead_to = self._next_read + reads - 1
        return True

    # --- the ring in plain Python (the reference of fast.drain) ------------------------------

    def _drain_plain(self, ring, end, now):
        taken = ring.taken
        words, times, entries = ring.words, ring.times, ring.entries
        mem32 = machine.mem32
        frames = self._frames
        while taken != end:
            # mem32 gives signed words (0xFFFFFFFF is -1): as unsigned
            self._entry(mem32[words + 4 * taken] & 0xFFFFFFFF,
                        self._us(mem32[times + 4 * taken] & 0xFFFFFFFF))
            taken = (taken + 1) % entries
        ring.taken = taken
        if self._frames != frames and self.planner.all_known():
            # the next read planned once, from the newest reading
            ready, wait = self.planner.plan(self._end_us, MOST_US)
            self._planned(self._frames + 1, ready, wait)
        self._rebase(now)

    def _entry(self, word, t_us):
        block = self._block
        if block is not None:
            block.append(word)
            if len(block) == BITS:
                self._block = None
                self._after_read = True
                self._done = block
            return
        if word == MARK:
            self._block = []
            self._start_us = t_us
            self._seeking = False
            return
        if self._seeking:
            return
        if self._after_read:
            self._after_read = False
            self._snapshot = word
            self._reading(self._done, t_us)
            return
        self._levels(word, t_us)

    def _levels(self, word, t_us):
        """New DOUT levels: each fall is a conversion's end 75 us before, each rise one whose
        result nobody read."""
        previous = self._snapshot
        self._snapshot = word
        if previous < 0:
            return
        changed = word ^ previous
        if not changed:
            return
        planner = self.planner
        positions = self.positions
        for cell in range(self.channels):
            bit = 1 << positions[cell]
            if changed & bit:
                planner.saw_end(cell, t_us if word & bit else t_us - UPDATE_US)

    def _reading(self, words, end_us):
        """A read from `_start_us` to `end_us` (its 24 words): queued with the cells to trust
        (the drain plans the next read once it has parsed everything)."""
        values = self._spare.pop() if self._spare else array("i", [0] * self.channels)
        got = unpack(words, self.positions)
        for cell in range(self.channels):
            values[cell] = got[cell]
        planner = self.planner
        trusted = planner.trusted(self._start_us, end_us)
        for cell in range(self.channels):
            if not trusted >> cell & 1:
                self._untrusted += 1
        self._frames += 1
        self._last_reading = self._last_drain
        if len(self._queue) >= QUEUE:
            self._spare.append(self._queue.pop(0)[0])
        self._queue.append((values, trusted))
        self._end_us = end_us

    def close(self):
        """Stop the state machine and the DMA and free the program's 32 instruction slots
        (PD_SCK stays low: the HX711s keep converting). A reader made again after it, at the
        REPL, finds its PIO block free (it would fail with ENOMEM)."""
        self._sm.active(0)
        for cell in range(self.channels):
            if self.masked >> cell & 1:
                self._override(cell, 0)
        self._ring.close()
        self._pio.remove_program(self._program)


class HX711Array(_Reader):
    """HX711s on one clock pin `sck`, each DOUT on a GPIO of its own, the GPIOs consecutive in
    any order (see the module). `state_machine` 0..3 (block 0); `clock` the firmware's clock
    (clock.py), which a revival sleeps on."""

    def __init__(self, sck, data, gain=128, state_machine=0, freq=FREQ, clock=None):
        # which pins exist and that each is used once, config.py checks for the whole board
        if not isinstance(data, (list, tuple)) or not data:
            raise ValueError("hx711: data must list one GPIO per cell")
        if len(data) > MAX_CELLS:
            raise ValueError("hx711: %d cells are over the %d one PIO program reads directly; "
                             "latch them into 74HC165s (HX711Chain)" % (len(data), MAX_CELLS))
        base = min(data)
        if sorted(data) != list(range(base, base + len(data))):
            raise ValueError("hx711: the data pins %s are not consecutive GPIOs: one PIO "
                             "sample reads them all at once" % (sorted(data),))
        if state_machine not in (0, 1, 2, 3):
            raise ValueError("hx711: state machine %r: the program needs PIO block 0 (0..3)"
                             % (state_machine,))
        pulses = gain_pulses(gain)
        for pin in data:
            # pulled down: an unplugged cell's DOUT reads low, never stops the reads (see
            # _watch), where a pull-up (or a floating pin) would hold every read up
            machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_DOWN)
        self.gain = gain
        self.data = list(data)
        program = parallel_program(len(data), pulses, freq)
        # a read, from the instruction after MARK's push (19) through the 24 bits (20..25)
        # and the gain pulses (27..29)
        cycles = program_cycles(program)
        read = cycles[19] + BITS * sum(cycles[20:26]) + cycles[26] + pulses * sum(
            cycles[27:30])
        self._start(state_machine, program, [pin - base for pin in data], read, freq, sck,
                    clock, in_base=machine.Pin(base), set_base=machine.Pin(sck))
        self._gpios = list(data)


class HX711Chain(_Reader):
    """HX711s on one clock pin `sck`, their DOUTs latched into a chain of 74HC165s: SH/LD on
    GPIO sck + 1 (PD_SCK and SH/LD are the program's two set pins), CLK on `shift` (sck + 2 by
    default), the chain's
    output on `serial` (the first register's QH). Cell k is wired to chain input k: input
    "ABCDEFGH"[k % 8] of register k // 8 (the profiles' `sr.k`); inputs left over are tied
    low. A 74HC165 shifts out its H input first (TI's SN74HC165 datasheet: QH is the last
    flip-flop), then G ... A, then the next register's H: `chain_position` says where each
    cell's bit comes. Up to 31 cells (four registers, one input tied low), at gain 128."""

    def __init__(self, sck, serial, cells, gain=128, state_machine=0, freq=CHAIN_FREQ,
                 shift=None, clock=None):
        if sck > 27:
            raise ValueError("hx711: clock pin %d leaves no room for SH/LD and CLK on the next "
                             "two GPIO" % sck)
        if isinstance(cells, bool) or not isinstance(cells, int) or not (
                1 <= cells <= MAX_CHAIN):
            raise ValueError("hx711: a chain reads 1..%d cells (four 74HC165s, one input "
                             "tied low), not %r" % (MAX_CHAIN, cells))
        if state_machine not in (0, 1, 2, 3):
            raise ValueError("hx711: state machine %r: the program needs PIO block 0 (0..3)"
                             % (state_machine,))
        if gain != 128:
            raise ValueError("hx711: a 74HC165 chain reads channel A at gain 128 (its program "
                             "fills the PIO block), not gain %r" % (gain,))
        machine.Pin(serial, machine.Pin.IN)
        self.gain = gain
        program = chain_program(freq)
        # a read, from the instruction after MARK's push (20) through the 24 bits (21..28: a
        # pulse and a latch, 32 shifts, a push) and the gain pulse (29..30)
        cycles = program_cycles(program)
        read = cycles[20] + BITS * (sum(cycles[21:25]) + 32 * sum(cycles[25:27])
                                    + sum(cycles[27:29])) + sum(cycles[29:31])
        # ... and the program's lag before it, which the planner must allow for: the last
        # DOUT to fall is seen at the end of the poll after it, and after the delay one
        # more poll (4..10: SH/LD, 32 shifts, the compare) and the way to MARK (1..3,
        # 11..19) come first. 150 cycles, 18 us at CHAIN_FREQ (a parallel read's lag, a few
        # cycles, is within the planner's SLACK_US)
        poll = sum(cycles[4:7]) + 32 * sum(cycles[7:9]) + sum(cycles[9:11])
        lag = 2 * poll + sum(cycles[1:4]) + sum(cycles[11:20])
        # 32 shifts a word: the first bit out ends up highest
        positions = [31 - chain_position(k) for k in range(cells)]
        self._start(state_machine, program, positions, read, freq, sck, clock,
                    lag_cycles=lag, in_base=machine.Pin(serial), set_base=machine.Pin(sck),
                    sideset_base=machine.Pin(sck + 2 if shift is None else shift))
