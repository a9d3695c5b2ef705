"""The Pico's boot script: read config.json, choose the mode, run it for ever.

MicroPython runs /main.py after boot. It first turns Ctrl-C off: a host that is already
sending (a Pi running `layli run` when the Pico is plugged in) sends 0x03 bytes in its frames,
and MicroPython would take each for Ctrl-C and stop main.py in the middle of its imports. Then
it:

1. reads and checks /config.json (config.py); a broken one stops here with a message on the
   USB serial port naming the key;
2. names the chip (`read_chip`: its CHIP_ID register, and what MicroPython says it runs on).
   The firmware uses the RP2040's registers at their RP2040 addresses (and was only ever run
   on an RP2040): on any other chip (a Pico 2's RP2350) it starts nothing — not the load
   cells' PIO and DMA, not the watchdog — says so on the serial port, and shows the chip
   pattern (every other LED dim red, through MicroPython's own `neopixel`, which knows the
   chip). An RP2040 is named on the serial port (bridge mode: in its Hello, the serial port
   being the protocol's);
3. builds the hardware (device.py); if CONFIRM is held down it stops here: safe mode, the REPL
   stays free (to copy new files, while the bridge would hold the port) and no watchdog runs;
   if HINT is held down it runs the bring-up self-test instead of a mode (selftest.py: each
   place, cell, button and the buzzer, its report on the strip and the USB serial port);
4. runs bridge mode (bridge.py: the Pi drives the board) or standalone mode (standalone.py:
   the controller on the Pico), as `mode` says. Each starts the watchdog and feeds it from
   its main loop: a hang resets the Pico, and a standalone game resumes from its journal.
   An exception that ends the loop leaves its traceback in /crash.txt before the reset.

If standalone mode cannot start (a calibration or a game that does not fit the board), the
strip shows every LED dim in the fault colour and the message goes to the serial port.
"""

try:                            # first of all: the host may be sending already, and its
    from micropython import kbd_intr    # frames hold 0x03 bytes, each a Ctrl-C that would
    kbd_intr(-1)                # stop this script half way through its imports (the REPL,
except ImportError:             # once main.py is over, takes Ctrl-C again by itself)
    pass

import sys

sys.path.append("/lib")         # mip's folder; the portable core lives in /controller

from clock import TicksClock
from device import Device

CONFIG = "config.json"
CRASH = "crash.txt"             # the last crash's traceback, for a person at the REPL
FAULT_COLOUR = (24, 22, 6)      # dim yellow: the guide's colour for a fault
CHIP_COLOUR = (32, 0, 0)        # dim red, on every other LED: a chip this firmware refuses

# SYSINFO's CHIP_ID register, at 0x40000000 on both chips (the RP2040 and RP2350 datasheets'
# SYSINFO register lists; pico-sdk's addressmap.h has SYSINFO_BASE 0x40000000 for both):
# REVISION in bits 31:28, PART in 27:12, the JEP106 manufacturer in 11:0 (0x927, Raspberry
# Pi; on the RP2350 bits 11:1 and a stop bit of 1, the same 12 bits). PART is 0x0002 on an
# RP2040 (pico-sdk's PART_RP2, checked by rp2040_chip_version()), 0x0004 on an RP2350.
# rp2040js, the emulated Pico, answers 0x10002927 (an RP2040 B1), and its RP2350 model
# 0x20004927 (an A2), both "verified against the silicon".
SYSINFO_CHIP_ID = 0x40000000
MANUFACTURER_RPI = 0x927
PARTS = {0x0002: "RP2040", 0x0004: "RP2350"}
SUPPORTED = "RP2040"


class Chip:
    """The microcontroller this runs on: `name` (RP2040, RP2350, or "unknown"), from its
    CHIP_ID register `chip_id` (`part`, `revision`), and `machine`, what MicroPython says it was
    built for (sys.implementation._machine: "Raspberry Pi Pico with RP2040"). The register
    decides: a build for another board says nothing of the silicon under it."""

    def __init__(self, chip_id, machine=""):
        chip_id &= 0xFFFFFFFF               # machine.mem32 gives a signed word
        self.chip_id = chip_id
        self.part = chip_id >> 12 & 0xFFFF
        self.revision = chip_id >> 28
        self.machine = machine
        known = chip_id & 0xFFF == MANUFACTURER_RPI
        self.name = PARTS.get(self.part, "unknown") if known else "unknown"

    @property
    def supported(self):
        return self.name == SUPPORTED

    def describe(self):
        """One line: the name, the register, and MicroPython's words."""
        return "%s (CHIP_ID 0x%08x: part 0x%04x, revision %d; MicroPython: %s)" % (
            self.name, self.chip_id, self.part, self.revision, self.machine or "?")

    def refusal(self):
        """What to do, for a chip that is not supported."""
        if self.name == "RP2350":
            return ("this firmware runs on an RP2040 only: its load cells and LED strip use "
                    "the RP2040's registers at their RP2040 addresses (the timer's at "
                    "0x40054028; the RP2350's at 0x400b0028) and it has never run on an "
                    "RP2350. RP2350 support (a Pico 2, MicroPython's RPI_PICO2) is not there "
                    "yet: use a Raspberry Pi Pico (RP2040) with MicroPython's RPI_PICO build")
        return ("this firmware runs on an RP2040 only (a Raspberry Pi Pico with MicroPython's "
                "RPI_PICO build)")


