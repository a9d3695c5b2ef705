"""The Raspberry Pi's drivers, off the hardware: NeoPixels through a recording PixelBuf and
Blinka's OS-agnostic board, gpiozero devices on its MockFactory, the serial link over pty pairs
and pyserial's loop:// URL, the pit expanders through adafruit_mcp230xx on a register model of
the MCP23017, and the `pi` extra against what Blinka needs on a Raspberry Pi."""

import errno
import json
import os
import select
import subprocess
import sys
import time

import pytest
import serial
from adafruit_mcp230xx.mcp23017 import MCP23017 as AdafruitMCP23017
from gpiozero import Device, DigitalInputDevice
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from controller.drivers.common import DeviceError
from controller.drivers.expander import FULL_READ_MS, MISSES_TO_DISTRUST, ExpanderPits
from controller.drivers.gpio import BEEPS, BoardButtons, BoardBuzzer, ButtonPress, PitSensors
from controller.drivers.neopixels import PIXEL_ORDERS, NeoPixelStrip
from controller.drivers.serial_link import SerialLink
from controller.guide.frame import Frame, STEADY
from controller.guide.pixels import LedLayout, render
from controller.hardware.profile import load as load_profile
from controller.sensing import ActivitySensor
from fakes import PtyDevice, RecordingPixelBuf
from mcp23017_model import MCP23017, I2CBus, wire_int_a


# -- NeoPixels

def recording_strip(count, pixel_order="GRB"):
    made = []

    def make(pin, n, order):
        made.append(RecordingPixelBuf(n, order))
        return made[0]
    strip = NeoPixelStrip(18, count, pixel_order, make_pixelbuf=make)
    return strip, made[0]


def a_frame(places=2, colours=("south", "north")):
    frame = Frame(places)
    for place, colour in enumerate(colours):
        frame.set(place, colour, STEADY)
    return frame


def test_a_rendered_frame_goes_out_in_the_strips_byte_order():
    layout = LedLayout.rings(2, 3, brightness=256, max_ma=100000)
    pixels = render(a_frame(), layout, 0)
    assert pixels[0] == (0, 114, 178) and pixels[3] == (230, 159, 0)
    for order in ("GRB", "RGB", "BGR"):
        strip, buf = recording_strip(6, order)
        assert strip.show(pixels) is True
        expected = b"".join(bytes(pixel["RGB".index(c)] for c in order) for pixel in pixels)
        assert buf.sent == [expected]


def test_one_transfer_per_frame_and_none_for_a_frame_already_showing():
    strip, buf = recording_strip(6)
    layout = LedLayout.rings(2, 3, brightness=256, max_ma=100000)
    pixels = render(a_frame(), layout, 0)
    assert strip.show(pixels) and not strip.show(list(pixels))    # equal: nothing sent
    assert not strip.show([list(p) for p in pixels])              # lists count as tuples
    dimmer = render(a_frame(), LedLayout.rings(2, 3, brightness=128, max_ma=100000), 0)
    assert strip.show(dimmer)
    assert len(buf.sent) == strip.frames_sent == 2
    assert buf.sent[1][:3] == bytes([114 // 2, 0, 178 // 2])      # GRB, render's own scaling
    strip.close()
    assert buf.sent[-1] == bytes(18) and len(buf.sent) == 3       # closing sends it dark
    strip.close()                                                 # twice: nothing more
    assert len(buf.sent) == 3


def test_an_rgbw_strip_keeps_greys_on_its_colour_leds():
    # an RGBW PixelBuf given (r, g, b) with r == g == b would light only its white LED
    strip, buf = recording_strip(2, "GRBW")
    strip.show([(40, 40, 40), (1, 2, 3)])
    assert buf.sent == [bytes([40, 40, 40, 0, 2, 1, 3, 0])]


def test_bad_strip_settings_and_frames_are_refused_by_name():
    make = lambda pin, n, order: RecordingPixelBuf(n, order)        # noqa: E731
    with pytest.raises(ValueError, match="the LED strip: pin 40 is not a Raspberry Pi GPIO"):
        NeoPixelStrip(40, 10, make_pixelbuf=make)
    with pytest.raises(ValueError, match="pin '18' is not"):
        NeoPixelStrip("18", 10, make_pixelbuf=make)
    with pytest.raises(ValueError, match=r"length \(its count of LEDs\) must be an int above 0,"
                                         " not 0"):
        NeoPixelStrip(18, 0, make_pixelbuf=make)
    with pytest.raises(ValueError, match="not True"):
        NeoPixelStrip(18, True, make_pixelbuf=make)
    with pytest.raises(ValueError, match="unknown pixel order 'GRBX'.*GRB, GBR"):
        NeoPixelStrip(18, 10, "GRBX", make_pixelbuf=make)
    with pytest.raises(ValueError, match="auto_write off"):
        NeoPixelStrip(18, 10, make_pixelbuf=lambda pin, n, order: _auto_writing(n))
    assert len(PIXEL_ORDERS) == 6 + 24 and "GRB" in PIXEL_ORDERS and "GRBW" in PIXEL_ORDERS

    strip, buf = recording_strip(3)
    with pytest.raises(ValueError, match="a frame of 2 pixels for a strip of 3 LEDs"):
        strip.show([(0, 0, 0)] * 2)
    with pytest.raises(ValueError, match=r"LED 2: \(256, 0, 0\) is not \(r, g, b\)"):
        strip.show([(0, 0, 0), (1, 1, 1), (256, 0, 0)])
    with pytest.raises(ValueError, match=r"LED 0: \(1.5, 0, 0\)"):
        strip.show([(1.5, 0, 0)] * 3)
    with pytest.raises(ValueError, match="LED 1: 7 is not"):
        strip.show([(0, 0, 0), 7, (0, 0, 0)])
    with pytest.raises(ValueError, match="not NoneType"):
        strip.show(None)
    assert buf.sent == []                                   # nothing bad reached the strip
    strip.close()
    with pytest.raises(ValueError, match="strip on GPIO 18 is closed"):
        strip.show([(0, 0, 0)] * 3)


def _auto_writing(count):
    buf = RecordingPixelBuf(count, "GRB")
    buf.auto_write = True
    return buf


def run_blinka(code, agnostic):
    """Run `code` in a fresh interpreter (Blinka detects its board once, at first import) and
    return what it printed as JSON."""
    env = dict(os.environ)
    env.pop("BLINKA_OS_AGNOSTIC", None)
    if agnostic:
        env["BLINKA_OS_AGNOSTIC"] = "1"   # Adafruit-PlatformDetect: the generic agnostic board
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])     # after Blinka's own warnings


