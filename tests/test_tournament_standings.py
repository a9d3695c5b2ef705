"""Standings: every tie-break on small hand-worked events (the arithmetic in the comments), on
published examples, a property test over random events, and bad input."""

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from controller.tournament.model import Pairing, Player, Result
from controller.tournament.pairing import round_robin
from controller.tournament.standings import (BUCHHOLZ, DIRECT_ENCOUNTER, SEED_DIFFERENCE,
                                             SONNEBORN_BERGER, TIEBREAKS, Standing, standings)

DATA = Path(__file__).parent / "tournament_data"

WIN, DRAW, LOSS = Result(1.0, 30, 18), Result(0.5, 24, 24), Result(0.0, 18, 30)


def players(n):
    return [Player(number, "Player %d" % number) for number in range(1, n + 1)]


def by_number(lines):
    return {line.player.number: line for line in lines}


def order(lines):
    return [(line.rank, line.player.number) for line in lines]


# A small Swiss event with byes, used by several tests.
#   round 1: 1 v 3 1-0 (30-18), 4 v 2 draw (24-24), 5 bye
#   round 2: 5 v 1 0-1 (20-28), 2 v 3 1-0 (31-17), 4 bye
# points: 1: 1 + 1 = 2; 2: 1/2 + 1 = 1.5; 3: 0; 4: 1/2 + 1 (bye) = 1.5; 5: 1 (bye) + 0 = 1
SWISS = [(Pairing(1, 1, 1, 3), WIN), (Pairing(1, 2, 4, 2), DRAW), (Pairing(1, 3, 5, None), Result(1.0, 0, 0)),
         (Pairing(2, 1, 5, 1), Result(0.0, 20, 28)), (Pairing(2, 2, 2, 3), Result(1.0, 31, 17)),
         (Pairing(2, 3, 4, None), Result(1.0, 0, 0))]


def test_points_and_records():
    lines = by_number(standings(players(5), SWISS))
    assert {number: line.points for number, line in lines.items()} == {1: 2, 2: 1.5, 3: 0, 4: 1.5, 5: 1}
    # byes are not games
    assert [(lines[n].games, lines[n].wins, lines[n].draws, lines[n].losses) for n in range(1, 6)] \
        == [(2, 2, 0, 0), (2, 1, 1, 0), (2, 0, 0, 2), (1, 0, 1, 0), (1, 0, 0, 1)]
    assert all(isinstance(line, Standing) for line in lines.values())


def test_buchholz_with_byes():
    lines = by_number(standings(players(5), SWISS))
    assert {number: line.buchholz for number, line in lines.items()} == {
        1: 0 + 1.0,        # opponents 3 (0) and 5 (1)
        2: 1.5 + 0,        # opponents 4 (1.5) and 3 (0)
        3: 2.0 + 1.5,      # opponents 1 (2) and 2 (1.5)
        4: 1.5 + 1.5,      # opponent 2 (1.5) and, for the bye, a dummy with 4's own 1.5
        5: 1.0 + 2.0,      # the bye's dummy with 5's own 1, and opponent 1 (2)
    }


def test_sonneborn_berger_with_byes():
    lines = by_number(standings(players(5), SWISS))
    assert {number: line.sonneborn_berger for number, line in lines.items()} == {
        1: 1 * 0 + 1 * 1.0,            # beat 3 (0) and 5 (1)
        2: 0.5 * 1.5 + 1 * 0,          # drew 4 (1.5), beat 3 (0)
        3: 0 * 2.0 + 0 * 1.5,          # lost both
        4: 0.5 * 1.5 + 1 * 1.5,        # drew 2 (1.5); the bye, 1 point against a dummy of 1.5
        5: 1 * 1.0 + 0 * 2.0,          # the bye, 1 point against a dummy of 1; lost to 1
    }


def test_seed_difference():
    lines = by_number(standings(players(5), SWISS))
    assert {number: line.seed_difference for number, line in lines.items()} == {
        1: (30 - 18) + (28 - 20),      # 20
        2: (24 - 24) + (31 - 17),      # 14
        3: (18 - 30) + (17 - 31),      # -26
        4: 24 - 24,                    # 0 (byes have no seeds)
        5: 20 - 28,                    # -8
    }
    assert sum(line.seed_difference for line in lines.values()) == 0


