"""The messages of the pico-bridge link (protocol version 2), each as bytes and back.

Every payload (the bytes a frame carries, see `framing`) starts with a 4-byte header::

    version (1 byte) | kind (1 byte) | sequence number (2 bytes, big-endian) | body

and every multi-byte field is big-endian. Kinds, what they carry and who sends them:

=====  ===============  ========  ============================================================
kind   message          sender    body
=====  ===============  ========  ============================================================
1      `Hello`          both      session u32, role u8 (0 host, 1 device), firmware and profile
                                  (each a length u8 and up to 32 printable ASCII bytes)
2      `Ack`            both      the kind acknowledged u8 (the header's number is its number)
3      `Sensors`        device    time_ms u32, channels u8, a missing bit per channel
                                  (ceil(channels / 8) bytes, channel i = bit i % 8 of byte
                                  i // 8), then a signed 24-bit reading each (0 if missing)
4      `Leds`           host      LEDs u16, then R, G, B bytes for each
5      `Button`         device    button u8 (0 new game, 1 undo, 2 hint, 3 confirm),
                                  pressed u8 (0 or 1), time_ms u32
6      `Buzz`           host      hz u16 (0: silence), ms u16
7      `StateRequest`   host      nothing
8      `State`          device    uptime_ms u32, buttons held u8 (bit i: button i), sensor
                                  channels u8, LEDs u16, then R, G, B bytes for each, then
                                  each channel's conversion period u32 (us, 0: unknown)
9      `LedFrame`       host      places u8, then 2 bytes a place (its colour and pattern, as
                                  `Frame.encode` gives them): the device animates them
=====  ===============  ========  ============================================================

Version 2 differs from 1 in `Sensors`, where a reading may be missing (the Pico could not
trust it: a conversion may have ended while it was read), and in `State`, which adds each
channel's conversion period.

Each kind numbers its own messages (see `link`): a receiver tells a resend from a new message
by the number, and counts the sensor frames it missed by the gaps.

The version byte, the kind byte and the Hello's body are the same in every version, so two ends
of different versions can always read each other's Hello and say so; any other message of
another version is rejected. Decoding is strict: a payload decodes only if it is the exact
encoding of the message it decodes to (no trailing bytes, no reserved bit set, every field in
range), so a corrupted frame that slips past the CRC must also be well formed to get through.

    >>> payload = Button(3, True, 1200).encode(7)
    >>> payload
    b'\\x02\\x05\\x00\\x07\\x03\\x01\\x00\\x00\\x04\\xb0'
    >>> decode(payload)
    (7, Button(button=3, pressed=True, time_ms=1200))
    >>> decode(payload[:-1])
    Traceback (most recent call last):
    ...
    controller.protocol.framing.ProtocolError: Button: a payload of 9 bytes, not 10

Portable core: MicroPython subset.
"""

from .framing import ProtocolError

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

try:
    from random import getrandbits
except ImportError:                     # a port without random: sessions must be given
    getrandbits = None

PROTOCOL_VERSION = const(2)
HEADER = const(4)           # version, kind, sequence number (2 bytes)
MAX_SEQ = const(0xFFFF)

HELLO = const(1)
ACK = const(2)
SENSORS = const(3)
LEDS = const(4)
BUTTON = const(5)
BUZZ = const(6)
STATE_REQUEST = const(7)
STATE = const(8)
LED_FRAME = const(9)

# How the link delivers each kind (`Message.DELIVERY`)
FIRE_AND_FORGET = const(0)  # sent once: a lost one is replaced by the next (Sensors, Ack)
NEWEST_ONLY = const(1)      # resent until acknowledged; a newer one replaces one still pending
EVERY_IN_ORDER = const(2)   # resent until acknowledged, one at a time: all arrive, in order

ROLES = ("host", "device")
BUTTONS = ("new_game", "undo", "hint", "confirm")     # the board's buttons, by number: the names
                                                      # every config, profile and log uses
MAX_TEXT = const(32)        # bytes of a Hello's firmware or profile
MAX_CHANNELS = const(64)    # sensor channels a Sensors frame carries (a 2 x 12 board has 26)
MAX_LEDS = const(1024)      # LEDs a strip has (26 rings of 24 LEDs are 624)
SENSOR_LOW = const(-8388608)    # -2**23: an HX711 reading is signed 24-bit
SENSOR_HIGH = const(8388607)
MAX_U16 = const(0xFFFF)
MAX_U32 = 0xFFFFFFFF        # not a const(): it is no small int on a Pico
MIN_HZ = const(20)          # what a buzzer can sound, and a person hear
MAX_HZ = const(20000)