def test_the_real_neopixel_driver_on_blinkas_os_agnostic_board():
    out = run_blinka("""
import json, board, neopixel
from adafruit_mcp230xx.mcp23017 import MCP23017 as AdafruitMCP23017
from gpiozero import DigitalInputDevice

from controller.drivers.common import DeviceError
from controller.drivers.expander import FULL_READ_MS, MISSES_TO_DISTRUST, ExpanderPits
from controller.drivers.neopixels import NeoPixelStrip
sent, pins = [], set()
def record(pin, buf):                       # the agnostic board's neopixel_write is a no-op
    sent.append(list(buf))
    pins.add(pin._pin.id)                   # the DigitalInOut the strip drives
neopixel.neopixel_write = record
strip = NeoPixelStrip(6, 3, "GRB")          # GPIO 6 is the agnostic board's NEOPIXEL pin
strip.show([(10, 20, 30), (0, 0, 0), (255, 1, 2)])
strip.show([(10, 20, 30), (0, 0, 0), (255, 1, 2)])
strip.close()
try:
    NeoPixelStrip(18, 3)
    missing = None
except DeviceError as error:
    missing = str(error)
print(json.dumps({"board": board.board_id, "sent": sent, "pin": pins == {board.NEOPIXEL.id},
                  "missing": missing}))
""", agnostic=True)
    assert out["board"] == "OS_AGNOSTIC_BOARD" and out["pin"]
    assert out["sent"] == [[20, 10, 30, 0, 0, 0, 1, 255, 2], [0] * 9]   # a frame, then dark
    assert out["missing"] == "NeoPixels on GPIO 18: this board (OS_AGNOSTIC_BOARD) has no such pin"


def test_a_machine_blinka_cannot_drive_neopixels_on_gets_a_clear_error():
    out = run_blinka("""
import json
from adafruit_blinka.agnostic import detector
from adafruit_mcp230xx.mcp23017 import MCP23017 as AdafruitMCP23017
from gpiozero import DigitalInputDevice

from controller.drivers.common import DeviceError
from controller.drivers.expander import FULL_READ_MS, MISSES_TO_DISTRUST, ExpanderPits
from controller.drivers.neopixels import NeoPixelStrip
try:
    NeoPixelStrip(18, 3)
    message = None
except DeviceError as error:
    message = str(error)
print(json.dumps({"pi": bool(detector.board.any_raspberry_pi), "message": message}))
""", agnostic=False)
    if out["pi"]:
        pytest.skip("this machine is a Raspberry Pi: Blinka drives its NeoPixels")
    assert out["message"].startswith("NeoPixels on GPIO 18: Blinka cannot drive them on this "
                                      "machine (Board not supported)")


# -- gpiozero devices

@pytest.fixture
def pins():
    """gpiozero's mock pins for the test; returns the factory (factory.pin(n): BCM pin n)."""
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = previous


class Clock:
    def __init__(self):
        self.ms = 1000

    def __call__(self):
        return self.ms


def test_a_button_press_is_an_event_with_its_time(pins):
    clock = Clock()
    seen = []
    buttons = BoardButtons({"new_game": 5, "undo": 6, "hint": 13, "confirm": 19},
                           clock_ms=clock, on_press=seen.append)
    undo = pins.pin(6)
    assert undo.bounce == 0.05                      # gpiozero's bounce_time is set on the pin
    assert undo.pull == "up" and buttons.presses() == []
    undo.drive_low()                                # pressed: the pin to ground
    assert buttons.is_held("undo") and not buttons.is_held("hint")
    clock.ms += 180
    undo.drive_high()
    clock.ms += 500
    pins.pin(19).drive_low()
    assert buttons.presses() == [ButtonPress("undo", 1000), ButtonPress("confirm", 1680)]
    assert buttons.presses() == []                  # handed over once
    assert seen == [ButtonPress("undo", 1000), ButtonPress("confirm", 1680)]
    buttons.close()
    assert pins.pin(6).when_changed is None         # released


