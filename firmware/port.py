"""The byte link to the host, behind a small interface the bridge and its tests share.

A port has two methods:

- `read()`: the bytes that have arrived since the last call (b"" when none); never blocks;
- `write(data)`: send bytes;

and may have a third, `wait(ms)`: sleep until a byte comes or `ms` pass (the bridge idles on
it between steps; a port without it is waited on with the clock).

`StdioPort` is the Pico's USB serial: MicroPython's own stdin/stdout, the port the REPL uses.
Raw bytes flow both ways once Ctrl-C is disabled (`micropython.kbd_intr(-1)`: a 0x03 in a frame
must not interrupt the program), so the REPL is out of reach while the bridge runs: to reach it,
hold CONFIRM while plugging the Pico in (main.py then starts nothing).

MicroPython's stdin blocks until every byte asked for is there, so `StdioPort.read` takes one
byte at a time while `select.poll` says one is waiting (about 20 us a byte on a Pico: a strip of
168 LEDs, 510 bytes a frame, costs 10 ms; at 25 frames a second a quarter of the CPU).

`MemoryPort` is a port in memory (tests: `feed` what the host sends, `take` what the device
wrote). `FdPort` runs on a host (CPython) over a file descriptor, such as one end of a pty:
the end-to-end test runs the bridge that way.
"""

import sys

try:
    import select
except ImportError:
    select = None

CHUNK = 512             # the most bytes one read() takes, so the loop gets back to its sensors


def _keyboard_interrupt(char):
    """MicroPython's micropython.kbd_intr(char); nothing elsewhere (CPython has no such
    thing on a binary stream)."""
    try:
        from micropython import kbd_intr
    except ImportError:
        return
    kbd_intr(char)


class StdioPort:
    """The USB serial port as MicroPython's stdin and stdout (or the binary streams given,
    which must work with select.poll: tests use a pipe)."""

    def __init__(self, limit=CHUNK, stdin=None, stdout=None):
        _keyboard_interrupt(-1)             # 0x03 is data now, not Ctrl-C
        self._in = sys.stdin.buffer if stdin is None else stdin
        self._out = sys.stdout.buffer if stdout is None else stdout
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._byte = bytearray(1)
        self._limit = limit

    def read(self):
        got = bytearray()
        while len(got) < self._limit and self._poll.poll(0):
            # the Pico's stdin.buffer has readinto (MicroPython's shared/runtime/
            # sys_stdio_mphal.c); the stubs type it as typing.BinaryIO, which lacks it
            if not self._in.readinto(self._byte):  # pyright: ignore[reportAttributeAccessIssue]
                break                       # end of the stream
            got += self._byte
        return bytes(got)

    def write(self, data):
        self._out.write(data)

    def wait(self, ms):
        """Sleep until a byte comes or `ms` pass (the CPU idles meanwhile)."""
        self._poll.poll(ms)

    def close(self):
        _keyboard_interrupt(3)


class MemoryPort:
    """A port in memory: `feed(data)` queues bytes for `read()`, `take()` returns (and
    forgets) everything written since the last take."""

    def __init__(self):
        self._incoming = bytearray()
        self._written = bytearray()
        self.written_total = 0

    def feed(self, data):
        self._incoming += data

    def read(self):
        data = bytes(self._incoming)
        self._incoming = bytearray()
        return data

    def write(self, data):
        self._written += data
        self.written_total += len(data)

    def take(self):
        data = bytes(self._written)
        self._written = bytearray()
        return data

    def close(self):
        pass


class FdPort:
    """A port over a file descriptor (CPython: `os.read` without blocking), e.g. the device
    end of a pty that stands in for the USB cable. As on a Pico with no host listening, bytes
    that cannot go out within `timeout_s` (no reader, or the other end closed) are dropped
    and counted in `dropped`."""

    def __init__(self, fd, limit=4096, timeout_s=0.05):
        import os
        self._os = os
        self._fd = fd
        self._limit = limit
        self._timeout_s = timeout_s
        self.dropped = 0
        os.set_blocking(fd, False)

    def read(self):
        try:
            return self._os.read(self._fd, self._limit)
        except OSError:         # BlockingIOError: nothing yet; EIO: the other end is closed
            return b""

    def write(self, data):
        view = memoryview(data)
        while view:
            try:
                view = view[self._os.write(self._fd, view):]
                continue
            except BlockingIOError:
                if select.select([], [self._fd], [], self._timeout_s)[1]:
                    continue
            except OSError:
                pass
            self.dropped += len(view)
            return

    def close(self):
        self._os.close(self._fd)
