"""The Pico's hardware as one object, built from a checked config (config.py).

    device = Device(config, clock)
    device.sensors.read()           # a frame of raw readings, or None (hx711.py / pits.py)
    device.strip.show(pixel_bytes)  # leds.py
    device.buttons.poll()           # buttons.py
    device.buzzer                   # buzzer.py, or None on a board without one
    device.watchdog.feed()          # after start_watchdog(), at least every watchdog_ms
    device.tick()                   # each turn of a main loop: strip, buzzer, watchdog, and
                                    # the heap's garbage collected at a moment of our choosing

Both modes, bridge and standalone, run on a Device; tests build one on the fake machine, rp2
and neopixel modules.
"""

import gc
import sys

import machine

from buttons import Buttons
from buzzer import Buzzer
from leds import Strip

CHECK_EVERY = 128           # turns of the main loop between two looks at the free heap
                            # (gc.mem_free walks the heap's table: 8 ms on a Pico) ...
COLLECT_SHARE = 3           # collect once the free heap is under this fraction of what a
                            # collection leaves free...
COLLECT_LEAST = 8192        # ... or of this many bytes
BURSTS_CHECK = 8            # a heap used in bursts (`pace_collections`): a look as soon as
BURSTS_SHARE = 2            # this many turns, and a collection at this fraction
# the heap's free bytes on a Pico; elsewhere (CPython, MicroPython under node: the tests'
# runtimes, whose heaps are far larger) the collector is left to itself
_mem_free = gc.mem_free if sys.platform == "rp2" else None


class Watchdog:
    """machine.WDT, started on demand: once running it cannot be stopped, and the Pico resets
    unless `feed()` comes within `timeout_ms` (a hung main loop, a crash in the firmware).
    A timeout of 0 never starts it (development)."""

    def __init__(self, timeout_ms):
        self.timeout_ms = timeout_ms
        self._wdt = None

    def start(self):
        if self.timeout_ms and self._wdt is None:
            self._wdt = machine.WDT(timeout=self.timeout_ms)

    @property
    def running(self):
        return self._wdt is not None

    def feed(self):
        if self._wdt is not None:
            self._wdt.feed()


def make_sensors(sensors, clock):
    """The sensor driver a config's `sensors` entry describes."""
    kind = sensors["kind"]
    if kind == "hx711":
        from hx711 import HX711Array
        return HX711Array(sensors["clock"], sensors["data"], sensors["gain"],
                          sensors["state_machine"], clock=clock)
    if kind == "hx711-74hc165":
        from hx711 import HX711Chain
        return HX711Chain(sensors["clock"], sensors["serial"], sensors["cells"],
                          sensors["gain"], sensors["state_machine"], clock=clock)
    from pits import DigitalPits
    return DigitalPits(sensors["pins"], clock, sensors["active_low"])


