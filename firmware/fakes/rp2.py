"""A fake `rp2` module: PIO programs assembled to real RP2040 instruction words, and state
machines that run them, instruction by instruction, against the fake pins (tests only).

`asm_pio` assembles as the real decorator does: it runs the program function twice (the first
pass finds the labels) with the PIO names (`set`, `in_`, `pins`, `x_dec`, ...) as its globals,
and returns the program as the list the real `StateMachine` takes: the 16-bit instruction words
(encoded as in the RP2040 datasheet, section 3.4), then the EXECCTRL and SHIFTCTRL settings and
the pins' initial states. `StateMachine` decodes and executes those words — JMP, WAIT, IN, OUT,
PUSH, PULL, MOV, SET with delays and side-set, autopush and autopull, joined FIFOs — so what a
test checks is the program the firmware really loads, not a model of what it should do.

A state machine runs lazily: whenever the firmware looks at it (`rx_fifo`, `get`, `put`, ...)
it catches up with the fake clock, running until it stalls (a WAIT not met, a full RX FIFO, an
empty TX FIFO) or spins in a loop that cannot end before something outside changes. Its own time
advances one cycle of `freq` per instruction cycle, so a fake device watching a pin sees each
edge at the microsecond it would happen (an HX711 checks its SCK high time with it).

Works under MicroPython and CPython.
"""

from array import array

import machine

_MAX_STEPS = 200000     # instructions one catch-up may run before the program is called stuck
MASK32 = 0xFFFFFFFF


class PIOASMError(Exception):
    pass


class PIO:
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2
    IRQ_SM0 = 0x100

    def __init__(self, id):
        if id not in (0, 1):
            raise ValueError("invalid PIO %r" % (id,))
        self.id = id

    def add_program(self, program):
        _load(self.id, program)

    def remove_program(self, program=None):
        if program is None:
            for loaded, _, _ in _blocks[self.id]:
                loaded[1 + self.id] = -1
            _blocks[self.id] = []
            return
        _blocks[self.id] = [entry for entry in _blocks[self.id] if entry[0] is not program]
        program[1 + self.id] = -1

    def state_machine(self, id, program=None, *args, **kwargs):
        return StateMachine(4 * self.id + id, program, *args, **kwargs)


# The names a program function sees, with the values the instruction fields take.
_NAMES = {
    "gpio": 0, "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5,
    "isr": 6, "osr": 7, "exec": 8,
    "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6, "not_osre": 7,
    "noblock": 0x01, "block": 0x21, "iffull": 0x40, "ifempty": 0x40, "clear": 0x40,
    "invert": lambda src: src | 0x08,
    "reverse": lambda src: src | 0x10,
    "rel": lambda index: index | 0x10,
}


class _Assembler:
    """Emits instruction words; one object per program, run over two passes."""

    def __init__(self, out_init=None, set_init=None, sideset_init=None, side_pindir=False,
                 in_shiftdir=0, out_shiftdir=0, autopush=False, autopull=False, push_thresh=32,
                 pull_thresh=32, fifo_join=0):
        self.labels = {}
        self.execctrl = (1 if side_pindir else 0) << 29
        self.shiftctrl = (fifo_join << 30 | (pull_thresh & 0x1F) << 25
                          | (push_thresh & 0x1F) << 20 | out_shiftdir << 19 | in_shiftdir << 18
                          | (1 if autopull else 0) << 17 | (1 if autopush else 0) << 16)
        self.inits = (out_init, set_init, sideset_init)
        if sideset_init is None:
            self.side_bits = 0
        elif isinstance(sideset_init, int):
            self.side_bits = 1
        else:
            self.side_bits = len(sideset_init)
        self.words = array("H")
        self.wrap_used = False

    def start(self, number):
        if number == 1:
            if not self.wrap_used and self.count:
                self.wrap()
            self.delay_max = 31
            if self.side_bits:
                self.side_optional = self.sided != self.count
                if self.side_optional:
                    self.execctrl |= 1 << 30
                    self.side_bits += 1
                self.delay_max >>= self.side_bits
        self.pass_ = number
        self.count = 0
        self.sided = 0

    def __getitem__(self, delay):
        if self.pass_:
            if delay > self.delay_max:
                raise PIOASMError("delay %d is over the %d this program allows" % (
                    delay, self.delay_max))
            self.words[-1] |= delay << 8
        return self

    def side(self, value):
        self.sided += 1
        if self.pass_:
            if not self.side_bits:
                raise PIOASMError("side() in a program without sideset_init")
            if value >= 1 << (self.side_bits - (1 if self.side_optional else 0)):
                raise PIOASMError("side-set value %d is too large" % value)
            self.words[-1] |= (1 if self.side_optional else 0) << 12 | value << (
                13 - self.side_bits)
        return self

    def wrap_target(self):
        self.execctrl |= self.count << 7

    def wrap(self):
        self.execctrl |= (self.count - 1) << 12
        self.wrap_used = True

    def label(self, name):
        if self.pass_ == 0:
            if name in self.labels:
                raise PIOASMError("duplicate label %s" % name)
            self.labels[name] = self.count

    def word(self, instruction, label=None):
        self.count += 1
        if self.pass_:
            target = 0
            if label is not None:
                if label not in self.labels:
                    raise PIOASMError("unknown label %s" % label)
                target = self.labels[label]
            self.words.append(instruction | target)
        return self

    def nop(self):
        return self.word(0xA042)                # mov y, y

    def jmp(self, condition, label=None):
        if label is None:
            condition, label = 0, condition
        return self.word(condition << 5, label)

    def wait(self, polarity, source, index):
        source = 1 if source == 6 else (0 if source == 0 else 2)
        return self.word(0x2000 | polarity << 7 | source << 5 | index)

    def in_(self, source, bits):
        if not 0 < bits <= 32:
            raise PIOASMError("invalid bit count %d" % bits)
        return self.word(0x4000 | source << 5 | bits & 0x1F)

    def out(self, destination, bits):
        if not 0 < bits <= 32:
            raise PIOASMError("invalid bit count %d" % bits)
        return self.word(0x6000 | (7 if destination == 8 else destination) << 5 | bits & 0x1F)

    def push(self, value=0, value2=0):
        value |= value2
        if not value & 1:
            value |= 0x20
        return self.word(0x8000 | value & 0x60)

    def pull(self, value=0, value2=0):
        value |= value2
        if not value & 1:
            value |= 0x20
        return self.word(0x8080 | value & 0x60)

    def mov(self, destination, source):
        return self.word(0xA000 | (4 if destination == 8 else destination) << 5 | source)

    def irq(self, modifiers, index=None):
        if index is None:
            modifiers, index = 0, modifiers
        return self.word(0xC000 | modifiers & 0x60 | index)

    def set(self, destination, value):
        if not 0 <= value <= 31:
            raise PIOASMError("set takes 0..31, not %d" % value)
        return self.word(0xE000 | destination << 5 | value)


