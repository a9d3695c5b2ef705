"""The computer opponent, hints and game analysis (portable core: MicroPython subset).

    from controller.ai import Searcher, LEVELS, hint, analyse
    searcher = Searcher("strongest", seed=1)    # or beginner, easy, medium, hard; pico
    move = searcher.choose(game)                # game: a controller.rules.Game, left unchanged
    searcher.last                               # {"move", "score", "depth", "nodes", "pv"}
    book_move(game)                             # the opening book's reply, or None
    move, reason = hint(game)                   # reason: "captures 7 seeds", "makes an Uur", ...
    report = analyse(game)                      # evaluations after every move, the mistakes
    record.write_game(game, report.tags(), comments=report.comments())
"""

from .search import Searcher, LEVELS, BUDGETS, evaluate
from .book import book_move
from .hints import hint, reason
from .analysis import analyse, Analysis
