"""The Pico of a `pico-bridge` board, seen from the Pi: sensor frames and buttons in, LEDs and
buzzer out, over USB serial through the wire protocol (host-only).

    pico = PicoBridge("/dev/ttyACM0", "pico-bridge-2x6", channels=14)
    pico.open()                             # DeviceError naming the port if it is not there
    frames, presses = pico.read()           # [(t_ms, raw values)], ["confirm", ...]
    pico.show(frame, pixels)                # the guide's frame, when it changed
    pico.beep("mistake")

It is the runner's `BoardIO` (controller/board/runner.py). The LEDs travel as the guide's frame (a
colour and a pattern per place, `LedFrame`: 2 bytes a place, sent when the meaning changes);
the Pico draws it through its layout and animates the patterns itself, so the link carries a
few dozen bytes a move, not every LED at every step of a pulse. Underneath, `SerialLink`
reopens the port by itself when the cable is pulled and put back, and every (re)connect starts
with this end's Hello and a StateRequest; the frame is sent again, so a Pico that rebooted
shows the right LEDs at once. The protocol's `Link` numbers, acknowledges and resends; bad frames cost
counters, never a wrong message (`counters()`).

The Pico's clock restarts with it and wraps after 49 days, and sensing needs time that never
runs backwards: frame times are moved onto a clock of this end's, which continues where it was
when the Pico's restarts.

A Pico whose firmware speaks another protocol version gets a `FirmwareMismatch` (a UsageError:
one clear line) naming both versions.
"""

from __future__ import annotations

import logging
from typing import Callable

from controller import __version__
from controller.errors import UsageError
from controller.protocol.link import Link
from controller.protocol.messages import (BUTTONS, Button, Buzz, Hello, LedFrame, Sensors,
                                          State, StateRequest)
from .serial_link import SerialLink
from .gpio import monotonic_ms

log = logging.getLogger(__name__)

FRAME_MS = 12                   # a frame's spacing, at 80 a second, to continue a clock with
# one tone per beep (hz, ms): the Pico's buzzer plays them as they come
TONES = {"step_ok": (1760, 30), "mistake": (440, 300), "move_done": (880, 120),
         "game_over": (660, 700)}


class FirmwareMismatch(UsageError):
    """The Pico's firmware speaks another protocol version (or is not a device)."""


class PicoBridge:
    """The Pico on serial `port` (a device path or a pyserial URL) for board profile
    `profile` with `channels` sensor channels. `serial` may be given (tests); `now_ms` is this
    end's clock."""

    def __init__(self, port: str, profile: str, channels: int, *,
                 serial: SerialLink | None = None,
                 now_ms: Callable[[], int] = monotonic_ms) -> None:
        if channels < 1:
            raise ValueError("a board has at least one sensor channel, not %r" % (channels,))
        self.channels = channels
        self.serial = serial or SerialLink(port)
        self.serial.on_connect = self._connected
        self.serial.on_disconnect = self._lost
        self.link = Link(self.serial.write, now_ms, Hello(__version__, profile, "host"))
        self.device: Hello | None = None      # the Pico's Hello, once it came
        self.bad_frames = 0                   # Sensors of the wrong size
        self._frame: bytes | None = None      # the guide frame last sent, encoded
        self._offset: int | None = None       # this end's time minus the Pico's
        self._last_ms = 0

    def open(self) -> None:
        self.serial.open()

    def close(self) -> None:
        self.serial.close()

    def counters(self) -> dict[str, int]:
        counters = self.link.counters()
        counters["bad_frames"] = self.bad_frames
        counters["connections"] = self.serial.connections
        return counters

    # --- BoardIO -------------------------------------------------------------------------

    def read(self) -> tuple[list[tuple[int, list[int]]], list[str]]:
        frames: list[tuple[int, list[int]]] = []
        presses: list[str] = []
        for message in self.link.receive(self.serial.read()):
            if isinstance(message, Hello):
                self._hello(message)
            elif isinstance(message, Sensors):
                if len(message.values) != self.channels:
                    self.bad_frames += 1
                    if self.bad_frames == 1:
                        log.warning("the Pico sends %d sensor channels, the profile has %d: "
                                    "is it flashed with another profile?",
                                    len(message.values), self.channels)
                    continue
                frames.append((self._time(message.time_ms), list(message.values)))
            elif isinstance(message, Button):
                if message.pressed:
                    presses.append(BUTTONS[message.button])
            elif isinstance(message, State):
                log.info("the Pico: up %d s, %d sensor channels", message.uptime_ms // 1000,
                         message.channels)
        self.link.poll()
        return frames, presses

    def show(self, frame, pixels: list[tuple[int, int, int]]) -> None:
        """Send `frame` when it changed; the Pico renders it (`pixels` are not needed)."""
        data = frame.encode()
        if data != self._frame:
            self._frame = data
            self.link.send(LedFrame(data))

    def beep(self, name: str) -> None:
        hz, ms = TONES[name]
        self.link.send(Buzz(hz, ms))

    # --- the link ------------------------------------------------------------------------

    def _connected(self, serial: SerialLink) -> None:
        log.info("connected to the Pico on %s", serial.port)
        self.link.connect()
        self.link.send(StateRequest())
        if self._frame is not None:
            self.link.send(LedFrame(self._frame))

    def _lost(self, reason: str) -> None:
        log.warning("lost the Pico: %s; waiting for it to come back", reason)

    def _hello(self, hello: Hello) -> None:
        problem = self.link.incompatible
        if problem:
            raise FirmwareMismatch("the Pico on %s: %s (`layli firmware deploy` installs this "
                                   "controller's firmware)" % (self.serial.port, problem))
        if self.device is None or hello.session != self.device.session:
            log.info("the Pico: firmware %s, profile %s", hello.firmware, hello.profile)
            self._offset = None             # a restarted Pico: its clock starts again
        self.device = hello

    def _time(self, device_ms: int) -> int:
        """The Pico's `device_ms` on this end's clock, never going back."""
        if self._offset is None or device_ms + self._offset < self._last_ms:
            self._offset = self._last_ms + FRAME_MS - device_ms
        self._last_ms = device_ms + self._offset
        return self._last_ms
