"""The virtual table behind the browser page: seeds in places, a hand, and the real guide
(host-only).

    table = Table("layli-goobalay", mode="computer")
    table.act({"action": "lift", "place": 2})      # South lifts their pit 3
    table.act({"action": "drop", "place": 3})      # one seed into the next pit
    table.state()                                  # counts, hand, the LED frame, phase, moves...

The table is what a board is: it holds the seed count of every place (the 2n pits, then South's
and North's store) and the seeds in the person's hand, carries out the person's actions, and
after each one hands the counts to a `controller.session.Session` as settled load cells would.
The guide decides everything else — the legal pits, the next drop, relays, captures, Uurs,
mistakes, the end — and its frame is what the page shows on the LED rings. Nothing here knows
the rules.

A computer plays as a person with a board would: the computer opponent
(`controller.ai.Searcher`, at the table's `level`, COMPUTER_LEVEL unless another is chosen)
chooses, its move is lit as a hint, then `simulator.players.LedPlayer` — a hand that follows
the LEDs and makes no mistakes — carries it out one action at a time (`autoplay_step`), so the
page can show each seed moving. A replay does the same with the moves of a game record. In the
play way (`way` PLAY, the default) the same hand sows a move a person chose (`play`); in the
rehearse way (REHEARSE) the person moves every seed.
"""

from __future__ import annotations

import random
import time
from typing import Any

from controller.guide import AWAIT, RESTORE, SKIP, SOWING
from controller.guide.setup import ARRANGE, COPY
from controller.guide.events import MOVE_ABANDONED, MOVE_DONE
from controller.ai import LEVELS, Searcher, analyse
from controller.rules import VARIANTS, Game, RulesError, record
from controller.session import MemoryStorage, Session
from controller.session.loop import UNDO, BoardLoop
from controller.board.view import (Controls, board_view, event_words, place_name,
                                   reason_words, side_names, variant_words)
from controller.languages import N_, _, every_language, localise, ngettext
from simulator.ui.lessons import LESSONS, TAUGHT_IN
from simulator.players import LedPlayer, apply_action

PEOPLE = "people"          # two people at one screen
COMPUTER = "computer"      # South is a person, North the computer
COMPUTERS = "computers"    # the computer plays both sides
REPLAY = "replay"          # a game record, played out move by move
MODES = (PEOPLE, COMPUTER, COMPUTERS, REPLAY)
COMPUTER_SIDES = {PEOPLE: (), COMPUTER: (1,), COMPUTERS: (0, 1), REPLAY: (0, 1)}

FAULT_KINDS = ("stuck", "railed", "off scale", "below empty")

# how a person plays (the page's choice; either way the guide, and the LED rings, are behind it)
PLAY = "play"              # a lit pit chosen (a click, a tap, its number): the move is sown for them
REHEARSE = "rehearse"      # every seed by hand, as on the physical board
WAYS = (PLAY, REHEARSE)

COMPUTER_LEVEL = "hard"    # the opponent at the table: strong, and a quarter of a second a move
HINT_SECONDS = 0.9         # a computer's move stays lit as a hint this long before its hand moves
STEP_SECONDS = 0.35        # then one action of its hand every this long
# the speeds a person picks for a move sown for them: seconds an action (the seed moving)
SPEEDS = {"slow": 0.7, "normal": STEP_SECONDS, "fast": 0.12, "instant": 0.0}
FINISH_LIMIT = 20000       # the actions `finish` does at most (a move of Tampoduo's 1,700 seeds
                           # is some 3,500)

# the page's controls, as the words of an event tell a person to use them
TABLE_CONTROLS = Controls(N_("confirm (c)"),
                          N_("skip ahead (s) sets the board to the move's result"))


class TableError(ValueError):
    """A message the table cannot act on; the text names what was wrong. Nothing changed."""