_DIRECTIVES = ("wrap_target", "wrap", "label")
_INSTRUCTIONS = ("word", "nop", "jmp", "wait", "in_", "out", "push", "pull", "mov", "irq",
                 "set")


def asm_pio(**settings):
    """Decorator: the program function, assembled (see the module's docstring)."""
    emit = _Assembler(**settings)

    def assemble(function):
        names = function.__globals__
        saved = names.copy()
        names.clear()
        names.update(_NAMES)
        for name in _DIRECTIVES + _INSTRUCTIONS:
            names[name] = getattr(emit, name)
        try:
            emit.start(0)
            function()
            emit.start(1)
            function()
        finally:
            names.clear()
            names.update(saved)
        out_init, set_init, sideset_init = emit.inits
        return [emit.words, -1, -1, emit.execctrl, emit.shiftctrl, out_init, set_init,
                sideset_init]

    return assemble


def _count(init):
    if init is None:
        return 0
    return 1 if isinstance(init, int) else len(init)


def _levels(init):
    """The initial output levels of a pin group's init (OUT_HIGH: 1)."""
    if init is None:
        return []
    if isinstance(init, int):
        init = (init,)
    return [1 if state == PIO.OUT_HIGH else 0 for state in init]


def _reverse32(value):
    result = 0
    for _ in range(32):
        result = result << 1 | value & 1
        value >>= 1
    return result


# --- the PIO blocks' instruction memory ----------------------------------------------------
#
# Each of the RP2040's two PIO blocks has 32 instruction slots shared by its four state
# machines (RP2040 datasheet 3.2.1). MicroPython loads a program into the block of the state
# machine that runs it, once per program object (it keeps the offset in the program's list:
# items 1 and 2, -1 while not loaded), and fails with OSError(ENOMEM) when it does not fit.

SLOTS = 32
ENOMEM = 12
_blocks = {0: [], 1: []}            # PIO block -> [(program, first slot, length)]
_machines = {}                      # state machine id -> the running StateMachine


def reset_fakes():
    """Unload every program, stop every state machine, free every DMA channel."""
    _blocks[0] = []
    _blocks[1] = []
    _machines.clear()
    for channel in range(len(DMA.claimed)):
        DMA.claimed[channel] = None


def _load(block, program):
    """The slot `program` starts at in `block`, loading it there if it is not yet."""
    for loaded, first, _ in _blocks[block]:
        if loaded is program:
            return first
    length = len(program[0])
    used = sorted([(first, first + size) for _, first, size in _blocks[block]])
    first = 0
    for low, high in used:
        if first + length <= low:
            break
        first = max(first, high)
    if first + length > SLOTS:
        raise OSError(ENOMEM)
    _blocks[block].append((program, first, length))
    program[1 + block] = first
    return first


def free_slots(block):
    """How many of `block`'s 32 instruction slots no program holds (tests)."""
    return SLOTS - sum([size for _, _, size in _blocks[block]])