def test_a_bouncing_contact_gives_one_press(pins):
    clock = Clock()
    buttons = BoardButtons({"hint": 13}, clock_ms=clock, bounce_ms=50)
    pin = pins.pin(13)
    for step in range(4):                           # closing: chatter for 6 ms
        pin.drive_low() if step % 2 == 0 else pin.drive_high()
        clock.ms += 2
    pin.drive_low()
    clock.ms += 300
    for step in range(5):                           # opening: chatter again
        pin.drive_high() if step % 2 == 0 else pin.drive_low()
        clock.ms += 2
    assert buttons.presses() == [ButtonPress("hint", 1000)]
    clock.ms += 200                                 # a real second press
    pin.drive_low()
    assert buttons.presses() == [ButtonPress("hint", 1518)]


def test_buttons_to_3v3_press_high(pins):
    buttons = BoardButtons({"confirm": 26}, pull_up=False, clock_ms=Clock())
    assert pins.pin(26).pull == "down"
    pins.pin(26).drive_high()
    assert [p.button for p in buttons.presses()] == ["confirm"]


def test_bad_button_settings_are_refused_by_name(pins):
    with pytest.raises(ValueError, match="unknown button 'reset': a board's buttons are "
                                         "new_game, undo, hint, confirm"):
        BoardButtons({"reset": 5})
    with pytest.raises(ValueError, match="button .hint.: pin 28 is not a Raspberry Pi GPIO"):
        BoardButtons({"undo": 6, "hint": 28})
    with pytest.raises(ValueError, match="GPIO 6 is given to both button 'undo' and button "
                                         "'hint'"):
        BoardButtons({"undo": 6, "hint": 6})
    with pytest.raises(ValueError, match="bounce_ms must be a number of 0 or more, not -1"):
        BoardButtons({"undo": 6}, bounce_ms=-1)
    with pytest.raises(ValueError, match="mapping of button name"):
        BoardButtons([5, 6])
    buttons = BoardButtons({"undo": 6})
    with pytest.raises(ValueError, match="no button 'hint' \\(it has undo\\)"):
        buttons.is_held("hint")


def sounded(pin):
    """The (seconds since the previous change, state) of a mock pin, rounded to 10 ms."""
    return [(round(s.timestamp, 2), s.state) for s in pin.states]


def test_a_beep_pattern_plays_in_the_background(pins):
    buzzer = BoardBuzzer(12)
    pin = pins.pin(12)
    start = time.monotonic()
    buzzer.play([(40, 30), (60, 0)])
    assert time.monotonic() - start < 0.03 and buzzer.playing      # returned at once
    assert buzzer.wait(2) and not buzzer.playing
    assert [s.state for s in pin.states] == [False, True, False, True, False]
    pin.assert_states_and_times([(0, False), (0, True), (0.04, False), (0.03, True),
                                 (0.06, False)])


def test_a_new_beep_cuts_the_one_playing(pins):
    buzzer = BoardBuzzer(12)
    pin = pins.pin(12)
    start = time.monotonic()
    buzzer.play([(1000, 0)])
    time.sleep(0.02)
    buzzer.play([(20, 0)])
    assert buzzer.wait(2) and time.monotonic() - start < 0.5
    assert [s.state for s in pin.states] == [False, True, False, True, False]
    buzzer.play([(1000, 0)])
    buzzer.stop()
    assert not pin.state and not buzzer.playing


def test_each_event_has_its_own_beep(pins, mocker):
    buzzer = BoardBuzzer(12, active_high=False)
    assert pins.pin(12).state                       # active low: silent is high
    play = mocker.patch.object(buzzer, "play")
    for name in ("step_ok", "mistake", "move_done", "game_over"):
        buzzer.beep(name)
        play.assert_called_with(BEEPS[name])
    assert len(set(BEEPS.values())) == len(BEEPS)
    # the tick that follows every step is the shortest sound: it must not nag
    assert min(BEEPS.values(), key=lambda p: sum(on + off for on, off in p)) == BEEPS["step_ok"]


def test_bad_beeps_are_refused_by_name(pins):
    buzzer = BoardBuzzer(12)
    with pytest.raises(ValueError, match="unknown beep 'win': the beeps are step_ok, mistake"):
        buzzer.beep("win")
    with pytest.raises(ValueError, match="beep 1: on ms must be a number above 0, not 0"):
        buzzer.play([(10, 10), (0, 5)])
    with pytest.raises(ValueError, match=r"beep 0: \(10,\) is not \(on ms, off ms\)"):
        buzzer.play([(10,)])
    with pytest.raises(ValueError, match="a beep pattern is a list"):
        buzzer.play([])
    with pytest.raises(ValueError, match="the buzzer: pin -1 is not"):
        BoardBuzzer(-1)
    buzzer.close()
    buzzer.close()
    with pytest.raises(ValueError, match="buzzer on GPIO 12 is closed"):
        buzzer.beep("mistake")


PIT_PINS = [4, 17, 27, 22, 23, 24, 25, 8, 7, 11, 9, 10]


