"""What MicroPython's compiler adds to builtins, for pyright (firmware/pyrightconfig.json).

Inside a `@micropython.viper` function the types `ptr8`, `ptr16` and `ptr32` (a raw pointer
to bytes, half-words or words: `ptr32(buffer)` or `ptr32(address)`, indexed to read and write
machine words) and `uint` (an unsigned machine word: `uint(x)`) are names of their own, like
`int`, and are never imported (MicroPython's docs: "Maximising MicroPython speed", the viper
code emitter). Pyright looks for a `__builtins__.pyi` in its stubPath and adds what it
declares to every module's builtins. This one replaces the stubs' own, which declares
`const` as a builtin: MicroPython's compiler takes `X = const(1)` without an import only at
a module's top level, and the firmware runs under CPython too, so `const` must always be
imported from `micropython` (with a CPython fallback).

A pointer parameter takes any buffer (bytes, bytearray, array, memoryview) or an address; the
viper emitter converts it at the call.
"""

from array import array
from typing import Union

_Buffer = Union[bytes, bytearray, memoryview, array, int, "_Pointer"]

class _Pointer:
    def __init__(self, buffer_or_address: _Buffer, /) -> None: ...
    def __getitem__(self, index: int, /) -> int: ...
    def __setitem__(self, index: int, value: int, /) -> None: ...

class ptr8(_Pointer):
    """A pointer to bytes: ptr8(buffer)[i] is byte i, 0..255."""

class ptr16(_Pointer):
    """A pointer to 16-bit half-words."""

class ptr32(_Pointer):
    """A pointer to 32-bit words (signed as they come out)."""

class uint(int):
    """An unsigned machine word: uint(x) reads x's bits as unsigned."""
