"""The firmware on an emulated Pico, one board for the whole file: MicroPython 1.27's own
REPL, PIO, neopixel, pulls and USB serial, and the firmware's reads, strip, buzzer and native
code on it, read back from the pins by models that know nothing of the firmware.

Where tests/test_firmware.py runs the firmware against our own fakes of `machine` and `rp2`,
these run it on MicroPython's real port. The chain's tests are in test_emulated_chain.py, the
deployed board's games in test_emulated_games.py (files of their own, so that CI's workers
share them). Without the kit (see tests/emulated_kit.py) each test skips and says why.
"""

from __future__ import annotations

import statistics
import sys

import pytest

from emulated_kit import CHECKOUT, PROMPT_LOOP, emulated, needs_kit

pytestmark = needs_kit

FREE_PINS = (17, 18)        # on a pico-bridge-2x6 board: wired to nothing


@pytest.fixture(scope="module")
def pico():
    """A pico-bridge-2x6 board: 14 HX711s (SCK GP2, DOUT GP3..GP16), the LED strip on GP22,
    buttons on GP19..GP21 and GP26, the buzzer on GP27."""
    with emulated.EmulatedPico(board="pico-bridge-2x6") as board:
        yield board


def test_it_boots_to_the_repl_of_micropython_1_27(pico):
    serial = pytest.importorskip("serial")
    assert pico.boot_wall_s < 30
    pico.disconnect()
    with serial.serial_for_url(pico.serial_url, timeout=10) as port:    # the host's own link
        port.write(b"\r\x03\x02")           # Ctrl-C, Ctrl-B: the friendly REPL's banner
        banner = port.read_until(b">>> ").decode()
        assert "MicroPython v1.27.0" in banner and "Raspberry Pi Pico with RP2040" in banner
        port.write(b"6 * 7\r")
        assert port.read_until(b"42\r\n").endswith(b"6 * 7\r\n42\r\n")
    assert pico.exec("import machine; print(machine.freq())").strip() == "125000000"




def test_the_firmwares_hx711_array_reads_every_cell(pico):
    pico.install("hx711")                   # and what it imports, compiled by mpy-cross
    values = [1000 * (k + 1) * (-1) ** k for k in range(14)]
    values[4], values[5] = 10 ** 8, -(10 ** 8)      # beyond full scale: the converter saturates
    values[6] = -1
    pico.set_cells(values)
    expected = values[:4] + [8388607, -8388608] + values[6:]
    pico.reset_stats()
    out = pico.exec(
        "from hx711 import HX711Array\n"
        "import time\n"
        "cells = HX711Array(2, list(range(3, 17)))\n"
        + PROMPT_LOOP % 40 +
        "cells.close()\n"
        "print(repr(frames))\n"
        "print(repr(dict((k, v) for k, v in cells.__dict__.items()\n"
        "                 if isinstance(v, int) and not k.startswith('_'))))\n",
        timeout_s=120)
    frames_line, counters = out.strip().splitlines()
    frames = eval(frames_line)      # noqa: S307 - lists of ints and None, printed by the Pico
    whole = [frame for frame in frames if None not in frame]
    assert len(whole) >= 10, "only %d of %d frames had every cell (the driver's counters: %s)" % (
        len(whole), len(frames), counters)
    for frame in frames:
        assert [v for v, e in zip(frame, expected) if v is not None and v != e] == []
    cells = pico.stats()["hx711"]
    assert [cell["errors"] for cell in cells] == [[]] * 14     # the CPU was prompt
    assert all(cell["reads"] >= len(frames) for cell in cells)


