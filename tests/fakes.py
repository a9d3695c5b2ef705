"""Hardware stand-ins shared by the driver and runner tests: a NeoPixel buffer that records
what it would send, and a pty that plays a USB serial device which can be unplugged."""

import os
import select
import time
import tty

from adafruit_pixelbuf import PixelBuf


class RecordingPixelBuf(PixelBuf):
    """A PixelBuf whose transfers are kept instead of clocked out to a strip."""

    def __init__(self, count, byteorder):
        super().__init__(count, byteorder=byteorder)
        self.sent = []

    def _transmit(self, buffer):
        self.sent.append(bytes(buffer))


class PtyDevice:
    """A USB serial device stand-in: a pty whose far end is the Pico's, reached through the
    link name `path` (a symlink, as /dev/serial/by-id/... is). `unplug()` closes the pty and
    removes the name, as pulling the cable does; `plug()` makes a new pty under the same name."""

    def __init__(self, path):
        self.path = path
        self.plug()

    def plug(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)                  # no echo before the link opens it
        self.tty = os.ttyname(slave)
        os.close(slave)                    # the pty lives on while its master is open
        os.symlink(self.tty, self.path + ".new")
        os.replace(self.path + ".new", self.path)

    def unplug(self):
        os.close(self.master)
        os.unlink(self.path)

    def send(self, data):
        os.write(self.master, data)

    def receive(self, size, timeout=2.0):
        data = b""
        end = time.monotonic() + timeout
        while len(data) < size and select.select([self.master], [], [],
                                                 max(0.0, end - time.monotonic()))[0]:
            data += os.read(self.master, size - len(data))
        return data
