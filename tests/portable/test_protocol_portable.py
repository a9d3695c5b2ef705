"""The wire protocol under both runtimes: framing, messages and two links on a bad line.

No pytest, no `random` (MicroPython's differs): lines are made bad by the engine's Random30.
The reference libraries (cobs, crc) do not run under MicroPython, so framing is checked here
against fixed vectors; tests/test_protocol.py checks it against the libraries byte for byte.
`Channel`, `Wire` and `talk` are shared with tests/test_protocol.py, which runs them longer.
"""

from controller.protocol import (BUTTONS, Ack, Button, Buzz, FrameDecoder, FramingError, Hello,
                                 LedFrame,
                                 Leds, Link, ProtocolError, Sensors, State, StateRequest,
                                 cobs_decode, cobs_encode, crc16, decode, encode_frame)
from controller.protocol.messages import (EVERY_IN_ORDER, FIRE_AND_FORGET, LEDS, MAX_U32,
                                          PROTOCOL_VERSION)
from controller.rules.rng import Random30
from helpers import raises

STEP_MS = 10                # the fake clock's step: a device's main loop runs about this often


# --- a bad line between two links -----------------------------------------------------------

class Channel:
    """One direction of a line that loses, repeats, corrupts and reorders what is written.

    Rates are per mille for each write (a link writes one frame at a time): `drop` loses it,
    `corrupt` flips one bit of it, `swap` swaps two adjacent bytes of it, `repeat` sends it
    twice, `delay` holds it back until after the next write (frames out of order). `rng` has
    randrange (Random30, or random.Random). Whatever gets through waits in `line` until read.
    """

    def __init__(self, rng, drop=0, repeat=0, corrupt=0, swap=0, delay=0):
        self.rng = rng
        self.drop, self.repeat, self.corrupt, self.swap, self.delay = (
            drop, repeat, corrupt, swap, delay)
        self.line = bytearray()
        self.late = None
        self.writes = self.dropped = self.repeated = self.corrupted = self.swapped = 0
        self.delayed = 0

    def _chance(self, per_mille):
        return per_mille and self.rng.randrange(1000) < per_mille

    def write(self, data):
        self.writes += 1
        if self._chance(self.drop):
            self.dropped += 1
            return
        data = bytearray(data)
        if self._chance(self.corrupt):
            bit = self.rng.randrange(8 * len(data))
            data[bit >> 3] ^= 1 << (bit & 7)
            self.corrupted += 1
        if len(data) > 1 and self._chance(self.swap):
            at = self.rng.randrange(len(data) - 1)
            data[at], data[at + 1] = data[at + 1], data[at]
            self.swapped += 1
        if self.late is None and self._chance(self.delay):
            self.late = data
            self.delayed += 1
            return
        self.line += data
        if self._chance(self.repeat):
            self.line += data
            self.repeated += 1
        if self.late is not None:
            self.line += self.late
            self.late = None

    def read(self, most):
        """Up to `most` bytes from the line (at least one if there are any)."""
        size = min(len(self.line), 1 + self.rng.randrange(most))
        chunk = bytes(self.line[:size])
        self.line = self.line[size:]
        return chunk

    def heal(self):
        """A good line from now on; a frame held back goes out now."""
        self.drop = self.repeat = self.corrupt = self.swap = self.delay = 0
        if self.late is not None:
            self.line += self.late
            self.late = None


class Clock:
    """A fake clock: `ms` is the `now_ms` of the links; tests move `now` on."""

    def __init__(self):
        self.now = 0

    def ms(self):
        return self.now


