"""What the emulated-Pico tests share (tests/test_emulated_*.py): the firmware's host-side
emulator modules, loaded from their files (firmware/ is not a package), and why the tests skip
when the kit is missing.

The emulated Pico is the official MicroPython 1.27 for RPI_PICO on an emulated RP2040
(firmware/emulator/: rp2040js under node, PIO in step with the clock), with the board's parts on
its pins as datasheet models. It needs the kit (LAYLI_PICO_KIT: firmware.uf2 and
bootrom-b1.bin), node and firmware/package.json's packages, and mpremote.
"""

from __future__ import annotations

import sys
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
FIRMWARE = CHECKOUT / "firmware"


def _load(name: str, path: Path):
    """A host-side firmware module loaded from its file, once a process."""
    if name in sys.modules:
        return sys.modules[name]
    spec = spec_from_file_location(name, path)
    module = module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


emulated = _load("layli_firmware_emulated", FIRMWARE / "emulator" / "emulated.py")
game = _load("layli_firmware_emulated_game", FIRMWARE / "emulator" / "game.py")
REASON = emulated.unavailable_reason()
needs_kit = pytest.mark.skipif(REASON is not None, reason=REASON or "")

# The acceptance games' seed (the board's load cells and the players' hands and choices):
# its first move already has a relay of five laps, a capture and two mistakes in either mode,
# so CI plays one in standalone mode, two in bridge mode (a cell unplugged in the second). Its
# six moves take the players 97 actions (271 with game.SEED): firmware/emulator/README.md.
GAME_SEED = 263


# Frames read by a prompt CPU: no garbage collection in the middle. A collection of the
# Pico's heap takes it tens of milliseconds (benchmarks/pico_frame_budget.py), during which
# the reads go unplanned and some are caught by a conversion: those come out None, and the
# converters' models count them as errors, which these tests want to be none. (Each read
# leaves garbage: the loop stops before the heap runs out.)
PROMPT_LOOP = ("import gc\n"
               "frames = []\n"
               "gc.collect()\n"
               "gc.disable()\n"
               "start = time.ticks_ms()\n"
               "while (len(frames) < %d and time.ticks_diff(time.ticks_ms(), start) < 1500\n"
               "       and gc.mem_free() > 16000):\n"
               "    frame = cells.read()\n"
               "    if frame:\n"
               "        frames.append(frame)\n"
               "gc.enable()\n")
