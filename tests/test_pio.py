"""The firmware's PIO programs checked against programs we did not write (tests/pio_check.py):

- the words and settings our fake `asm_pio` (firmware/fakes/rp2.py, which the firmware's tests
  run) makes of every program the firmware loads equal Adafruit's pioasm assembler's
  (adafruit_pioasm) of the same program, recorded from the firmware's own DSL as pioasm text;
- those programs, run on pioemu (rp2040-pio-emulator) at their cycles' nanoseconds against the
  datasheet models of simulator/parts/ wired as each shipped Pico profile wires them, read
  every place's own value through the firmware's decoding, and break none of the HX711's,
  74HC165's or WS2812B's timing rules.
"""

from __future__ import annotations

import textwrap
from dataclasses import fields
from types import ModuleType

import pytest
from adafruit_pioasm import Program

import pio_check
from controller.hardware.profile import load, shipped
from controller.rules import place_words
from pio_check import Settings, firmware, firmware_recording, read_board, show_on_strip
from simulator.parts.hc165 import HC165TimingError, limits as hc165_limits
from simulator.parts.hx711 import HX711, signed, spread_periods
from simulator.parts.ws2812 import PERIOD_NS, T0H_NS, T1H_NS, TOLERANCE_NS

PICO_PROFILES = [name for name in shipped() if name.startswith(("pico-bridge", "pico-standalone"))]


def _dsl(source: str, rp2: ModuleType, name: str):
    """A program written in MicroPython's DSL, run under `rp2`'s asm_pio in a module of its
    own (asm_pio swaps the module's globals while it runs the function)."""
    module = ModuleType("hand_written")
    module.rp2 = rp2
    exec(compile(textwrap.dedent(source), "<hand-written>", "exec"), module.__dict__)
    return getattr(module, name)


def _same_words(ours, text: str) -> None:
    theirs = list(Program(text).assembled)
    lines = [line.strip() for line in text.splitlines()
             if line.startswith("    ")]                 # the instructions, in order
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, "instruction %d (%s): our asm_pio 0x%04x, adafruit_pioasm 0x%04x" % (
            k, lines[k], a, b)
    assert len(ours) == len(theirs), "%d words from our asm_pio, %d from adafruit_pioasm" % (
        len(ours), len(theirs))


def _same_settings(ours: list, text: str) -> None:
    mine, theirs = Settings.from_micropython(ours), Settings.from_pioasm(Program(text))
    differ = ["%s: our asm_pio %r, adafruit_pioasm %r" % (
        field.name, getattr(mine, field.name), getattr(theirs, field.name))
        for field in fields(Settings) if getattr(mine, field.name) != getattr(theirs, field.name)]
    assert differ == []


# --- the recorder, on programs written by hand -------------------------------------------------

# MicroPython's own example (examples/rp2/pio_ws2812.py): the pico-examples program in the DSL
WS2812_EXAMPLE = """
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
                 pull_thresh=24)
    def ws2812():
        T1 = 2
        T2 = 5
        T3 = 3
        wrap_target()
        label("bitloop")
        out(x, 1)               .side(0)    [T3 - 1]
        jmp(not_x, "do_zero")   .side(1)    [T1 - 1]
        jmp("bitloop")          .side(1)    [T2 - 1]
        label("do_zero")
        nop()                   .side(0)    [T2 - 1]
        wrap()
"""


def test_the_recorder_writes_micropythons_ws2812_example_as_the_sdk_assembles_it():
    recorded = _dsl(WS2812_EXAMPLE, pio_check.recording_rp2(), "ws2812")
    assert recorded.pioasm() == textwrap.dedent("""\
        .program ws2812
        .side_set 1
        .in 32 left 32
        .out 32 left auto 24
        .fifo txrx
        .wrap_target
        bitloop:
            out x, 1 side 0 [2]
            jmp !x, do_zero side 1 [1]
            jmp bitloop side 1 [4]
        do_zero:
            nop side 0 [4]
        .wrap
        """)
    # the words pico-sdk's pioasm makes of pico-examples' pio/ws2812/ws2812.pio (its generated
    # ws2812.pio.h), which this program is
    sdk = [0x6221, 0x1123, 0x1400, 0xA442]
    assert list(Program(recorded.pioasm()).assembled) == sdk
    assert list(_dsl(WS2812_EXAMPLE, firmware().rp2, "ws2812")[0]) == sdk


