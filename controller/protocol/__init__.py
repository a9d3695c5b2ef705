"""The wire protocol of the pico-bridge profile: a Raspberry Pi (host) and a Pico (device) over
USB serial (portable core: the firmware copies this package onto the Pico).

Three layers, each usable alone:

- `framing`: bytes on a stream. COBS frames with a CRC-16, split by zero bytes; a
  `FrameDecoder` that survives garbage, torn frames and idle zeros, and counts what it drops.
- `messages`: the messages as payloads. A 4-byte header (version, kind, number), one class per
  kind (`Hello`, `Ack`, `Sensors`, `LedFrame`, `Leds`, `Button`, `Buzz`, `StateRequest`,
  `State`), and a strict `decode`.
- `link`: one end of the conversation. `Link` numbers messages, resends the reliable ones until
  acknowledged, drops duplicates and bad frames, and handles a peer that restarts.

::

    from controller.protocol import Hello, Leds, Link
    link = Link(port.write, clock_ms, Hello("0.1.0", "pico-bridge-2x6", "host"))
    link.connect()
    messages = link.receive(port.read(256))
    link.send(Leds(pixels))
    link.poll()

Bad input raises `ProtocolError` (a ValueError; `FramingError` is one) with one line that says
what was wrong; a `Link` never raises on bad bytes from the peer, it drops and counts them.

Portable core: MicroPython subset.
"""

from .framing import (MAX_PAYLOAD, FrameDecoder, FramingError, ProtocolError, cobs_decode,
                      cobs_encode, crc16, encode_frame)
from .messages import (PROTOCOL_VERSION, BUTTONS, Ack, Button, Buzz, Hello, LedFrame, Leds,
                       Message, Sensors, State, StateRequest, decode)
from .link import Link