def _check_int(name, field, value, low, high):
    # bool is refused: True is no button number and no time
    if type(value) is not int:
        raise ProtocolError("%s: %s %r is not an int" % (name, field, value))
    if not low <= value <= high:
        raise ProtocolError("%s: %s %d is not in %d..%d" % (name, field, value, low, high))
    return value


def _check_pixels(name, pixels):
    if not isinstance(pixels, (bytes, bytearray)):
        raise ProtocolError("%s: pixels must be bytes (R, G, B per LED), not %s" % (
            name, type(pixels).__name__))
    if len(pixels) % 3:
        raise ProtocolError("%s: %d pixel bytes are not 3 per LED" % (name, len(pixels)))
    if len(pixels) > 3 * MAX_LEDS:
        raise ProtocolError("%s: %d LEDs are over the %d a strip may have" % (
            name, len(pixels) // 3, MAX_LEDS))
    return bytes(pixels)


def _check_text(name, field, text):
    if not isinstance(text, str):
        raise ProtocolError("%s: %s %r is not a str" % (name, field, text))
    if len(text) > MAX_TEXT:
        raise ProtocolError("%s: %s %r is over %d characters" % (name, field, text, MAX_TEXT))
    for character in text:
        if not " " <= character <= "~":
            raise ProtocolError("%s: %s %r holds %r, not printable ASCII" % (
                name, field, text, character))
    return text


def _u16(payload, at):
    return payload[at] << 8 | payload[at + 1]


def _u32(payload, at):
    return payload[at] << 24 | payload[at + 1] << 16 | payload[at + 2] << 8 | payload[at + 3]


def _put_u16(out, value):
    out.append(value >> 8)
    out.append(value & 0xFF)


def _put_u32(out, value):
    out.append(value >> 24)
    out.append((value >> 16) & 0xFF)
    out.append((value >> 8) & 0xFF)
    out.append(value & 0xFF)


def _need(name, payload, size):
    if len(payload) != size:
        raise ProtocolError("%s: a payload of %d bytes, not %d" % (name, len(payload), size))


class Message:
    """What every message has: its kind, its fields (in `FIELDS` order), how the link delivers
    it, equality by fields, a readable repr and `encode(seq)`."""

    __slots__ = ()
    KIND = 0
    FIELDS = ()
    DELIVERY = FIRE_AND_FORGET
    protocol = PROTOCOL_VERSION     # the version a message is encoded in (a Hello says its own)

    def encode(self, seq):
        """The payload of this message numbered `seq` (0..65535)."""
        name = type(self).__name__
        _check_int(name, "sequence number", seq, 0, MAX_SEQ)
        out = bytearray((self.protocol, self.KIND, seq >> 8, seq & 0xFF))
        self._encode_body(out)
        return bytes(out)

    def _encode_body(self, out):
        pass

    def __eq__(self, other):
        if type(other) is not type(self):
            return False
        for field in self.FIELDS:
            if getattr(self, field) != getattr(other, field):
                return False
        return True

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % (field, getattr(self, field)) for field in self.FIELDS))


class Hello(Message):
    """Who is at this end: sent by both ends on connect, and again to a peer that restarted.

    `role` is "host" or "device"; `firmware` and `profile` (the board profile's name) are up to
    32 printable ASCII characters. `session` is a 32-bit number drawn when the end starts
    (random when not given; a Pico seeds `random` from its hardware): a Hello with another
    session tells the peer that this end restarted and its numbering starts afresh. `protocol`
    is the version this end speaks.
    """

    __slots__ = ("firmware", "profile", "role", "session", "protocol")
    KIND = HELLO
    FIELDS = ("protocol", "firmware", "profile", "role", "session")
    DELIVERY = NEWEST_ONLY

    def __init__(self, firmware, profile, role, session=None, protocol=PROTOCOL_VERSION):
        if role not in ROLES:
            raise ProtocolError("Hello: role %r is not %s" % (role, " or ".join(ROLES)))
        if session is None:
            if getrandbits is None:
                raise ProtocolError("Hello: no random numbers here: give a session")
            session = getrandbits(32)
        self.firmware = _check_text("Hello", "firmware", firmware)
        self.profile = _check_text("Hello", "profile", profile)
        self.role = role
        self.session = _check_int("Hello", "session", session, 0, MAX_U32)
        self.protocol = _check_int("Hello", "protocol", protocol, 1, 255)

    def _encode_body(self, out):
        _put_u32(out, self.session)
        out.append(ROLES.index(self.role))
        for text in (self.firmware, self.profile):
            out.append(len(text))
            out += text.encode()

    @classmethod
    def _decode(cls, payload, version):
        size = HEADER + 4 + 1 + 1
        if len(payload) < size:
            raise ProtocolError("Hello: a payload of %d bytes, under the %d of the shortest" % (
                len(payload), size + 1))
        role = payload[HEADER + 4]
        if role >= len(ROLES):
            raise ProtocolError("Hello: role %d is not 0 (host) or 1 (device)" % role)
        texts = []
        at = size - 1                   # the firmware's length byte
        for field, after in (("firmware", 1), ("profile", 0)):
            end = at + 1 + payload[at]
            if end + after > len(payload):      # `after`: the profile's length byte
                raise ProtocolError("Hello: %s of %d bytes runs past the payload's end" % (
                    field, payload[at]))
            raw = payload[at + 1:end]
            for offset in range(len(raw)):
                if not 0x20 <= raw[offset] <= 0x7E:
                    raise ProtocolError("Hello: %s holds byte 0x%02x at %d, not printable "
                                        "ASCII" % (field, raw[offset], offset))
            texts.append(raw.decode())
            at = end
        # a later version may append fields to its Hello; version 2 has none
        if version == PROTOCOL_VERSION and at != len(payload):
            extra = len(payload) - at
            raise ProtocolError("Hello: %d byte%s after the profile" % (
                extra, "" if extra == 1 else "s"))
        return cls(texts[0], texts[1], ROLES[role], _u32(payload, HEADER), version)


