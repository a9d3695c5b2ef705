"""Match play in hands (docs/rules.md 2.1): Layli Goobalay, its long board and Tampoduo.

    >>> match = Match("layli-goobalay")
    >>> game = match.game           # play it to the end with game.push(...)
    >>> # ... then:
    >>> # match.end_hand(); match.arranger; match.arrange([3, 3, 3, 3, 4, 4])

After a hand each player holds the seeds they scored plus any they held aside. A player holding
fewer than n seeds cannot fill their row and loses the match. Otherwise the player holding fewer
arranges all of theirs in their own pits (at least one per pit), the opponent places as many (a
mirror copy by default, or freely) and holds the rest aside until the hand ends.

Portable core: MicroPython subset.
"""

from .variants import RulesError
from .game import Game, Rules, SOUTH, NORTH

MATCH_SHORT = "short"       # a player held fewer than n seeds
MATCH_HANDS = "hands"       # the `hands` limit was reached


class Match:
    """A match: its hands, the seeds each player holds, and whose turn it is to arrange."""

    def __init__(self, variant="layli-goobalay", options=None, setup=None, first=None):
        rules = variant if isinstance(variant, Rules) else Rules(variant, options)
        if not rules.variant.hands:
            raise RulesError("%s is not played in hands" % rules.name)
        self.rules = rules
        self.game = Game(rules, setup=setup, first=first)
        self.total = sum(self.game.setup)
        self.games = [self.game]    # every hand, the one in play last
        self.aside = [0, 0]         # seeds held aside during the hand in play
        self.holdings = None        # [south, north] after a hand, until the next is arranged
        self.arranger = None        # who arranges next (after end_hand)
        self.over = False
        self.winner = None          # 0, 1, or None for a drawn match
        self.end_reason = None

    def end_hand(self):
        """Close the hand in play (its game must be over): work out what each player holds,
        whether the match is over, and who arranges the next hand."""
        if self.holdings is not None:
            raise RulesError("hand %d is already closed" % len(self.games))
        game = self.game
        if not game.over:
            raise RulesError("hand %d is not over" % len(self.games))
        scores = game.scores
        holdings = [scores[0] + self.aside[0], scores[1] + self.aside[1]]
        self.holdings = holdings
        self.aside = [0, 0]
        n = self.rules.n
        short = [player for player in (SOUTH, NORTH) if holdings[player] < n]
        limit = self.rules.options["hands"]
        if short:   # both short only on a small custom start: the one holding fewer loses
            self._end(self._more(holdings), MATCH_SHORT)
        elif limit and len(self.games) >= limit:
            self._end(self._more(holdings), MATCH_HANDS)
        elif holdings[0] == holdings[1]:
            self.arranger = 1 - game.first          # who moved second in the hand just played
        else:
            self.arranger = SOUTH if holdings[0] < holdings[1] else NORTH
        return holdings

    @staticmethod
    def _more(holdings):
        """Who holds more seeds, or None when equal."""
        if holdings[0] == holdings[1]:
            return None
        return SOUTH if holdings[0] > holdings[1] else NORTH

    def _end(self, winner, reason):
        self.over = True
        self.winner = winner
        self.end_reason = reason

    def arrange(self, counts, other=None):
        """Start the next hand. `counts` is the arranger's row (their pit 1 first, all they hold,
        at least one per pit); `other` the opponent's (the same total; with the `mirror` option
        it must be omitted or equal `counts`). Returns the new hand's Game."""
        if self.over:
            raise RulesError("the match is over")
        if self.holdings is None:
            raise RulesError("hand %d is still in play" % len(self.games))
        arranger = self.arranger  # type: int  # a closed hand of a match not over has one
        opponent = 1 - arranger
        names = ("South", "North")
        counts = self._check_row(counts, names[arranger])
        held = self.holdings[arranger]
        if sum(counts) != held:
            raise RulesError("%s holds %d seeds and must arrange all of them, not %d" % (
                names[arranger], held, sum(counts)))
        if self.rules.options["arrangement"] == "mirror":
            if other is not None and self._check_row(other, names[opponent]) != counts:
                raise RulesError("the mirror arrangement copies %s's pits: %s must place %s" % (
                    names[arranger], names[opponent], ",".join([str(c) for c in counts])))
            other = counts[:]
        elif other is None:
            raise RulesError("the free arrangement needs %s's counts too" % names[opponent])
        other = self._check_row(other, names[opponent])
        if sum(other) != held:
            raise RulesError("%s must place %d seeds, as many as %s, not %d" % (
                names[opponent], held, names[arranger], sum(other)))
        rows = [None, None]  # type: list[list[int] | None]
        rows[arranger] = counts
        rows[opponent] = other
        aside = [0, 0]
        aside[opponent] = self.holdings[opponent] - held
        if self.rules.options["next_first"] == "arranger":
            first = arranger
        else:
            first = 1 - self.game.first
        self.game = Game(self.rules, setup=rows[0] + rows[1], first=first)
        self.games.append(self.game)
        self.aside = aside
        self.holdings = None
        self.arranger = None
        return self.game

    def _check_row(self, counts, who):
        n = self.rules.n
        if not isinstance(counts, (list, tuple)) or len(counts) != n:
            raise RulesError("%s's arrangement must be %d counts" % (who, n))
        row = []
        for k in range(n):
            count = counts[k]
            if isinstance(count, bool) or not isinstance(count, int):
                raise RulesError("%s's pit %d: %r is not a whole number" % (who, k + 1, count))
            if count < 1:
                raise RulesError("%s's pit %d holds %d: every pit needs at least one seed" % (
                    who, k + 1, count))
            row.append(count)
        return row

    def asides(self):
        """What South and North held aside during each hand so far, [[south, north], ...].

        After a hand each player holds what they scored plus what they held aside; whatever
        they did not place in the next hand's set-up is held aside during it (docs/rules.md
        2.1)."""
        n = self.rules.n
        games = self.games
        asides = [[0, 0]]
        for k in range(1, len(games)):
            scores = games[k - 1].scores
            aside = asides[-1]
            setup = games[k].setup
            asides.append([scores[0] + aside[0] - sum(setup[:n]),
                           scores[1] + aside[1] - sum(setup[n:])])
        return asides

    def held(self):
        """What South and North held after each hand that is over, [[south, north], ...]:
        the match's score, hand by hand."""
        asides = self.asides()
        return [[game.scores[0] + aside[0], game.scores[1] + aside[1]]
                for game, aside in zip(self.games, asides) if game.over]

    def seeds_accounted(self):
        """On board + captured + held aside: the match's total while a hand is in play."""
        game = self.game
        return sum(game.pits) + game.captured[0] + game.captured[1] + self.aside[0] + self.aside[1]
