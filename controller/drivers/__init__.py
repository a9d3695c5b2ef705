"""The Raspberry Pi's drivers: the board's hardware behind small objects (host-only).

- `neopixels.NeoPixelStrip`: shows the `(r, g, b)` list that `controller.guide.pixels.render()`
  returns on a WS2812 strip (adafruit-circuitpython-neopixel).
- `gpio.BoardButtons`, `gpio.BoardBuzzer`, `gpio.PitSensors`: the buttons (new game, undo, hint,
  confirm), the buzzer's beeps and the digital pit sensors of the `pi-direct` profile (gpiozero).
- `expander.ExpanderPits`: the pit sensors of a 2 x 12 `pi-direct` board behind MCP23017 I2C
  expanders (adafruit-circuitpython-mcp230xx), each read when its INTA says a pit changed.
- `serial_link.SerialLink`: the bytes to and from the Pico over USB serial (pyserial), reopened
  by itself after the cable is pulled and put back.

Drivers take plain arguments (BCM pin numbers, LED counts, a port name); a board profile says
which. Nothing is imported here, so that a laptop without the `pi` extra (gpiozero, Blinka) can
still use the serial link: import the module you need.

Bad arguments raise `ValueError` naming the value; hardware that is not there (a missing serial
device, a machine Blinka cannot drive NeoPixels on) raises `common.DeviceError`.
"""
