"""`layli run` and the board's loop: the Pico over a pty speaking the wire protocol, a Pi's own
GPIO through gpiozero's mock pins, the simulated board, the journal across restarts, and the
config file and command line refused with clear messages."""

import os
import subprocess
import sys
import time

import pytest

from controller.drivers.direct import DirectBoard
from controller.drivers.pico import FirmwareMismatch, PicoBridge
from controller.hardware.profile import load
from controller.protocol.link import Link
from controller.guide.frame import DROP, STEADY, WAIT, Frame, waiting
from controller.protocol.messages import (PROTOCOL_VERSION, Button, Buzz, Hello, LedFrame,
                                          Sensors, State, StateRequest)
from controller.board.runner import Runner, open_session
from controller.sensing import Calibration
from fakes import PtyDevice, RecordingPixelBuf


class FakePico:
    """The Pico's end of the link, in Python, on the far side of a pty."""

    def __init__(self, pty, protocol=PROTOCOL_VERSION):
        self.pty = pty
        self.t = 0
        self.link = Link(lambda data: os.write(pty.master, data), lambda: self.t,
                         Hello("fake-1", "pico-bridge-2x6", "device", protocol=protocol))
        self.frame = None
        self.buzzes = []
        self.requests = 0

    def pump(self):
        """Take what the host sent; answer as the firmware does."""
        data = b""
        while True:
            try:
                chunk = self.pty.receive(4096, timeout=0.01)
            except OSError:         # EIO: the host has not opened its end (yet, or again)
                break
            if not chunk:
                break
            data += chunk
        for message in self.link.receive(data):
            if isinstance(message, LedFrame):
                self.frame = Frame.decode(message.places)
            elif isinstance(message, Buzz):
                self.buzzes.append((message.hz, message.ms))
            elif isinstance(message, StateRequest):
                self.requests += 1
                self.link.send(State(b"", 0, self.t, 14))
        self.link.poll()


@pytest.fixture
def pico(tmp_path):
    pty = PtyDevice(str(tmp_path / "ttyACM-pico"))
    fake = FakePico(pty)
    yield fake
    try:
        pty.unplug()
    except OSError:
        pass


def exchange(bridge, fake, rounds=20):
    """Let both ends talk for a while; what the host read."""
    frames, presses = [], []
    for _ in range(rounds):
        fake.t += 12
        fake.pump()
        got = bridge.read()
        frames += got[0]
        presses += got[1]
    return frames, presses


def test_the_pico_bridge_streams_sensors_and_buttons_in_and_leds_out(pico):
    bridge = PicoBridge(pico.pty.path, "pico-bridge-2x6", 14)
    bridge.open()
    pico.link.connect()
    exchange(bridge, pico)
    assert bridge.device.firmware == "fake-1" and pico.requests == 1
    for k in range(5):
        pico.link.send(Sensors(1000 + 12 * k, [k] * 14))
    pico.link.send(Button(3, True, 1100))
    pico.link.send(Button(3, False, 1150))
    frames, presses = exchange(bridge, pico)
    assert [values[0] for _, values in frames] == [0, 1, 2, 3, 4]
    assert [t for t, _ in frames] == sorted(t for t, _ in frames)
    assert presses == ["confirm"]
    frame = Frame(14)
    frame.set(2, "north", "drop")
    bridge.show(frame, None)
    bridge.beep("mistake")
    exchange(bridge, pico)
    assert pico.frame == frame and pico.buzzes == [(440, 300)]
    assert bridge.counters()["dropped"] == 0


