"""The bridge caps the strip's current, whatever the host sends (issue 40): a `Leds` strip and
a drawn guide frame stay within config.json's game.max_ma on the host's model of a WS2812B
(controller.guide.pixels.MA_PER_CHANNEL a colour at 255), colours keep their proportions."""

import rig
from bridge import Bridge
from config import DEFAULT_MAX_MA
from device import Device
from port import MemoryPort
from controller.guide.frame import Frame, STEADY
from controller.guide.pixels import MA_PER_CHANNEL, cap_pixels
from controller.protocol import LedFrame, Leds

COUNT = 176                 # a 2 x 6 board's strip: 12 rings of 12 and 2 of 16
CAP_MA = 2000               # pico-bridge-2x6's power.strip_max_ma


def _strip_ma(strip_bytes):
    """The host's model of what a strip showing `strip_bytes` (R, G, B an LED) draws, mA."""
    return sum(strip_bytes) * MA_PER_CHANNEL / 255


def _bridge(game=True, max_ma=CAP_MA):
    clock = rig.fresh_pico()
    changes = {"leds": {"pin": rig.LED_PIN, "count": COUNT, "order": "GRB"}}
    if game:
        changes["game"] = {"variant": "layli-goobalay", "max_ma": max_ma, "brightness": 256,
                           "layout": [list(range(12 * k, 12 * k + 12)) for k in range(12)]
                           + [list(range(144, 160)), list(range(160, 176))]}
    config = rig.board_config(**changes)
    if not game:
        del config["game"]
    device = Device(config, clock)
    port = MemoryPort()
    bridge = Bridge(device, port, clock, "pico-bridge-2x6")
    host = rig.Host(clock, port)
    bridge.start()
    host.link.connect()
    return clock, device, bridge, host


def test_a_full_white_strip_from_the_host_is_scaled_under_the_cap():
    clock, device, bridge, host = _bridge()
    white = bytes([255] * (3 * COUNT))
    assert _strip_ma(white) > 10000                 # 10.6 A asked of a 6 A supply
    host.link.send(Leds(white))
    rig.exchange(clock, bridge, host, 20)
    shown = device.strip.pixels
    assert bridge.leds_shown == 1 and bridge.leds_capped == 1
    assert CAP_MA * 0.97 <= _strip_ma(shown) <= CAP_MA, _strip_ma(shown)
    assert len(set(shown)) == 1                     # still white: every channel alike
    # and it is what went down the data line (G, R, B), not only what the strip says
    assert rig.on_wire(device.strip) == shown


def test_a_capped_strip_keeps_its_colours_proportions():
    clock, device, bridge, host = _bridge()
    colours = [(255, 128, 0), (0, 200, 100), (60, 60, 240), (0, 0, 0)]
    asked = bytearray()
    for k in range(COUNT):
        asked.extend(bytes(colours[k % 4]))
    host.link.send(Leds(bytes(asked)))
    rig.exchange(clock, bridge, host, 20)
    shown = device.strip.pixels
    assert _strip_ma(shown) <= CAP_MA and bridge.leds_capped == 1
    for k in range(4):
        r, g, b = colours[k]
        got = shown[3 * k:3 * k + 3]
        scale = max(got) / max(max(colours[k]), 1)
        # each channel is the asked one times the same factor, give or take a step
        assert all(abs(got[c] - colours[k][c] * scale) <= 1 for c in range(3)), (got, r, g, b)
    assert shown[9:12] == b"\x00\x00\x00"           # dark stays dark


def test_a_strip_within_the_cap_is_shown_as_the_host_sent_it():
    clock, device, bridge, host = _bridge()
    dim = bytes([(7 * k) % 64 for k in range(3 * COUNT)])
    assert _strip_ma(dim) < CAP_MA
    host.link.send(Leds(dim))
    rig.exchange(clock, bridge, host, 20)
    assert device.strip.pixels == dim and bridge.leds_capped == 0


def test_without_a_game_the_default_cap_holds():
    clock, device, bridge, host = _bridge(game=False)
    assert bridge.layout is None and bridge.max_ma == DEFAULT_MAX_MA
    host.link.send(Leds(bytes([255] * (3 * COUNT))))
    rig.exchange(clock, bridge, host, 20)
    assert _strip_ma(device.strip.pixels) <= DEFAULT_MAX_MA and bridge.leds_capped == 1


def test_a_guide_frame_lighting_every_place_is_drawn_under_the_cap():
    # brightness 256 and a cap of 1200 mA: a full frame of the guide's brightest colour asks
    # for more than the cap, and place_colours scales it
    clock, device, bridge, host = _bridge(max_ma=1200)
    frame = Frame(14)
    for place in range(14):
        frame.set(place, "fault", STEADY)          # (240, 228, 66): the palette's brightest
    host.link.send(LedFrame(frame.encode()))
    rig.exchange(clock, bridge, host, 100)
    shown = device.strip.pixels
    assert bridge.leds_shown == 1 and bridge.frame is not None
    assert 1100 <= _strip_ma(shown) <= 1200, _strip_ma(shown)


def test_cap_pixels_never_exceeds_the_cap_nor_scales_a_strip_within_it():
    for max_ma in (1, 7, 500, 1999, 2000, 3000):
        for value in (1, 17, 128, 254, 255):
            data = bytearray([value] * (3 * COUNT))
            scale = cap_pixels(data, max_ma)
            assert _strip_ma(data) <= max_ma, (max_ma, value)
            if value * 3 * COUNT * MA_PER_CHANNEL <= max_ma * 255:
                assert scale == 256 and data == bytearray([value] * (3 * COUNT))
            else:
                assert scale < 256