def test_pit_sensors_give_the_levels_activity_sensing_takes(pins):
    sensors = PitSensors(PIT_PINS)
    activity = ActivitySensor(len(sensors), debounce_ms=30)
    assert sensors.levels() == [0] * 12
    started = []
    for t in range(0, 200, 10):
        if t == 20:
            pins.pin(22).drive_low()                # a hand breaks pit 3's beam
        if t == 120:
            pins.pin(22).drive_high()
        started += activity.feed(t, sensors.levels())
        if 20 <= t < 120:
            assert sensors.levels() == [0, 0, 0, 1] + [0] * 8
    assert started == [3] and activity.active == [False] * 12


def test_push_pull_sensors_are_active_high(pins):
    sensors = PitSensors([5, 6], pull_up=None, active_state=True)   # TTP223 touch pads
    pins.pin(6).drive_high()
    assert sensors.levels() == [0, 1]


def test_bad_pit_sensor_pins_are_refused_and_nothing_is_left_taken(pins):
    with pytest.raises(ValueError, match="GPIO 17 is given to both pit 1 and pit 4"):
        PitSensors([4, 17, 27, 22, 17])
    with pytest.raises(ValueError, match="pit 2: pin 31 is not a Raspberry Pi GPIO number"):
        PitSensors([4, 17, 31])
    with pytest.raises(ValueError, match="a list of BCM pins"):
        PitSensors([])
    BoardButtons({"undo": 17})
    with pytest.raises(GPIOPinInUse):
        PitSensors([4, 17])                         # 17 is the undo button's
    assert PitSensors([4]).levels() == [0]          # pin 4 was given back when that failed


# -- the serial link

@pytest.fixture
def device(tmp_path):
    pty = PtyDevice(str(tmp_path / "ttyPICO"))
    yield pty
    try:
        pty.unplug()
    except OSError:
        pass


def read_until(link, size, timeout=2.0):
    data = b""
    end = time.monotonic() + timeout
    while len(data) < size and time.monotonic() < end:
        data += link.read()
    return data


def test_bytes_both_ways_over_a_pty(device):
    connects = []
    link = SerialLink(device.path, on_connect=connects.append)
    assert not link.connected and "closed" in repr(link)
    link.open()
    assert link.connected and connects == [link] and link.connections == 1
    assert link.write(b"\x00hello\x00") and device.receive(7) == b"\x00hello\x00"
    device.send(bytes(range(256)) * 4)
    assert read_until(link, 1024) == bytes(range(256)) * 4
    start = time.monotonic()
    assert link.read() == b""                       # nothing there: back after the timeout
    assert time.monotonic() - start < 0.5
    link.close()
    assert not link.connected


def test_the_link_comes_back_by_itself_after_the_cable_is_pulled(device, caplog):
    caplog.set_level("INFO", logger="controller.drivers.serial_link")
    connects, losses = [], []

    def handshake(link):
        connects.append(link.connections)
        link.write(b"HELLO")

    link = SerialLink(device.path, retry_s=0.01, max_retry_s=0.05, on_connect=handshake,
                      on_disconnect=losses.append)
    link.open()
    assert device.receive(5) == b"HELLO"

    device.unplug()                                 # the cable is pulled
    assert link.read() == b"" and not link.connected
    assert len(losses) == 1 and losses[0].startswith(device.path)
    assert not link.write(b"lost")                  # dropped while the cable is out
    for _ in range(5):
        assert link.read() == b""                   # tries to reopen, the device is not there
    assert link.last_error.startswith("no serial device %s: is the Pico plugged in" % device.path)

    device.plug()                                   # put back: a new pty, the same name
    end = time.monotonic() + 2
    while not link.connected and time.monotonic() < end:
        link.read()
    assert link.connected and connects == [1, 2]
    assert device.receive(5) == b"HELLO"            # the handshake again, and nothing stale
    device.send(b"state")
    assert read_until(link, 5) == b"state"
    assert link.write(b"ok") and device.receive(2) == b"ok"
    assert not select.select([device.master], [], [], 0.05)[0]    # "lost" never arrived
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("%s: connected" % device.path) for m in messages)
    assert any("reopening it by itself" in m for m in messages)
    assert any(m.startswith("%s: reconnected after" % device.path) for m in messages)
    link.close()


def test_reopening_backs_off(device, mocker):
    link = SerialLink(device.path, timeout=0.005, retry_s=0.01, max_retry_s=0.04)
    link.open()
    tries = []
    real_open = serial.serial_for_url

    def open_port(*args, **kwargs):
        tries.append(time.monotonic())
        return real_open(*args, **kwargs)
    mocker.patch.object(serial, "serial_for_url", side_effect=open_port)
    device.unplug()
    lost = time.monotonic()
    link.read()
    while time.monotonic() - lost < 0.4:
        link.read()
    gaps = [b - a for a, b in zip([lost] + tries, tries)]
    assert len(tries) >= 5
    # 10 ms after the loss, then 20, then 40 ms and no longer (each try is made at the first
    # read() after it is due, so a little later)
    for gap, due in zip(gaps, [0.01, 0.02, 0.04, 0.04, 0.04]):
        assert gap >= due - 0.002
    assert max(gaps) < 0.2


def test_a_missing_port_is_named(tmp_path):
    port = str(tmp_path / "ttyACM9")
    with pytest.raises(DeviceError, match="no serial device %s: is the Pico plugged in, and is "
                                          "this its port" % port):
        SerialLink(port).open()


