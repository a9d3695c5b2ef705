"""Calibrating a standalone board on the Pico itself, led by the LEDs, ended by the buttons.

A board without a Pi has nothing else to calibrate it with. `Calibrating` walks a person
through the procedure of `controller.sensing.Calibrator`, which checks every step:

1. **Empty board** (every place lit steady): take every seed off, hands off, press CONFIRM.
   One second of frames gives each cell's tare and noise.
2. **Single seeds** (South's store pulses): drop seeds into South's store one at a time and
   press CONFIRM after each, 5 at least (20 is better); press NEW GAME when done. The steps
   between readings are single seeds' weights: their spread says how far counting by weight
   can be trusted. The last reading weighs South's store with all of them.
3. **The set-up** (every pit and North's store pulse, South's store blinks): put the game's
   set-up in the pits (4 seeds each in Layli Goobalay) and move the single seeds from South's
   store into North's, press CONFIRM. Every cell is weighed with seeds on it: load cells
   differ by several percent, so none borrows another's.

A step that fails (a hand still on the board, a cell that reads a constant) flashes every
place in the error colour, buzzes, says why in `problem` and waits for CONFIRM again. At the
end `calibration` holds the result.
"""

from controller.guide.frame import (Frame, HINT, ERROR, STEADY, DROP, PICK, FLASH,
                                    SOUTH_COLOUR, NORTH_COLOUR)
from controller.sensing import SensingError
from controller.sensing.calibrator import Calibrator
from controller.sensing.calibration import median

EMPTY = "empty"
SINGLES = "singles"
SETUP = "setup"
DONE = "done"
TAKE_FRAMES = 80            # one second of frames a reading
SINGLE_FRAMES = 40          # half a second for each single seed
MIN_SINGLES = 5
NEW_GAME, CONFIRM = 0, 3


class Calibrating:
    """The procedure for a board of `channels` cells (pits, then the stores) and a game whose
    pits start with `setup` seeds each (see the module)."""

    def __init__(self, channels, setup):
        self.steps = Calibrator(channels)
        self.channels = channels
        self.setup = list(setup)
        self.store = len(setup)             # South's store's channel
        self.phase = EMPTY
        self.problem = None
        self.calibration = None
        self.readings = []                  # single seeds: the store's reading after each
        self._last = None                   # the frames of the last single seed's reading
        self._frames = None                 # frames being gathered, or None
        self._wanted = 0
        self.events = []                    # ("accepted", phase) / ("refused", phase)

    @property
    def busy(self):
        """True while frames are being gathered (hands off)."""
        return self._frames is not None

    def press(self, button):
        """CONFIRM takes the step's reading; NEW GAME ends the single seeds."""
        if self.busy or self.phase == DONE:
            return
        if button == CONFIRM:
            self._frames = []
            self._wanted = SINGLE_FRAMES if self.phase == SINGLES else TAKE_FRAMES
        elif button == NEW_GAME and self.phase == SINGLES:
            self._finish_singles()

    def feed(self, frame):
        """One frame of raw readings."""
        if self._frames is None:
            return
        self._frames.append(frame)
        if len(self._frames) >= self._wanted:
            frames, self._frames = self._frames, None
            try:
                self._take(frames)
            except SensingError as error:
                self._refuse(str(error))

    def _take(self, frames):
        steps = self.steps
        if self.phase == EMPTY:
            steps.tare(frames)
            self.readings = [steps.tare_values[self.store]]
            self._accept(SINGLES)
        elif self.phase == SINGLES:
            column = [frame[self.store] for frame in frames]
            self.readings.append(median(column))
            self._last = frames
            self._accept(SINGLES)
        elif self.phase == SETUP:
            for seeds in sorted(set(self.setup)):
                if seeds:
                    steps.weigh(frames, seeds, [pit for pit in range(len(self.setup))
                                                if self.setup[pit] == seeds])
            steps.weigh(frames, len(self.readings) - 1, [self.store + 1])
            # a pit the set-up leaves empty (some Mangala IV set-ups) borrows the mean
            self.calibration = steps.calibration(share=True)
            self._accept(DONE)

    def _finish_singles(self):
        readings = self.readings
        weights = [readings[k + 1] - readings[k] for k in range(len(readings) - 1)]
        if len(weights) < MIN_SINGLES:
            self._refuse("weigh at least %d single seeds (%d so far)" % (MIN_SINGLES,
                                                                         len(weights)))
            return
        try:
            self.steps.singles(weights)
            self.steps.weigh(self._last, len(weights), [self.store])
        except SensingError as error:
            self._refuse(str(error))
            return
        self._accept(SETUP)

    def _accept(self, phase):
        self.events.append(("accepted", self.phase))
        self.phase = phase
        self.problem = None

    def _refuse(self, problem):
        self.events.append(("refused", self.phase))
        self.problem = problem

    def frame(self):
        """What the board shows: the places this step is about; every place flashing in the
        error colour while a step is refused."""
        frame = Frame(self.channels)
        pits = len(self.setup)
        if self.problem is not None:
            for place in range(self.channels):
                frame.set(place, ERROR, FLASH)
        elif self.phase == EMPTY:
            for place in range(self.channels):
                frame.set(place, HINT, PICK if self.busy else STEADY)
        elif self.phase == SINGLES:
            frame.set(self.store, SOUTH_COLOUR, PICK if self.busy else DROP)
        elif self.phase == SETUP:
            for pit in range(pits):
                frame.set(pit, HINT, PICK if self.busy else DROP)
            frame.set(self.store, SOUTH_COLOUR, PICK)           # lift the seeds from here...
            frame.set(self.store + 1, NORTH_COLOUR, DROP)       # ...into here
        return frame