def test_order_and_direct_encounter_that_does_not_separate():
    lines = standings(players(5), SWISS)
    # 2 and 4 are tied on 1.5 and met (a draw): direct encounter 1/2 each, no help; Buchholz
    # puts 4 (3.0) ahead of 2 (1.5).
    assert order(lines) == [(1, 1), (2, 4), (3, 2), (4, 5), (5, 3)]
    assert by_number(lines)[2].direct_encounter == by_number(lines)[4].direct_encounter == 0.5
    assert by_number(lines)[1].direct_encounter is None          # nobody tied with 1


def six_player_round_robin():
    """1, 2 and 3 tie on 3.5 points. Among themselves: 1 beat 2 and drew 3, 2 beat 3, so
    1 has 1 + 1/2 = 1.5, 2 has 1, 3 has 1/2. Against 4 and 5: 1 beat 4 and lost to 5 (1),
    2 beat 4 and drew 5 (1.5), 3 beat both (2). 4 beat 5; everyone beat 6.
    Totals: 1, 2, 3: 3.5; 4: 2; 5: 2.5; 6: 0."""
    south_points = {(1, 2): 1.0, (1, 3): 0.5, (2, 3): 1.0, (1, 4): 1.0, (1, 5): 0.0, (2, 4): 1.0,
                    (2, 5): 0.5, (3, 4): 1.0, (3, 5): 1.0, (4, 5): 1.0}
    south_points.update({(number, 6): 1.0 for number in range(1, 6)})
    games = []
    for pairings in round_robin(players(6)):
        for pairing in pairings:
            pair = (min(pairing.south, pairing.north), max(pairing.south, pairing.north))
            points = south_points[pair] if pair[0] == pairing.south else 1.0 - south_points[pair]
            games.append((pairing, Result(points, 24 + int(12 * (points - 0.5)),
                                          24 - int(12 * (points - 0.5)))))
    return games


def test_direct_encounter_separates_players_who_all_met():
    lines = standings(players(6), six_player_round_robin())
    assert [line.points for line in lines] == [3.5, 3.5, 3.5, 2.5, 2.0, 0.0]
    assert order(lines) == [(1, 1), (2, 2), (3, 3), (4, 5), (5, 4), (6, 6)]
    assert [line.direct_encounter for line in lines[:3]] == [1.5, 1.0, 0.5]


def test_direct_encounter_not_applied_when_not_all_met():
    # 1 beat 3 (30-18), 2 beat 4 (35-13): 1 and 2 tie on 1 point but never met. No direct
    # encounter; Buchholz (0 and 0) and Sonneborn-Berger (0 and 0) tie; seed difference puts
    # 2 (+22) ahead of 1 (+12).
    games = [(Pairing(1, 1, 1, 3), WIN), (Pairing(1, 2, 2, 4), Result(1.0, 35, 13))]
    lines = standings(players(4), games)
    assert order(lines) == [(1, 2), (2, 1), (3, 3), (4, 4)]
    assert [line.direct_encounter for line in lines] == [None] * 4
    # Of three tied players only two met: not applied either.
    games = [(Pairing(1, 1, 1, 2), DRAW), (Pairing(1, 2, 3, 4), DRAW)]
    lines = by_number(standings(players(4), games))
    assert lines[1].direct_encounter is None and lines[3].direct_encounter is None


def test_direct_encounter_among_the_players_still_tied_when_it_comes():
    # With Buchholz first, the direct encounter is taken among those Buchholz leaves tied.
    lines = standings(players(6), six_player_round_robin(), tiebreaks=[BUCHHOLZ, DIRECT_ENCOUNTER])
    # In a round robin tied players have equal Buchholz (everyone else's points):
    # 3.5 + 3.5 + 2.5 + 2 + 0 = 11.5 each
    assert [line.buchholz for line in lines[:3]] == [11.5, 11.5, 11.5]
    assert [line.direct_encounter for line in lines[:3]] == [1.5, 1.0, 0.5]
    # Without the direct encounter, Sonneborn-Berger decides:
    # 1: 3.5 (beat 2) + 1.75 (drew 3) + 2 (beat 4) + 0 (beat 6) = 7.25;
    # 2: 3.5 (beat 3) + 2 (beat 4) + 1.25 (drew 5) + 0 = 6.75; 3: 1.75 + 2 + 2.5 + 0 = 6.25
    lines = standings(players(6), six_player_round_robin(), tiebreaks=[SONNEBORN_BERGER])
    assert [line.sonneborn_berger for line in lines[:3]] == [7.25, 6.75, 6.25]
    assert [line.direct_encounter for line in lines] == [None] * 6


