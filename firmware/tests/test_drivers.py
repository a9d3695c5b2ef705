"""Buttons, buzzer, LED strip, watchdog and config.json, on the fake machine."""

import machine
import config
import rig
from buttons import Buttons
from buzzer import Buzzer
from device import Device, Watchdog
from leds import Strip
from helpers import raises


def test_a_bouncing_press_is_one_press():
    clock = rig.fresh_pico()
    buttons = Buttons({"undo": 19, "confirm": 21}, clock)
    events = []

    def poll(ms):
        for _ in range(ms):
            events.extend(buttons.poll())
            clock.advance(1)

    poll(10)
    for level in (0, 1, 0, 1, 0):               # the contact bounces for 8 ms
        machine.drive(21, level)
        poll(2)
    assert events == []
    poll(40)                                    # then holds
    # confirm, pressed, when it last settled (it settled at 18 ms; the pins are looked at
    # every 4 ms, POLL_MS, so it was seen at 20)
    assert events == [(3, True, 20)], events
    assert buttons.held == [False, False, False, True] and buttons.held_mask == 0b1000
    machine.drive(21, 1)
    poll(40)
    assert events[1:] == [(3, False, 60)], events
    machine.drive(21, 0)                        # a 10 ms blip: too short for a press
    poll(10)
    machine.drive(21, 1)
    poll(40)
    assert len(events) == 2, events


def test_buttons_left_out_never_fire_and_unknown_ones_are_refused():
    clock = rig.fresh_pico()
    buttons = Buttons({"hint": 20}, clock)
    assert buttons.down(0) is False and list(buttons.poll()) == []
    machine.drive(20, 0)
    assert buttons.down(2) is True
    assert "not a button" in str(raises(ValueError, Buttons, {"start": 5}, clock))


def test_buzzer_notes_end_by_themselves():
    clock = rig.fresh_pico()
    buzzer = Buzzer(17, clock)
    pwm = machine.PWM.instances[-1]
    buzzer.beep(880, 100)
    assert (pwm.freq(), pwm.sounding, buzzer.sounding) == (880, True, 880)
    clock.advance(99)
    buzzer.poll()
    assert pwm.sounding
    clock.advance(1)
    buzzer.poll()
    assert not pwm.sounding and buzzer.sounding == 0
    buzzer.play(((660, 50), (0, 20), (990, 30)))
    heard = []
    for _ in range(120):
        buzzer.poll()
        heard.append(buzzer.sounding)
        clock.advance(1)
    assert heard[:50] == [660] * 50 and heard[50:70] == [0] * 20
    assert heard[70:100] == [990] * 30 and heard[100:] == [0] * 20
    buzzer.beep(440, 500)
    buzzer.beep(0, 10)                          # silence stops a note under way
    assert not pwm.sounding


def test_strip_puts_each_colour_where_the_strip_wants_it():
    clock = rig.fresh_pico()
    strip = Strip(22, 2, "GRB")
    assert rig.frames_sent(strip) == 1 and rig.on_wire(strip) == bytes(6)   # all off at start
    clock.advance(1)
    assert strip.show(b"\x10\x20\x30\x40\x50\x60") is True
    assert rig.on_wire(strip) == b"\x20\x10\x30\x50\x40\x60"      # G, R, B
    assert strip.show(b"\x10\x20\x30\x40\x50\x60") is False and rig.frames_sent(strip) == 2
    assert strip.pixels == b"\x10\x20\x30\x40\x50\x60"
    error = raises(ValueError, strip.show, b"\x00" * 5)
    assert "5 bytes for a strip of 2 LEDs" in str(error) and rig.frames_sent(strip) == 2
    clock.advance(1)
    strip.show_pixels([(1, 2, 3), (4, 5, 6)])
    assert rig.on_wire(strip) == b"\x02\x01\x03\x05\x04\x06"
    rgb = Strip(23, 1, "RGB", state_machine=5)
    rgb.show(b"\x07\x08\x09")
    clock.advance(1)
    rgb.poll()
    assert rig.on_wire(rgb) == b"\x07\x08\x09"
    bgr = Strip(24, 1, "BGR", state_machine=6)
    bgr.show(b"\x07\x08\x09")
    clock.advance(1)
    bgr.poll()
    assert rig.on_wire(bgr) == b"\x09\x08\x07"
    assert "colour order" in str(raises(ValueError, Strip, 25, 1, "RGBW"))
    assert "block 1" in str(raises(ValueError, Strip, 25, 1, "GRB", 0))