class _RecordChooser:
    """Chooses the moves of a game record, in order (a replay's "computer")."""

    def __init__(self, moves: list[int]) -> None:
        self.moves = moves

    def choose(self, game: Game) -> int | None:
        ply = len(game.moves)
        return self.moves[ply] if ply < len(self.moves) else None


class Table:
    """A board of seeds, a hand, and the session that guides them (see the module text)."""

    def __init__(self, variant: str = "layli-goobalay", options: dict | None = None,
                 mode: str = PEOPLE, seed: int | None = None, record_text: str | None = None,
                 hint_seconds: float = HINT_SECONDS, step_seconds: float = STEP_SECONDS,
                 clock=time.monotonic, way: str = PLAY, level: str = COMPUTER_LEVEL) -> None:
        if way not in WAYS:
            raise TableError("unknown way to play %r (known: %s)" % (way, ", ".join(WAYS)))
        self.way = way
        self.level = level
        self.hint_seconds = hint_seconds
        self.step_seconds = step_seconds
        self.speed = next((name for name, seconds in SPEEDS.items() if seconds == step_seconds),
                          "normal")
        self.clock = clock
        self.rng = random.Random(seed)
        # the (variant, mode, way) left for the lessons, and whose lessons they are
        self._before_lessons: tuple[str, str, str] | None = None
        self.lessons_of = variant
        self.new_game(variant, options, mode, record_text)

    # --- a game -----------------------------------------------------------------------------

    def new_game(self, variant: str = "layli-goobalay", options: dict | None = None,
                 mode: str = PEOPLE, record_text: str | None = None,
                 level: str | None = None, setup: list[int] | None = None,
                 match: bool = False) -> None:
        """Set the board up for a new game, a computer playing at `level` (the table's until
        now when None; one of controller.ai.LEVELS), from `setup` (2n counts) if given, else
        the variant's start; with `match`, a match of hands (docs/rules.md 2.1: its options
        `hands`, `arrangement`, `next_first`). RulesError or TableError when the request is
        bad; the game in play then goes on."""
        if mode not in MODES:
            raise TableError("unknown mode %r (known: %s)" % (mode, ", ".join(MODES)))
        level = self.level if level is None else level
        if level not in LEVELS:
            raise TableError("unknown level %r (known: %s)" % (level, ", ".join(LEVELS)))
        moves: list[int] = []
        first = None
        if mode == REPLAY:
            if not record_text or not record_text.strip():
                raise TableError(_("a replay needs a game record (PGN-style text or JSON)"))
            text = record_text.strip()
            played, _tags = (record.read_json(text) if text.startswith("{")
                             else record.read(text))
            if not isinstance(played, Game):
                raise TableError(_("the record is a match; a replay plays one game"))
            variant, options = played.rules.name, dict(played.rules.options)
            setup, first, moves = played.setup, played.first, list(played.moves)
        if match and mode == REPLAY:
            raise TableError(_("a replay plays one game, not a match"))
        session = Session(MemoryStorage(), variant, options, setup, first, match=match)
        game = session.game
        # the board's loop, as every board drives it (its counts come from `_read`)
        self.loop = BoardLoop(session, hint_reasons=True)
        self.mode = mode
        self.computers = COMPUTER_SIDES[mode]
        self.level = level
        self.chooser = (_RecordChooser(moves) if mode == REPLAY
                        else Searcher(level, seed=self.rng.randrange(1, 1 << 30)))
        self.hand = LedPlayer(game.rules.n, self.rng)     # the one hand at the table
        self.counts = game.pits + [0, 0]
        self.broken_cells: list[str | None] = [None] * len(self.counts)
        self.paused = False
        # what the table said, newest last: each line in every language (pages may differ)
        self.said: list[str] = []
        name, first = variant_words(game.rules.variant.title), game.to_move
        self._say(lambda: _("%(variant)s: %(player)s to move") % {
            "variant": name, "player": side_names()[first]})
        self.last_place: int | None = None                # where the hand last went (animation)
        self.sown_for = False               # a move a person chose is being sown for them
        self.lesson: int | None = None      # the lesson on the board (1..), or None
        self._next_auto = self.clock()
        self._read()

    def _say(self, make) -> None:
        """A line for the page, `make()` made in every language."""
        self.said.append(every_language(make))

    # --- the lessons ------------------------------------------------------------------------

    def start_lesson(self, number: int, variant: str | None = None) -> None:
        """Set the board for lesson `number` (from 1) of `variant`'s lessons (the game's on
        the table until now, when None; simulator.ui.lessons): its position, two people (the
        learner is South), every seed moved by hand as the rings lead. The variant, mode and
        way to play come back when the lessons are left (`leave_lessons`)."""
        if self.lesson is None:
            self._before_lessons = (self.game.rules.name, self.mode, self.way)
            self.lessons_of = variant or self.game.rules.name
        elif variant is not None:
            self.lessons_of = variant
        lesson = LESSONS[self.lessons_of][number - 1]
        self.new_game(TAUGHT_IN[self.lessons_of], None, PEOPLE, setup=list(lesson.setup))
        self.way = REHEARSE
        self.lesson = number

    def leave_lessons(self) -> None:
        """Back to a game from the start, in the mode and way of before the lessons."""
        variant, mode, way = self._before_lessons or (self.game.rules.name, PEOPLE, self.way)
        self._before_lessons = None
        self.new_game(variant, None, mode)
        self.way = way

    def lesson_state(self) -> dict | None:
        """The lesson on the board for the page: its number, how many there are, its title,
        its words (what to do, or once its move is made what it showed) and `done`."""
        if self.lesson is None:
            return None
        lessons = LESSONS[self.lessons_of]
        lesson = lessons[self.lesson - 1]
        done = bool(self.game.moves) and self.guide.phase != SOWING
        return {"number": self.lesson, "of": len(lessons), "title": _(lesson.title),
                "words": _(lesson.after if done else lesson.before), "done": done}

    @property
    def session(self) -> Session:
        return self.loop.session

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def guide(self):
        return self.session.guide

    @property
    def size(self) -> int:
        return len(self.counts)

    # --- the messages of the page -----------------------------------------------------------

    def act(self, message: Any) -> None:
        """Carry out one message of the page: ``{"action": NAME, ...}``. Raises TableError
        naming the problem, having changed nothing."""
        if not isinstance(message, dict):
            raise TableError("a message must be a JSON object, not %s" % type(message).__name__)
        name = message.get("action")
        handler = _ACTIONS.get(name) if isinstance(name, str) else None
        if handler is None:
            raise TableError("unknown action %r (known: %s)" % (name, ", ".join(sorted(_ACTIONS))))
        handler(self, message)

    def _place(self, message: dict, key: str = "place", pits_only: bool = False) -> int:
        action = message["action"]
        place = message.get(key)
        if isinstance(place, bool) or not isinstance(place, int):
            raise TableError("%s: %r must be a place number, not %r" % (action, key, place))
        last = 2 * self.game.rules.n - 1 if pits_only else self.size - 1
        if not 0 <= place <= last:
            what = "pit" if pits_only else "place"
            raise TableError("%s: %s %d is off the board (%ss are 0..%d)" % (
                action, what, place, what, last))
        return place

    def _lift(self, message: dict) -> None:
        place = self._place(message, pits_only=True)
        if self.hand.hand:
            raise TableError(ngettext(
                "you are holding %(n)d seed: sow it before you lift another pit",
                "you are holding %(n)d seeds: sow them before you lift another pit",
                self.hand.hand) % {"n": self.hand.hand})
        if not self.counts[place]:
            raise TableError(_("%(place)s is empty: there is nothing to lift") % {
                "place": self.place_name(place)})
        self._do(("lift", place))

    def _drop(self, message: dict) -> None:
        place = self._place(message)
        if not self.hand.hand:
            raise TableError(_("your hand is empty: lift a pit first"))
        self._do(("drop", place, 1))

    def _take(self, message: dict) -> None:
        place = self._place(message)
        if not self.counts[place]:
            raise TableError(_("%(place)s is empty: there is no seed to take") % {
                "place": self.place_name(place)})
        self._do(("take", place, 1))

    def _put(self, message: dict) -> None:
        place = self._place(message)
        if not self.hand.hand:
            raise TableError(_("your hand is empty: there is nothing to put in the store"))
        self._do(("put", place, self.hand.hand))

    def _move(self, message: dict) -> None:
        """Seeds carried from one place to another in one movement: {"action": "move", "from":
        a, "to": b} every seed of a (a capture emptied into a store), with "seeds": k only k
        (one seed dragged where it goes: an Uur's, or a mistake's put right)."""
        source = self._place(message, "from")
        target = self._place(message, "to")
        if source == target:
            raise TableError("move: 'from' and 'to' are the same place (%d)" % source)
        if not self.counts[source]:
            raise TableError(_("%(place)s is empty: there is nothing to carry") % {
                "place": self.place_name(source)})
        seeds = message.get("seeds", self.counts[source])
        if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
            raise TableError("move: 'seeds' must be a number of seeds, 1 or more, not %r"
                             % (seeds,))
        if seeds > self.counts[source]:
            raise TableError(ngettext("%(place)s holds only %(n)d seed",
                                      "%(place)s holds only %(n)d seeds",
                                      self.counts[source]) % {
                "place": self.place_name(source), "n": self.counts[source]})
        self._do(("move", source, target, seeds))

    def _play(self, message: dict) -> None:
        """A person's move, sown for them: {"action": "play", "pit": k}, k the mover's own pit
        number (1..n). Lit as the choice, then the table's hand sows it, an action every
        `step_seconds` (`speed`), as it sows a computer's."""
        pit = message.get("pit")
        game, guide = self.game, self.guide
        if isinstance(pit, bool) or not isinstance(pit, int):
            raise TableError("play: %r is not a pit number" % (pit,))
        if game.over:
            raise TableError(_("the game is over: start a new one (n)"))
        if guide.phase != AWAIT or self.hand.hand:
            raise TableError(_("a move is under way: it ends first"))
        if game.to_move in self.computers:
            raise TableError(_("it is %(player)s's turn, and the computer plays it") % {
                "player": side_names()[game.to_move]})
        legal = game.legal_moves()
        if pit not in legal:
            raise TableError(_("%(player)s's pit %(pit)d cannot be played now: choose a lit "
                               "pit (%(lit)s)") % {"player": side_names()[game.to_move],
                                                   "pit": pit,
                                                   "lit": ", ".join(map(str, legal))})
        guide.show_hint(pit)
        self.sown_for = True
        self._next_auto = self.clock()

    def _way(self, message: dict) -> None:
        way = message.get("way")
        if way not in WAYS:
            raise TableError("way: %r is not a way to play (known: %s)"
                             % (way, ", ".join(WAYS)))
        self.way = way

    def _speed(self, message: dict) -> None:
        speed = message.get("speed")
        if speed not in SPEEDS:
            raise TableError("speed: %r is not a speed (known: %s)"
                             % (speed, ", ".join(SPEEDS)))
        self.step_seconds = SPEEDS[speed]
        self.speed = speed

    def _finish(self, message: dict) -> None:
        """The move being sown for a person or by the computer, done at once."""
        if self.guide.phase not in (SOWING, SKIP) or not self.computer_turn():
            raise TableError(_("no move is being sown for you now"))
        ply = len(self.game.moves)
        for _action in range(FINISH_LIMIT):
            if len(self.game.moves) > ply or not self.computer_turn():
                break
            self.act_as_hand(self.hand.next_action(self.guide.frame, self.counts))

    def _takeback(self, message: dict) -> None:
        if self.session.setup is not None:
            raise TableError(_("between the hands of a match there is no move to take back"))
        self.sown_for = False
        if not self.loop.press(UNDO):
            raise TableError(_("there is nothing to take back"))
        # against the computer, take back to the person's own move: else it replays at once
        while (self.game.to_move in self.computers and self.mode == COMPUTER
               and self.game.moves and self.guide.phase == RESTORE):
            self.session.takeback()
        self._read()
        if self.way == PLAY:            # the seeds are moved for a person who plays
            self.set_board()

    def _hint(self, message: dict) -> None:
        if self.guide.phase != AWAIT:
            raise TableError(_("a hint is for the start of a move"))
        self.loop.hint()
        player, pit, reason = self.game.to_move, self.guide.hint, self.loop.hint_reason
        self._say(lambda: _("hint: %(player)s pit %(pit)d, %(reason)s") % {
            "player": side_names()[player], "pit": pit, "reason": reason_words(reason)})

    def _skip(self, message: dict) -> None:
        if not self.session.skip_ahead():
            raise TableError(_("there is no move under way to skip ahead in (or a sensor is "
                               "broken)"))
        self._read()
        if self.way == PLAY:            # the seeds are moved for a person who plays
            self.set_board()

    def _set(self, message: dict) -> None:
        if not self.set_board():
            raise TableError(_("the board is already where the game is: there is nothing to "
                               "set"))

    def set_board(self) -> bool:
        """"Set the board for me": when the guide leads the board somewhere (after a
        takeback or a skip ahead: its difference view), every seed put where it goes at once,
        the hand emptied. False when the guide leads nowhere."""
        guide = self.guide
        if guide.phase not in (SKIP, RESTORE) or guide.target is None:
            return False
        self.counts = guide.target.places()
        self.hand.hand = 0
        self.last_place = None
        self._read()
        return True

    def _confirm(self, message: dict) -> None:
        self.loop.confirm()
        self._read()

    def _new(self, message: dict) -> None:
        variant = message.get("variant", self.game.rules.name)
        options = message.get("options") or None
        mode = message.get("mode", self.mode)
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise TableError("new: unknown variant %r (known: %s)"
                             % (variant, ", ".join(sorted(VARIANTS))))
        if options is not None and not isinstance(options, dict):
            raise TableError("new: options must be an object of name: value")
        if options:
            # option values arrive as text from the page's fields, as from the command line
            options = {name: value if isinstance(value, (bool, int)) else str(value)
                       for name, value in options.items()}
        text = message.get("record")
        if text is not None and not isinstance(text, str):
            raise TableError("new: a record must be text")
        level = message.get("level", self.level)
        if level not in LEVELS:
            raise TableError("new: the computer's level %r is not one of %s"
                             % (level, ", ".join(LEVELS)))
        match = message.get("match", False)
        if not isinstance(match, bool):
            raise TableError("new: 'match' must be true or false, not %r" % (match,))
        try:
            self.new_game(variant, options, mode, text, level, match=match)
        except RulesError as error:
            raise TableError(_("the new game cannot start: %(why)s") % {"why": error})

    # --- a match's next hand ----------------------------------------------------------------

    def setting_up(self) -> int | None:
        """Between the hands of a match, the player who places seeds now (0 South, 1 North):
        the arranger, then the other, who copies or places freely; None during a hand."""
        setup = self.session.setup
        if setup is None:
            return None
        return setup.arranger if setup.phase == ARRANGE else setup.other

    def arrangement(self) -> dict | None:
        """What the person setting the next hand up places, for the page: who, how many
        seeds, the row to copy (mirror) or None, and a row to start from (what their pits
        hold, else the seeds spread evenly); None during a hand or on a computer's turn."""
        setup = self.session.setup
        who = self.setting_up()
        if setup is None or who is None or who in self.computers:
            return None
        n = self.game.rules.n
        arranged = setup.rows[setup.arranger]
        seeds = setup.holdings[who] if arranged is None else sum(arranged)
        row = self.counts[who * n:who * n + n]
        if arranged is not None and setup.phase == COPY:
            start = arranged[:]
        elif sum(row) == seeds and min(row) >= 1:
            start = row
        else:
            start = [seeds // n + (1 if k < seeds % n else 0) for k in range(n)]
        return {"who": who, "seeds": seeds, "copy": arranged if setup.phase == COPY else None,
                "row": start, "aside": setup.holdings[who] - seeds}

    def _arrange(self, message: dict) -> None:
        """{"action": "arrange", "row": [k1, ..., kn]}: the person setting the next hand up
        places their seeds so, from their store (and back into it, from pits holding too
        many); the set-up guide reads the board as it reads every board."""
        plan = self.arrangement()
        if plan is None:
            raise TableError(_("there is no row for you to place now") if self.session.setup
                             is None or self.setting_up() in self.computers else
                             _("the computer places its own seeds"))
        n = self.game.rules.n
        row = message.get("row")
        if not isinstance(row, list) or len(row) != n or [
                k for k in row if isinstance(k, bool) or not isinstance(k, int)]:
            raise TableError("arrange: 'row' must be %d whole numbers, not %r" % (n, row))
        who, seeds = plan["who"], plan["seeds"]
        if min(row) < 1:
            raise TableError(_("every pit needs at least one seed"))
        if plan["copy"] is not None and row != plan["copy"]:
            raise TableError(_("%(player)s copies %(other)s's row pit for pit: %(row)s") % {
                "player": side_names()[who], "other": side_names()[1 - who],
                "row": ", ".join(map(str, plan["copy"]))})
        if sum(row) != seeds:
            raise TableError(ngettext("%(player)s places %(n)d seed, not %(row)d",
                                      "%(player)s places %(n)d seeds, not %(row)d", seeds) % {
                "player": side_names()[who], "n": seeds, "row": sum(row)})
        store = 2 * n + who
        pits = range(who * n, who * n + n)
        for pit in pits:                        # too many back into the store first
            extra = self.counts[pit] - row[pit - who * n]
            if extra > 0:
                self._do(("move", pit, store, extra))
        for pit in pits:
            missing = row[pit - who * n] - self.counts[pit]
            if missing > 0:
                self._do(("move", store, pit, missing))

    def _lesson(self, message: dict) -> None:
        """{"action": "lesson", "number": k, "variant": V}: lesson k (from 1) of V's lessons
        (V: the game's on the table, when not given); number 0 leaves the lessons."""
        variant = message.get("variant")
        if variant is not None and variant not in LESSONS:
            raise TableError("lesson: unknown variant %r (known: %s)" % (
                variant, ", ".join(sorted(LESSONS))))
        of = variant or (self.lessons_of if self.lesson else self.game.rules.name)
        number = message.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or not (
                0 <= number <= len(LESSONS[of])):
            raise TableError("lesson: 'number' must be 0 (leave) or a lesson 1..%d, not %r"
                             % (len(LESSONS[of]), number))
        if number:
            self.start_lesson(number, variant)
        else:
            self.leave_lessons()

    def _break(self, message: dict) -> None:
        place = self._place(message)
        kind = message.get("kind", FAULT_KINDS[0])
        if kind not in FAULT_KINDS:
            raise TableError("break: unknown fault %r (known: %s)" % (kind, ", ".join(FAULT_KINDS)))
        self.broken_cells[place] = kind
        self._read()

    def _mend(self, message: dict) -> None:
        place = self._place(message)
        if not self.broken_cells[place]:
            raise TableError(_("the sensor of %(place)s is not broken") % {
                "place": self.place_name(place)})
        self.broken_cells[place] = None
        self._read()

    def _pause(self, message: dict) -> None:
        self.paused = not self.paused
        paused = self.paused
        self._say(lambda: _("paused") if paused else _("playing on"))

    def _step(self, message: dict) -> None:
        if not self.autoplay_step(force=True):
            raise TableError(_("it is not the computer's turn (nor a record's)"))

    # --- the board's side -------------------------------------------------------------------

    def act_as_hand(self, action: tuple) -> None:
        """Carry out an action of `simulator.players.LedPlayer` (its tuples, unchecked): how
        the computer's hand, and scripts, work the table."""
        if action[0] == "confirm":
            self.loop.confirm()
            self._read()
        elif action[0] != "wait":
            self._do(action)

    def _do(self, action: tuple) -> None:
        """Carry out a hand's action on the seeds, then let the sensors read the board."""
        apply_action(action, self.counts, self.hand)
        self.last_place = action[2] if action[0] == "move" else action[1]
        self._read()

    def _read(self) -> None:
        """What load cells do after a hand has moved: every place settled at its count (a
        broken cell reported as a fault instead), given to the session."""
        faults = self.broken_cells if any(self.broken_cells) else None
        self.loop.update(self.counts[:], None, faults)
        self._tell()

    def _tell(self) -> None:
        for event in self.loop.react():
            if event[0] in (MOVE_DONE, MOVE_ABANDONED):
                self.sown_for = False           # the move a person chose is over
            words = every_language(lambda: self.describe(event))
            if words:
                self.said.append(words)
        del self.said[:-40]

    # --- the computer -----------------------------------------------------------------------

    def computer_turn(self) -> bool:
        """The table's hand is the one to act now: a computer's (or the record's) move, or a
        move a person chose to have sown for them (`play`), or a computer's part of setting a
        match's next hand up."""
        if self.session.setup is not None:
            return self.setting_up() in self.computers
        guide = self.guide
        if guide.phase == AWAIT:
            if self.sown_for:
                return guide.hint is not None
            return self.game.to_move in self.computers and self._chosen() is not None
        return guide.phase in (SOWING, SKIP) and (guide.mover in self.computers or self.sown_for)

    def _chosen(self) -> int | None:
        if self.mode == REPLAY:
            return self.chooser.choose(self.game)
        return 0        # a computer player always has a move while the game goes on

    def autoplay_wait(self) -> float | None:
        """Seconds until the computer's next action is due (0: now), or None: not its turn."""
        if self.paused or not self.computer_turn():
            return None
        return max(0.0, self._next_auto - self.clock())

    def autoplay_step(self, force: bool = False) -> bool:
        """One action of the computer's hand, if it is its turn (and due, unless `force`):
        at the start of a move its choice is lit as a hint; then the hand follows the LEDs."""
        if not self.computer_turn() or (not force and self.autoplay_wait() != 0.0):
            return False
        guide = self.guide
        if self.session.setup is not None:          # a computer arranges its row
            self.act_as_hand(self.hand.next_action(self.session.frame, self.counts))
            self._next_auto = self.clock() + self.step_seconds
            return True
        if guide.phase == AWAIT and guide.hint is None:
            move = self.chooser.choose(self.game)
            guide.show_hint(move)
            player = self.game.to_move
            self._say(lambda: _("%(player)s chooses pit %(pit)d") % {
                "player": side_names()[player], "pit": move})
            self._next_auto = self.clock() + self.hint_seconds
            return True
        self.act_as_hand(self.hand.next_action(guide.frame, self.counts))
        self._next_auto = self.clock() + self.step_seconds
        return True

    # --- what the page shows ----------------------------------------------------------------

    def place_name(self, place: int) -> str:
        """"South's pit 3", "North's store": a place as the players number it."""
        return place_name(place, self.game.rules.n)

    def describe(self, event: tuple) -> str | None:
        """One guide or session event in words (None for the ones not worth a line)."""
        return event_words(event, self.session, None, TABLE_CONTROLS)

    def record_text(self) -> str | None:
        """A match's record once it is over (every hand, its set-up and moves), as `layli
        rules` and a replay read it; None before."""
        match = self.session.match
        if match is None or not match.over:
            return None
        return record.write_match(match)

    def analysis(self) -> dict | None:
        """At the end of the game, its analysis (computed once): the moves with the evaluation
        after each, as the record writes them, and the moves that lost most, in words."""
        if not self.game.over:
            return None
        key = tuple(self.game.moves)
        if getattr(self, "_analysed", (None,))[0] != key:
            report = analyse(self.game)
            text = record.write_game(self.game, report.tags(), comments=report.comments())
            def nth(entry: dict) -> int:        # the mover's own count of their moves
                return sum(1 for other in report.plies
                           if other["mover"] == entry["mover"] and other["ply"] <= entry["ply"])

            mistakes = report.mistakes()

            def worst() -> list[str]:
                return [_("%(player)s's move %(nth)d (pit %(pit)d): %(lost).1f seeds lost; "
                          "pit %(best)d was better") % {
                    "player": side_names()[entry["mover"]], "nth": nth(entry),
                    "pit": entry["move"], "lost": entry["loss"], "best": entry["best"]}
                    for entry in mistakes] or [_("no move lost 1.5 seeds or more")]

            self._analysed = (key, {
                "moves": text.split("\n\n", 1)[1].strip() if "\n\n" in text else text,
                "mistakes": every_language(worst)})
        return self._analysed[1]

    def state(self) -> dict:
        """Everything the page draws, as JSON-ready data: the board's view
        (controller.board.view.board_view) and the table's own: its seeds (`counts`), the
        hand (`hand`, the seeds in it, and `last_place`, where it last went), the LED rings
        (`places`), the broken cells (`broken_cells`), the mode, the analysis at the end and the
        recent events in words, all in the language in use."""
        guide = self.guide
        rules = self.game.rules
        state = board_view(self.session, None, self.loop.hint_reason, TABLE_CONTROLS)
        state.update({
            "type": "state",
            "options": {name: rules.options[name] for name in sorted(rules.options)},
            "mode": self.mode,
            "way": self.way,
            "level": self.level,
            "speed": self.speed,
            "sowing_for_you": self.sown_for and self.computer_turn(),
            "can_set": guide.phase in (SKIP, RESTORE),
            "computers": list(self.computers),
            "counts": self.counts[:],
            "hand": self.hand.hand,
            "last_place": self.last_place,
            # what the rings show: the guide's frame, or between a match's hands the set-up's
            "places": [[colour, pattern] for colour, pattern in self.session.frame.places],
            "broken_cells": self.broken_cells[:],
            "paused": self.paused,
            "analysis": None if self.lesson else self.analysis(),
            "lesson": self.lesson_state(),
            "match": self.session.match is not None,
            "arrange": self.arrangement(),
            "record": self.record_text(),
            "status": self.said[-1] if self.said else "",
            "events": self.said[-8:],
        })
        return localise(state)


_ACTIONS = {
    "lift": Table._lift, "drop": Table._drop, "take": Table._take, "put": Table._put,
    "move": Table._move, "takeback": Table._takeback, "hint": Table._hint, "skip": Table._skip,
    "confirm": Table._confirm, "new": Table._new, "break": Table._break, "mend": Table._mend,
    "pause": Table._pause, "step": Table._step, "play": Table._play, "way": Table._way,
    "speed": Table._speed, "finish": Table._finish, "set": Table._set,
    "lesson": Table._lesson, "arrange": Table._arrange,
}

__all__ = ["Table", "TableError", "MODES", "PEOPLE", "COMPUTER", "COMPUTERS", "REPLAY",
           "FAULT_KINDS", "WAYS", "PLAY", "REHEARSE", "SPEEDS"]
