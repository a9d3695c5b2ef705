"""A fake `uctypes`: `addressof` gives a buffer the fake address that the fake DMA and
`machine.mem32` reach it by (tests only; fakes/machine.py keeps the memory map).

MicroPython's own uctypes is built in, and a file of that name would not replace it, so the
fake `machine` puts this module in `sys.modules["uctypes"]` when it is imported (on CPython
too, for the same behaviour on both).

Works under MicroPython and CPython.
"""

import machine


def addressof(buffer):
    return machine.address_of(buffer)
