"""Datasheet models of the board's parts: the HX711 load-cell converter, the 74HC165 shift
register, the WS2812B LED.

Each model follows its part's datasheet and the measurements published about it (cited in
its module), not our firmware: the firmware's fakes (firmware/fakes/) and the simulator's
load cells (simulator/sensors.py) both stand on these, so a test that passes against them
passes against what the part does, as far as anyone has measured it.

Written in the MicroPython subset (times in whole microseconds, small ints, no hints): the
firmware's tests run them under real MicroPython too. The emulated Pico's harness
(firmware/emulator/devices.mjs) implements the same models in JavaScript, and a test drives
both with the same edges.
"""