def test_back_from_a_flash_write_the_native_drain_parses_only_the_newest(pico):
    """The Pico's own drain (fast.drain, viper) back from 170 ms away, as after a flash write:
    the ring's older entries passed over, the parse started again at the next read, the
    readings kept whole and the chips' rhythms unchanged; catching up takes a few ms (it was
    16 ms for every entry of the ring). A reader first drained 300 ms after it started (the
    ring gone round) likewise."""
    pico.install("hx711", "fast")
    values = [1000 * (k + 1) for k in range(14)]
    pico.set_cells(values)
    pico.reset_stats()
    out = pico.exec(
        "from hx711 import HX711Array\n"
        "import time, gc, fast\n"
        "from array import array\n"
        "cells = HX711Array(2, list(range(3, 17)))\n"
        "got = array('i', [0] * 14)\n"
        "def drained(ms):\n"
        "    frames = []\n"
        "    start = time.ticks_ms()\n"
        "    while time.ticks_diff(time.ticks_ms(), start) < ms:\n"
        "        trusted = cells.take(got)\n"
        "        if trusted >= 0:\n"
        "            frames.append((trusted, list(got)))\n"
        "        time.sleep_ms(2)\n"
        "    return frames\n"
        "gc.collect()\n"
        "gc.disable()\n"
        "drained(600)\n"
        "periods = cells.periods_us()\n"
        "time.sleep_ms(170)\n"
        "began = time.ticks_us()\n"
        "trusted = cells.take(got)\n"
        "took = time.ticks_diff(time.ticks_us(), began)\n"
        "queued = [(trusted, list(got))]\n"
        "while True:\n"
        "    trusted = cells.take(got)\n"
        "    if trusted < 0:\n"
        "        break\n"
        "    queued.append((trusted, list(got)))\n"
        "after = drained(300)\n"
        "gc.enable()\n"
        "cells.close()\n"
        "print(repr((cells.passed_over, cells.restarts, took, queued, after, periods,\n"
        "            cells.periods_us())))\n"
        # a firmware that starts its loop late (a journal replayed): the ring has gone round
        "cells = HX711Array(2, list(range(3, 17)))\n"
        "time.sleep_ms(300)\n"
        "began = time.ticks_us()\n"
        "cells.take(got)\n"
        "took = time.ticks_diff(time.ticks_us(), began)\n"
        "later = drained(400)\n"
        "cells.close()\n"
        "print(repr((cells.passed_over, cells.restarts, took, later)))\n",
        timeout_s=300)
    first, late_start = out.strip().splitlines()[-2:]
    passed_over, restarts, took, queued, after, periods, now = eval(first)  # noqa: S307
    late = eval(late_start)  # noqa: S307
    assert late[:2] == (1, 1) and late[2] < 8000, late[:3]
    assert len(late[3]) >= 30 and late[3][-20:] == [((1 << 14) - 1, values)] * 20, late[3]
    assert (passed_over, restarts) == (1, 0)
    every = (1 << 14) - 1
    # the queue's 8 at most (one more may come in while they are taken); the reads made while
    # the CPU was away went unplanned, so a conversion may have caught one: it is untrusted
    assert 6 <= len(queued) <= 9, queued
    assert [[v for c, v in enumerate(got) if trusted >> c & 1 and v != values[c]]
            for trusted, got in queued] == [[]] * len(queued), queued
    assert sum(bin(trusted).count("1") for trusted, _ in queued) >= 14 * len(queued) - 3
    # back: every read planned again, every cell whole
    assert len(after) >= 25 and after == [(every, values)] * len(after), after
    assert all(abs(p - q) <= q // 100 for p, q in zip(now, periods)), (periods, now)
    assert took < 8000, took            # us (16,400 when the whole ring was parsed)


def test_a_pio_square_wave_keeps_its_clock_divider(pico):
    gen, _ = FREE_PINS
    pico.probe(gen)
    out = pico.exec(
        "import rp2, machine, time\n"
        "from machine import Pin\n"
        "@rp2.asm_pio(set_init=rp2.PIO.OUT_LOW)\n"
        "def square():\n"
        "    set(pins, 1)[6]\n"         # 7 cycles high
        "    set(pins, 0)[4]\n"         # 5 low: 12 a period
        "sm = rp2.StateMachine(4, square, freq=1234567, set_base=Pin(%d))\n"
        "sm.active(1)\n"
        "time.sleep_ms(3)\n"
        "sm.active(0)\n"
        "print(machine.mem32[0x503000c8])\n" % gen)        # PIO1 SM0_CLKDIV
    clkdiv = int(out) & 0xFFFFFFFF
    divider = (clkdiv >> 16) + ((clkdiv >> 8) & 0xFF) / 256      # 101.25 at 125 MHz
    cycle_ns = 8 * divider
    edges = pico.edges(gen)
    rises = [t for t, level in edges if level]
    highs = [fall - rise for (rise, a), (fall, b) in zip(edges, edges[1:]) if a and not b]
    periods = [b - a for a, b in zip(rises, rises[1:])]
    assert len(periods) > 200
    assert statistics.mean(periods) == pytest.approx(12 * cycle_ns, abs=0.5)
    assert all(abs(p - 12 * cycle_ns) <= 8 for p in periods)    # the fraction: +-1 sys cycle
    assert all(abs(h - 7 * cycle_ns) <= 8 for h in highs)


def test_a_read_past_the_xip_cache_stalls_the_cpu_for_a_flash_read(pico):
    # xip.mjs: a word read from flash through the cache's uncached alias (0x13000000) goes to
    # the flash every time, MISS_CYCLES (60) of clk_sys more than a hit (0x10000000: after
    # the first read, the line is cached); both loops are the same bytecode
    loop = ("import machine, time\n"
            "def reads(address, n):\n"
            "    mem32 = machine.mem32\n"
            "    t = time.ticks_us()\n"
            "    for _ in range(n):\n"
            "        mem32[address]\n"
            "    return time.ticks_diff(time.ticks_us(), t)\n"
            "reads(0x10000100, 10)\n"
            "print(reads(0x10000100, 2000), reads(0x13000100, 2000))\n")
    before = pico.command("stats")["pico"]["xip"]
    cached, uncached = [int(word) for word in pico.exec(loop).split()]
    after = pico.command("stats")["pico"]["xip"]
    assert after["misses"] - before["misses"] >= 2000
    assert after["accesses"] - before["accesses"] > 4000
    # 2,000 misses of 60 cycles at 125 MHz: 960 us more (the loops' own misses aside)
    assert uncached - cached == pytest.approx(2000 * 60 / 125, rel=0.1)


def test_micropythons_neopixel_is_decoded_by_the_strip(pico):
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (1, 2, 3), (128, 64, 32), (0, 0, 0),
               (255, 255, 255), (17, 34, 51)]
    before = pico.strip()["frames"]
    pico.exec("import neopixel, machine\n"
              "strip = neopixel.NeoPixel(machine.Pin(22), 8)\n"
              "for i, c in enumerate(%r):\n"
              "    strip[i] = c\n"
              "strip.write()\n"
              "import time; time.sleep_ms(1)\n" % (colours,))
    strip = pico.strip()
    assert strip["frames"] == before + 1 and strip["errors"] == []
    assert [tuple(p) for p in strip["pixels"][:8]] == colours
    assert strip["frame"]["leds"] == 8
    assert 27000 <= strip["frame"]["ns_per_led"] <= 33000       # 24 bits of 1.25 us


