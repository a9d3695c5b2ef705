"""The byte link to the Pico over USB serial, reopened by itself after the cable is pulled.

    link = SerialLink("/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c-if00",
                      on_connect=handshake)           # handshake(link): say HELLO again
    link.open()                   # DeviceError naming the port if it is not there
    while running:
        data = link.read()        # what has arrived; b"" after `timeout` s of nothing
        link.write(frame)         # False while the cable is out: the bytes are dropped

A Pico running MicroPython is a USB CDC device: `/dev/ttyACM0`, or better its name under
`/dev/serial/by-id/`, which stays the same whichever socket it is in. When the cable is pulled
the device node goes and the open port fails (pyserial's SerialException, an OSError); the link
closes the port, logs why, calls `on_disconnect(reason)`, and reopens the same name by itself
while the caller keeps calling `read()` and `write()`: first after `retry_s`, then twice as long
after each failed try, up to `max_retry_s`. Every open, the first included, calls
`on_connect(link)`, the place for the handshake: the Pico may have rebooted, and a full-state
message puts both sides back in step.

It carries bytes only; the framing (COBS, CRC-16) and the messages are `controller.protocol`'s.
Bytes written while the cable is out are dropped, and bytes in flight when it went are lost:
the protocol's acks, retries and full-state resend cover both.

Any port pyserial opens works, URLs included (`loop://` loops writes back to reads):

    >>> link = SerialLink("loop://")
    >>> link.open()
    >>> link.write(b"hello")
    True
    >>> link.read()
    b'hello'
    >>> link.close()

Use a link from one thread: reading, writing and reconnecting share its state.
"""

from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable
from typing import Any

import serial

from .common import DeviceError, check_number

log = logging.getLogger(__name__)

DRAIN_MOST = 65536      # the most bytes one read() takes: a flood cannot hold the loop


