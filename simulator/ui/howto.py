"""How to play each variant, in a few sentences a newcomer reads beside the board (host-only).

The rules the engine plays, told short: docs/rules.md has them in full, with every option and
its source. The page shows the text of the variant on the board (`HOW_TO_PLAY[name]`, one
paragraph an item, each a title and its words, in English: the page says them with `_`), and
beside the paragraphs on moving, capturing, an Uur and the end, a small board before and
after a move that shows it (`illustration`: a lesson's position, played by the rules engine).
"""

from __future__ import annotations

from controller.languages import N_
from controller.rules import Game
from simulator.ui.lessons import LESSONS, TAUGHT_IN

# each text whole, as a translator reads it (docs/translations.md): `_` says it on the page
_BOARD = (N_("The board"), N_("Each player has the row of pits nearest them, and the store at "
                              "their right hand. 4 seeds in every pit to start."))
_MOVE_COUNTER = (N_("A move"), N_(
    "Lift every seed of one of your pits and sow them one at a time into the pits that "
    "follow, counterclockwise: along your row to the right, then back along the other. The "
    "stores are not sown into: they hold what each player captures. If the last seed falls "
    "into a pit that already held seeds, lift them all and sow on from there: a relay. A move "
    "can go round the board several times."))
_MOVE_CLOCK = (N_("A move"), N_(
    "Lift every seed of one of your pits and sow them one at a time into the pits that "
    "follow, clockwise: along your row to the left, then back along the other. The stores "
    "are not sown into: they hold what each player captures. If the last seed falls into a "
    "pit that already held seeds, lift them all and sow on from there: a relay. A move can "
    "go round the board several times."))
_LAYLI_RULES = [
    (N_("Capture"), N_(
        "If the last seed falls into an empty pit of your own row, look at the pit facing it. "
        "With 1, 2, or 4 or more seeds there, you capture them, and your last seed too. With "
        "exactly 3, you make an Uur (below). With none, the move just ends. A last seed in an "
        "empty pit of the other row ends the move.")),
    (N_("Uur"), N_(
        "An Uur (\"pregnant\" in Somali) is made when your last seed falls into an empty pit "
        "of yours facing exactly 3 seeds: move one of the three into your pit, and both pits, "
        "2 seeds each, are your Uurs to the end of the game, in whichever row. Nobody may sow "
        "from an Uur or capture it; seeds sown into it stay, so it grows. A last seed that "
        "falls into an Uur ends the move.")),
    (N_("The end"), N_(
        "The game ends when the player to move cannot move. Your score is what you captured, "
        "plus the seeds in your Uurs, plus the seeds left in your own row. The higher score "
        "wins.")),
    (N_("A match"), N_(
        "Played as a match, each game is a hand. The player holding fewer seeds places all of "
        "theirs in their own row, one at least in each pit; the other fills their row with as "
        "many and keeps the rest aside. A player who cannot fill their row loses the match.")),
]

HOW_TO_PLAY: dict[str, list[tuple[str, str]]] = {
    "layli-goobalay": [_BOARD, _MOVE_COUNTER] + _LAYLI_RULES,
    "layli-goobalay-long": [
        (N_("The long board"), N_("As Layli Goobalay, on 12 pits a row (96 seeds), sown "
                                  "clockwise, as G. Marin saw it played near Berbera in "
                                  "1931.")),
        _BOARD, _MOVE_CLOCK] + _LAYLI_RULES,
    "tampoduo": [
        (N_("The game"), N_("Layli Goobalay without Uurs, as children play it in Ghana "
                            "(Tampoduo) and Nigeria (Ayo J'odu): only the capture is easier.")),
        _BOARD, _MOVE_COUNTER,
        (N_("Capture"), N_("If the last seed falls into an empty pit of your own row, you "
                           "capture whatever faces it, however many, and your last seed too.")),
        (N_("The end"), N_("The game ends when the player to move cannot move. Your score is "
                           "what you captured plus the seeds left in your own row. The higher "
                           "score wins.")),
    ],
    "mangala-iv": [
        (N_("The board"), N_(
            "7 pits a row and 7 stones in every pit (98), as the game is played in Gaziantep. "
            "South moves first; who sits South is decided by a guess, \"Tek mi, Çift mi?\" "
            "(odd or even?), over stones hidden in a fist.")),
        (N_("A move"), N_(
            "Every move is forced: sow the leftmost of your pits that holds stones, one stone "
            "at a time into the pits that follow, counterclockwise. A player whose row is "
            "empty passes.")),
        (N_("Where the last stone falls"), N_(
            "Count its pit. 3, or 5 or more: lift them and sow on (a relay). 1 (the pit was "
            "empty): the move ends. Exactly 2 or 4: a capture.")),
        (N_("Capture"), N_(
            "You take that pit and the pit facing it; then, going back, each pit before it "
            "that holds 2 or 4, with the pit facing it, until one holds another count. "
            "Captures happen in either row.")),
        (N_("The end"), N_(
            "Play stops when one stone or none is left on the board. More captured stones "
            "wins.")),
    ],
}

# the paragraphs shown on a small board, before and after a lesson's move (simulator.ui.lessons):
# variant -> {paragraph's title: the lesson's title}
ILLUSTRATED_BY: dict[str, dict[str, str]] = {
    "layli-goobalay": {"A move": "a relay", "Capture": "a capture", "Uur": "an Uur",
                       "The end": "the end"},
    "tampoduo": {"A move": "a relay", "Capture": "a capture", "The end": "the end"},
    "mangala-iv": {"A move": "sowing", "Where the last stone falls": "a relay",
                   "Capture": "a capture", "The end": "the end"},
}
ILLUSTRATED_BY["layli-goobalay-long"] = ILLUSTRATED_BY["layli-goobalay"]


def illustration(variant: str, title: str) -> dict | None:
    """The small board beside a paragraph of `variant`'s how to play (None for the ones
    without): a lesson's position and South's move in it, before and after, as the rules
    engine plays it. {"n", "pit" (the place lifted), "before" and "after" (2n pits then the
    two stores), "uur" (each pit's Uur owner after the move, or None)}."""
    lesson_title = ILLUSTRATED_BY.get(variant, {}).get(title)
    if lesson_title is None:
        return None
    lesson = next(lesson for lesson in LESSONS[variant] if lesson.title == lesson_title)
    game = Game(TAUGHT_IN[variant], setup=list(lesson.setup))
    n = game.rules.n
    before = list(lesson.setup) + [0, 0]
    game.push(lesson.pit)
    pits, stores = list(game.pits), list(game.captured)
    if game.over:
        stores = list(game.scores)
        if sum(stores) == sum(lesson.setup):      # every seed left went to its owner's store
            pits = [0] * (2 * n)
    return {"n": n, "pit": lesson.pit - 1, "before": before, "after": pits + stores,
            "uur": list(game.uur)}


__all__ = ["HOW_TO_PLAY", "illustration"]