def test_a_button_to_ground_reads_low_through_the_pull_up(pico):
    code = "from machine import Pin\nb = Pin(26, Pin.IN, Pin.PULL_UP)\nprint(b.value())\n"
    assert pico.exec(code).strip() == "1"
    pico.press("confirm")
    assert pico.exec("print(b.value())").strip() == "0"
    pico.release("confirm")
    assert pico.exec("print(b.value())").strip() == "1"
    assert pico.exec("print(Pin(26, Pin.IN, Pin.PULL_DOWN).value())").strip() == "0"
    assert pico.stats()["buttons"]["confirm"]["presses"] == 1


def test_the_buzzer_is_heard_note_by_note(pico):
    """firmware/buzzer.py's tune on the real MicroPython's PWM (GP27): the emulated piezo hears
    each note at its pitch for its length, a rest between them, as the standalone game's
    players hear a board's chirps and buzzes."""
    pico.install("buzzer", "clock")
    pico.tones()
    pico.exec("from buzzer import Buzzer\n"
              "from clock import TicksClock\n"
              "import time\n"
              "clock = TicksClock()\n"
              "b = Buzzer(27, clock)\n"
              "b.play(((1319, 50), (0, 40), (523, 150)))\n"
              "t = time.ticks_ms()\n"
              "while time.ticks_diff(time.ticks_ms(), t) < 300:\n"
              "    b.poll()\n"
              "    time.sleep_ms(1)\n")
    pico.run_ms(20)
    heard = [(round(tone["hz"]), round(tone["ms"])) for tone in pico.tones()]
    assert len(heard) == 2, heard
    (high, high_ms), (low, low_ms) = heard
    assert abs(high - 1319) <= 13 and 45 <= high_ms <= 52, heard   # PWM's divider: within 1%
    assert abs(low - 523) <= 5 and 145 <= low_ms <= 152, heard


def test_mpremote_copies_a_file_over_the_socket_and_runs_it(pico, tmp_path):
    script = tmp_path / "greet.py"
    script.write_text("import sys\nprint('hello from', sys.platform)\n")
    done = pico.mpremote("fs", "cp", str(script), ":greet.py", "+", "exec", "import greet")
    assert done.returncode == 0, done.stderr
    assert "hello from rp2" in done.stdout
    listed = pico.mpremote("fs", "ls")
    assert "greet.py" in listed.stdout


