"""How to play each variant, in a few sentences a newcomer reads beside the board (host-only).

The rules the engine plays, told short: docs/rules.md has them in full, with every option and
its source. The page shows the text of the variant on the board (`HOW_TO_PLAY[name]`, one
paragraph an item, each a title and its words).
"""

from __future__ import annotations

_SOW = ("Lift every seed of one of your pits and sow them one at a time into the pits that "
        "follow, {direction}. The stores are not sown into: they hold what each player "
        "captures.")
_RELAY = ("If the last seed falls into a pit that already held seeds, lift them all and sow on "
          "from there: a relay. A move can go round the board several times.")

_LAYLI = [
    ("The board", "Each player has the row of pits nearest them, and the store at their right "
                  "hand. {seeds} seeds in every pit to start."),
    ("A move", _SOW + " " + _RELAY),
    ("Capture", "If the last seed falls into an empty pit of your own row, look at the pit "
                "facing it. With 1, 2, or 4 or more seeds there, you capture them, and your "
                "last seed too. With exactly 3, you make an Uur (below). With none, the move "
                "just ends. A last seed in an empty pit of the other row ends the move."),
    ("Uur", "An Uur (\"pregnant\" in Somali) is made when your last seed falls into an empty "
            "pit of yours facing exactly 3 seeds: move one of the three into your pit, and both "
            "pits, 2 seeds each, are your Uurs to the end of the game, in whichever row. Nobody "
            "may sow from an Uur or capture it; seeds sown into it stay, so it grows. A last "
            "seed that falls into an Uur ends the move."),
    ("The end", "The game ends when the player to move cannot move. Your score is what you "
                "captured, plus the seeds in your Uurs, plus the seeds left in your own row. "
                "The higher score wins."),
    ("A match", "Played as a match, each game is a hand. The player holding fewer seeds places "
                "all of theirs in their own row, one at least in each pit; the other fills "
                "their row with as many and keeps the rest aside. A player who cannot fill "
                "their row loses the match."),
]

HOW_TO_PLAY: dict[str, list[tuple[str, str]]] = {
    "layli-goobalay": [(title, words.format(seeds=4, direction=(
        "counterclockwise: along your row to the right, then back along the other")))
        for title, words in _LAYLI],
    "layli-goobalay-long": [("The long board", "As Layli Goobalay, on 12 pits a row (96 seeds), "
                                               "sown clockwise, as G. Marin saw it played near "
                                               "Berbera in 1931.")] + [
        (title, words.format(seeds=4, direction=(
            "clockwise: along your row to the left, then back along the other")))
        for title, words in _LAYLI],
    "tampoduo": [
        ("The game", "Layli Goobalay without Uurs, as children play it in Ghana (Tampoduo) and "
                     "Nigeria (Ayo J'odu): only the capture is easier."),
        ("The board", "Each player has the row of pits nearest them, and the store at their "
                      "right hand. 4 seeds in every pit to start."),
        ("A move", _SOW.format(direction="counterclockwise: along your row to the right, then "
                                         "back along the other") + " " + _RELAY),
        ("Capture", "If the last seed falls into an empty pit of your own row, you capture "
                    "whatever faces it, however many, and your last seed too."),
        ("The end", "The game ends when the player to move cannot move. Your score is what you "
                    "captured plus the seeds left in your own row. The higher score wins."),
    ],
    "mangala-iv": [
        ("The board", "7 pits a row and 7 stones in every pit (98), as the game is played in "
                      "Gaziantep. South moves first; who sits South is decided by a guess, "
                      "\"Tek mi, Çift mi?\" (odd or even?), over stones hidden in a fist."),
        ("A move", "Every move is forced: sow the leftmost of your pits that holds stones, one "
                   "stone at a time into the pits that follow, counterclockwise. A player whose "
                   "row is empty passes."),
        ("Where the last stone falls", "Count its pit. 3, or 5 or more: lift them and sow on "
                                       "(a relay). 1 (the pit was empty): the move ends. "
                                       "Exactly 2 or 4: a capture."),
        ("Capture", "You take that pit and the pit facing it; then, going back, each pit before "
                    "it that holds 2 or 4, with the pit facing it, until one holds another "
                    "count. Captures happen in either row."),
        ("The end", "Play stops when one stone or none is left on the board. More captured "
                    "stones wins."),
    ],
}

__all__ = ["HOW_TO_PLAY"]