class Ack(Message):
    """The receipt for a reliable message: its kind, numbered with the number of the message it
    acknowledges. Sent once for every copy received (a lost Ack costs a resend, which is acked
    again)."""

    __slots__ = ("kind",)
    KIND = ACK
    FIELDS = ("kind",)

    def __init__(self, kind):
        if KINDS.get(kind) is None or KINDS[kind].DELIVERY == FIRE_AND_FORGET:
            raise ProtocolError("Ack: kind %r is not a kind that is acknowledged (%s)" % (
                kind, ", ".join("%d %s" % (number, KINDS[number].__name__)
                                for number in sorted(KINDS)
                                if KINDS[number].DELIVERY != FIRE_AND_FORGET)))
        self.kind = kind

    def _encode_body(self, out):
        out.append(self.kind)

    @classmethod
    def _decode(cls, payload, version):
        _need("Ack", payload, HEADER + 1)
        return cls(payload[HEADER])


class Sensors(Message):
    """One sensor frame, device to host, each time the load cells have been read (about 93 a
    second): the device's clock `time_ms` (0..2**32-1, wrapping) and one reading per channel,
    a raw signed 24-bit HX711 value (or a 0/1 level of a digital sensor), or None where the
    device has no trustworthy reading of that channel this time. Never resent: the next frame
    is a few milliseconds away."""

    __slots__ = ("time_ms", "values")
    KIND = SENSORS
    FIELDS = ("time_ms", "values")

    def __init__(self, time_ms, values):
        self.time_ms = _check_int("Sensors", "time_ms", time_ms, 0, MAX_U32)
        if not isinstance(values, (list, tuple)):
            raise ProtocolError("Sensors: values must be a list of ints, not %s" % (
                type(values).__name__))
        if len(values) > MAX_CHANNELS:
            raise ProtocolError("Sensors: %d channels are over the %d a frame carries" % (
                len(values), MAX_CHANNELS))
        for channel in range(len(values)):
            value = values[channel]
            if value is None:
                continue
            if type(value) is not int or not SENSOR_LOW <= value <= SENSOR_HIGH:
                raise ProtocolError("Sensors: channel %d reading %r is not an int in "
                                    "%d..%d (or None: missing)" % (
                                        channel, value, SENSOR_LOW, SENSOR_HIGH))
        self.values = list(values)

    def _encode_body(self, out):
        _put_u32(out, self.time_ms)
        values = self.values
        out.append(len(values))
        mask = bytearray((len(values) + 7) // 8)
        for channel in range(len(values)):
            if values[channel] is None:
                mask[channel >> 3] |= 1 << (channel & 7)
        out.extend(mask)
        for value in values:
            if value is None:
                value = 0
            value &= 0xFFFFFF           # two's complement in 24 bits
            out.append(value >> 16)
            out.append((value >> 8) & 0xFF)
            out.append(value & 0xFF)

    @classmethod
    def _decode(cls, payload, version):
        if len(payload) < HEADER + 5:
            raise ProtocolError("Sensors: a payload of %d bytes, under the %d of the "
                                "shortest" % (len(payload), HEADER + 5))
        channels = payload[HEADER + 4]
        masks = (channels + 7) // 8
        at = HEADER + 5 + masks
        _need("Sensors", payload, at + 3 * channels)
        if channels & 7 and payload[at - 1] >> (channels & 7):
            raise ProtocolError("Sensors: a missing bit set beyond the %d channels" % channels)
        values = []
        for channel in range(channels):
            value = payload[at] << 16 | payload[at + 1] << 8 | payload[at + 2]
            at += 3
            if payload[HEADER + 5 + (channel >> 3)] >> (channel & 7) & 1:
                if value:
                    raise ProtocolError("Sensors: channel %d is missing but carries a "
                                        "reading" % channel)
                values.append(None)
            else:
                values.append(value - 0x1000000 if value & 0x800000 else value)
        return cls(_u32(payload, HEADER), values)


class Leds(Message):
    """The whole LED strip, host to device: `pixels` holds R, G, B bytes for each LED in strip
    order (the device puts them in its NeoPixels' own order). Only the newest strip is resent."""

    __slots__ = ("pixels",)
    KIND = LEDS
    FIELDS = ("pixels",)
    DELIVERY = NEWEST_ONLY

    def __init__(self, pixels):
        self.pixels = _check_pixels("Leds", pixels)

    def _encode_body(self, out):
        _put_u16(out, len(self.pixels) // 3)
        out += self.pixels

    @classmethod
    def _decode(cls, payload, version):
        if len(payload) < HEADER + 2:
            raise ProtocolError("Leds: a payload of %d bytes, under the %d of the shortest" % (
                len(payload), HEADER + 2))
        leds = _u16(payload, HEADER)
        _need("Leds", payload, HEADER + 2 + 3 * leds)
        return cls(payload[HEADER + 2:])


class Button(Message):
    """A button went down (`pressed` True) or up, device to host, at the device's `time_ms`:
    button 0 new game, 1 undo, 2 hint, 3 confirm (`BUTTONS`). Every one arrives, in order."""

    __slots__ = ("button", "pressed", "time_ms")
    KIND = BUTTON
    FIELDS = ("button", "pressed", "time_ms")
    DELIVERY = EVERY_IN_ORDER

    def __init__(self, button, pressed, time_ms):
        self.button = _check_int("Button", "button", button, 0, len(BUTTONS) - 1)
        if pressed is not True and pressed is not False:
            raise ProtocolError("Button: pressed %r is not True or False" % (pressed,))
        self.pressed = pressed
        self.time_ms = _check_int("Button", "time_ms", time_ms, 0, MAX_U32)

    def _encode_body(self, out):
        out.append(self.button)
        out.append(1 if self.pressed else 0)
        _put_u32(out, self.time_ms)

    @classmethod
    def _decode(cls, payload, version):
        _need("Button", payload, HEADER + 6)
        pressed = payload[HEADER + 1]
        if pressed > 1:
            raise ProtocolError("Button: pressed byte %d is not 0 or 1" % pressed)
        return cls(payload[HEADER], pressed == 1, _u32(payload, HEADER + 2))


class Buzz(Message):
    """Sound the buzzer at `hz` (20..20000) for `ms` (0..65535), host to device; hz 0 is
    silence, which stops a buzz under way. Every one arrives, in order."""

    __slots__ = ("hz", "ms")
    KIND = BUZZ
    FIELDS = ("hz", "ms")
    DELIVERY = EVERY_IN_ORDER

    def __init__(self, hz, ms):
        _check_int("Buzz", "hz", hz, 0, MAX_HZ)
        if 0 < hz < MIN_HZ:
            raise ProtocolError("Buzz: hz %d is under %d (0 is silence)" % (hz, MIN_HZ))
        self.hz = hz
        self.ms = _check_int("Buzz", "ms", ms, 0, MAX_U16)

    def _encode_body(self, out):
        _put_u16(out, self.hz)
        _put_u16(out, self.ms)

    @classmethod
    def _decode(cls, payload, version):
        _need("Buzz", payload, HEADER + 4)
        return cls(_u16(payload, HEADER), _u16(payload, HEADER + 2))


class StateRequest(Message):
    """Host to device: send your `State` (after a connect or a reconnect)."""

    __slots__ = ()
    KIND = STATE_REQUEST
    DELIVERY = NEWEST_ONLY

    @classmethod
    def _decode(cls, payload, version):
        _need("StateRequest", payload, HEADER)
        return cls()


class State(Message):
    """Everything the device holds, device to host, in answer to a `StateRequest`: the LED
    strip it shows (`pixels`, as in `Leds`), the buttons held down (`held`, bit i for button
    i), its `uptime_ms`, its sensor `channels` and, per channel, the conversion period it has
    measured (`periods_us`: 0 where it knows none, as for digital sensors): a load cell's
    converter left at 10 samples a second shows as about 85,600 us where the others show
    10,700. A host that reconnects needs nothing else."""

    __slots__ = ("pixels", "held", "uptime_ms", "channels", "periods_us")
    KIND = STATE
    FIELDS = ("pixels", "held", "uptime_ms", "channels", "periods_us")
    DELIVERY = NEWEST_ONLY

    def __init__(self, pixels, held, uptime_ms, channels, periods_us=None):
        self.pixels = _check_pixels("State", pixels)
        self.held = _check_int("State", "held", held, 0, (1 << len(BUTTONS)) - 1)
        self.uptime_ms = _check_int("State", "uptime_ms", uptime_ms, 0, MAX_U32)
        self.channels = _check_int("State", "channels", channels, 0, MAX_CHANNELS)
        if periods_us is None:
            periods_us = [0] * channels
        if not isinstance(periods_us, (list, tuple)) or len(periods_us) != channels:
            raise ProtocolError("State: periods_us must list one period a channel (%d)" % (
                channels,))
        for period in periods_us:
            _check_int("State", "a period", period, 0, MAX_U32)
        self.periods_us = list(periods_us)

    def _encode_body(self, out):
        _put_u32(out, self.uptime_ms)
        out.append(self.held)
        out.append(self.channels)
        _put_u16(out, len(self.pixels) // 3)
        out += self.pixels
        for period in self.periods_us:
            _put_u32(out, period)

    @classmethod
    def _decode(cls, payload, version):
        fixed = HEADER + 8
        if len(payload) < fixed:
            raise ProtocolError("State: a payload of %d bytes, under the %d of the shortest" % (
                len(payload), fixed))
        channels = payload[HEADER + 5]
        _check_int("State", "channels", channels, 0, MAX_CHANNELS)
        leds_end = fixed + 3 * _u16(payload, HEADER + 6)
        _need("State", payload, leds_end + 4 * channels)
        periods = [_u32(payload, leds_end + 4 * k) for k in range(channels)]
        return cls(payload[fixed:leds_end], payload[HEADER + 4], _u32(payload, HEADER),
                   channels, periods)


class LedFrame(Message):
    """The guide's LED frame, host to device: a colour and a pattern for each place, as
    `controller.guide.frame.Frame.encode` gives them (2 bytes a place). The device renders it
    on its strip through its layout and animates the patterns itself: a few dozen bytes when the
    meaning changes, where `Leds` would send every LED at every step of a pulse. Only the newest
    is resent."""

    __slots__ = ("places",)
    KIND = LED_FRAME
    FIELDS = ("places",)
    DELIVERY = NEWEST_ONLY

    def __init__(self, places):
        if not isinstance(places, (bytes, bytearray)) or len(places) % 2 or \
                len(places) > 2 * MAX_CHANNELS:
            raise ProtocolError("LedFrame: places must be 2 bytes a place, for at most %d "
                                "places" % MAX_CHANNELS)
        self.places = bytes(places)

    def _encode_body(self, out):
        out.append(len(self.places) // 2)
        out += self.places

    @classmethod
    def _decode(cls, payload, version):
        if len(payload) < HEADER + 1:
            raise ProtocolError("LedFrame: a payload of %d bytes, under the %d of the "
                                "shortest" % (len(payload), HEADER + 1))
        _need("LedFrame", payload, HEADER + 1 + 2 * payload[HEADER])
        return cls(payload[HEADER + 1:])


KINDS = {HELLO: Hello, ACK: Ack, SENSORS: Sensors, LEDS: Leds, BUTTON: Button, BUZZ: Buzz,
         STATE_REQUEST: StateRequest, STATE: State, LED_FRAME: LedFrame}


def decode(payload):
    """(sequence number, message) of a payload; ProtocolError saying what is wrong with it."""
    if len(payload) < HEADER:
        raise ProtocolError("a payload of %d bytes is shorter than the %d-byte header" % (
            len(payload), HEADER))
    version = payload[0]
    kind = payload[1]
    cls = KINDS.get(kind)
    if cls is None:
        raise ProtocolError("unknown message kind %d" % kind)
    if version != PROTOCOL_VERSION and (kind != HELLO or version == 0):
        raise ProtocolError("%s: protocol version %d, this end speaks version %d" % (
            cls.__name__, version, PROTOCOL_VERSION))
    return _u16(payload, 2), cls._decode(payload, version)