class SerialLink:
    """Bytes to and from the serial device `port` (a device path or a pyserial URL), reopened
    after it is lost.

    - `baudrate=115200`: ignored by USB CDC (the Pico's USB runs at USB speed), used by a
      UART adapter.
    - `timeout=0.01`: how long `read()` waits for a first byte, in s (0: not at all). While the
      link is down `read()` waits as long before it returns b"", so a loop around it does not
      spin.
    - `write_timeout=0.5`: a write that cannot finish in this time means the other side has
      stopped reading: the link is treated as lost and reopened.
    - `retry_s=0.1`, `max_retry_s=2.0`: the backoff between tries to reopen a lost port.
    - `on_connect(link)`, `on_disconnect(reason)`: called in the caller's thread, from
      `open()`, `read()` or `write()`.
    """

    def __init__(self, port: str, *, baudrate: int = 115200, timeout: float = 0.01,
                 write_timeout: float = 0.5, retry_s: float = 0.1, max_retry_s: float = 2.0,
                 on_connect: Callable[[SerialLink], Any] | None = None,
                 on_disconnect: Callable[[str], Any] | None = None) -> None:
        if not isinstance(port, str) or not port:
            raise ValueError("a serial port is a device path or a pyserial URL, not %r" % (
                port,))
        check_number(baudrate, "baudrate", integer=True)
        check_number(timeout, "timeout (s)", zero=True)
        check_number(write_timeout, "write_timeout (s)")
        check_number(retry_s, "retry_s")
        check_number(max_retry_s, "max_retry_s")
        if max_retry_s < retry_s:
            raise ValueError("max_retry_s (%s) is shorter than retry_s (%s)" % (
                max_retry_s, retry_s))
        self.port = port
        self.baudrate = baudrate
        self.timeout = timeout
        self.write_timeout = write_timeout
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        self.on_connect = on_connect
        self.on_disconnect = on_disconnect
        self.connections = 0                 # successful opens, the first included
        self.last_error: str | None = None   # why the port was last lost or failed to open
        self._serial: serial.SerialBase | None = None
        self._open = False                   # between open() and close()
        self._retry_delay = retry_s          # the wait before the next try to reopen
        self._next_try = 0.0                 # time.monotonic() of that try
        self._lost_at = 0.0

    @property
    def connected(self) -> bool:
        """Whether the port is open now (False while the cable is out, and before open())."""
        return self._serial is not None

    def open(self) -> None:
        """Open the port. Raises DeviceError when it cannot be opened, saying why (no such
        device, no permission, in use), and ValueError for a URL pyserial does not know."""
        if self._open:
            return
        try:
            self._connect()
        except OSError as error:
            self.last_error = self._explain(error)
            raise DeviceError(self.last_error) from error
        except ValueError as error:              # serial_for_url: an unknown protocol
            raise ValueError("serial port %r: %s" % (self.port, error)) from error
        self._announce()

    def read(self) -> bytes:
        """The bytes that have arrived, waiting up to `timeout` s for the first; b"" when none
        came or the link is down (it tries to reopen the port here when a try is due)."""
        port = self._port(wait=True)
        if port is None:
            return b""
        try:
            data = port.read(port.in_waiting or 1)    # read(1): waits up to the timeout
            # then everything that is there: pyserial's socket:// (a Pico behind a network
            # serial server, or the emulated one) says 1 for "some bytes", not how many, so
            # one look took two bytes a read and a 93-frames-a-second bridge came through at
            # three; a device port says them all at once and this loop turns once
            while data and len(data) < DRAIN_MOST:
                waiting = port.in_waiting
                if not waiting:
                    break
                data += port.read(waiting)
            return data
        except OSError as error:                      # SerialException is an OSError
            self._lose(error)
            return b""

    def write(self, data: bytes) -> bool:
        """Send `data`. True when it went to the device; False when the link is down, and the
        bytes are dropped (it tries to reopen the port first when a try is due)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ValueError("a serial link carries bytes, not %s" % type(data).__name__)
        port = self._port(wait=False)
        if port is None:
            return False
        try:
            port.write(data)
            return True
        except OSError as error:
            self._lose(error)
            return False

    def close(self) -> None:
        """Close the port for good: no more reopening until open() again."""
        self._open = False
        self._lost_at = 0.0
        if self._serial is not None:
            self._serial, port = None, self._serial
            port.close()

    def __enter__(self) -> SerialLink:
        self.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "connected" if self.connected else "open, waiting for the device" if (
            self._open) else "closed"
        return "<SerialLink %s, %s>" % (self.port, state)

    # -- the state behind it

    def _connect(self) -> None:
        """Open the port: OSError (or ValueError, for a URL pyserial does not know) if it
        cannot be."""
        # exclusive: a second program on the same port would take half of the bytes
        self._serial = serial.serial_for_url(
            self.port, baudrate=self.baudrate, timeout=self.timeout,
            write_timeout=self.write_timeout, exclusive=True)
        self._open = True
        self._retry_delay = self.retry_s
        self.connections += 1

    def _announce(self) -> None:
        """Log the connection and call on_connect (outside the open's try: an error of the
        handshake is the caller's to see, not a port that failed to open)."""
        if self._lost_at:
            log.info("%s: reconnected after %.1f s", self.port, time.monotonic() - self._lost_at)
            self._lost_at = 0.0
        else:
            log.info("%s: connected", self.port)
        if self.on_connect is not None:
            self.on_connect(self)

    def _port(self, wait: bool) -> serial.SerialBase | None:
        """The open port; else, when a try to reopen it is due, that try (waiting for it up to
        `timeout` s when `wait`); None while the link is down."""
        if not self._open:
            raise ValueError("the serial link to %s is not open: call open() first" % (
                self.port,))
        if self._serial is not None:
            return self._serial
        delay = self._next_try - time.monotonic()
        if delay > 0:
            if not wait or delay > self.timeout:
                if wait:
                    time.sleep(self.timeout)
                return None
            time.sleep(delay)
        try:
            self._connect()
        except OSError as error:
            self.last_error = self._explain(error)
            self._retry_delay = min(self._retry_delay * 2, self.max_retry_s)
            self._next_try = time.monotonic() + self._retry_delay
            log.debug("%s; next try in %.2f s", self.last_error, self._retry_delay)
            return None
        self._announce()
        return self._serial                   # None if the handshake lost it again

    def _lose(self, error: OSError) -> None:
        """The port failed: close it, say why, and plan the first try to reopen it."""
        reason = self._explain(error)
        self.last_error = reason
        port, self._serial = self._serial, None
        try:
            port.close()
        except OSError:
            pass                                      # it is gone already; closing is tidying
        self._lost_at = time.monotonic()
        self._retry_delay = self.retry_s
        self._next_try = self._lost_at + self.retry_s
        log.warning("%s; reopening it by itself", reason)
        if self.on_disconnect is not None:
            self.on_disconnect(reason)

    def _explain(self, error: Exception) -> str:
        """One line for an operator: what happened to the port, and what to check."""
        code = getattr(error, "errno", None)
        if code == errno.ENOENT:
            return ("no serial device %s: is the Pico plugged in, and is this its port? "
                    "(ls /dev/ttyACM* /dev/serial/by-id/)" % self.port)
        if code in (errno.EACCES, errno.EPERM):
            return ("no permission to open %s: add the user to the dialout group (sudo usermod "
                    "-aG dialout $USER) and log in again" % self.port)
        if code in (errno.EAGAIN, errno.EBUSY):
            return ("%s is in use by another program (another layli, a serial terminal?)"
                    % self.port)
        if isinstance(error, serial.SerialTimeoutException):
            return ("%s: a write did not finish in %s s: the other side is not reading"
                    % (self.port, self.write_timeout))
        return "%s: %s" % (self.port, error)
