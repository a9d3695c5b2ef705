"""The board as every page shows it, in words a person beside it can act on (host-only).

    view = board_view(session, ("Amina", "Yusuf"), hint_reason="it captures 6")
    view["to_move"], view["result"], view["moves"]        # 0, None, "1. 3 5 2. 1 *"
    event_words(event, session, ("Amina", "Yusuf"))       # "Amina lifts pit 3"

One view of a `controller.session.Session` for every screen: the table companion beside a
physical board (`controller.web`), the browser's virtual table (`simulator.ui`) and the log of
`layli run`. Each adds only what is its own (the companion whether the board waits for a
game; the virtual table its seeds, its hand and its LED rings), so whose turn it is, how a game
ended, the moves so far, a fault and every event are worked out, and said, in one place. The
events are told as a game is: a relay, a capture, an Uur (and what its step asks), each move
summed up, the final count explained.

Places are said as the players name them ("Amina's pit 3", "Yusuf's store"), a fault with where,
why and what to do, the next hand of a match as an instruction. The one thing that differs from
surface to surface is how a person reaches the board's controls: a physical board has a confirm
button, the browser a key and a button; `Controls` says which.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.guide import AWAIT, SKIP, SOWING
from controller.guide.events import (ARRANGED, BOARD_MATCHES, CONFIRMED, DIFFERENCE, GAME_OVER,
                                     HAND_OVER, HAND_READY, ILLEGAL_PIT, MATCH_OVER, MISTAKE,
                                     MISTAKE_CLEARED,
                                     MOVE_ABANDONED, MOVE_DONE, MOVE_STARTED, MOVE_TAKEN_BACK,
                                     OUTSIDE_SCRIPT, PASSED, SENSOR_FAULT, SKIP_AHEAD,
                                     SKIP_OFFERED, SKIPPED, STEP_DONE, TO_SET, WRONG_PIT)
from controller.guide.setup import ARRANGE, COPY, PLACE
from controller.rules.match import MATCH_SHORT
from controller.rules import SIDES, Step, place_words, record

if TYPE_CHECKING:
    from controller.guide.setup import HandSetup
    from controller.rules.match import Match
    from controller.rules import Game
    from controller.session import Session


class Controls:
    """How a surface tells a person to use its controls, inside the words of an event:
    `confirm`, to vouch for a place whose sensor is faulty ("press confirm"), and `skip`, the
    offer of a long relay's result ("press confirm to skip ahead to the move's result")."""

    __slots__ = ("confirm", "skip")

    def __init__(self, confirm: str, skip: str) -> None:
        self.confirm = confirm
        self.skip = skip


# a physical board: one confirm button does both (controller.session.loop.BoardLoop.confirm)
BOARD_CONTROLS = Controls("press confirm",
                          "press confirm to skip ahead to the move's result")


def moves_text(game: Game) -> str:
    """The moves so far in the game record's notation ("1. 3 5 2. 1 *"): its movetext."""
    text = record.write_game(game)
    return text.split("\n\n", 1)[1].strip() if "\n\n" in text else text.strip()


def result_words(scores: list[int], players: tuple[str, str] = SIDES) -> str:
    """How a game with these final scores ended: "Amina wins, 30 to 18", "a draw, 24 to 24"
    (the higher score wins, as `Game.winner` says)."""
    if scores[0] == scores[1]:
        who = "a draw"
    else:
        who = "%s wins" % players[0 if scores[0] > scores[1] else 1]
    return "%s, %d to %d" % (who, scores[0], scores[1])


def setup_words(setup: HandSetup, players: tuple[str, str] = SIDES) -> str:
    """What the players do now to set up a match's next hand (controller.guide.setup)."""
    arranger, other = players[setup.arranger], players[setup.other]
    keep = setup.holdings[setup.other]
    if setup.phase == ARRANGE:
        text = ("%s takes all %d seeds from their store and places them in their own pits, "
                "one at least in each, as they like; %s waits" % (
                    arranger, setup.holdings[setup.arranger], other))
    else:
        row = setup.rows[setup.arranger]
        keep -= sum(row)
        if setup.phase == COPY:
            text = "%s copies %s's pits, pit for pit: %s" % (
                other, arranger, ", ".join(str(count) for count in row))
        elif setup.phase == PLACE:
            text = "%s places %d seeds in their own pits, one at least in each, as they like" % (
                other, sum(row))
        else:
            return "the next hand is set"
        text += "; %d stay%s in their store" % (keep, "s" if keep == 1 else "")
    wrong = ["%s: %d too %s" % (place_words(place, setup.n, players), abs(diff),
                                "many" if diff > 0 else "few")
             for place, diff in sorted(setup.wrong.items())]
    return text + (" (%s)" % "; ".join(wrong) if wrong else "")