# --- DMA -------------------------------------------------------------------------------------
#
# rp2.DMA as MicroPython 1.27 has it (ports/rp2/rp2_dma.c): twelve channels claimed one per
# object, `pack_ctrl` / `unpack_ctrl` with the RP2040's CTRL bit layout (datasheet 2.5.7),
# `config(read, write, count, ctrl, trigger)` where read and write are addresses or buffers,
# `read`, `write`, `count` and `ctrl` reading the live registers. Transfers follow their
# TREQ: a PIO RX DREQ moves each word the state machine pushes as it pushes it, a TX DREQ feeds
# the state machine's TX FIFO as it pulls, TREQ 0x3f (permanent) runs at once. A channel that
# completes triggers its chain_to channel (reloading that one's count, as the RP2040 does). The
# timer's TIMERAWL reads the time the transfer happens at.

PIO0_BASE = 0x50200000
PIO1_BASE = 0x50300000
TXF0 = 0x10
RXF0 = 0x20
TREQ_PERMANENT = 0x3F
_FIELDS = (("enable", 0, 1, 1), ("high_pri", 1, 1, 0), ("size", 2, 2, 2), ("inc_read", 4, 1, 1),
           ("inc_write", 5, 1, 1), ("ring_size", 6, 4, 0), ("ring_sel", 10, 1, 0),
           ("chain_to", 11, 4, None), ("treq_sel", 15, 6, TREQ_PERMANENT),
           ("irq_quiet", 21, 1, 1), ("bswap", 22, 1, 0), ("sniff_en", 23, 1, 0),
           ("busy", 24, 1, 0), ("write_err", 29, 1, 0), ("read_err", 30, 1, 0),
           ("ahb_err", 31, 1, 0))


def fifo_address(sm_id, rx):
    """The bus address of state machine `sm_id`'s RX (or TX) FIFO."""
    return ((PIO1_BASE if sm_id >= 4 else PIO0_BASE) + (RXF0 if rx else TXF0)
            + 4 * (sm_id % 4))


