"""Frames to NeoPixel values: layout, patterns over time, brightness and current caps."""

import pytest

from controller.guide.frame import Frame, PATTERNS, DARK, STEADY, FLASH, MORE, LESS
from controller.guide.pixels import LedLayout, PALETTE, current_ma, level, place_colours, render


def test_each_place_lights_its_own_leds_in_its_colour():
    layout = LedLayout.rings(14, 12, brightness=256, max_ma=100000)
    frame = Frame(14)
    frame.set(3, "south", STEADY)
    pixels = render(frame, layout, 0)
    assert pixels[36:48] == [PALETTE["south"]] * 12
    assert set(pixels[:36] + pixels[48:]) == {(0, 0, 0)}


def test_every_pattern_has_its_own_time_course():
    courses = {pattern: tuple(level(pattern, t) for t in range(0, 2000, 20))
               for pattern in PATTERNS}
    assert len(set(courses.values())) == len(PATTERNS)      # no two look the same over 2 s
    assert set(courses[DARK]) == {0}
    # the two halves of the difference view differ in rhythm, not only in colour
    assert courses[MORE] != courses[LESS] and max(courses[FLASH]) == 256


def test_the_palette_keeps_its_colours_apart():
    colours = [rgb for name, rgb in PALETTE.items() if name != "off"]
    for i, a in enumerate(colours):
        for b in colours[i + 1:]:
            assert sum(abs(x - y) for x, y in zip(a, b)) > 60


def test_brightness_and_current_caps():
    layout = LedLayout.rings(26, 12, brightness=256, max_ma=3000)
    frame = Frame(26)
    for place in range(26):
        frame.set(place, "fault", STEADY)                   # the brightest colour everywhere
    pixels = render(frame, layout, 0)
    assert current_ma(pixels) <= 3000
    dim = render(frame, LedLayout.rings(26, 12, brightness=32, max_ma=100000), 0)
    assert max(max(p) for p in dim) <= 240 * 32 // 256


def test_colours_filled_into_a_kept_buffer_equal_new_ones():
    """A Pico fills one bytearray frame after frame: whatever the last frame lit is cleared."""
    layout = LedLayout.rings(14, 12, brightness=256, max_ma=1500)
    lit = Frame(14)
    for place in range(14):
        lit.set(place, "fault", STEADY)                     # capped: every byte scaled down
    quiet = Frame(14)
    quiet.set(3, "south", STEADY)
    kept = bytearray(3 * 14)
    for frame in (lit, quiet, lit):
        filled = place_colours(frame, layout, 0, kept)
        assert filled is kept and kept == place_colours(frame, layout, 0)
    assert kept != bytes(42) and place_colours(quiet, layout, 0, kept)[:9] == bytes(9)
    with pytest.raises(ValueError, match="41 bytes for the colours of 14 places"):
        place_colours(quiet, layout, 0, bytearray(41))


def test_bad_layouts_are_refused():
    with pytest.raises(ValueError, match="two places"):
        LedLayout([[0, 1], [1, 2]])
    with pytest.raises(ValueError, match="off a strip"):
        LedLayout([[0, 5]], count=4)
    with pytest.raises(ValueError, match="brightness"):
        LedLayout([[0]], brightness=0)
