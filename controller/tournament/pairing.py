"""Pairings: round robin by the FIDE Berger tables, Swiss by the FIDE (Dutch) system.

A round robin is fixed before the event starts. `berger` gives the published table (FIDE
Handbook C.05, Annex 1) as (South, North) pairs of pairing numbers, board 1 first:

    >>> berger(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]

and `round_robin` puts players on it, every round a list of `Pairing` (with an odd number of
players, whoever the table pairs with the dummy number n + 1 has a bye):

    >>> from controller.tournament.model import Player
    >>> trio = [Player(1, "Asha"), Player(2, "Bile"), Player(3, "Caamir")]
    >>> for pairing in round_robin(trio)[0]:
    ...     print(pairing)
    Pairing(round=1, board=1, south=2, north=3)
    Pairing(round=1, board=2, south=1, north=None)

A Swiss round is paired from the results so far. `swiss_round` hands the history to
caissify-pairings' Dutch engine (FIDE C.04.3; see "Why caissify-pairings" below), which does
the hard part (score brackets, floaters, transpositions and exchanges, the pairing-allocated
bye); then it checks what comes back, gives the colours and orders the boards:

    >>> from controller.tournament.model import Result
    >>> four = trio + [Player(4, "Deeqa")]
    >>> first = swiss_round(four, [], 1)
    >>> first
    [Pairing(round=1, board=1, south=1, north=3), Pairing(round=1, board=2, south=4, north=2)]
    >>> played = [(first[0], Result(1.0, 30, 18)), (first[1], Result(0.5, 24, 24))]
    >>> swiss_round(four, played, 2)
    [Pairing(round=2, board=1, south=2, north=1), Pairing(round=2, board=2, south=3, north=4)]

Colours: South moves first, so South plays the part of White in the chess rules.

Bad input raises ValueError naming the round, the board and the player: an unknown player
number, a player twice in one round, a bye with a result that is not a bye's, a round not
finished, a history from the future (`check_games`). So does a round that cannot be paired
within the rules (no new opponents left, or colours that box a small field in).

Why caissify-pairings (0.5.0, evaluated for issue 7): it is a pure-Python Dutch engine whose
authors cross-check it against bbpPairings (endorsed by FIDE). Against pairings bbpPairings
itself made (tests/tournament_data: 5 to 40 players, up to 9 rounds, byes, an absent
player; every round our model can express) it finds the same pairs, and the same bye, every
time. It is deterministic (the same input, the same pairing, whatever the hash seed) and
pairs a 64-player round in about a second. It needs each player's score, colour sequence,
floats (round by round) and byes, which this module derives from the history. Three things
it does not do right, which this module does instead:

- Colours (E.4, E.5): it ranks the two players by pairing number alone where the rules rank
  by score first, so the higher scorer can lose his colour: the colours are given here.
- Impossible rounds: it does not say so but hands out extra byes, a second bye or a rematch;
  here that is a ValueError saying why.
- Board order: here the FIDE order (the higher score of the pair, the sum, the higher rank).

Host-only (CPython): caissify-pairings and networkx are not for a Pico.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterable, Sequence

import networkx
from caissify_pairings import MissingFloatHistoryWarning
from caissify_pairings.engines.dutch import DutchEngine

from .model import Pairing, Player, Result

Game = tuple[Pairing, Result | None]

# The engine logs a warning when it gives up on a round; swiss_round raises a ValueError that
# says more. Without this, the warning would go to stderr in any program that has not set up
# logging; a program that has still sees it.
logging.getLogger("caissify_pairings").addHandler(logging.NullHandler())


def berger(n: int) -> list[list[tuple[int, int]]]:
    """The FIDE Berger table for n players: for every round, the (South, North) pairs of
    pairing numbers in board order.

    With an odd n the table is the one for n + 1 (FIDE's "5 or 6 players"): the player paired
    with n + 1 sits out that round.

    How the table is built: round 1 pairs 1 with n, 2 with n - 1, and so on. From one round
    to the next every number but n moves on by n/2, counted round 1..n-1, on the same board
    and side; n stays on board 1 and changes side every round.
    """
    if type(n) is not int or n < 2:
        raise ValueError("a round robin needs at least 2 players, not %r" % (n,))
    if n % 2:
        n += 1
    half = n // 2
    table = []
    for index in range(n - 1):
        moved = [0] + [(number - 1 + index * half) % (n - 1) + 1 for number in range(1, n)]
        pairs = [(moved[1], n) if index % 2 == 0 else (n, moved[1])]
        pairs += [(moved[board], moved[n + 1 - board]) for board in range(2, half + 1)]
        table.append(pairs)
    return table


def round_robin(players: Sequence[Player], *, double: bool = False) -> list[list[Pairing]]:
    """Every round of an all-play-all on the Berger table, players by pairing number (which
    must run 1..n: in a round robin they come from the drawing of lots).

    A bye (odd n) comes after the games, on the next board number. `double` plays the table
    twice, colours reversed in the second cycle; as FIDE recommends, the last two rounds of the
    first cycle change places, so that nobody gets the same colour three times running where
    the cycles meet.
    """
    by_number = _players_by_number(players)
    n = len(by_number)
    if sorted(by_number) != list(range(1, n + 1)):
        missing = sorted(set(range(1, n + 1)) - set(by_number))
        raise ValueError("a round robin needs pairing numbers 1..%d; missing: %s"
                         % (n, ", ".join(str(number) for number in missing)))
    cycle = berger(n)
    if double:
        first = cycle[:-2] + cycle[-2:][::-1]
        cycle = first + [[(north, south) for south, north in pairs] for pairs in cycle]
    rounds = []
    for index, pairs in enumerate(cycle):
        games = [(south, north) for south, north in pairs if max(south, north) <= n]
        byes = [min(south, north) for south, north in pairs if max(south, north) > n]
        rounds.append([Pairing(index + 1, board, south, north)
                       for board, (south, north) in enumerate(games, 1)]
                      + [Pairing(index + 1, len(games) + 1, number, None) for number in byes])
    return rounds


def check_games(players: Iterable[Player], games: Iterable[Game], *,
                bye_points: float | None = None) -> dict[int, Player]:
    """Check players and games against each other; return the players by pairing number.

    Raises ValueError naming the first problem: a pairing number used twice, a game that is
    not a (Pairing, Result or None) pair, an unknown player, a player against themself or twice
    in one round, two games on one board of a round, a bye whose result has seeds (nobody
    played) or, when `bye_points` is given, other points than those.
    """
    by_number = _players_by_number(players)
    seen: dict[tuple[int, int], Pairing] = {}
    boards: dict[tuple[int, int], Pairing] = {}
    for entry in games:
        if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], Pairing)
                and (entry[1] is None or isinstance(entry[1], Result))):
            raise ValueError("a game is a (Pairing, Result or None) pair, not %r" % (entry,))
        pairing, result = entry
        where = "round %r, board %r" % (pairing.round, pairing.board)
        for name in ("round", "board"):
            value = getattr(pairing, name)
            if type(value) is not int or value < 1:
                raise ValueError("%s: the %s must be a whole number >= 1" % (where, name))
        if (pairing.round, pairing.board) in boards:
            raise ValueError("%s: two games on one board (%s and %s)"
                             % (where, _who(boards[pairing.round, pairing.board]), _who(pairing)))
        boards[pairing.round, pairing.board] = pairing
        if pairing.south == pairing.north:
            raise ValueError("%s: player %r is paired against themself" % (where, pairing.south))
        sides = [pairing.south] if pairing.north is None else [pairing.south, pairing.north]
        for number in sides:
            if number not in by_number:
                raise ValueError("%s: player %r is not registered" % (where, number))
            if (pairing.round, number) in seen:
                other = seen[pairing.round, number]
                raise ValueError("round %d: player %d is paired twice (board %d and board %d)"
                                 % (pairing.round, number, other.board, pairing.board))
            seen[pairing.round, number] = pairing
        if pairing.is_bye and result is not None:
            if result.south_seeds or result.north_seeds:
                raise ValueError("%s: player %d has a bye, so no seeds, but the result has %d-%d"
                                 % (where, pairing.south, result.south_seeds, result.north_seeds))
            if bye_points is not None and result.south_points != bye_points:
                raise ValueError("%s: player %d's bye is worth %g in this event, not %g"
                                 % (where, pairing.south, bye_points, result.south_points))
    return by_number


def swiss_round(players: Sequence[Player], history: Sequence[Game], round: int, *,
                total_rounds: int | None = None, absent: Iterable[int] = (),
                bye_points: float = 1.0, initial_colour: str = "south") -> list[Pairing]:
    """Pair round `round` of a Swiss event by the FIDE (Dutch) system.

    `history` holds every game of the earlier rounds with its result (all must be finished);
    `absent` the players not to be paired this round (withdrawn, or excused by the arbiter:
    they simply have no game, and score nothing). `total_rounds` is the length of the event:
    in the last round the Dutch rules let top scorers break colour rules, so the engine must
    know which round is the last (None: not this one). A bye is worth `bye_points`.
    `initial_colour` ("south" or "north", drawn by lot before round 1 and kept for the event)
    is the colour pairing number 1 gets in round 1.

    Returns the pairings in board order: by the higher score of the two players, then the sum
    of their scores, then the rank of the higher ranked (score, then pairing number); the
    bye, if any, last. The pairing-allocated bye goes, as the rules say, to a player of the
    lowest score group who has not had one, if that leaves the rest pairable.

    Raises ValueError for bad input (see `check_games`), and when no pairing meets the
    absolute criteria (no rematch, no second bye, the colour rules), saying which: an event
    with more rounds than its field allows, or a small field boxed in by colours.
    """
    if type(round) is not int or round < 1:
        raise ValueError("the round to pair must be a whole number >= 1, not %r" % (round,))
    if initial_colour not in ("south", "north"):
        raise ValueError("initial_colour must be 'south' or 'north', not %r" % (initial_colour,))
    if total_rounds is not None and (type(total_rounds) is not int or total_rounds < round):
        raise ValueError("total_rounds must be a whole number >= the round (%d), not %r"
                         % (round, total_rounds))
    by_number = check_games(players, history, bye_points=bye_points)
    for pairing, result in history:
        if pairing.round >= round:
            raise ValueError("round %d, board %d is not before round %d, the round to pair"
                             % (pairing.round, pairing.board, round))
        if result is None:
            raise ValueError("round %d is not finished: board %d (%s) has no result"
                             % (pairing.round, pairing.board, _who(pairing)))
    away = set()
    for number in absent:
        if number not in by_number:
            raise ValueError("absent player %r is not registered" % (number,))
        away.add(number)
    present = [number for number in sorted(by_number) if number not in away]
    if len(present) < 2:
        raise ValueError("round %d: %d player(s) to pair; a round needs 2" % (round, len(present)))

    record = _Record(by_number, history, round, bye_points)
    engine_players = [{
        "id": number,
        "name": by_number[number].name,
        "pairing_number": number,
        "starting_number": number,
        "rating": by_number[number].rating or 0,
        "score": record.score[number],
        "color_hist": record.colours[number],
        "float_history": record.floats[number],
        "bye_count": record.byes[number],
    } for number in present]
    with warnings.catch_warnings():
        # The engine warns when it is given no floats; a record with no floater is a fact here.
        warnings.simplefilter("ignore", MissingFloatHistoryWarning)
        rows = DutchEngine(players=engine_players, previous_pairings=record.met, round_number=round,
                           total_rounds=total_rounds or round + 1).generate_pairings()

    games = [(row["white_id"], row["black_id"]) for row in rows if row.get("black_id") is not None]
    byes = [row["white_id"] for row in rows if row.get("black_id") is None]
    paired = sorted([number for pair in games for number in pair] + byes)
    if paired != present:
        raise AssertionError("caissify-pairings paired %s for players %s in round %d"
                             % (rows, present, round))
    # When no pairing meets the absolute criteria the engine does not say so: it hands out
    # extra byes, repeats a bye or a pairing, or breaks a colour rule. Say so here instead.
    # In the last round the colour rules do not bind topscorers (over half the maximum score).
    topscore = (round - 1) / 2 if total_rounds == round else None
    if (len(byes) != len(present) % 2 or any(record.byes[number] for number in byes)
            or any(not record.allowed(pair, topscore) for pair in games)):
        raise ValueError(record.unpairable(round, present))
    rank = {number: index for index, number in enumerate(
        sorted(present, key=lambda number: (-record.score[number], number)))}
    games = [record.colours_for(pair, rank, initial_colour) for pair in games]

    def board_order(pair: tuple[int, int]) -> tuple[float, float, int]:
        scores = [record.score[number] for number in pair]
        return (-max(scores), -sum(scores), min(rank[number] for number in pair))

    games.sort(key=board_order)
    return ([Pairing(round, board, south, north) for board, (south, north) in enumerate(games, 1)]
            + [Pairing(round, len(games) + 1, number, None) for number in byes])


class _Record:
    """What the Dutch rules need to know of each player from the earlier rounds: score,
    colour sequence (games played only), float in every round, byes, and who met whom."""

    def __init__(self, by_number: dict[int, Player], history: Sequence[Game], round: int,
                 bye_points: float) -> None:
        self.score = {number: 0.0 for number in by_number}
        self.colours: dict[int, list[str]] = {number: [] for number in by_number}
        self.floats: dict[int, list[str]] = {number: [] for number in by_number}
        self.byes = {number: 0 for number in by_number}
        self.met: set[tuple[int, int]] = set()          # (lower, higher) pairing numbers
        rounds: dict[int, list[Game]] = {}
        for game in history:
            rounds.setdefault(game[0].round, []).append(game)
        for number in range(1, round):
            before = dict(self.score)
            floats = {number: "none" for number in by_number}    # absent: no float
            for pairing, result in rounds.get(number, []):
                south, north = pairing.south, pairing.north
                if north is None:
                    self.byes[south] += 1
                    self.score[south] += bye_points
                    # FIDE C.04.3 1.4.3: scoring more than a loss without playing is a downfloat.
                    floats[south] = "down" if bye_points > 0 else "none"
                    continue
                self.score[south] += result.south_points
                self.score[north] += result.north_points
                self.colours[south].append("white")
                self.colours[north].append("black")
                self.met.add(_met(south, north))
                if before[south] != before[north]:
                    higher, lower = (south, north) if before[south] > before[north] else (north, south)
                    floats[higher], floats[lower] = "down", "up"
            for player, direction in floats.items():
                self.floats[player].append(direction)


    def allowed(self, pair: tuple[int, int], topscore: float | None = None) -> bool:
        """Whether the two may meet (FIDE C.04.3 C.1 and C.3): not again, and not when both
        must have the same colour, unless one of them is a topscorer (scores over `topscore`,
        given when pairing the last round)."""
        if _met(*pair) in self.met:
            return False
        (want, strength), (other_want, other_strength) = map(self.preference, pair)
        if strength == other_strength == 3 and want == other_want:
            return topscore is not None and max(self.score[number] for number in pair) > topscore
        return True

    def unpairable(self, round: int, present: list[int]) -> str:
        """Why round `round` cannot be paired: too few new opponents, or the colour rules."""
        graph = networkx.Graph()
        graph.add_nodes_from(present)
        graph.add_edges_from((a, b) for index, a in enumerate(present) for b in present[index + 1:]
                             if _met(a, b) not in self.met)
        games = len(networkx.max_weight_matching(graph, maxcardinality=True))
        if games < len(present) // 2:
            return ("round %d cannot be paired: the %d players have run out of new opponents "
                    "(at most %d of the %d games would not be rematches)"
                    % (round, len(present), games, len(present) // 2))
        return ("round %d cannot be paired by the Dutch rules: every pairing without rematches "
                "gives someone a second bye or breaks a colour rule (the same colour three times "
                "running, or a colour difference beyond 2)" % round)

    def preference(self, number: int) -> tuple[str | None, int]:
        """(the colour the player should get, how strongly): 3 absolute, 2 strong, 1 mild,
        0 none (FIDE C.04.3 A.6; colours as in the engine: white is South)."""
        played = self.colours[number]
        if not played:
            return None, 0
        difference = played.count("white") - played.count("black")
        if difference < -1 or played[-2:] == ["black", "black"]:
            return "white", 3
        if difference > 1 or played[-2:] == ["white", "white"]:
            return "black", 3
        if difference:
            return ("white" if difference < 0 else "black"), 2
        return ("black" if played[-1] == "white" else "white"), 1

    def colours_for(self, pair: tuple[int, int], rank: dict[int, int],
                    initial_colour: str) -> tuple[int, int]:
        """(South, North) for two paired players by FIDE C.04.3 E.1-E.5.

        Done here rather than taken from caissify-pairings 0.5.0, which ranks the two by
        pairing number alone in E.4 and E.5 where the rules rank by score first (A.2): it
        gives the wrong colours when the higher ranked player has the higher number.
        """
        high, low = sorted(pair, key=rank.__getitem__)
        (want_high, strength_high), (want_low, strength_low) = map(self.preference, (high, low))

        def south(player: int) -> tuple[int, int]:
            return (player, low if player == high else high)

        def grant(player: int, want: str) -> tuple[int, int]:
            return south(player) if want == "white" else south(low if player == high else high)

        if want_high and want_low and want_high != want_low:          # E.1: both
            return grant(high, want_high)
        if strength_high != strength_low:                             # E.2: the stronger
            return grant(high, want_high) if strength_high > strength_low else grant(low, want_low)
        if strength_high == 3:                       # E.2: both absolute: the wider difference
            wider = {player: abs(self.colours[player].count("white")
                                 - self.colours[player].count("black")) for player in pair}
            if wider[high] != wider[low]:
                return grant(high, want_high) if wider[high] > wider[low] else grant(low, want_low)
        for had_high, had_low in zip(reversed(self.colours[high]), reversed(self.colours[low])):
            if had_high != had_low:                  # E.3: alternate to the last difference
                return south(low) if had_high == "white" else south(high)
        if want_high:                                                 # E.4: the higher ranked
            return grant(high, want_high)
        odd = high % 2 == 1                          # E.5: the initial colour to an odd number
        return south(high) if odd == (initial_colour == "south") else south(low)


def _players_by_number(players: Iterable[Player]) -> dict[int, Player]:
    by_number: dict[int, Player] = {}
    for player in players:
        if not isinstance(player, Player):
            raise ValueError("a player must be a Player, not %r" % (player,))
        if type(player.number) is not int or player.number < 1:
            raise ValueError("player %r: the pairing number must be a whole number >= 1"
                             % (player.name,))
        if player.number in by_number:
            raise ValueError("pairing number %d is used twice (%r and %r)"
                             % (player.number, by_number[player.number].name, player.name))
        by_number[player.number] = player
    return by_number


def _met(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _who(pairing: Pairing) -> str:
    if pairing.north is None:
        return "%d has a bye" % pairing.south
    return "%d v %d" % (pairing.south, pairing.north)
