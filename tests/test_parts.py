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


def _edge_by_edge(chip, t_us: int, pulses: int, step_us: int) -> int:
    """A read with `sck` and `dout`, as clock_out promises to make it: each pulse high and low
    within its microsecond, DOUT sampled after each of the first 24 falls."""
    word = 0
    for k in range(pulses):
        t = t_us + k * step_us
        chip.sck(1, t)
        chip.sck(0, t)
        if k < 24:
            word = word << 1 | chip.dout(t)
    return word


def _state(chip) -> dict:
    state = dict(vars(chip))
    state["_rng"] = chip._rng.state
    state["errors"] = list(chip.errors)
    return state


def test_clock_out_is_the_read_edge_by_edge():
    """`HX711.clock_out` does in one call what 25-27 pulses on `sck` do: the same word, and the
    chip left in the same state, whether the read is clean, caught by a conversion (the bits
    after it the new result's, ones during its update), or made with no result ready (an
    error, ones shifted out)."""
    import random

    from simulator.parts.hx711 import HX711

    rng = random.Random(5)
    outcomes = {"clean": 0, "corrupted": 0, "unready": 0}
    for trial in range(3000):
        period, phase = rng.randint(10_300, 11_100), rng.randint(1, 11_100)
        chips = [HX711(period, phase, jitter_us=20, seed=trial + 1) for _ in range(2)]
        t = after = 1
        for _ in range(rng.randint(1, 4)):
            value = rng.randint(-9_000_000, 9_000_000)          # beyond the rails too
            for chip in chips:
                chip.value = value
            # near a DOUT change (a conversion's end, or its update's), often just before a
            # conversion ends (inside the read), else anywhere
            u = rng.random()
            if u < 0.4:
                t = chips[0].next_change(t) + rng.choice((-30, -10, -1, 0, 5, 80))
            elif u < 0.7:
                for chip in chips:
                    chip.advance(t)
                t = chips[0].next_end_us - rng.randint(0, 30)
            else:
                t += rng.randint(0, 2 * period)
            t = max(t, after)                                   # time goes forward
            pulses, step = rng.choice((25, 26, 27)), rng.choice((1, 1, 2))
            # a result waits and no read is half done: a reader would start now
            ready = [chip.dout(t) for chip in chips] == [0, 0] and chips[0].pulses == 0
            corrupted = chips[0].corrupted
            word = chips[0].clock_out(t, pulses, step)
            assert word == _edge_by_edge(chips[1], t, pulses, step)
            assert _state(chips[0]) == _state(chips[1])
            after = t = t + pulses * step
            if not ready:
                outcomes["unready"] += 1
            elif chips[0].corrupted > corrupted:
                outcomes["corrupted"] += 1     # (after the 24th bit, the word is whole)
                assert chips[0].last_read[1] is False or chips[0].last_read[0] == word
            else:
                outcomes["clean"] += 1
                assert chips[0].last_read == (word, True)
    assert min(outcomes.values()) > 20, outcomes
