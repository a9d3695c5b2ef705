"""The simulated board: virtual seeds, pits, sensors, LEDs and players (issue 3)."""
