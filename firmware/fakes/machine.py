"""A fake `machine` module: the Pico's pins, PWM and watchdog without a Pico (tests only).

The firmware imports `machine` as on the board; a test puts firmware/fakes first on sys.path, so
this module answers instead. Every `Pin(n)` of one GPIO shares that GPIO's line, as on a chip:

    >>> import machine
    >>> machine.reset_fakes()
    >>> button = machine.Pin(5, machine.Pin.IN, machine.Pin.PULL_UP)
    >>> button.value()                  # nothing drives it: the pull-up wins
    1
    >>> machine.drive(5, 0)             # the test presses it (or a fake device drives it)
    >>> button.value()
    0

The outside world is the test's and the fake devices' (fakes/loadcells.py): `drive(gpio, level)`
sets a level from outside, `source(gpio, function)` makes a line's level a function of time (an
HX711's DOUT going low when a conversion is ready), and `watch(gpio, callback)` calls
`callback(level, t_us)` whenever the firmware or a PIO state machine changes what the GPIO drives
(an HX711 clocked by its SCK). Time comes from the clock the test gives `use_clock` (anything
with `ticks_ms()`), the same one the firmware runs on.

Works under MicroPython and CPython.
"""

GPIO_COUNT = 30         # the RP2040's GPIO 0..29 (a Pico brings out 0..22 and 26..28)

_lines = {}
_clock = None
_reset_cause = 1        # PWRON_RESET
PWRON_RESET = 1
WDT_RESET = 3
_IN = 0                 # Pin.IN, Pin.OUT, Pin.OPEN_DRAIN, for the hot paths
_OUT = 1
_OPEN_DRAIN = 2


def use_clock(clock):
    """The clock (with `ticks_ms()`) that fake time comes from; None: time stands at 0."""
    global _clock
    _clock = clock


def now_us():
    """The fake time in microseconds."""
    return 0 if _clock is None else _clock.ticks_ms() * 1000 + _spent[0]


_spent = [0]                    # microseconds spent by blocking calls, past the clock's ms