class Wire:
    """A host link and a device link joined by two Channels (rates as for Channel), on one
    fake clock; `step()` moves time on and carries the bytes in pieces of random size. What each
    end sent and got is kept per kind: `sent[end][kind]`, `got[end][kind]` (end 0 the host)."""

    def __init__(self, seed, drop=0, repeat=0, corrupt=0, swap=0, delay=0, piece=64):
        self.rng = Random30(seed)
        self.clock = Clock()
        self.lines = [Channel(self.rng, drop, repeat, corrupt, swap, delay),    # host -> device
                      Channel(self.rng, drop, repeat, corrupt, swap, delay)]    # device -> host
        self.piece = piece
        self.links = [None, None]
        self.sent = [{}, {}]
        self.got = [{}, {}]
        self.start(0, 1)
        self.start(1, 1)

    def start(self, end, session):
        """A fresh link at `end` (a restart when there was one), introduced with a Hello."""
        role = ("host", "device")[end]
        hello = Hello("test-" + role, "pico-bridge-2x6", role, session)
        self.links[end] = Link(self.lines[end].write, self.clock.ms, hello)
        self.links[end].connect()
        self._record(self.sent[end], hello)

    def send(self, end, message):
        link = self.links[end]
        withheld = link.withheld
        link.send(message)
        if link.withheld == withheld:       # not a Sensors frame before our Hello was taken
            self._record(self.sent[end], message)

    def _record(self, kinds, message):
        if message.KIND not in kinds:
            kinds[message.KIND] = []
        kinds[message.KIND].append(message)

    def step(self):
        self.clock.now += STEP_MS
        for end in (0, 1):
            line = self.lines[1 - end]          # what the other end wrote
            while line.line:
                for message in self.links[end].receive(line.read(self.piece)):
                    self._record(self.got[end], message)
        for link in self.links:
            link.poll()

    def settle(self, most=2000):
        """Heal both lines and step until nothing is unacknowledged or on the line; the steps."""
        for line in self.lines:
            line.heal()
        for steps in range(1, most + 1):
            self.step()
            if not (self.links[0].unacked or self.links[1].unacked or self.lines[0].line
                    or self.lines[1].line):
                return steps
        raise AssertionError("the links did not settle in %d steps" % most)


def talk(wire, steps, channels=14):
    """`steps` steps of a game's traffic: a Sensors frame from the device every step, a new LED
    strip from the host every third, buttons and buzzes now and then, a state request at the
    start. Every message differs from every other of its kind. (Buttons and buzzes go one at a
    time: on a line that loses half of the round trips, a few a second is what they carry.)"""
    rng = wire.rng
    wire.send(0, StateRequest())
    for step in range(steps):
        now = wire.clock.now
        wire.send(1, Sensors(now, [(step * 7 + c * 1000) % 8000000 - 100 for c in
                                   range(channels)]))
        if step % 3 == 0:
            wire.send(0, Leds(bytes((step >> 16, (step >> 8) & 0xFF, step & 0xFF)) * 12))
        if rng.randrange(60) == 0:              # a busy player: 1.7 a second
            wire.send(1, Button(rng.randrange(len(BUTTONS)), rng.randrange(2) == 1, now))
        if rng.randrange(100) == 0:
            wire.send(0, Buzz(440 + step, step % 65536))
        # the device answers every state request it got
        for _ in wire.got[1].get(StateRequest.KIND, [])[len(wire.sent[1].get(State.KIND, [])):]:
            wire.send(1, State(b"\x00" * 36, 0, now, channels))
        wire.step()


def decoded(data):
    """[(number, message)] of the frames in `data`."""
    return [decode(payload) for payload in FrameDecoder().feed(data)]


def subsequence(got, sent):
    """Whether `got` is `sent` with some messages left out (order kept, none twice)."""
    at = 0
    for message in got:
        while at < len(sent) and sent[at] != message:
            at += 1
        if at == len(sent):
            return False
        at += 1
    return True


