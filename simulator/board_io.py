"""The simulated board behind `layli run --simulate` (host-only).

The same runner that drives a real board (`controller.board.runner`) drives this one: load cells or
digital pit sensors sampling a `PhysicalBoard` on a simulated clock, a virtual LED strip of the
profile's length, and two virtual players (`simulator.players`) who read the guide's frame and
move the seeds, as in `layli sim`. Each `read()` moves the simulated clock on by `step_ms`.
"""

from __future__ import annotations

import random

from simulator.board import Durations, PhysicalBoard
from simulator.clock import SimClock
from simulator.leds import LedStrip
from simulator.players import LedPlayer
from simulator.run import STEP_MS, Hands
from simulator.sensors import DigitalSensors, LoadCells


class SimulatedBoardIO:
    """A virtual board of `n` pits a row with `setup` seeds, sensed as `sensing` says; the
    players act on what the runner shows (after `attach()`), their hands as quick as
    `durations` says (default: careful players)."""

    def __init__(self, n: int, setup: list[int], sensing: str, leds: int, seed: int = 0,
                 mistakes: float = 0.0, step_ms: int = STEP_MS,
                 durations: Durations | None = None) -> None:
        rng = random.Random(seed)
        self.clock = SimClock()
        self.board = PhysicalBoard(n, setup, rng, clock=self.clock, durations=durations)
        self.sensing = sensing
        if sensing == "counting":
            self.sensors = LoadCells(self.board, self.clock, rng)
            self.calibration = self.sensors.calibration()
        else:
            self.sensors = DigitalSensors(self.board, self.clock, rng)
            self.calibration = None
        self.player = LedPlayer(n, random.Random(seed * 31 + 17), mistakes, sensing)
        self.hands: Hands | None = None
        self.strip = LedStrip(leds)
        self.step_ms = step_ms
        self.beeps: list[str] = []
        self.presses: list[str] = []

    def attach(self) -> None:
        """The players' hands: from now on they act on what `show` shows; their confirm
        button comes back from `read`, as a real board's does."""
        self.hands = Hands(self.player, self.board, lambda: self.presses.append("confirm"))

    def now_ms(self) -> int:
        return self.clock.now_ms

    def read(self) -> tuple[list[tuple[int, list[int]]], list[str]]:
        frames = [(frame.time_ms, frame.values)
                  for frame in self.sensors.frames(self.clock.now_ms + self.step_ms)]
        presses, self.presses = self.presses, []
        return frames, presses

    def show(self, frame, pixels) -> None:
        self.strip.write(pixels)
        self.strip.show()
        if self.hands is not None:
            self.hands.turn(frame)

    def beep(self, name: str) -> None:
        self.beeps.append(name)

    def close(self) -> None:
        pass
