"""The HX711 driver: the real PIO programs and DMA rings, run by the fake rp2 against the
datasheet models of simulator/parts/ (HX711s converting on their own oscillators, a 74HC165
chain shifting H first)."""

import machine
import loadcells
import hx711
import rp2
import rig
from helpers import raises


def _frames(clock, reader, ms, every=2):
    """Every reading `reader` gives while the clock runs `ms` ms, polled every `every` ms."""
    frames = []
    for _ in range(ms // every):
        clock.advance(every)
        while True:
            frame = reader.read()
            if frame is None:
                break
            frames.append((clock.ticks_ms(), frame))
    return frames


def _trusted(frames, warm_up=3):
    """The readings after the first few (the chips' rhythms are learnt from them)."""
    return [frame for _, frame in frames[warm_up:]]


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
    # the chips are not in step and convert at rates up to 3% apart
    cells = loadcells.direct(2, data, values, phases=[0, 900, 3100, 9000, 50, 6000, 7, 400])
    reader = hx711.HX711Array(2, data)
    frames = _frames(clock, reader, 300)
    assert len(frames) >= 25, len(frames)
    assert all(frame == values for frame in _trusted(frames)), frames[:5]
    for cell in cells:
        assert cell.errors == [], cell.errors       # SCK never high too long, no stray pulse
        assert cell.corrupted == 0 and cell.gain == 128


def test_a_reading_is_made_when_the_last_chip_is_ready():
    """About 93 readings a second (10.7 ms conversions): each at most one conversion of the
    slowest chip late, whenever the CPU polls."""
    clock = rig.fresh_pico()
    cells = loadcells.direct(2, [3, 4], [5, 6], periods=[10702, 10702], phases=[100, 5000])
    reader = hx711.HX711Array(2, [3, 4])
    frames = _frames(clock, reader, 1000, every=5)
    assert 90 <= len(frames) <= 94, len(frames)
    assert cells[0].reads == cells[1].reads == len(frames)
    assert cells[0].overwritten == cells[1].overwritten == 0


def test_no_reading_is_ever_corrupted_by_a_conversion():
    """Chips 3% apart drift through each other's phases many times in 3 s: without a plan,
    a conversion would end inside about one read in 400 of each chip. The planner moves those
    reads; any it could not (or a chip not learnt yet) comes out None, never a wrong number."""
    clock = rig.fresh_pico()
    data = list(range(3, 17))
    values = [1000 * (i + 1) for i in range(14)]
    cells = loadcells.direct(2, data, values, seed=11)
    reader = hx711.HX711Array(2, data)
    frames = _frames(clock, reader, 3000, every=3)
    assert len(frames) > 250
    assert sum(cell.corrupted for cell in cells) == 0, [cell.corrupted for cell in cells]
    assert reader.delays > 0                    # the plan moved some reads
    for frame in _trusted(frames):
        assert frame == values, frame
    assert all(cell.errors == [] for cell in cells)


def test_without_a_plan_the_caught_readings_come_out_missing():
    """The same board with the planner's delays switched off: conversions do end inside
    reads, and every such reading is None — none is passed on as a number."""
    clock = rig.fresh_pico()
    data = list(range(3, 17))
    values = [1000 * (i + 1) for i in range(14)]
    cells = loadcells.direct(2, data, values, seed=11)
    reader = hx711.HX711Array(2, data)
    plan = reader.planner.plan
    reader.planner.plan = lambda after, most_us=8000: (plan(after)[0], 0)
    frames = _frames(clock, reader, 3000, every=3)
    caught = sum(cell.corrupted for cell in cells)
    assert caught > 0
    missing = sum(frame.count(None) for frame in _trusted(frames))
    assert missing >= caught
    for frame in _trusted(frames):
        assert all(value is None or value == values[i] for i, value in enumerate(frame)), frame


def test_a_cpu_away_for_40_ms_loses_nothing():
    """The CPU reads only every 40 ms (as one writing a long LED strip the old way would): the
    DMA keeps the FIFO empty, so no read waits half done, and the readings queue."""
    clock = rig.fresh_pico()
    values = [111, -222, 333]
    cells = loadcells.direct(2, [3, 4, 5], values)
    reader = hx711.HX711Array(2, [3, 4, 5])
    frames = _frames(clock, reader, 1000, every=40)
    assert len(frames) >= 88
    assert all(frame == values for frame in _trusted(frames))
    assert all(cell.errors == [] and cell.corrupted == 0 for cell in cells)
    assert reader._sm.rx_fifo() == 0            # the DMA took every word


def test_saturation_passes_the_converters_limits_on():
    clock = rig.fresh_pico()
    values = [9000000, -9000000, 8388607, -8388608]     # beyond range: the chip clips
    loadcells.direct(2, [3, 4, 5, 6], values)
    reader = hx711.HX711Array(2, [3, 4, 5, 6])
    frames = _frames(clock, reader, 80)
    assert frames[-1][1] == [8388607, -8388608, 8388607, -8388608]


def test_gain_pulses_choose_channel_and_gain():
    for gain in (128, 64, 32):
        clock = rig.fresh_pico()
        cells = loadcells.direct(2, [3, 4], [10, -10])
        reader = hx711.HX711Array(2, [3, 4], gain=gain)
        assert _frames(clock, reader, 60)
        assert [cell.gain for cell in cells] == [gain, gain]
    assert "not 128, 64" in str(raises(ValueError, hx711.HX711Array, 2, [3], 100))


def test_data_pins_are_consecutive_in_any_order():
    clock = rig.fresh_pico()
    data = [6, 3, 5, 4]
    values = [900, -300, 1400, 400]
    loadcells.direct(2, data, values)
    reader = hx711.HX711Array(2, data)
    frames = _frames(clock, reader, 80)
    assert frames and frames[-1][1] == values
    error = raises(ValueError, hx711.HX711Array, 2, [3, 4, 9])
    assert "not consecutive" in str(error), error


def test_the_programs_fit_a_pio_block_and_nothing_else_does():
    rig.fresh_pico()
    error = raises(ValueError, hx711.HX711Array, 0, list(range(1, 32)))
    assert "31 cells" in str(error) and "74HC165" in str(error), error
    assert len(hx711.parallel_program(14, 1)[0]) == 31
    assert len(hx711.chain_program()[0]) == 32
    reader = hx711.HX711Array(2, list(range(3, 17)))
    # PIO block 0's 32 slots are shared by its four state machines: no room for another
    another = hx711.parallel_program(14, 2)
    error = raises(OSError, rp2.StateMachine, 1, another)
    assert error.args[0] == 12, error                   # ENOMEM, as MicroPython says
    rp2.StateMachine(4, another, set_base=machine.Pin(20))     # block 1 has room
    assert rp2.free_slots(0) == 1 and rp2.free_slots(1) == 1
    reader.close()                                      # its slots freed: made again at the REPL
    assert rp2.free_slots(0) == 32
    hx711.HX711Array(2, list(range(3, 17))).close()


def test_chain_of_shift_registers_reads_26_cells():
    clock = rig.fresh_pico()
    values = [(-1) ** i * (i * 300001 % 8000000) for i in range(26)]
    cells, chain = loadcells.chained(2, 3, 4, 5, 26, values)
    reader = hx711.HX711Chain(2, 5, 26)
    frames = _frames(clock, reader, 300)
    assert len(frames) >= 24
    # the rhythms are known after three conversions; on a chain, whose reads are long, the
    # fourth reading may still be one the planner could not place
    assert all(frame == values for frame in _trusted(frames, 4)), frames[4:5]
    assert all(cell.errors == [] and cell.gain == 128 and cell.corrupted == 0 for cell in cells)
    assert chain.model.errors == []
    assert reader.delays > 0                    # a read of 214 us: the plan moves many


def _away_now_and_then(clock, reader, ms, ahead, away_ms=35, every_ms=150):
    """Every reading while the clock runs `ms` ms, polled every ms, the CPU away `away_ms`
    every `every_ms` just after a reading (a garbage collection), its next reads queued
    first when `ahead`. Returns the readings and how many times it was away."""
    frames = []
    away = 0
    due = every_ms
    t = 0
    while t < ms:
        clock.advance(1)
        t += 1
        while True:
            frame = reader.read()
            if frame is None:
                break
            frames.append((t, frame))
            if t >= due and (not ahead or reader.plan_ahead()):
                clock.advance(away_ms)
                t += away_ms
                due = t + every_ms
                away += 1
    return frames, away


def test_reads_queued_ahead_stay_timed_while_the_cpu_is_away():
    """A 26-cell chain (reads of 214 us: the plan moves many) whose CPU is away 35 ms every
    150 ms, as a garbage collection takes it, for 0.9 s: with the next four reads' delays
    queued first (`plan_ahead`), every reading comes out whole and trusted; without, some
    reads catch a conversion (each such reading is None, never a wrong number)."""
    values = [(-1) ** i * (i * 300001 % 8000000) for i in range(26)]
    results = []
    for ahead in (True, False):
        clock = rig.fresh_pico()
        cells, chain = loadcells.chained(2, 3, 4, 5, 26, values, seed=5)
        reader = hx711.HX711Chain(2, 5, 26)
        frames, away = _away_now_and_then(clock, reader, 900, ahead)
        assert away >= 4, away
        results.append((sum(cell.corrupted for cell in cells),
                        sum(frame.count(None) for frame in _trusted(frames)), frames))
        for frame in _trusted(frames):
            assert all(value is None or value == values[i] for i, value in enumerate(frame))
    (corrupted, missing, frames), (corrupted_alone, missing_alone, _) = results
    assert corrupted == 0 and missing == 0, (corrupted, missing)
    assert len(frames) >= 75, len(frames)
    assert missing_alone > 0 and missing_alone >= corrupted_alone, (corrupted_alone,
                                                                      missing_alone)


def test_reads_queued_ahead_stay_timed_when_the_ring_is_passed_over():
    """As above, with the standalone firmware's keep_us (25 ms): back from each 45 ms away
    (a collection), the older readings are passed over, so fewer readings are counted than
    the program made: the reads after it are still planned, and every reading comes out
    whole and trusted."""
    values = [(-1) ** i * (i * 300001 % 8000000) for i in range(26)]
    clock = rig.fresh_pico()
    cells, chain = loadcells.chained(2, 3, 4, 5, 26, values, seed=5)
    reader = hx711.HX711Chain(2, 5, 26)
    reader.keep_us = 25000
    frames, away = _away_now_and_then(clock, reader, 900, True, away_ms=45)
    assert away >= 4 and reader.passed_over == away, (away, reader.passed_over)
    missing = sum(frame.count(None) for frame in _trusted(frames))
    assert (sum(cell.corrupted for cell in cells), missing, reader.late) == (0, 0, 0)


def test_plan_ahead_waits_for_a_plan():
    """Nothing to queue before the chips' rhythms are known, nor twice for the same reads."""
    clock = rig.fresh_pico()
    loadcells.direct(2, [3, 4], [5, 6])
    reader = hx711.HX711Array(2, [3, 4])
    assert not reader.plan_ahead()              # no reading yet
    frames = _frames(clock, reader, 200, every=1)
    assert frames and frames[-1][1] == [5, 6]
    clock.advance(1)
    while reader.read() is None:
        clock.advance(1)
    assert reader.plan_ahead()
    assert not reader.plan_ahead()              # those reads are queued already
    assert not reader.plan_ahead(5)             # the FIFO holds four


def test_chain_limits():
    rig.fresh_pico()
    assert "1..31" in str(raises(ValueError, hx711.HX711Chain, 2, 5, 32))
    assert "gain 128" in str(raises(ValueError, hx711.HX711Chain, 2, 5, 8, 64))
    assert "next" in str(raises(ValueError, hx711.HX711Chain, 28, 5, 8))


def test_a_cpu_away_for_a_flash_write_revives_nothing():
    """The CPU away 170 ms (a move's journal written to the flash takes up to 160 ms) while
    the chips convert and the program reads them into the ring: the readings were there all
    along, so nothing is stalled and no chip is powered down; the readings carry on."""
    clock = rig.fresh_pico()
    values = [5, 6, -7]
    loadcells.direct(2, [3, 4, 5], values)
    reader = hx711.HX711Array(2, [3, 4, 5], clock=clock)
    assert len(_frames(clock, reader, 100)) >= 8
    clock.advance(170)                          # away: no read() meanwhile
    after = _frames(clock, reader, 100)
    assert (reader.revivals, reader.restarts) == (0, 0), (reader.revivals, reader.restarts)
    assert len(after) >= 8 and after[-1][1] == values


def test_back_from_a_flash_write_only_the_newest_readings_are_parsed():
    """Back from 170 ms away, the reader passes over the ring's entries older than KEEP_US
    (their readings would leave the queue unread) and starts again at the next read, wherever
    in the ring that lands, a read's words included: the chips' rhythms stay as they were,
    the readings after it come whole, and none is caught by a conversion. Away longer than
    GONE_US (the ring may have gone round) the same, from the oldest entries it keeps; no
    chip is taken for stalled."""
    for away in (163, 170, 177, 230):           # the cut lands at three places of the stream
        clock = rig.fresh_pico()
        values = [5, 6, -7]
        cells = loadcells.direct(2, [3, 4, 5], values)
        reader = hx711.HX711Array(2, [3, 4, 5], clock=clock)
        assert len(_frames(clock, reader, 200)) >= 15
        periods = reader.periods_us()
        clock.advance(away)
        queued = []
        while True:
            frame = reader.read()
            if frame is None:
                break
            queued.append(frame)
        assert (reader.passed_over, reader.restarts, reader.revivals) == (
            1, int(away * 1000 > hx711.GONE_US), 0), away
        # the readings kept: those begun in the last KEEP_US, every cell of them whole
        assert 6 <= len(queued) <= hx711.QUEUE and queued == [values] * len(queued), (
            away, queued)
        after = _frames(clock, reader, 200)
        assert len(after) >= 15 and all(frame == values for _, frame in after), away
        assert [abs(p - q) <= q // 100 for p, q in zip(reader.periods_us(), periods)] == [
            True] * 3, (away, periods, reader.periods_us())
        assert all(cell.corrupted == 0 for cell in cells), away


def test_a_reader_first_drained_late_parses_only_the_newest():
    """A firmware that starts its loop a while after its reader (a journal replayed): the
    ring has gone round, and the first drain takes up its last keep_us as after an absence."""
    clock = rig.fresh_pico()
    values = [5, 6, -7]
    loadcells.direct(2, [3, 4, 5], values)
    reader = hx711.HX711Array(2, [3, 4, 5], clock=clock)
    clock.advance(300)
    queued = _frames(clock, reader, 1, every=1)
    assert (reader.passed_over, reader.restarts, reader.revivals) == (1, 1, 0)
    assert 1 <= len(queued) <= hx711.QUEUE, queued
    after = _frames(clock, reader, 200)
    assert len(after) >= 15 and [frame for _, frame in after[-10:]] == [values] * 10


def test_a_chip_left_half_read_is_revived():
    """A glitch on PD_SCK (two pulses the program did not make) leaves one chip half way
    through a read, its DOUT held at a data bit: the program would wait for it for ever. After
    150 ms without a reading every chip is powered down and up, and the readings resume."""
    clock = rig.fresh_pico()
    values = [0x7FFFFF, 5, 6]                   # chip 0's bits are ones: its DOUT stays high
    cells = loadcells.direct(2, [3, 4, 5], values)
    reader = hx711.HX711Array(2, [3, 4, 5], clock=clock)
    assert len(_frames(clock, reader, 100)) >= 8
    while cells[0].dout(machine.now_us()) or cells[1].dout(machine.now_us()) == 0:
        clock.advance(1)                        # the glitch: chip 0 has a result, chip 1 not
        reader.read()
    now = machine.now_us()
    for k in range(2):
        cells[0].sck(1, now + 2 * k)
        cells[0].sck(0, now + 2 * k + 1)
    assert cells[0].dout(now + 10) == 1 and cells[0].pulses == 2
    stalled = _frames(clock, reader, 120)
    assert len(stalled) <= 1 and reader.revivals == 0
    after = _frames(clock, reader, 200)
    assert reader.revivals == 1 and len(after) >= 10
    assert after[-1][1] == values
    assert any("powered down" in error for error in cells[0].errors)


# --- a cell unplugged or dead never stops the others --------------------------------------


def _last_readings(frames, ms, now):
    """The readings of the last `ms` ms of `frames` (taken up to `now`)."""
    return [frame for t, frame in frames if t > now - ms]


def test_an_unplugged_cell_reads_none_and_the_others_read_on():
    """Cell 1's connector comes out mid-game: its DOUT GPIO, pulled down, reads low for
    ever, which the program takes for a result always ready, and the bits of 0. Its DOUT no
    longer moving, its readings come out None within a few conversions; the others are read
    on, every one; plugged in again, it is read again."""
    clock = rig.fresh_pico()
    values = [111, -222, 333, -444]
    data = [3, 4, 5, 6]
    cells = loadcells.direct(2, data, values)
    reader = hx711.HX711Array(2, data)
    assert [machine.line(pin).pull for pin in data] == [machine.Pin.PULL_DOWN] * 4
    assert _frames(clock, reader, 150)[-1][1] == values and reader.absent == 0
    loadcells.unplug(cells[1])
    gone = _frames(clock, reader, 300)
    assert len(gone) >= 25                      # a reading every conversion, as before
    late = _last_readings(gone, 150, clock.ticks_ms())
    assert late and all(frame == [111, None, 333, -444] for frame in late), late
    assert reader.absent == 0b10 and reader.masked == 0
    # no reading of 0 slipped through for long: three conversions and a look (50 ms)
    zeros = [t for t, frame in gone if frame[1] == 0]
    assert len(zeros) <= 10, zeros
    loadcells.plug(cells[1])
    back = _frames(clock, reader, 300)
    assert back[-1][1] == values and reader.absent == 0
    assert all(cell.errors == [] for cell in (cells[0], cells[2], cells[3]))


def test_an_unplugged_cell_on_a_chain_reads_none_and_the_others_read_on():
    """The same on a 74HC165 chain: the cell's chain input held low by its pull-down
    resistor (hardware/README.md)."""
    clock = rig.fresh_pico()
    values = [(-1) ** i * 1000 * (i + 1) for i in range(8)]
    cells, chain = loadcells.chained(2, 3, 4, 5, 8, values)
    reader = hx711.HX711Chain(2, 5, 8)
    assert _frames(clock, reader, 150)[-1][1] == values
    loadcells.unplug(cells[5])
    gone = _frames(clock, reader, 300)
    late = _last_readings(gone, 150, clock.ticks_ms())
    assert len(late) >= 12 and all(frame[5] is None for frame in late), late
    # the others read on, each reading its value (now and then one a conversion may have
    # caught comes out None: a read of 214 us is planned among eight chips' conversions)
    others = [frame[:5] + frame[6:] for frame in late]
    assert all(v is None or v == w for frame in others
               for v, w in zip(frame, values[:5] + values[6:])), others
    assert sum(frame.count(None) for frame in others) <= 2, others
    assert reader.absent == 1 << 5
    loadcells.plug(cells[5])
    assert _frames(clock, reader, 300)[-1][1] == values and reader.absent == 0
    assert chain.model.errors == []


def test_a_dout_held_high_is_masked_and_the_others_read_on():
    """A cell whose DOUT stays high (a chip powered down, its PD_SCK wire off and floating
    high; or without power behind a pull-up): the program, waiting for every DOUT low,
    would wait for ever. After 150 ms without a reading that GPIO's input is forced low
    for the PIO (IO_BANK0 GPIOn_CTRL.INOVER) and the others are read on; once its pad reads
    low again (a chip with a result), it is given back."""
    clock = rig.fresh_pico()
    values = [111, -222, 333]
    data = [3, 4, 5]
    cells = loadcells.direct(2, data, values)
    reader = hx711.HX711Array(2, data, clock=clock)
    assert _frames(clock, reader, 100)[-1][1] == values
    loadcells.unplug(cells[2])
    machine.source(5, lambda t_us: 1)           # held high
    held = _frames(clock, reader, 400)
    assert reader.masked == 0b100 and reader.masks == 1 and reader.absent == 0b100
    ctrl = machine.mem32[hx711.IO_BANK0 + 8 * 5 + 4]
    assert ctrl >> 16 & 3 == 2                  # INOVER: the input forced low
    late = _last_readings(held, 150, clock.ticks_ms())
    assert len(late) >= 10 and all(frame == [111, -222, None] for frame in late), late
    loadcells.plug(cells[2])                    # back: its DOUT falls at its first result
    back = _frames(clock, reader, 300)
    assert reader.masked == 0 and reader.absent == 0 and back[-1][1] == values
    assert machine.mem32[hx711.IO_BANK0 + 8 * 5 + 4] >> 16 & 3 == 0
    reader.close()
