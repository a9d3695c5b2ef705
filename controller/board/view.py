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
from controller.rules import SIDES, Step, record
from controller.languages import N_, _, ngettext
from controller.ai import hints

if TYPE_CHECKING:
    from controller.ai.hints import Reason
    from controller.guide.setup import HandSetup
    from controller.rules.match import Match
    from controller.rules import Game
    from controller.session import Session


class Controls:
    """How a surface tells a person to use its controls, inside the words of an event:
    `confirm`, to vouch for a place whose sensor is faulty ("press confirm"), and `skip`, the
    offer of a long relay's result ("press confirm to skip ahead to the move's result"). Both
    are marked with `N_` and said in the language in use."""

    __slots__ = ("confirm", "skip")

    def __init__(self, confirm: str, skip: str) -> None:
        self.confirm = confirm
        self.skip = skip


# a physical board: one confirm button does both (controller.session.loop.BoardLoop.confirm)
BOARD_CONTROLS = Controls(N_("press confirm"),
                          N_("press confirm to skip ahead to the move's result"))


def side_names() -> tuple[str, str]:
    """South and North, in the language in use."""
    return (_("South"), _("North"))


def _named(players: tuple[str, str] | list | None) -> tuple[str, str]:
    # the players' own names, or South and North in the language in use
    if players is None or tuple(players) == SIDES:
        return side_names()
    return (players[0], players[1])


