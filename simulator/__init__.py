"""The simulated board: virtual seeds, pits, sensors, LEDs and players (issue 3).

Host-only. The physical side of a board, in simulated time:

- `clock.SimClock`: simulated milliseconds. Nothing sleeps; whoever drives a run advances the
  clock, so a whole game takes as long as the arithmetic.
- `board.PhysicalBoard`: 2n pits and two stores (places 2n and 2n+1: South's, North's) holding
  seeds of individual masses, a hand, and what the hand does (lift, drop, take, put, move, knock,
  touch), scheduled on the clock and logged.
- `sensors.LoadCells` / `sensors.DigitalSensors`: what the pit sensors of the `pico-bridge` and
  `pi-direct` profiles report about that board, flaws and injectable faults included (the load
  cells through the datasheet HX711 models of `parts/`, read as the Pico firmware reads them).
- `leds.LedStrip`: a virtual NeoPixel strip with the drivers' small API.
"""