def spend_us(us):
    """The CPU is busy for `us` microseconds (a blocking call: a NeoPixel write with interrupts
    off, a get() that waits): time moves on for everything the fakes model."""
    total = _spent[0] + us
    if _clock is not None and hasattr(_clock, "advance"):
        _clock.advance(total // 1000)
        total %= 1000
    _spent[0] = total


def reset_fakes():
    """Forget every line, watcher, PWM, watchdog and NeoPixel strip: a fresh board for the
    next test."""
    global _clock
    import sys
    _lines.clear()
    _clock = None
    del _memory[:]
    _spent[0] = 0
    _next_address[0] = 0x20001000
    PWM.instances = []
    WDT.instance = None
    strips = sys.modules.get("neopixel")
    if strips is not None:
        strips.NeoPixel.instances = []
    pio = sys.modules.get("rp2")
    if pio is not None:
        pio.reset_fakes()


class _Line:
    """One GPIO: how the chip drives it, and what the outside does to it."""

    def __init__(self):
        self.mode = Pin.IN
        self.pull = None
        self.out = 0                # the level the chip drives in OUT mode
        self.outside = None         # a level driven from outside (None: not driven)
        self.source = None          # or a function of t_us giving that level
        self.watchers = []          # callback(level, t_us) on each change of `out`
        self.irq = None             # (handler, trigger, Pin)
        self.owner = None           # "pwm", "pio", "neopixel": a peripheral that took the pin
        self.next_change = None     # when `source` may next change by itself (see source())
        self.ctrl = 0x1F            # IO_BANK0 GPIOn_CTRL (FUNCSEL null, no override)
        self.inover = 0             # its INOVER: 2 forces the input low, 3 high, 1 inverts

    def pad(self, t_us=None):
        """The level on the pad, whoever drives it (IO_BANK0 STATUS's INFROMPAD)."""
        inover = self.inover
        self.inover = 0
        try:
            return self.level(t_us)
        finally:
            self.inover = inover

    def level(self, t_us=None):
        """The level the chip's inputs see (SIO, PIO): the pad's, through INOVER."""
        if self.inover:
            if self.inover > 1:
                return self.inover - 2          # forced low (2) or high (3)
            return 1 - self.pad(t_us)
        source = self.source
        if source is not None and self.mode == _IN:    # the common case first: it runs a lot
            return source(now_us() if t_us is None else t_us)
        if self.mode == _OUT or self.mode == _OPEN_DRAIN and not self.out:
            return self.out
        if source is not None:
            return source(now_us() if t_us is None else t_us)
        if self.outside is not None:
            return self.outside
        return 1 if self.pull == Pin.PULL_UP else 0


def line(gpio):
    """The shared state of `gpio`, made on first use."""
    if isinstance(gpio, bool) or not isinstance(gpio, int) or not 0 <= gpio < GPIO_COUNT:
        raise ValueError("invalid pin %r: the RP2040 has GPIO 0..%d" % (gpio, GPIO_COUNT - 1))
    found = _lines.get(gpio)
    if found is None:
        found = _lines[gpio] = _Line()
    return found


def level(gpio, t_us=None):
    """The level on `gpio` now (or at `t_us`), whoever drives it."""
    return line(gpio).level(t_us)


def drive(gpio, value):
    """Drive `gpio` from outside (a button, a sensor); None lets it go. Fires its IRQ."""
    target = line(gpio)
    before = target.level()
    target.outside = None if value is None else (1 if value else 0)
    _edge(target, before)


def source(gpio, function, next_change=None):
    """Make `gpio`'s outside level `function(t_us)` (None: no longer). `next_change(t_us)`, if
    given, says the first time after t_us the level may change by itself (-1: no such time),
    so that a PIO state machine waiting on the pin wakes exactly then."""
    target = line(gpio)
    target.source = function
    target.next_change = next_change


def watch(gpio, callback):
    """Call `callback(level, t_us)` whenever the chip changes the level it drives on `gpio`."""
    line(gpio).watchers.append(callback)


quiet = [False]                 # True: outputs change nothing outside (a dry run's)


def output(gpio, value, t_us=None):
    """The chip (firmware or PIO) drives `gpio` to `value`; watchers hear of a change."""
    if quiet[0]:
        return
    target = _lines.get(gpio)
    if target is None:
        target = line(gpio)
    value = 1 if value else 0
    if target.out == value:
        return
    before = None if target.irq is None else target.level()
    target.out = value
    when = now_us() if t_us is None else t_us
    for callback in target.watchers:
        callback(value, when)
    if before is not None:
        _edge(target, before)


def _edge(target, before):
    if target.irq is None:
        return
    after = target.level()
    handler, trigger, pin = target.irq
    if before != after and trigger & (Pin.IRQ_RISING if after else Pin.IRQ_FALLING):
        handler(pin)


class Pin:
    """machine.Pin: a GPIO as input or output, with pulls and an IRQ."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        self._line = line(id)
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        # MicroPython's rp2 port (machine_pin.c): `value` is keyword-only, and a mode given
        # without a pull sets the pull to none; Pin(n) alone changes nothing
        if mode != -1:
            self._line.mode = mode
            self._line.pull = None if pull == -1 else pull
        elif pull != -1:
            self._line.pull = pull
        if value is not None:
            output(self.id, value)

    def value(self, value=None):
        if value is None:
            return self._line.level()
        output(self.id, value)
        return None

    __call__ = value

    def on(self):
        output(self.id, 1)

    def off(self):
        output(self.id, 0)

    high = on
    low = off

    def toggle(self):
        output(self.id, 1 - self._line.out)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._line.irq = None if handler is None else (handler, trigger, self)

    def __repr__(self):
        return "Pin(GPIO%d)" % self.id


class PWM:
    """machine.PWM: frequency and duty on a pin; `history` keeps every (freq, duty_u16) set."""

    instances = []

    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = pin
        self._freq = 0
        self._duty = 0
        self.history = []
        self.running = True
        line(pin.id).owner = "pwm"
        PWM.instances.append(self)
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if not 8 <= value <= 62500000:
            raise ValueError("freq out of range")
        self._freq = value
        self.history.append((self._freq, self._duty))

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        if not 0 <= value <= 65535:
            raise ValueError("duty_u16 out of range")
        self._duty = value
        self.history.append((self._freq, self._duty))

    def deinit(self):
        self.running = False
        self._duty = 0

    @property
    def sounding(self):
        """True while the pin is toggling: running, with a duty strictly between 0 and 100%."""
        return self.running and 0 < self._duty < 65535


class WDT:
    """machine.WDT: once started it cannot be stopped; `feeds` keeps the time of each feed.
    `starved()` says whether the firmware let it run out (on a Pico: a reset)."""

    instance = None

    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout %d ms is out of the RP2040 watchdog's 1..8388" % timeout)
        self.timeout = timeout
        self.started_ms = now_us() // 1000
        self.feeds = []
        self.longest_ms = 0         # the longest time it went unfed so far
        WDT.instance = self

    def feed(self):
        now = now_us() // 1000
        last = self.feeds[-1] if self.feeds else self.started_ms
        if now - last > self.longest_ms:
            self.longest_ms = now - last
        self.feeds.append(now)

    def starved(self):
        """True when a gap between feeds (or since the last one) exceeded the timeout."""
        last = self.feeds[-1] if self.feeds else self.started_ms
        return max(self.longest_ms, now_us() // 1000 - last) > self.timeout


# --- memory: what DMA and mem32 reach (fakes/uctypes.py gives buffers their addresses) ------

TIMERAWL = 0x40054028           # the RP2040 timer's raw low word: microseconds since boot
IO_BANK0 = 0x40014000           # GPIOn_STATUS at + 8n, GPIOn_CTRL at + 8n + 4 (RP2040
                                # datasheet 2.19.6.1): the pad's level and its input override
CHIP_ID = 0x40000000            # SYSINFO's CHIP_ID: what an RP2040 B1 answers (rp2040js's
RP2040_B1 = 0x10002927          # sysinfo.js, "verified against the silicon": revision 1,
                                # part 0x0002, manufacturer 0x927)
_memory = []                    # (first address, bytes, buffer), in address order
_next_address = [0x20001000]
bus_us = None                   # set while a PIO/DMA event runs: the time it happens at


def address_of(buffer):
    """The fake address of `buffer` (a bytearray or bytes: what the firmware gives DMA): given
    on first use, 16-byte aligned like MicroPython's heap, and kept while the test runs."""
    for first, size, known in _memory:
        if known is buffer:
            return first
    size = len(buffer)
    first = _next_address[0]
    _next_address[0] = first + (size + 31) // 16 * 16
    _memory.append((first, size, buffer))
    return first


def _find(address):
    for first, size, buffer in _memory:
        if first <= address < first + size:
            return buffer, address - first
    return None, 0


def read_word(address):
    """The little-endian 32-bit word at `address` (the timer, or a buffer given an address)."""
    if address == TIMERAWL:
        return (now_us() if bus_us is None else bus_us) & 0xFFFFFFFF
    if address == CHIP_ID:
        return RP2040_B1
    if IO_BANK0 <= address < IO_BANK0 + 8 * GPIO_COUNT:
        target = line((address - IO_BANK0) // 8)
        if address & 4:
            return target.ctrl
        # STATUS: INFROMPAD (bit 17), INTOPERI (19): the pad's level, and the input's
        return target.pad() << 17 | target.level() << 19
    buffer, offset = _find(address)
    if buffer is None:
        return 0
    return (buffer[offset] | buffer[offset + 1] << 8 | buffer[offset + 2] << 16
            | buffer[offset + 3] << 24)


def write_word(address, value):
    """Store a little-endian 32-bit word at `address` (a DMA transfer, or GPIOn_CTRL)."""
    if IO_BANK0 <= address < IO_BANK0 + 8 * GPIO_COUNT and address & 4:
        target = line((address - IO_BANK0) // 8)
        target.ctrl = value
        target.inover = value >> 16 & 3
        return
    buffer, offset = _find(address)
    if buffer is None:
        raise ValueError("fake memory: no buffer at 0x%08x" % address)
    buffer[offset] = value & 0xFF
    buffer[offset + 1] = value >> 8 & 0xFF
    buffer[offset + 2] = value >> 16 & 0xFF
    buffer[offset + 3] = value >> 24 & 0xFF


class _Mem32:
    """machine.mem32: as MicroPython's (extmod/machine_mem.c) it gives a word as a *signed*
    int (0xFFFFFFFF reads as -1); mask it to compare with unsigned constants."""

    def __getitem__(self, address):
        word = read_word(address)
        return word - 0x100000000 if word & 0x80000000 else word

    def __setitem__(self, address, value):
        write_word(address, value & 0xFFFFFFFF)


mem32 = _Mem32()


def reset_cause():
    return _reset_cause


def unique_id():
    return b"\xe6\x61\x38\x04\x03\x27\x5a\x2c"


def freq(value=None):
    return 125000000 if value is None else None


def reset():
    raise SystemExit("machine.reset() called")


def _fake_uctypes():
    """`import uctypes` gives fakes/fake_uctypes.py from now on (see there)."""
    import sys
    import fake_uctypes
    sys.modules["uctypes"] = fake_uctypes


_fake_uctypes()