def check_delivery(wire):
    """What each end got is what the other sent, as each kind's delivery promises."""
    for end in (0, 1):
        sent, got = wire.sent[1 - end], wire.got[end]
        assert wire.links[1 - end].overflowed == 0
        for kind in sent:
            delivery = sent[kind][0].DELIVERY
            mine = got.get(kind, [])
            if kind == Hello.KIND:          # a link also sends its Hello to a peer it meets
                mine = [hello for at, hello in enumerate(mine) if at == 0 or hello != mine[at - 1]]
            if delivery == EVERY_IN_ORDER:
                assert mine == sent[kind], (kind, mine, sent[kind])
            else:
                assert subsequence(mine, sent[kind]), (kind, mine, sent[kind])
                if delivery != FIRE_AND_FORGET:
                    assert mine and mine[-1] == sent[kind][-1], (kind, mine[-1:], sent[kind][-1])
        for kind in got:
            assert kind in sent, kind


def check_counters(wire):
    """Every intact frame is accounted for once; the counters agree with what was got."""
    for end in (0, 1):
        link = wire.links[end]
        decoder = link.decoder
        assert decoder.frames == (link.received + link.duplicates + link.stale + link.invalid
                                  + link.acks_received), link.counters()
        assert link.dropped == decoder.dropped + link.invalid
        counters = link.counters()
        for name in counters:
            assert counters[name] == getattr(link, name) and counters[name] >= 0


# --- framing --------------------------------------------------------------------------------

# COBS vectors of Cheshire and Baker's paper and the usual test set
COBS_VECTORS = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    (bytes(range(2, 256)) + b"\x00", b"\xff" + bytes(range(2, 256)) + b"\x01\x01"),
    (bytes(range(3, 256)) + b"\x00\x01", b"\xfe" + bytes(range(3, 256)) + b"\x02\x01"),
]


def test_crc16_check_value_and_continuation():
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF
    assert crc16(b"6789", crc16(b"12345")) == 0x29B1


def test_cobs_vectors():
    for data, encoded in COBS_VECTORS:
        assert cobs_encode(data) == encoded, data
        assert cobs_decode(encoded) == data, encoded


def test_cobs_decode_rejects_what_no_encoder_writes():
    error = raises(FramingError, cobs_decode, b"\x03\x11\x00\x33")
    assert str(error) == "COBS data holds a zero byte at offset 2", error
    error = raises(FramingError, cobs_decode, b"\x05\x11\x22")
    assert str(error) == "COBS code 5 at offset 0 runs 2 bytes past the end", error


def test_frame_is_cobs_of_payload_and_crc():
    payload = b"\x02\x05\x00\x07\x03\x01\x00\x00\x04\xb0"
    crc = crc16(payload)
    assert encode_frame(payload) == cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"
    assert raises(FramingError, encode_frame, bytes(4097))


def test_decoder_takes_frames_in_pieces_of_any_size():
    payloads = [b"", b"\x00", b"a" * 300, bytes(range(256)), b"\x01\x02"]
    stream = b"".join(encode_frame(payload) for payload in payloads)
    for piece in (1, 2, 3, 7, 254, 1000):
        decoder = FrameDecoder()
        got = []
        for at in range(0, len(stream), piece):
            got += decoder.feed(stream[at:at + piece])
        assert got == payloads, piece
        assert (decoder.frames, decoder.dropped) == (len(payloads), 0)


def test_decoder_drops_and_counts_bad_frames():
    good = encode_frame(b"\x01\x02\x03")
    bad_crc = bytearray(good)
    bad_crc[2] ^= 0x40                  # a data byte: COBS still fine, the CRC not
    decoder = FrameDecoder(max_payload=10)
    stream = (b"\x00\x00" + good + bytes(bad_crc) + b"\x09\x01\x00" + b"\x01\x00"
              + encode_frame(b"x" * 11) + b"\x07" * 40 + b"\x00" + good)
    assert decoder.feed(stream) == [b"\x01\x02\x03", b"\x01\x02\x03"]
    assert (decoder.frames, decoder.bad_crc, decoder.bad_cobs, decoder.too_long) == (2, 2, 1, 2)
    assert decoder.dropped == 5
    assert raises(ValueError, FrameDecoder, 5000)


