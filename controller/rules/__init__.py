"""The rules engine: the four variants, positions, legal moves, step scripts, matches, records.

Portable core (MicroPython subset). Start with `Game`::

    from controller.rules import Game
    game = Game("layli-goobalay")
    game.push(game.legal_moves()[0])
"""

from .variants import RulesError, VARIANTS, get_variant, resolve_options
from .game import (Game, Rules, Step, SOUTH, NORTH, SIDES, END_NO_MOVE, END_EMPTY_ROW,
                   END_REPETITION, END_ENDLESS, END_NO_FEED, END_STONES)
from .setups import deal_random_setup
from .script import Board, place_label, place_words


def __getattr__(name):
    """`Match` is loaded when it is first asked for: a Pico that plays single games keeps its
    2 KB of bytecode (and the board-loop's heap) free."""
    if name == "Match":
        from .match import Match
        return Match
    # any other name: a submodule not imported yet. MicroPython asks a package's __getattr__
    # first for `from controller.rules import <submodule>`, and imports nothing itself
    try:
        return __import__(__name__ + "." + name, None, None, (name,))
    except ImportError:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
