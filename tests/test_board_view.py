"""One view of the board for every page (controller.board.view): the table companion beside a
physical board (`Runner.view`) and the browser's virtual table (`Table.state`) draw the same
game from the same `board_view`, and every event kind is said in the same words on both and in
the log."""

from __future__ import annotations

from controller.board.runner import Runner
from controller.board.view import BOARD_CONTROLS, board_view, event_words, result_words
from controller.languages import current
from controller.guide import events
from controller.guide.events import (ARRANGED, BOARD_MATCHES, CONFIRMED, DIFFERENCE, GAME_OVER,
                                     HAND_OVER, HAND_READY, ILLEGAL_PIT, MATCH_OVER, MISTAKE,
                                     MISTAKE_CLEARED, MOVE_ABANDONED, MOVE_DONE, MOVE_STARTED,
                                     MOVE_TAKEN_BACK, OUTSIDE_SCRIPT, PASSED, RESUMED,
                                     SENSOR_FAULT, SKIP_AHEAD, SKIP_OFFERED, SKIPPED, STEP_DONE,
                                     TO_SET, WRONG_PIT)
from controller.hardware.profile import load
from controller.rules import SIDES, Game, Rules, record
from controller.sensing import Calibration
from controller.session import MemoryStorage, Session
from simulator.ui.table import COMPUTERS, REPLAY, TABLE_CONTROLS, Table

MOVES = [4, 4, 3, 4]


class CountsIO:
    """A board whose counts the test sets: load cells at 1000 a seed, a frame every 12 ms,
    with a few units of noise (a reading that never moves is a cell come loose)."""

    def __init__(self):
        self.counts: list[int] = []
        self.t_ms = 0

    def read(self):
        self.t_ms += 12
        noise = self.t_ms // 12 % 3 * 7
        return [(self.t_ms, [count * 1000 + noise for count in self.counts])], []

    def show(self, frame, pixels):
        pass

    def beep(self, name):
        pass

    def close(self):
        pass


def replayed_table() -> Table:
    """The browser's table, its replay of MOVES played to the end by the hand that follows
    the LEDs."""
    game = Game(Rules("layli-goobalay"))
    for move in MOVES:
        game.push(move)
    table = Table(mode=REPLAY, record_text=record.write_game(game), hint_seconds=0,
                  step_seconds=0)
    while table.autoplay_step(force=True):
        pass
    assert table.game.moves == MOVES
    return table


def board_of(table: Table) -> Runner:
    """A physical board's runner on the game the table reached, its pits set as the table's."""
    session = Session(MemoryStorage(), "layli-goobalay")
    session.carry_on(MOVES)
    io = CountsIO()
    io.counts = table.counts[:]
    runner = Runner(io, session, load("pico-bridge-2x6").led_layout(), "counting",
                    Calibration([0] * 14, [1000] * 14, noise=[20] * 14), now_ms=lambda: 0)
    for _ in range(40):             # the readings settle; the guide sees the board is right
        runner.step()
    return runner


def test_both_pages_draw_the_same_view_of_the_same_game():
    table = replayed_table()
    runner = board_of(table)
    companion, browser = runner.view(), table.state()
    common = board_view(table.session)
    assert common["moves"] == "1. 4 4 2. 3 4 *" and common["to_move"] == 0
    assert common["phase"] == "await" and common["over"] is False and common["result"] is None
    for key, value in common.items():
        assert companion[key] == value, key
        assert browser[key] == value, key
    # each adds its own, and nothing of the other's
    assert companion["waiting"] is None and "counts" not in companion
    assert browser["counts"] == table.counts and "waiting" not in browser


def test_the_view_of_an_ended_game_says_who_won_and_by_how_much():
    game = Game(Rules("layli-goobalay"))
    while not game.over:
        game.push(game.legal_moves()[0])
    session = Session(MemoryStorage(), "layli-goobalay")
    session.carry_on(game.moves)
    state = board_view(session, ("Amina", "Yusuf"))
    assert state["over"] and state["to_move"] is None and state["hint_words"] is None
    assert state["scores"] == list(game.scores) and state["winner"] == game.winner()
    assert state["result"] == result_words(game.scores, ("Amina", "Yusuf"))
    assert state["moves"].endswith(" 0-1" if game.winner() == 1 else " 1-0")


