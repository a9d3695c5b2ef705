"""The board's four buttons — new game, undo, hint, confirm — polled and debounced.

    buttons = Buttons({"new_game": 10, "undo": 11, "hint": 12, "confirm": 13}, clock)
    for button, pressed, time_ms in buttons.poll():    # in the main loop, every few ms
        ...                                             # button: 0 new game .. 3 confirm

Each button connects its GPIO to ground when pressed (the internal pull-up holds it high
otherwise; `active_low=False` for buttons wired to 3.3 V with a pull-down). A contact bounces
for a few milliseconds: a new level counts only once it has held for `debounce_ms`, and the
event carries the time it first appeared (when the finger really pressed). The main loop polls
every millisecond or so, which an IRQ would not improve on: a bouncing contact fires dozens of
IRQs that must be debounced by time all the same.

A board may leave out buttons (a missing name, or None): they never fire.
"""

import machine

from config import BUTTONS as NAMES         # button i of the protocol's Button(i, ...)
DEBOUNCE_MS = 30
POLL_MS = 4                 # the pins are looked at this often at most (a loop steps faster)
NONE = ()


class Buttons:
    """Debounced buttons; `held` is the debounced state of each (a list of 4 bools)."""

    def __init__(self, pins, clock, debounce_ms=DEBOUNCE_MS, active_low=True):
        for name in pins:
            if name not in NAMES:
                raise ValueError("buttons: %r is not a button (%s)" % (name, ", ".join(NAMES)))
        self._clock = clock
        self.debounce_ms = debounce_ms
        self._pressed_level = 0 if active_low else 1
        self._pins = []
        for name in NAMES:
            gpio = pins.get(name)
            if gpio is None:
                self._pins.append(None)
            else:
                pull = machine.Pin.PULL_UP if active_low else machine.Pin.PULL_DOWN
                self._pins.append(machine.Pin(gpio, machine.Pin.IN, pull))
        self.held = [False] * len(NAMES)
        self._seen = [False] * len(NAMES)       # the raw state last seen
        self._since = [0] * len(NAMES)          # when it was first seen
        self._polled = -POLL_MS

    @property
    def held_mask(self):
        """The buttons held down as bits: bit i for button i."""
        mask = 0
        for i in range(len(NAMES)):
            if self.held[i]:
                mask |= 1 << i
        return mask

    def down(self, button):
        """True while `button` is pressed right now (no debouncing: for a look at boot)."""
        pin = self._pins[button]
        return pin is not None and pin.value() == self._pressed_level

    def poll(self, now=None):
        """The presses (pressed True) and releases since the last poll, as (button, pressed,
        time_ms) tuples, oldest first (an empty tuple when there are none). `now`: the clock's
        time, when the caller has it."""
        if now is None:
            now = self._clock.ticks_ms()
        if now - self._polled < POLL_MS:
            return NONE                 # a press lasts 30 ms and more: no need to look sooner
        self._polled = now
        events = None               # a list only for a press or a release: most polls have
        for i in range(len(NAMES)):     # none, and a Pico's nearly full heap is slow to fill
            pin = self._pins[i]
            if pin is None:
                continue
            down = pin.value() == self._pressed_level
            if down != self._seen[i]:
                self._seen[i] = down
                self._since[i] = now
            elif down != self.held[i] and now - self._since[i] >= self.debounce_ms:
                self.held[i] = down
                if events is None:
                    events = []
                events.append((i, down, self._since[i]))
        return NONE if events is None else events
