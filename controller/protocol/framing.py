"""Frames on a byte stream: COBS around a payload and its CRC-16, a zero byte between frames.

The Pico and the Pi talk over USB serial, a stream of bytes with no message boundaries, where
a cable pulled mid-frame, a reboot or line noise leave torn and garbled bytes. Each frame is::

    cobs_encode(payload + crc16(payload) as 2 bytes, big-endian) + b"\\x00"

COBS (Consistent Overhead Byte Stuffing) rewrites the bytes so that none is zero, at a cost of
one byte in 254, which makes the zero an unambiguous frame delimiter: a receiver that joins
mid-stream or loses bytes resynchronises at the next zero. The CRC (CRC-16/CCITT-FALSE:
polynomial 0x1021, initial value 0xFFFF, not reflected, no final xor) catches what COBS lets
through: in the payload and CRC, any odd number of flipped bits, any two within 4 KB, any burst
of up to 16 bits; of other corruptions (a COBS code byte hit, bytes lost or added), all but
about 1 in 65,536.

Two corruptions it cannot see, because it has no final xor: a frame that gains a 0x00 after its
CRC, and one whose CRC ends in 0x00 (1 in 256) and loses it, both pass, as their payload one
byte longer or shorter. The messages make up for it: every kind's length follows from its first
bytes, so `messages.decode` rejects both (tests/test_protocol_fuzz.py measures this).

    >>> hex(crc16(b"123456789"))                      # the CRC's standard check value
    '0x29b1'
    >>> encode_frame(b"\\x01\\x00\\x02")
    b'\\x02\\x01\\x04\\x02\\xdb\\xee\\x00'
    >>> decoder = FrameDecoder()
    >>> decoder.feed(b"garbage\\x00" + encode_frame(b"hi")[:3])   # a torn frame, then half of one
    []
    >>> decoder.feed(encode_frame(b"hi")[3:] + b"\\x00\\x00")        # its end, and idle zeros
    [b'hi']
    >>> decoder.frames, decoder.dropped, decoder.bad_cobs       # "garbage" is no COBS
    (1, 1, 1)

Portable core: MicroPython subset.
"""

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

MAX_PAYLOAD = const(4096)   # bytes: the largest message (3,072 bytes of LEDs and a header) fits
CRC_BYTES = const(2)
BLOCK = const(254)          # the most non-zero bytes one COBS block carries
FULL_BLOCK = const(0xFF)    # the code byte of such a block: no zero follows it
DELIMITER = b"\x00"


class ProtocolError(ValueError):
    """Bad input to the wire protocol: a frame or payload that cannot be what a peer sent, or a
    message built with a field out of range. The message is one line that says what was wrong."""


class FramingError(ProtocolError):
    """A byte string that is not a valid COBS encoding, or a payload too long to frame."""


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()   # 256 entries: one lookup a byte instead of eight shifts


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of `data`; pass a previous result as `crc` to continue over more."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data):
    """`data` with every zero byte stuffed away: one code byte a block, at most 254 data bytes a
    block (b"" gives b"\\x01"). The result holds no zero byte."""
    out = bytearray()
    length = len(data)
    start = 0
    full = False            # the last block written was a full one, which implies no zero
    while True:
        zero = data.find(DELIMITER, start)
        end = length if zero < 0 else zero
        while end - start >= BLOCK:
            out.append(FULL_BLOCK)
            out += data[start:start + BLOCK]
            start += BLOCK
            full = True
        if zero < 0:
            # data that ends on a full block needs no final (empty) block
            if start < length or not full:
                out.append(end - start + 1)
                out += data[start:end]
            return bytes(out)
        out.append(end - start + 1)         # the block up to the zero; the code stands for it
        out += data[start:end]
        start = end + 1
        full = False


def accelerate(crc=None, cobs=None):
    """Use faster versions of `crc16` and `cobs_encode` from now on: a port with native code
    (the Pico's firmware, firmware/fast.py) gives its own, which must give the very same
    bytes (the firmware's tests compare them on the emulated Pico). None keeps the one here."""
    global crc16, cobs_encode
    if crc is not None:
        crc16 = crc
    if cobs is not None:
        cobs_encode = cobs


