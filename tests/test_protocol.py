"""The wire protocol on CPython: framing byte for byte against the reference libraries (`cobs`,
`crc`), every message under hypothesis, and links on bad lines for longer than the portable
tests (tests/portable/test_protocol_portable.py, whose line and checks are used here) run."""

from __future__ import annotations

import sys
from pathlib import Path

import crc
import pytest
from cobs import cobs
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.protocol import (Ack, Button, Buzz, FrameDecoder, FramingError, Hello, Leds,
                                 Link, ProtocolError, Sensors, State, StateRequest, cobs_decode,
                                 cobs_encode, crc16, decode, encode_frame)
from controller.protocol.framing import MAX_PAYLOAD, encoded_limit
from controller.protocol.messages import (BUTTONS, FIRE_AND_FORGET, KINDS, MAX_CHANNELS,
                                          MAX_HZ, MAX_LEDS, MAX_TEXT, MAX_U32, MIN_HZ,
                                          PROTOCOL_VERSION, ROLES, SENSOR_HIGH, SENSOR_LOW)

sys.path.insert(0, str(Path(__file__).resolve().parent / "portable"))
from test_protocol_portable import (Clock, Wire, check_counters, check_delivery,  # noqa: E402
                                    decoded, talk)

CCITT_FALSE = crc.Calculator(crc.Crc16.IBM_3740)    # poly 0x1021, init 0xFFFF, xorout 0


def reference_frame(payload: bytes) -> bytes:
    """A frame as the reference libraries make it."""
    return cobs.encode(payload + CCITT_FALSE.checksum(payload).to_bytes(2, "big")) + b"\x00"


# --- framing against the libraries ----------------------------------------------------------

# runs of one byte, of the lengths where COBS changes its mind (a block holds 254 bytes)
RUN_LENGTHS = st.sampled_from([0, 1, 2, 253, 254, 255, 256, 507, 508, 509]) | st.integers(0, 40)
RUNS = st.lists(st.tuples(st.sampled_from([0x00, 0x01, 0xFF]) | st.integers(0, 255),
                          RUN_LENGTHS), max_size=6)
PAYLOADS = st.one_of(st.binary(max_size=700),
                     RUNS.map(lambda runs: b"".join(bytes([byte]) * n for byte, n in runs)))

EDGES = [b"", b"\x00", bytes(254), bytes(255), bytes(1000), b"\x01" * 254, b"\x01" * 255,
         b"\x01" * 253 + b"\x00", b"\x01" * 254 + b"\x00", b"\x01" * 508, b"\xff" * 509,
         b"\x00" + b"\x01" * 254 + b"\x00" * 3]


@pytest.mark.parametrize("payload", EDGES, ids=range(len(EDGES)))
def test_edges_match_the_libraries(payload):
    assert cobs_encode(payload) == cobs.encode(payload)
    assert cobs_decode(cobs.encode(payload)) == payload
    assert crc16(payload) == CCITT_FALSE.checksum(payload)
    assert encode_frame(payload) == reference_frame(payload)


@given(PAYLOADS)
def test_framing_matches_the_libraries(payload):
    assert crc16(payload) == CCITT_FALSE.checksum(payload)
    assert cobs_encode(payload) == cobs.encode(payload)
    assert cobs_decode(cobs.encode(payload)) == payload
    assert encode_frame(payload) == reference_frame(payload)
    assert len(encode_frame(payload)) - 1 <= encoded_limit(len(payload))


@given(PAYLOADS, PAYLOADS)
def test_crc16_continues_over_pieces(first, second):
    assert crc16(second, crc16(first)) == crc16(first + second)


@given(st.binary(max_size=600) | PAYLOADS.map(cobs.encode))
def test_cobs_decode_accepts_and_refuses_as_the_library(data):
    try:
        expected = cobs.decode(data)
    except cobs.DecodeError:
        with pytest.raises(FramingError):
            cobs_decode(data)
    else:
        assert cobs_decode(data) == expected


def test_a_payload_over_the_limit_is_not_framed():
    encode_frame(bytes(MAX_PAYLOAD))
    with pytest.raises(FramingError, match="a payload of 4097 bytes is over the 4096"):
        encode_frame(bytes(MAX_PAYLOAD + 1))


# --- the stream decoder against an oracle built on the libraries -----------------------------

