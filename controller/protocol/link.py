"""One end of the pico-bridge link: numbering, acknowledgement, retry and duplicates.

The same class runs on both ends, the Pi (host) and the Pico (device)::

    link = Link(port.write, clock_ms, Hello("0.1.0", "pico-bridge-2x6", "host"))
    link.connect()                          # a zero byte, then our Hello
    while running:
        for message in link.receive(port.read_available()):
            ...                             # Hello, Sensors, Button, State...
        link.send(Leds(pixels))
        link.poll()                         # resend what is due

How each kind travels (`Message.DELIVERY`):

- **fire and forget** (`Sensors`): written once. A lost frame is replaced by the next one a
  conversion later (10.7 ms on HX711s); the receiver counts the ones it `missed` from the gaps
  in their numbers. None is written before the peer has acknowledged our Hello (`withheld`).
- **newest only** (`Hello`, `Leds`, `LedFrame`, `StateRequest`, `State`): resent every
  `retry_ms` until acknowledged; a newer message of the kind replaces one still pending (an old
  strip is never worth resending).
- **every one, in order** (`Button`, `Buzz`): resent until acknowledged, one at a time; the
  next waits in a queue of up to `queue_limit` (the oldest is dropped, and counted in
  `overflowed`, when a peer is away long enough to fill it).

Each kind numbers its own messages 0, 1, 2... (16 bits, wrapping), and the receiver keeps the
last number it delivered of each kind. A message with that number is a resend whose Ack was
lost: acknowledged again, not delivered (`duplicates`). One with a number up to 255 behind it
is stale (a copy that went round a newer one): dropped, not acknowledged (`stale`). Any other
number is news: delivered and, if reliable, acknowledged. Since a sender has at most one
message of a kind unacknowledged, this delivers every reliable message exactly once and, kind
by kind, in order. (Newest-only kinds skip the numbers of the messages they replace: only
after 65,280 strips replaced in a row with none getting through, 18 minutes at 60 a second on
a dead line, could the next ones look old, and up to 256 of them be dropped.)

Restarts: a `Hello` carries a session number drawn when its end started. A Hello from a new
session means the peer restarted and numbers afresh: the link forgets the numbers it had seen
and answers with its own Hello (unless that is still on its way). A fresh link holds back its
reliable messages until the peer has acknowledged its Hello, so that the peer has forgotten
the numbers of this end's previous life before any new one arrives.

Bad bytes cost nothing but counters: frames that fail COBS or the CRC are dropped by the
`decoder` (counted by cause), payloads that pass the CRC but do not decode into a message are
dropped as `invalid`; `dropped` is the total. Nothing raises on bad input.

Times come from `now_ms()`, in milliseconds; a clock that goes back (a wrapped tick counter)
makes every pending message due at once rather than never.

Portable core: MicroPython subset.
"""

from .framing import MAX_PAYLOAD, FrameDecoder, ProtocolError, encode_frame
from .messages import (ACK, EVERY_IN_ORDER, FIRE_AND_FORGET, HELLO, KINDS,
                       PROTOCOL_VERSION, SENSORS, Ack, decode)

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

RETRY_MS = const(100)       # a USB round trip is a few ms; the device's loop runs every 10 ms
QUEUE_LIMIT = const(32)     # messages of an in-order kind waiting behind the one in flight
STALE_WINDOW = const(256)   # numbers behind the last delivered that count as old copies
SEQ_MASK = const(0xFFFF)
HALF = const(0x8000)        # a gap this large is a restart, not lost frames

# the link's counters, in the order `counters()` lists them
COUNTERS = ("sent", "withheld", "resent", "acked", "superseded", "overflowed", "received",
            "duplicates",
            "stale", "missed", "invalid", "dropped", "acks_sent", "acks_received")

_KIND_SLOTS = max(KINDS) + 1