# --- messages -------------------------------------------------------------------------------

EXAMPLES = [
    Hello("0.1.0", "pico-bridge-2x6", "device", 0xDEADBEEF),
    Hello("", "", "host", 0),
    Ack(LEDS),
    Sensors(MAX_U32, [0, 1, -1, -8388608, 8388607]),
    Sensors(0, []),
    Sensors(12, [None, 5, None, None, 0, 1, 2, 3, None]),   # missing readings, 2 mask bytes
    Leds(b""),
    Leds(bytes(range(255)) * 3),
    Button(0, True, 0),
    Button(3, False, MAX_U32),
    Buzz(0, 0),
    Buzz(20000, 65535),
    StateRequest(),
    State(b"\x10\x20\x30" * 14, 0b1001, 123456, 26),
    State(b"", 0, 7, 3, [10702, 0, 85635]),      # a breakout left at 10 samples a second
    LedFrame(b""),
    LedFrame(bytes([7, 14]) * 64),
]


def test_every_kind_round_trips():
    for message in EXAMPLES:
        for seq in (0, 1, 0x1234, 0xFFFF):
            payload = message.encode(seq)
            assert payload[0] == PROTOCOL_VERSION and payload[1] == message.KIND
            number, back = decode(payload)
            assert number == seq and back == message, (message, back)
            assert not back != message
            assert back.encode(seq) == payload


def test_malformed_payloads_say_what_is_wrong():
    button = Button(1, True, 5).encode(9)
    sensors = Sensors(7, [1, 2]).encode(3)
    hello = Hello("fw", "pb", "host", 1).encode(0)
    cases = [
        (b"\x02\x05\x00", "a payload of 3 bytes is shorter than the 4-byte header"),
        (b"\x02\x63\x00\x00", "unknown message kind 99"),
        (b"\x03" + button[1:], "Button: protocol version 3, this end speaks version 2"),
        (b"\x01" + sensors[1:], "Sensors: protocol version 1, this end speaks version 2"),
        (b"\x00" + hello[1:], "Hello: protocol version 0, this end speaks version 2"),
        (button + b"\x00", "Button: a payload of 11 bytes, not 10"),
        (button[:5] + b"\x02" + button[6:], "Button: pressed byte 2 is not 0 or 1"),
        (button[:4] + b"\x04" + button[5:], "Button: button 4 is not in 0..3"),
        (sensors[:-1], "Sensors: a payload of 15 bytes, not 16"),
        (sensors[:8] + b"\x03" + sensors[9:], "Sensors: a payload of 16 bytes, not 19"),
        (sensors[:8] + b"\x41" + bytes(204), "Sensors: 65 channels are over the 64 a frame "
                                             "carries"),
        (sensors[:9] + b"\x04" + sensors[10:], "Sensors: a missing bit set beyond the 2 "
                                               "channels"),
        (sensors[:9] + b"\x01" + sensors[10:], "Sensors: channel 0 is missing but carries a "
                                               "reading"),
        (Leds(b"abc").encode(0)[:-1], "Leds: a payload of 8 bytes, not 9"),
        (b"\x02\x04\x00\x00\x04\x01" + bytes(3075), "Leds: 1025 LEDs are over the 1024 a strip "
                                                     "may have"),
        (Buzz(440, 1).encode(0)[:4] + b"\x00\x13\x00\x01", "Buzz: hz 19 is under 20 (0 is "
                                                            "silence)"),
        (Buzz(440, 1).encode(0)[:4] + b"\x4e\x21\x00\x01", "Buzz: hz 20001 is not in 0..20000"),
        (b"\x02\x02\x00\x00\x03", "Ack: kind 3 is not a kind that is acknowledged (1 Hello, "
                                  "4 Leds, 5 Button, 6 Buzz, 7 StateRequest, 8 State, 9 LedFrame)"),
        (b"\x02\x07\x00\x00\x00", "StateRequest: a payload of 5 bytes, not 4"),
        (State(b"", 0, 0, 0).encode(0)[:8] + b"\x10\x00\x00\x00", "State: held 16 is not in "
                                                                   "0..15"),
        (State(b"", 0, 0, 0).encode(0)[:9] + b"\x41\x00\x00", "State: channels 65 is not in "
                                                               "0..64"),
        (State(b"", 0, 0, 0).encode(0) + b"\x00", "State: a payload of 13 bytes, not 12"),
        (hello[:8] + b"\x02" + hello[9:], "Hello: role 2 is not 0 (host) or 1 (device)"),
        (hello[:9] + b"\x09" + hello[10:], "Hello: firmware of 9 bytes runs past the payload's "
                                           "end"),
        (hello[:10] + b"\x80" + hello[11:], "Hello: firmware holds byte 0x80 at 0, not "
                                            "printable ASCII"),
        (hello + b"\x00", "Hello: 1 byte after the profile"),
        (hello[:9], "Hello: a payload of 9 bytes, under the 11 of the shortest"),
    ]
    for payload, expected in cases:
        error = raises(ProtocolError, decode, payload)
        assert str(error) == expected, (payload, str(error), expected)


