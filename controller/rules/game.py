"""Positions, legal moves, sowing and the end of the game: the engine (docs/rules.md sections 1-8).

    >>> game = Game("layli-goobalay")
    >>> game.legal_moves()
    [1, 2, 3, 4, 5, 6]
    >>> script = game.push(3, script=True)
    >>> script[0]                       # (Step.PICK, place, seeds): lift South's pit 3
    ('pick', 2, 4)

A `Game` is a position plus what the rules need to know about the road to it: the positions seen
since the last capture or Uur creation (the repetition rule) and the moves played (for `pop` and
records). Moves are the mover's own pit numbers 1..n. `push(move, script=True)` also returns the
step script (docs/rules.md section 7) that carries the move out on a real board; without
`script` the same sowing loop runs without recording, which is what playouts and search want.

Portable core: MicroPython subset; positions are small lists of ints.
"""

from .variants import RulesError, get_variant, resolve_options, non_default_options

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

SOUTH = const(0)
NORTH = const(1)
SIDES = ("South", "North")      # the players' names by number: records, messages, pages

# What `Rules.sow` returns besides a count of captured seeds.
ENDLESS = const(-1)
UUR_CREATED = const(-2)

NO_PASSES = ()
HISTORY_LISTED = const(16)  # positions a player's history keeps as lists before using keys

class Step:
    """The kinds of a move script's steps (docs/rules.md section 7): what the players do with
    their hands, in order. A step is a tuple whose first item is its kind:

        (Step.PICK, place, seeds)               every seed of a place into the hand
        (Step.DROP, place)                      one seed from the hand into a place
        (Step.UUR, pit, opposite)               one seed from `opposite` into `pit`: the two
                                                are the mover's Uurs from now on
        (Step.CAPTURE, place, seeds)            a place's seeds into the mover's store
        (Step.PASS, player)                     a player with no move passes
        (Step.COLLECT, place, seeds, owner)     at the end, a place's seeds into a store

    Places count from 0: the 2n pits, then South's store, then North's.
    """

    PICK = "pick"
    DROP = "drop"
    UUR = "uur"
    CAPTURE = "capture"
    PASS = "pass"
    COLLECT = "collect"


# Why a game ended (Game.end_reason).
END_NO_MOVE = "no-move"          # the player to move has no legal move
END_EMPTY_ROW = "empty-row"      # end_when=either: a row holds no seed outside Uurs
END_REPETITION = "repetition"    # a position occurred for the second time
END_ENDLESS = "endless"          # Mangala IV: the mover's only moves are endless
END_NO_FEED = "no-feed"          # Tampoduo must_feed: no move feeds the empty row
END_STONES = "one-stone"         # Mangala IV: at most one stone left


def uur_pair(uur, gain, mover):
    """The Uur owners after a sowing that returned `gain`: a new list with the pair marked when
    the sowing made one, else `uur` itself."""
    if gain > UUR_CREATED:
        return uur
    landing = UUR_CREATED - gain
    uur = uur[:]
    uur[landing] = mover
    uur[len(uur) - 1 - landing] = mover
    return uur