def cobs_decode(data):
    """The bytes `cobs_encode` was given; FramingError when `data` holds a zero byte or a code
    byte that points past its end."""
    zero = data.find(DELIMITER)
    if zero >= 0:
        raise FramingError("COBS data holds a zero byte at offset %d" % zero)
    out = bytearray()
    length = len(data)
    at = 0
    while at < length:
        code = data[at]
        end = at + code
        if end > length:
            raise FramingError("COBS code %d at offset %d runs %d bytes past the end" % (
                code, at, end - length))
        out += data[at + 1:end]
        at = end
        if code != FULL_BLOCK and at < length:
            out.append(0)
    return bytes(out)


def encode_frame(payload):
    """The bytes that carry `payload` on the wire, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise FramingError("a payload of %d bytes is over the %d a frame carries" % (
            len(payload), MAX_PAYLOAD))
    checked = bytearray(payload)
    crc = crc16(payload)
    checked.append(crc >> 8)
    checked.append(crc & 0xFF)
    return cobs_encode(checked) + DELIMITER


def encoded_limit(max_payload):
    """The most bytes a frame of up to `max_payload` payload bytes takes between delimiters."""
    size = max_payload + CRC_BYTES
    return size + size // BLOCK + 1


class FrameDecoder:
    """A stream of bytes in, the payloads of the intact frames out.

    Feed it whatever the link reads, in pieces of any size; a frame may be split across pieces.
    Bytes up to each zero byte are one frame: it counts in `frames` when it decodes and its CRC
    matches, otherwise it is dropped and counted by cause:

    - `bad_cobs`: not a valid COBS encoding (a code byte pointing past the frame's end);
    - `bad_crc`: the CRC does not match, or the frame is too short to hold one;
    - `too_long`: more bytes than a frame of `max_payload` can take (a lost delimiter ran two
      frames together, or noise); the bytes are not kept, so memory stays bounded.

    `dropped` is their sum. Runs of zeros between frames are idle line, not frames.
    """

    __slots__ = ("max_payload", "frames", "bad_cobs", "bad_crc", "too_long", "_limit", "_buffer",
                 "_overflow")

    def __init__(self, max_payload=MAX_PAYLOAD):
        if not 0 <= max_payload <= MAX_PAYLOAD:
            raise ValueError("max_payload %r is not 0..%d" % (max_payload, MAX_PAYLOAD))
        self.max_payload = max_payload
        self._limit = encoded_limit(max_payload)
        self.frames = 0
        self.bad_cobs = 0
        self.bad_crc = 0
        self.too_long = 0
        self._buffer = bytearray()
        self._overflow = False

    @property
    def dropped(self):
        """Frames dropped, all causes."""
        return self.bad_cobs + self.bad_crc + self.too_long

    def feed(self, data):
        """The payloads of the frames that `data` completes, in order (bytes objects)."""
        payloads = []
        length = len(data)
        start = 0
        while start < length:
            zero = data.find(DELIMITER, start)
            end = length if zero < 0 else zero
            if not self._overflow:
                if len(self._buffer) + end - start > self._limit:
                    self._overflow = True
                    self._buffer = bytearray()
                else:
                    self._buffer += data[start:end]
            if zero < 0:
                break
            self._end_frame(payloads)
            start = zero + 1
        return payloads

    def _end_frame(self, payloads):
        buffer = self._buffer
        if self._overflow:
            self.too_long += 1
            self._overflow = False
        elif buffer:
            try:
                checked = cobs_decode(buffer)
            except FramingError:
                self.bad_cobs += 1
            else:
                payload = checked[:-CRC_BYTES]
                if len(checked) < CRC_BYTES or crc16(payload) != (
                        checked[-2] << 8 | checked[-1]):
                    self.bad_crc += 1
                elif len(payload) > self.max_payload:
                    self.too_long += 1
                else:
                    self.frames += 1
                    payloads.append(payload)
        else:
            return                          # an idle zero: keep the (empty) buffer
        self._buffer = bytearray()
