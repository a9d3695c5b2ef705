"""The Pico of the end-to-end test: the firmware's bridge behind a pty, its fake load cells set
by the test, on the test's clock (CPython; tests/test_end_to_end_faults.py drives it).

    python firmware/tests/e2e_device.py LINK CONFIG.json [--corrupt 0.01] [--seed 1]

It makes a pty and a symlink LINK to its device node (as /dev/serial/by-id/... is to
/dev/ttyACM0), runs the bridge on the board CONFIG.json describes (`layli firmware
config`) with fake HX711s on its pins, prints "ready", and then obeys one command a
line on stdin, answering each:

- ``T ms v0 v1 ...``: the board's cells now read v0, v1, ... (raw): run the bridge until the
  clock reaches ms; answers "ok";
- ``U``: pull the cable (the pty closes, LINK goes); ``P``: put it back (a new pty behind
  LINK); answer "ok";
- ``F``: answers the guide frame the LEDs show, as `Frame.encode` hex ("-": none yet);
- ``S``: answers one JSON line of the bridge's and the link's counters.

`--corrupt` flips one bit in that share of the bytes, each way. Its own process, because the
fake `neopixel`, `machine` and the firmware's generic module names must not meet the host's.
"""

import argparse
import json
import os
import random
import sys
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.dirname(HERE)
sys.path[:0] = [os.path.join(FIRMWARE, "fakes"), FIRMWARE, HERE, os.path.dirname(FIRMWARE)]

import config                                                   # noqa: E402
import loadcells                                                # noqa: E402
import rig                                                      # noqa: E402
from bridge import Bridge                                       # noqa: E402
from bridge_over_pty import Noisy                               # noqa: E402
from device import Device                                       # noqa: E402
from port import FdPort                                         # noqa: E402

STEP_MS = 2                 # the bridge's loop turns this often (a Pico: about every ms)


class Unplugged:
    """The USB port with no cable: nothing comes, what is written is lost."""

    def read(self):
        return b""

    def write(self, data):
        pass


class Cable:
    """The pty behind `link`, and the noise on it."""

    def __init__(self, link, corrupt, rng):
        self.link, self.corrupt, self.rng = link, corrupt, rng
        self.master = None
        self.flipped = 0
        self.port = Unplugged()

    def plug(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)
        name = os.ttyname(slave)
        os.close(slave)
        os.symlink(name, self.link + ".new")
        os.replace(self.link + ".new", self.link)
        self.port = Noisy(FdPort(self.master), self.corrupt, self.rng)

    def unplug(self):
        self.flipped += self.port.flipped
        os.close(self.master)
        os.unlink(self.link)
        self.port = Unplugged()


class Plug:
    """The bridge's port: whichever the cable gives now."""

    def __init__(self, cable):
        self.cable = cable

    def read(self):
        return self.cable.port.read()

    def write(self, data):
        self.cable.port.write(data)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("link")
    parser.add_argument("config")
    parser.add_argument("--corrupt", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    clock = rig.fresh_pico()
    settings = config.load(args.config)
    cells = loadcells.direct(settings["sensors"]["clock"], settings["sensors"]["data"])
    device = Device(settings, clock)
    cable = Cable(args.link, args.corrupt, random.Random(args.seed))
    cable.plug()
    bridge = Bridge(device, Plug(cable), clock, settings["profile"])
    bridge.start()
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if words[0] == "T":
            until = int(words[1])
            for cell, value in zip(cells, words[2:]):
                cell.value = int(value)
            while clock.ticks_ms() < until:
                bridge.step()
                clock.advance(STEP_MS)
        elif words[0] == "U":
            cable.unplug()
        elif words[0] == "P":
            cable.plug()
        elif words[0] == "F":
            print("-" if bridge.frame is None else bridge.frame.encode().hex(), flush=True)
            continue
        elif words[0] == "S":
            print(json.dumps({"sensor_frames": bridge.sensor_frames,
                              "leds_shown": bridge.leds_shown,
                              "leds_rejected": bridge.leds_rejected,
                              "flipped": cable.flipped + getattr(cable.port, "flipped", 0),
                              "link": bridge.link.counters()}), flush=True)
            continue
        print("ok", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