class Rules:
    """A variant with its options resolved: the board geometry and the sowing loop.

    Holds no position; `Game` does. `sow` is the one sowing loop of the project. `no_uurs` is
    the Uur list of every position without an Uur, one list shared by all of them and never
    changed: ``game.uur is game.rules.no_uurs`` says "no Uur on the board" in one comparison
    (the search and the opening book ask it at every node).
    """

    __slots__ = ("variant", "name", "options", "n", "size", "direction", "family", "mangala",
                 "uurs", "capture_last", "bound", "abar", "start", "either", "first_move_right",
                 "must_feed", "restricted", "first", "forced", "special", "_next", "_prev", "rows",
                 "rows_back", "no_uurs")

    def __init__(self, variant="layli-goobalay", options=None):
        spec = get_variant(variant)
        self.variant = spec
        self.name = spec.name
        self.options = resolve_options(spec, options)
        opts = self.options
        self.n = opts.get("pits", spec.pits)
        self.size = 2 * self.n
        direction = opts.get("direction")
        self.direction = spec.direction if direction is None else (
            1 if direction == "counterclockwise" else -1)
        self.family = spec.family
        self.mangala = spec.family == "mangala"
        self.uurs = spec.family == "layli"
        self.capture_last = opts.get("capture_last_seed", True)
        self.bound = opts["endless_bound"]
        self.abar = opts["endless"] == "abar" and not self.mangala
        self.start = opts.get("start", "free")
        self.either = opts.get("end_when") == "either"
        self.first_move_right = opts.get("first_move_right", False)
        self.must_feed = opts.get("must_feed", False)
        self.restricted = self.first_move_right or self.must_feed
        self.first = opts.get("first", SOUTH)       # Mangala IV's option; 0 for the others
        self.forced = self.mangala and self.start != "free"
        self.special = self.either or self.restricted     # rules _settle checks every ply
        size = self.size
        step = self.direction
        # next and previous pit in the sowing direction, looked up instead of computed
        self._next = [(i + step) % size for i in range(size)]
        self._prev = [(i - step) % size for i in range(size)]
        self.rows = (range(0, self.n), range(self.n, size))   # each player's pit indices
        self.rows_back = (range(self.n - 1, -1, -1), range(size - 1, self.n - 1, -1))
        self.no_uurs = [None] * size    # shared by every position without an Uur; never changed

    def option_texts(self):
        """The non-default options as ``name=value`` texts, sorted (what records carry)."""
        return non_default_options(self.variant, self.options)

    def standard_setup(self):
        """The counts of the standard start: every pit holds the variant's seeds per pit."""
        return [self.variant.seeds] * self.size

    def check_setup(self, setup):
        """`setup` as a fresh list of 2n counts, or a RulesError saying what is wrong with it."""
        if not isinstance(setup, (list, tuple)):
            raise RulesError("set-up must be a list of %d counts" % self.size)
        if len(setup) != self.size:
            raise RulesError("set-up has %d counts; %s on %d pits per row needs %d" % (
                len(setup), self.name, self.n, self.size))
        counts = []
        for i in range(self.size):
            count = setup[i]
            if isinstance(count, bool) or not isinstance(count, int):
                raise RulesError("set-up count %d (%r) is not a whole number" % (i + 1, count))
            if count < 0:
                raise RulesError("set-up count %d is negative (%d)" % (i + 1, count))
            counts.append(count)
        return counts

    def pit_index(self, player, pit):
        """Absolute index of `player`'s own pit number `pit` (1..n)."""
        return player * self.n + pit - 1

    def owner(self, index):
        """The player whose row holds pit `index`."""
        return SOUTH if index < self.n else NORTH

    def sow(self, pits, uur, mover, start, steps=None):
        """Play the sowing that starts at pit `start`, changing `pits` in place.

        Returns the number of seeds the mover captured; or ENDLESS when the move would drop a
        seed beyond the endless bound (then `pits` is left half-sown: callers sow a copy); or,
        when the move makes an Uur pair at landing pit i and its opposite, UUR_CREATED - i.
        `uur` is only read, never written (see `uur_pair`), so a child position can share its
        parent's list until an Uur is made. With a list as `steps`, the step script is appended
        to it; without, nothing is recorded and nothing else changes, so search and guidance
        share this loop.
        """
        nxt = self._next
        bound = self.bound
        n = self.n
        mangala = self.mangala
        dropped = 0
        i = start
        hand = pits[i]
        pits[i] = 0
        if steps is not None:
            steps.append((Step.PICK, i, hand))
        while True:
            dropped += hand
            if dropped > bound:
                return ENDLESS
            if steps is None:
                for _ in range(hand):
                    i = nxt[i]
                    pits[i] += 1
            else:
                for _ in range(hand):
                    i = nxt[i]
                    pits[i] += 1
                    steps.append((Step.DROP, i))
            count = pits[i]
            if mangala:
                if count == 3 or count >= 5:
                    hand = count
                    pits[i] = 0
                    if steps is not None:
                        steps.append((Step.PICK, i, hand))
                    continue
                if count == 1:
                    return 0
                return self._chain_capture(pits, i, steps)
            if count > 1:
                if uur[i] is not None:
                    return 0            # the last seed fell into an Uur: nothing happens
                hand = count            # relay: take them all, the last seed included
                pits[i] = 0
                if steps is not None:
                    steps.append((Step.PICK, i, hand))
                continue
            # the last seed fell into an empty pit
            if (i < n) != (mover == SOUTH):
                return 0                # in the opponent's row
            opposite = 2 * n - 1 - i
            # Uurs never empty and come in opposite pairs (docs/rules.md 2): neither is one
            assert uur[i] is None and uur[opposite] is None, "an empty Uur pair"
            held = pits[opposite]
            if held == 0:
                return 0                # abar
            if self.uurs and held == 3:
                pits[opposite] = 2
                pits[i] = 2
                if steps is not None:
                    steps.append((Step.UUR, i, opposite))
                return UUR_CREATED - i
            pits[opposite] = 0
            if steps is not None:
                steps.append((Step.CAPTURE, opposite, held))
            if self.capture_last:
                pits[i] = 0
                if steps is not None:
                    steps.append((Step.CAPTURE, i, 1))
                return held + 1
            return held

    def _chain_capture(self, pits, landing, steps):
        """Mangala IV: take the landing pit, its opposite, then the backward run of 2s and 4s."""
        last = self.size - 1
        prev = self._prev
        run = [landing]
        i = landing
        for _ in range(last):           # read on the board as the last stone lands
            i = prev[i]
            if pits[i] != 2 and pits[i] != 4:
                break
            run.append(i)
        gain = 0
        for pit in run:
            for taken in (pit, last - pit):
                count = pits[taken]
                if count:
                    pits[taken] = 0
                    gain += count
                    if steps is not None:
                        steps.append((Step.CAPTURE, taken, count))
        return gain