def test_hello_of_another_version_still_reads():
    """A Hello's layout is the same in every version: a version 3 Hello with more fields after
    the profile decodes, so the link can say which version the peer speaks."""
    payload = Hello("9.0", "pico-bridge-2x6", "device", 7, protocol=3).encode(0) + b"\x01\x02"
    number, hello = decode(payload)
    assert (number, hello.protocol, hello.firmware, hello.session) == (0, 3, "9.0", 7)


def test_bad_fields_are_refused_when_a_message_is_made():
    cases = [
        (Button, (4, True, 0), "Button: button 4 is not in 0..3"),
        (Button, (True, True, 0), "Button: button True is not an int"),
        (Button, (0, 1, 0), "Button: pressed 1 is not True or False"),
        (Button, (0, True, -1), "Button: time_ms -1 is not in 0..4294967295"),
        (Sensors, (0, [8388608]), "Sensors: channel 0 reading 8388608 is not an int in "
                                  "-8388608..8388607 (or None: missing)"),
        (Sensors, (0, (1, 2.5)), "Sensors: channel 1 reading 2.5 is not an int in "
                                 "-8388608..8388607 (or None: missing)"),
        (Sensors, (0, "ab"), "Sensors: values must be a list of ints, not str"),
        (Leds, (b"ab",), "Leds: 2 pixel bytes are not 3 per LED"),
        (Leds, ([1, 2, 3],), "Leds: pixels must be bytes (R, G, B per LED), not list"),
        (Buzz, (10, 5), "Buzz: hz 10 is under 20 (0 is silence)"),
        (Buzz, (440, 70000), "Buzz: ms 70000 is not in 0..65535"),
        (Hello, ("x" * 33, "p", "host", 1), "Hello: firmware '" + "x" * 33 + "' is over 32 "
                                            "characters"),
        (Hello, ("0.1", "p\n", "host", 1), "Hello: profile 'p\\n' holds '\\n', not printable "
                                           "ASCII"),
        (Hello, ("0.1", "p", "pi", 1), "Hello: role 'pi' is not host or device"),
        (Hello, ("0.1", "p", "host", -1), "Hello: session -1 is not in 0..4294967295"),
        (Ack, (3,), "Ack: kind 3 is not a kind that is acknowledged (1 Hello, 4 Leds, "
                    "5 Button, 6 Buzz, 7 StateRequest, 8 State, 9 LedFrame)"),
        (State, (b"", 0, 0, 65), "State: channels 65 is not in 0..64"),
    ]
    for cls, args, expected in cases:
        error = raises(ProtocolError, cls, *args)
        assert str(error) == expected, (cls, str(error), expected)
    assert str(raises(ProtocolError, Buzz(440, 5).encode, 65536)) == (
        "Buzz: sequence number 65536 is not in 0..65535")