NATIVE_CHECK = r"""
import array, fast, leds
from controller.protocol import framing, Sensors
from controller.protocol.framing import encode_frame
from controller.sensing.shared_clock import ReadPlanner
from controller.rules.rng import Random30
rng = Random30(11)
checks = 0
wrong = []
# the planner: the same state and answers over random rounds of chips 3% apart
for trial in range(2):
    n, read = (14, 26) if trial % 2 else (26, 80)
    ref, nat = ReadPlanner(n, read), fast.Planner(n, read)
    periods = [10702 + rng.randrange(640) - 320 for _ in range(n)]
    phases = [rng.randrange(10702) for _ in range(n)]
    t = 0
    for rnd in range(10):
        t += 10800
        for c in range(n):
            if rng.randrange(8) == 0:
                continue                        # a conversion not seen
            e = phases[c] + periods[c] * ((t - phases[c]) // periods[c]) + rng.randrange(41) - 20
            ref.saw_end(c, e)
            nat.saw_end(c, e)
        after = t + rng.randrange(500)
        start = after + rng.randrange(3000)
        widen = 30 * (rnd % 4)                  # plan_ahead's reads further ahead
        got = (list(nat.ends), list(nat.periods), list(nat.measured), nat.plan(after),
               nat.plan(after, 8000, widen), nat.next_ready(after),
               nat.trusted(start, start + read), nat.all_known())
        want = (ref.ends, ref.periods, ref.measured, ref.plan(after),
                ref.plan(after, 8000, widen), ref.next_ready(after),
                ref.trusted(start, start + read), ref.all_known())
        checks += 1
        if got != want:
            wrong.append(("planner", trial, rnd))
# the framing: CRC and COBS of every kind of payload (zeros, full 254-byte blocks)
plain_crc, plain_cobs = framing.crc16, framing.cobs_encode
for size in (0, 1, 2, 253, 254, 255, 508, 600):
    for zeros in (0, 1, 3):
        data = bytearray(rng.randrange(255) + 1 for _ in range(size))
        for _ in range(zeros if size else 0):
            data[rng.randrange(size)] = 0
        data = bytes(data)
        checks += 1
        if (fast.crc16(data), fast.cobs_encode(data)) != (plain_crc(data), plain_cobs(data)):
            wrong.append(("framing", size, zeros))
# a whole Sensors frame, missing readings too
for n in (14, 16, 26):
    frames = fast.SensorsFrames(n)
    for k in range(5):
        values = [rng.randrange(1 << 24) - (1 << 23) for _ in range(n)]
        missing = 0
        for c in range(n):
            if rng.randrange(5) == 0:
                missing |= 1 << c
        listed = [None if missing >> c & 1 else values[c] for c in range(n)]
        seq, time_ms = rng.randrange(65536), rng.randrange(1 << 20) * 4099 + 3   # to 2**32
        got = bytes(frames.frame(seq, time_ms, array.array("i", values), missing))
        checks += 1
        if got != encode_frame(Sensors(time_ms, listed).encode(seq)):
            wrong.append(("sensors", n, k))
# the strip's words
for count in (1, 5, 176):
    pixels = bytes(rng.randrange(256) for _ in range(3 * count))
    for at in ((2, 3, 1), (3, 2, 1), (1, 2, 3)):
        a, b = bytearray(4 * count), bytearray(4 * count)
        leds.pack(pixels, a, at)
        fast.pack(pixels, b, at)
        places = bytearray(rng.randrange(14) if rng.randrange(4) else leds.NO_PLACE
                           for _ in range(count))
        colours = bytes(rng.randrange(256) for _ in range(42))
        c, d = bytearray(4 * count), bytearray(4 * count)
        leds.pack_places(colours, places, c, at)
        fast.pack_places(colours, places, d, at)
        checks += 1
        if (a, c) != (b, d):
            wrong.append(("leds", count, at))
# unpacking 24 words
for n in (3, 14, 26):
    words = array.array("i", [(rng.randrange(1 << 29) << 3 | rng.randrange(8)) - (1 << 31)
                              for _ in range(24)])
    positions = bytearray(rng.randrange(32) for _ in range(n))
    out = array.array("i", [0] * n)
    fast.unpack(words, positions, out)
    import hx711
    checks += 1
    if list(out) != hx711.unpack(list(words), positions):
        wrong.append(("unpack", n))
# counting seeds: the native filter (feed_values) against the plain one (feed), word for word,
# over noise, spikes, seeds dropped and lifted, hands resting, readings out of range, missing
# and stuck (a short stuck_ms), the judgements paced
from controller.sensing import Calibration, CountingSensor
from controller.sensing import counting, weighing
layout = (counting.SIZE, counting.CREDIT, counting.REDO, counting.JUDGE, counting.STEADY,
          counting.STARTED, counting.LEFT, counting.SETTLE, counting.HEADER, counting.LOW, counting.HIGH, counting.TOL, counting.STUCK_AFTER,
          counting.POS, counting.SAME, counting.SAME_SINCE, counting.N, counting.BASE,
          counting.ACC, counting.MOTION, counting.DUE, counting.FRESH, counting.READINGS,
          counting.STATE_WORDS, counting.JUDGE_MS, counting.STEADY_MS, counting.JUDGE_MOST,
          counting.BAND_CAP, counting.MOTION_SHIFT)
checks += 1
if layout != (0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 24, 100,
              250, 2, 64, 4):
    wrong.append(("counting layout", layout))
# a judgement's candidate counts weighed (weighing.weigh): the words of random judgements,
# the zeros together, a seed apart and two, at the edges of the values and variances it takes
for trial in range(30):
    words = array.array("i", [0] * counting.WEIGH_WORDS)
    k = rng.randrange(counting.WHOLE_SEEDS - 2) if trial % 3 else rng.randrange(3)
    other = max(0, k + rng.randrange(3) - 1)
    words[counting.W_X] = max(-512, k * counting.Q + rng.randrange(1025) - 512)
    words[counting.W_EMPTY] = max(-512, other * counting.Q + rng.randrange(1025) - 512)
    words[counting.W_K] = k
    words[counting.W_OTHER] = other
    words[counting.W_REF] = rng.randrange(counting.WHOLE_SEEDS)
    words[counting.W_EMPTY_REF] = (0, words[counting.W_REF],
                                   rng.randrange(counting.WHOLE_SEEDS))[rng.randrange(3)]
    words[counting.W_SPREAD] = rng.randrange(counting.SPREAD_MOST)
    words[counting.W_VARIANCE] = counting.FLOOR_Q + rng.randrange(
        counting.NOISE_MOST if trial % 5 == 0 else 3000)
    plain_words = array.array("i", words)
    weighing.weigh(plain_words, counting.EXP2, counting.HALF_LOG2)
    fast.weigh(words, counting.EXP2, counting.HALF_LOG2)
    checks += 1
    if list(words) != list(plain_words):
        wrong.append(("weigh", trial, list(words), list(plain_words)))
for n in (14, 26):
    tare = [rng.randrange(200000) - 100000 for _ in range(n)]
    per_seed = [9000 + rng.randrange(400) for _ in range(n)]
    cal = Calibration(tare, per_seed, 0.02, noise=[2.0 if c % 3 else 0.0 for c in range(n)])
    plain = CountingSensor(cal, stuck_ms=300)
    native = CountingSensor(cal, stuck_ms=300, native=fast.counting, native_weigh=fast.weigh)
    counts = [rng.randrange(6) for _ in range(n)]
    hand = [0] * n
    stuck = [0] * n
    values = array.array("i", [0] * n)
    t = 0
    for frame in range(50):     # frame 49: the CPU away
        t += 10 + rng.randrange(3) + (25 if frame % 50 == 49 else 0)    # the CPU away
        trusted = 0
        raw = []
        for c in range(n):
            if rng.randrange(40) == 0:
                counts[c] = max(0, counts[c] + rng.randrange(3) - 1)    # a seed in or out
            if rng.randrange(300) == 0:
                hand[c] = 20                    # a hand resting on the place
            if rng.randrange(500) == 0:
                stuck[c] = 40                   # the converter repeats itself
            v = tare[c] + counts[c] * per_seed[c] + rng.randrange(5) - 2
            if hand[c]:
                hand[c] -= 1
                v += 4000 + rng.randrange(300)
            if rng.randrange(200) == 0:
                v += 30000                      # a spike
            if rng.randrange(400) == 0:
                v = 8388607                     # at the converter's limit
            if stuck[c]:
                stuck[c] -= 1
                v = tare[c] + 12345
            values[c] = v
            if rng.randrange(25):
                trusted |= 1 << c
                raw.append(v)
            else:
                raw.append(None)
        a = plain.feed(t, raw)
        b = native.feed_values(t, values, trusted)
        checks += 1
        times = [(c.since, c.judged_at, c.odd_since) for c in plain._channels]
        if a != b or list(plain._state)[counting.SETTLE:] != list(native._state)[
                counting.SETTLE:] or plain._state[1] != native._state[1] or times != [
                (c.since, c.judged_at, c.odd_since) for c in native._channels] or (
                plain.counts, plain.settled, plain.confidence, plain.faults, plain.values) != (
                native.counts, native.settled, native.confidence, native.faults,
                native.values):
            wrong.append(("counting", n, frame))
            break
print(checks, wrong)
"""