def test_tie_break_order_is_followed():
    # 4 and 2 tie on 1.5. Buchholz puts 4 first (3.0 against 1.5); seed difference puts 2
    # first (+14 against 0).
    assert order(standings(players(5), SWISS, tiebreaks=[SEED_DIFFERENCE]))[1:3] == [(2, 2), (3, 4)]
    assert order(standings(players(5), SWISS, tiebreaks=[BUCHHOLZ]))[1:3] == [(2, 4), (3, 2)]


def test_players_tied_on_everything_share_a_rank():
    # 1 and 2 won alike, 3 and 4 lost alike: ranks 1, 1, 3, 3, listed by pairing number.
    games = [(Pairing(1, 1, 1, 3), WIN), (Pairing(1, 2, 2, 4), WIN)]
    assert order(standings(players(4), games)) == [(1, 1), (1, 2), (3, 3), (3, 4)]
    assert order(standings(players(4), [])) == [(1, 1), (1, 2), (1, 3), (1, 4)]


def test_game_without_result_is_ignored():
    games = SWISS + [(Pairing(3, 1, 1, 4), None), (Pairing(3, 2, 2, 5), None)]
    assert standings(players(5), games) == standings(players(5), SWISS)


def test_half_point_bye():
    # bye_points 1/2: 3's bye is worth 1/2, and counts in Buchholz as a dummy with 3's 1/2,
    # in Sonneborn-Berger as 1/2 * 1/2.
    games = [(Pairing(1, 1, 1, 2), WIN), (Pairing(1, 2, 3, None), Result(0.5, 0, 0))]
    lines = by_number(standings(players(3), games, bye_points=0.5))
    assert (lines[3].points, lines[3].buchholz, lines[3].sonneborn_berger) == (0.5, 0.5, 0.25)


def test_withdrawn_opponent_counts_half_a_point_a_missed_round():
    # Round 1: 1 beat 2, 3 beat 4. Round 2: 1 drew 3; 2 and 4 are not paired (withdrawn).
    games = [(Pairing(1, 1, 1, 2), WIN), (Pairing(1, 2, 3, 4), WIN), (Pairing(2, 1, 1, 3), DRAW)]
    lines = by_number(standings(players(4), games))
    assert lines[1].buchholz == (0 + 0.5) + 1.5     # 2 counts 0 + 1/2 for round 2; 3 has 1.5
    assert lines[2].buchholz == 1.5 + 0             # 1 (1.5); round 2 unplayed: dummy with 0
    assert lines[1].sonneborn_berger == 1 * 0.5 + 0.5 * 1.5


# --- published examples ----------------------------------------------------------------------

def test_sonneborn_berger_published_example():
    """Sensei's Library, "Sonneborn-Berger": four players, two cycles, no draws.
    Cycle 1: A beat B, C, D; B beat C, D; C beat D. Cycle 2: B beat A, C beat B, A beat C,
    D beat A, B beat D, C beat D. Published: A and B 4 wins, C 3, D 1; Sonneborn-Berger
    A 4+3+3+1 = 11, B 4+3+1+1 = 9, C 4+1+1 = 6, D 4 = 4, so A wins the tie."""
    winners = [{(1, 2): 1, (1, 3): 1, (1, 4): 1, (2, 3): 2, (2, 4): 2, (3, 4): 3},
               {(1, 2): 2, (2, 3): 3, (1, 3): 1, (1, 4): 4, (2, 4): 2, (3, 4): 3}]
    games = []
    for index, pairings in enumerate(round_robin(players(4), double=True)):
        for pairing in pairings:
            winner = winners[index // 3][min(pairing.south, pairing.north),
                                         max(pairing.south, pairing.north)]
            games.append((pairing, WIN if winner == pairing.south else LOSS))
    lines = standings(players(4), games)
    assert [(line.player.number, line.points, line.sonneborn_berger) for line in lines] == [
        (1, 4, 11), (2, 4, 9), (3, 3, 6), (4, 1, 4)]
    assert (lines[0].rank, lines[1].rank) == (1, 2)


