"""Fuzz the pico-bridge receiver: valid frames, mangled, into what a receiver runs.

    python benchmarks/fuzz_protocol.py --inputs 1000000 --seed 1      # prints one JSON object

A pool of valid messages of every kind is encoded into frames; each input is one of them,
mangled by one mutation (or left intact), followed by a zero byte. The inputs go, as one
stream, into a `FrameDecoder`, and every payload it lets through into `messages.decode`: what
the receiving end of a `Link` does. Every payload that comes out is checked:

- one of the pool's payloads: an *intact* frame (a mutation can give one back: a byte
  replaced by itself, a splice of two frames at the same place);
- any other payload passed the CRC although it was never sent: a *CRC miss*. It is then
  either rejected by `decode` (wrong length for its kind, a field out of range...) or, when it
  is well formed too, an *undetected* corruption: a message that was never sent. Each of those
  must re-encode to exactly the bytes received (decoding is strict), so the worst it can be is
  a well-formed message, never a malformed one.

Anything raised other than `ProtocolError` from `decode` is a crash and ends the run. Every
frame the decoder drops is counted by cause, and their sum is checked against the number of
frames the stream held. tests/test_protocol_fuzz.py runs `fuzz` with 100,000 inputs; the
README's figures come from this command.

Mutations (`MUTATIONS`): intact, bit flips (1 to 8 bits), truncation, insertion (1 to 4 random
bytes), deletion (1 to 4 bytes), replacement (1 to 4 bytes), random bytes (1 to 99), a splice
of two frames, two frames run together (the delimiter between them lost), two adjacent bytes
swapped, and idle zeros before an intact frame. Host-only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

if __name__ == "__main__":      # run as a script from the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.protocol.framing import MAX_PAYLOAD, FrameDecoder, ProtocolError, encode_frame
from controller.protocol.messages import (BUTTONS, FIRE_AND_FORGET, KINDS, MAX_HZ, MAX_U32,
                                          MIN_HZ, ROLES, SENSOR_HIGH, SENSOR_LOW, Ack, Button,
                                          Buzz, Hello, Leds, Message, Sensors, State,
                                          StateRequest, decode)

MUTATIONS = ("intact", "flip", "truncate", "insert", "delete", "replace", "random", "splice",
             "run_together", "swap", "zeros")
POOL = 2000                 # distinct messages the inputs are made from
# the receiver's limit: over the largest message of the pool (510 bytes, 168 LEDs), under two
# run together, so that the too-long cause is fuzzed too
MAX_FUZZ_PAYLOAD = 600
CRC_MISS_RATE = 2.0 ** -16  # a CRC-16 passes a random corruption once in 65,536
RELIABLE_KINDS = [kind for kind in sorted(KINDS) if KINDS[kind].DELIVERY != FIRE_AND_FORGET]
TEXT = "abcdefghijklmnopqrstuvwxyz0123456789.-+ "


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(TEXT) for _ in range(rng.randrange(0, 33)))


def _reading(rng: random.Random) -> int:
    # mostly what load cells read (a tare and some seeds), sometimes anything the HX711 can say
    if rng.randrange(4):
        return rng.randrange(-200_000, 600_000)
    return rng.randint(SENSOR_LOW, SENSOR_HIGH)


def random_message(rng: random.Random) -> Message:
    """A valid message of a random kind with random fields, sized as on a real board."""
    kind = rng.randrange(8)
    if kind == 0:
        return Hello(_text(rng), _text(rng), rng.choice(ROLES), rng.getrandbits(32))
    if kind == 1:
        return Ack(rng.choice(RELIABLE_KINDS))
    if kind == 2:
        channels = rng.choice((1, 4, 14, 16, 26, 26, 26))
        return Sensors(rng.getrandbits(32), [_reading(rng) for _ in range(channels)])
    if kind == 3:
        return Leds(rng.randbytes(3 * rng.choice((1, 14, 28, 84, 168))))
    if kind == 4:
        return Button(rng.randrange(len(BUTTONS)), rng.random() < 0.5, rng.getrandbits(32))
    if kind == 5:
        return Buzz(rng.choice((0, rng.randint(MIN_HZ, MAX_HZ))), rng.randrange(65536))
    if kind == 6:
        return StateRequest()
    return State(rng.randbytes(3 * rng.choice((0, 14, 28))), rng.randrange(16),
                 rng.randint(0, MAX_U32), rng.choice((0, 14, 26)))


def mutate(rng: random.Random, name: str, body: bytes, other: bytes) -> bytes:
    """`body` (a frame without its delimiter) mangled by mutation `name`; `other` is a second
    frame body for the splice and the run-together."""
    size = len(body)
    if name == "intact":
        return body
    if name == "flip":
        mangled = bytearray(body)
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4, 8))):
            bit = rng.randrange(8 * size)
            mangled[bit >> 3] ^= 1 << (bit & 7)
        return bytes(mangled)
    if name == "truncate":
        return body[:rng.randrange(size)]
    if name == "insert":
        at = rng.randrange(size + 1)
        return body[:at] + rng.randbytes(rng.randint(1, 4)) + body[at:]
    if name == "delete":
        at = rng.randrange(size)
        return body[:at] + body[at + rng.randint(1, 4):]
    if name == "replace":
        mangled = bytearray(body)
        for _ in range(rng.randint(1, 4)):
            mangled[rng.randrange(size)] = rng.randrange(256)
        return bytes(mangled)
    if name == "random":
        return rng.randbytes(rng.randrange(1, 100))
    if name == "splice":
        return body[:rng.randrange(size + 1)] + other[rng.randrange(len(other) + 1):]
    if name == "run_together":
        return body + other
    if name == "swap":
        at = rng.randrange(size - 1)
        return body[:at] + body[at + 1:at + 2] + body[at:at + 1] + body[at + 2:]
    if name == "zeros":
        return b"\x00" * rng.randint(1, 5) + body
    raise ValueError("unknown mutation %r" % name)


class Receiver:
    """A FrameDecoder and `decode`, checking every payload against the payloads sent."""

    def __init__(self, sent: set[bytes], max_payload: int = MAX_PAYLOAD) -> None:
        self.sent = sent
        self.decoder = FrameDecoder(max_payload)
        self.segments = 0           # frames in the stream: non-empty runs between zero bytes
        self.intact = 0
        self.crc_misses = 0
        self.shifted = 0            # CRC misses that are a sent payload one byte off
        self.rejected = 0           # CRC misses that `decode` rejected
        # CRC misses that decoded: (number, message, whether one byte off a sent payload)
        self.undetected: list[tuple[int, Message, bool]] = []

    def _shifted(self, payload: bytes) -> bool:
        """A sent payload that lost its last byte (its CRC ended in 0x00, which was lost) or
        gained one (a 0x00 added after its CRC): the CRC's blind spots (see `framing`)."""
        if payload[:-1] in self.sent:
            return True
        return any(payload + bytes((byte,)) in self.sent for byte in range(256))

    def feed(self, data: bytes) -> None:
        """Feed one input, which ends with a zero byte (so no frame spans two inputs)."""
        self.segments += sum(1 for part in data.split(b"\x00") if part)
        for payload in self.decoder.feed(data):
            if payload in self.sent:
                self.intact += 1
                continue
            self.crc_misses += 1
            shifted = self._shifted(payload)
            self.shifted += shifted
            try:
                seq, message = decode(payload)
            except ProtocolError:
                self.rejected += 1
                continue
            if message.encode(seq) != payload:
                raise AssertionError("%r decoded to %r, which encodes differently" % (
                    payload, message))
            self.undetected.append((seq, message, shifted))