def fault_words(place: int, why: str, n: int, players: tuple[str, str] = SIDES,
                controls: Controls = BOARD_CONTROLS) -> str:
    """A faulty sensor, where, why and what to do about it."""
    return "the sensor of %s is faulty (%s): do its steps by hand and %s" % (
        place_words(place, n, players), why, controls.confirm)


def difference_words(diff: dict, n: int, players: tuple[str, str] = SIDES) -> str:
    """{place: seeds too many (+) or too few (-)} in words, place by place."""
    return ", ".join("%s has %d too %s" % (place_words(place, n, players), abs(seeds),
                                            "many" if seeds > 0 else "few")
                     for place, seeds in sorted(diff.items()))


def step_words(session: Session, done: int, players: tuple[str, str] = SIDES) -> str | None:
    """What the step just done (the `done`-th of the move's script) tells the players, when
    it is more than a seed dropped: a relay, a capture, an Uur made, the seeds gathered at the
    end; and, when the next step is an Uur's, what to do for it. None otherwise."""
    guide = session.guide
    script = guide.script
    if script is None or not 0 < done <= len(script):
        return None
    n = guide.game.rules.n
    who = players[guide.mover]
    step = script[done - 1]
    kind = step[0]
    said = []
    if kind == Step.PICK and done > 1:      # the last seed fell into a full pit: sow on
        said.append("relay: %s lifts %d from %s" % (who, step[2], place_words(step[1], n,
                                                                               players)))
    elif kind == Step.CAPTURE:
        before = script[done - 2] if done > 1 else None
        if (step[2] == 1 and before is not None and before[0] == Step.CAPTURE
                and before[1] == 2 * n - 1 - step[1]):
            # the seed that made the capture, from the pit facing the one captured
            said.append("%s takes the capturing seed too, from %s" % (
                who, place_words(step[1], n, players)))
        else:
            said.append("%s captures %d from %s" % (who, step[2],
                                                    place_words(step[1], n, players)))
    elif kind == Step.UUR:
        said.append("Uur! %s and %s are %s's now" % (place_words(step[1], n, players),
                                                     place_words(step[2], n, players), who))
    elif kind == Step.COLLECT:
        # a pit of the other row is the owner's Uur: its seeds are the owner's
        uur = " (%s's Uur)" % players[step[3]] if (step[1] < n) != (step[3] == 0) else ""
        said.append("%d from %s%s go to %s's store" % (
            step[2], place_words(step[1], n, players), uur, players[step[3]]))
    if done < len(script) and kind != script[done][0]:
        # what the next step asks, when it is more than a seed to drop or a pit to lift
        after = script[done]
        if after[0] == Step.UUR:
            said.append("Uur! %s moves one seed from %s to %s" % (
                who, place_words(after[2], n, players), place_words(after[1], n, players)))
        elif after[0] == Step.CAPTURE:
            said.append("%s captures: empty %s into %s's store" % (
                who, place_words(after[1], n, players), who))
        elif after[0] == Step.COLLECT:
            said.append("the game is over: the seeds left go to their owners' stores")
    return "; ".join(said) or None


def move_summary(script: list | None) -> str:
    """A move's script in a few words: ": 26 seeds sown, 4 relays, 7 captured" (", an Uur
    made")."""
    if not script:
        return ""
    laps = drops = captured = uurs = 0
    for step in script:
        kind = step[0]
        if kind == Step.PICK:
            laps += 1
        elif kind == Step.DROP:
            drops += 1
        elif kind == Step.CAPTURE:
            captured += step[2]
        elif kind == Step.UUR:
            uurs += 1
    if not drops:
        return ""
    words = ": %d seed%s sown" % (drops, "" if drops == 1 else "s")
    if laps > 1:
        words += ", %d relay%s" % (laps - 1, "" if laps == 2 else "s")
    if captured:
        words += ", %d captured" % captured
    if uurs:
        words += ", an Uur made"
    return words


