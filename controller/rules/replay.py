"""`layli rules replay` (docs/rules.md section 8) as a portable function.

The CLI calls it on CPython and, with `--micropython`, the same function runs inside MicroPython;
both write the same bytes because `Game.state_json` builds each line itself.
"""

from .variants import RulesError, parse_number, shown
from .game import Game


def parse_move(text, n):
    """A move given as text (own pit number 1..n), or a RulesError."""
    try:
        return parse_number(text, "move")
    except RulesError:
        raise RulesError("move %s is not a pit number 1..%d" % (shown(text), n))


def replay(variant, options, setup, first, moves, to_end, write):
    """Replay one game, calling `write(line)` with the starting position and the position after
    each move. Raises RulesError at the first bad move, after writing the positions before it.

    `moves` may be ints or their text. With `to_end`, the forced moves follow until the game is
    over (variants with a forced start only).
    """
    game = Game(variant, options, setup, first)
    rules = game.rules
    if to_end and not (rules.mangala and rules.start != "free"):
        raise RulesError("--to-end plays forced moves: %s has no forced start" % rules.name)
    write(game.state_json())
    for text in moves:
        try:
            move = parse_move(text, rules.n)
        except RulesError as error:
            raise RulesError("ply %d: %s (legal: %s)" % (
                game.ply + 1, error, ", ".join([str(m) for m in game.legal_moves()])))
        game.push(move)
        write(game.state_json())
    if to_end:
        while not game.over:
            game.push(game.legal_moves()[0])
            write(game.state_json())
    return game
