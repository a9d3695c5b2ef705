"""The Pico's boot script: read config.json, choose the mode, run it for ever.

MicroPython runs /main.py after boot. It first turns Ctrl-C off: a host that is already
sending (a Pi running `layli run` when the Pico is plugged in) sends 0x03 bytes in its frames,
and MicroPython would take each for Ctrl-C and stop main.py in the middle of its imports. Then
it:

1. reads and checks /config.json (config.py); a broken one stops here with a message on the
   USB serial port naming the key;
2. builds the hardware (device.py); if CONFIRM is held down it stops here: safe mode, the REPL
   stays free (to copy new files, while the bridge would hold the port) and no watchdog runs;
   if HINT is held down it runs the bring-up self-test instead of a mode (selftest.py: each
   place, cell, button and the buzzer, its report on the strip and the USB serial port);
3. runs bridge mode (bridge.py: the Pi drives the board) or standalone mode (standalone.py:
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


def safe_mode(device):
    """True when CONFIRM is held at boot: start nothing."""
    return device.buttons.down(3)


def self_test_mode(device):
    """True when HINT is held at boot: the bring-up self-test, not a mode."""
    return device.buttons.down(2)


def show_fault(device):
    device.strip.show_pixels([FAULT_COLOUR] * device.strip.count)
    device.strip.flush(device.clock)        # no main loop will poll the strip after this


def start(config, clock, port=None, folder=""):
    """The app `config` asks for, on `clock` (and `port` for the bridge and the self-test:
    None is the USB serial port; `folder` for standalone's files), built but not started —
    the self-test when HINT is held — or None in safe mode or when standalone mode cannot
    start."""
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
        return Bridge(device, port, clock, config["profile"])
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