def test_a_pulled_cable_and_a_rebooted_pico_come_back_with_the_leds(pico):
    bridge = PicoBridge(pico.pty.path, "pico-bridge-2x6", 14)
    bridge.serial.retry_s = bridge.serial.max_retry_s = 0.01
    bridge.open()
    pico.link.connect()
    exchange(bridge, pico)
    frame = Frame(14)
    frame.set(9, "hint", "pick")
    bridge.show(frame, None)
    pico.link.send(Sensors(50000, [1] * 14))
    frames, _ = exchange(bridge, pico)
    before = frames[-1][0]
    pico.pty.unplug()                                   # the cable out ...
    for _ in range(5):
        bridge.read()
    pico.pty.plug()                                     # ... and in: the Pico rebooted
    fresh = FakePico(pico.pty)
    fresh.link.connect()
    deadline = time.monotonic() + 5
    while fresh.frame is None and time.monotonic() < deadline:
        exchange(bridge, fresh, 5)
    assert fresh.frame == frame                         # the LEDs, sent again
    while not fresh.link.introduced and time.monotonic() < deadline:
        exchange(bridge, fresh, 5)                      # (its Hello went before the port
    fresh.link.send(Sensors(10, [2] * 14))              # opened) its clock started again ...
    frames, _ = exchange(bridge, fresh)
    assert frames[-1][0] > before                       # ... the host's goes on
    assert bridge.serial.connections == 2


def test_firmware_of_another_protocol_version_is_named(tmp_path):
    pty = PtyDevice(str(tmp_path / "ttyACM-old"))
    fake = FakePico(pty, protocol=PROTOCOL_VERSION - 1)
    bridge = PicoBridge(pty.path, "pico-bridge-2x6", 14)
    bridge.open()
    fake.link.connect()
    with pytest.raises(FirmwareMismatch, match="protocol version 1.*this end version 2"):
        exchange(bridge, fake)
    pty.unplug()


# --- a Pi's own GPIO ----------------------------------------------------------------------