def score_words(scores: list[int], script: list | None,
                players: tuple[str, str] = SIDES) -> str:
    """How the final scores were made, when seeds were gathered at the end (the last move's
    script ends with them): " (Amina: 22 captured + 8 at the end; Yusuf: 18 captured)"."""
    gathered = [0, 0]
    for step in script or ():
        if step[0] == Step.COLLECT:
            gathered[step[3]] += step[2]
    if not gathered[0] and not gathered[1]:
        return ""
    parts = []
    for side in (0, 1):
        text = "%s: %d captured" % (players[side], scores[side] - gathered[side])
        if gathered[side]:
            text += " + %d at the end" % gathered[side]
        parts.append(text)
    return " (%s)" % "; ".join(parts)


def match_words(match: Match, players: tuple[str, str] = SIDES) -> str:
    """How a match that is over ended, from what each player held after its last hand:
    "South wins the match: North holds 4 seeds, too few to fill a row", "North wins the
    match: after 3 hands North holds 30 seeds, South 18"."""
    held = match.held()[-1]
    hands = len(match.games)
    if match.winner is None:
        return "the match is a draw: after %d hand%s each holds %d seeds" % (
            hands, "" if hands == 1 else "s", held[0])
    loser = 1 - match.winner
    words = "%s wins the match: " % players[match.winner]
    if match.end_reason == MATCH_SHORT:
        return words + "%s holds %d seed%s, too few to fill a row" % (
            players[loser], held[loser], "" if held[loser] == 1 else "s")
    return words + "after %d hand%s %s holds %d seeds, %s %d" % (
        hands, "" if hands == 1 else "s", players[match.winner], held[match.winner],
        players[loser], held[loser])


def variant_words(title: str) -> str:
    """A variant's name as its players write it, for a heading or a menu: its title without
    the source or place in brackets ("Layli Goobalay (Jama Musse Jama)" -> "Layli Goobalay";
    the title, in a tooltip, keeps them)."""
    if title.endswith(")") and " (" in title:
        return title[:title.rindex(" (")]
    return title


def event_words(event: tuple, session: Session, players: tuple[str, str] = SIDES,
                controls: Controls = BOARD_CONTROLS) -> str | None:
    """One event of the board (a kind of controller.guide.events and what it says) in words,
    said as the session stands just after it; None for the ones not worth a line (a seed
    dropped: the LEDs show it)."""
    kind = event[0]
    guide = session.guide
    n = guide.game.rules.n

    def where(place: int) -> str:
        return place_words(place, n, players)

    if kind == MOVE_STARTED:
        return "%s lifts pit %d" % (players[guide.mover], event[1])
    if kind == STEP_DONE:
        return step_words(session, event[1], players)
    if kind == MOVE_DONE:
        return "%s played pit %d%s" % (players[guide.mover], event[1],
                                       move_summary(guide.script))
    if kind == MISTAKE:
        what = event[1]
        if what == WRONG_PIT:
            return "a seed went into %s: it belongs in %s" % (where(event[2]), where(event[3]))
        if what == DIFFERENCE:
            return "the board differs: " + difference_words(event[2], n, players)
        if what == ILLEGAL_PIT:
            return "a hand went into %s, which cannot be played now: lift a lit pit" % (
                where(event[2]))
        if what == OUTSIDE_SCRIPT:
            return "a hand went into %s, where this move does not go" % where(event[2])
        return "a mistake at %s" % where(event[2])
    if kind == MISTAKE_CLEARED:
        # the mistake's line must not stay the last word once it is put right
        if event[1] is None:
            return "put right: the board agrees again"
        return "put right at %s" % where(event[1])
    if kind == TO_SET:
        return "to set the board: " + difference_words(event[1], n, players)
    if kind == SENSOR_FAULT:
        return fault_words(event[1], event[2], n, players, controls)
    if kind == CONFIRMED:
        return "confirmed by hand: %s" % where(event[1])
    if kind == SKIP_OFFERED:
        return "a long relay: %s" % controls.skip
    if kind == SKIP_AHEAD:
        return "skip ahead: set every lit place to its count"
    if kind == SKIPPED:
        return "skipped to the end of pit %d's move" % event[1]
    if kind == MOVE_TAKEN_BACK:
        return "pit %d taken back: put the seeds back as the LEDs show" % event[1]
    if kind == MOVE_ABANDONED:
        return "the move in progress is taken back: put the seeds back"
    if kind == BOARD_MATCHES:
        return "the board matches again"
    if kind == PASSED:
        return "%s has no stones and passes" % players[event[1]]
    if kind == GAME_OVER:
        return "game over: %s%s" % (result_words(event[1], players),
                                    score_words(event[1], guide.script, players))
    if kind == HAND_OVER:
        return "the hand is over: %s holds %d seeds, %s %d" % (
            players[0], event[1][0], players[1], event[1][1])
    if kind == MATCH_OVER:
        if session.match is not None and session.match.over:
            return match_words(session.match, players)
        return "the match is over: %s" % (
            "a draw" if event[1] is None else "%s wins" % players[event[1]])
    if kind == ARRANGED:
        return "%s arranged their pits: %s" % (players[event[1]], ", ".join(map(str, event[2])))
    if kind == HAND_READY:
        return "the next hand is set: it starts"
    return None


