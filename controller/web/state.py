"""What the table companion page shows, as JSON-ready data built from a running board (host-only).

    companion_state(runner)     # {"type": "state", "players": [...], "to_move": 0, ...}

Everything is said in words a person beside the board can act on: places as "Amina's pit 3",
a fault with where, why and what to do, the next hand's set-up as an instruction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.guide.setup import ARRANGE, COPY, PLACE
from controller.guide import AWAIT, SKIP, SOWING
from controller.rules import place_words, record

if TYPE_CHECKING:
    from controller.guide.setup import HandSetup
    from controller.rules import Game
    from controller.board.runner import Runner


def moves_text(game: Game) -> str:
    """The moves so far in the game record's notation ("1. 3 5 2. 1 *"): its movetext."""
    text = record.write_game(game)
    return text.split("\n\n", 1)[1].strip() if "\n\n" in text else text.strip()


def setup_words(setup: HandSetup, players: tuple[str, str]) -> str:
    """What the players do now to set up a match's next hand (see controller/guide/setup.py)."""
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


def companion_state(runner: Runner) -> dict:
    """The state the companion page draws: players, captured seeds, scores, whose turn, the
    move list, the hint, the set-up of a match's next hand, faults and recent events; or why
    the board has no game yet (`waiting`)."""
    session = runner.session
    game, guide, setup = session.game, session.guide, session.setup
    players = runner.players
    n = game.rules.n
    moving = guide.phase in (SOWING, SKIP)
    over = game.over and setup is None
    winner = game.winner() if over else None
    match = session.match
    hint = guide.hint if guide.phase == AWAIT else None
    return {
        "type": "state",
        "waiting": runner.waiting,
        "variant": game.rules.name,
        "title": game.rules.variant.title,
        "players": list(players),
        "phase": "setup" if setup is not None else guide.phase,
        "to_move": None if over or setup is not None else (
            guide.mover if moving else game.to_move),
        "moving": moving,
        "captured": list(game.captured),
        "scores": list(game.scores) if game.scores else None,
        "over": over,
        "result": None if not over else "%s, %d to %d" % (
            "a draw" if winner is None else "%s wins" % players[winner], *game.scores),
        "moves": moves_text(game),
        "hint": hint,
        "hint_words": None if hint is None else "%s lifts pit %d%s" % (
            players[game.to_move], hint,
            ": " + runner.hint_reason if runner.hint_reason else ""),
        "hand": None if match is None else len(match.games),
        "setup": None if setup is None else setup_words(setup, players),
        "faults": [{"place": place, "where": place_words(place, n, players), "why": why,
                    "words": "%s: %s (confirm steps there by hand)" % (
                        place_words(place, n, players), why)}
                   for place, why in enumerate(guide.faults) if why],
        "events": list(runner.said),
    }