def test_results_in_words():
    assert result_words([30, 18], ("Amina", "Yusuf")) == "Amina wins, 30 to 18"
    assert result_words([10, 38]) == "North wins, 10 to 38"
    assert result_words([24, 24]) == "a draw, 24 to 24"


# every kind of event, as the guide, a match's set-up or the session makes it
SAMPLES = {
    MOVE_STARTED: (MOVE_STARTED, 3), STEP_DONE: (STEP_DONE, 4), PASSED: (PASSED, 1),
    SKIP_OFFERED: (SKIP_OFFERED, 3), SKIP_AHEAD: (SKIP_AHEAD, 3), SKIPPED: (SKIPPED, 3),
    MOVE_DONE: (MOVE_DONE, 3), MOVE_ABANDONED: (MOVE_ABANDONED, 3),
    MOVE_TAKEN_BACK: (MOVE_TAKEN_BACK, 3), BOARD_MATCHES: (BOARD_MATCHES,),
    GAME_OVER: (GAME_OVER, [30, 18]), MISTAKE: (MISTAKE, WRONG_PIT, 4, 3),
    MISTAKE_CLEARED: (MISTAKE_CLEARED, 4), TO_SET: (TO_SET, {2: -1, 13: 2}),
    SENSOR_FAULT: (SENSOR_FAULT, 8, "stuck"),
    CONFIRMED: (CONFIRMED, 8), HAND_OVER: (HAND_OVER, [30, 18]),
    MATCH_OVER: (MATCH_OVER, 0, "short"),
    ARRANGED: (ARRANGED, 0, [5, 5, 5, 5, 5, 5]),
    HAND_READY: (HAND_READY, [5] * 6, [5] * 6),
    RESUMED: (RESUMED, 4, None, 0),
}
SILENT = {STEP_DONE, RESUMED}      # the LEDs (or the log's own line) say these


def kinds() -> set[str]:
    """Every event kind controller.guide.events defines (its upper-case names but the kinds
    of a mistake)."""
    mistakes = {WRONG_PIT, DIFFERENCE, ILLEGAL_PIT, OUTSIDE_SCRIPT}
    return {value for name, value in vars(events).items()
            if name.isupper() and isinstance(value, str) and value not in mistakes}


def test_every_event_kind_is_said_or_deliberately_left_to_the_leds():
    assert set(SAMPLES) == kinds()
    session = Session(MemoryStorage(), "layli-goobalay")
    players = ("Amina", "Yusuf")
    for kind, event in SAMPLES.items():
        words = event_words(event, session, players)
        if kind in SILENT:
            assert words is None, kind
        else:
            assert words and "{" not in words and "_" not in words, (kind, words)
    assert event_words(SAMPLES[MOVE_STARTED], session, players) == "Amina lifts pit 3"
    assert event_words(SAMPLES[GAME_OVER], session, players) == "game over: Amina wins, 30 to 18"
    assert event_words(SAMPLES[MISTAKE], session, players) == \
        "a seed went into Amina's pit 5: it belongs in Amina's pit 4"
    assert event_words(SAMPLES[MISTAKE_CLEARED], session, players) == \
        "put right at Amina's pit 5"
    assert event_words((MISTAKE_CLEARED, None), session) == "put right: the board agrees again"


def test_every_kind_of_mistake_names_its_places():
    session = Session(MemoryStorage(), "layli-goobalay")
    said = [event_words(event, session) for event in [
        (MISTAKE, DIFFERENCE, {2: -1, 13: 2}), (MISTAKE, ILLEGAL_PIT, 7),
        (MISTAKE, OUTSIDE_SCRIPT, 9)]]
    assert said[0] == "the board differs: South's pit 3 has 1 too few, North's store has 2 too many"
    assert event_words(SAMPLES[TO_SET], session) == (
        "to set the board: South's pit 3 has 1 too few, North's store has 2 too many")
    assert "North's pit 2" in said[1] and "North's pit 4" in said[2]