def place_name(place: int, n: int, players: tuple[str, str] | None = None) -> str:
    """A place as the players name it, in the language in use: "South's pit 3", "North's
    store" (pits 0..2n-1, then South's and North's store; `players`: their names, else South
    and North). controller.rules.place_words says the same in English for logs and the
    portable core."""
    players = _named(players)
    if place >= 2 * n:
        return _("%(player)s's store") % {"player": players[place - 2 * n]}
    return _("%(player)s's pit %(pit)d") % {"player": players[place // n], "pit": place % n + 1}


def moves_text(game: Game) -> str:
    """The moves so far in the game record's notation ("1. 3 5 2. 1 *"): its movetext."""
    text = record.write_game(game)
    return text.split("\n\n", 1)[1].strip() if "\n\n" in text else text.strip()


def result_words(scores: list[int], players: tuple[str, str] = SIDES) -> str:
    """How a game with these final scores ended: "Amina wins, 30 to 18", "a draw, 24 to 24"
    (the higher score wins, as `Game.winner` says)."""
    players = _named(players)
    if scores[0] == scores[1]:
        return _("a draw, %(south)d to %(north)d") % {"south": scores[0], "north": scores[1]}
    return _("%(player)s wins, %(south)d to %(north)d") % {
        "player": players[0 if scores[0] > scores[1] else 1],
        "south": scores[0], "north": scores[1]}


def setup_words(setup: HandSetup, players: tuple[str, str] = SIDES) -> str:
    """What the players do now to set up a match's next hand (controller.guide.setup)."""
    players = _named(players)
    arranger, other = players[setup.arranger], players[setup.other]
    keep = setup.holdings[setup.other]
    if setup.phase == ARRANGE:
        text = _("%(arranger)s takes all %(seeds)d seeds from their store and places them in "
                 "their own pits, one at least in each, as they like; %(other)s waits") % {
                     "arranger": arranger, "seeds": setup.holdings[setup.arranger],
                     "other": other}
    else:
        row = setup.rows[setup.arranger]
        keep -= sum(row)
        if setup.phase == COPY:
            text = _("%(other)s copies %(arranger)s's pits, pit for pit: %(row)s") % {
                "other": other, "arranger": arranger,
                "row": ", ".join(str(count) for count in row)}
        elif setup.phase == PLACE:
            text = _("%(other)s places %(seeds)d seeds in their own pits, one at least in "
                     "each, as they like") % {"other": other, "seeds": sum(row)}
        else:
            return _("the next hand is set")
        text += ngettext("; %(n)d stays in their store", "; %(n)d stay in their store",
                         keep) % {"n": keep}
    wrong = [_off_by(place, diff, setup.n, players, short=True)
             for place, diff in sorted(setup.wrong.items())]
    return text + (" (%s)" % "; ".join(wrong) if wrong else "")


def _off_by(place: int, diff: int, n: int, players: tuple[str, str], short: bool) -> str:
    # "South's pit 3 has 2 too many" ("South's pit 3: 2 too many", short): a place's count
    # off by diff (+ too many, - too few)
    where = place_name(place, n, players)
    if short:
        text = (ngettext("%(place)s: %(n)d too many", "%(place)s: %(n)d too many", diff)
                if diff > 0 else
                ngettext("%(place)s: %(n)d too few", "%(place)s: %(n)d too few", -diff))
    else:
        text = (ngettext("%(place)s has %(n)d too many", "%(place)s has %(n)d too many", diff)
                if diff > 0 else
                ngettext("%(place)s has %(n)d too few", "%(place)s has %(n)d too few", -diff))
    return text % {"place": where, "n": abs(diff)}


def fault_words(place: int, why: str, n: int, players: tuple[str, str] = SIDES,
                controls: Controls = BOARD_CONTROLS) -> str:
    """A faulty sensor, where, why (the sensing's own diagnosis, for the maker: not
    translated) and what to do about it."""
    return _("the sensor of %(place)s is faulty (%(why)s): do its steps by hand and "
             "%(confirm)s") % {"place": place_name(place, n, players), "why": why,
                               "confirm": _(controls.confirm)}


def difference_words(diff: dict, n: int, players: tuple[str, str] = SIDES) -> str:
    """{place: seeds too many (+) or too few (-)} in words, place by place."""
    players = _named(players)
    return ", ".join(_off_by(place, seeds, n, players, short=False)
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
    players = _named(players)
    who = players[guide.mover]

    def where(place: int) -> str:
        return place_name(place, n, players)

    step = script[done - 1]
    kind = step[0]
    said = []
    if kind == Step.PICK and done > 1:      # the last seed fell into a full pit: sow on
        said.append(_("relay: %(player)s lifts %(seeds)d from %(place)s") % {
            "player": who, "seeds": step[2], "place": where(step[1])})
    elif kind == Step.CAPTURE:
        before = script[done - 2] if done > 1 else None
        if (step[2] == 1 and before is not None and before[0] == Step.CAPTURE
                and before[1] == 2 * n - 1 - step[1]):
            # the seed that made the capture, from the pit facing the one captured
            said.append(_("%(player)s takes the capturing seed too, from %(place)s") % {
                "player": who, "place": where(step[1])})
        else:
            said.append(_("%(player)s captures %(seeds)d from %(place)s") % {
                "player": who, "seeds": step[2], "place": where(step[1])})
    elif kind == Step.UUR:
        said.append(_("Uur! %(from)s and %(to)s are %(player)s's now") % {
            "from": where(step[1]), "to": where(step[2]), "player": who})
    elif kind == Step.COLLECT:
        values = {"seeds": step[2], "place": where(step[1]), "owner": players[step[3]]}
        if (step[1] < n) != (step[3] == 0):
            # a pit of the other row is the owner's Uur: its seeds are the owner's
            said.append(_("%(seeds)d from %(place)s (%(owner)s's Uur) go to %(owner)s's "
                          "store") % values)
        else:
            said.append(_("%(seeds)d from %(place)s go to %(owner)s's store") % values)
    if done < len(script) and kind != script[done][0]:
        # what the next step asks, when it is more than a seed to drop or a pit to lift
        after = script[done]
        if after[0] == Step.UUR:
            said.append(_("Uur! %(player)s moves one seed from %(from)s to %(to)s") % {
                "player": who, "from": where(after[2]), "to": where(after[1])})
        elif after[0] == Step.CAPTURE:
            said.append(_("%(player)s captures: empty %(place)s into %(player)s's store") % {
                "player": who, "place": where(after[1])})
        elif after[0] == Step.COLLECT:
            said.append(_("the game is over: the seeds left go to their owners' stores"))
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
    words = ngettext(": %(n)d seed sown", ": %(n)d seeds sown", drops) % {"n": drops}
    if laps > 1:
        words += ngettext(", %(n)d relay", ", %(n)d relays", laps - 1) % {"n": laps - 1}
    if captured:
        words += _(", %(n)d captured") % {"n": captured}
    if uurs:
        words += _(", an Uur made")
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
    players = _named(players)
    parts = []
    for side in (0, 1):
        values = {"player": players[side], "captured": scores[side] - gathered[side],
                  "end": gathered[side]}
        parts.append(_("%(player)s: %(captured)d captured + %(end)d at the end") % values
                     if gathered[side] else _("%(player)s: %(captured)d captured") % values)
    return " (%s)" % "; ".join(parts)


def match_words(match: Match, players: tuple[str, str] = SIDES) -> str:
    """How a match that is over ended, from what each player held after its last hand:
    "South wins the match: North holds 4 seeds, too few to fill a row", "North wins the
    match: after 3 hands North holds 30 seeds, South 18"."""
    players = _named(players)
    held = match.held()[-1]
    hands = len(match.games)
    if match.winner is None:
        return ngettext("the match is a draw: after %(n)d hand each holds %(seeds)d seeds",
                        "the match is a draw: after %(n)d hands each holds %(seeds)d seeds",
                        hands) % {"n": hands, "seeds": held[0]}
    loser = 1 - match.winner
    values = {"winner": players[match.winner], "loser": players[loser], "n": hands,
              "won": held[match.winner], "lost": held[loser]}
    if match.end_reason == MATCH_SHORT:
        return ngettext("%(winner)s wins the match: %(loser)s holds %(lost)d seed, too few to "
                        "fill a row",
                        "%(winner)s wins the match: %(loser)s holds %(lost)d seeds, too few "
                        "to fill a row", held[loser]) % values
    return ngettext("%(winner)s wins the match: after %(n)d hand %(winner)s holds %(won)d "
                    "seeds, %(loser)s %(lost)d",
                    "%(winner)s wins the match: after %(n)d hands %(winner)s holds %(won)d "
                    "seeds, %(loser)s %(lost)d", hands) % values


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
    players = _named(players)

    def where(place: int) -> str:
        return place_name(place, n, players)

    if kind == MOVE_STARTED:
        return _("%(player)s lifts pit %(pit)d") % {"player": players[guide.mover],
                                                    "pit": event[1]}
    if kind == STEP_DONE:
        return step_words(session, event[1], players)
    if kind == MOVE_DONE:
        return _("%(player)s played pit %(pit)d%(summary)s") % {
            "player": players[guide.mover], "pit": event[1],
            "summary": move_summary(guide.script)}
    if kind == MISTAKE:
        what = event[1]
        if what == WRONG_PIT:
            return _("a seed went into %(place)s: it belongs in %(right)s") % {
                "place": where(event[2]), "right": where(event[3])}
        if what == DIFFERENCE:
            return _("the board differs: %(places)s") % {
                "places": difference_words(event[2], n, players)}
        if what == ILLEGAL_PIT:
            return _("a hand went into %(place)s, which cannot be played now: lift a lit "
                     "pit") % {"place": where(event[2])}
        if what == OUTSIDE_SCRIPT:
            return _("a hand went into %(place)s, where this move does not go") % {
                "place": where(event[2])}
        return _("a mistake at %(place)s") % {"place": where(event[2])}
    if kind == MISTAKE_CLEARED:
        # the mistake's line must not stay the last word once it is put right
        if event[1] is None:
            return _("put right: the board agrees again")
        return _("put right at %(place)s") % {"place": where(event[1])}
    if kind == TO_SET:
        return _("to set the board: %(places)s") % {
            "places": difference_words(event[1], n, players)}
    if kind == SENSOR_FAULT:
        return fault_words(event[1], event[2], n, players, controls)
    if kind == CONFIRMED:
        return _("confirmed by hand: %(place)s") % {"place": where(event[1])}
    if kind == SKIP_OFFERED:
        return _("a long relay: %(skip)s") % {"skip": _(controls.skip)}
    if kind == SKIP_AHEAD:
        return _("skip ahead: set every lit place to its count")
    if kind == SKIPPED:
        return _("skipped to the end of pit %(pit)d's move") % {"pit": event[1]}
    if kind == MOVE_TAKEN_BACK:
        return _("pit %(pit)d taken back: put the seeds back as the LEDs show") % {
            "pit": event[1]}
    if kind == MOVE_ABANDONED:
        return _("the move in progress is taken back: put the seeds back")
    if kind == BOARD_MATCHES:
        return _("the board matches again")
    if kind == PASSED:
        return _("%(player)s has no stones and passes") % {"player": players[event[1]]}
    if kind == GAME_OVER:
        return _("game over: %(result)s%(scores)s") % {
            "result": result_words(event[1], players),
            "scores": score_words(event[1], guide.script, players)}
    if kind == HAND_OVER:
        return _("the hand is over: %(south)s holds %(south_seeds)d seeds, %(north)s "
                 "%(north_seeds)d") % {"south": players[0], "south_seeds": event[1][0],
                                       "north": players[1], "north_seeds": event[1][1]}
    if kind == MATCH_OVER:
        if session.match is not None and session.match.over:
            return match_words(session.match, players)
        if event[1] is None:
            return _("the match is over: a draw")
        return _("the match is over: %(player)s wins") % {"player": players[event[1]]}
    if kind == ARRANGED:
        return _("%(player)s arranged their pits: %(row)s") % {
            "player": players[event[1]], "row": ", ".join(map(str, event[2]))}
    if kind == HAND_READY:
        return _("the next hand is set: it starts")
    return None


def reason_words(reason: Reason, players: tuple[str, str] | None = None) -> str:
    """Why a hint's move is good (controller.ai.hints.why), in the language in use:
    "captures 7 seeds", "denies North a capture of 5"."""
    players = _named(players)
    kind = reason.kind
    values = {"mover": players[reason.mover], "other": players[reason.other],
              "n": reason.seeds, "threat": reason.threat, "left": reason.left,
              "kept": reason.kept}
    if reason.scores is not None:
        values.update(mine=reason.scores[0], theirs=reason.scores[1])
    if kind == hints.ENDS_DRAW:
        return _("ends the game in a draw, %(mine)d-%(theirs)d") % values
    if kind == hints.ENDS_WON:
        return _("ends the game: %(mover)s wins %(mine)d-%(theirs)d") % values
    if kind == hints.ENDS_LOST:
        return _("ends the game: %(mover)s loses %(mine)d-%(theirs)d") % values
    if kind == hints.CAPTURES:
        return ngettext("captures %(n)d seed", "captures %(n)d seeds", reason.seeds) % values
    if kind == hints.MAKES_UUR:
        return _("makes an Uur")
    if kind == hints.DENIES:
        if reason.left:
            return _("denies %(other)s a capture of %(threat)d (leaves one of %(left)d)") % values
        return _("denies %(other)s a capture of %(threat)d") % values
    if not reason.kept:
        return _("nothing to capture now: the search's best move")
    if reason.left:
        return ngettext("nothing to capture now: %(mover)s keeps %(kept)d seed on their side, "
                        "%(other)s can take %(left)d",
                        "nothing to capture now: %(mover)s keeps %(kept)d seeds on their side, "
                        "%(other)s can take %(left)d", reason.kept) % values
    return ngettext("nothing to capture now: keeps %(kept)d seed on %(mover)s's side",
                    "nothing to capture now: keeps %(kept)d seeds on %(mover)s's side",
                    reason.kept) % values


def board_view(session: Session, players: tuple[str, str] = SIDES,
               hint_reason: Reason | None = None,
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
    players = _named(players)
    return {
        "variant": game.rules.name,
        "title": game.rules.variant.title,
        "name": variant_words(game.rules.variant.title),
        "n": n,
        "players": list(players),
        "place_names": [place_name(place, n, players) for place in range(guide.size)],
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
        "hint_words": None if hint is None else (
            _("%(player)s lifts pit %(pit)d: %(reason)s") if hint_reason else
            _("%(player)s lifts pit %(pit)d")) % {
                "player": players[game.to_move], "pit": hint,
                "reason": reason_words(hint_reason, players) if hint_reason else None},
        "can_hint": guide.phase == AWAIT and setup is None,
        "skip_offered": guide.phase == SOWING and guide.skip_offered,
        "match_hand": None if match is None else len(match.games),
        "aside": None if match is None else list(match.aside),
        "held": None if match is None else match.held(),
        "match_over": match is not None and match.over,
        "match_result": match_words(match, players) if match is not None and match.over
        else None,
        "setup": None if setup is None else setup_words(setup, players),
        "faults": [{"place": place, "where": place_name(place, n, players), "why": why,
                    "words": fault_words(place, why, n, players, controls)}
                   for place, why in enumerate(guide.faults) if why],
    }


__all__ = ["Controls", "BOARD_CONTROLS", "board_view", "place_name", "side_names", "difference_words", "event_words",
           "fault_words", "match_words", "move_summary", "reason_words", "score_words", "step_words",
           "moves_text", "result_words", "setup_words"]
