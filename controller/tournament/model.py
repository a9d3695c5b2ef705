"""The plain facts of a tournament, shared by pairing, standings, the store and the server.

Players are known by their pairing number (1, 2, ... in the order of the starting rank). South
moves first in every variant's default, so South plays the part white plays in chess pairing
systems: "colour" below means South or North.
"""

from __future__ import annotations

from dataclasses import dataclass

SOUTH_WIN = 1.0
DRAW = 0.5
NORTH_WIN = 0.0
POINTS = (SOUTH_WIN, DRAW, NORTH_WIN)


@dataclass(frozen=True)
class Player:
    """A registered player: `number` is the pairing number (starting rank, from 1)."""

    number: int
    name: str
    rating: int | None = None
    club: str = ""


@dataclass(frozen=True)
class Pairing:
    """One game (or match of hands) of a round on a board (numbered from 1, top board first).
    `north` None is a bye for `south`."""

    round: int
    board: int
    south: int
    north: int | None

    @property
    def is_bye(self) -> bool:
        return self.north is None


@dataclass(frozen=True)
class Result:
    """How a pairing ended: South's points (1, 0.5 or 0; North has the rest) and the seeds each
    side ended with (the game's final scores, or for a match of hands the seeds held at its
    end). A bye is Result(BYE_POINTS, 0, 0) unless the event says otherwise."""

    south_points: float
    south_seeds: int
    north_seeds: int

    def __post_init__(self) -> None:
        if self.south_points not in POINTS:
            raise ValueError("South's points must be 1, 0.5 or 0, not %r" % (self.south_points,))
        for name in ("south_seeds", "north_seeds"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError("%s must be a whole number >= 0, not %r" % (name, value))

    @property
    def north_points(self) -> float:
        return 1.0 - self.south_points