def test_a_port_in_use_is_named(device):
    first = SerialLink(device.path)
    first.open()
    with pytest.raises(DeviceError, match="%s is in use by another program" % device.path):
        SerialLink(device.path).open()
    first.close()


def test_a_port_without_permission_is_named(mocker):
    mocker.patch.object(serial, "serial_for_url", side_effect=serial.SerialException(
        errno.EACCES, "could not open port /dev/ttyACM0: Permission denied"))
    with pytest.raises(DeviceError, match="no permission to open /dev/ttyACM0: add the user to "
                                          "the dialout group"):
        SerialLink("/dev/ttyACM0").open()


def test_loopback_url_and_losses_found_by_read_and_write(mocker):
    ports = []
    real_open = serial.serial_for_url
    mocker.patch.object(serial, "serial_for_url",
                        side_effect=lambda *a, **k: ports.append(real_open(*a, **k)) or ports[-1])
    link = SerialLink("loop://", retry_s=0.001)
    link.open()
    assert link.write(bytearray(b"abc")) and link.read() == b"abc"

    mocker.patch.object(ports[0], "read", side_effect=serial.SerialException(
        "device reports readiness to read but returned no data"))
    assert link.read() == b"" and not link.connected
    assert link.last_error == "loop://: device reports readiness to read but returned no data"
    time.sleep(0.002)
    assert link.write(b"x") and link.connected and len(ports) == 2     # reopened on write
    assert link.read() == b"x"

    mocker.patch.object(ports[1], "write", side_effect=serial.SerialTimeoutException(
        "Write timeout"))
    assert not link.write(b"y") and not link.connected
    assert link.last_error == ("loop://: a write did not finish in 0.5 s: the other side is not "
                               "reading")
    link.close()


def test_a_zero_timeout_reads_without_waiting():
    link = SerialLink("loop://", timeout=0)
    link.open()
    start = time.monotonic()
    assert [link.read() for _ in range(100)] == [b""] * 100
    assert time.monotonic() - start < 0.05
    link.write(b"now")
    assert link.read() == b"now"
    link.close()


def test_a_handshake_error_is_not_taken_for_a_port_error():
    def handshake(link):
        raise RuntimeError("firmware speaks protocol 9")
    with pytest.raises(RuntimeError, match="protocol 9"):
        SerialLink("loop://", on_connect=handshake).open()


def test_bad_link_settings_are_refused_by_name():
    with pytest.raises(ValueError, match="device path or a pyserial URL, not ''"):
        SerialLink("")
    with pytest.raises(ValueError, match="baudrate must be an int above 0, not 0"):
        SerialLink("loop://", baudrate=0)
    with pytest.raises(ValueError, match=r"timeout \(s\) must be a number of 0 or more, not -1"):
        SerialLink("loop://", timeout=-1)
    with pytest.raises(ValueError, match="max_retry_s must be a number above 0, not nan"):
        SerialLink("loop://", max_retry_s=float("nan"))
    with pytest.raises(ValueError, match=r"max_retry_s \(0.1\) is shorter than retry_s \(1\)"):
        SerialLink("loop://", retry_s=1, max_retry_s=0.1)
    with pytest.raises(ValueError, match="serial port 'nosuch://x': invalid URL, protocol "
                                         "'nosuch' not known"):
        SerialLink("nosuch://x").open()
    link = SerialLink("loop://")
    with pytest.raises(ValueError, match="link to loop:// is not open: call open"):
        link.read()
    link.open()
    with pytest.raises(ValueError, match="carries bytes, not str"):
        link.write("text")
    link.close()


# -- pit sensors behind MCP23017 expanders: the real adafruit_mcp230xx, talking to a model of the
#    chip written from Microchip's data sheet (tests/mcp23017_model.py), INTA on gpiozero's pins

INTA_PINS = {"south": 17, "north": 27}        # the shipped profile's, checked below
FRAME_MS = 12                   # the runner's loop: 80 frames a second


class Expanders:
    """The 2 x 12 pi-direct board's two expanders (South's row at 0x20, North's at 0x21) on a
    model bus, every receiver seeing its beam, each INTA in `wired` joined to its Pi pin."""

    def __init__(self, pins, wired=("south", "north")):
        profile = load_profile("pi-direct-2x12")
        assert {e.name: int(e.interrupt_pin[4:]) for e in profile.expanders} == INTA_PINS
        self.channels = profile.sensors.channels
        self.chips = {e.name: MCP23017(e.address) for e in profile.expanders}
        self.bus = I2CBus(*self.chips.values())
        self.t = 0
        for pit in range(24):
            self.beam(pit, broken=False)
        self.pits = ExpanderPits(self.channels, {e.name: e.address for e in profile.expanders},
                                 interrupts=INTA_PINS, make_i2c=lambda: self.bus,
                                 clock_ms=lambda: self.t)
        for name in wired:
            wire_int_a(self.chips[name], pins.pin(INTA_PINS[name]))

    def beam(self, pit, broken):
        """The receiver of `pit` sinks its output while it sees the beam, lets go when not."""
        name, pin = self.channels[pit].split(".")
        self.chips[name].drive(pin, None if broken else 0)

    def frame(self, ms=FRAME_MS):
        self.t += ms
        return self.pits.levels()

    def frames_until(self, pit, level, limit_ms=1000):
        """Frames until `pit` reads `level`; the ms that took."""
        start = self.t
        while self.frame()[pit] != level:
            assert self.t - start < limit_ms, "pit %d never read %d" % (pit, level)
        return self.t - start