def test_the_native_code_does_what_the_plain_python_does(pico):
    """firmware/fast.py (viper: the Pico's hot paths) against the plain Python it stands in
    for, on the real MicroPython, on random inputs: the planner, CRC and COBS, whole Sensors
    frames, the strip's words, the readings' unpacking, the counting filter and its
    judgements' numbers."""
    pico.install("fast", "leds", "hx711", "controller.protocol", "controller.sensing",
                 "controller.rules.rng")
    out = pico.exec(NATIVE_CHECK, timeout_s=300).strip()
    count, _, wrong = out.partition(" ")
    # 202 comparisons: plain Python is slow on the emulated Pico (407 took CI 245 s under load)
    assert int(count) >= 200 and wrong == "[]", out


# The strip's current cap (controller.guide.pixels.cap_pixels), native against plain: on strips
# of random bytes, then each timed (the best of 3, in microseconds) on a 176- and a 320-LED strip,
# white (scaled) and within the cap (one sum). Three lines: the comparisons, the mismatches, the
# times.
CAP_CHECK = r"""
import time
import fast
from controller.guide import pixels

seed = 12345
def rand():
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed >> 16

checks = 0
wrong = []
for n in (0, 1, 3, 528, 960):
    for top in (1, 16, 256):
        data = bytearray([rand() % top for _ in range(n)])
        if fast.channel_sum(data) != sum(data):
            wrong.append(("sum", n, top))
        for scale in (0, 1, 47, 128, 255, 256, 300):
            plain = bytearray(data)
            native = bytearray(data)
            pixels.scale_bytes(plain, scale)
            fast.scale_bytes(native, scale)
            checks += 1
            if plain != native:
                wrong.append(("scale", n, top, scale))

def best(run, data, max_ma):
    fastest = None
    for _ in range(3):
        copy = bytearray(data)
        start = time.ticks_us()
        run(copy, max_ma)
        spent = time.ticks_diff(time.ticks_us(), start)
        fastest = spent if fastest is None or spent < fastest else fastest
    return fastest

timings = {}
for accelerated in (False, True):
    if accelerated:
        pixels.accelerate(fast.channel_sum, fast.scale_bytes)
    for leds in (176, 320):
        for name, value in (("white", 255), ("within", 4)):
            timings["%s %d %s" % ("native" if accelerated else "plain", leds, name)] = best(
                pixels.cap_pixels, bytearray([value] * (3 * leds)), 2000)
print(checks)
print(wrong)
print(timings)
"""


def test_the_native_cap_does_what_the_plain_python_does(pico):
    """firmware/fast.py's `channel_sum` and `scale_bytes` against the plain Python of the cap
    they stand in for (`sum`, controller.guide.pixels.scale_bytes), and what each costs on
    the RP2040 (printed: a figure for firmware/README.md, never asserted)."""
    pico.install("fast", "controller.guide.pixels")
    out = pico.exec(CAP_CHECK, timeout_s=300).strip()
    checks, wrong, timings = out.splitlines()[-3:]
    assert int(checks) == 5 * 3 * 7 and wrong == "[]", out
    print("\nthe cap on the emulated RP2040, us:", timings)


@pytest.mark.parametrize("args, words", [(["--seconds", "0"], "--seconds must be more than 0"),
                                         (["--board", "pi-direct-2x6"], "invalid choice")])
def test_the_frame_budget_benchmark_refuses_bad_arguments(args, words, capsys):
    sys.path.insert(0, str(CHECKOUT / "tests"))
    from benchmark_scripts import load_benchmark

    benchmark = load_benchmark("pico_frame_budget")
    with pytest.raises(SystemExit) as stopped:
        benchmark.main(args)
    assert stopped.value.code == 2 and words in capsys.readouterr().err