def test_a_frame_one_byte_off_passes_the_crc_but_never_decodes():
    """CRC-16/CCITT-FALSE has no final xor, so a frame that gains a 0x00 after its CRC always
    passes it, and one whose CRC ends in 0x00 and loses it passes too. Every kind's length
    follows from its first bytes, so decoding rejects both."""
    for message in EXAMPLES:
        payload = message.encode(0x0100)
        crc = crc16(payload)
        checked = payload + bytes((crc >> 8, crc & 0xFF))
        longer = FrameDecoder().feed(cobs_encode(checked + b"\x00") + b"\x00")
        assert longer == [payload + bytes((crc >> 8,))], message
        raises(ProtocolError, decode, longer[0])
        raises(ProtocolError, decode, payload[:-1])
        seq = 0
        while crc16(message.encode(seq)) & 0xFF:     # one in 256 numbers gives such a CRC
            seq += 1
        payload = message.encode(seq)
        checked = payload + bytes((crc16(payload) >> 8,))
        shorter = FrameDecoder().feed(cobs_encode(checked) + b"\x00")
        assert shorter == [payload[:-1]], message
        raises(ProtocolError, decode, shorter[0])


# --- the link -------------------------------------------------------------------------------

def test_links_on_a_good_line_count_exactly():
    wire = Wire(1)
    talk(wire, 60)
    wire.settle()
    check_delivery(wire)
    check_counters(wire)
    for end, link in enumerate(wire.links):
        sent = sum(len(messages) for messages in wire.sent[end].values())
        got = sum(len(messages) for messages in wire.got[end].values())
        assert link.sent == sent, (link.counters(), sent)
        assert (link.resent, link.duplicates, link.stale, link.dropped, link.missed) == (
            0, 0, 0, 0, 0)
        assert link.received == got
        assert link.acks_sent == got - len(wire.got[end].get(Sensors.KIND, []))
        assert link.acked == link.acks_received == wire.links[1 - end].acks_sent
    host = wire.links[0]
    assert host.peer == wire.sent[1][Hello.KIND][0] and host.incompatible is None


def test_links_on_a_bad_line_deliver_every_reliable_message_once():
    wire = Wire(7, drop=100, repeat=100, corrupt=100, swap=50, delay=50, piece=20)
    talk(wire, 150)
    wire.settle()
    check_delivery(wire)
    check_counters(wire)
    host, device = wire.links
    assert host.resent and host.duplicates and host.dropped and device.stale + host.stale
    # the frames missed are the gaps between the first and the last that arrived (a frame lost
    # after the last one is never noticed: nothing numbered after it came)
    sent, got = wire.sent[1][Sensors.KIND], wire.got[0][Sensors.KIND]
    assert host.missed == sent.index(got[-1]) - sent.index(got[0]) + 1 - len(got)


def test_messages_wait_for_the_hello_to_be_acknowledged():
    """Until the peer has our Hello it may remember numbers from our previous life: reliable
    messages wait, Sensors frames are not sent at all (the next ones are fresher)."""
    clock = Clock()
    host_out, device_out = [], []
    host = Link(host_out.append, clock.ms, Hello("1", "p", "host", 5))
    host.send(Leds(b"abc"))
    host.send(Sensors(0, [1]))
    assert host_out == [] and host.unacked == 1 and host.withheld == 1
    host.connect()
    assert host_out[-2] == b"\x00" and decoded(host_out[-1]) == [(0, host.hello)]
    device = Link(device_out.append, clock.ms)
    assert device.receive(b"".join(host_out)) == [host.hello]
    host.receive(b"".join(device_out))          # the Hello's Ack
    assert host.introduced and decoded(host_out[-1]) == [(0, Leds(b"abc"))]
    host.send(Sensors(12, [2]))                 # numbered after the withheld one
    assert decoded(host_out[-1]) == [(1, Sensors(12, [2]))]
    assert (host.sent, host.acked, host.unacked) == (3, 1, 1)


