"""The fakes the other tests stand on: the PIO assembler's words are the RP2040's (datasheet
section 3.4), and the emulator runs them as the chip would."""

import machine
import rp2
import rig
from helpers import raises


def test_instruction_words_are_the_rp2040s():
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW)
    def program():
        pull(block)
        mov(x, osr)
        label("loop")
        set(pins, 1).side(1)[2]     # side-set on 2 of 9: optional, 1 enable + 1 value bit
        in_(x, 4).side(0)
        jmp(x_dec, "loop")
        wrap_target()
        wait(1, gpio, 9)
        out(y, 3)
        mov(isr, reverse(y))
        push(noblock)
        wrap()

    assert list(program[0]) == [
        0x80A0,     # PULL block
        0xA027,     # MOV x, osr
        0xFA01,     # SET pins, 1   side 1 [2]: enable bit 12, value bit 11, delay bits 10..8
        0x5024,     # IN x, 4       side 0
        0x0042,     # JMP x--, 2
        0x2089,     # WAIT 1 gpio 9
        0x6043,     # OUT y, 3
        0xA0D2,     # MOV isr, ::y
        0x8000,     # PUSH noblock
    ]
    execctrl = program[3]
    assert execctrl >> 7 & 0x1F == 5 and execctrl >> 12 & 0x1F == 8     # wrap target, top
    assert execctrl >> 30 & 1 == 1                                       # side-set optional
    error = raises(rp2.PIOASMError, rp2.asm_pio(), _jump_nowhere)
    assert "unknown label nowhere" in str(error)


def _jump_nowhere():
    jmp("nowhere")                  # noqa: F821 (a PIO name)


def test_the_emulator_runs_them_as_the_chip_would():
    @rp2.asm_pio(set_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_RIGHT, autopush=True,
                 push_thresh=8)
    def program():
        pull(block)                 # osr = what the CPU puts
        mov(x, osr)
        label("loop")
        set(pins, 1)[2]             # 3 cycles high
        set(pins, 0)
        in_(x, 4)                   # x's low nibble; two make a byte, which autopush pushes
        jmp(x_dec, "loop")
        wrap_target()
        wait(1, gpio, 9)
        out(y, 3)                   # the low 3 bits of osr (shifting right)
        mov(isr, reverse(y))
        push(noblock)
        wrap()

    clock = rig.fresh_pico()
    sm = rp2.StateMachine(0, program, freq=1000000, set_base=machine.Pin(4))
    edges = []
    machine.watch(4, lambda level, t: edges.append((level, t)))
    sm.active(1)
    assert sm.rx_fifo() == 0 and sm.steps == 0             # PULL waits for data
    sm.put(3)
    assert [sm.get(), sm.get()] == [0x32, 0x10]             # nibbles 3, 2 and 1, 0
    assert sm.rx_fifo() == 0                                # WAIT: GPIO 9 is low
    # 1 us a cycle: PULL and MOV, then SET [2] 3 cycles, SET, IN, JMP: 6 a turn
    assert edges[:4] == [(1, 2), (0, 5), (1, 8), (0, 11)]
    clock.advance(1)
    machine.drive(9, 1)
    assert sm.get() == 0xC0000000                           # 3 reversed: bits 31 and 30
    # then OUT gives 0 each time; PUSH noblock drops what a full FIFO cannot take, and the
    # emulator sees the loop can no longer change anything: it stops
    assert sm.rx_fifo() == 4 and [sm.get() for _ in range(4)] == [0, 0, 0, 0]


def test_a_delay_loop_takes_its_exact_time_however_often_the_cpu_looks():
    """A `jmp x--` onto itself is run in one go (a delay of thousands of cycles would
    otherwise be thousands of steps), but never past the time being caught up to: the pin
    rises on the very cycle stepping gives, whether the CPU looks in every millisecond or
    only once."""
    @rp2.asm_pio(set_init=rp2.PIO.OUT_LOW)
    def program():
        pull(block)
        mov(x, osr)
        label("delay")
        jmp(x_dec, "delay")         # x + 1 turns of 1 cycle
        set(pins, 1)
        set(pins, 0)

    for looks in (1, 12):
        clock = rig.fresh_pico()
        sm = rp2.StateMachine(0, program, freq=1000000, set_base=machine.Pin(4))
        edges = []
        machine.watch(4, lambda level, t: edges.append((level, t)))
        sm.active(1)
        sm.put(11000)               # PULL at 0 us, MOV at 1, the loop from 2 to 11002
        for _ in range(looks):
            clock.advance(12 // looks)
            sm.rx_fifo()            # the CPU looks: the machine catches up to now
            if clock.now_ms < 11:
                assert edges == [], (looks, edges)
        assert edges == [(1, 11003), (0, 11004)], (looks, edges)
        assert sm.steps == 2 + 11001 + 2, sm.steps