def oracle(stream: bytes, max_payload: int) -> tuple[list[bytes], dict[str, int]]:
    """What a decoder must make of `stream`, worked out with the reference libraries: the
    payloads of intact frames and the count of each cause of a drop."""
    payloads, counts = [], {"bad_cobs": 0, "bad_crc": 0, "too_long": 0}
    segments = stream.split(b"\x00")[:-1]          # bytes after the last zero: not yet a frame
    for segment in segments:
        if not segment:
            continue
        if len(segment) > encoded_limit(max_payload):
            counts["too_long"] += 1
            continue
        try:
            checked = cobs.decode(segment)
        except cobs.DecodeError:
            counts["bad_cobs"] += 1
            continue
        if len(checked) < 2 or CCITT_FALSE.checksum(checked[:-2]) != int.from_bytes(
                checked[-2:], "big"):
            counts["bad_crc"] += 1
        elif len(checked) - 2 > max_payload:
            counts["too_long"] += 1
        else:
            payloads.append(checked[:-2])
    return payloads, counts


PIECES = st.lists(st.one_of(
    PAYLOADS.map(lambda payload: ("frame", payload)),
    st.binary(min_size=1, max_size=40).map(lambda junk: ("junk", junk)),
    st.integers(1, 5).map(lambda zeros: ("zeros", zeros)),
    st.binary(max_size=300).map(lambda payload: ("torn", payload))), max_size=12)


@given(PIECES, st.lists(st.integers(1, 300), min_size=1, max_size=8),
       st.sampled_from([MAX_PAYLOAD, 64, 0]))
def test_decoder_survives_any_stream(pieces, cuts, max_payload):
    stream = b""
    for kind, value in pieces:
        if kind == "frame":
            stream += encode_frame(value)
        elif kind == "junk":
            stream += value
        elif kind == "zeros":
            stream += bytes(value)
        else:                                       # a frame cut short, as by a pulled cable
            stream += encode_frame(value)[:len(value) // 2]
    decoder = FrameDecoder(max_payload)
    got = []
    at = 0
    for cut in cuts * (1 + len(stream) // sum(cuts)):
        got += decoder.feed(stream[at:at + cut])
        at += cut
    expected, counts = oracle(stream, max_payload)
    assert got == expected
    assert (decoder.frames, decoder.bad_cobs, decoder.bad_crc, decoder.too_long) == (
        len(expected), counts["bad_cobs"], counts["bad_crc"], counts["too_long"])


def test_garbage_longer_than_a_frame_is_not_kept():
    decoder = FrameDecoder(max_payload=100)
    for _ in range(1000):
        decoder.feed(b"\x05" * 100)             # 100 KB without a delimiter
        assert len(decoder._buffer) <= encoded_limit(100)
    assert decoder.feed(b"\x00" + encode_frame(b"ok")) == [b"ok"]
    assert (decoder.too_long, decoder.frames) == (1, 1)


# --- messages -------------------------------------------------------------------------------

TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=MAX_TEXT)
TIME = st.integers(0, MAX_U32)
PIXELS = st.integers(0, 200).flatmap(lambda leds: st.binary(min_size=3 * leds,
                                                            max_size=3 * leds))
RELIABLE = sorted(kind for kind in KINDS if KINDS[kind].DELIVERY != FIRE_AND_FORGET)

ANY_MESSAGE = st.one_of(
    st.builds(Hello, TEXT, TEXT, st.sampled_from(ROLES), TIME),
    st.builds(Ack, st.sampled_from(RELIABLE)),
    st.builds(Sensors, TIME, st.lists(st.integers(SENSOR_LOW, SENSOR_HIGH),
                                      max_size=MAX_CHANNELS)),
    st.builds(Leds, PIXELS),
    st.builds(Button, st.integers(0, len(BUTTONS) - 1), st.booleans(), TIME),
    st.builds(Buzz, st.just(0) | st.integers(MIN_HZ, MAX_HZ), st.integers(0, 65535)),
    st.just(StateRequest()),
    st.builds(State, PIXELS, st.integers(0, 15), TIME, st.integers(0, MAX_CHANNELS)))
SEQ = st.integers(0, 0xFFFF)


@given(ANY_MESSAGE, SEQ)
def test_every_message_round_trips(message, seq):
    payload = message.encode(seq)
    assert decode(payload) == (seq, message)
    assert len(payload) <= MAX_PAYLOAD
    assert decoded(encode_frame(payload)) == [(seq, message)]


def test_the_largest_messages_fit_a_frame():
    for message in (Leds(bytes(3 * MAX_LEDS)), State(bytes(3 * MAX_LEDS), 15, MAX_U32, 64),
                    Sensors(MAX_U32, [SENSOR_LOW] * MAX_CHANNELS),
                    Hello("x" * MAX_TEXT, "y" * MAX_TEXT, "device", MAX_U32)):
        encode_frame(message.encode(0xFFFF))


@st.composite
def mangled_payloads(draw):
    """A message's payload with bytes changed, cut off or added."""
    payload = bytearray(draw(ANY_MESSAGE).encode(draw(SEQ)))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["set", "cut", "add"]))
        if action == "set" and payload:
            payload[draw(st.integers(0, len(payload) - 1))] = draw(st.integers(0, 255))
        elif action == "cut":
            del payload[draw(st.integers(0, len(payload))):]
        elif action == "add":
            payload += draw(st.binary(min_size=1, max_size=4))
    return bytes(payload)


