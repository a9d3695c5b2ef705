"""The Pico's frame budget, measured on the emulated RP2040 (real MicroPython 1.27, 125 MHz).

    LAYLI_PICO_KIT=/path/to/kit python benchmarks/pico_frame_budget.py [--seconds S]
        [--board pico-bridge-2x6 --board pico-bridge-2x12 ...]

For each board it copies the bridge firmware onto an emulated Pico (compiled with mpy-cross,
as deploy.py does), wires the board's HX711 models (each on its own oscillator, about 10.7 ms a
conversion, 3% apart; firmware/emulator/devices.mjs) and runs the bridge's main loop for S
emulated seconds with a guide frame whose every place animates (the LEDs re-rendered and
written every 40 ms), its Sensors frames written to a port that takes everything. It prints:

- readings: how many Sensors frames went out, against the conversions of the slowest chip in
  that time (a frame goes out once every chip has a result; a cell's reading that could not be
  trusted goes out as missing);
- corrupted: reads the HX711 models saw disturbed by a conversion (their own count), and
  untrusted: readings the firmware flagged missing after its warm-up;
- CPU: the share of the time the bridge's step() ran, measured on the Pico (ticks_us), and the
  emulator's count of cycles the core was not asleep in WFE/WFI; per frame: CPU time / frames;
- heap: what is in use after a collection at the end (the loaded modules' bytecode, the rings,
  the objects the bridge keeps) and what is free; the longest step (a collection of that heap
  is the longest thing the loop does);
- flash: what the filesystem has free after the install.

The emulator's timing is optimistic (no flash-cache misses, no bus contention): keep a margin.
Needs node, `npm ci --prefix firmware`, mpremote and the kit (firmware/emulator/README.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CHECKOUT))

from controller.hardware.firmware import firmware_config   # noqa: E402
from controller.hardware.profile import load                # noqa: E402


def _emulated():
    spec = spec_from_file_location("layli_firmware_emulated",
                                   CHECKOUT / "firmware" / "emulator" / "emulated.py")
    module = module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


VARIANT = {"pico-bridge-2x6": "layli-goobalay", "pico-bridge-2x12": "layli-goobalay-long",
           "pico-bridge-2x7": "mangala-iv"}

BRIDGE = r'''
import gc, json, os, time
from config import check
from clock import TicksClock
from device import Device
from bridge import Bridge
from controller.guide.frame import Frame, SOUTH_COLOUR, NORTH_COLOUR, DROP, PICK, FLASH, TAKE

config = check(json.loads(%(config)r))
clock = TicksClock()
device = Device(config, clock)


class Port:                     # a host that takes everything and says nothing more
    def __init__(self):
        self.sent = 0

    def read(self):
        return b""

    def write(self, data):
        self.sent += len(data)

    def wait(self, ms):
        time.sleep_ms(ms)


port = Port()
bridge = Bridge(device, port, clock, config["profile"])
bridge.start()
bridge.link.introduced = True               # as if the host had said Hello
places = len(config["game"]["layout"])
frame = Frame(places)
patterns = (DROP, PICK, FLASH, TAKE)
for place in range(places):
    frame.set(place, SOUTH_COLOUR if place %% 2 else NORTH_COLOUR, patterns[place %% 4])
bridge._show_frame(frame.encode())
gc.collect()
base = gc.mem_alloc()
busy = 0
steps = 0
worst = 0
start = time.ticks_us()
while time.ticks_diff(time.ticks_us(), start) < %(us)d:
    began = time.ticks_us()
    bridge.step()
    took = time.ticks_diff(time.ticks_us(), began)
    busy += took
    worst = max(worst, took)
    steps += 1
    bridge.idle()
total = time.ticks_diff(time.ticks_us(), start)
gc.collect()
in_use = gc.mem_alloc()
sensors = device.sensors
fs = os.statvfs("/")
print(json.dumps({"busy_us": busy, "total_us": total, "steps": steps, "worst_step_us": worst,
                  "frames": bridge.sensor_frames, "untrusted": sensors.untrusted,
                  "restarts": sensors.restarts, "revivals": sensors.revivals,
                  "sent": port.sent, "heap_in_use": in_use, "heap_base": base,
                  "heap_free": gc.mem_free(), "flash_free": fs[0] * fs[3]}))
'''

MODULES = ("bridge", "device", "clock", "config", "leds", "hx711", "fast", "buttons", "buzzer",
           "port", "pits", "controller.guide.frame", "controller.guide.pixels",
           "controller.protocol")


def bridge(emulated, name: str, seconds: float, warm_s: float = 0.5) -> dict:
    config = firmware_config(load(name), VARIANT[name])
    config["watchdog_ms"] = 0
    with emulated.EmulatedPico(board=name) as pico:
        pico.install(*MODULES)
        pico.set_cells([1000 * (k + 1) for k in range(len(config["game"]["layout"]))])
        before = pico.pico_stats()
        pico.reset_stats()
        out = pico.exec(BRIDGE % {"config": json.dumps(config), "us": int(seconds * 1e6)},
                        timeout_s=max(600, 60 * seconds))
        after = pico.pico_stats()
        models = pico.stats()["hx711"]
    result = json.loads(out.strip().splitlines()[-1])
    cycles = after["cycles"] - before["cycles"]
    idle = after["idleCycles"] - before["idleCycles"]
    periods = [chip["period_ns"] / 1000 for chip in models if "period_ns" in chip]
    slowest = max(periods) if periods else 10702
    result.update(board=name, seconds=seconds, emulator_busy=(cycles - idle) / cycles,
                  expected=int(seconds * 1e6 // slowest),
                  corrupted=sum(chip.get("corrupted", 0) for chip in models),
                  reads=sum(chip.get("reads", 0) for chip in models))
    return result


def report(result: dict) -> str:
    frames = result["frames"]
    per_frame = result["busy_us"] / frames if frames else float("nan")
    return ("%(board)s, %(seconds).0f s: %(frames)d readings of %(expected)d conversions of "
            "the slowest chip; corrupted %(corrupted)d, untrusted %(untrusted)d, stalls revived "
            "%(revivals)d\n"
            "  CPU %(cpu).0f%% (emulator: %(emu).0f%% not asleep), %(per).2f ms a frame of "
            "%(period).1f ms (%(share).0f%%); longest step %(worst).1f ms\n"
            "  heap: %(most)d bytes in use after a collection, %(free)d free; flash free "
            "%(flash)d KiB" % {
                **result, "cpu": 100 * result["busy_us"] / result["total_us"],
                "emu": 100 * result["emulator_busy"], "per": per_frame / 1000,
                "period": result["total_us"] / max(frames, 1) / 1000,
                "share": 100 * per_frame * frames / result["total_us"] if frames else 0,
                "worst": result["worst_step_us"] / 1000, "most": result["heap_in_use"],
                "free": result["heap_free"], "flash": result["flash_free"] // 1024})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="emulated seconds per board (default 10; 600 for the 10-minute run)")
    parser.add_argument("--board", action="append", choices=sorted(VARIANT),
                        help="a pico-bridge profile (default: 2x6 and 2x12)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    emulated = _emulated()
    reason = emulated.unavailable_reason()
    if reason is not None:
        print("cannot run: %s" % reason, file=sys.stderr)
        return 2
    results = []
    for name in args.board or ["pico-bridge-2x6", "pico-bridge-2x12"]:
        started = time.monotonic()
        result = bridge(emulated, name, args.seconds)
        result["wall_s"] = time.monotonic() - started
        results.append(result)
        print(json.dumps(result) if args.json else report(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
