"""The datasheet models of simulator/parts/: each checked against what its datasheet (or the
published measurement it cites) says, independently of the firmware that reads them."""

from __future__ import annotations

from simulator.parts.hc165 import HC165Chain, shift_position


def _shift_out(chain: HC165Chain, bits: int, t: int = 0) -> list[int]:
    """Load, then read `bits` bits off U1's QH, a CLK rising edge after each (as a reader)."""
    chain.load(0, t)
    chain.load(1, t + 1)
    out = []
    for k in range(bits):
        out.append(chain.qh(t + 2 + 2 * k))
        chain.clock(1, t + 2 + 2 * k)
        chain.clock(0, t + 3 + 2 * k)
    return out


def test_a_74hc165_shifts_out_its_h_input_first():
    # SN74HC165 datasheet, logic diagram and function table: QH is the last flip-flop; each
    # CLK rising edge moves A towards H and takes SER into A
    chain = HC165Chain(1)
    levels = {"A": 1, "B": 0, "C": 0, "D": 1, "E": 1, "F": 0, "G": 1, "H": 0}
    for k, pin in enumerate("ABCDEFGH"):
        chain.wire(k, lambda t, v=levels[pin]: v)
    assert _shift_out(chain, 8) == [levels[pin] for pin in "HGFEDCBA"]
    # the last register's SER is tied low: zeros follow
    assert _shift_out(chain, 10)[8:] == [0, 0]


def test_a_chain_puts_out_each_chip_h_to_a_then_the_next():
    chain = HC165Chain(4)
    for k in range(26):                 # sr.0 .. sr.25 wired, sr.26 .. sr.31 tied low
        chain.wire(k, lambda t, k=k: 1 if k % 3 == 0 else 0)
    out = _shift_out(chain, 32)
    for k in range(32):
        assert out[shift_position(k)] == (1 if k < 26 and k % 3 == 0 else 0), k
    assert sorted(shift_position(k) for k in range(32)) == list(range(32))


def test_while_sh_ld_is_low_the_flip_flops_follow_the_inputs():
    chain = HC165Chain(1)
    level = [0]
    chain.wire(7, lambda t: level[0])           # input H: straight to QH while loading
    chain.load(0, 0)
    assert chain.qh(1) == 0
    level[0] = 1
    assert chain.qh(2) == 1                     # asynchronous: no clock needed
    chain.load(1, 3)
    level[0] = 0
    assert chain.qh(4) == 1                     # latched at SH/LD's rising edge
    chain.load(0, 5)
    chain.clock(1, 6)                           # a clock edge while loading is lost
    assert chain.shifts == 0 and "SH/LD is low" in chain.errors[0]