def dreq(sm_id, rx):
    """The DREQ number of state machine `sm_id`'s RX (or TX) FIFO: PIO0 TX 0..3, RX 4..7,
    PIO1 TX 8..11, RX 12..15."""
    return 8 * (sm_id // 4) + (4 if rx else 0) + sm_id % 4


def _fifo_at(address):
    """(state machine, True for RX) at a FIFO address, or (None, False)."""
    for base, block in ((PIO0_BASE, 0), (PIO1_BASE, 1)):
        offset = address - base
        if TXF0 <= offset < RXF0 + 16:
            rx = offset >= RXF0
            sm = _machines.get(4 * block + (offset - (RXF0 if rx else TXF0)) // 4)
            return sm, rx
    return None, False


class DMA:
    claimed = [None] * 12

    def __init__(self, read=None, write=None, count=-1, ctrl=-1, trigger=False):
        for channel in range(12):
            if DMA.claimed[channel] is None:
                break
        else:
            raise OSError(16)                   # EBUSY: no channel free
        DMA.claimed[channel] = self
        self.channel = channel
        self._read = self._write = 0
        self._count = self._reload = 0
        self._ctrl = self.pack_ctrl(enable=False)
        self.transfers = 0
        self.config(read, write, count, ctrl, trigger)

    def pack_ctrl(self, default=None, **fields):
        value = 0 if default is None else default
        for name, shift, bits, initial in _FIELDS:
            if name in ("busy", "ahb_err"):
                continue
            if name in fields:
                field = int(fields.pop(name))
            elif default is not None:
                continue
            else:
                field = self.channel if name == "chain_to" else initial
            value = value & ~(((1 << bits) - 1) << shift) | (field & (1 << bits) - 1) << shift
        if fields:
            raise TypeError("unknown DMA control field %s" % ", ".join(fields))
        return value

    @staticmethod
    def unpack_ctrl(value):
        return {name: value >> shift & (1 << bits) - 1 for name, shift, bits, _ in _FIELDS}

    _decoded = {}                       # ctrl word -> its fields: a channel has a few

    def _field(self, name):
        fields = DMA._decoded.get(self._ctrl)
        if fields is None:
            if len(DMA._decoded) > 64:
                DMA._decoded.clear()
            fields = DMA._decoded[self._ctrl] = DMA.unpack_ctrl(self._ctrl)
        return fields[name]

    @staticmethod
    def _address(where):
        if where is None or isinstance(where, int):
            return where
        return machine.address_of(where)

    def config(self, read=None, write=None, count=-1, ctrl=-1, trigger=False):
        if read is not None:
            self._read = self._address(read)
        if write is not None:
            self._write = self._address(write)
        if count != -1:
            self._reload = count
        if ctrl != -1:
            self._ctrl = ctrl & ~(1 << 24)
        if trigger:
            self._trigger()

    @property
    def read(self):
        _catch_up_all()                 # the machines DMA serves run while the CPU looks away
        return self._read

    @read.setter
    def read(self, value):
        self._read = self._address(value)

    @property
    def write(self):
        _catch_up_all()                 # the machines DMA serves run while the CPU looks away
        return self._write

    @write.setter
    def write(self, value):
        self._write = self._address(value)

    @property
    def count(self):
        _catch_up_all()                 # the machines DMA serves run while the CPU looks away
        return self._count

    @count.setter
    def count(self, value):
        self._reload = value

    @property
    def ctrl(self):
        _catch_up_all()                 # the machines DMA serves run while the CPU looks away
        return self._ctrl

    @ctrl.setter
    def ctrl(self, value):
        self._ctrl = value & ~(1 << 24) | self._ctrl & 1 << 24

    def active(self, value=None):
        if value is None:
            self._still_feeding()
            sm, _ = _fifo_at(self._write)
            if sm is not None:
                sm._catch_up()                  # a TX feed ends when the machine has pulled
            return bool(self._ctrl >> 24 & 1)
        if value:
            self._trigger()
        else:
            self._ctrl &= ~(1 << 24)
        return None

    def close(self):
        self._ctrl &= ~(1 << 24)
        DMA.claimed[self.channel] = None

    def _busy(self):
        return self._ctrl >> 24 & 1 and self._ctrl & 1

    def _trigger(self):
        if not self._ctrl & 1:
            return
        self._count = self._reload
        if self._count == 0:
            return
        self._ctrl |= 1 << 24
        treq = self._field("treq_sel")
        if treq == TREQ_PERMANENT:
            while self._busy():
                self._transfer()
            return
        sm, rx = _fifo_at(self._write)
        if sm is not None and not rx and sm.output_only():
            sm.feed_at_once(self)

    busy_until = -1

    def _still_feeding(self):
        if self.busy_until >= 0 and machine.now_us() >= self.busy_until:
            self.busy_until = -1
            self._ctrl &= ~(1 << 24)
            chain = self._field("chain_to")
            if chain != self.channel and DMA.claimed[chain] is not None:
                DMA.claimed[chain]._trigger()

    def _step(self, address, increment):
        size = 1 << self._field("size")
        ring = self._field("ring_size")
        if not increment:
            return address
        if ring:
            mask = (1 << ring) - 1
            return address & ~mask | (address + size) & mask
        return address + size

    def _transfer(self):
        """One transfer; at the last, the chained channel starts."""
        value = _bus_read(self._read)
        _bus_write(self._write, value)
        ring_on_write = self._field("ring_sel")
        read_step = self._step if not ring_on_write else self._plain_step
        write_step = self._step if ring_on_write else self._plain_step
        self._read = read_step(self._read, self._field("inc_read"))
        self._write = write_step(self._write, self._field("inc_write"))
        self._count -= 1
        self.transfers += 1
        if self._count == 0:
            self._ctrl &= ~(1 << 24)
            chain = self._field("chain_to")
            if chain != self.channel and DMA.claimed[chain] is not None:
                DMA.claimed[chain]._trigger()

    def _plain_step(self, address, increment):
        return address + (1 << self._field("size")) if increment else address

    def _serves(self, treq):
        return self._busy() and self._field("treq_sel") == treq


def _catch_up_all():
    for sm in list(_machines.values()):
        sm._catch_up()


def _bus_read(address):
    sm, rx = _fifo_at(address)
    if sm is not None:
        return sm.rx.pop(0) if rx and sm.rx else 0
    return machine.read_word(address)


def _bus_write(address, value):
    sm, rx = _fifo_at(address)
    if sm is not None:
        if not rx:
            sm.tx.append(value & MASK32)
            sm.fed.append(value & MASK32)
        return
    machine.write_word(address, value & MASK32)


def _dma_for(treq):
    for channel in DMA.claimed:
        if channel is not None and channel._serves(treq):
            return channel
    return None


class StateMachine:
    """rp2.StateMachine running a program from `asm_pio` on the fake pins.

    Beyond the real API: `steps` (instructions executed so far), `cycles` (clock cycles),
    `fed` (every word a DMA channel put into its TX FIFO, oldest first) and `transfers` (those
    words, a list a transfer)."""

    def __init__(self, id, program=None, freq=-1, **pins):
        if not 0 <= id < 8:
            raise ValueError("invalid StateMachine %r: 0..7" % (id,))
        self.id = id
        self.program = None
        self.running = False
        self.fed = []
        self.transfers = []             # the words of each DMA transfer into the TX FIFO
        if program is not None:
            self.init(program, freq, **pins)

    def init(self, program, freq=-1, in_base=None, out_base=None, set_base=None, jmp_pin=None,
             sideset_base=None, in_shiftdir=None, out_shiftdir=None, push_thresh=None,
             pull_thresh=None):
        words, _, _, execctrl, shiftctrl, out_init, set_init, sideset_init = program
        _load(self.id // 4, program)
        _machines[self.id] = self
        self.program = program
        self.code = list(words)
        self.freq = 125000000 if freq == -1 else freq
        if not 1908 <= self.freq <= 125000000:
            raise ValueError("freq %d is out of the PIO's range (clk_sys / 65536 .. clk_sys)"
                             % self.freq)
        self.wrap_bottom = execctrl >> 7 & 0x1F
        self.wrap_top = execctrl >> 12 & 0x1F
        self.side_enable = bool(execctrl >> 30 & 1)
        self.side_bits = _count(sideset_init) + (1 if self.side_enable else 0)
        self.autopush = bool(shiftctrl >> 16 & 1)
        self.autopull = bool(shiftctrl >> 17 & 1)
        self.in_right = bool(shiftctrl >> 18 & 1) if in_shiftdir is None else bool(in_shiftdir)
        self.out_right = bool(shiftctrl >> 19 & 1) if out_shiftdir is None else bool(
            out_shiftdir)
        push = shiftctrl >> 20 & 0x1F if push_thresh is None else push_thresh & 0x1F
        pull = shiftctrl >> 25 & 0x1F if pull_thresh is None else pull_thresh & 0x1F
        self.push_thresh = push or 32
        self.pull_thresh = pull or 32
        join = shiftctrl >> 30 & 3
        self.rx_depth = 8 if join == PIO.JOIN_RX else (0 if join == PIO.JOIN_TX else 4)
        self.tx_depth = 8 if join == PIO.JOIN_TX else (0 if join == PIO.JOIN_RX else 4)
        self.pins = {}
        for name, base in (("in", in_base), ("out", out_base), ("set", set_base),
                           ("jmp", jmp_pin), ("side", sideset_base)):
            self.pins[name] = None if base is None else base.id
        for name, init in (("out", out_init), ("set", set_init), ("side", sideset_init)):
            levels = _levels(init)
            if levels and self.pins[name] is None:
                raise ValueError("the program drives %s pins but no %s_base is given" % (
                    name, name))
            for k in range(len(levels)):
                gpio = self.pins[name] + k
                machine.line(gpio).owner = "pio"
                machine.line(gpio).mode = machine.Pin.OUT
                machine.output(gpio, levels[k])
        base = self.pins["in"]
        # the pins from in_base up, as IN and WAIT number them (wrapping after GPIO 31)
        self._in_lines = [] if base is None else [
            machine.line((base + k) % 32) for k in range(32)
            if (base + k) % 32 < machine.GPIO_COUNT]
        self._scan_inputs()
        self._decode()
        self.set_count = _count(set_init)
        self.out_count = _count(out_init)
        self.steps = 0
        self.cycles = 0
        self.restart()

    def restart(self):
        self.pc = 0                             # the program's first instruction
        self.x = self.y = 0
        self.isr = self.isr_count = 0
        self.osr = 0
        self.osr_count = 32                     # empty
        self.rx = []
        self.tx = []
        self.t_us = machine.now_us()
        self.seen = {}

    def active(self, value=None):
        if value is None:
            self._catch_up()
            return self.running
        self._catch_up()
        self.running = bool(value)
        self.t_us = max(self.t_us, machine.now_us())
        return None

    @staticmethod
    def machines():
        """Every state machine started since the last reset, by id (tests)."""
        return _machines

    def output_only(self):
        """True when the program reads no pin: its pins' levels can only matter to what
        watches them, and a DMA feed can be timed without running it word by word."""
        return self._watched == 0 and not self._extra

    def feed_at_once(self, channel):
        """A DMA channel feeds this output-only machine `channel.count` words: take them all
        into `fed` now and keep the channel busy as long as the program takes to send them
        (timed once, by a dry run of the program on two words)."""
        if self._word_ns is None:
            self._word_ns = self._time_one_word()
        words = channel._count
        start = max(machine.now_us(), self.t_us)
        transfer = []
        for _ in range(words):
            transfer.append(_bus_read(channel._read) & MASK32)
            channel._read = channel._plain_step(channel._read, channel._field("inc_read"))
        self.fed.extend(transfer)
        self.transfers.append(transfer)
        channel._count = 0
        channel.transfers += words
        channel.busy_until = start + (words * self._word_ns + 999) // 1000
        self.t_us = channel.busy_until
        self.feeds += 1

    _word_ns = None
    feeds = 0

    def _time_one_word(self):
        """Nanoseconds the program takes per TX word: a dry run, outputs silenced, from its
        state now, of the cycles between its second and third pull."""
        saved = (self.pc, self.x, self.y, self.isr, self.isr_count, self.osr, self.osr_count,
                 list(self.tx), list(self.rx), self.steps, self.cycles, self.seen)
        machine.quiet[0] = True
        self._t_base = self.t_us
        self._elapsed = 0
        self.tx = [0x55555555, 0xAAAAAAAA, 0x55555555]
        pulls = []
        try:
            for _ in range(10000):
                before = len(self.tx)
                cycles = self.cycles
                if not self._step():
                    break
                if len(self.tx) < before:
                    pulls.append(cycles)
                if len(pulls) == 3:
                    break
        finally:
            machine.quiet[0] = False
            (self.pc, self.x, self.y, self.isr, self.isr_count, self.osr, self.osr_count,
             self.tx, self.rx, self.steps, self.cycles, self.seen) = saved
        if len(pulls) < 3:
            raise RuntimeError("the program does not pull words steadily: it cannot be fed")
        return (pulls[2] - pulls[1]) * 1000000000 // self.freq

    def rx_fifo(self):
        self._catch_up()
        return len(self.rx)

    def tx_fifo(self):
        self._catch_up()
        return len(self.tx)

    def get(self, buf=None, shift=0):
        """The next word of the RX FIFO, waiting for it as the real call blocks: the fake
        CPU's time moves on until the program pushes one (after 10 s of fake time it gives
        up with an error: the real one would hang)."""
        self._catch_up()
        waited = 0
        while not self.rx:
            if waited >= 10000000:
                raise RuntimeError("StateMachine.get() waited 10 s: the program pushes nothing")
            machine.spend_us(100)
            waited += 100
            self._catch_up()
        value = self.rx.pop(0) >> shift
        self._catch_up()                        # a stalled push goes on at once
        return value

    def put(self, value, shift=0):
        """Into the TX FIFO, waiting while it is full (as the real call blocks)."""
        self._catch_up()
        waited = 0
        while len(self.tx) >= self.tx_depth:
            if waited >= 10000000 or not self.running:
                raise RuntimeError("StateMachine.put() would wait for ever: TX FIFO full")
            machine.spend_us(100)
            waited += 100
            self._catch_up()
        self.tx.append((value << shift) & 0xFFFFFFFF)
        self._catch_up()

    # --- the emulator ------------------------------------------------------------------------
    #
    # Written for speed under MicroPython: instructions are decoded once (`_decode`), times
    # are whole microseconds and counts stay small ints (a value of 2**30 or more is a heap
    # object on a Pico-sized MicroPython).
    #
    # Event-accurate: a machine that waits on its input pins (a WAIT not met, or a loop that
    # reads the same levels round and round) sleeps until the next time a pin's source says
    # its level may change (`machine.source(..., next_change)`), not until the CPU next looks,
    # so a read starts the microsecond the last HX711 becomes ready, whenever the CPU polls.

    def _decode(self):
        """Each instruction word as (op, a, b, c, cycles, side or -1)."""
        data_bits = 5 - self.side_bits
        decoded = []
        for word in self.code:
            field = word >> 8 & 0x1F
            side = field >> data_bits
            if self.side_bits and self.side_enable and not side >> (self.side_bits - 1):
                side = -1
            elif self.side_bits and self.side_enable:
                side &= (1 << (self.side_bits - 1)) - 1
            elif not self.side_bits:
                side = -1
            op = word >> 13
            decoded.append((op, word >> 5 & 7, word & 0x1F, word >> 7 & 1,
                            1 + (field & ((1 << data_bits) - 1)), side))
        self._decoded = decoded

    def _now_us(self):
        return self._t_base + self._elapsed * 1000000 // self.freq

    def _catch_up(self):
        """Run until the fake clock's time: through every stall on the pins, waking at each
        change of them, and up to a stall on a FIFO (which only the CPU can end)."""
        if not self.running or self.program is None or self._inside:
            return
        now = machine.now_us()
        self._inside = True
        self._goal_us = now
        self._t_base = self.t_us
        self._elapsed = 0
        steps = 0
        self.seen = {}
        t = self.t_us
        try:
            while True:
                self._wait = 0
                while self._step():
                    steps += 1
                    if steps > _MAX_STEPS:
                        raise RuntimeError("the PIO program ran %d instructions without "
                                           "stalling" % steps)
                    if not steps & 255 and self._now_us() >= now:
                        break                   # caught up while running
                t = self._now_us()
                if t >= now:
                    break
                if self._wait == 2:             # a FIFO: the CPU ends it, at `now` or later
                    t = now
                    break
                # a pin that changes in the very microsecond the machine stalled may have
                # been sampled just before it: look from the microsecond before, and wake
                # after it (times are whole microseconds). A loop that stopped for spinning
                # may have sampled its pins early in its last turn (a 74HC165 chain's poll
                # latches the DOUTs at its start, 8 us before it comes round): a change since
                # the turn began wakes it at once
                since = t - 1
                if self._wait == 1 and self._spun_from is not None:
                    since = min(since, self._spun_from - 1)
                    self._spun_from = None
                wake = self._next_input_change(since)
                if 0 <= wake <= t:
                    wake = t + 1
                if wake < 0 or wake > now:
                    t = now
                    break
                self._t_base = wake
                self._elapsed = 0
                self.seen = {}
        finally:
            self.t_us = max(t, self.t_us)
            self._inside = False
            self._goal_us = None

    _inside = False
    _wait = 0
    _goal_us = None
    _spun_from = None

    def _count_down(self, cycles):
        """A `jmp x--` onto itself (a delay loop) touches nothing but x and the time: run
        all but its last turn at once, as far as the time being caught up to allows (each
        turn `cycles` long), so that a long delay costs one step, not thousands. What is
        left is run turn by turn, exactly as before."""
        left = (self._goal_us - self._t_base) * self.freq // 1000000 - self._elapsed
        turns = min(self.x - 1, left // cycles - 1)
        if turns > 0:
            self.x -= turns
            self._elapsed += turns * cycles
            self.cycles += turns * cycles
            self.steps += turns

    def _next_input_change(self, t_us):
        """The first time after `t_us` that a pin this program reads may change by itself
        (-1: nothing says)."""
        best = -1
        lines = self._in_lines[:self._watched] + [machine.line(g) for g in self._extra]
        for line in lines:
            when = line.next_change(t_us) if line.next_change is not None else -1
            if when > t_us and (best < 0 or when < best):
                best = when
        return best

    def _in_level(self, index, t_us):
        return self._in_lines[index].level(t_us)

    def _read_pins(self, t_us, count=32):
        """The levels of `count` pins from in_base up, as the low bits of a word."""
        value = 0
        lines = self._in_lines
        bit = 1
        for k in range(min(count, len(lines))):
            if lines[k].level(t_us):
                value |= bit
            bit <<= 1
        return value

    def _write_pins(self, group, count, value, t_us):
        base = self.pins[group]
        for k in range(count):
            machine.output(base + k, value >> k & 1, t_us)

    def _push(self, block, t_us):
        """Push the ISR; False when it must stall (full, blocking). A DMA channel on this
        machine's RX DREQ takes the word as it arrives."""
        if len(self.rx) >= self.rx_depth:
            if block:
                return False
        else:
            self.rx.append(self.isr)
            channel = _dma_for(dreq(self.id, True))
            if channel is not None:
                machine.bus_us = t_us
                try:
                    channel._transfer()
                finally:
                    machine.bus_us = None
        self.isr = self.isr_count = 0
        return True

    def _pull_word(self, t_us):
        """The next TX word, from the FIFO or from a DMA channel feeding it; None if none."""
        if not self.tx:
            channel = _dma_for(dreq(self.id, False))
            if channel is not None:
                machine.bus_us = t_us
                try:
                    channel._transfer()
                finally:
                    machine.bus_us = None
        if self.tx:
            return self.tx.pop(0)
        return None

    def _step(self):
        """Execute one instruction; False when the machine stalls instead (`_wait`: 1 on the
        pins, 2 on a FIFO)."""
        op, a, b, c, cycles, side = self._decoded[self.pc]
        t_us = self._t_base + self._elapsed * 1000000 // self.freq
        jump = -1
        if op == 7:                                             # SET: a dest, b data
            if a == 0:
                self._write_pins("set", self.set_count, b, t_us)
            elif a == 1:
                self.x = b
            elif a == 2:
                self.y = b
            elif a != 4:                                        # 4: pin directions
                raise PIOASMError("SET to destination %d is reserved" % a)
        elif op == 0:                                           # JMP: a condition, b address
            if a == 0:
                jump = b
            elif a == 1:
                if self.x == 0:
                    jump = b
            elif a == 2:
                if self.x:
                    if b == self.pc and side < 0 and self._goal_us is not None:
                        self._count_down(cycles)
                    jump = b
                    self.x -= 1
                else:
                    self.x = MASK32
            elif a == 3:
                if self.y == 0:
                    jump = b
            elif a == 4:
                if self.y:
                    jump = b
                    self.y -= 1
                else:
                    self.y = MASK32
            elif a == 5:
                if self.x != self.y:
                    jump = b
            elif a == 6:
                if machine.level(self.pins["jmp"], t_us):
                    jump = b
            elif self.osr_count < self.pull_thresh:
                jump = b
        elif op == 1:                                           # WAIT: c polarity, a source
            source = a & 3
            if source == 0:
                have = machine.level(b, t_us)
            elif source == 1:
                have = self._in_lines[b].level(t_us)
            else:
                raise PIOASMError("WAIT on an IRQ is not emulated")
            if have != c:
                self._wait = 1
                return False
        elif op == 2:                                           # IN: a source, b bits
            bits = b or 32
            if self.autopush and self.isr_count + bits >= self.push_thresh and (
                    len(self.rx) >= self.rx_depth):
                self._wait = 2
                return False
            if a == 0:
                value = self._read_pins(t_us, bits)
            elif a == 1:
                value = self.x
            elif a == 2:
                value = self.y
            elif a == 3:
                value = 0
            elif a == 6:
                value = self.isr
            elif a == 7:
                value = self.osr
            else:
                raise PIOASMError("IN from source %d is reserved" % a)
            if bits < 32:
                value &= (1 << bits) - 1
            if self.in_right:
                self.isr = (self.isr >> bits if bits < 32 else 0) | value << (32 - bits)
            else:
                isr = self.isr << bits | value
                self.isr = isr & MASK32 if isr >> 32 else isr
            self.isr_count = min(32, self.isr_count + bits)
            if self.autopush and self.isr_count >= self.push_thresh:
                self._push(True, t_us)
        elif op == 4:                           # PUSH / PULL: c pull, a: 2 if-full/empty, 1 block
            if c:
                if not (a & 2 and self.osr_count < self.pull_thresh):
                    word = self._pull_word(t_us)
                    if word is not None:
                        self.osr = word
                        self.osr_count = 0
                    elif a & 1:
                        self._wait = 2
                        return False
                    else:
                        self.osr = self.x
                        self.osr_count = 0
            elif not (a & 2 and self.isr_count < self.push_thresh):
                if not self._push(a & 1, t_us):
                    self._wait = 2
                    return False
        elif op == 5:                                           # MOV: a dest, b op|source
            source = b & 7
            operation = b >> 3 & 3
            if source == 0:
                value = self._read_pins(t_us)
            elif source == 1:
                value = self.x
            elif source == 2:
                value = self.y
            elif source == 3:
                value = 0
            elif source == 5:
                value = MASK32 if not self.tx else 0            # STATUS: TX FIFO empty
            elif source == 6:
                value = self.isr
            elif source == 7:
                value = self.osr
            else:
                raise PIOASMError("MOV from source %d is reserved" % source)
            if operation == 1:
                value = value ^ MASK32
            elif operation == 2:
                value = _reverse32(value)
            if a == 0:
                self._write_pins("out", self.out_count, value, t_us)
            elif a == 1:
                self.x = value
            elif a == 2:
                self.y = value
            elif a == 5:
                jump = value & 0x1F
            elif a == 6:
                self.isr = value
                self.isr_count = 0
            elif a == 7:
                self.osr = value
                self.osr_count = 0
            else:
                raise PIOASMError("MOV to destination %d is not emulated" % a)
        elif op == 3:                                           # OUT: a dest, b bits
            bits = b or 32
            if self.autopull and self.osr_count >= self.pull_thresh:
                word = self._pull_word(t_us)
                if word is None:
                    self._wait = 2
                    return False
                self.osr = word
                self.osr_count = 0
            mask = MASK32 if bits == 32 else (1 << bits) - 1
            if self.out_right:
                value = self.osr & mask
                self.osr = self.osr >> bits if bits < 32 else 0
            else:
                value = self.osr >> (32 - bits) & mask
                self.osr = (self.osr << bits) & MASK32
            self.osr_count = min(32, self.osr_count + bits)
            if a == 0:
                self._write_pins("out", self.out_count, value, t_us)
            elif a == 1:
                self.x = value
            elif a == 2:
                self.y = value
            elif a == 5:
                jump = value & 0x1F
            elif a == 6:
                self.isr = value
                self.isr_count = bits
            elif a != 3:
                raise PIOASMError("OUT to destination %d is not emulated" % a)
        else:
            raise PIOASMError("IRQ is not emulated")
        # the instruction ran: side-set, then its cycles
        if side >= 0:
            base = self.pins["side"]
            for k in range(self.side_bits - (1 if self.side_enable else 0)):
                machine.output(base + k, side >> k & 1, t_us)
        self._elapsed += cycles
        self.cycles += cycles
        self.steps += 1
        if jump >= 0:
            backwards = jump <= self.pc
            self.pc = jump
            if backwards and self._spinning():
                self._wait = 1
                return False
        elif self.pc == self.wrap_top:
            self.pc = self.wrap_bottom
            if self._spinning():
                self._wait = 1
                return False
        else:
            self.pc = (self.pc + 1) % len(self.code)
        return True

    def _scan_inputs(self):
        """Which pins the program reads: how many from in_base, and which GPIOs besides."""
        count = 0
        extra = []
        for word in self.code:
            op = word >> 13
            if op == 2 and word >> 5 & 7 == 0:                  # IN pins
                count = max(count, word & 0x1F or 32)
            elif op == 5 and word & 7 == 0:                     # MOV from pins
                count = 32
            elif op == 1 and word >> 5 & 3 == 1:                # WAIT pin
                count = max(count, (word & 0x1F) + 1)
            elif op == 1 and word >> 5 & 3 == 0:                # WAIT gpio
                extra.append(word & 0x1F)
            elif op == 0 and word >> 5 & 7 == 6:                # JMP pin
                extra.append(self.pins["jmp"])
        self._watched = count if self.pins["in"] is not None else 0
        self._extra = extra

    def _spinning(self):
        """A loop back (a jump back, or the wrap) to a state seen before since the last wake,
        with the same levels on the input pins: it cannot end before the outside changes, so
        stop here until then. The registers are compared first and the pins read only from a
        state's second visit on: a counting loop never repeats its registers, and reads no
        pin."""
        key = (self.pc, self.x, self.y, self.isr, self.isr_count, self.osr, self.osr_count,
               len(self.rx), len(self.tx))
        seen = self.seen
        if key not in seen:
            seen[key] = [self._now_us()]        # when the loop's turn from here began
            return False
        levels = seen[key]
        now = self._levels_now()
        if now in levels:
            self._spun_from = levels[0]
            return True
        levels.append(now)
        return False

    def _levels_now(self):
        t_us = self._now_us()
        return (self._read_pins(t_us, self._watched),
                tuple([machine.level(gpio, t_us) for gpio in self._extra]))