def read_chip():
    """The Chip this runs on: its CHIP_ID register and MicroPython's name for its board."""
    import machine
    return Chip(machine.mem32[SYSINFO_CHIP_ID], getattr(sys.implementation, "_machine", ""))


def chip_refusal(chip):
    """The line the serial port gets on an unsupported `chip`: which chip, and what to do."""
    return ("layli: this Pico's chip is %s: %s. Nothing started; the strip shows every other "
            "LED dim red." % (chip.describe(), chip.refusal()))


def refuse_chip(config, chip):
    """Start nothing on an unsupported `chip`: say so on the serial port, and show the chip
    pattern on the strip (every other LED dim red) with MicroPython's `neopixel`, which sends
    the bits from the CPU and knows the chip's own timer: nothing of leds.py's RP2040 PIO/DMA
    addresses is touched."""
    print(chip_refusal(chip))
    import machine
    import neopixel
    leds = config["leds"]
    order = leds["order"]
    strip = neopixel.NeoPixel(machine.Pin(leds["pin"]), leds["count"])
    strip.ORDER = (order.index("R"), order.index("G"), order.index("B"), 3)
    for i in range(leds["count"]):
        strip[i] = CHIP_COLOUR if i % 2 == 0 else (0, 0, 0)
    strip.write()


def safe_mode(device):
    """True when CONFIRM is held at boot: start nothing."""
    return device.buttons.down(3)


def self_test_mode(device):
    """True when HINT is held at boot: the bring-up self-test, not a mode."""
    return device.buttons.down(2)


def show_fault(device):
    device.strip.show_pixels([FAULT_COLOUR] * device.strip.count)
    device.strip.flush(device.clock)        # no main loop will poll the strip after this


def start(config, clock, port=None, folder="", chip=None):
    """The app `config` asks for, on `clock` (and `port` for the bridge and the self-test:
    None is the USB serial port; `folder` for standalone's files), built but not started —
    the self-test when HINT is held — or None in safe mode, on a chip this firmware does not
    support (`chip`: a Chip, read from the chip when None), or when standalone mode cannot
    start."""
    if chip is None:
        chip = read_chip()
    if not chip.supported:
        refuse_chip(config, chip)
        return None
    if config["mode"] != "bridge":      # the bridge's serial port is the protocol's: its
        print("layli: %s" % chip.describe())        # Hello names the chip
    device = Device(config, clock)
    if safe_mode(device):
        print("layli: CONFIRM held at boot: safe mode, nothing started (the REPL is free)")
        return None
    if self_test_mode(device):
        from selftest import SelfTest
        if port is None:
            from port import StdioPort
            port = StdioPort()
        return SelfTest(device, port, clock)
    if config["mode"] == "bridge":
        from bridge import Bridge
        if port is None:
            from port import StdioPort
            port = StdioPort()
        return Bridge(device, port, clock, config["profile"], chip=chip.name)
    from standalone import Standalone, StandaloneError
    try:
        return Standalone(device, clock, config["game"], folder)
    except StandaloneError as error:
        show_fault(device)
        print("layli: standalone mode cannot start: %s" % error)
        return None


def record_crash(error, path=CRASH):
    """Keep the traceback of what stopped the main loop in `path` (the watchdog then resets
    the Pico, and the traceback would be lost with the REPL's screen)."""
    try:
        with open(path, "w") as handle:
            if hasattr(sys, "print_exception"):
                sys.print_exception(error, handle)
            else:                       # CPython
                import traceback  # pyright: ignore[reportMissingImports] (not on a Pico)
                traceback.print_exception(error, file=handle)
    except OSError:
        pass                            # a full or read-only flash: nothing more to do


def main(path=CONFIG):
    from config import ConfigError, load
    try:
        config = load(path)
    except ConfigError as error:
        print("layli: %s" % error)
        return
    app = start(config, TicksClock())
    # config.py's checks are done with: its code (7 KB, 3% of the heap, which a 2 x 12
    # standalone board fills) is let go; the constants buttons.py and leds.py took stay
    del ConfigError, load
    sys.modules.pop("config", None)
    if app is None:
        return
    try:
        app.run()
    except Exception as error:
        record_crash(error)
        raise


if __name__ == "__main__":
    main()
