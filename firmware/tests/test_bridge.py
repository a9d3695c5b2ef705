"""Bridge mode through the real protocol modules: bytes in, bytes out, on the fake Pico."""

import machine
import loadcells
import rig
from bridge import Bridge, FIRMWARE
from device import Device
from port import MemoryPort
from controller.guide.frame import Frame
from controller.guide.pixels import LedLayout, render
from controller.protocol import (Buzz, FrameDecoder, LedFrame, Leds, StateRequest, decode,
                                 encode_frame)

VALUES = [100 * i - 500 for i in range(14)]


def _bridge(**changes):
    clock = rig.fresh_pico()
    cells = loadcells.direct(rig.SCK, rig.DATA, VALUES)
    device = Device(rig.board_config(**changes), clock)
    port = MemoryPort()
    bridge = Bridge(device, port, clock, "pico-bridge-2x6", session=7)
    host = rig.Host(clock, port)
    return clock, cells, device, port, bridge, host


def test_hello_on_start():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    payloads = FrameDecoder().feed(port.take())
    assert len(payloads) == 1
    seq, hello = decode(payloads[0])
    assert (hello.role, hello.firmware, hello.profile, hello.session) == (
        "device", FIRMWARE, "pico-bridge-2x6", 7)


def test_streams_every_reading_to_a_host_that_said_hello():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    rig.exchange(clock, bridge, host, 1000)
    assert [hello.role for hello in host.of("Hello")] == ["device"]
    frames = host.of("Sensors")
    # a reading each time the slowest of the 14 chips has converted: their oscillators run
    # about 10.7 ms a conversion, 3% apart (simulator/parts/hx711.py)
    slowest = max([cell.period_us for cell in cells])
    assert abs(len(frames) - 1000000 // slowest) <= 2, (len(frames), slowest)
    # the chips' rhythms are not known yet: a period is known when two spans agree
    assert [frame.values for frame in frames[:2]] == [[None] * 14] * 2
    assert all(frame.values == VALUES for frame in frames[2:])
    times = [frame.time_ms for frame in frames]
    # stamped when read: the loop steps every 2 ms here
    assert all(8 <= times[k + 1] - times[k] <= 14 for k in range(len(times) - 1)), times
    assert host.link.missed == 0 and host.link.dropped == 0
    assert bridge.link.acks_received == 1 and bridge.sensor_frames == len(frames)
    assert sum([cell.corrupted for cell in cells]) == 0


def test_leds_from_the_host_go_onto_the_strip():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    pixels = bytes([k % 256 for k in range(3 * 28)])
    host.link.send(Leds(pixels))
    rig.exchange(clock, bridge, host, 20)
    wire = rig.on_wire(device.strip)
    assert device.strip.pixels == pixels and bridge.leds_shown == 1
    assert wire[:6] == bytes([1, 0, 2, 4, 3, 5])            # GRB on the wire
    host.link.send(Leds(b"\x01\x02\x03"))                   # a strip of 1 LED: another board
    rig.exchange(clock, bridge, host, 20)
    assert bridge.leds_rejected == 1 and device.strip.pixels == pixels
    assert "3 bytes for a strip of 28 LEDs" in bridge.problem
    assert host.link.unacked == 0                           # received all the same


def test_a_guide_frame_is_drawn_through_the_layout_and_animated_here():
    clock, cells, device, port, bridge, host = _bridge()      # rig's config: 2 LEDs a place
    bridge.start()
    host.link.connect()
    frame = Frame(14)
    frame.set(0, "south", "steady")
    frame.set(3, "south", "drop")                           # a slow pulse
    host.link.send(LedFrame(frame.encode()))
    rig.exchange(clock, bridge, host, 20)
    layout = LedLayout([[2 * p, 2 * p + 1] for p in range(14)], 28)
    assert bridge.leds_shown == 1 and host.link.unacked == 0
    shown = device.strip.pixels
    assert shown == bytes(v for pixel in render(frame, layout, bridge._render_at - 40)
                          for v in pixel)
    rig.exchange(clock, bridge, host, 300)                  # the pulse moves on by itself
    assert device.strip.pixels[18:24] != shown[18:24] and device.strip.pixels[:6] == shown[:6]
    host.link.send(LedFrame(Frame(12).encode()))            # another board's frame
    rig.exchange(clock, bridge, host, 20)
    assert bridge.leds_rejected == 1 and "12 places; game.layout has 14" in bridge.problem


def test_the_leds_wait_for_a_step_without_a_reading_and_a_long_step_a_shorter_wait():
    """A step that sent a reading does not draw the LEDs as well (RENDER_WAITS such steps
    later at most): the next step's look at the reader's ring must come in time to delay a
    read that a conversion would end inside. For the same reason the wait after a step is
    shorter when the step was long: TURN_MS from one step's start to the next at most."""
    from bridge import IDLE_MS, RENDER_MS, TURN_MS
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    frame = Frame(14)
    frame.set(0, "south", "steady")
    host.link.send(LedFrame(frame.encode()))
    rig.exchange(clock, bridge, host, 20)
    strip = device.strip
    show = strip.show_places
    drawn = []

    def counted(colours, led_place):
        drawn.append(1)
        return show(colours, led_place)

    strip.show_places = counted
    steps = []                  # (sent a reading, drew the LEDs)
    for _ in range(500):
        sent, draws = bridge.sensor_frames, len(drawn)
        bridge.step()
        host.pump()
        steps.append((bridge.sensor_frames != sent, len(drawn) != draws))
        clock.advance(1)
    assert sum(1 for sent, _ in steps if sent) >= 40
    assert len(drawn) >= 500 // (RENDER_MS + 1) - 1, steps
    assert not any(sent and drew for sent, drew in steps), steps
    # the wait: IDLE_MS after a short step, what is left of TURN_MS after a long one
    for took, waited in ((1, IDLE_MS), (TURN_MS - 2, 2), (TURN_MS + 3, 0)):
        bridge.step()
        clock.advance(took)
        before = clock.ticks_ms()
        bridge.idle()
        assert clock.ticks_ms() - before == waited, (took, waited)


def test_state_request_gets_everything_a_reconnecting_host_needs():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    pixels = bytes([7] * 84)
    host.link.send(Leds(pixels))
    machine.drive(rig.BUTTONS["hint"], 0)                   # hint held down
    rig.exchange(clock, bridge, host, 100)
    host.link.send(StateRequest())
    rig.exchange(clock, bridge, host, 20)
    states = host.of("State")
    assert len(states) == 1 and bridge.states_sent == 1
    state = states[0]
    assert (state.pixels, state.held, state.channels) == (pixels, 0b0100, 14)
    assert 100 <= state.uptime_ms <= 120


def test_buzz_from_the_host_sounds_the_buzzer():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    host.link.send(Buzz(440, 100))
    pwm = machine.PWM.instances[-1]
    sounded = []
    for _ in range(100):
        bridge.step()
        host.pump()
        sounded.append(pwm.freq() if pwm.sounding else 0)
        clock.advance(2)
    assert 440 in sounded and sounded[-1] == 0
    assert 48 <= sounded.count(440) <= 51, sounded.count(440)       # 100 ms of 2 ms steps


def test_buttons_go_to_the_host_in_order():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    rig.exchange(clock, bridge, host, 20)
    for gpio in (rig.BUTTONS["new_game"], rig.BUTTONS["undo"]):
        machine.drive(gpio, 0)
        rig.exchange(clock, bridge, host, 60)
        machine.drive(gpio, 1)
        rig.exchange(clock, bridge, host, 60)
    pressed = [(b.button, b.pressed) for b in host.of("Button")]
    assert pressed == [(0, True), (0, False), (1, True), (1, False)], pressed
    times = [b.time_ms for b in host.of("Button")]
    assert times == sorted(times) and times[0] == 20


def test_bad_bytes_are_dropped_and_nothing_wrong_is_applied():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    rig.exchange(clock, bridge, host, 20)
    frame = bytearray(encode_frame(Leds(bytes([9] * 84)).encode(5)))
    frame[10] ^= 0x40                                       # a bit flipped on the way
    port.feed(b"\x00\x17garbage\xff\xfe\x00" + bytes(frame) + b"\x00\x00")
    rig.exchange(clock, bridge, host, 20)
    assert bridge.leds_shown == 0 and device.strip.pixels == bytes(84)
    assert bridge.link.dropped == 2, bridge.link.counters()
    # the host's own bytes, fed a few at a time, still get through
    host.link.send(Leds(bytes([5] * 84)))
    data = port.read()
    for k in range(0, len(data), 7):
        port.feed(data[k:k + 7])
        bridge.step()
        clock.advance(1)
    assert device.strip.pixels == bytes([5] * 84)


def test_a_host_that_restarts_gets_our_hello_again():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    host.link.connect()
    rig.exchange(clock, bridge, host, 40)
    again = rig.Host(clock, port, session=1234)             # a new host process
    again.link.connect()
    rig.exchange(clock, bridge, again, 40)
    assert [hello.session for hello in again.of("Hello")] == [7]
    assert again.of("Sensors")


def test_the_watchdog_is_fed_while_bridging():
    clock, cells, device, port, bridge, host = _bridge()
    bridge.start()
    device.start_watchdog()
    host.link.connect()
    rig.exchange(clock, bridge, host, 2000, every=5)
    wdt = machine.WDT.instance
    assert len(wdt.feeds) == 400 and not wdt.starved() and wdt.longest_ms <= 5


def test_digital_pit_sensors_stream_levels():
    clock = rig.fresh_pico()
    pins = list(range(3, 15))
    device = Device(rig.board_config(sensors={"kind": "digital", "pins": pins}), clock)
    port = MemoryPort()
    bridge = Bridge(device, port, clock, "pico-bridge-2x6", session=7)
    host = rig.Host(clock, port)
    bridge.start()
    host.link.connect()
    machine.drive(5, 0)                                     # a hand in pit 2 (active low)
    rig.exchange(clock, bridge, host, 500, every=1)
    frames = host.of("Sensors")
    assert 39 <= len(frames) <= 41, len(frames)
    assert frames[-1].values == [0, 0, 1] + [0] * 9