class Link:
    """One end of the link: `write(bytes)` sends bytes to the peer, `now_ms()` reads the
    clock, `hello` is this end's `Hello` (`connect` sends it; None for a link that never
    introduces itself, as in tests of the other parts).

    Counters (all ints; `counters()` gives them as a dict):

    - `sent`: messages written for the first time; `withheld`: Sensors not written because
      the peer had not yet acknowledged our Hello; `resent`: copies written again;
      `acked`: of ours, acknowledged; `superseded`: newest-only ones replaced while pending;
      `overflowed`: in-order ones dropped from a full queue;
    - `received`: messages delivered by `receive`; `duplicates`: copies already delivered;
      `stale`: old copies; `missed`: Sensors frames never received (gaps in their numbers);
    - `invalid`: payloads that passed the CRC but did not decode; `dropped`: `invalid` and
      the `decoder`'s dropped frames;
    - `acks_sent`, `acks_received`.

    Every intact frame is accounted for once: ``decoder.frames == received + duplicates +
    stale + invalid + acks_received``.
    """

    def __init__(self, write, now_ms, hello=None, retry_ms=RETRY_MS, queue_limit=QUEUE_LIMIT,
                 max_payload=MAX_PAYLOAD):
        if hello is not None and hello.KIND != HELLO:
            raise ValueError("hello must be a Hello, not %r" % (hello,))
        if retry_ms <= 0 or queue_limit < 1:
            raise ValueError("retry_ms %r must be over 0 and queue_limit %r at least 1" % (
                retry_ms, queue_limit))
        self._write = write
        self._now = now_ms
        self.hello = hello
        self.retry_ms = retry_ms
        self.queue_limit = queue_limit
        self.decoder = FrameDecoder(max_payload)
        self.peer = None                # the peer's last Hello
        self.introduced = hello is None     # our Hello acknowledged: reliable messages may go
        self._next = [0] * _KIND_SLOTS      # per kind: the number our next message gets
        self._last = [None] * _KIND_SLOTS   # per kind: the number of the peer's last delivered
        # per kind: [number, frame, written at or None]
        self._pending = [None] * _KIND_SLOTS  # type: list[list | None]
        self._queues = [[] for _ in range(_KIND_SLOTS)]
        self.sent = self.withheld = self.resent = self.acked = self.superseded = 0
        self.overflowed = 0
        self.received = self.duplicates = self.stale = self.missed = self.invalid = 0
        self.acks_sent = self.acks_received = 0

    # --- sending -------------------------------------------------------------------------

    def connect(self):
        """Introduce this end: a zero byte (it ends whatever torn frame the peer's decoder
        holds from before a reconnect), then our Hello. Call it on every (re)connect."""
        if self.hello is None:
            raise ValueError("this link has no Hello to introduce itself with")
        self._write(b"\x00")
        self.send(self.hello)

    def send(self, message):
        """Number `message` and write it, or keep it until it may go (see the module)."""
        kind = message.KIND
        if message.DELIVERY == EVERY_IN_ORDER and (
                self._pending[kind] is not None or self._queues[kind]):
            queue = self._queues[kind]
            if len(queue) >= self.queue_limit:
                queue.pop(0)
                self.overflowed += 1
            queue.append(message)
            return
        self._transmit(message)

    def send_encoded(self, kind, frame):
        """Send a fire-and-forget message of `kind` that the caller encodes itself:
        `frame(seq)` gives its whole frame (what `encode_frame(message.encode(seq))` would)
        numbered `seq`. For a device whose native code encodes its Sensors frames (the Pico's
        firmware/fast.py); counted and withheld as `send` would."""
        seq = self._next[kind]
        self._next[kind] = (seq + 1) & SEQ_MASK
        if not self.introduced:
            self.withheld += 1
            return
        self._write(frame(seq))
        self.sent += 1

    def _transmit(self, message):
        kind = message.KIND
        seq = self._next[kind]
        self._next[kind] = (seq + 1) & SEQ_MASK
        if message.DELIVERY == FIRE_AND_FORGET:
            if not self.introduced:
                # a peer that has not taken our Hello would judge the number against our
                # previous life's (a rebooted Pico's Sensors 0 would be an old copy to it)
                self.withheld += 1
                return
            self._write(encode_frame(message.encode(seq)))
            self.sent += 1
            return
        frame = encode_frame(message.encode(seq))
        if self._pending[kind] is not None:
            self.superseded += 1
        if not self.introduced and kind != HELLO:
            self._pending[kind] = [seq, frame, None]        # held until our Hello is acked
            return
        # pending before written: if the write fails (a cable pulled), poll() resends it
        self._pending[kind] = [seq, frame, self._now()]
        self._write(frame)
        self.sent += 1

    def poll(self):
        """Resend every message whose Ack is `retry_ms` overdue; the number resent."""
        now = self._now()
        resent = 0
        for entry in self._pending:
            if entry is None or entry[2] is None:
                continue
            elapsed = now - entry[2]
            if elapsed >= self.retry_ms or elapsed < 0:
                entry[2] = now
                self._write(entry[1])
                resent += 1
        self.resent += resent
        return resent

    def _release_held(self):
        now = self._now()
        for entry in self._pending:
            if entry is not None and entry[2] is None:
                entry[2] = now
                self._write(entry[1])
                self.sent += 1

    @property
    def unacked(self):
        """Messages of ours not yet acknowledged: pending and queued."""
        count = 0
        for kind in range(_KIND_SLOTS):
            if self._pending[kind] is not None:
                count += 1
            count += len(self._queues[kind])
        return count

    # --- receiving -----------------------------------------------------------------------

    def receive(self, data):
        """The messages that `data` (bytes or bytearray read from the peer, any amount)
        completes, in order: new ones only, Acks taken in by the link itself. Never raises on
        bad bytes."""
        delivered = []
        for payload in self.decoder.feed(data):
            try:
                seq, message = decode(payload)
            except ProtocolError:
                self.invalid += 1
                continue
            kind = message.KIND
            if kind == ACK:
                self.acks_received += 1
                self._acknowledged(message.kind, seq)
                continue
            if kind == HELLO and (self.peer is None or message.session != self.peer.session):
                self._meet(message)
            last = self._last[kind]
            behind = STALE_WINDOW if last is None else (last - seq) & SEQ_MASK
            reliable = message.DELIVERY != FIRE_AND_FORGET
            if behind == 0:
                self.duplicates += 1
            elif behind < STALE_WINDOW:
                self.stale += 1
                continue                # not acked: its sender has moved on from it
            else:
                if kind == SENSORS and last is not None:
                    gap = (seq - last - 1) & SEQ_MASK
                    if gap < HALF:
                        self.missed += gap
                self._last[kind] = seq
                self.received += 1
                delivered.append(message)
            if reliable:
                self._write(encode_frame(Ack(kind).encode(seq)))
                self.acks_sent += 1
        return delivered

    def _meet(self, hello):
        """A peer we have not seen (or one that restarted): forget its old numbers, and make
        sure it gets our Hello."""
        self.peer = hello
        self._last = [None] * _KIND_SLOTS
        if self.hello is not None and self._pending[HELLO] is None:
            self.send(self.hello)

    def _acknowledged(self, kind, seq):
        entry = self._pending[kind]
        if entry is None or entry[0] != seq or entry[2] is None:
            return                      # a late Ack of a superseded message, or a repeat
        self._pending[kind] = None
        self.acked += 1
        if kind == HELLO and not self.introduced:
            self.introduced = True
            self._release_held()
        queue = self._queues[kind]
        if queue:
            self._transmit(queue.pop(0))

    # --- state ---------------------------------------------------------------------------

    @property
    def dropped(self):
        """Frames and payloads thrown away as bad: the decoder's and the `invalid` ones."""
        return self.decoder.dropped + self.invalid

    @property
    def incompatible(self):
        """Why the peer cannot be talked to (another protocol version, or the same role as this
        end), in one line; None while all is well or no Hello has come."""
        peer = self.peer
        if peer is None:
            return None
        if peer.protocol != PROTOCOL_VERSION:
            return ("the %s speaks protocol version %d (firmware %s), this end version %d: "
                    "update the older one" % (peer.role, peer.protocol, peer.firmware,
                                              PROTOCOL_VERSION))
        if self.hello is not None and peer.role == self.hello.role:
            return "both ends say they are the %s" % peer.role
        return None

    def counters(self):
        """Every counter by name (`COUNTERS` is their order)."""
        counters = {}
        for name in COUNTERS:
            counters[name] = getattr(self, name)
        return counters