def test_a_mistake_put_right_is_told_so_its_words_do_not_stay_on_show():
    """Issue 16: "messages clear when put right". Counting sensors: a seed into the wrong pit
    and taken back out, a seed too many taken out, and a wrong seed moved straight to the
    right pit (the step accepted) each end with "put right"."""
    session = Session(MemoryStorage(), "layli-goobalay")
    counts = session.guide.board.places()

    def read() -> list[str]:
        session.update(counts[:], [True] * len(counts))
        events, session.events = session.events, []
        return [words for event in events
                if (words := event_words(event, session)) is not None]

    counts[2] = 0                                   # South lifts pit 3: 4 seeds in hand
    read()
    counts[5] += 1                                  # one into pit 6; it belongs in pit 4
    assert read()[-1] == "a seed went into South's pit 6: it belongs in South's pit 4"
    counts[5] -= 1                                  # taken back out
    assert read()[-1] == "put right at South's pit 6"
    counts[3] += 1                                  # the right pit; then pit 5 twice
    counts[4] += 2
    said = read()
    assert said[-1].startswith("the board differs: South's pit 5 has 1 too many"), said
    counts[4] -= 1
    assert read()[-1] == "put right: the board agrees again"
    counts[6] += 1                                  # wrong, then moved straight to pit 6
    assert read()[-1] == "a seed went into North's pit 1: it belongs in South's pit 6"
    counts[6] -= 1
    counts[5] += 1
    said = read()
    assert "put right at North's pit 1" in said, said


def test_each_surface_names_its_own_controls():
    session = Session(MemoryStorage(), "layli-goobalay")
    fault = (SENSOR_FAULT, 8, "stuck")
    assert event_words(fault, session).endswith("press confirm")
    assert event_words(fault, session, SIDES, TABLE_CONTROLS).endswith("confirm (c)")
    assert BOARD_CONTROLS.skip in event_words((SKIP_OFFERED, 3), session)
    assert "(s)" in event_words((SKIP_OFFERED, 3), session, SIDES, TABLE_CONTROLS)


def test_a_game_is_told_move_by_move_relays_captures_uurs_and_the_final_count():
    """Issue 16's narration: what a step did, when more than a seed dropped, and what the
    next step asks when it is an Uur's; each move summed up; the final count explained. A
    correct action is never told as a mistake."""
    table = Table(mode=COMPUTERS, seed=5, hint_seconds=0, step_seconds=0)
    told: list[str] = []
    describe = table.describe

    def telling(event):         # each event is said in every language: the English kept
        words = describe(event)
        if current() == "en":
            told.append(words or "")
        return words

    table.describe = telling
    while table.autoplay_step():
        pass
    text = "\n".join(told)
    # (the game the hard level plays against itself from seed 5)
    assert "relay: South lifts 5 from South's pit 6" in text
    assert "South captures 6 from North's pit 3" in text
    assert "South takes the capturing seed too, from South's pit 4" in text
    assert "Uur! North moves one seed from South's pit 6 to North's pit 1" in text
    assert "Uur! North's pit 1 and South's pit 6 are North's now" in text
    assert "South played pit 2: 26 seeds sown, 4 relays, 7 captured" in text
    assert "North played pit 6: 7 seeds sown, 1 relay" in text
    # at the end an Uur's seeds in the other row go to its owner, said so
    assert "7 from South's pit 6 (North's Uur) go to North's store" in text
    assert told[-1] == ("game over: South wins, 30 to 18 (South: 13 captured + 17 at the end; "
                        "North: 5 captured + 13 at the end)")
    assert "differs" not in text and "mistake" not in text


def test_how_a_match_ended_in_words():
    """The match's end as the players read it: who won and why (a row too short to fill, or
    the hands' limit reached with more seeds held, or a draw), from what each held after the
    last hand (the MATCH_OVER event said the reason's code, "(short)")."""
    from controller.board.view import match_words
    from controller.rules.match import MATCH_HANDS, MATCH_SHORT

    class Ended:                        # what match_words reads of a Match that is over
        def __init__(self, hands, held, winner, reason):
            self.games = [None] * hands
            self._held, self.winner, self.end_reason = held, winner, reason

        def held(self):
            return self._held

    assert match_words(Ended(2, [[16, 32], [30, 34]], 1, MATCH_HANDS), ("Amina", "Yusuf")) == (
        "Yusuf wins the match: after 2 hands Yusuf holds 34 seeds, Amina 30")
    assert match_words(Ended(3, [[20, 28], [43, 5]], 0, MATCH_SHORT)) == (
        "South wins the match: North holds 5 seeds, too few to fill a row")
    assert match_words(Ended(1, [[24, 24]], None, MATCH_HANDS)) == (
        "the match is a draw: after 1 hand each holds 24 seeds")
