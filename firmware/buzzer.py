"""A piezo buzzer on a PWM pin: tones that end by themselves, and short tunes.

    buzzer = Buzzer(pin=15, clock=clock)
    buzzer.beep(880, 120)                       # returns at once; poll() ends the tone
    buzzer.play(((660, 80), (0, 40), (880, 120)))   # a tune: (hz, ms) notes, 0 hz a rest
    buzzer.poll()                               # in the main loop

A passive piezo sounds at the PWM frequency with a 50% duty; duty 0 is silence. Nothing here
blocks: the main loop must keep reading the load cells while a tune plays.
"""

import machine

HALF = 32768            # 50% duty: the loudest square wave


class Buzzer:
    """Tones on GPIO `pin`; `sounding` is the tone now (hz, or 0)."""

    def __init__(self, pin, clock):
        self._pwm = machine.PWM(machine.Pin(pin))
        self._pwm.duty_u16(0)
        self._clock = clock
        self._notes = []
        self._until = 0
        self.sounding = 0

    def beep(self, hz, ms):
        """Sound `hz` for `ms` milliseconds (hz or ms 0: silence), ending any tune."""
        self.play(((hz, ms),))

    def play(self, notes):
        """Play (hz, ms) notes one after another, replacing what was playing."""
        self._notes = list(notes)
        self._next(self._clock.ticks_ms())

    def poll(self):
        """End the note whose time is up and start the next."""
        if self._until and self._clock.ticks_ms() >= self._until:
            self._next(self._until)

    def _next(self, start):
        while self._notes:
            hz, ms = self._notes.pop(0)
            if ms <= 0:
                continue
            self._until = start + ms
            if hz:
                self._pwm.freq(hz)
                self._pwm.duty_u16(HALF)
            else:
                self._pwm.duty_u16(0)
            self.sounding = hz
            return
        self._pwm.duty_u16(0)
        self.sounding = 0
        self._until = 0