class Device:
    """Sensors, LED strip, buttons, buzzer and watchdog, as `config` wires them."""

    def __init__(self, config, clock):
        self.config = config
        self.clock = clock
        self.buttons = Buttons(config["buttons"], clock)
        leds = config["leds"]
        self.strip = Strip(leds["pin"], leds["count"], leds["order"])
        self.buzzer = None if config["buzzer"] is None else Buzzer(config["buzzer"], clock)
        self.sensors = make_sensors(config["sensors"], clock)
        self.counting = config["sensors"]["kind"] != "digital"
        self.watchdog = Watchdog(config["watchdog_ms"])
        self.collections = 0        # collections made here (MicroPython's own are not counted)
        self._turns = 0                 # turns since the last look at the heap
        self._check_every = CHECK_EVERY     # turns between two looks, paced by their finds
        self._check_least = CHECK_EVERY     # ... never fewer (pace_collections)
        self._collect_share = COLLECT_SHARE
        self._free_then = None          # the free heap the last look found
        self._collect_below = COLLECT_LEAST
        self._collect_due = False       # a look found the heap low: collect when allowed
        self._measure_due = False       # a collection was made: see what it left
        if _mem_free is not None:
            self.collect()

    def led_layout(self, game=None):
        """The strip's layout for guide frames (controller.guide.pixels.LedLayout) from a
        "game" entry (config.json's when None): the LEDs of each place, the brightness and
        current caps. None when there is none (a bridge that is only ever sent whole strips).
        ValueError when it does not fit the strip."""
        if game is None:
            game = self.config.get("game")
        if game is None:
            return None
        from controller.guide.pixels import LedLayout
        return LedLayout(game["layout"], self.strip.count, game["brightness"], game["max_ma"])

    def start_watchdog(self):
        """Start the watchdog (at the start of the main loop: imports and a journal's replay
        before it may take longer than the timeout)."""
        self.watchdog.start()

    def tick(self, spare=True):
        """What every main loop does each time round: a strip frame that waited for the line,
        the buzzer's notes, the watchdog; every CHECK_EVERY turns a look at the free heap, and
        a collection when it runs low (`collect`). A turn that is not `spare` (it did a
        guide frame's work, which the players wait for) leaves the heap to a later one.
        A loop whose heap use comes in bursts paces the looks by what they find
        (`pace_collections`).

        The look (8 ms on a Pico: gc.mem_free walks the heap), the collection (25-30 ms) and
        the look at what the collection left (8 ms more) each wait for a turn of their own
        where `may_be_away` (one in four readings at most): the load cells' reads stay timed
        for 40 ms with the CPU away, and the three in one turn took 42-46 ms, which left a
        read unplanned now and then (one corrupted and 4 untrusted in 10 minutes of a 2 x 6
        bridge)."""
        self.strip.poll()
        if self.buzzer is not None:
            self.buzzer.poll()
        self.watchdog.feed()
        self._turns += 1                # every turn: the busy ones use the heap up most
        if _mem_free is None or not spare:
            return
        if not (self._collect_due or self._measure_due) and self._turns < self._check_every:
            return
        # each with the load cells' next reads queued first; not yet possible (no reading
        # just in, or queued already for the last piece): a later turn tries
        if not self.may_be_away():
            return
        if self._collect_due:
            self.collect()
        elif self._measure_due:         # what the last collection left sets the next one
            self._measure_due = False
            free = _mem_free()
            self._collect_below = max(COLLECT_LEAST, free // self._collect_share)
            self._looked(free)
        else:
            free = _mem_free()
            self._collect_due = free < self._collect_below
            self._looked(free)

    def pace_collections(self):
        """For a loop whose heap use comes in bursts (standalone mode: a move's work, and a
        kilobyte of floats a judgement, on a 2 x 12 board whose heap is 40 KB free after a
        collection): the looks at the heap are paced by what they find, the next after a
        quarter of the turns the heap above the collection's threshold would last at the
        pace since the last (BURSTS_CHECK to CHECK_EVERY turns; every turn counts, the busy
        ones use the heap most), and a collection comes once the free heap is under half of
        what the last one left (BURSTS_SHARE), so that a move does not leave MicroPython to
        collect by itself first. The bridge's heap use is steady (91 bytes a turn): it keeps
        a look every CHECK_EVERY turns and collects at a third, with fewer collections."""
        self._check_least = BURSTS_CHECK
        self._collect_share = BURSTS_SHARE

    def _looked(self, free):
        """A look found `free` bytes: the next look's pace from the heap used since the last."""
        used = 0 if self._free_then is None else self._free_then - free
        if used > 0:                    # (a collection between them: the pace stays)
            left = free - self._collect_below
            self._check_every = min(CHECK_EVERY,
                                    max(self._check_least, left * self._turns // (4 * used)))
        self._free_then = free
        self._turns = 0

    @property
    def heap_due(self):
        """True when a look at the heap or a collection waits for a spare turn (`tick`
        makes it once the load cells allow): a loop with other work for its spare turns
        leaves it this one."""
        return _mem_free is not None and (self._collect_due or self._measure_due or
                                          self._turns >= self._check_every)

    @property
    def collect_due(self):
        """True when a look at the heap found it low and the collection waits for a moment
        the load cells allow (`tick` makes it)."""
        return self._collect_due

    def may_be_away(self):
        """True when the CPU may now be away (a collection, a flash write): the load cells'
        next four reads, 40 ms of them, are queued in their program (hx711's `plan_ahead`)
        and stay timed without it (a longer absence leaves the reads after those unplanned:
        some may come out untrusted), or the sensors need no planning (digital pits).
        False: not now (no reading just in, or the reads are queued already): ask again
        after the next reading. With load cells, once True it is False until a reading has
        come in again, so two things that each take the CPU away (a collection, a flash
        write) never follow one another unplanned."""
        plan_ahead = getattr(self.sensors, "plan_ahead", None)
        return plan_ahead is None or plan_ahead()

    def collect(self):
        """Collect the heap's garbage now. MicroPython would do it by itself when the heap is
        full, at whatever moment that is — 25 to 30 ms with the CPU away, three HX711
        conversions, their reads left unplanned. `tick` does it first, once the free heap is
        under a third of what the last collection left (half: `pace_collections`), at a
        moment the load cells allow: just after a reading, their next four reads queued in
        their program (hx711's `plan_ahead`: it says when)."""
        gc.collect()
        self.collections += 1
        self._collect_due = False
        self._measure_due = True        # on a later spare turn (tick)
