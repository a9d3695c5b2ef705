"""Fuzzing the receiving end: what a Link does with frames that are random, torn or corrupted.

Two parts:

- **volume**: benchmarks/fuzz_protocol.py's `fuzz` with 100,000 seeded inputs (valid frames
  bit-flipped, truncated, with bytes inserted, deleted, replaced or swapped, spliced, run
  together, random bytes) through a FrameDecoder and `decode`, in well under a second;
- **structure**: hypothesis builds streams of real messages and mangles them, into a `Link`,
  whose counters are checked against an oracle built on the reference libraries.

Corruption the CRC cannot see. A CRC-16 passes a random corruption once in 65,536, so among
the ~32,000 corrupted frames that reach the CRC check here about 0.5 would pass: the test
counts them and bounds them (a Poisson tail of 1e-9 around 2**-16 of the frames checked),
rather than asserting none. CRC-16/CCITT-FALSE also has two blind spots of its own (no final
xor): a frame that loses its last byte when its CRC ends in 0x00 (one in 256), or gains a 0x00
after its CRC, passes. Those are counted apart (`crc_misses_length_shift`) and must all be
rejected by `decode`: every kind's length follows from its first bytes, so a payload one byte
off never decodes. What slips past both the CRC and `decode` (`undetected`) is bounded with the
random misses, and must be a well-formed message: `decode` is strict, so it re-encodes to the
very bytes received, every field in range. Nothing malformed is ever applied; a message that
was never sent can only be one of these, at a rate measured by the benchmark (none in
1,000,000 inputs).
"""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.protocol import FrameDecoder, Hello, Link, encode_frame
from benchmark_scripts import load_benchmark
from test_protocol import ANY_MESSAGE, SEQ, oracle
from test_protocol_portable import Clock

fuzz_protocol = load_benchmark("fuzz_protocol")


def poisson_bound(mean: float, tail: float = 1e-9) -> int:
    """The least k with P(X > k) < tail for X Poisson with this mean."""
    k, term = 0, math.exp(-mean)
    total = term
    while 1 - total >= tail:
        k += 1
        term *= mean / k
        total += term
    return k


def test_poisson_bound():
    assert poisson_bound(0.0) == 0
    assert poisson_bound(0.5) == 9          # P(X > 9) = 1.6e-10 for a mean of 0.5
    assert poisson_bound(5.0) == 23         # P(X > 22) = 3.9e-9, P(X > 23) = 8.1e-10


def test_100000_inputs_crash_nothing_and_every_bad_frame_is_dropped_and_counted():
    figures = fuzz_protocol.fuzz(100_000, seed=1)
    assert figures["inputs"] == 100_000
    assert min(figures["by_mutation"].values()) > 8000          # every mutation, often
    dropped = figures["dropped"]
    # every frame in the stream either decoded or was dropped for a named cause
    assert figures["frames_in_stream"] == figures["frames_decoded"] + dropped["total"]
    assert dropped["total"] == dropped["bad_cobs"] + dropped["bad_crc"] + dropped["too_long"]
    assert min(dropped["bad_cobs"], dropped["bad_crc"], dropped["too_long"]) > 0
    # what decoded is a frame that was sent, or a CRC miss that `decode` judged
    assert figures["frames_decoded"] == figures["intact"] + figures["crc_misses"]
    assert figures["crc_misses"] == figures["rejected_by_decode"] + figures["undetected"]
    assert figures["undetected_length_shift"] == 0
    assert figures["crc_misses_other"] <= poisson_bound(figures["crc_misses_other_expected"])
    assert figures["undetected"] <= figures["crc_misses_other"]
    assert figures["intact"] > 15_000


# --- structure, with hypothesis -------------------------------------------------------------

MUTATION = st.sampled_from(fuzz_protocol.MUTATIONS)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(ANY_MESSAGE, SEQ, MUTATION, st.integers(0, 2 ** 32)), min_size=1,
                max_size=8),
       st.integers(1, 64))
def test_a_link_drops_and_counts_every_bad_frame(inputs, piece):
    """Real messages, each mangled by one mutation (its random choices drawn from a seed),
    into a Link in pieces of `piece` bytes: it never raises, delivers nothing that was not
    sent, and its decoder's counters match what the reference libraries make of the stream."""
    sent, stream = [], b""
    for message, seq, mutation, seed in inputs:
        sent.append(message)
        body = encode_frame(message.encode(seq))[:-1]
        stream += fuzz_protocol.mutate(random.Random(seed), mutation, body, body) + b"\x00"
    link = Link([].append, Clock().ms, Hello("1", "p", "host", 1))
    got = []
    for at in range(0, len(stream), piece):
        got += link.receive(stream[at:at + piece])
    for message in got:
        assert message in sent, message
    expected, counts = oracle(stream, link.decoder.max_payload)
    decoder = link.decoder
    assert (decoder.bad_cobs, decoder.bad_crc, decoder.too_long) == (
        counts["bad_cobs"], counts["bad_crc"], counts["too_long"])
    assert decoder.frames == len(expected) == (link.received + link.duplicates + link.stale
                                               + link.invalid + link.acks_received)
    assert link.dropped == decoder.dropped + link.invalid


def test_a_decoder_fed_one_byte_at_a_time_agrees():
    stream = b"".join(encode_frame(bytes([n]) * n) + b"\x13\x00" for n in range(256))
    decoder = FrameDecoder()
    got = []
    for byte in stream:
        got += decoder.feed(bytes([byte]))
    assert got == [bytes([n]) * n for n in range(256)]
    assert (decoder.frames, decoder.dropped, decoder.bad_cobs) == (256, 256, 256)