def test_a_pi_direct_board_plays_through_the_runner(mock_pins, tmp_path):
    profile = load("pi-direct-2x6")
    made = []

    def pixelbuf(pin, count, order):
        made.append(RecordingPixelBuf(count, order))
        return made[-1]
    t = [0]
    board = DirectBoard(profile, make_pixelbuf=pixelbuf, now_ms=lambda: t[0])
    session = open_session(tmp_path / "journal.jsonl", "layli-goobalay", None, "activity")
    runner = Runner(board, session, profile.led_layout(), "activity", now_ms=lambda: t[0])
    beam = mock_pins.pin(int(profile.sensors.channels[2][4:]))   # South's pit 3

    def run(ms, level=None):
        if level is not None:
            beam.drive_high() if level else beam.drive_low()
        for _ in range(ms // 10):
            t[0] += 10
            runner.step()
    for pin in profile.sensors.channels:              # every beam sees its light: low
        mock_pins.pin(int(pin[4:])).drive_low()
    run(100)
    assert runner.session.guide.phase == "await" and made[0].sent
    run(200, 1)                                       # a hand breaks pit 3's beam
    run(100, 0)
    assert runner.session.guide.phase == "sowing" and runner.session.guide.move == 3
    confirm = mock_pins.pin(int(profile.buttons["confirm"][4:]))
    confirm.drive_low()                               # pressed (to ground, pulled up)
    run(100)
    confirm.drive_high()
    assert ("move_started", 3) in runner.events
    board.close()


def test_a_2x12_pi_direct_board_reads_its_pits_through_the_expanders(mock_pins):
    from mcp23017_model import MCP23017, I2CBus, wire_int_a
    profile = load("pi-direct-2x12")
    south, north = MCP23017(0x20), MCP23017(0x21)
    for pin in profile.sensors.channels:              # every receiver sees its beam: low
        (south if pin.startswith("south.") else north).drive(pin.split(".")[1], 0)
    t = [0]
    board = DirectBoard(profile, make_pixelbuf=lambda pin, n, order: RecordingPixelBuf(n, order),
                        make_i2c=lambda: I2CBus(south, north), now_ms=lambda: t[0])
    wire_int_a(south, mock_pins.pin(17))              # the profile's interrupt pins
    wire_int_a(north, mock_pins.pin(27))
    frames, _ = board.read()
    assert frames == [(0, [0] * 24)]
    north.drive("GPB4", None)                         # North's pit 11 (north.GPB4): a hand
    assert mock_pins.pin(27).state == 0               # its INTA says so ...
    assert board.read()[0][0][1] == [0] * 22 + [1, 0]     # ... and the board reads it
    assert south.violations == north.violations == []
    board.close()


# --- the loop, the journal, new games ------------------------------------------------------

class ScriptedIO:
    """A board whose frames a test hands in."""

    def __init__(self):
        self.frames, self.presses, self.shown, self.beeps = [], [], [], []

    def read(self):
        frames, presses = self.frames, self.presses
        self.frames, self.presses = [], []
        return frames, presses

    def show(self, frame, pixels):
        self.shown.append(pixels)
        self.frame = frame

    def beep(self, name):
        self.beeps.append(name)

    def close(self):
        pass


def counting_runner(tmp_path, io):
    calibration = Calibration([0] * 14, [1000] * 14, noise=[20] * 14)
    journal = tmp_path / "journal.jsonl"
    make = lambda: open_session(journal, "layli-goobalay", None, "counting")   # noqa: E731
    return Runner(io, make(), load("pico-bridge-2x6").led_layout(), "counting", calibration,
                  session_factory=make, records=tmp_path / "records",
                  calibration_path=tmp_path / "calibration.json", now_ms=lambda: 0)


def feed(io, runner, counts, start_ms, ms=400):
    for t in range(start_ms, start_ms + ms, 12):
        io.frames.append((t, [c * 1000 + (t // 12 % 3) * 7 for c in counts]))   # a little noise
        runner.step()
    return start_ms + ms


def test_moves_are_journaled_and_a_restart_resumes_them(tmp_path):
    io = ScriptedIO()
    runner = counting_runner(tmp_path, io)
    counts = [4] * 12 + [0, 0]
    t = feed(io, runner, counts, 0)
    counts[0] = 0                                     # South lifts pit 1 ...
    t = feed(io, runner, counts, t)
    for pit in (1, 2, 3, 4):                          # ... and sows it
        counts[pit] += 1
        t = feed(io, runner, counts, t)
    assert runner.session.guide.phase == "sowing" and runner.session.guide.done == 5
    # the power goes: a new runner reads the same journal
    again = counting_runner(tmp_path, ScriptedIO())
    assert again.session.guide.phase == "sowing" and again.session.guide.done == 5
    assert again.session.guide.move == 1


def test_new_game_keeps_the_record_and_starts_afresh(tmp_path):
    io = ScriptedIO()
    runner = counting_runner(tmp_path, io)
    counts = [4] * 12 + [0, 0]
    t = feed(io, runner, counts, 0)
    runner.press("hint")
    assert runner.session.guide.hint is not None
    session = runner.session
    counts[session.guide.hint - 1] = 0                # South lifts the hinted pit ...
    t = feed(io, runner, counts, t)
    while not session.game.moves:                     # ... and sows it as the LEDs say
        guide = session.guide
        board = guide.board.copy()
        board.apply(guide.script[guide.done], guide.mover)
        counts = board.places()
        t = feed(io, runner, counts, t)
    assert "move_done" in io.beeps
    assert (tmp_path / "calibration.json").exists()  # each cell's zero, kept at the move
    io.presses.append("new_game")
    runner.step()
    records = list((tmp_path / "records").iterdir())
    assert len(records) == 1 and "layli-goobalay" in records[0].read_text().lower()
    assert runner.session is not session and not runner.session.game.moves
    with pytest.raises(ValueError, match="unknown button 'reset'"):
        runner.press("reset")


def test_a_waiting_board_lights_no_pit_and_guides_nothing_until_it_may(tmp_path):
    io = ScriptedIO()
    runner = counting_runner(tmp_path, io)
    session = runner.session
    runner.wait("waiting for the tournament to give this table a game")
    counts = [4] * 12 + [0, 0]
    t = feed(io, runner, counts, 0)
    assert io.frame == waiting(14) and not io.frame.where(STEADY)
    assert io.frame.pattern(12) == io.frame.pattern(13) == WAIT
    assert runner.sensor.counts == counts           # the sensors are still read ...
    counts[0] = 0                                   # ... but a pit lifted is no move
    t = feed(io, runner, counts, t)
    io.presses += ["hint", "new_game", "confirm"]   # and the buttons do nothing
    runner.step()
    assert runner.session is session and session.guide.phase == "await"
    assert session.guide.hint is None and session.events == [] and io.beeps == []
    assert runner.sensor.counts[0] == 0
    # the game may start: the board is judged as it stands, the lifted pit a move begun
    runner.wait(None)
    assert session.guide.phase == "sowing" and session.guide.move == 1
    feed(io, runner, counts, t, 24)
    assert io.frame is session.frame and io.frame.where(DROP) == [1]


def test_a_new_game_ends_the_wait(tmp_path):
    io = ScriptedIO()
    runner = counting_runner(tmp_path, io)
    runner.wait("no game given yet")
    t = feed(io, runner, [4] * 12 + [0, 0], 0)
    runner.new_game()
    assert runner.waiting is None
    feed(io, runner, [4] * 12 + [0, 0], t, 24)
    assert io.frame is runner.session.frame and len(io.frame.where(STEADY)) >= 6

def test_confirm_takes_the_offer_of_a_skip_ahead(tmp_path):
    io = ScriptedIO()
    runner = counting_runner(tmp_path, io)
    session = runner.session
    session.game.push(2)                            # North's 2 then relays on and on (47 steps)
    session.guide._await()
    counts = session.guide.board.places()
    t = feed(io, runner, counts, 0)
    while not session.guide.skip_offered:           # sow it as the LEDs say
        guide = session.guide
        board = guide.board.copy()
        if guide.phase == "await":
            counts[guide._legal_pits()[session.game.legal_moves().index(2)]] = 0
        else:
            board.apply(guide.script[guide.done], guide.mover)
            counts = board.places()
        t = feed(io, runner, counts, t)
    assert "skip_offered" in [event[0] for event in runner.events]
    runner.press("confirm")
    assert session.guide.phase == "skip"
    feed(io, runner, session.guide.target.places(), t)
    assert session.game.moves == [2, 2] and session.guide.phase == "await"


# --- the command ---------------------------------------------------------------------------

def layli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "controller", *args], capture_output=True,
                          text=True, timeout=600, cwd=cwd)


@pytest.mark.parametrize("profile", ["pico-bridge-2x6", "pi-direct-2x6"])
def test_run_simulate_plays_a_game_through_the_runner(profile):
    result = layli("run", "--profile", profile, "--simulate", "--seed", "3")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "South played pit" in result.stderr and "game over" in result.stderr
    assert "the board equals the engine" in result.stderr


@pytest.mark.parametrize("config, args, message", [
    ("profile = 3\n", [], "profile must be a string, not 3"),
    ("profile = 'pico-bridge-2x6'\ncolour = 'red'\n", [], "unknown key 'colour'"),
    ("profile = \n", [], "not valid TOML"),
    ("log_level = 'loud'\n", [], "log_level 'loud' is not one of"),
    ("", [], "no board profile: give --profile NAME"),
    ("", ["--profile", "pico-bridge-2x12"], "layli-goobalay has 6 pits a row; the board "
                                            "of profile pico-bridge-2x12 has 12"),
    ("", ["--profile", "pico-bridge-2x6"], "give --port DEVICE"),
    ("", ["--profile", "pico-standalone-2x6"], "runs on the Pico itself"),
    ("", ["--profile", "pico-bridge-2x6", "--port", "/dev/ttyNOPE0"], "/dev/ttyNOPE0"),
    ("", ["--profile", "nowhere-2x6"], "nowhere-2x6"),
])
def test_run_refuses_bad_settings_in_one_line(tmp_path, config, args, message):
    path = tmp_path / "layli.toml"
    path.write_text(config)
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "calibration.json").write_text(
        Calibration([0] * 14, [1000] * 14).to_json())
    result = layli("run", "--config", str(path), "--state", str(tmp_path / "state"), *args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_counting_board_without_a_calibration_says_how_to_make_one(tmp_path):
    result = layli("run", "--profile", "pico-bridge-2x6", "--port", "loop://",
                   "--state", str(tmp_path))
    assert result.returncode == 2
    assert "no calibration at %s" % (tmp_path / "calibration.json") in result.stderr


# --- calibration ---------------------------------------------------------------------------

class WeighingIO(ScriptedIO):
    """Load cells under places holding `counts` seeds: tare, 2000 raw a seed, seeds 2% apart,
    a little noise."""

    def __init__(self, places=14):
        super().__init__()
        self.counts = [0] * places
        self.extra = 0.0            # the single seed's deviation from the mean, seeds
        self.t = 0

    def read(self):
        frames = []
        for _ in range(20):
            self.t += 12
            noise = (self.t // 12 % 5) * 9 - 18
            frames.append((self.t, [1000 * c + round(2000 * (n + (self.extra if c == 0 else 0)))
                                    + noise for c, n in enumerate(self.counts)]))
        return frames, []


def test_calibration_walks_the_steps_and_measures_the_spread():
    from controller.commands.calibrate import calibrate
    io = WeighingIO()
    prompts, said = [], []
    deviations = iter([0.02, -0.02, 0.0, 0.03, -0.03])

    def ask(text):
        prompts.append(text)
        if text.startswith("2."):
            io.counts = [4] * 14
        elif text.startswith("3."):
            io.counts = [0] * 14
        elif "alone on South's pit 1" in text:
            io.counts[0] = 1
            io.extra = next(deviations)
    calibration = calibrate(io, 14, 4, 5, ask, said.append)
    assert [round(p) for p in calibration.per_seed] == [2000] * 14
    assert calibration.tare[3] == 3000
    assert 0.015 < calibration.spread < 0.03
    assert len(prompts) == 3 + 5 and any("spread" in line for line in said)


def test_a_refused_step_is_asked_again():
    from controller.commands.calibrate import calibrate
    io = WeighingIO()
    prompts, said = [], []

    def ask(text):
        prompts.append(text)
        if text.startswith("2.") and prompts.count(text) == 2:
            io.counts = [3] * 14            # the first time, the seeds were not put on
    calibrate(io, 14, 3, 0, ask, said.append)
    assert [p[:2] for p in prompts] == ["1.", "2.", "2."]
    assert "reads no more with 3 seeds than empty" in said[1]


@pytest.mark.parametrize("args, message", [
    (["--profile", "pi-direct-2x6"], "digital pit sensors: there is nothing to weigh"),
    (["--profile", "pico-standalone-2x6"], "calibrates on the Pico itself"),
    (["--profile", "pico-bridge-2x6", "--port", "/dev/ttyNOPE1"], "/dev/ttyNOPE1"),
    (["--profile", "pico-bridge-2x6", "--seeds", "0"], "must be at least 1"),
])
def test_calibrate_refuses_what_it_cannot_weigh(tmp_path, args, message):
    result = layli("calibrate", "--state", str(tmp_path), *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr


def test_the_shipped_config_and_service_are_what_layli_run_reads():
    from pathlib import Path
    from controller.commands.run import read_config
    docs = Path(__file__).resolve().parent.parent / "docs"
    config = read_config(str(docs / "layli.toml"))
    assert config["profile"] == "pico-bridge-2x6" and config["variant"] == "layli-goobalay"
    service = (docs / "layli.service").read_text()
    exec_start = [line for line in service.splitlines() if line.startswith("ExecStart=")]
    assert exec_start == ["ExecStart=/opt/layli/venv/bin/layli run --config "
                          "/etc/layli/layli.toml"]
    assert "Restart=always" in service
