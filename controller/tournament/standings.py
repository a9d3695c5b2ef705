"""Standings: points, then tie-breaks, for a round robin or a Swiss event.

    >>> from controller.tournament.model import Pairing, Player, Result
    >>> field = [Player(1, "Asha"), Player(2, "Bile"), Player(3, "Caamir"), Player(4, "Deeqa")]
    >>> games = [(Pairing(1, 1, 1, 4), Result(1.0, 30, 18)), (Pairing(1, 2, 2, 3), Result(0.5, 24, 24)),
    ...          (Pairing(2, 1, 4, 3), Result(0.0, 20, 28)), (Pairing(2, 2, 1, 2), None)]
    >>> for line in standings(field, games):
    ...     print(line.rank, line.player.name, line.points, line.buchholz, line.seed_difference)
    1 Caamir 1.5 0.5 8
    2 Asha 1.0 0.0 12
    3 Bile 0.5 1.5 0
    4 Deeqa 0.0 2.5 -20

(Asha v Bile is still being played: it counts for nothing yet, and Asha and Bile have no
Buchholz from round 2 either.)

Points: a win 1, a draw 1/2, a bye `bye_points`. Players equal on points are ordered by the
tie-breaks in the order given, each applied only to the players still tied (FIDE C.07 4.2):

- `direct_encounter` (FIDE C.07): the points a player scored in the games among the tied
  players, when every one of them has met every other; otherwise it is not applied (None).
- `buchholz`: the sum of the opponents' points.
- `sonneborn_berger`: the sum of the opponents' points, each times the points scored against
  that opponent (a win counts it whole, a draw half).
- `seed_difference`: the seeds a player ended with minus the seeds their opponents ended with,
  summed over the games (mancala's goal difference).

Players still tied after every tie-break share a rank and are listed by pairing number.

Unplayed rounds, the FIDE 2023 way (C.07, article 16): in Buchholz and Sonneborn-Berger a
player's own bye, or a round they were not paired in, counts as a game against a dummy
opponent with the player's own points (a bye scores `bye_points` against it, an absence 0);
an opponent who withdrew (paired in none of the last rounds) counts with 1/2 point for each
of those rounds instead of 0. A round counts once it has a result on some board; a game
without a result yet counts for nothing, for both its players.

Host-only (CPython); pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .model import POINTS, Player
from .pairing import Game, check_games

DIRECT_ENCOUNTER = "direct_encounter"
BUCHHOLZ = "buchholz"
SONNEBORN_BERGER = "sonneborn_berger"
SEED_DIFFERENCE = "seed_difference"
TIEBREAKS = (DIRECT_ENCOUNTER, BUCHHOLZ, SONNEBORN_BERGER, SEED_DIFFERENCE)


@dataclass(frozen=True)
class Standing:
    """One line of the standings. `games` counts the games played (not byes); `wins`,
    `draws` and `losses` add up to it. `direct_encounter` is None where it was not applied."""

    rank: int
    player: Player
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    buchholz: float
    sonneborn_berger: float
    seed_difference: int
    direct_encounter: float | None


def standings(players: Iterable[Player], games: Iterable[Game], bye_points: float = 1.0,
              tiebreaks: Sequence[str] = TIEBREAKS) -> list[Standing]:
    """The standings of `players` after `games`, a list of (Pairing, Result or None): best
    first, by points and then by `tiebreaks` (names from TIEBREAKS, in the order to apply).

    Raises ValueError naming the problem: bad games (see pairing.check_games), bye points
    other than 1, 1/2 or 0, an unknown or repeated tie-break.
    """
    if bye_points not in POINTS:
        raise ValueError("bye_points must be 1, 0.5 or 0, not %r" % (bye_points,))
    tiebreaks = list(tiebreaks)
    for index, name in enumerate(tiebreaks):
        if name not in TIEBREAKS:
            raise ValueError("unknown tie-break %r; the tie-breaks are %s"
                             % (name, ", ".join(TIEBREAKS)))
        if name in tiebreaks[:index]:
            raise ValueError("tie-break %r is listed twice" % (name,))
    games = list(games)
    by_number = check_games(players, games, bye_points=bye_points)
    tally = _Tally(by_number, games, bye_points)

    values = {name: {} for name in TIEBREAKS}
    for number in by_number:
        values[BUCHHOLZ][number] = tally.buchholz(number)
        values[SONNEBORN_BERGER][number] = tally.sonneborn_berger(number)
        values[SEED_DIFFERENCE][number] = tally.seed_difference[number]
    encounter: dict[int, float | None] = dict.fromkeys(by_number)

    # Split the field into groups still tied, first by points, then by each tie-break in turn.
    groups = _split([sorted(by_number)], tally.points)
    for name in tiebreaks:
        if name == DIRECT_ENCOUNTER:
            for group in groups:
                encounter.update(tally.direct_encounter(group))
            groups = _split(groups, encounter)
        else:
            groups = _split(groups, values[name])

    lines = []
    for group in groups:
        rank = len(lines) + 1
        for number in group:
            lines.append(Standing(
                rank=rank, player=by_number[number], points=tally.points[number],
                games=sum(tally.record[number]), wins=tally.record[number][0],
                draws=tally.record[number][1], losses=tally.record[number][2],
                buchholz=values[BUCHHOLZ][number],
                sonneborn_berger=values[SONNEBORN_BERGER][number],
                seed_difference=values[SEED_DIFFERENCE][number],
                direct_encounter=encounter[number]))
    return lines


def _split(groups: list[list[int]], value: dict) -> list[list[int]]:
    """Each group split into runs of equal `value`, highest first (None: all alike); players
    stay in pairing-number order within a run."""
    split = []
    for group in groups:
        levels = sorted({value[number] for number in group if value[number] is not None},
                        reverse=True)
        if len(levels) < 2:
            split.append(group)
            continue
        split += [[number for number in group if value[number] == level] for level in levels]
    return split


class _Tally:
    """Everything counted from the finished games: points, records, opponents, unplayed
    rounds, seeds."""

    def __init__(self, by_number: dict[int, Player], games: list[Game],
                 bye_points: float) -> None:
        self.points = dict.fromkeys(by_number, 0.0)
        self.record = {number: [0, 0, 0] for number in by_number}      # wins, draws, losses
        self.seed_difference = dict.fromkeys(by_number, 0)
        # (opponent, points scored against them) for every game played
        self.played: dict[int, list[tuple[int, float]]] = {number: [] for number in by_number}
        # points scored in each unplayed round: a bye's points, or 0 for a round not paired
        self.unplayed: dict[int, list[float]] = {number: [] for number in by_number}
        self.between: dict[tuple[int, int], float] = {}     # (a, b): points a scored against b
        finished = [(pairing, result) for pairing, result in games if result is not None]
        rounds = sorted({pairing.round for pairing, _ in finished})
        paired: dict[int, set[int]] = {number: set() for number in by_number}
        # A game still being played leaves its round neither played nor unplayed for its players.
        for pairing, result in games:
            paired[pairing.south].add(pairing.round)
            if not pairing.is_bye:
                paired[pairing.north].add(pairing.round)

        for pairing, result in finished:
            if pairing.is_bye:
                self.points[pairing.south] += bye_points
                self.unplayed[pairing.south].append(bye_points)
                continue
            sides = ((pairing.south, pairing.north, result.south_points,
                      result.south_seeds - result.north_seeds),
                     (pairing.north, pairing.south, result.north_points,
                      result.north_seeds - result.south_seeds))
            for player, opponent, points, seeds in sides:
                self.points[player] += points
                self.record[player][{1.0: 0, 0.5: 1, 0.0: 2}[points]] += 1
                self.seed_difference[player] += seeds
                self.played[player].append((opponent, points))
                self.between[player, opponent] = self.between.get((player, opponent), 0.0) + points
        self.withdrawn = dict.fromkeys(by_number, 0)      # rounds missed since last paired
        for number in by_number:
            missed = [round for round in rounds if round not in paired[number]]
            self.unplayed[number] += [0.0] * len(missed)
            for round in reversed(rounds):
                if round in paired[number]:
                    break
                self.withdrawn[number] += 1

    def opponent_points(self, number: int) -> float:
        """An opponent's points for Buchholz and Sonneborn-Berger: the rounds after they
        withdrew count 1/2 each (FIDE C.07 2023, article 16)."""
        return self.points[number] + 0.5 * self.withdrawn[number]

    def buchholz(self, number: int) -> float:
        # own unplayed rounds: a dummy opponent with the player's own points
        return (sum(self.opponent_points(opponent) for opponent, _ in self.played[number])
                + self.points[number] * len(self.unplayed[number]))

    def sonneborn_berger(self, number: int) -> float:
        return (sum(points * self.opponent_points(opponent)
                    for opponent, points in self.played[number])
                + sum(points * self.points[number] for points in self.unplayed[number]))

    def direct_encounter(self, group: list[int]) -> dict[int, float | None]:
        """Points scored in the games among `group`, if every one met every other; else None."""
        if len(group) < 2 or any((a, b) not in self.between for a in group for b in group
                                 if a != b):
            return dict.fromkeys(group)
        return {a: sum(self.between[a, b] for b in group if b != a) for a in group}
