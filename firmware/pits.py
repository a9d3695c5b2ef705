"""Digital pit sensors (IR break-beam, touch or hall), one GPIO each, sampled at a fixed rate.

    pits = DigitalPits([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], clock)
    levels = pits.read()        # None until the next sample is due, then [0, 1, 0, ...]

A sensor reads 1 while a hand or a seed is in its pit. Sensors that pull their output low when
they see something (most break-beam and hall modules: open collector) are `active_low`, with
the internal pull-up on. Samples come 80 a second, the load cells' nominal rate (they convert
every 10.7 ms), so both kinds of board give the sensing layer and the host about the same
cadence; debouncing is the sensing layer's (controller.sensing.ActivitySensor).
"""

import machine

PERIOD_US = 12500       # 80 samples a second


class DigitalPits:
    """One digital sensor per pit; `read()` has the same shape as the load cells' (`channels`,
    a list of ints or None)."""

    def __init__(self, pins, clock, active_low=True):
        if not isinstance(pins, (list, tuple)) or not pins:
            raise ValueError("pits: give one GPIO per pit")
        pull = machine.Pin.PULL_UP if active_low else None
        self._pins = [machine.Pin(gpio, machine.Pin.IN, pull) if pull is not None
                      else machine.Pin(gpio, machine.Pin.IN) for gpio in pins]
        self._active = 0 if active_low else 1
        self._clock = clock
        self.channels = len(pins)
        self._samples = 0
        self._start = clock.ticks_ms()
        self.frames = 0

    def read(self):
        """The level of every sensor (1: something there), or None before the next sample."""
        due = self._start + self._samples * PERIOD_US // 1000
        now = self._clock.ticks_ms()
        if now < due:
            return None
        # late by several periods (the loop was busy): one sample now, none to catch up
        missed = (now - due) * 1000 // PERIOD_US
        self._samples += 1 + missed
        self.frames += 1
        active = self._active
        return [1 if pin.value() == active else 0 for pin in self._pins]

    def close(self):
        pass
