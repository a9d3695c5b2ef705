"""The HX711 driver: the real PIO programs, run by the fake rp2 against fake converters."""

import machine
import loadcells
import hx711
import rig
from helpers import raises


def _frames(clock, cells_reader, ms, every=2):
    frames = []
    for _ in range(ms // every):
        clock.advance(every)
        frame = cells_reader.read()
        if frame is not None:
            frames.append((clock.ticks_ms(), frame))
    return frames


def test_to_signed_and_unpack():
    assert [hx711.to_signed(raw) for raw in (0, 1, 0x7FFFFF, 0x800000, 0xFFFFFF)] == [
        0, 1, 8388607, -8388608, -1]
    # two cells, at bits 0 and 3 of each word: 0x800001 (MSB and LSB set) and 0x7FFFFE
    words = [0b0001] + [0b1000] * 22 + [0b0001]
    assert hx711.unpack(words, [0, 3]) == [-0x7FFFFF, 0x7FFFFE]


def test_parallel_read_gives_each_cells_signed_value():
    clock = rig.fresh_pico()
    values = [0, 1, -1, 8388607, -8388608, 123456, -654321, 4000000]
    data = [3, 4, 5, 6, 7, 8, 9, 10]
    # the chips are not in step: their conversions end at different moments
    cells = loadcells.direct(2, data, values, phases=[0, 900, 3100, 12000, 50, 6000, 7, 400])
    reader = hx711.HX711Array(2, data)
    frames = _frames(clock, reader, 300)
    assert frames and all(frame == values for _, frame in frames), frames[:2]
    for cell in cells:
        assert cell.errors == [], cell.errors       # SCK never high too long, no stray pulse
        assert cell.gain == 128


def test_80_frames_a_second_each_read_once():
    clock = rig.fresh_pico()
    cells = loadcells.direct(2, [3, 4], [5, 6], phases=[0, 5000])
    reader = hx711.HX711Array(2, [3, 4])
    frames = _frames(clock, reader, 1000, every=1)
    # conversions end every 12.5 ms from 12.5 (and 17.5) ms on: 79 of them by 1 s
    assert 78 <= len(frames) <= 80, len(frames)
    assert cells[0].reads == len(frames) and cells[1].reads == len(frames)
    gaps = [frames[k + 1][0] - frames[k][0] for k in range(len(frames) - 1)]
    assert min(gaps) >= 12 and max(gaps) <= 13, gaps


def test_saturation_passes_the_converters_limits_on():
    clock = rig.fresh_pico()
    values = [9000000, -9000000, 8388607, -8388608]     # beyond range: the chip clips
    loadcells.direct(2, [3, 4, 5, 6], values)
    reader = hx711.HX711Array(2, [3, 4, 5, 6])
    frames = _frames(clock, reader, 40)
    assert frames[-1][1] == [8388607, -8388608, 8388607, -8388608]


def test_gain_pulses_choose_channel_and_gain():
    for gain in (128, 64, 32):
        clock = rig.fresh_pico()
        cells = loadcells.direct(2, [3, 4], [10, -10])
        reader = hx711.HX711Array(2, [3, 4], gain=gain)
        assert _frames(clock, reader, 60)
        assert [cell.gain for cell in cells] == [gain, gain]
    assert "not 128, 64" in str(raises(ValueError, hx711.HX711Array, 2, [3], 100))


def test_data_pins_need_not_be_consecutive_or_in_order():
    clock = rig.fresh_pico()
    data = [9, 3, 14, 4]                    # GPIO 5..8 and 10..13 lie between, unused
    values = [900, -300, 1400, 400]
    loadcells.direct(2, data, values)
    machine.drive(6, 1)                     # something else high in the span: not a cell
    reader = hx711.HX711Array(2, data)
    frames = _frames(clock, reader, 60)
    assert frames and frames[-1][1] == values


def test_a_late_reader_stalls_the_program_with_sck_low():
    """The CPU does not read for 40 ms: the 8-word FIFO fills mid-frame and the program waits
    with SCK low, which the HX711 tolerates; no reading is torn, and the next ones follow."""
    clock = rig.fresh_pico()
    values = [111, -222, 333]
    cells = loadcells.direct(2, [3, 4, 5], values)
    reader = hx711.HX711Array(2, [3, 4, 5])
    clock.advance(40)
    assert reader._sm.rx_fifo() == 8            # full, and stalled
    assert machine.level(2) == 0                # SCK low while it waits
    frames = _frames(clock, reader, 50)
    assert all(frame == values for _, frame in frames) and len(frames) >= 4
    assert all(cell.errors == [] for cell in cells)


def test_at_most_23_cells_on_one_program():
    rig.fresh_pico()
    error = raises(ValueError, hx711.HX711Array, 0, list(range(1, 23)) + [26, 27])
    assert "24 cells" in str(error) and "74HC165" in str(error), error
    # 23 is the most: 23 WAITs and 9 instructions fill the PIO's 32
    clock = rig.fresh_pico()
    data = list(range(1, 23)) + [26]
    loadcells.direct(0, data, list(range(23)))
    reader = hx711.HX711Array(0, data)
    assert len(reader._sm.code) == 32
    assert _frames(clock, reader, 30)[-1][1] == list(range(23))


def test_chain_of_shift_registers_reads_26_cells():
    clock = rig.fresh_pico()
    values = [(-1) ** i * (i * 300001 % 8000000) for i in range(26)]
    phases = [i * 457 % 12500 for i in range(26)]
    cells, chain = loadcells.chained(2, 3, 4, 5, 26, values, phases)
    reader = hx711.HX711Chain(2, 5, 26, gain=64)
    frames = _frames(clock, reader, 100)
    assert frames and all(frame == values for _, frame in frames), frames[:1]
    assert all(cell.errors == [] and cell.gain == 64 for cell in cells)
    # 4 registers: 32 bits checked and 32 per conversion bit
    assert chain.shifts >= 24 * 32 * len(frames)


def test_chain_limits():
    rig.fresh_pico()
    assert "1..32" in str(raises(ValueError, hx711.HX711Chain, 2, 5, 33))
    assert "next" in str(raises(ValueError, hx711.HX711Chain, 28, 5, 8))
