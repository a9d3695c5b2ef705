"""From a guide frame to NeoPixel values: colours, patterns over time, the board's LED layout,
and the brightness and supply-current caps.

    layout = LedLayout.rings(14, 12)          # 14 places, a ring of 12 LEDs each, in order
    pixels = render(frame, layout, t_ms)      # one (r, g, b) per LED, ready for the strip

The palette is Okabe and Ito's, chosen to stay distinguishable for colour-blind players, and
every meaning has a pattern of its own as well (frame.py), so colour is never the only cue.

Portable core: MicroPython subset.
"""

from .frame import (DARK, STEADY, UUR, DROP, PICK, TAKE, UUR_FROM, UUR_TO, FORCED, PASS,
                    FLASH, MORE, LESS, BROKEN, WIN, WAIT)

# Okabe & Ito (2008), "Color Universal Design": distinct for the common colour vision deficits.
PALETTE = {
    "off": (0, 0, 0),
    "south": (0, 114, 178),        # blue
    "north": (230, 159, 0),        # orange
    "hint": (0, 158, 115),         # bluish green
    "error": (213, 94, 0),         # vermillion
    "too_many": (204, 121, 167),   # reddish purple
    "too_few": (86, 180, 233),     # sky blue
    "fault": (240, 228, 66),       # yellow
}

# The strip's current model, the host's and the Pico's alike: a WS2812B's red, green and blue
# LEDs each draw MA_PER_CHANNEL at full duty (255), and proportionally less below it (the chip's
# constant-current driver is switched by PWM). 20 mA a channel is Adafruit's published worst
# case for a 5050 NeoPixel, "up to 60 milliamps at maximum brightness white (red + green +
# blue)" (Adafruit NeoPixel Uberguide, "Powering NeoPixels"); the 2020-size WS2812B's datasheet
# gives 12 mA a channel, so the model errs on the safe side for either.
MA_PER_CHANNEL = 20


