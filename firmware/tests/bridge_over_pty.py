"""The bridge over a real pty, against a host Link, on one simulated clock (CPython only).

    python firmware/tests/bridge_over_pty.py [--corrupt 0.01] [--seconds 5]

Prints one JSON object of what the host saw. This is how an end-to-end test drives the
firmware: the pty's master is the Pico's end of the USB cable (the bridge reads and writes it
through `port.FdPort`), its slave is the device node a host opens (as it would /dev/ttyACM0);
the fake load cells (fakes/loadcells.py) read whatever the test sets — a simulated board's
cells — and the bridge, the fakes and the host all run on one clock that the loop moves on, so
minutes of play take seconds. `--corrupt` flips that share of the bytes each way.
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

import loadcells                                                # noqa: E402
import rig                                                      # noqa: E402
from bridge import Bridge                                       # noqa: E402
from device import Device                                       # noqa: E402
from port import FdPort                                         # noqa: E402
from controller.protocol import Hello, Leds, Link, StateRequest  # noqa: E402


class Noisy:
    """A port that flips one bit in `rate` of the bytes it passes, both ways."""

    def __init__(self, port, rate, rng):
        self.port, self.rate, self.rng = port, rate, rng
        self.flipped = 0

    def _spoil(self, data):
        data = bytearray(data)
        for k in range(len(data)):
            if self.rng.random() < self.rate:
                data[k] ^= 1 << self.rng.randrange(8)
                self.flipped += 1
        return bytes(data)

    def read(self):
        return self._spoil(self.port.read())

    def write(self, data):
        self.port.write(self._spoil(data))


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--corrupt", type=float, default=0.0)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    master, slave = os.openpty()
    tty.setraw(slave)                   # bytes as they are: no echo, no newline translation
    host_fd = os.open(os.ttyname(slave), os.O_RDWR | os.O_NOCTTY)
    clock = rig.fresh_pico()
    values = [1000 * i for i in range(14)]
    loadcells.direct(rig.SCK, rig.DATA, values)
    device = Device(rig.board_config(), clock)
    rng = random.Random(4)
    device_port = Noisy(FdPort(master), args.corrupt, rng)
    bridge = Bridge(device, device_port, clock, "pico-bridge-2x6", session=7)
    host_port = FdPort(host_fd)
    host = Link(host_port.write, clock.ticks_ms, Hello("pty host", "pico-bridge-2x6", "host", 9))
    bridge.start()
    host.connect()
    seen = {"Hello": 0, "Sensors": 0, "State": 0, "Button": 0}
    right = 0
    pixels = bytes([k % 200 for k in range(84)])
    state = None
    for tick in range(int(args.seconds * 500)):
        if tick == 100:
            host.send(Leds(pixels))
        if tick == 200:
            host.send(StateRequest())
        bridge.step()
        for message in host.receive(host_port.read()):
            name = type(message).__name__
            seen[name] = seen.get(name, 0) + 1
            if name == "Sensors" and all(value is None or value == values[i]
                                         for i, value in enumerate(message.values)):
                right += 1              # a reading is right or missing, never wrong
            if name == "State":
                state = message
        host.poll()
        clock.advance(2)
    print(json.dumps({"seen": seen, "right_sensors": right, "flipped": device_port.flipped,
                      "strip_right": device.strip.pixels == pixels,
                      "state_right": state is not None and state.pixels == pixels,
                      "host": host.counters(), "device": bridge.link.counters()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