class Game:
    """One game (one hand of a match): the position, the legal moves, push and pop.

    `setup` is a list of 2n counts (None: the variant's standard start; Mangala IV's `setup`
    option `random` deals one, see `deal_random_setup`). `first` is who moves first (0 South,
    1 North; default 0, or Mangala IV's `first` option). `captured` and `uur` start a game from a
    position in play (tests, resumed sessions); `first_move` says whether its next move counts as
    the first of the game (the `first_move_right` option).

    The endless bound makes legality expensive to know: a pit is a legal move only if its
    sowing ends. The game therefore sows a pit only when asked about it, and remembers the
    result: `random_move` and `push` sow one pit per ply, `legal_moves` sows them all.
    """

    __slots__ = ("rules", "setup", "first", "start_captured", "start_uur", "start_first_move",
                 "_wide", "pits", "uur", "captured", "on_board", "to_move", "moves", "passes", "_over", "_end_reason", "_scores", "_history",
                 "_children", "_legal", "_candidates", "_ahead")

    def __init__(self, variant="layli-goobalay", options=None, setup=None, first=None,
                 captured=None, uur=None, first_move=True):
        if isinstance(variant, Rules):
            if options:
                raise RulesError("options go with a variant's name, not with its Rules")
            rules = variant
        else:
            rules = Rules(variant, options)
        self.rules = rules
        dealt = rules.options.get("setup")             # Mangala IV's option
        if setup is None and isinstance(dealt, list):
            setup = dealt
        if setup is None:
            if dealt == "random":
                from .setups import deal_random_setup
                self.setup = deal_random_setup(rules)
            else:
                self.setup = rules.standard_setup()
        else:
            self.setup = rules.check_setup(setup)
        if first is None:
            first = rules.first
        elif type(first) is not int or (first != SOUTH and first != NORTH):
            raise RulesError("first must be 0 (South) or 1 (North), not %r" % (first,))
        self.first = first
        self.start_captured = [0, 0] if captured is None else self._check_pair(captured)
        self.start_uur = rules.no_uurs if uur is None else self._check_uur(uur)
        self.start_first_move = first_move
        self._reset()

    @staticmethod
    def _check_pair(captured):
        if (not isinstance(captured, (list, tuple)) or len(captured) != 2
                or [count for count in captured if type(count) is not int or count < 0]):
            raise RulesError("captured must be two counts >= 0, not %r" % (captured,))
        return [captured[0], captured[1]]

    def _check_uur(self, uur):
        size = self.rules.size
        if uur is None:
            return self.rules.no_uurs
        if not isinstance(uur, (list, tuple)) or len(uur) != size:
            raise RulesError("uur must be a list of %d owners 0/1 or null" % size)
        owned = False
        for i in range(size):
            owner = uur[i]
            if owner is None:
                continue
            if not self.rules.uurs or type(owner) is not int or owner not in (SOUTH, NORTH):
                raise RulesError("uur item %d (%r) is not an owner 0/1 or null" % (i, owner))
            if uur[size - 1 - i] != owner or self.setup[i] == 0:
                raise RulesError("Uurs come in non-empty opposite pairs with one owner "
                                 "(pit %d)" % i)
            owned = True
        return list(uur) if owned else self.rules.no_uurs

    def _reset(self):
        # pits and uur lists are replaced by each move, never changed in place, so a position
        # may share them with the start, its parent or its children
        self.pits = self.setup[:]
        self.uur = self.start_uur
        self.captured = self.start_captured[:]
        self.on_board = sum(self.pits)
        self._wide = self.on_board > 255    # repetition keys: bytes when every count fits one
        self.to_move = self.first
        self.moves = []
        self.passes = NO_PASSES     # who passed since the last move (Mangala IV)
        self._over = False
        self._end_reason = None
        self._scores = None
        self._history = ([], [])     # positions seen since the last capture, per mover
        self._ahead = None          # prepare_push's game, one move on
        self._settle()

    # --- the rules' questions -------------------------------------------------------------

    @property
    def n(self):
        return self.rules.n

    @property
    def ply(self):
        """Moves played in this game (a pass is not a ply)."""
        return len(self.moves)

    @property
    def first_move(self):
        """True when the next move is the first of the game (the first_move_right option)."""
        return self.start_first_move and not self.moves

    @property
    def over(self):
        """True when the game is over (sows the mover's pits only if it must find out)."""
        if self._over:
            return True
        if self._legal is not None:
            return False
        for move in self._candidates:
            if self._is_legal_child(move):      # remembered: asking again costs little
                return False
        self._resolve()
        return self._over

    @property
    def resolved(self):
        """True when the legal moves are known: `legal_moves()` then sows nothing (a Pico
        asks before it would have to, in a turn that has a reading to judge)."""
        return self._over or self._legal is not None

    @property
    def scores(self):
        """[south, north] when the game is over, else None."""
        return self._scores[:] if self.over else None

    @property
    def end_reason(self):
        """Why the game ended (one of the END_* names), or None."""
        return self._end_reason if self.over else None

    def legal_moves(self):
        """The mover's legal moves as a sorted list of own pit numbers (empty when over)."""
        if self._legal is None:
            self._resolve()
        return list(self._legal)

    @property
    def legal(self):
        """The same moves as `legal_moves()`, in a tuple every caller shares: nothing is
        made to read them (the guide asks at every reading while a board waits for a move,
        and a new list is a search of a Pico's nearly full heap, up to a millisecond)."""
        if self._legal is None:
            self._resolve()
        return self._legal

    def is_legal(self, move):
        if self._over:
            return False
        if self._legal is not None:
            return move in self._legal
        return move in self._candidates and self._is_legal_child(move)

    def random_move(self, rng):
        """A legal move drawn uniformly at random with `rng.randrange`, or None when the game is
        over. Sows only the pits it draws, so a playout pays for one sowing per ply."""
        if self._over:
            return None
        if self._legal is not None:
            legal = self._legal
            return legal[rng.randrange(len(legal))] if legal else None
        choices = self._candidates
        copied = False
        while choices:
            move = choices[rng.randrange(len(choices))]
            child = self.sown(move)
            if child[2] != ENDLESS or self.rules.abar:
                return move
            if not copied:          # rejection keeps the draw uniform over the legal moves
                choices = choices[:]
                copied = True
            choices.remove(move)
        self._resolve()
        return None

    def row(self, player):
        """`player`'s pit counts, their pit 1 first."""
        n = self.rules.n
        return self.pits[player * n:player * n + n]

    def winner(self):
        """0 or 1 for the winner, None for a draw or a game not over."""
        scores = self.scores
        if scores is None or scores[0] == scores[1]:
            return None
        return SOUTH if scores[0] > scores[1] else NORTH

    def start_script(self):
        """Steps owed before the first move: passes at the start (Mangala IV), or the
        collection when the game is over before anyone moves."""
        start = Game(self.rules, None, self.setup, self.first, self.start_captured,
                     self.start_uur, self.start_first_move)
        steps = [(Step.PASS, player) for player in start.passes]
        if start.over:
            steps.extend(start.collection())
        return steps

    def collection(self):
        """The end-of-game steps of this position: every non-empty pit into its owner's store,
        in pit order (none for a lone Mangala IV stone, which is not scored)."""
        if not self.over or self._end_reason == END_STONES:
            return []
        n = self.rules.n
        steps = []
        for i in range(self.rules.size):
            count = self.pits[i]
            if count:
                owner = self.uur[i]
                if owner is None:
                    owner = SOUTH if i < n else NORTH
                steps.append((Step.COLLECT, i, count, owner))
        return steps

    # --- moves ------------------------------------------------------------------------------

    def why_illegal(self, move):
        """Why `move` is not legal here, in words (None when it is legal)."""
        rules = self.rules
        if type(move) is not int or move < 1 or move > rules.n:
            return "%r is not a pit number 1..%d" % (move, rules.n)
        if self.is_legal(move):
            return None
        if self.over:
            return "the game is over"
        index = rules.pit_index(self.to_move, move)
        if self.pits[index] == 0:
            return "pit %d is empty" % move
        if self.uur[index] is not None:
            return "pit %d is an Uur, and an Uur is never sown from" % move
        if move not in self._candidates:
            return "a turn starts from the %s pit that holds stones" % rules.start
        if self._children[move][2] == ENDLESS and not rules.abar:
            return "pit %d's relay sowing never ends (an endless move)" % move
        if rules.first_move_right and self.first_move:
            return "the first move of the game is from the rightmost playable pit"
        return "the opponent's row is empty and pit %d would leave it so" % move

    def check_move(self, move):
        """Raise RulesError unless `move` is legal now; the message names the ply, the problem
        and the legal moves."""
        reason = self.why_illegal(move)
        if reason is None:
            return
        ply = self.ply + 1
        if self.over:
            raise RulesError("ply %d: move %s after the end of the game" % (ply, move))
        legal = ", ".join([str(m) for m in self.legal_moves()])
        if type(move) is not int or move < 1 or move > self.rules.n:
            raise RulesError("ply %d: move %s (legal: %s)" % (ply, reason, legal))
        who = "South" if self.to_move == SOUTH else "North"
        raise RulesError("ply %d: %s's move %d is not legal: %s (legal: %s)" % (
            ply, who, move, reason, legal))

    def push(self, move, script=False):
        """Play `move` (own pit number). Returns the step script when `script` is true.

        The script is the move's sowing, then any passes that follow it and, when the move ends
        the game, the collection of every non-empty pit (docs/rules.md section 7).
        """
        child = self._children.get(move) if type(move) is int else None   # not True for 1
        if (child is None or child[2] == ENDLESS
                or (self._legal is not None and move not in self._legal)):
            self.check_move(move)   # raises, or sows a legal move not yet sown
            child = self._children[move]
        ahead = self._ahead
        if ahead is not None and ahead.moves[-1] != move:
            ahead = None
        if not script:
            self._play(move, child, ahead)
            return None
        mover = self.to_move
        steps = []
        if child[2] != ENDLESS:     # an abar endless move has an empty script
            self.rules.sow(self.pits[:], self.uur, mover, self.rules.pit_index(mover, move),
                           steps)
        self._play(move, child, ahead)
        for player in self.passes:
            steps.append((Step.PASS, player))
        steps.extend(self.collection())
        return steps

    def play_random(self, rng):
        """Play a legal move drawn uniformly at random (`random_move`) and return it, or None
        when the game is over: a random playout is ``while game.play_random(rng): pass``."""
        move = self.random_move(rng)
        if move is not None:
            self._play(move, self._children[move])
        return move

    def prepare_push(self, move):
        """Work out now what would otherwise wait for the first question after `push(move)`:
        the next position's legal moves, every one of its candidates sown (a relay of many
        laps each: on a Pico, milliseconds). A guide calls it while the players sow `move` on
        the board, so that the reading that completes the move does no sowing: `push(move)`
        takes the work over. True when it did the work, False when it was done already.
        Raises RulesError for a move that is not legal, as push does.

            >>> game = Game("layli-goobalay")
            >>> game.prepare_push(3)
            True
            >>> game.push(3)                # nothing sown now: the answers are ready
            >>> game.legal_moves()
            [1, 3, 4, 6]
        """
        ahead = self._ahead
        if ahead is not None and ahead.moves[-1] == move:
            return False
        ahead = self.copy()
        ahead.push(move)
        ahead.legal_moves()         # sows every candidate, or finds the game over
        self._ahead = ahead
        return True

    def _play(self, move, child, ahead=None):
        """Move to the position `child` (what sowing `move` gave), then settle it; `ahead`,
        prepare_push's game after the same move, gives what it worked out since."""
        if ahead is not None:
            # prepare_push's copy is this game after the same move, settled, its candidates
            # sown since, and nobody else's: its position is taken over (settling again, with
            # the repetition rule's look at the history, took a Pico 0.6 ms of a move's end;
            # the set-up, rules and start are the same objects)
            self.pits, self.uur, self.captured = ahead.pits, ahead.uur, ahead.captured
            self.on_board, self.to_move, self.moves = ahead.on_board, ahead.to_move, ahead.moves
            self.passes, self._history = ahead.passes, ahead._history
            self._children, self._legal = ahead._children, ahead._legal
            self._candidates, self._over = ahead._candidates, ahead._over
            self._end_reason, self._scores = ahead._end_reason, ahead._scores
            self._ahead = None
            return
        child_pits, child_uur, gain = child
        mover = self.to_move
        self.pits = child_pits
        self.uur = child_uur
        if gain > 0:
            self.captured[mover] += gain
            self.on_board -= gain
        if gain > 0 or gain <= UUR_CREATED:
            self._history = ([], [])    # the earlier positions can never recur
        self.to_move = 1 - mover
        self.moves.append(move)
        self._ahead = None
        self._settle()

    def pop(self):
        """Take back the last move and return it (replays the game from its start: positions
        are not stacked, to keep a game small on a microcontroller)."""
        if not self.moves:
            raise RulesError("no move to take back")
        moves = self.moves[:-1]
        last = self.moves[-1]
        self._reset()
        for move in moves:
            self.push(move)
        return last

    def copy(self):
        """An independent game in the same state (the remembered positions included), to try
        moves on without `pop`, which replays the game from its start."""
        other = object.__new__(Game)     # skips __init__ (MicroPython has no Game.__new__)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        # positions are replaced, never changed in place; what is changed in place is copied
        other.captured = self.captured[:]
        other.moves = self.moves[:]
        south, north = self._history
        other._history = (type(south)(south), type(north)(north))
        other._children = dict(self._children)
        other._ahead = None
        return other

    def replay(self, moves):
        """Play `moves` in order; a bad one raises RulesError naming its ply, and the game
        stays at the position before it."""
        for move in moves:
            self.push(move)

    # --- internals --------------------------------------------------------------------------

    def _settle(self):
        """Hand the turn on past passes, then decide what can be decided cheaply: the end, or
        the candidate pits whose legality is found out when needed."""
        rules = self.rules
        self._children = {}
        self._legal = None
        pits = self.pits
        if rules.mangala:
            self.passes = NO_PASSES
            if self._pass_or_end():
                return
        else:
            if self._seen_before():
                self._finish(END_REPETITION)
                return
        mover = self.to_move
        uur = self.uur
        base = mover * rules.n
        if rules.forced:
            own = rules.rows[mover] if rules.start == "leftmost" else rules.rows_back[mover]
            candidates = [i - base + 1 for i in own if pits[i]][:1]
        else:
            if uur is rules.no_uurs:    # no Uur on the board (children share this list)
                candidates = [i - base + 1 for i in rules.rows[mover] if pits[i]]
            else:
                candidates = [i - base + 1 for i in rules.rows[mover]
                              if pits[i] and uur[i] is None]
        self._candidates = candidates
        if not candidates:
            self._finish(END_NO_MOVE)
        elif rules.special:
            if rules.either and self._row_bare(pits, uur, rules.n):
                self._finish(END_EMPTY_ROW)
            elif rules.restricted and self._restricted():
                self._resolve()

    def _seen_before(self):
        """Remember this position for the repetition rule; True when it had occurred.

        A short run of positions since the last capture is kept as the pits lists themselves
        (positions share them, so nothing is built); a long one turns into sets of keys, so
        that each check stays cheap. The player to move picks the list, and the Uurs need no
        place in a key: creating one clears the history.
        """
        pits = self.pits
        history = self._history[self.to_move]
        if type(history) is list:
            if pits in history:
                return True
            history.append(pits)
            if len(history) > HISTORY_LISTED:
                self._history = (self._keys(self._history[0]), self._keys(self._history[1]))
            return False
        seen = len(history)
        key = tuple(pits) if self._wide else bytes(pits)
        history.add(key)  # pyright: ignore[reportAttributeAccessIssue] (a set by now)
        return len(history) == seen     # already there: one hash, not two

    def _keys(self, positions):
        return set([tuple(pits) if self._wide else bytes(pits) for pits in positions])

    def _pass_or_end(self):
        """Mangala IV: hand the turn on past passes; True when the game ended here."""
        n = self.rules.n
        pits = self.pits
        while True:
            if self.on_board <= 1:
                self._finish(END_STONES)
                return True
            if self._seen_before():     # a position where a player must pass counts too
                self._finish(END_REPETITION)
                return True
            base = self.to_move * n
            if sum(pits[base:base + n]):
                return False
            if self.passes is NO_PASSES:
                self.passes = []
            self.passes.append(self.to_move)  # pyright: ignore[reportAttributeAccessIssue]
            self.to_move = 1 - self.to_move

    @staticmethod
    def _row_bare(pits, uur, n):
        """True when a row holds no seed outside Uurs (end_when=either)."""
        for side in (0, n):
            bare = True
            for i in range(side, side + n):
                if pits[i] and uur[i] is None:
                    bare = False
                    break
            if bare:
                return True
        return False

    def _restricted(self):
        """True when a rule narrows the legal moves here (first_move_right, must_feed), so they
        must all be known at once."""
        rules = self.rules
        if rules.first_move_right and self.first_move:
            return True
        n = rules.n
        other = (1 - self.to_move) * n
        return rules.must_feed and sum(self.pits[other:other + n]) == 0

    def sown(self, move):
        """What sowing `move` (a candidate: an own pit with seeds, not an Uur) from this
        position gives: (pits, uur, gain), gain the seeds captured, ENDLESS, or UUR_CREATED -
        pit for an Uur made. Sown once and remembered (the legality test sows it too); the
        lists are the engine's own, not to be changed."""
        child = self._children.get(move)
        if child is None:
            pits = self.pits[:]
            gain = self.rules.sow(pits, self.uur, self.to_move,
                                  self.to_move * self.rules.n + move - 1)
            if gain == ENDLESS:     # abar: the position stays as it was
                pits = self.pits[:]
            uur = self.uur if gain > UUR_CREATED else uur_pair(self.uur, gain, self.to_move)
            child = (pits, uur, gain)
            self._children[move] = child
        return child

    def _is_legal_child(self, move):
        return self.sown(move)[2] != ENDLESS or self.rules.abar

    def _resolve(self):
        """Sow every candidate: the full list of legal moves, or the end of the game."""
        rules = self.rules
        legal = [move for move in self._candidates if self._is_legal_child(move)]
        if rules.must_feed and legal:
            n = rules.n
            other = (1 - self.to_move) * n
            if sum(self.pits[other:other + n]) == 0:
                legal = [move for move in legal
                         if sum(self._children[move][0][other:other + n]) > 0]
                if not legal:
                    self._finish(END_NO_FEED)
                    return
        if rules.first_move_right and self.first_move and legal:
            legal = [legal[-1]]
        self._legal = tuple(legal)
        if not legal:
            self._finish(END_ENDLESS if rules.mangala else END_NO_MOVE)

    def _finish(self, reason):
        """The game is over: score it."""
        rules = self.rules
        self._over = True
        self._end_reason = reason
        self._legal = ()
        self._candidates = []
        self._children = {}
        scores = self.captured[:]
        if reason != END_STONES:        # a lone Mangala IV stone is not scored
            n = rules.n
            pits = self.pits
            uur = self.uur
            for i in range(rules.size):
                if pits[i]:
                    owner = uur[i]
                    if owner is None:
                        owner = SOUTH if i < n else NORTH
                    scores[owner] += pits[i]
        self._scores = scores

    # --- the machine-readable interface (docs/rules.md section 8) --------------------------------

    def state_json(self):
        """This position as one line of JSON, keys in docs/rules.md's order, the same bytes on
        CPython and MicroPython."""
        legal = self.legal_moves()
        uur = ", ".join(["null" if owner is None else str(owner) for owner in self.uur])
        scores = self.scores
        scores = "null" if scores is None else "[%d, %d]" % (scores[0], scores[1])
        return ('{"ply": %d, "pits": [%s], "uur": [%s], "captured": [%d, %d], "to_move": %d, '
                '"legal": [%s], "over": %s, "scores": %s}' % (
                    self.ply, ", ".join([str(c) for c in self.pits]), uur,
                    self.captured[0], self.captured[1], self.to_move,
                    ", ".join([str(m) for m in legal]),
                    "true" if self._over else "false", scores))

    def state(self):
        """This position as a dict with docs/rules.md section 8's keys."""
        legal = self.legal_moves()
        return {
            "ply": self.ply, "pits": self.pits[:], "uur": self.uur[:],
            "captured": self.captured[:], "to_move": self.to_move, "legal": legal,
            "over": self._over, "scores": self.scores,
        }