def test_a_frame_waits_for_the_one_on_the_wire_and_the_cpu_does_not():
    """176 LEDs take 5.3 ms on the wire (30 us each) and 0.3 ms of reset: a frame given
    meanwhile waits, the newest wins, and the CPU never waits for the strip."""
    clock = rig.fresh_pico()
    strip = Strip(22, 176)
    clock.advance(6)                            # the frame that turned every LED off is out
    red, green, blue = b"\x20\x00\x00" * 176, b"\x00\x20\x00" * 176, b"\x00\x00\x20" * 176
    before = clock.ticks_ms()
    assert strip.show(red) is True and strip.busy()
    assert strip.show(green) is True and strip.show(blue) is True
    assert clock.ticks_ms() == before           # no time went by: the DMA sends it
    assert rig.frames_sent(strip) == 2 and strip.waited == 2
    clock.advance(5)
    strip.poll()
    assert rig.frames_sent(strip) == 2          # 5 ms: the red frame is still going out
    clock.advance(1)
    strip.poll()
    assert rig.frames_sent(strip) == 3 and rig.on_wire(strip) == b"\x00\x00\x20" * 176
    assert strip.pixels == blue


def test_places_are_drawn_led_by_led_through_the_layout():
    clock = rig.fresh_pico()
    from leds import led_places, NO_PLACE
    strip = Strip(22, 5)
    places = led_places([[0, 1], [3]], 5)
    assert places == bytes([0, 0, NO_PLACE, 1, NO_PLACE])
    clock.advance(1)
    strip.show_places(b"\x01\x02\x03\x04\x05\x06", places)
    assert rig.on_wire(strip) == b"\x02\x01\x03" * 2 + bytes(3) + b"\x05\x04\x06" + bytes(3)
    assert strip.pixels == b"\x01\x02\x03" * 2 + bytes(3) + b"\x04\x05\x06" + bytes(3)
    assert strip.show_places(b"\x01\x02\x03\x04\x05\x06", places) is False


def test_the_strip_keeps_its_own_copy_of_a_frame():
    """The guide's colours are filled into one buffer frame after frame: the strip copies
    each, so a refilled buffer is a new frame and the one waiting for the line is the one given."""
    clock = rig.fresh_pico()
    from leds import led_places
    strip = Strip(22, 176)
    places = led_places([range(0, 88), range(88, 176)], 176)
    clock.advance(6)
    colours = bytearray(b"\x01\x02\x03\x04\x05\x06")
    assert strip.show_places(colours, places) is True
    colours[0] = 9                              # refilled while the frame is on the wire
    assert strip.pixels[:3] == b"\x01\x02\x03"
    assert strip.show_places(colours, places) is True and strip.waited == 1
    colours[0] = 7                              # refilled while that one waits
    assert strip.pixels[:3] == b"\x09\x02\x03"
    clock.advance(6)
    strip.poll()
    assert rig.on_wire(strip)[:3] == b"\x02\x09\x03"        # G, R, B
    assert strip.show_places(bytearray(b"\x09\x02\x03\x04\x05\x06"), places) is False
    assert strip.show_places(colours, places) is True
    assert strip.off() is True and strip.off() is False      # the newest waits: off
    clock.advance(6)
    strip.poll()
    assert rig.on_wire(strip) == bytes(3 * 176) and strip.pixels == bytes(3 * 176)


def test_watchdog_starts_on_demand_and_is_fed_by_the_loop():
    clock = rig.fresh_pico()
    off = Watchdog(0)
    off.start()
    off.feed()
    assert not off.running and machine.WDT.instance is None
    dog = Watchdog(300)
    dog.feed()                                  # not started: nothing to feed yet
    assert machine.WDT.instance is None
    dog.start()
    wdt = machine.WDT.instance
    assert wdt.timeout == 300
    for _ in range(50):
        clock.advance(10)
        dog.feed()
    assert len(wdt.feeds) == 50 and not wdt.starved()
    clock.advance(301)                          # a hang: the Pico would reset
    assert wdt.starved()