@given(mangled_payloads() | st.binary(max_size=80))
def test_decoding_is_strict(payload):
    """A payload decodes only to the message whose exact encoding it is (a Hello of a later
    version may carry more after its fields); anything else raises ProtocolError, and nothing
    else."""
    try:
        seq, message = decode(payload)
    except ProtocolError as error:
        assert str(error) and "\n" not in str(error)
    else:
        if message.protocol == PROTOCOL_VERSION:
            assert message.encode(seq) == payload
        else:
            assert isinstance(message, Hello) and payload.startswith(message.encode(seq))


def test_a_hello_draws_its_session():
    sessions = {Hello("1", "p", "host").session for _ in range(20)}
    assert len(sessions) > 15 and all(0 <= session <= MAX_U32 for session in sessions)


# --- links on bad lines ---------------------------------------------------------------------

RATE = st.integers(0, 250)      # per mille


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10 ** 6), RATE, RATE, RATE, RATE, RATE, st.integers(1, 100))
def test_links_deliver_every_reliable_message_once_on_any_line(seed, drop, repeat, corrupt,
                                                               swap, delay, piece):
    wire = Wire(seed, drop, repeat, corrupt, swap, delay, piece)
    talk(wire, 120)
    wire.settle(5000)
    check_delivery(wire)
    check_counters(wire)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_links_through_a_long_bad_game(seed):
    """2,000 steps (20 s of play) on a line that loses, repeats, corrupts, swaps and reorders
    a fifth of the frames each way."""
    wire = Wire(seed, drop=200, repeat=200, corrupt=200, swap=200, delay=200, piece=37)
    talk(wire, 2000, channels=26)
    wire.settle()
    check_delivery(wire)
    check_counters(wire)
    host, device = wire.links
    assert min(host.resent, device.resent, host.duplicates, device.duplicates, host.stale,
               device.stale, host.invalid + host.decoder.dropped, host.missed) > 0


class ScriptedLine:
    """A line that loses the writes whose numbers (from 0) are in `lose`."""

    def __init__(self, lose: set[int]) -> None:
        self.lose = lose
        self.writes = 0
        self.line = bytearray()

    def write(self, data: bytes) -> None:
        if self.writes not in self.lose:
            self.line += data
        self.writes += 1

    def take(self) -> bytes:
        data, self.line = bytes(self.line), bytearray()
        return data


def test_a_lost_frame_is_resent_and_a_lost_ack_gives_one_duplicate():
    clock = Clock()
    to_device, to_host = ScriptedLine({0}), ScriptedLine({0})
    host = Link(to_device.write, clock.ms, retry_ms=100)
    device = Link(to_host.write, clock.ms, retry_ms=100)
    host.send(Buzz(440, 50))                    # write 0 to the device: lost
    assert device.receive(to_device.take()) == []
    clock.now = 99
    assert host.poll() == 0
    clock.now = 100
    assert host.poll() == 1                     # resent ...
    assert device.receive(to_device.take()) == [Buzz(440, 50)]
    host.receive(to_host.take())                # ... and acked, but the Ack was lost
    clock.now = 200
    assert host.poll() == 1
    assert device.receive(to_device.take()) == []   # a duplicate: acked again, not delivered
    host.receive(to_host.take())
    clock.now = 1000
    assert host.poll() == 0 and host.unacked == 0
    assert (host.sent, host.resent, host.acked, host.acks_received) == (1, 2, 1, 1)
    assert (device.received, device.duplicates, device.acks_sent) == (1, 1, 2)


def test_a_cable_pulled_while_writing_keeps_the_message():
    clock = Clock()
    written = []
    state = {"plugged": False}

    def write(data: bytes) -> None:
        if not state["plugged"]:
            raise OSError("write failed: device disconnected")
        written.append(data)

    link = Link(write, clock.ms)
    with pytest.raises(OSError):
        link.send(Leds(b"\x01\x02\x03"))
    assert link.unacked == 1
    state["plugged"] = True
    clock.now = 100
    assert link.poll() == 1 and decoded(written[0]) == [(0, Leds(b"\x01\x02\x03"))]


@given(st.binary(max_size=400))
def test_a_link_takes_any_bytes(data):
    written = []
    link = Link(written.append, Clock().ms, Hello("1", "p", "host", 1))
    link.receive(data)
    decoder = link.decoder
    assert decoder.frames == (link.received + link.duplicates + link.stale + link.invalid
                              + link.acks_received)
