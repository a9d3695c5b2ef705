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
        machine.watch(sck, chip.sck)
        made.append(chip)
    return made


def direct(sck, data, values=None, phases=None, periods=None, seed=7):
    """HX711s sharing clock GPIO `sck`, the DOUT of cell i on GPIO data[i]; returns them.
    `phases` (when each one's first conversion ends) and `periods` default to a board's worth
    of unsynchronised chips drawn from `seed`."""
    cells = _chips(sck, len(data), values, phases, periods, seed)
    for i in range(len(data)):
        machine.source(data[i], cells[i].dout, cells[i].next_change)
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
    return made, ShiftChain(latch, clock, serial, inputs)