EVERY_OPERAND = """
    @rp2.asm_pio(sideset_init=(rp2.PIO.OUT_LOW, rp2.PIO.OUT_LOW),
                 in_shiftdir=rp2.PIO.SHIFT_RIGHT, autopush=True, push_thresh=8,
                 fifo_join=rp2.PIO.JOIN_RX)
    def every():
        label("top")
        wait(1, gpio, 5).side(2)
        wait(0, pin, 1)
        jmp(not_x, "top")
        jmp(x_dec, "top")
        jmp(not_y, "top")
        jmp(y_dec, "top")[1]
        jmp(x_not_y, "top")
        jmp(pin, "top")
        jmp(not_osre, "top").side(1)[3]
        wrap_target()
        in_(osr, 32)
        out(pindirs, 3)
        out(exec, 16)
        push(iffull, noblock)
        pull(ifempty, block)
        mov(x, reverse(y))
        mov(exec, invert(isr))
        mov(pc, status)
        irq(clear, 3)
        irq(block, rel(1))
        set(pindirs, 31)
        nop().side(3)
        wrap()
"""


def test_the_recorder_writes_every_operand_and_an_optional_side_set():
    recorded = _dsl(EVERY_OPERAND, pio_check.recording_rp2(), "every")
    text = recorded.pioasm()
    assert text == textwrap.dedent("""\
        .program every
        .side_set 2 opt
        .in 32 right auto 8
        .out 32 left 32
        .fifo rx
        top:
            wait 1 gpio 5 side 2
            wait 0 pin 1
            jmp !x, top
            jmp x--, top
            jmp !y, top
            jmp y--, top [1]
            jmp x!=y, top
            jmp pin, top
            jmp !osre, top side 1 [3]
        .wrap_target
            in osr, 32
            out pindirs, 3
            out exec, 16
            push iffull noblock
            pull ifempty block
            mov x, ::y
            mov exec, ~isr
            mov pc, status
            irq clear 3
            irq wait 1 rel
            set pindirs, 31
            nop side 3
        .wrap
        """)
    ours = _dsl(EVERY_OPERAND, firmware().rp2, "every")
    _same_words(list(ours[0]), text)
    _same_settings(ours, text)


# --- every program the firmware loads -----------------------------------------------------------

def _firmware_programs() -> dict[str, tuple]:
    """name -> (the firmware's program made by our asm_pio, the same recorded)."""
    fw, rec = firmware(), firmware_recording()
    programs = {}
    for cells in (14, 16):                  # the 2 x 6 and 2 x 7 boards
        for gain, pulses in sorted(fw.hx711.GAIN_PULSES.items()):
            programs["parallel, %d cells, gain %d" % (cells, gain)] = (
                fw.hx711.parallel_program(cells, pulses, fw.hx711.FREQ),
                rec.hx711.parallel_program(cells, pulses, rec.hx711.FREQ))
    programs["74HC165 chain"] = (fw.hx711.chain_program(fw.hx711.CHAIN_FREQ),
                                 rec.hx711.chain_program(rec.hx711.CHAIN_FREQ))
    programs["WS2812"] = (fw.leds.WS2812, rec.leds.WS2812)
    return programs


@pytest.mark.parametrize("name", sorted(_firmware_programs()))
def test_our_asm_pio_assembles_the_firmware_program_as_adafruit_pioasm_does(name):
    ours, recorded = _firmware_programs()[name]
    text = recorded.pioasm()
    _same_words(list(ours[0]), text)
    _same_settings(ours, text)


