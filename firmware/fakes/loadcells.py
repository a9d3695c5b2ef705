"""HX711 load-cell converters and a chain of 74HC165 shift registers on the fake pins (tests
only).

The parts themselves are the datasheet models of simulator/parts/ (hx711.py, hc165.py): an
HX711 converts on its own oscillator, about every 10.7 ms at RATE high with a spread from chip
to chip, replaces a result nobody read with DOUT high for 75 us, and corrupts a read that a
conversion interrupts; the 74HC165s shift out each chip's H input first. This module only wires
them to the fake `machine`: each HX711 watches its PD_SCK GPIO and drives its DOUT (directly, or
into a chain input), telling the pins when DOUT may next change so that a PIO program waiting
for it wakes at that microsecond.

    cells = direct(sck=2, data=[3, 4, 5])       # three HX711s, DOUT on GPIO 3, 4, 5
    cells[0].value = -1234                      # what its next conversions read
    unplug(cells[1]); plug(cells[1])            # its connector out, and in again

Works under MicroPython and CPython.
"""

import machine
from simulator.parts.hc165 import HC165Chain
from simulator.parts.hx711 import HX711, spread_periods

SPREAD = 0.03           # the chips' oscillators differ by up to 3% (simulator/parts/hx711.py)
JITTER_US = 20          # each conversion's end wanders by up to this (olkal: +-20 us)


def _chips(sck, count, values, phases, periods, seed):
    if periods is None:
        periods = spread_periods(count, SPREAD, seed)
    made = []
    for i in range(count):
        chip = HX711(periods[i], None if phases is None else phases[i], jitter_us=JITTER_US,
                     seed=seed + i)
        chip.value = 0 if values is None else values[i]
        chip.plugged = True
        chip.wired = None               # where its DOUT goes: a GPIO, or (chain, input)
        machine.watch(sck, _clocked(chip))
        made.append(chip)
    return made


def _clocked(chip):
    def sck(level, t_us):
        if chip.plugged:
            chip.sck(level, t_us)
    return sck


def _connect(chip):
    if isinstance(chip.wired, int):
        machine.source(chip.wired, chip.dout, chip.next_change)
    else:
        chain, k = chip.wired
        chain.model.inputs[k] = chip.dout


def unplug(chip):
    """A cell's connector comes out (DOUT, PD_SCK, power): what its DOUT drove is left to the
    pull-down there (the Pico's own on a GPIO; a resistor on a 74HC165 input, which the
    chain model reads as a tied input: low)."""
    chip.plugged = False
    if isinstance(chip.wired, int):
        machine.source(chip.wired, None)
    else:
        chain, k = chip.wired
        chain.model.inputs[k] = None


def plug(chip):
    """The cell's connector goes in again: the chip powers up afresh (a period to its first
    conversion) and drives its DOUT."""
    chip.power_up(machine.now_us())
    chip.plugged = True
    _connect(chip)


def direct(sck, data, values=None, phases=None, periods=None, seed=7):
    """HX711s sharing clock GPIO `sck`, the DOUT of cell i on GPIO data[i]; returns them.
    `phases` (when each one's first conversion ends) and `periods` default to a board's worth
    of unsynchronised chips drawn from `seed`."""
    cells = _chips(sck, len(data), values, phases, periods, seed)
    for i in range(len(data)):
        cells[i].wired = data[i]
        _connect(cells[i])
    return cells


class ShiftChain:
    """74HC165s in a chain on the fake pins: SH/LD on `latch`, CLK on `clock`, U1's QH on
    `serial`; the registers are simulator/parts/hc165.py's datasheet model (H shifted out
    first). `inputs[k]` is the chain input k's (level, next_change) pair (chip k // 8's input
    "ABCDEFGH"[k % 8]; None: tied low)."""

    def __init__(self, latch, clock, serial, inputs):
        self.model = HC165Chain((len(inputs) + 7) // 8)
        for k in range(len(inputs)):
            if inputs[k] is not None:
                self.model.wire(k, inputs[k][0], inputs[k][1])
        self.latch_gpio = latch
        machine.watch(latch, self.model.load)
        machine.watch(clock, self.model.clock)
        machine.source(serial, self.model.qh, self.model.next_change)

    @property
    def shifts(self):
        return self.model.shifts


def chained(sck, latch, clock, serial, cells, values=None, phases=None, periods=None,
            seed=7):
    """`cells` HX711s sharing clock `sck`, their DOUTs on the inputs of a 74HC165 chain read
    through `latch`, `clock` and `serial`: cell k on chain input k (chip k // 8's input
    "ABCDEFGH"[k % 8], as the profiles wire `sr.k`); the rest of the last register's inputs
    are tied low. Returns (cells, chain)."""
    made = _chips(sck, cells, values, phases, periods, seed)
    registers = (cells + 7) // 8
    inputs = [(cell.dout, cell.next_change) for cell in made] + [None] * (
        8 * registers - cells)
    chain = ShiftChain(latch, clock, serial, inputs)
    for k in range(cells):
        made[k].wired = (chain, k)
    return made, chain
