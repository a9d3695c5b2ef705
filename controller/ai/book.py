"""The opening book: replies chosen by their results in play, where the search's choice is lost.

    >>> from controller.rules import Game
    >>> game = Game("layli-goobalay")
    >>> game.push(3)
    >>> book_move(game)
    1

Layli Goobalay favours the first mover: after South's 2 or 3 a deep search finds North lost,
and its choice is the reply that loses by the fewest seeds against perfect play. Against a
fallible opponent that is the wrong question. After South's 3, a 1,000,000-node search values
North's 4 at -6 seeds and 1 at -8; but 4 leaves South natural moves all the way, and 1 leaves
positions where they go wrong. In 16 games against each of the computer's beginner and easy
levels and a flat Monte Carlo player, the searcher scored 94% after 1 and 17% after 4. Each
entry was chosen that way, among the replies within 3 seeds of the best, by
`benchmarks/opening_book.py` (its tables are in the README). The opponents of `layli bench ai`,
greedy and OpenSpiel's MCTS, were kept out of the choice: they are its held-out check.

The book holds lines from a variant's standard start with its default options only: a game set
up otherwise, or started from a position, is left to the search. The hard and strongest levels
use it (`Searcher(book=...)` says otherwise); hints and analysis do not, as they say what the
search finds best.

Portable core: MicroPython subset.
"""

from ..rules.game import Rules

# variant: {the moves from the start, as a tuple: the reply}
BOOK = {
    "layli-goobalay": {
        (2,): 6,
        (3,): 1,
    },
}

LONGEST = 1        # the longest line in BOOK: later positions are not looked up
_DEFAULTS = {}      # variant: its Rules with the default options, made when first needed


def _standard_start(game):
    """Whether `game` began at its variant's standard start with the default options."""
    rules = game.rules
    default = _DEFAULTS.get(rules.name)
    if default is None:
        default = _DEFAULTS[rules.name] = Rules(rules.name)
    return (rules.options == default.options and game.setup == default.standard_setup()
            and game.first == default.first and game.start_captured == [0, 0]
            and game.start_uur is rules.no_uurs and game.start_first_move)


def book_move(game):
    """The book's move for the player to move in `game`, or None when the game is not in it."""
    lines = BOOK.get(game.rules.name)
    if lines is None or len(game.moves) > LONGEST:
        return None
    move = lines.get(tuple(game.moves))
    if move is None or not _standard_start(game) or not game.is_legal(move):
        return None
    return move