def test_the_expanders_are_set_up_as_the_data_sheet_wants(pins):
    board = Expanders(pins)
    for chip in board.chips.values():
        assert chip.violations == []                # GPA7/GPB7 never inputs, no read before
        assert chip.register16("IODIR") == 0x7F7F   # GPA7 and GPB7 outputs, the rest inputs
        assert chip.level("GPA7") == chip.level("GPB7") == 0        # ... driven low
        assert chip.register16("GPPU") == 0x7F7F    # every input pulled up, GPA6/GPB6 too
        assert chip.undefined == set()              # so no input was ever read floating
        assert chip.register16("GPINTEN") == 0x3F3F     # interrupts from the pits alone
        assert chip.register16("INTCON") == chip.register16("IPOL") == 0
        assert chip.register("IOCON") == 0x44       # MIRROR | ODR; BANK 0, SEQOP 0
        assert chip.int_a is None                   # released: nothing pending
        first_read = next(i for i, t in enumerate(board.bus.transfers)
                          if t[0] == chip.address and t[1] == "read")
        assert any(t[0] == chip.address and t[2] == 0x00 and len(t[3]) == 2
                   for t in board.bus.transfers[:first_read])     # IODIR written before it
    for pin in INTA_PINS.values():
        assert pins.pin(pin).pull == "up"           # the open drain's only pull-up
        assert pins.pin(pin).state == 1


def test_the_librarys_own_reset_would_make_gpa7_and_gpb7_inputs():
    # why ExpanderPits builds its MCP23017s with reset=False
    chip = MCP23017(0x20)
    AdafruitMCP23017(I2CBus(chip), address=0x20)
    assert chip.violations == [
        "IODIRA = 0xFF makes GPA7 an input (it is output only: DS20001952D)",
        "IODIRB = 0xFF makes GPB7 an input (it is output only: DS20001952D)"]


def test_each_pit_reads_its_own_beam(pins):
    board = Expanders(pins)
    assert board.frame() == [0] * 24
    for pit in range(24):
        board.beam(pit, broken=True)                # a hand: the pull-up takes it high
        assert board.frame() == [int(p == pit) for p in range(24)]
        board.beam(pit, broken=False)
    assert board.frame() == [0] * 24
    assert all(chip.violations == [] for chip in board.chips.values())


def test_an_expander_is_read_only_when_its_inta_says_a_pit_changed(pins):
    board = Expanders(pins)
    board.bus.transfers.clear()
    for _ in range(15):
        assert board.frame() == [0] * 24           # 180 ms of a still board ...
    assert board.bus.transfers == []               # ... and not one transfer on the bus
    board.beam(14, broken=True)                    # North's pit 3, north.GPA2
    assert pins.pin(INTA_PINS["north"]).state == 0 and pins.pin(INTA_PINS["south"]).state == 1
    assert board.frame()[14] == 1
    # one read of GPIOA and GPIOB: GPA2 high, and GPA6/GPB6, unused, held high
    assert board.bus.reads() == [(0x21, "read", 0x12, bytes([0x44, 0x40]))]
    assert pins.pin(INTA_PINS["north"]).state == 1                 # the read cleared it
    board.beam(20, broken=True)                    # North's pit 9, north.GPB2: port B, INTA too
    assert pins.pin(INTA_PINS["north"]).state == 0 and board.frame()[20] == 1
    board.bus.transfers.clear()
    while board.t < FULL_READ_MS:
        board.frame()
    # the full read: IODIR written again, GPINTEN read back, GPIO read, on each chip
    for address in (0x20, 0x21):
        assert [(t[1], t[2]) for t in board.bus.transfers if t[0] == address and (
            t[1] == "read" or t[3])] == [("write", 0x00), ("read", 0x04), ("read", 0x12)]


def test_a_change_inta_did_not_signal_shows_within_a_full_read(pins, caplog):
    board = Expanders(pins, wired=("south",))      # north's INTA wire is broken
    caplog.set_level("WARNING", logger="controller.drivers.expander")
    for k in range(MISSES_TO_DISTRUST):
        board.beam(13, broken=k % 2 == 0)          # North's pit 2
        assert board.frames_until(13, int(k % 2 == 0)) <= FULL_READ_MS + FRAME_MS
        assert not board.pits.expanders["north"].every_frame or k == MISSES_TO_DISTRUST - 1
    assert [r.getMessage() for r in caplog.records] == [
        "expander north: its INTA line (GPIO 27) did not signal 3 changes of the pits in a "
        "row: check that wire, from the chip's INTA (pin 20 of the DIP) to the Pi; reading this "
        "expander at every frame from now on"]
    board.beam(13, broken=True)
    assert board.frame()[13] == 1                  # read at every frame now
    south = board.pits.expanders["south"]
    board.beam(0, broken=True)
    assert board.frame()[0] == 1 and not south.every_frame     # south's INTA is trusted