def board_view(session: Session, players: tuple[str, str] = SIDES,
               hint_reason: str | None = None,
               controls: Controls = BOARD_CONTROLS) -> dict:
    """What every page draws of the board, as JSON-ready data:

    - `variant`, `title` (with its source), `name` (as players write it), `n` (pits a row),
      `players` (South's and North's names), `place_names` (each place as the players name
      it: pits, then the stores);
    - `phase`: the guide's (controller.guide: await, sowing, skip, restore, over) or "setup"
      between a match's hands; `to_move` (0 South, 1 North; the player sowing while a move is
      under way; None once the game is over or between hands) and `moving`;
    - `captured`, `scores` (None until the game is over), `over`, `winner` (0, 1, or None for
      a draw or a game not over), `result` in words;
    - `moves`, the movetext so far; `hint` (a pit, while a move is awaited) and `hint_words`;
      `can_hint`, `skip_offered`;
    - `match_hand` (the hand of a match under way, from 1; None for a single game), `aside`
      (the seeds South and North hold aside in the hand in play), `held` (what each held
      after each hand that is over: the match's score), `match_over`, `match_result` in
      words, and `setup`, what to do to set the next hand up, in words;
    - `faults`: each faulty place as {place, where, why, words}."""
    game, guide, setup = session.game, session.guide, session.setup
    n = game.rules.n
    moving = guide.phase in (SOWING, SKIP)
    over = game.over and setup is None
    winner = game.winner() if over else None
    hint = guide.hint if guide.phase == AWAIT else None
    match = session.match
    return {
        "variant": game.rules.name,
        "title": game.rules.variant.title,
        "name": variant_words(game.rules.variant.title),
        "n": n,
        "players": list(players),
        "place_names": [place_words(place, n, players) for place in range(guide.size)],
        "phase": "setup" if setup is not None else guide.phase,
        "to_move": None if over or setup is not None else (
            guide.mover if moving else game.to_move),
        "moving": moving,
        "captured": list(game.captured),
        "scores": list(game.scores) if game.scores else None,
        "over": over,
        "winner": winner,
        "result": result_words(game.scores, players) if over else None,
        "moves": moves_text(game),
        "hint": hint,
        "hint_words": None if hint is None else "%s lifts pit %d%s" % (
            players[game.to_move], hint, ": " + hint_reason if hint_reason else ""),
        "can_hint": guide.phase == AWAIT and setup is None,
        "skip_offered": guide.phase == SOWING and guide.skip_offered,
        "match_hand": None if match is None else len(match.games),
        "aside": None if match is None else list(match.aside),
        "held": None if match is None else match.held(),
        "match_over": match is not None and match.over,
        "match_result": match_words(match, players) if match is not None and match.over
        else None,
        "setup": None if setup is None else setup_words(setup, players),
        "faults": [{"place": place, "where": place_words(place, n, players), "why": why,
                    "words": fault_words(place, why, n, players, controls)}
                   for place, why in enumerate(guide.faults) if why],
    }


__all__ = ["Controls", "BOARD_CONTROLS", "board_view", "difference_words", "event_words",
           "fault_words", "match_words", "move_summary", "score_words", "step_words",
           "moves_text", "result_words", "setup_words"]