def level(pattern, t_ms):
    """How bright a pattern is at time `t_ms`, 0..256 (256 = full)."""
    if pattern == DARK:
        return 0
    if pattern == STEADY or (pattern == WIN and (t_ms // 250) % 2):
        return 256
    if pattern == UUR:
        return 96                              # dim and steady: an Uur is not a move
    phase = t_ms % 1000
    if pattern == FORCED:                      # steady with a dip each second: no choice
        return 96 if phase < 150 else 256
    if pattern == DROP:                        # slow pulse, a triangle between 25% and 100%
        rise = phase if phase < 500 else 1000 - phase
        return 64 + rise * 192 // 500
    if pattern == UUR_TO:                      # a quicker, shallower pulse
        quick = t_ms % 600
        rise = quick if quick < 300 else 600 - quick
        return 128 + rise * 128 // 300
    if pattern == PICK:                        # double blink
        return 256 if phase < 120 or 240 <= phase < 360 else 32
    if pattern == UUR_FROM:                    # triple blink
        return 256 if phase % 160 < 80 and phase < 480 else 32
    if pattern == TAKE:                        # fast pulse
        quick = t_ms % 400
        rise = quick if quick < 200 else 400 - quick
        return 64 + rise * 192 // 200
    if pattern == FLASH:                       # fast flash, fully off between
        return 256 if (t_ms // 125) % 2 == 0 else 0
    if pattern == MORE:                        # slow on and off
        return 256 if phase < 500 else 0
    if pattern == LESS:                        # short blips
        return 256 if phase % 333 < 60 else 0
    if pattern == BROKEN:                      # one second on, one second off
        return 256 if (t_ms // 1000) % 2 == 0 else 0
    if pattern == PASS:
        return 48
    if pattern == WIN:
        return 128
    if pattern == WAIT:                        # a slow, dim breath over 3 s: nothing to do
        slow = t_ms % 3000
        rise = slow if slow < 1500 else 3000 - slow
        return 16 + rise * 96 // 1500
    return 0


class LedLayout:
    """Which strip LEDs light each place, and the caps of the board's profile."""

    def __init__(self, leds, count=None, brightness=64, max_ma=2000):
        self.leds = [list(indices) for indices in leds]   # place -> strip indices
        used = [i for indices in self.leds for i in indices]
        self.count = (max(used) + 1 if used else 0) if count is None else count
        for i in used:
            if i < 0 or i >= self.count:
                raise ValueError("LED index %d is off a strip of %d" % (i, self.count))
        if len(set(used)) != len(used):
            raise ValueError("an LED is given to two places")
        if not 0 < brightness <= 256:
            raise ValueError("brightness must be 1..256, not %r" % (brightness,))
        self.brightness = brightness     # of 256: the profile's cap, for comfort and current
        self.max_ma = max_ma             # the supply's budget for the strip

    @staticmethod
    def rings(places, per_place, brightness=64, max_ma=2000):
        """Each place a ring of `per_place` LEDs, places one after another along the strip."""
        return LedLayout([range(p * per_place, (p + 1) * per_place) for p in range(places)],
                         places * per_place, brightness, max_ma)


def place_colours(frame, layout, t_ms, out=None):
    """The colour of each place of `frame` at time `t_ms`, within the layout's caps: R, G, B
    bytes, 3 a place (every LED of a place shows its place's colour). A board that fills its
    strip place by place (the Pico's firmware) needs no more than this. `out`, a bytearray of
    3 bytes a place, is filled and returned instead of a new one (a Pico's heap, nearly full,
    is slow to find room for a new one)."""
    places = frame.places
    if out is None:
        colours = bytearray(3 * len(places))
    elif len(out) != 3 * len(places):
        raise ValueError("%d bytes for the colours of %d places (3 each)" % (
            len(out), len(places)))
    else:
        colours = out
    total = 0
    brightness = layout.brightness
    leds = layout.leds
    shown = None            # the last (colour, pattern) worked out: the legal pits of a row,
    r = g = b = 0           # a board's Uurs, show the same, worked out once (a Pico: 80 us each)
    for place in range(len(places)):
        entry = places[place]
        at = 3 * place
        if entry[1] == DARK:                # most places, most of the time: nothing to do
            if out is not None:
                colours[at] = colours[at + 1] = colours[at + 2] = 0
            continue
        if entry != shown:
            shown = entry
            strength = level(entry[1], t_ms) * brightness // 256
            red, green, blue = PALETTE[entry[0]]
            r, g, b = red * strength >> 8, green * strength >> 8, blue * strength >> 8
        colours[at] = r
        colours[at + 1] = g
        colours[at + 2] = b
        total += (r + g + b) * len(leds[place])
    # scale everything down if the strip would draw more than the supply allows
    _scale_bytes(colours, cap_scale(total, layout.max_ma))
    return colours


def cap_scale(total, max_ma):
    """The scale, of 256, that keeps a strip whose channel values (0..255 each, every LED's
    red, green and blue) add up to `total` within `max_ma` (MA_PER_CHANNEL at 255): 256 when it
    is within already. Exact: `total * scale >> 8` channel-steps never draw more than
    `max_ma`, rounding and all (the sum is the strip's, so it can be compared with the cap)."""
    if total * MA_PER_CHANNEL <= max_ma * 255:
        return 256
    return max_ma * 255 * 256 // (total * MA_PER_CHANNEL)


def scale_bytes(data, scale):
    """Every byte of `data` (a bytearray) times `scale` / 256, in place; nothing at 256.
    The same factor on every byte keeps each colour's proportions (hue), down to rounding."""
    if scale >= 256:
        return
    for at in range(len(data)):
        data[at] = data[at] * scale >> 8


def cap_pixels(pixels, max_ma):
    """Scale a whole strip, R, G, B bytes an LED (`pixels`, a bytearray: in place), so that it
    draws at most `max_ma`; the scale used, of 256 (256: it was within the cap already). What
    a Pico in bridge mode does to every strip the host sends: a host's frame is within the cap
    already, and then this is one sum of the bytes."""
    scale = cap_scale(_channel_sum(pixels), max_ma)
    _scale_bytes(pixels, scale)
    return scale


# what cap_pixels and place_colours use: these, or a port's native ones (`accelerate`)
_channel_sum = sum
_scale_bytes = scale_bytes


def accelerate(channel_sum=None, scale=None):
    """Use faster versions of `sum` over a strip's bytes and of `scale_bytes` from now on: the
    Pico's firmware gives its native ones (firmware/fast.py: a 176-LED strip's sum and scaling
    take milliseconds in MicroPython's plain Python), which must give the very same numbers
    and bytes (tests/test_emulated_pico.py compares them on the emulated Pico). None
    keeps the one here."""
    global _channel_sum, _scale_bytes
    if channel_sum is not None:
        _channel_sum = channel_sum
    if scale is not None:
        _scale_bytes = scale


def render(frame, layout, t_ms):
    """The strip's (r, g, b) values for `frame` at time `t_ms`, within the layout's caps."""
    colours = place_colours(frame, layout, t_ms)
    pixels = [(0, 0, 0)] * layout.count
    for place in range(len(layout.leds)):
        at = 3 * place
        value = (colours[at], colours[at + 1], colours[at + 2])
        for i in layout.leds[place]:
            pixels[i] = value
    return pixels


def current_ma(pixels):
    """The estimated current of a strip showing `pixels`, in mA."""
    return sum([r + g + b for r, g, b in pixels]) * MA_PER_CHANNEL // 255