def test_an_expander_reset_by_a_dip_in_its_supply_is_set_up_again(pins, caplog):
    board = Expanders(pins)
    south = board.chips["south"]
    south.power_on_reset()                         # every pin an input, no pull-ups, no IOC
    board.beam(3, broken=True)                     # floats: nothing pulls it up now
    assert board.frames_until(3, 1) <= FULL_READ_MS + FRAME_MS
    assert south.violations == []                  # nothing read while GPA7/GPB7 were inputs
    assert south.register16("IODIR") == south.register16("GPPU") == 0x7F7F
    assert south.register16("GPINTEN") == 0x3F3F and south.register("IOCON") == 0x44
    assert "expander south at I2C address 0x20 lost its set-up" in caplog.text
    board.beam(3, broken=False)
    assert board.frame()[3] == 0                   # and its INTA works again


def test_an_expander_without_an_inta_pin_is_read_at_every_frame():
    chip = MCP23017(0x20)
    bus = I2CBus(chip)
    pits = ExpanderPits(["south.GPA0", "south.GPB5"], {"south": 0x20}, make_i2c=lambda: bus)
    assert pits.levels() == [1, 1] and len(pits) == 2      # nothing drives them: pulled up
    chip.drive("GPA0", 0)
    assert pits.levels() == [0, 1] and chip.violations == []
    assert len(bus.reads(0x20, "GPIOA")) == 3      # the set-up's read, then one a frame


@pytest.mark.parametrize("channels, message", [
    (["east.GPA0"], "no expander named 'east'"),
    (["south.GPC1"], "'GPC1' is not an MCP23017 pin"),
    (["south.GPA8"], "'GPA8' is not an MCP23017 pin"),
    (["south.GPB7"], "'south.GPB7': GPA7 and GPB7 of an MCP23017 are outputs only"),
])
def test_an_expander_input_that_does_not_exist_is_named(channels, message):
    with pytest.raises(ValueError, match=message):
        ExpanderPits(channels, {"south": 0x20}, make_i2c=lambda: I2CBus(MCP23017(0x20)))


def test_an_expander_that_does_not_answer_is_named(pins):
    with pytest.raises(DeviceError, match="expander north at I2C address 0x21 does not answer"):
        ExpanderPits(["north.GPA0"], {"north": 0x21}, interrupts={"north": 27},
                     make_i2c=lambda: I2CBus(MCP23017(0x20)))
    DigitalInputDevice(27).close()                 # its INTA pin was given back


# -- the register model itself, against the data sheet and the library's interrupt API

def test_the_model_interrupts_as_the_data_sheet_says():
    chip = MCP23017(0x20)
    lib = AdafruitMCP23017(I2CBus(chip), address=0x20, reset=False)
    lib.io_control = 0x44                          # MIRROR, ODR
    lib.iodir = lib.gppu = 0x7F7F
    lib.interrupt_enable = 1 << 3                  # GPA3
    lib.clear_ints()
    chip.drive("GPA3", 0)                          # a change: INTF, INTCAP, INTA and INTB low
    assert chip.int_a == chip.int_b == 0 and lib.int_flag == [3]
    chip.drive("GPA3", None)                       # back high while pending: nothing new
    assert lib.int_flag == [3] and lib.int_cap[3] == 0     # captured at the interrupt
    assert chip.int_a is None                      # reading INTCAP cleared it (DS 3.6.4)
    assert lib.gpio >> 3 & 1 == 1
    lib.io_control = 0x04                          # not mirrored: port A's on INTA only
    chip.drive("GPA3", 0)
    assert chip.int_a == 0 and chip.int_b is None
    lib.clear_inta()
    lib.interrupt_configuration = lib.default_value = 1 << 3   # against DEFVAL: high
    assert chip.int_a == 0                         # low differs from DEFVAL
    lib.clear_ints()
    assert chip.int_a == 0                         # still differs: interrupts again (DS 3.6.5)
    chip.drive("GPA3", None)
    lib.clear_ints()
    lib.io_control = 0x02                          # push-pull, active high
    assert chip.int_a == 0 and chip.violations == []
    chip.drive("GPA3", 0)
    assert chip.int_a == 1


def test_the_model_steps_its_address_pointer_as_the_data_sheet_says():
    chip = MCP23017(0x20)
    bus = I2CBus(chip)
    lib = AdafruitMCP23017(bus, address=0x20, reset=False)
    lib.iodir = 0x7F7F
    lib.gpio = 0x0102                              # writes OLATA, OLATB (DS 3.5.10)
    out = bytearray(3)
    bus.try_lock()
    bus.writeto_then_readfrom(0x20, bytes([0x14]), out)    # OLATA, OLATB, then round to 0x00
    assert out == bytes([0x02, 0x01, 0x7F])
    bus.writeto(0x20, bytes([0x0A, 0x20]))         # IOCON.SEQOP: the pointer stays in a pair
    bus.writeto_then_readfrom(0x20, bytes([0x14]), out)
    assert out == bytes([0x02, 0x01, 0x02])
    bus.unlock()
    with pytest.raises(RuntimeError, match="requires lock"):
        bus.writeto(0x20, b"\x00")


# -- the `pi` extra: what Blinka needs on a Raspberry Pi, read from Blinka itself