def test_newest_only_and_in_order_queues():
    clock = Clock()
    written = []
    link = Link(written.append, clock.ms, retry_ms=50, queue_limit=2)
    for pixels in (b"aaa", b"bbb", b"ccc"):
        link.send(Leds(pixels))
    for ms in (1, 2, 3, 4):
        link.send(Buzz(440, ms))
    assert (link.sent, link.superseded, link.overflowed, link.unacked) == (4, 2, 1, 4)
    clock.now = 50
    assert link.poll() == 2                      # the newest strip and the first buzz
    assert decoded(b"".join(written[-2:])) == [(2, Leds(b"ccc")), (0, Buzz(440, 1))]
    link.receive(encode_frame(Ack(Buzz.KIND).encode(0)))
    # the next buzz goes at once; the second was dropped from the full queue
    assert decoded(written[-1]) == [(1, Buzz(440, 3))]
    link.receive(encode_frame(Ack(LEDS).encode(1)))      # an old strip's ack: nothing
    assert link.unacked == 3 and link.acked == 1
    clock.now = 30                               # a clock gone back: everything is due
    assert link.poll() == 2 and link.resent == 4


def test_a_restarted_peer_numbers_afresh():
    """A rebooted device's first Button has the number of the old one's first: the host must
    take it as new, not as a resend; the same for a restarted host's buzzes."""
    wire = Wire(3, drop=100, corrupt=100)
    for end, session in ((None, None), (1, 2), (0, 2)):
        if end is not None:
            wire.start(end, session)             # a restart: numbering from 0
        for _ in range(3):
            wire.send(1, Button(1, True, wire.clock.now))
            wire.send(0, Buzz(440, wire.clock.now))
            wire.step()
        wire.settle()
    check_delivery(wire)
    assert len(wire.got[0][Button.KIND]) == 9 and len(wire.got[1][Buzz.KIND]) == 9
    assert wire.links[0].peer.session == wire.links[1].peer.session == 2


def test_a_peer_of_another_version_is_named():
    clock = Clock()
    written = []
    host = Link(written.append, clock.ms, Hello("0.1.0", "pico-bridge-2x6", "host", 1))
    got = host.receive(encode_frame(Hello("2.0", "pico-bridge-2x6", "device", 9,
                                          protocol=3).encode(0)))
    assert got[0].protocol == 3
    assert host.incompatible == ("the device speaks protocol version 3 (firmware 2.0), this end "
                                 "version 2: update the older one")
    sensors = bytearray(Sensors(0, [1]).encode(0))
    sensors[0] = 3
    assert host.receive(encode_frame(bytes(sensors))) == [] and host.invalid == 1
    twin = Link(written.append, clock.ms, Hello("0.1.0", "p", "host", 1))
    twin.receive(encode_frame(Hello("0.1.0", "p", "host", 3).encode(0)))
    assert twin.incompatible == "both ends say they are the host"


def test_a_guide_frame_travels_as_an_led_frame():
    from controller.guide.frame import Frame, COLOURS, PATTERNS
    frame = Frame(14)
    frame.set(3, "south", "drop")
    frame.set(13, "fault", "broken")
    seq, message = decode(LedFrame(frame.encode()).encode(5))
    assert seq == 5 and Frame.decode(message.places) == frame
    assert len(message.places) == 28 and len(COLOURS) < 256 and len(PATTERNS) < 256
    raises(ValueError, Frame.decode, bytes([0, 99]))
    raises(ValueError, Frame.decode, bytes([0]))
    raises(ProtocolError, LedFrame, b"\x00")
    raises(ProtocolError, decode, LedFrame(b"\x01\x02").encode(0)[:-1])