def test_device_from_config():
    clock = rig.fresh_pico()
    device = Device(rig.board_config(), clock)
    assert device.sensors.channels == 14 and device.strip.count == 28
    assert device.counting and device.buzzer is not None
    assert not device.watchdog.running
    device.start_watchdog()
    assert device.watchdog.running and machine.WDT.instance.timeout == 500


def test_the_heap_is_looked_at_and_collected_on_spare_turns_only():
    """A Pico's look at its free heap takes 8 ms and a collection 25-45: a turn that did a
    guide frame's work (tick(False)) leaves both to a later turn of the loop. The look, the
    collection and the look at what it left are a turn each, each when the load cells allow
    the CPU away (their next reads queued: `may_be_away`), which the three in one turn
    (42-46 ms) outlasted."""
    import device as device_module
    clock = rig.fresh_pico()
    looks = []

    def mem_free():                 # the Pico's gc.mem_free, always low: each look collects
        looks.append(clock.ticks_ms())
        return 0

    saved = device_module._mem_free
    device_module._mem_free = mem_free
    try:
        device = Device(rig.board_config(sensors={"kind": "digital", "pins": [3, 4, 5]}),
                        clock)      # digital pits: the CPU may be away at any turn
        collected, looked = device.collections, len(looks)
        for _ in range(3 * device_module.CHECK_EVERY):
            device.tick(False)
        assert (device.collections, len(looks)) == (collected, looked)
        for _ in range(device_module.CHECK_EVERY + 3):
            before = device.collections + len(looks)
            device.tick()
            assert device.collections + len(looks) - before <= 1    # one piece a turn
        # the measure after the start's collection, the look, the collection, its measure
        assert device.collections == collected + 1 and len(looks) == looked + 3
        allowed = [False]           # load cells whose next reads cannot be queued now
        device.sensors.plan_ahead = lambda: allowed[0]
        collected, looked = device.collections, len(looks)
        for _ in range(3 * device_module.CHECK_EVERY):
            device.tick()
        assert (device.collections, len(looks)) == (collected, looked)
        allowed[0] = True
        for _ in range(3):
            device.tick()
        assert (device.collections, len(looks)) == (collected + 1, looked + 2)
    finally:
        device_module._mem_free = saved


def test_the_heap_is_looked_at_sooner_when_it_is_used_up_faster():
    """MicroPython collects by itself when an allocation finds the heap full: 25-30 ms at
    whatever moment that is (a 2 x 12 board's heap is 40 KB free after a collection, a
    kilobyte a judgement). With `pace_collections` (standalone mode) the looks at the heap
    are paced by the use they find since the last, so a collection comes first through
    quiet turns, a busy stretch, and quiet again, the looks coming more often in the busy
    one. Without it (the bridge: a look every CHECK_EVERY turns) the heap fills."""
    import device as device_module
    clock = rig.fresh_pico()
    heap = {"free": 40000, "full": 0, "looks": 0}

    def mem_free():
        heap["looks"] += 1
        return heap["free"]

    class Collector:                # gc: a collection leaves 40 KB free
        @staticmethod
        def collect():
            heap["free"] = 40000

    saved = device_module._mem_free, device_module.gc
    device_module._mem_free, device_module.gc = mem_free, Collector
    try:
        device = Device(rig.board_config(sensors={"kind": "digital", "pins": [3, 4, 5]}),
                        clock)
        device.pace_collections()
        # (bytes a turn with a reading, without, turns): a 2 x 12 board at rest (its
        # re-judgements: 0.7 KB a reading, measured on the emulated Pico), a move, at rest
        stretches = ((700, 50, 2000), (2500, 300, 1500), (700, 50, 2000))
        looks = []
        for fed_bytes, spare_bytes, turns in stretches:
            before = heap["looks"]
            for turn in range(turns):
                busy = turn % 3 == 0                # a reading fed to the guide
                heap["free"] -= fed_bytes if busy else spare_bytes
                if heap["free"] <= 0:               # MicroPython would collect by itself
                    heap["full"] += 1
                    heap["free"] = 40000
                device.tick(not busy)
            looks.append(heap["looks"] - before)
        assert heap["full"] == 0
        assert looks[1] * 2000 > looks[0] * 1500 and looks[1] * 2000 > looks[2] * 1500, looks
        assert max(looks) <= 3500 // device_module.BURSTS_CHECK // 2, looks
    finally:
        device_module._mem_free, device_module.gc = saved