def test_those_are_the_programs_the_profiles_load():
    checked = {tuple(program[0]) for program, _ in _firmware_programs().values()}
    for name in PICO_PROFILES:
        loaded = pio_check.sensors_of(load(name))
        assert tuple(loaded.program[0]) in checked, name
        for gain in (32, 64):
            if loaded.sensors["kind"] == "hx711":
                assert tuple(pio_check.sensors_of(load(name), gain).program[0]) in checked


# --- the programs on pioemu, against the parts' datasheet models -------------------------------

FRAMES = 3


def _chips(count: int, phases: list[int], values: list[int], periods=None, jitter_us=20,
           seed=5) -> list[HX711]:
    """`count` HX711s at RATE high, their oscillators a few per cent apart (the model's
    spread), each conversion's end wandering by up to `jitter_us` (olkal: +-20 us)."""
    periods = periods or spread_periods(count, 0.03, seed)
    chips = []
    for i in range(count):
        chip = HX711(periods[i], phases[i], jitter_us=jitter_us, seed=seed + i)
        chip.value = values[i]
        chips.append(chip)
    return chips


def _values(count: int, frame: int = 0) -> list[int]:
    """A value of its own for each place (both signs, every byte busy), moved each frame."""
    return [(-1) ** i * (0x10203 * (i + 1) + 0x35 * i) + 11 * frame for i in range(count)]


@pytest.mark.parametrize("name", PICO_PROFILES)
def test_each_place_reads_its_own_value_through_the_profile_wiring(name):
    profile = load(name)
    places = len(profile.sensors.channels)
    chips = _chips(places, [300 + 97 * i for i in range(places)], _values(places))
    given = [[chip.value for chip in chips]]

    def next_frame(run, k):
        for chip, value in zip(chips, _values(places, k + 1)):
            chip.value = value
        given.append([chip.value for chip in chips])

    board = read_board(profile, chips, FRAMES, after_read=next_frame)
    fw = firmware()
    assert board.bench.errors() == []
    assert len(board.reads) == FRAMES
    assert board.bench.pulses == [fw.hx711.BITS + 1] * FRAMES      # gain 128: 25 pulses
    for k, read in enumerate(board.reads):
        decoded = fw.hx711.unpack(read.words, board.loaded.positions)
        for place in range(places):
            out = board.bench.reads[k][place]       # what the chip shifted out, and if intact
            assert out is not None, "read %d: place %d was not read" % (k, place)
            if k == 0 or out[1]:
                where = "%s, read %d: %s (place %d)" % (
                    name, k, place_words(place, profile.pits), place)
                owner = given[k].index(decoded[place]) if decoded[place] in given[k] else None
                assert decoded[place] == given[k][place], (
                    "%s decoded %d%s, its HX711 gave %d" % (
                        where, decoded[place],
                        "" if owner is None else " (place %d's value)" % owner,
                        given[k][place]))
                assert decoded[place] == signed(out[0])
    # every DOUT snapshot (from which the driver learns each chip's rhythm) at the place's bit
    assert board.snapshot_errors == []
    # the planner's read length (the driver sums the program's cycle counts) covers the read
    # as it ran, from MARK's push to the last PD_SCK pulse's end, rounded up: within 2 us;
    # a chain's also the program's lag before it, two polls of the chain (69 cycles each)
    # and the 12 cycles on the way to MARK
    last_fall = board.bench.sck_edge[1]
    run_ns = last_fall - board.reads[-1].start_ns
    lag_ns = 0 if not profile.expanders else (2 * 69 + 12) * 10**9 // board.loaded.freq
    assert run_ns + lag_ns <= board.loaded.read_us * 1000 < run_ns + lag_ns + 2000


def test_the_idle_skip_changes_nothing():
    # the harness skips loops that poll unchanged pins: against a run that skips none
    for name in ("pico-bridge-2x7", "pico-bridge-2x12"):
        profile = load(name)
        places = len(profile.sensors.channels)
        runs = []
        for skip in (True, False):
            chips = _chips(places, [100 + 23 * i for i in range(places)], _values(places))
            runs.append(read_board(profile, chips, 1, skip_idle=skip))
        skipped, plain = runs
        assert skipped.pio.skipped_cycles > 0 and plain.pio.skipped_cycles == 0
        assert [(p.word, p.t_ns) for p in skipped.pio.pushed] == [
            (p.word, p.t_ns) for p in plain.pio.pushed]
        assert skipped.bench.timing.closest == plain.bench.timing.closest
        assert skipped.bench.errors() == plain.bench.errors() == []


