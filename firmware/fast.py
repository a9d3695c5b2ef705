"""The firmware's hot paths in native code (`@micropython.viper`), for the Pico alone.

MicroPython runs Python on an RP2040 about 60 times slower than a laptop runs it (about 1,900
pystones a second on the emulated Pico at 125 MHz, firmware/emulator/README.md), too slow for
the work of a frame done a byte or a bit at a time: taking the HX711s' ring apart, learning and
planning their rhythm, turning 24 words into 26 readings, filling an LED strip's words. Viper
compiles these functions to Thumb code (mpy-cross -march=armv6m, as `layli firmware deploy --mpy` does), with
native 32-bit integers and raw pointers.

Each function here does exactly what a plain-Python one elsewhere does, and is checked against
it on the emulated Pico (tests/test_emulated_pico.py); the plain one is the reference, and what
every other runtime (the tests' CPython and MicroPython under node, which have no native
emitter) runs:

- `pack`, `pack_places`: leds.pack, leds.pack_places;
- `channel_sum`, `scale_bytes`: `sum` and controller.guide.pixels.scale_bytes, the strip's
  current cap (`pixels.accelerate` takes them);
- `Planner`: controller.sensing.shared_clock.ReadPlanner (the same methods, on arrays);
- `drain`: the ring's parsing in hx711._Reader (`_entry`, `_levels`);
- `elapsed`: hx711._Reader._us of the timer's word;
- `unpack`: hx711.unpack;
- `counting`: the ordinary channels' share of controller.sensing.counting's per-frame filter
  (`CountingSensor._step`), on its flat table;
- `weigh`: controller.sensing.weighing.weigh, a judgement's candidate counts in whole
  numbers.

A module that holds viper code cannot even be compiled where there is no native emitter:
importers catch the ImportError or SyntaxError and keep the plain functions.
"""

import array
import sys

if sys.implementation.name != "micropython":    # Blinka's CPython `micropython` is no emitter
    raise ImportError("fast.py is native code for MicroPython on the Pico")

import micropython                              # noqa: E402
from micropython import const                   # noqa: E402

UNKNOWN = const(-1)
FIXED = const(16)
SLACK = const(5)
BITS = const(24)
ROWS = const(32)            # a read's words and zeros: a square of bits
NO_PLACE = const(255)


# --- the LED strip --------------------------------------------------------------------------

@micropython.viper
def _pack(pixels: ptr8, n: int, words: ptr8, r: int, g: int, b: int):
    j = 0
    for i in range(0, 3 * n, 3):
        words[j + r] = pixels[i]
        words[j + g] = pixels[i + 1]
        words[j + b] = pixels[i + 2]
        j += 4