# a Raspberry Pi 1-4 under Raspberry Pi OS, 64-bit and 32-bit, as PEP 508 markers see it
PI_MARKERS = [{"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
               "platform_machine": machine, "extra": "pi"} for machine in ("aarch64", "armv7l")]


def pi_extra(environment):
    """The distributions the installed layli's `pi` extra brings in `environment`, with their
    requirements."""
    from importlib.metadata import requires

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    wanted = {}
    for text in requires("layli") or ():
        requirement = Requirement(text)
        if requirement.marker is not None and "extra" in str(requirement.marker) and \
                requirement.marker.evaluate(environment):
            wanted[canonicalize_name(requirement.name)] = requirement
    return wanted


def blinka_source(module):
    """The parsed source of one of Blinka's installed modules ("neopixel_write",
    "adafruit_blinka.microcontroller.bcm283x.neopixel"), read, not imported: off a Pi,
    importing it would fail or pick another backend (its packages' __init__s are empty)."""
    import ast
    import importlib.util

    path = importlib.util.find_spec(module).origin
    with open(path, encoding="utf-8") as source:
        return ast.parse(source.read(), path)


def imported_modules(tree):
    import ast
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update("%s.%s" % (node.module, alias.name) for alias in node.names)
    return names


@pytest.mark.parametrize("environment", PI_MARKERS, ids=lambda e: e["platform_machine"])
def test_the_pi_extra_brings_blinkas_raspberry_pi_backends(environment):
    from importlib.metadata import packages_distributions, version
    from types import SimpleNamespace

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    dependencies = pytest.importorskip(
        "adafruit_blinka.platform_dependencies",
        reason="Blinka before 10.0 declared its Raspberry Pi backends itself")

    # what Blinka says a Raspberry Pi 1-4 needs, in its own words
    pi4 = SimpleNamespace(board=SimpleNamespace(any_raspberry_pi=True,
                                                any_raspberry_pi_5_board=False,
                                                any_jetson_board=False),
                          chip=SimpleNamespace(id="BCM2XXX"))
    needs = dict(dependencies.get_platform_dependencies(pi4))
    extra = pi_extra(environment)
    distributions = packages_distributions()
    # the two our drivers reach: the pins behind `import board` (NeoPixels and I2C both) and
    # the NeoPixel write; pwmio's backend is not used (gpiozero drives the buzzer)
    for module in ("gpiod", "_rpi_ws281x"):
        blinkas = Requirement(needs[module])
        ours = extra.get(canonicalize_name(blinkas.name))
        assert ours is not None, "the pi extra lacks %s, which Blinka needs on a Pi" % blinkas
        installed = version(blinkas.name)            # the test extra installed it here too
        assert blinkas.specifier.contains(installed) and ours.specifier.contains(installed)
        assert canonicalize_name(blinkas.name) in {
            canonicalize_name(d) for d in distributions.get(module, ())}
        __import__(module)


def test_blinkas_neopixel_write_on_a_pi_uses_the_module_rpi_ws281x_provides():
    import ast
    # neopixel_write picks the bcm283x backend on a Raspberry Pi other than a Pi 5 ...
    assert "adafruit_blinka.microcontroller.bcm283x.neopixel" in imported_modules(
        blinka_source("neopixel_write"))
    backend = blinka_source("adafruit_blinka.microcontroller.bcm283x.neopixel")
    # ... which imports _rpi_ws281x (as ws) ...
    aliases = {alias.asname or alias.name for node in ast.walk(backend)
               if isinstance(node, ast.Import) for alias in node.names
               if alias.name == "_rpi_ws281x"}
    assert aliases, "Blinka's bcm283x NeoPixel backend no longer imports _rpi_ws281x"
    called = {node.attr for node in ast.walk(backend) if isinstance(node, ast.Attribute)
              and isinstance(node.value, ast.Name) and node.value.id in aliases}
    # ... and calls these of it: every one is in the _rpi_ws281x that rpi_ws281x installs
    import _rpi_ws281x
    assert "ws2811_render" in called and len(called) > 10
    assert sorted(name for name in called if not hasattr(_rpi_ws281x, name)) == []
    # and Blinka's Raspberry Pi pins (behind `import board`) import gpiod
    assert "gpiod" in imported_modules(
        blinka_source("adafruit_blinka.microcontroller.generic_linux.raspberry_pi_pin"))


@pytest.mark.parametrize("timeout", [0, 0.05])
def test_a_link_over_a_network_socket_takes_everything_that_has_come(timeout):
    """pyserial's socket:// (a Pico behind a network serial server, or the emulated Pico)
    answers in_waiting with 1 for "some bytes": one read() must still take all of them, not
    two (a bridge's 93 frames a second came through at three), and wait no longer for it."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    sent = bytes(range(256)) * 40                   # 10,240 bytes, all there at once
    accepted = []
    thread = threading.Thread(target=lambda: accepted.append(server.accept()[0]))
    thread.start()
    link = SerialLink("socket://127.0.0.1:%d" % server.getsockname()[1], timeout=timeout)
    link.open()
    thread.join(5)
    accepted[0].sendall(sent)
    time.sleep(0.2)                                 # every byte is in the socket's buffer
    started = time.monotonic()
    got = link.read()
    assert got == sent and time.monotonic() - started < 0.5, len(got)
    link.close()
    accepted[0].close()
    server.close()