def fuzz(inputs: int, seed: int = 1, pool: int = POOL) -> dict:
    """Run `inputs` fuzz inputs; the figures as a dict (see the module)."""
    rng = random.Random(seed)
    payloads = [random_message(rng).encode(rng.randrange(65536)) for _ in range(pool)]
    bodies = [encode_frame(payload)[:-1] for payload in payloads]
    receiver = Receiver(set(payloads), MAX_FUZZ_PAYLOAD)
    by_mutation = dict.fromkeys(MUTATIONS, 0)
    size = 0
    started = time.perf_counter()
    for _ in range(inputs):
        name = rng.choice(MUTATIONS)
        by_mutation[name] += 1
        data = mutate(rng, name, rng.choice(bodies), rng.choice(bodies)) + b"\x00"
        size += len(data)
        receiver.feed(data)
    seconds = time.perf_counter() - started
    decoder = receiver.decoder
    # corrupted frames that reached the CRC check: those it caught and those it missed
    checked = decoder.bad_crc + receiver.crc_misses
    other = receiver.crc_misses - receiver.shifted
    kinds = {}
    for _, message, _ in receiver.undetected:
        kinds[type(message).__name__] = kinds.get(type(message).__name__, 0) + 1
    return {
        "inputs": inputs,
        "seed": seed,
        "bytes": size,
        "by_mutation": by_mutation,
        "frames_in_stream": receiver.segments,
        "frames_decoded": decoder.frames,
        "intact": receiver.intact,
        "dropped": {"total": decoder.dropped, "bad_cobs": decoder.bad_cobs,
                    "bad_crc": decoder.bad_crc, "too_long": decoder.too_long},
        "corrupted_checked_by_crc": checked,
        "crc_misses": receiver.crc_misses,
        "crc_misses_length_shift": receiver.shifted,
        "crc_misses_other": other,
        "crc_miss_rate_other": other / checked if checked else 0.0,
        "crc_misses_other_expected": checked * CRC_MISS_RATE,
        "rejected_by_decode": receiver.rejected,
        "undetected": len(receiver.undetected),
        "undetected_length_shift": sum(1 for _, _, shifted in receiver.undetected if shifted),
        "undetected_kinds": kinds,
        "seconds": round(seconds, 3),
        "inputs_per_second": round(inputs / seconds) if seconds else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000, help="inputs (1000000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    args = parser.parse_args(argv)
    if args.inputs < 1:
        parser.error("--inputs %d: give at least 1" % args.inputs)
    print(json.dumps(fuzz(args.inputs, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