def test_config_defaults():
    checked = rig.board_config(buzzer=None, watchdog_ms=0)
    assert checked["sensors"]["gain"] == 128 and checked["sensors"]["channels"] == 14
    assert checked["buzzer"] is None and checked["watchdog_ms"] == 0
    assert checked["game"]["brightness"] == 64 and checked["game"]["options"] == {}
    digital = rig.board_config(sensors={"kind": "digital", "pins": [3, 4, 5]})
    assert digital["sensors"] == {"kind": "digital", "pins": [3, 4, 5], "active_low": True,
                                  "channels": 3}
    chain = rig.board_config(sensors={"kind": "hx711-74hc165", "clock": 2, "serial": 5,
                                      "cells": 26})
    assert chain["sensors"]["channels"] == 26


def _config_error(**changes):
    error = raises(config.ConfigError, lambda: rig.board_config(**changes))
    return str(error)


def test_config_errors_name_the_key():
    assert _config_error(leds={"pin": 23, "count": 4}) == (
        "config.json: leds.pin: GPIO 23 is not a Pico pin (GP0..GP22, GP26..GP28)")
    assert _config_error(buzzer=3) == (
        "config.json: buzzer: GPIO 3 is already sensors.data[0]")
    assert _config_error(mode="fast").startswith("config.json: mode: 'fast' is not bridge")
    assert "unknown key 'colour'" in _config_error(leds={"pin": 22, "count": 4, "colour": 1})
    assert "leds.count: 0 is not a whole number 1..1024" in _config_error(
        leds={"pin": 22, "count": 0})
    assert "sensors.gain: 100" in _config_error(
        sensors={"kind": "hx711", "clock": 2, "data": [3], "gain": 100})
    assert _config_error(sensors={"kind": "hx711-74hc165", "clock": 2, "serial": 3,
                                  "cells": 8}).endswith(
        "sensors.serial: GPIO 3 is already sensors.clock + 1 (the 74HC165s' SH/LD)")
    assert "watchdog_ms: 9000" in _config_error(watchdog_ms=9000)
    assert "profile" in _config_error(profile="x" * 40)
    assert "buttons: unknown key 'start'" in _config_error(buttons={"start": 9})
    error = raises(config.ConfigError, config.check, {"mode": "standalone", "profile": "p",
                   "sensors": {"kind": "digital", "pins": [3]}, "leds": {"pin": 4, "count": 1},
                   "game": {"layout": [[0]]}})
    assert "counts seeds by weight" in str(error)
    error = raises(config.ConfigError, config.check, {"mode": "standalone", "profile": "p",
                   "sensors": {"kind": "hx711", "clock": 2, "data": [3]},
                   "leds": {"pin": 4, "count": 1}})
    assert str(error) == "config.json: config: 'game' is missing"
    assert "not found" in str(raises(config.ConfigError, config.load, "/no/such/config.json"))


def test_ticks_clock_unwraps_the_tick_counter():
    import clock as clocks
    saved = clocks.ticks_ms, clocks.ticks_diff
    period = 1 << 30                        # MicroPython's ticks wrap at 2**30 ms
    ticks = [period - 5]

    def ticks_diff(new, old):
        return ((new - old + period // 2) & (period - 1)) - period // 2

    clocks.ticks_ms = lambda: ticks[0]
    clocks.ticks_diff = ticks_diff
    try:
        clock = clocks.TicksClock()
        start = clock.ticks_ms()
        ticks[0] = 3                        # 8 ms later, after the wrap
        assert clock.ticks_ms() - start == 8
        ticks[0] = 1003
        assert clock.ticks_ms() - start == 1008
    finally:
        clocks.ticks_ms, clocks.ticks_diff = saved
    real = clocks.TicksClock()
    before = real.ticks_ms()
    real.sleep_ms(3)
    assert real.ticks_ms() - before >= 2