def test_buchholz_fide_exercise_2023():
    """FIDE TEC's tie-break exercise for the 2023 regulations, exercise 1: player 2's
    Buchholz is 13. Forfeits and half-point byes have no place in our model; they are left
    out, which changes nobody's points among player 2's opponents (10, 7, 1, 16, 3)."""
    games, boards = [], {}
    lines = (DATA / "fide_tiebreak_exercise_2023.csv").read_text().splitlines()[1:]
    for line in lines:
        number, *entries = line.split(",")
        for round, entry in enumerate(entries, 1):
            if entry == "+BYE":
                boards[round] = boards.get(round, 0) + 1
                games.append((Pairing(round, boards[round], int(number), None), Result(1.0, 0, 0)))
            elif entry[1] == "W":                 # each game once, from the South side
                boards[round] = boards.get(round, 0) + 1
                points = {"+": 1.0, "=": 0.5, "-": 0.0}[entry[0]]
                games.append((Pairing(round, boards[round], int(number), int(entry[2:])),
                              Result(points, 0, 0)))
    lines = by_number(standings(players(16), games))
    assert lines[2].points == 4.0
    assert lines[2].buchholz == 13


# --- properties ------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), seed=st.integers(0, 2 ** 32 - 1), double=st.booleans(),
       played=st.floats(0, 1), tiebreaks=st.permutations(TIEBREAKS))
def test_standings_properties(n, seed, double, played, tiebreaks):
    rng = random.Random(seed)
    games = []
    for pairings in round_robin(players(n), double=double):
        for pairing in pairings:
            if pairing.is_bye:
                games.append((pairing, Result(1.0, 0, 0) if rng.random() < played else None))
            else:
                games.append((pairing, Result(rng.choice([1.0, 0.5, 0.0]), rng.randrange(49),
                                              rng.randrange(49)) if rng.random() < played else None))
    lines = standings(players(n), games, tiebreaks=tiebreaks)
    finished = [(pairing, result) for pairing, result in games if result is not None]
    assert sorted(line.player.number for line in lines) == list(range(1, n + 1))
    assert sum(line.points for line in lines) == sum(
        1.0 for pairing, _ in finished)                       # a game or a bye: 1 point
    assert sum(line.games for line in lines) == 2 * sum(not p.is_bye for p, _ in finished)
    assert sum(line.seed_difference for line in lines) == 0
    for line in lines:
        assert line.wins + line.draws + line.losses == line.games
    # ranks follow the order; a rank is shared exactly when nothing tells the players apart
    def key(line):
        return [line.points] + [getattr(line, name) for name in tiebreaks
                                if name != DIRECT_ENCOUNTER]
    for before, after in zip(lines, lines[1:]):
        if before.rank == after.rank:
            assert key(before) == key(after) and before.player.number < after.player.number
            assert before.direct_encounter == after.direct_encounter
        else:
            assert after.rank == lines.index(after) + 1
            assert before.points >= after.points


# --- bad input -------------------------------------------------------------------------------

def test_bad_input():
    with pytest.raises(ValueError, match="round 1, board 1: player 7 is not registered"):
        standings(players(4), [(Pairing(1, 1, 1, 7), WIN)])
    with pytest.raises(ValueError, match=r"round 1: player 1 is paired twice \(board 1 and board 2\)"):
        standings(players(4), [(Pairing(1, 1, 1, 2), WIN), (Pairing(1, 2, 1, None), None)])
    with pytest.raises(ValueError, match="player 3 has a bye, so no seeds, but the result has 20-4"):
        standings(players(4), [(Pairing(1, 2, 3, None), Result(1.0, 20, 4))])
    with pytest.raises(ValueError, match="player 3's bye is worth 0.5 in this event, not 1"):
        standings(players(4), [(Pairing(1, 2, 3, None), Result(1.0, 0, 0))], bye_points=0.5)
    with pytest.raises(ValueError, match="bye_points must be 1, 0.5 or 0, not 2"):
        standings(players(4), [], bye_points=2)
    with pytest.raises(ValueError, match="unknown tie-break 'koya'; the tie-breaks are "
                                         "direct_encounter, buchholz"):
        standings(players(4), [], tiebreaks=["koya"])
    with pytest.raises(ValueError, match="tie-break 'buchholz' is listed twice"):
        standings(players(4), [], tiebreaks=[BUCHHOLZ, BUCHHOLZ])
    with pytest.raises(ValueError, match="pairing number 1 is used twice"):
        standings([Player(1, "a"), Player(1, "b")], [])