def pack(pixels, words, at):
    """leds.pack: R, G, B bytes into the LED words, colour c into byte at[c] of each."""
    _pack(pixels, len(pixels) // 3, words, at[0], at[1], at[2])


@micropython.viper
def _pack_places(colours: ptr8, led_place: ptr8, n: int, words: ptr8, r: int, g: int, b: int):
    j = 0
    for i in range(n):
        place = led_place[i]
        if place == NO_PLACE:
            words[j + r] = 0
            words[j + g] = 0
            words[j + b] = 0
        else:
            k = 3 * place
            words[j + r] = colours[k]
            words[j + g] = colours[k + 1]
            words[j + b] = colours[k + 2]
        j += 4


def pack_places(colours, led_place, words, at):
    """leds.pack_places: a colour per place into the LED words."""
    _pack_places(colours, led_place, len(led_place), words, at[0], at[1], at[2])


# --- the strip's current cap (controller.guide.pixels.cap_pixels) ------------------------------

# while loops: on the emulated RP2040 a viper `for i in range(n)` summed 528 bytes in 214 us,
# this loop in 118 us

@micropython.viper
def _channel_sum(data: ptr8, n: int) -> int:
    total = 0
    i = 0
    while i < n:
        total += data[i]
        i += 1
    return total


def channel_sum(data):
    """sum(data): a strip's R, G, B bytes added up (0..255 each)."""
    return _channel_sum(data, len(data))


@micropython.viper
def _scale_bytes(data: ptr8, n: int, scale: int):
    i = 0
    while i < n:
        data[i] = (data[i] * scale) >> 8
        i += 1


def scale_bytes(data, scale):
    """controller.guide.pixels.scale_bytes: every byte of the bytearray `data` times `scale`
    / 256, in place; nothing at 256."""
    if scale < 256:
        _scale_bytes(data, len(data), scale)


# --- the link's framing (controller.protocol.framing) -----------------------------------------

def _crc_table():
    table = array.array("H", [0] * 256)
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table[byte] = crc & 0xFFFF
    return table


_TABLE = _crc_table()


@micropython.viper
def _crc16(data: ptr8, n: int, crc: int, table: ptr16) -> int:
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
        i += 1
    return crc


def crc16(data, crc=0xFFFF):
    """framing.crc16: CRC-16/CCITT-FALSE."""
    return _crc16(data, len(data), crc, _TABLE)


@micropython.viper
def _cobs(data: ptr8, n: int, out: ptr8) -> int:
    code_at = 0                 # where the block's code byte goes
    code = 1
    at = 1
    full = 0                    # the last block written was full (254 bytes, no zero)
    for i in range(n):
        byte = data[i]
        if byte == 0:
            out[code_at] = code
            code_at = at
            at += 1
            code = 1
            full = 0
        else:
            out[at] = byte
            at += 1
            code += 1
            full = 0
            if code == 0xFF:
                out[code_at] = code
                code_at = at
                at += 1
                code = 1
                full = 1
    if full:
        return at - 1           # data that ends on a full block needs no final, empty block
    out[code_at] = code
    return at


def cobs_encode(data):
    """framing.cobs_encode: `data` with every zero byte stuffed away."""
    out = bytearray(len(data) + len(data) // 254 + 2)
    return bytes(out[:_cobs(data, len(data), out)])


@micropython.viper
def _sensors(out: ptr8, seq: int, time_ms: int, values: ptr32, missing: int, n: int,
             table: ptr16) -> int:
    """The payload of Sensors(time_ms, values).encode(seq), protocol 2, into out[0:]: its
    length. Channel c is missing when bit c of `missing` is set."""
    out[0] = 2                              # protocol version
    out[1] = 3                              # Sensors
    out[2] = (seq >> 8) & 0xFF
    out[3] = seq & 0xFF
    out[4] = (time_ms >> 24) & 0xFF
    out[5] = (time_ms >> 16) & 0xFF
    out[6] = (time_ms >> 8) & 0xFF
    out[7] = time_ms & 0xFF
    out[8] = n
    at = 9
    masks = (n + 7) >> 3
    for k in range(masks):
        out[at + k] = (missing >> (8 * k)) & 0xFF
    at += masks
    for c in range(n):
        if (missing >> c) & 1:
            v = 0
        else:
            v = values[c]
        out[at] = (v >> 16) & 0xFF
        out[at + 1] = (v >> 8) & 0xFF
        out[at + 2] = v & 0xFF
        at += 3
    crc = 0xFFFF
    i = 0
    while i < at:
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ out[i]) & 0xFF]
        i += 1
    out[at] = (crc >> 8) & 0xFF
    out[at + 1] = crc & 0xFF
    return at + 2