@pytest.mark.parametrize("name", ["pico-bridge-2x6", "pico-bridge-2x12"])
def test_a_delay_in_the_tx_fifo_moves_the_read_by_as_many_cycles(name):
    # the driver puts wait_us * MHz: the program's delay loop takes one cycle a count
    profile = load(name)
    places = len(profile.sensors.channels)
    delay = 2000
    boards = []
    for tx in ((), (delay,)):
        chips = _chips(places, [300 + 97 * i for i in range(places)], _values(places),
                       jitter_us=0)
        boards.append(read_board(profile, chips, 1, tx=tx))
    for board in boards:
        assert board.bench.errors() == [] and not board.pio.state.transmit_fifo
    moved = boards[1].bench.read_starts[0] - boards[0].bench.read_starts[0]
    assert abs(moved - delay * 1e9 / boards[0].loaded.freq) <= pio_check.SYS_NS


@pytest.mark.parametrize("name", ["pico-bridge-2x6", "pico-bridge-2x12"])
def test_a_chip_that_converts_during_the_delay_is_waited_for_not_clocked(name):
    # chip 0's result waits from 60 us; the others' come between 9.5 and 10.65 ms; chip 0's
    # next conversion ends at 10.762 ms, 37 us after the last DOUT fell: inside the 60 us
    # the CPU asked for. After the delay the program must see chip 0's DOUT high (its 75 us
    # update, not over before the chain's poll after the delay, 8 us long, has read it),
    # watch on, and read once it is low again: chip 0's newer result.
    profile = load(name)
    places = len(profile.sensors.channels)
    phases = [60] + [9500 + (10650 - 9500) * i // (places - 1) for i in range(1, places)]
    chips = _chips(places, phases, _values(places), periods=[10702] * places, jitter_us=0)
    board = read_board(profile, chips, 1, tx=(60 * pio_check.sensors_of(profile).freq // 10**6,))
    assert board.bench.errors() == []
    assert chips[0].overwritten == 1
    start = board.bench.read_starts[0]
    assert start >= (60 + 10702 + 75) * 1000 + pio_check.HX711_T1_NS
    # the snapshots: every DOUT low (the delay taken), chip 0 high, every one low, the read
    bit = board.loaded.positions[0]
    mask = sum(1 << b for b in board.loaded.positions)
    levels = [(s.word & mask, s.word >> bit & 1) for s in board.snapshots
              if s.t_ns < board.reads[0].start_ns]
    assert levels[-3:] == [(0, 0), (1 << bit, 1), (0, 0)]
    decoded = firmware().hx711.unpack(board.reads[0].words, board.loaded.positions)
    assert decoded == _values(places)
    assert all(read[1] for read in board.bench.reads[0])


@pytest.mark.parametrize("gain, channel", [(32, "B"), (64, "A")])
def test_the_pulses_after_the_24th_choose_the_next_conversions_input(gain, channel):
    profile = load("pico-bridge-2x6")
    places = len(profile.sensors.channels)
    chips = _chips(places, [300 + 97 * i for i in range(places)], _values(places))
    for i, chip in enumerate(chips):
        chip.value_b = -(i + 1) * 1111
    board = read_board(profile, chips, 2, gain=gain)
    fw = firmware()
    assert board.bench.errors() == []
    assert board.bench.pulses == [fw.hx711.BITS + fw.hx711.GAIN_PULSES[gain]] * 2
    decoded = fw.hx711.unpack(board.reads[1].words, board.loaded.positions)
    want = ([chip.value_b for chip in chips] if channel == "B"
            else [chip.value >> 1 for chip in chips])
    assert decoded == want
    assert all(chip.gain == gain for chip in chips)


# --- the LED strip ------------------------------------------------------------------------------

PIXELS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0x12, 0x34, 0x56), (255, 255, 255),
          (0, 0, 0), (0x80, 0x01, 0xAA)]


@pytest.mark.parametrize("name", PICO_PROFILES)
def test_the_strip_program_shows_each_led_its_colour_in_the_datasheets_timing(name):
    bench, run = show_on_strip(load(name), PIXELS)
    strip = bench.strip
    assert strip.errors == [] and bench.stray == []
    assert strip.frames == [PIXELS]
    # WS2812B datasheet: T0H 0.4 us, T1H 0.8 us, each +-150 ns; bit period 1.25 us
    for high in bench.highs:
        assert (abs(high - T0H_NS) <= TOLERANCE_NS) != (abs(high - T1H_NS) <= TOLERANCE_NS)
    assert len(bench.highs) == 24 * len(PIXELS)
    periods = [b - a for a, b in zip(bench.rises, bench.rises[1:])]
    assert max(periods) - min(periods) <= pio_check.SYS_NS    # the divider's 15.625 cycles
    per_led = (bench.rises[-1] - bench.rises[0]) / (len(bench.rises) - 1) * 24
    assert abs(per_led - 24 * PERIOD_NS) <= 24                # 30 us an LED


def test_the_chain_reads_every_place_through_the_rp2040_input_synchroniser():
    """An input reaches a state machine through a two-flop synchroniser (2 clk_sys cycles,
    RP2040 datasheet 3.5.6) and a 74HC165's QH follows CLK up to 120 ns late at 3.3 V
    (simulator.parts.hc165.limits): the chain program must read QH as it raises CLK, the bit
    the rise before put out (read one cycle after the edge, before QH was valid, every bit
    came one shift late, place k reading place k + 1's value, on the emulated Pico too)."""
    profile = load("pico-bridge-2x12")
    places = len(profile.sensors.channels)
    chips = _chips(places, [300 + 97 * i for i in range(places)], _values(places))
    board = read_board(profile, chips, 1, sync_ns=pio_check.SYNC_NS,
                       qh_delay_ns=hc165_limits().tpd)
    decoded = firmware().hx711.unpack(board.reads[0].words, board.loaded.positions)
    assert [(place, decoded[place]) for place in range(places)
            if decoded[place] != _values(places)[place]] == []
    assert board.bench.errors() == []


def test_the_74hc165_model_refuses_the_old_25_mhz_chain_program():
    # 40 ns a cycle: SH/LD low, CLK high and low for one cycle each, under tw (59 ns at 3.3 V)
    profile = load("pico-bridge-2x12")
    places = len(profile.sensors.channels)
    chips = _chips(places, [300 + 97 * i for i in range(places)], _values(places))
    old = 25_000_000
    with pytest.raises(HC165TimingError, match=r"74HC165 at 3\.3 V: SH/LD low for 40 ns, "
                                               r"under the 59 ns minimum \(tw\)"):
        read_board(profile, chips, 1, program=firmware().hx711.chain_program(old), freq=old)


def test_the_chain_program_keeps_a_third_to_spare_on_every_74hc165_limit():
    profile = load("pico-bridge-2x12")
    places = len(profile.sensors.channels)
    chips = _chips(places, [300 + 97 * i for i in range(places)], _values(places))
    margin = 4 / 3
    board = read_board(profile, chips, 2, sync_ns=pio_check.SYNC_NS,
                       qh_delay_ns=hc165_limits().tpd, hc165_margin=margin)
    assert board.bench.errors() == []
    closest = board.bench.hc165.closest
    # every rule met at least once, each with its third: tw (CLK high, low; SH/LD low),
    # trec, the chained SER's tpd + tsu, QH's tpd
    assert len(closest) == 6 and min(closest.values()) >= margin, closest
    assert closest["CLK rise to rise"] == pytest.approx(240 / 179)
    for k in range(2):
        decoded = firmware().hx711.unpack(board.reads[k].words, board.loaded.positions)
        assert decoded == _values(places)
