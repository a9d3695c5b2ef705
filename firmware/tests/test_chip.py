"""main.py names the chip at boot and refuses one it does not support (issue 40): the RP2040
runs; an RP2350 (a Pico 2) or an unknown chip starts nothing, says what to do and shows the
chip pattern, every other LED dim red."""

import machine
import neopixel
import rp2
import rig
import main
from bridge import Bridge, FIRMWARE
from port import MemoryPort

PICO = "Raspberry Pi Pico with RP2040"          # sys.implementation._machine on each board
PICO2 = "Raspberry Pi Pico2 with RP2350"


def test_the_chip_id_register_names_the_chip():
    rp2040 = main.Chip(0x10002927, PICO)          # an RP2040 B1 (rp2040js's answer)
    assert (rp2040.name, rp2040.part, rp2040.revision, rp2040.supported) == (
        "RP2040", 2, 1, True)
    rp2350 = main.Chip(0x20004927, PICO2)         # an RP2350 A2
    assert (rp2350.name, rp2350.part, rp2350.revision, rp2350.supported) == (
        "RP2350", 4, 2, False)
    # machine.mem32 reads a word as a signed int: a revision 8 and up comes negative
    assert main.Chip(0x80002927 - 0x100000000, PICO).name == "RP2040"
    # the register decides, not the build's words; another maker's part is unknown
    assert main.Chip(0x20004927, PICO).name == "RP2350"
    assert main.Chip(0x10002123, PICO).name == "unknown"
    assert main.Chip(0, "").name == "unknown"


def test_the_pico_reads_an_rp2040():
    rig.fresh_pico()
    chip = main.read_chip()                       # the fake machine answers as an RP2040 B1
    assert chip.name == "RP2040" and chip.chip_id == 0x10002927


def _chip_pattern(count):
    """What the strip's data line gets for the chip pattern: G, R, B, every other LED dim red."""
    out = bytearray()
    for i in range(count):
        red = main.CHIP_COLOUR[0] if i % 2 == 0 else 0
        out.extend(bytes([0, red, 0]))
    return bytes(out)


def test_an_rp2350_starts_nothing_and_shows_the_chip_pattern():
    clock = rig.fresh_pico()
    chip = main.Chip(0x20004927, PICO2)
    config = rig.board_config("bridge")
    assert main.start(config, clock, MemoryPort(), chip=chip) is None
    # not the load cells' PIO and DMA, not the LED strip's, not the watchdog
    assert rp2.StateMachine.machines() == {} and machine.WDT.instance is None
    strips = neopixel.NeoPixel.instances
    assert len(strips) == 1 and strips[0].writes == [_chip_pattern(28)]
    line = main.chip_refusal(chip)
    assert "RP2350" in line and "0x20004927" in line and PICO2 in line
    assert "use a Raspberry Pi Pico (RP2040)" in line and "RPI_PICO2" in line
    assert "every other LED dim red" in line


def test_an_unknown_chip_is_refused_too_in_standalone_mode():
    clock = rig.fresh_pico()
    chip = main.Chip(0, "")
    config = rig.board_config("standalone")
    assert main.start(config, clock, chip=chip) is None
    assert rp2.StateMachine.machines() == {}
    assert neopixel.NeoPixel.instances[0].writes == [_chip_pattern(28)]
    assert "chip is unknown (CHIP_ID 0x00000000" in main.chip_refusal(chip)


def test_the_chip_pattern_follows_the_strips_colour_order():
    clock = rig.fresh_pico()
    config = rig.board_config("bridge", leds={"pin": rig.LED_PIN, "count": 4, "order": "RGB"})
    main.start(config, clock, MemoryPort(), chip=main.Chip(0x20004927, PICO2))
    assert neopixel.NeoPixel.instances[0].writes == [bytes([32, 0, 0, 0, 0, 0] * 2)]


def test_an_rp2040_starts_the_bridge_which_names_it_in_its_hello():
    clock = rig.fresh_pico()
    port = MemoryPort()
    app = main.start(rig.board_config("bridge"), clock, port, chip=main.Chip(0x10002927, PICO))
    assert isinstance(app, Bridge) and neopixel.NeoPixel.instances == []
    host = rig.Host(clock, port)
    app.start()
    host.pump()
    hello = host.of("Hello")[0]
    assert hello.firmware == "%s RP2040" % FIRMWARE