class SensorsFrames:
    """Whole wire frames of Sensors messages (payload, CRC, COBS, delimiter), as
    `encode_frame(Sensors(time_ms, values).encode(seq))` gives them, built natively:

        frames = SensorsFrames(14)
        link.send_encoded(Sensors.KIND, lambda seq: frames.frame(seq, t, values, missing))
    """

    def __init__(self, channels):
        self.channels = channels
        size = 9 + (channels + 7) // 8 + 3 * channels + 2
        self._payload = bytearray(size)
        self._out = bytearray(size + size // 254 + 3)

    def frame(self, seq, time_ms, values, missing):
        """`values` an array('i') of the readings, `missing` a bitmask of the channels with
        none."""
        length = _sensors(self._payload, seq, time_ms, values, missing, self.channels, _TABLE)
        out = self._out
        size = _cobs(memoryview(self._payload)[:length], length, out)
        out[size] = 0
        return memoryview(out)[:size + 1]


# --- the HX711s' readings ---------------------------------------------------------------------

@micropython.viper
def _transpose(rows: ptr32):
    """The 32 x 32 bits of `rows` transposed in place (Hacker's Delight, 7-3): afterwards
    rows[31 - b] holds bit b of every row before, row 0's in its top bit. Five rounds of
    swapping blocks of bits: 80 steps where reading 24 bits of 26 cells one by one took 624.
    Every shift right is masked, so that a sign carried in does not matter."""
    j = 16
    m = 0x0000FFFF
    while j != 0:
        k = 0
        while k < 32:
            t = (rows[k] ^ (rows[k + j] >> j)) & m
            rows[k] = rows[k] ^ t
            rows[k + j] = rows[k + j] ^ (t << j)
            k += 1                  # the next row without bit j ((k + j + 1) & ~j; but
            if k & j:               # `~` in viper clobbers its operand in MicroPython 1.27:
                k += j              # micropython/micropython#14397, fixed after it by #19508)
        j = j >> 1
        m = m ^ (m << j)


def cells_at(positions):
    """The bytearray(32) drain looks a changed bit's cell up in: for the cell at bit
    `positions[cell]` of the levels, the entry at that bit's de Bruijn hash (the top five bits
    of the bit times DE_BRUIJN, modulo 2**32: a different hash for each of the 32 bits),
    NO_PLACE at the hashes of bits no cell has. Drain finds a changed bit's cell in one look
    (it walked the cells, 13 on average on a 2 x 12 chain, for every change of the levels)."""
    table = bytearray([NO_PLACE] * 32)
    for cell in range(len(positions)):
        table[((1 << positions[cell]) * DE_BRUIJN & 0xFFFFFFFF) >> 27] = cell
    return table


def unpack(words, positions, out):
    """hx711.unpack into `out` (array('i')): `words` an array('I') of 24, `positions` a
    bytearray of each cell's bit."""
    rows = array.array("i", [0] * ROWS)
    for k in range(BITS):
        rows[k] = words[k]
    _transpose(rows)
    for cell in range(len(positions)):
        out[cell] = rows[31 - positions[cell]] >> 8     # the top 24 bits, signed


# The planner's state is one array('i'), so that each native call takes one pointer: [cells,
# read_us, update_us, guard_us, then each cell's last end, its period (1/16 us), how many
# periods it has measured; then _plan's own: each cell's second end after the read it plans
# from].
_CELLS = const(0)
CANDIDATE = const(-1)           # the planner's: a first span, not confirmed yet
_SHORTEST = const(85616)        # and the spans a period may be (1/16 us)
_LONGEST = const(2054784)
_READ = const(1)
_UPDATE = const(2)
_GUARD = const(3)
_ENDS = const(4)


class Planner:
    """controller.sensing.shared_clock.ReadPlanner, its state in one array and its loops
    native: the same methods, the same numbers (checked against it on the emulated Pico)."""

    def __init__(self, cells, read_us, update_us=75, guard_us=30):
        self.cells = cells
        self.read_us = read_us
        self.update_us = update_us
        self.guard_us = guard_us
        self.state = array.array("i", [cells, read_us, update_us, guard_us]
                                 + [UNKNOWN] * cells + [10702 * FIXED] * cells
                                 + [0] * cells + [0] * cells)
        view = memoryview(self.state)
        self.ends = view[_ENDS:_ENDS + cells]
        self.periods = view[_ENDS + cells:_ENDS + 2 * cells]
        self.measured = view[_ENDS + 2 * cells:_ENDS + 3 * cells]
        self._out = array.array("i", [0] * 6)

    def shift(self, offset):
        _shift(self.state, offset)

    def saw_end(self, cell, end_us):
        _saw_end(self.state, cell, end_us)

    def period_us(self, cell):
        return self.periods[cell] // FIXED if self.measured[cell] > 0 else 0

    def known(self, cell):
        return self.measured[cell] > 0

    def all_known(self):
        return _all_known(self.state)

    def next_end(self, cell, after_us):
        return _next_end(self.state, cell, after_us)

    def next_ready(self, after_us):
        return _next_ready(self.state, after_us)

    def plan(self, after_us, most_us=8000, widen_us=0):
        out = self._out
        out[1] = widen_us
        _plan(self.state, after_us, most_us, out)
        return out[0], out[1]

    def trusted(self, start_us, end_us):
        """`intact` as a bitmask: bit c set when chip c's reading is to be trusted."""
        return _trusted(self.state, start_us, end_us)

    def intact(self, start_us, end_us):
        mask = self.trusted(start_us, end_us)
        return [bool(mask >> cell & 1) for cell in range(self.cells)]


@micropython.viper
def _shift(state: ptr32, offset: int):
    n = state[_CELLS]
    for cell in range(n):
        if state[_ENDS + cell] != UNKNOWN:
            state[_ENDS + cell] = state[_ENDS + cell] + offset


@micropython.viper
def _all_known(state: ptr32) -> bool:
    n = state[_CELLS]
    for cell in range(n):
        if state[_ENDS + 2 * n + cell] <= 0:
            return False
    return True


@micropython.viper
def _saw_end(state: ptr32, cell: int, end: int):
    n = state[_CELLS]
    e = _ENDS + cell
    p = _ENDS + n + cell
    m = _ENDS + 2 * n + cell
    last = state[e]
    if last != UNKNOWN and end - last < state[p] // (2 * FIXED):
        return
    state[e] = end
    if last == UNKNOWN:
        return
    span = (end - last) * FIXED
    seen = state[m]
    candidate = seen == CANDIDATE
    if seen != 0:
        period = state[p]
        count = (span + period // 2) // period
        off = span - count * period
        if off < 0:
            off = 0 - off
        if count >= 1 and off <= period // 8 and (count == 1 or not candidate):
            if candidate:
                state[p] = (period + span // count) // 2
                state[m] = 1
            else:
                state[p] = (15 * period + span // count) // 16
                state[m] = seen + 1
            return
    if _SHORTEST <= span and span <= _LONGEST:     # a candidate period
        state[p] = span
        state[m] = CANDIDATE
    else:
        state[m] = 0


@micropython.viper
def _next_end(state: ptr32, cell: int, after: int) -> int:
    n = state[_CELLS]
    last = state[_ENDS + cell]
    if last == UNKNOWN:
        return after
    if last >= after:
        return last
    period = state[_ENDS + n + cell]
    return last + ((after - last) * FIXED + period - 1) // period * period // FIXED


@micropython.viper
def _next_ready(state: ptr32, after: int) -> int:
    n = state[_CELLS]
    update = state[_UPDATE]
    ready = after
    t = after + 1
    for cell in range(n):
        last = state[_ENDS + cell]
        if last == UNKNOWN:
            end = t
        elif last >= t:
            end = last
        else:
            period = state[_ENDS + n + cell]
            end = last + ((t - last) * FIXED + period - 1) // period * period // FIXED
        if end + update > ready:
            ready = end + update
    return ready


@micropython.viper
def _plan(state: ptr32, after: int, most: int, out: ptr32):
    """ReadPlanner.plan into out: [the moment every DOUT is first low, the delay], out[1]
    holding `widen_us` on the way in (viper takes four arguments); out[2..5] hold the moments
    (_all_low). ReadPlanner._later_end is written out inline (a call from native code to
    native code costs more than the loop around it), from each known chip's second end after
    `after`, worked out once into the state's last row: any moment up to it gives it, and a
    later end is worked out (two divisions) only for a moment past it."""
    widen = out[1]
    n = state[_CELLS]
    read = state[_READ]
    update = state[_UPDATE]
    guard = state[_GUARD]
    ends = _ENDS
    periods = _ENDS + n
    seconds = _ENDS + 3 * n
    u = after + 1
    cell = 0
    while cell < n:
        last = state[ends + cell]
        if last != UNKNOWN:
            period = state[periods + cell]
            if last >= u:
                first = last
            else:
                first = last + ((u - last) * FIXED + period - 1) // period * period // FIXED
            state[seconds + cell] = (last + ((first + 1 - last) * FIXED + period - 1) // period
                                     * period // FIXED)
        cell += 1
    out[2] = int(_next_ready(state, after))
    count = 1
    while count < 4:                        # _all_low: at most four moments
        t = out[1 + count]
        late = -1
        x = t - update + 1
        cell = 0
        while cell < n:
            last = state[ends + cell]
            if last == UNKNOWN:
                end = x if x > u else u + 1
            else:
                end = state[seconds + cell]
                if x > end:
                    period = state[periods + cell]
                    end = last + ((x - last) * FIXED + period - 1) // period * period // FIXED
            if end <= t + 2 * guard and end + update > late:
                late = end + update
            cell += 1
        if late <= t:
            break
        out[2 + count] = late
        count += 1
    margin = 2 * guard + SLACK + widen
    wait = 0
    rounds = 2 * n + 2
    while rounds > 0:
        rounds -= 1
        moved = False
        k = 0
        while k < count:
            moment = out[2 + k]
            start = moment + wait
            low = start - update - margin
            high = start + read + margin
            clash = -1
            cell = 0
            while cell < n:
                last = state[ends + cell]
                if last == UNKNOWN:
                    end = low if low > u else u + 1
                else:
                    end = state[seconds + cell]
                    if low > end:
                        period = state[periods + cell]
                        end = (last + ((low - last) * FIXED + period - 1) // period * period
                               // FIXED)
                if end <= high:
                    clash = end
                    break
                cell += 1
            if clash >= 0:
                wait = clash + update + margin + 1 - moment
                moved = True
            k += 1
        if not moved:
            out[0] = out[2]
            out[1] = wait
            return
        if wait > most:
            break
    out[0] = out[2]
    out[1] = 0


@micropython.viper
def _trusted(state: ptr32, start: int, finish: int) -> int:
    n = state[_CELLS]
    guard = state[_GUARD]
    low = start - guard
    high = finish + guard
    mask = 0
    for cell in range(n):
        if state[_ENDS + 2 * n + cell] <= 0:
            continue
        last = state[_ENDS + cell]
        if last >= low:
            end = last
        else:
            period = state[_ENDS + n + cell]
            end = last + ((low - last) * FIXED + period - 1) // period * period // FIXED
        if end > high:
            mask |= 1 << cell
    return mask


# --- the ring ----------------------------------------------------------------------------------

# What `drain` works on, one array('i') (hx711._Reader keeps it), so that a call takes one
# pointer: the ring's two buffers (their addresses) and its size, the entries taken so far and
# the end to take them to, the epoch of its times; the parse carried between calls (the
# reader's `_snapshot`, `_block`, ...); the cells' bit positions (a bytearray's address); the
# planner's state (its address); the readings made, queued for the CPU (QUEUE slots of 1 + n:
# the trusted cells' bitmask, then the values); the next read's plan; counters.
WORDS = const(0)
TIMES = const(1)
ENTRIES = const(2)
TAKEN = const(3)
END = const(4)
EPOCH = const(5)
HAVE = const(6)             # the levels below are known
LEVELS = const(7)
BLOCK = const(8)            # words of the read under way so far; -1: none under way
START = const(9)            # when it began (us after the epoch)
AFTER = const(10)           # 1: the next levels are the ones after a read: its end;
                            # SEEK: nothing is parsed before the next MARK
POSITIONS = const(11)
PLANNER = const(12)
SCRATCH = const(13)         # an array('i') of 32 + 6: the read's words, then _plan's out
QUEUE = const(14)           # the slots' array
SLOTS = const(15)
HEAD = const(16)            # the oldest reading's slot
COUNT = const(17)           # readings queued
MOST_US = const(18)         # the longest delay a plan may ask for
READY = const(19)           # the plan: when every DOUT will be low
DELAY = const(20)           # ... and the delay then (us; 0: none)
PLANNED = const(21)         # 1: a plan with a delay waits for the CPU to send it
LAST = const(22)            # the latest time seen
FRAMES = const(23)          # readings made
UNTRUSTED = const(24)       # cell readings not to be trusted
DROPPED = const(25)         # readings dropped from a full queue
TIMER = const(26)           # the address of the timer's microseconds (TIMERAWL)
CELLS_AT = const(27)        # a bytearray(32): the cell at each bit of the levels (NO_PLACE:
                            # none), indexed by the bit's de Bruijn hash (cells_at)
CONTEXT = const(28)
DE_BRUIJN = const(0x077CB531)   # times a word's lowest set bit: a distinct top five bits each
SEEK = const(2)


@micropython.viper
def drain(context: ptr32) -> int:
    """Take the ring's entries from TAKEN up to END: the reader's `_entry`, `_levels`,
    `_reading` and `_judged` in one: each change of the DOUT levels tells the planner a
    conversion's end (its saw_end, written out here: a native call costs 15 us a change);
    each completed read is unpacked into the next queue slot with the bitmask of the cells to
    trust; at the end the next read is planned from the newest one. Returns how many readings
    it made."""
    words = ptr32(context[WORDS])
    times = ptr32(context[TIMES])
    entries = context[ENTRIES]
    taken = context[TAKEN]
    end = context[END]
    epoch = context[EPOCH]
    have = context[HAVE]
    levels = context[LEVELS]
    block = context[BLOCK]
    start = context[START]
    after = context[AFTER]
    positions = ptr8(context[POSITIONS])
    cells_at = ptr8(context[CELLS_AT])
    state = ptr32(context[PLANNER])
    scratch = ptr32(context[SCRATCH])
    queue = ptr32(context[QUEUE])
    slots = context[SLOTS]
    n = state[_CELLS]
    update = state[_UPDATE]
    t = context[LAST]
    done = 0
    newest = 0
    while taken != end:
        word = words[taken]
        t = times[taken] - epoch
        taken += 1
        if taken == entries:
            taken = 0
        if block >= 0:
            scratch[block] = word
            block += 1
            if block == BITS:
                block = -1
                after = 1
            continue
        if word == -1:                      # MARK (0xFFFFFFFF)
            block = 0
            start = t
            continue
        if after == SEEK:
            continue
        if after:                           # the levels after a read: it ended at t
            after = 0
            levels = word
            have = 1
            count = context[COUNT]
            head = context[HEAD]
            if count == slots:              # full: the oldest reading goes
                head += 1
                if head == slots:
                    head = 0
                count -= 1
                context[DROPPED] = context[DROPPED] + 1
            slot = head + count
            if slot >= slots:
                slot -= slots
            at = slot * (1 + n)
            mask = int(_trusted(state, start, t))
            queue[at] = mask
            k = BITS
            while k < ROWS:
                scratch[k] = 0
                k += 1
            _transpose(scratch)             # each cell's 24 bits side by side
            cell = 0
            while cell < n:
                queue[at + 1 + cell] = scratch[31 - positions[cell]] >> 8   # signed
                if not (mask >> cell) & 1:
                    context[UNTRUSTED] = context[UNTRUSTED] + 1
                cell += 1
            context[HEAD] = head
            context[COUNT] = count + 1
            context[FRAMES] = context[FRAMES] + 1
            done += 1
            newest = t
            continue
        if not have:
            have = 1
            levels = word
            continue
        changed = word ^ levels
        levels = word
        while changed:                      # each changed bit, lowest first, to its cell
            bit = changed & (0 - changed)
            changed ^= bit
            cell = cells_at[((bit * DE_BRUIJN) >> 27) & 31]
            if cell == NO_PLACE:
                continue
            if word & bit:
                seen = t
            else:
                seen = t - update
            e = _ENDS + cell
            p = e + n
            m = p + n
            last = state[e]
            if last != UNKNOWN and seen - last < state[p] // (2 * FIXED):
                continue
            state[e] = seen
            if last == UNKNOWN:
                continue
            span = (seen - last) * FIXED
            measured = state[m]
            if measured != 0:
                period = state[p]
                count = (span + period // 2) // period
                off = span - count * period
                if off < 0:
                    off = 0 - off
                if count >= 1 and off <= period // 8 and (count == 1 or measured != CANDIDATE):
                    if measured == CANDIDATE:
                        state[p] = (period + span // count) // 2
                        state[m] = 1
                    else:
                        state[p] = (15 * period + span // count) // 16
                        state[m] = measured + 1
                    continue
            if _SHORTEST <= span and span <= _LONGEST:     # a candidate period
                state[p] = span
                state[m] = CANDIDATE
            else:
                state[m] = 0
    if done and _all_known(state):          # the next read planned, from the newest reading
        out = ptr32(context[SCRATCH] + 4 * ROWS)
        out[1] = 0                          # widen_us
        _plan(state, newest, context[MOST_US], out)
        context[READY] = out[0]
        context[DELAY] = out[1]
        context[PLANNED] = 1 if out[1] > 0 else 0
    context[TAKEN] = taken
    context[HAVE] = have
    context[LEVELS] = levels
    context[BLOCK] = block
    context[START] = start
    context[AFTER] = after
    context[LAST] = t
    return done


@micropython.viper
def elapsed(context: ptr32) -> int:
    """The timer's microseconds since EPOCH, a small int: the reader's `_us(TIMERAWL)`
    without a long int (`word & 0xFFFFFFFF` in Python allocates one, three a turn of the main
    loop, and a collection of the heap is what makes the reads wait)."""
    return ptr32(context[TIMER])[0] - context[EPOCH]


@micropython.viper
def take(context: ptr32, values: ptr32) -> int:
    """The oldest queued reading into `values`: its trusted cells' bitmask; -1 when none
    (the reader's `take`)."""
    count = context[COUNT]
    if count == 0:
        return -1
    head = context[HEAD]
    queue = ptr32(context[QUEUE])
    n = ptr32(context[PLANNER])[_CELLS]
    at = head * (1 + n)
    cell = 0
    while cell < n:
        values[cell] = queue[at + 1 + cell]
        cell += 1
    head += 1
    if head == context[SLOTS]:
        head = 0
    context[HEAD] = head
    context[COUNT] = count - 1
    return queue[at]


# --- counting seeds (controller.sensing.counting) --------------------------------------------
# The flat table's layout: the same numbers as counting.py's (tests/test_emulated_pico.py
# checks them, and every word against the plain filter's).

_SIZE = const(0)
_REDO = const(2)
_JUDGE = const(3)
_STEADY = const(4)
_STARTED = const(5)
_LEFT = const(6)
_SETTLE = const(7)
_HEADER = const(8)
_LOW = const(0)
_HIGH = const(1)
_TOL = const(2)
_CALM = const(3)
_STUCK_AFTER = const(4)
_POS = const(5)
_SAME = const(6)
_SAME_SINCE = const(7)
_N = const(8)
_BASE = const(9)
_ACC = const(10)
_MOTION = const(11)
_DUE = const(12)
_FRESH = const(13)
_READINGS = const(14)
_WORDS = const(24)
_BAND_CAP = const(64)
_MOTION_SHIFT = const(4)


@micropython.viper
def counting(state: ptr32, values: ptr32, trusted: int, t: int):
    """CountingSensor's `native` filter: each trusted channel's reading through the filter
    when it stays in its band (the ring, the median, the band's sum and motion, the pacing of
    judgements), as CountingSensor._step does it. A channel that needs more (a reading out of
    range, a stuck one, a filter starting afresh after a fault) is left untouched, its bit
    set in state[REDO] for the Python step; a filter starting afresh otherwise (the first
    reading) is started here, its bit in state[STARTED], and a band left is started again
    here, its bit in state[LEFT] (the Python keeps the band's times and unsettles the
    place); one whose judgement is due has its bit in state[JUDGE] (a new
    band's) or state[STEADY] (a counted band's re-judgement), and the Python picks the
    frame's judgements among them."""
    size = state[_SIZE]
    started = 0
    left = 0
    redo = 0
    judge = 0
    steady = 0
    i = 0
    bit = 1
    while i < size:
        if trusted & bit:
            at = _HEADER + _WORDS * i
            v = values[i]
            n = state[at + _N]
            ring = at + _READINGS
            pos = state[at + _POS]
            last = pos - 1
            if pos == 0:
                last = 4
            same = state[at + _SAME]
            stuck = state[at + _STUCK_AFTER]
            if v <= state[at + _LOW] or v >= state[at + _HIGH] or n < 0:
                redo |= bit
            elif n == 0:
                # the filter starts afresh, as CountingSensor._step and _band do: the ring and
                # the medians at this reading, a band from it, judged after settle_ms
                k = 0
                while k < 5:
                    state[ring + k] = v
                    state[ring + 5 + k] = v
                    k += 1
                state[at + _POS] = 0
                state[at + _SAME] = 0
                state[at + _BASE] = v
                state[at + _ACC] = 0
                state[at + _N] = 1
                state[at + _MOTION] = state[at + _CALM]
                state[at + _DUE] = t + state[_SETTLE]
                state[at + _FRESH] = 1
                started |= bit
            elif v == state[ring + last] and same and stuck and (
                    t - state[at + _SAME_SINCE] >= stuck):
                redo |= bit
            else:
                # the median of the five with this reading in its slot
                state[ring + pos] = v
                a = state[ring]
                b = state[ring + 1]
                c = state[ring + 2]
                d = state[ring + 3]
                e = state[ring + 4]
                if a > b:
                    x = a
                    a = b
                    b = x
                if c > d:
                    x = c
                    c = d
                    d = x
                if a > c:
                    x = a
                    a = c
                    c = x
                    x = b
                    b = d
                    d = x
                a = e
                if a > b:
                    x = a
                    a = b
                    b = x
                if a > c:
                    x = a
                    a = c
                    c = x
                    x = b
                    b = d
                    d = x
                m = c
                if b < c:
                    m = b
                dev = m - state[at + _BASE]
                acc = state[at + _ACC]
                off = dev - acc // n
                tol = state[at + _TOL]
                if v == state[ring + last]:
                    if not same:
                        state[at + _SAME] = 1
                        state[at + _SAME_SINCE] = t
                elif same:
                    state[at + _SAME] = 0
                if pos < 4:
                    state[at + _POS] = pos + 1
                else:
                    state[at + _POS] = 0
                if off > tol or off < 0 - tol:
                    # out of the band: a new one at this median, as CountingSensor._band
                    # starts it (the Python unsettles the place: state[LEFT])
                    state[at + _BASE] = m
                    state[at + _ACC] = 0
                    state[at + _N] = 1
                    state[at + _MOTION] = state[at + _CALM]
                    k = 0
                    while k < 5:
                        state[ring + 5 + k] = m
                        k += 1
                    state[at + _DUE] = t + state[_SETTLE]
                    state[at + _FRESH] = 1
                    left |= bit
                else:
                    acc += dev
                    if n > 2:
                        back = pos + 7
                        if pos >= 3:
                            back = pos + 2
                        step = m - state[ring + back]
                        if step < 0:
                            step = 0 - step
                        motion = state[at + _MOTION]
                        state[at + _MOTION] = motion + step - (motion >> _MOTION_SHIFT)
                    state[ring + 5 + pos] = m
                    n += 1
                    if n >= _BAND_CAP:
                        n >>= 1
                        acc //= 2
                    state[at + _N] = n
                    state[at + _ACC] = acc
                    if t >= state[at + _DUE]:
                        if state[at + _FRESH]:
                            judge |= bit
                        else:
                            steady |= bit
        i += 1
        bit <<= 1
    state[_STARTED] = started
    state[_LEFT] = left
    state[_REDO] = redo
    state[_JUDGE] = judge
    state[_STEADY] = steady


# --- a judgement's candidate counts (controller.sensing.weighing.weigh) -------------------

_Q = const(1024)
_OTHER_BITS = const(4005)
_NONE = const(1 << 20)
_W_X = const(0)
_W_K = const(2)
_W_OTHER = const(3)
_W_REF = const(4)
_W_SPREAD = const(6)
_W_VARIANCE = const(7)
_W_MINE = const(8)
_W_TOTAL = const(9)
_W_LIKELIER = const(12)
_W_NEAR = const(13)
_W_FAR = const(17)


@micropython.viper
def weigh(words: ptr32, exp2: ptr16, half_log2: ptr8):
    """CountingSensor's `native_weigh`: weighing.weigh, its _bits and _weight written out
    (every number fits 31 bits for the words it is given)."""
    k = words[_W_K]
    other = words[_W_OTHER]
    low = other - 1
    high = k + 1
    if k < other:
        low = k - 1
        high = other + 1
    spread2 = words[_W_SPREAD]
    variance = words[_W_VARIANCE]
    j = low
    if j < 0:
        j = 0
    while j <= high:
        side = 0
        while side < 2:
            d = j - words[_W_REF + side]
            if d < 0:
                d = 0 - d
            v = d * spread2 + variance
            off = words[_W_X + side] - j * _Q
            off2 = off * off
            bits = _NONE
            if off2 <= 100 * v:
                z = off2 // v
                bits = z * 185 + (off2 - z * v) * 185 // v
                bits += 1024 - bits // 555
                while v >= 512:
                    v >>= 1
                    bits += 128
                bits += half_log2[v - 256]
            words[_W_NEAR + 4 * side + j - low] = bits
            side += 1
        j += 1
    likelier = 0
    which = 0
    while which < 2:
        c = k
        if which == 1:
            if other == k:
                break
            c = other
        first = c - 1
        if first < 0:
            first = 0
        top = _OTHER_BITS
        j = first
        while j <= c + 1:
            bits = words[_W_NEAR + j - low]
            if words[_W_FAR + j - low] < bits:
                bits = words[_W_FAR + j - low]
            if bits < top:
                top = bits
            j += 1
        off = _OTHER_BITS - top
        total = 0
        if off < 4096:
            total = exp2[off & 255] >> (off >> 8)
        mine = 0
        j = first
        while j <= c + 1:
            bits = words[_W_NEAR + j - low]
            if words[_W_FAR + j - low] < bits:
                bits = words[_W_FAR + j - low]
            off = bits - top
            weight = 0
            if off < 4096:
                weight = exp2[off & 255] >> (off >> 8)
            total += weight
            if j == c:
                mine = weight
            j += 1
        words[_W_MINE + 2 * which] = mine
        words[_W_TOTAL + 2 * which] = total
        if words[_W_FAR + c - low] < words[_W_NEAR + c - low]:
            likelier |= 1 << which
        which += 1
    words[_W_LIKELIER] = likelier
