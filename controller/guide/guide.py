"""The LED guide: walks the move being played against what the sensors read.

    guide = Guide(Game("layli-goobalay"))
    guide.update(counts, settled)      # every sensor frame (counting mode)
    guide.frame                        # what each place shows now (frame.Frame), drawn
                                       # when asked for
    guide.take_events()                # what happened: ("move_started", 3), ("mistake", ...)

The engine knows the step script of a move (docs/rules.md section 7) and so the count of every
place after every step. The guide keeps the step the board has reached and accepts the next ones
only when the sensed counts equal the counts the script gives: it never accepts a board that does
not match. Whatever else the sensors show is a mistake, shown on the board until it is put right —
a seed in the wrong pit flashes there while the expected pit stays lit; any other difference is the
difference view (too many / too few). When a move's script is complete the guide plays the move in
the engine and lights the next player's legal pits.

Counting mode compares counts. A place that is not settled (a hand is in it) is not judged: a
step is accepted once every place it changes has settled at the right count, and a move is
completed only when the whole board has settled and matches. A faulty sensor is not trusted: its
place is shown as broken, and a step that needs it waits for `confirm()` — a person checks it.

Activity mode (one digital sensor per pit) cannot count: the guide advances on activity in the
pit the next step names and flags activity anywhere else, until that pit is touched again (the
seed taken back, or the stray touch acknowledged).

Portable core: MicroPython subset.
"""

from ..rules.script import Board
from ..rules.game import SOUTH, NORTH, Step
from .events import (BOARD_MATCHES, CONFIRMED, DIFFERENCE, GAME_OVER, ILLEGAL_PIT, MISTAKE,
                     MISTAKE_CLEARED, MOVE_ABANDONED, MOVE_DONE, MOVE_STARTED, MOVE_TAKEN_BACK,
                     OUTSIDE_SCRIPT, PASSED, SENSOR_FAULT, SKIPPED, SKIP_AHEAD, SKIP_OFFERED,
                     STEP_DONE, TO_SET, WRONG_PIT)
from .frame import (Frame, PLAYER_COLOURS, HINT, ERROR, TOO_MANY, TOO_FEW, FAULT, STEADY, UUR,
                    DROP, PICK, TAKE, UUR_FROM, UUR_TO, FORCED, PASS, FLASH, MORE, LESS, BROKEN,
                    WIN)

COUNTING = "counting"
ACTIVITY = "activity"

# Phases.
AWAIT = "await"          # the mover's legal pits are lit; lifting one starts the move
SOWING = "sowing"        # walking the move's script
SKIP = "skip"            # skip-ahead: the players set the board to the move's result at once
RESTORE = "restore"      # takeback or resync: the board must come back to the engine's position
OVER = "over"            # the game is over and collected

LOOKAHEAD = 6            # steps a reading may be ahead of the last one accepted
LOOKS = 65536            # a look-ahead's key: move * LOOKS + steps done (an int: a tuple key
                         # was a heap object at every reading, each legal move's)
SKIP_AFTER_LAPS = 3      # relay laps before skip-ahead is offered ...
SKIP_MIN_STEPS = 24      # ... when at least this many steps are still to come


class Guide:
    """The state machine between the sensors, the engine and the LEDs (see the module text)."""

    def __init__(self, game, mode=COUNTING, aside=None, one_frame=False):
        if mode != COUNTING and mode != ACTIVITY:
            raise ValueError("mode must be %r or %r, not %r" % (COUNTING, ACTIVITY, mode))
        self.game = game
        self.mode = mode
        # seeds a player holds aside in a match's hand (docs/rules.md 2.1) wait in their store
        self.aside = [0, 0] if aside is None else list(aside)
        self.size = game.rules.size + 2             # pits and the two stores
        self.events = []
        self.hint = None
        self.skip_offered = False
        self.faults = [None] * self.size
        self.confirmed = False                      # confirm() pressed for a faulty place
        self.flagged = set()                        # activity mode: pits flashing until touched
        self.uur_half = False                       # activity mode: an Uur's seed is out
        self.mistake = None                         # the mistake on show, or None
        self._frame = None                          # the frame on show; None: to draw
        # one_frame: every frame drawn into this one (see `frame`)
        self._kept = Frame(self.size) if one_frame else None
        self._last_counts = None                    # the last reading (its counts and
        self._last_settled = None                   # settled flags), kept for _rejudge
        self._looks = {}                            # move * LOOKS + done -> the look-ahead
        self._made = None                           # (scripts, _looks) once `prepared`
        self._no_room = False                       # the work ahead stopped: no heap left
        self._now = None                            # self.board's places, once asked for
        self.board = None                           # the board as it should be (_await)
        # the move under way (_start): its own pit number, step script, mover, the steps
        # done and the relay laps begun so far
        self.move = None
        self.script = None
        self.mover = game.to_move
        self.done = 0
        self.laps = 0
        # a target view (skip-ahead, takeback, resync): the board to reach, the counts when
        # it began, and the phase it returns to
        self.target = None
        self.before = None
        self.back_to = None
        self.phase = AWAIT                          # (and the legal moves' scripts: _await)
        self.scripts = {}
        self._await()

    # Every method the owner calls ends by marking the frame to be drawn again (`_redraw`),
    # after whatever changed, and the frame is drawn (`_render`) when it is asked for: once
    # for any number of changes, and not in the reading a Pico judges (its LEDs are drawn 25
    # times a second, on a turn of their own: a frame drawn with each reading was 1 to 1.5 ms
    # of the reading's time on a 2 x 12 board).

    @property
    def frame(self):
        """What each place shows now (frame.Frame): a new Frame after a change, the same one
        until the next. A guide made with `one_frame` draws every frame into the same Frame
        instead, when it is asked for after a change: for an owner that turns each frame into
        colours at once and keeps none (a Pico: a new Frame is a list of a place each, which
        its nearly full heap takes up to a millisecond to find room for)."""
        if self._frame is None:
            self._render()
        return self._frame

    def _redraw(self):
        self._frame = None

    # --- what the owner of the guide calls ------------------------------------------------

    def take_events(self):
        """The events since the last call, oldest first, as tuples ("kind", ...)."""
        events = self.events
        self.events = []
        return events

    def update(self, counts, settled=None, faults=None):
        """Counting mode: a sensed count for every place (pits, then South's and North's
        store: a list, or a bytearray, which a Pico passes to have it compared with the
        boards worked out in one go); `settled` and `faults` per place as sensing gives them
        (None: all settled, no fault). What to show then is `frame`."""
        if len(counts) != self.size:
            raise ValueError("a reading needs %d places, not %d" % (self.size, len(counts)))
        if settled is None:
            settled = [True] * self.size
        self._note_faults(faults)
        if self._last_counts is None:
            self._last_counts = counts[:]
            self._last_settled = settled[:]
        else:
            # copied into the lists kept: a Pico's heap, nearly full on a long board, is slow
            # to find room for a new list (up to 0.6 ms each, measured, on every reading)
            self._last_counts[:] = counts
            self._last_settled[:] = settled
        self._judge(counts, settled)
        self._redraw()

    def _judge(self, counts, settled):
        if self.phase == AWAIT:
            self._await_reading(counts, settled)
        elif self.phase == SOWING:
            self._sowing_reading(counts, settled)
        elif self.phase == SKIP or self.phase == RESTORE:
            self._target_reading(counts, settled)

    def _rejudge(self):
        """After a phase change from a button: judge the last reading again at once, so the
        difference view shows without waiting for the board to change."""
        if self.mode == COUNTING and self._last_counts is not None:
            self._judge(self._last_counts, self._last_settled)

    def touch(self, pit):
        """Activity mode: the digital sensor of `pit` saw a hand. Returns the frame."""
        if pit in self.flagged:
            self.flagged.remove(pit)                # taken back, or acknowledged
            self.mistake = None
            self.events.append((MISTAKE_CLEARED, pit))
            if self.phase == SOWING and self.done == len(self.script) and not self.flagged:
                self._complete()
        elif self.phase == AWAIT:
            if pit in self._legal_pits():
                self._start(self._move_of(pit), 1)
            else:
                self._flag(pit, ILLEGAL_PIT)
        elif self.phase == SOWING and self.done < len(self.script):
            step = self.script[self.done]
            if step[0] == Step.UUR and not self.uur_half and pit == step[2]:
                self.uur_half = True            # the seed is out; it must go into step[1]
            elif pit == self._step_place(step):
                self._advance(1)
            else:
                self._flag(pit, WRONG_PIT if step[0] == Step.DROP else OUTSIDE_SCRIPT)
        self._redraw()
        return self.frame

    def confirm(self):
        """A person vouches for what the sensors cannot check: in counting mode, the places
        whose sensors are faulty (the step that needs one is accepted when every other place
        agrees); in activity mode, the step in a pit whose sensor is faulty, or a takeback done
        by hand, which digital sensors cannot check."""
        self.confirmed = True
        if self.mode == COUNTING:
            self._rejudge()
        elif self.phase == RESTORE:
            self._target_reached()
        elif self.phase == SOWING and not self.flagged and self.done < len(self.script):
            place = self._step_place(self.script[self.done])
            if place is not None and self.faults[place]:
                self.events.append((CONFIRMED, place))
                self._advance(1)
        elif self.phase == AWAIT:
            # a lifted pit whose sensor is faulty: unambiguous only when it is the one such
            faulty = [pit for pit in self._legal_pits() if self.faults[pit]]
            if len(faulty) == 1:
                self.events.append((CONFIRMED, faulty[0]))
                self._start(self._move_of(faulty[0]), 1)
        self._redraw()

    def set_faults(self, faults):
        """Activity mode: the sensors' faults (None or a text per place, as sensing gives
        them; the stores have none). A pit flashing for an activation that turns out to be
        its sensor sticking is cleared: no hand did it. Returns the frame."""
        self._note_faults(faults)
        for pit in list(self.flagged):
            if self.faults[pit]:
                self.flagged.remove(pit)
                self.mistake = None
                self.events.append((MISTAKE_CLEARED, pit))
        self._redraw()
        return self.frame

    def skip_ahead(self):
        """Set the board to the result of the move at once (offered after a few relay laps).
        Counting mode only: digital sensors could not check the board that results."""
        if self.phase != SOWING or self.mode != COUNTING or self._faulty():
            return False                # a faulty sensor could not check the result either
        self.phase = SKIP
        self.before = self.board.places()
        self.target = self._final_board()
        self.events.append((SKIP_AHEAD, self.move))
        self._rejudge()
        self._redraw()
        return True

    def takeback(self):
        """Take back the move in progress, or the last move: the board is led back to the
        position before it."""
        if self.phase == SOWING or self.phase == SKIP:
            self.events.append((MOVE_ABANDONED, self.move))
        elif self.game.moves:
            move = self.game.pop()
            self.events.append((MOVE_TAKEN_BACK, move))
        else:
            return False
        self._restore()
        self._rejudge()
        self._redraw()
        return True

    def resync(self):
        """Show the difference between the board and the engine until they agree."""
        if self.phase == SOWING:
            self.before = self.board.places()
            self.target = self.board
            self.back_to = SOWING
            self.phase = RESTORE
        elif self.phase == AWAIT:
            self._restore()
        self._rejudge()
        self._redraw()

    def resume_move(self, move, done):
        """Carry on a move that was under way, `done` steps in (after a restart)."""
        self._start(move, done)
        self._redraw()

    def consistent(self, counts):
        """True when `counts` (a true, settled board) is one the guide would accept now: the
        board as it is, a few steps on, or the target of a skip-ahead or takeback. What a
        simulator uses to tell a real mistake from a false alarm."""
        settled = [True] * self.size
        if self.phase == SOWING:
            return self._ahead(counts, settled, self.move, self.done) is not None
        if self.phase == SKIP or self.phase == RESTORE:
            return counts == self.target.places()
        if self.phase == AWAIT:
            if counts == self.board.places():
                return True
            for move in self.game.legal:
                if self._ahead(counts, settled, move, 0):
                    return True
            return False
        return counts == self.board.places()

    def prepare(self):
        """Work ahead, one piece a call, so that a reading finds it done (on a 2 x 12 Pico the
        scripts of a position's legal moves take some 50 ms and their look-ahead 35 more, more
        than a frame): while the board waits for a move, the step script of one more legal
        move (until `prepared`), then the boards its first steps make (the look-ahead the
        reading where a pit is lifted compares with); during a move, the boards of its next
        steps, then the position after it and its legal moves (Game.prepare_push: the reading
        that completes the move would otherwise sow every pit of the next player, a relay of
        many laps each). Call it when there is nothing else to do; True when it did
        something."""
        if self.phase == AWAIT:
            if not self.game.resolved:
                self.game.legal_moves()         # a piece of its own: a relay for each pit
                return True
            if self._no_room:
                return False
            try:
                for move in self.game.legal:
                    if move not in self.scripts:
                        self._script(move)
                        return True
                for move in self.game.legal:
                    if move * LOOKS not in self._looks:
                        self._look(move, 0)
                        return True
            except MemoryError:
                # a Pico's heap, full and cut up, has no room for one more script (a long
                # board's relay of many laps: a kilobyte in one piece) even after the
                # collection MicroPython makes first: the work ahead stops for this position,
                # and the move lifted has its script made then, the others' let go first
                self._no_room = True
                return False
        elif self.phase == SOWING:
            if not self.ready:
                self._look(self.move, self.done)
                return True
            return self.game.prepare_push(self.move)      # False once it is done
        return False

    @property
    def prepared(self):
        """False while the board waits for a move whose legal moves, their scripts or the
        boards their first steps make `prepare` has yet to work out: what the reading where a
        pit is lifted would otherwise work out for the move lifted (on a 2 x 12 Pico up to
        20 ms a relay's script, 3 ms its look-ahead). Asking works nothing out: `prepare`
        does; once True it stays so, without a look at every move, until the position
        changes (a Pico's loop asks every turn)."""
        if self.phase == AWAIT:
            made = self._made
            if self._no_room or (made is not None and made[0] is self.scripts
                                 and made[1] is self._looks):
                return True
            if not self.game.resolved:
                return False
            for move in self.game.legal:
                if move not in self.scripts or move * LOOKS not in self._looks:
                    return False
            self._made = (self.scripts, self._looks)
        return True

    @property
    def ready(self):
        """False while a move under way waits for the boards its next steps make (`prepare`
        makes them first): the reading that shows the next step would work them out at once
        (on a 2 x 12 Pico 2 to 5 ms, in the turn that accepts a step)."""
        return self.phase != SOWING or self.move * LOOKS + self.done in self._looks

    def show_hint(self, move):
        """Light `move` (a legal own pit number, e.g. from a computer player) as a hint."""
        if self.phase == AWAIT and move in self.game.legal:
            self.hint = move
            self._redraw()

    # --- phases ---------------------------------------------------------------------------

    def _position_board(self):
        """The engine's position as a board; at the end, after the collection."""
        game = self.game
        stores = [game.captured[0] + self.aside[0], game.captured[1] + self.aside[1]]
        board = Board(game.pits, stores, uur=game.uur)
        if game.over:
            board.play(game.collection(), game.to_move)
        return board

    def _await(self):
        self.phase = OVER if self.game.over else AWAIT
        if not self._at_position():
            self.board = self._position_board()
        self._moved()
        self.scripts = {}
        self.hint = None
        self.mistake = None

    def _at_position(self):
        """self.board already shows the engine's position (a move's script sown to its end on
        it): it is kept, not made again (three lists, which a Pico's nearly full heap is slow
        to find room for, in the reading that completes a move)."""
        board = self.board
        game = self.game
        return (board is not None and board.hand == 0 and not game.over
                and board.pits == game.pits and board.uur == game.uur
                and board.stores[0] == game.captured[0] + self.aside[0]
                and board.stores[1] == game.captured[1] + self.aside[1])

    def _restore(self):
        self._moved()
        self.phase = RESTORE
        self.back_to = AWAIT
        self.before = self.board.places()
        self.target = self._position_board()
        self.mistake = None

    def _pit_base(self):
        """The mover's move m is pit _pit_base() + m (the mover's pits, 1-based moves)."""
        return self.game.to_move * self.game.rules.n - 1

    def _move_of(self, pit):
        return pit - self._pit_base()

    def _legal_pits(self):
        base = self._pit_base()
        return [base + move for move in self.game.legal]

    def _script(self, move):
        script = self.scripts.get(move)
        if script is None:
            script = self.game.copy().push(move, script=True)
            self.scripts[move] = script
        return script

    def _start(self, move, done):
        # from AWAIT, whose board is the position's (_await): kept, and what was worked out
        # from it too, until _advance applies the first step (a new board is three lists a
        # Pico's nearly full heap is slow to find room for, in the reading where a pit is lifted)
        self.move = move
        # the other moves' scripts go: the move's own work (its look-ahead, the next
        # position's moves) needs the room on a Pico's heap
        script = self.scripts.get(move)
        self.scripts = {} if script is None else {move: script}
        self.script = self._script(move)
        self.mover = self.game.to_move
        self.done = 0
        self.laps = 0
        self.skip_offered = False
        self.phase = SOWING
        self.hint = None
        self.events.append((MOVE_STARTED, move))
        self._advance(done)

    def _advance(self, steps):
        """Accept `steps` more steps of the script."""
        if self.mistake is not None:
            self._put_right()
        self.confirmed = False
        self.uur_half = False
        self._moved()
        for _ in range(steps):
            step = self.script[self.done]
            self.board.apply(step, self.mover)
            self.done += 1
            if step[0] == Step.PICK:
                self.laps += 1
            self.events.append((STEP_DONE, self.done))
        self._skip_passes()
        if self.done == len(self.script):
            if not self.flagged:        # activity mode: a flashing pit must be put right first
                self._complete()
        elif (self.mode == COUNTING and not self.skip_offered and self.laps > SKIP_AFTER_LAPS
              and len(self.script) - self.done >= SKIP_MIN_STEPS and not self._faulty()):
            self.skip_offered = True
            self.events.append((SKIP_OFFERED, self.move))

    def _skip_passes(self):
        while self.done < len(self.script) and self.script[self.done][0] == Step.PASS:
            self.events.append((PASSED, self.script[self.done][1]))
            self.done += 1

    def _complete(self):
        self.game.push(self.move)
        self.events.append((MOVE_DONE, self.move))
        if self.game.over:
            self.events.append((GAME_OVER, self.game.scores))
        self.confirmed = False
        self._await()

    def _final_board(self):
        board = self.board.copy()
        for step in self.script[self.done:]:
            board.apply(step, self.mover)
        return board

    # --- counting mode --------------------------------------------------------------------

    def _faulty(self):
        for fault in self.faults:
            if fault:
                return True
        return False

    def _note_faults(self, faults):
        if faults is None or faults == self.faults:
            return                  # (most readings: the same list, compared in one go)
        for place in range(self.size):
            fault = faults[place] if place < len(faults) else None
            if fault != self.faults[place]:
                self.faults[place] = fault
                if fault:
                    self.events.append((SENSOR_FAULT, place, fault))

    def _agrees(self, counts, settled, expected, changed):
        """`counts` agree with `expected`: every settled, trusted place is equal, and every
        place in `changed` has settled (or is vouched for, when faulty)."""
        faults = self.faults
        # the places that change are where a look-ahead that is not the board's fails:
        # looked at first, so that the other moves' boards are turned down in a place or
        # two (the reading where a pit is lifted is compared with every legal move's)
        for place in changed:
            if faults[place]:
                if not self.confirmed:
                    return False
            elif not settled[place] or counts[place] != expected[place]:
                return False
        if counts == expected:
            # every place equal, compared in one go where both are bytes (a Pico's counts,
            # the boards worked out here: a Pico takes 1 ms for the loop below)
            return True
        # the rest: a place that differs counts only when it has settled and is trusted (one
        # comparison for most places: this runs for every reading, 26 places on a long board)
        for place in range(self.size):
            if counts[place] != expected[place] and settled[place] and not faults[place]:
                return False
        return True

    def _vouchable(self, expected):
        """A target view can take a person's word for a faulty place only where the target is
        what the place held when the view began: a change there was never shown (a broken
        place shows only that it is broken), so it waits for the sensor to be mended."""
        for place in range(self.size):
            if self.faults[place] and expected[place] != self.before[place]:
                return False
        return True

    def _moved(self):
        """self.board changes: what was worked out from it goes (and the note that it was
        all made, which held it)."""
        self._looks = {}
        self._now = None
        self._made = None
        self._no_room = False

    def _places(self):
        """self.board's places (made once a board), as bytes where they fit (_compact)."""
        if self._now is None:
            self._now = _compact(self.board.places())
        return self._now

    def _look(self, move, done):
        """The look-ahead of `move` from self.board, `done` steps of its script in (0 while
        the board waits for it): what each of the next LOOKAHEAD steps (fewer at the end of
        the script) makes the board show, as a list of (places, the places that differ from
        now). Made once for each (move, done) while the board stays as it is."""
        return self._lookup(move, done)[0]

    def _lookup(self, move, done, steps=LOOKAHEAD):
        """(_look(move, done), a place that differs from now in every one of its boards, or
        None): a reading that shows that place settled and unchanged is none of them. With
        fewer `steps`, the first boards alone, made and not kept (unless the whole look-ahead
        is made already)."""
        key = move * LOOKS + done
        entry = self._looks.get(key)
        if entry is None:
            script = self._script(move)
            mover = self.mover if self.phase == SOWING else self.game.to_move
            start = self._places()
            ahead = self.board.copy()
            looks = []
            # a step changes a place or two (Board.touched): each board, and the places
            # where it differs from now, follow those alone (every place compared each step
            # was 4.5 ms of a 2 x 12 Pico's look-ahead, two thirds of it)
            small = isinstance(start, bytes) and ahead.total() < 256
            expected = bytearray(start) if small else list(start)
            differ = []                 # the places that differ from now, in order
            for step in script[done:done + steps]:
                ahead.apply(step, mover)
                for place in ahead.touched(step, mover):
                    count = ahead.count(place)
                    expected[place] = count
                    if count != start[place]:
                        if place not in differ:
                            differ.append(place)
                            differ.sort()
                    elif place in differ:
                        differ.remove(place)
                looks.append((bytes(expected) if small else list(expected), _compact(differ)))
            moved = None
            if looks:
                for place in looks[0][1]:
                    for _, changed in looks:
                        if place not in changed:
                            break
                    else:
                        moved = place
                        break
            entry = (looks, moved)
            if steps == LOOKAHEAD:
                self._looks[key] = entry
        return entry

    def _ahead(self, counts, settled, move, done, still=None):
        """How many more steps of `move`'s script (`done` steps in) the reading shows done (0
        when it shows the board as it is, None when it shows neither that nor any of the
        next LOOKAHEAD steps). `still`: whether the reading agrees with the board as it is,
        when the caller knows (the reading where a pit is lifted is compared with every
        legal move's steps, and the board as it is stays the same)."""
        start = self._now                       # (a call less: the reading where a pit
        if start is None:                       # is lifted asks this of every legal move)
            start = self._places()
        if still is None:
            still = self._agrees(counts, settled, start, ())
        if still and not self.confirmed:
            return 0            # the usual frame: nothing new (confirm() looks further)
        entry = self._looks.get(move * LOOKS + done)
        looks, moved = self._lookup(move, done) if entry is None else entry
        if _untouched(moved, self.faults, counts, settled, start):
            # none of its boards (the reading where another pit is lifted, against this move's)
            steps = len(looks)
        else:
            steps = 0
            for expected, changed in looks:
                steps += 1
                if self._agrees(counts, settled, expected, changed):
                    return steps
        if steps < LOOKAHEAD:
            return None         # the script ends before the reading's board
        return 0 if still else None

    def _await_reading(self, counts, settled):
        start = self._places()
        still = self._agrees(counts, settled, start, ())
        # once confirm() vouches for a broken pit, look for the move lifted from it
        if still and not self.confirmed:
            self._clear_mistake(settled)
            return
        looks = self._looks
        game = self.game
        faults = self.faults
        later = None
        for move in game.legal:
            entry = looks.get(move * LOOKS)
            if entry is None:
                # its script and look-ahead not made yet (a pit lifted before `prepare` was
                # done: on a 2 x 12 Pico up to 20 ms a relay's script, 3 ms a look-ahead):
                # made now only if its pit reads fewer seeds than before, the others' after.
                # A pit that gained seeds is another move's drop (a move lifts its pit first,
                # and its next LOOKAHEAD steps do not come round to it): a quick player's
                # reading, a lift and drops into the mover's own pits, made a look for each
                # of them first (9.3 ms on a 2 x 12 Pico)
                pit = game.rules.pit_index(game.to_move, move)
                if counts[pit] >= start[pit] and settled[pit] and not faults[pit]:
                    if later is None:
                        later = []
                    later.append(move)
                    continue
                # its lift alone, the reading where a pit is lifted unless the player is
                # quick: the first step's board, a sixth of the look-ahead (which was 5.6 ms
                # of that reading's frame on a 2 x 12 Pico); the next step's boards are
                # `prepare`'s, as after every step
                first = self._lookup(move, 0, 1)[0]
                if first and self._agrees(counts, settled, first[0][0], first[0][1]):
                    self._start(move, 1)
                    return
            elif _untouched(entry[1], faults, counts, settled, start):
                continue        # _ahead's first test (then 0 or None), without its call: a
                                # long board's twelve moves were 2 to 3 ms of a Pico's frame
            steps = self._ahead(counts, settled, move, 0, still)
            if steps:
                self._start(move, steps)
                return
        if later is not None:
            for move in later:
                steps = self._ahead(counts, settled, move, 0, still)
                if steps:
                    self._start(move, steps)
                    return
        self._show_mistake(counts, settled, [start], None)

    def _sowing_reading(self, counts, settled):
        steps = self._ahead(counts, settled, self.move, self.done)
        if steps is None:
            step = self.script[self.done]
            if self._in_transit(counts, settled, step):
                self._clear_mistake(settled)
                return
            self._show_mistake(counts, settled, self._next_boards(), step)
            return
        if steps:
            self._advance(steps)
        else:
            self._clear_mistake(settled)

    def _in_transit(self, counts, settled, step):
        """Whether the reading shows `step` (a capture, a collection or an Uur's seed: seeds
        from one place to another) part done by hand: some seeds gone from where they were,
        no more than those come to where they go, and every other settled place as it is. A
        person lifts captured seeds and puts them into the store by the handful; the seeds in
        the hand are no mistake."""
        kind = step[0]
        stores = self.size - 2
        if kind == Step.CAPTURE:
            source, target = step[1], stores + self.mover
        elif kind == Step.COLLECT:
            source, target = step[1], stores + step[3]
        elif kind == Step.UUR:
            source, target = step[2], step[1]
        else:
            return False
        now = self._places()
        moved = 1 if kind == Step.UUR else step[2]         # the seeds the step carries over
        for place in range(self.size):
            if not settled[place] or self.faults[place]:
                continue
            count = counts[place]
            if place == source:
                if not now[source] - moved <= count <= now[source]:
                    return False
            elif place == target:
                if not now[target] <= count <= now[target] + moved:
                    return False
            elif count != now[place]:
                return False
        gone = now[source] - counts[source] if settled[source] else moved
        come = counts[target] - now[target] if settled[target] else 0
        return come <= gone

    def _clear_mistake(self, settled):
        """The board agrees again: the mistake on show goes once its places have settled (a
        hand still putting it right must not see the old guidance come back too early)."""
        mistake = self.mistake
        if mistake is None:
            return
        places = list(mistake[1]) if mistake[0] == DIFFERENCE else [mistake[1]]
        for place in places:
            if not settled[place]:
                return
        self._put_right()

    def _put_right(self):
        """The mistake on show goes: the board agrees again. Counting mode tells it
        (MISTAKE_CLEARED with the place a seed went wrong into, None for a difference), so
        the players' words move on from it; activity mode tells it in touch()."""
        mistake = self.mistake
        self.mistake = None
        if self.mode == COUNTING and (self.phase == SOWING or self.phase == AWAIT):
            self.events.append((MISTAKE_CLEARED,
                                None if mistake[0] == DIFFERENCE else mistake[1]))

    def _next_boards(self):
        boards = [self._places()]
        for expected, _ in self._look(self.move, self.done):
            boards.append(expected)
        return boards

    def _target_reading(self, counts, settled):
        expected = self.target.places()
        if self._agrees(counts, settled, expected, range(self.size)) and self._vouchable(expected):
            self._target_reached()
        else:
            self._show_mistake(counts, settled, [expected], None, TO_SET)

    def _target_reached(self):
        self.mistake = None
        if self.phase == SKIP:
            self.events.append((SKIPPED, self.move))
            self.done = len(self.script)
            self._complete()
        elif self.back_to == SOWING:
            self.phase = SOWING
            self.events.append((BOARD_MATCHES,))
        else:
            self.events.append((BOARD_MATCHES,))
            self._await()

    def _show_mistake(self, counts, settled, boards, step, kind=MISTAKE):
        """Name what is wrong: one seed in the wrong pit, or else the difference from the
        nearest board the script allows. Leading the board to a target, the difference is the
        work left (`kind` TO_SET), not a mistake."""
        nearest = boards[0]
        best = None
        for board in boards:
            distance = 0
            for place in range(self.size):
                if settled[place] and not self.faults[place]:
                    distance += abs(counts[place] - board[place])
            if best is None or distance < best:
                nearest, best = board, distance
        diff = {}
        for place in range(self.size):
            if settled[place] and not self.faults[place] and counts[place] != nearest[place]:
                diff[place] = counts[place] - nearest[place]
        if not diff:
            # nothing settled and trusted disagrees: what is left is hands still at work (or a
            # sensor going quiet); the mistake on show goes once its own places have settled
            self._clear_mistake(settled)
            return
        if step is not None and step[0] == Step.DROP:
            start = boards[0]
            extra = [place for place in range(self.size)
                     if settled[place] and not self.faults[place]
                     and counts[place] != start[place]]
            if (len(extra) == 1 and extra[0] != step[1]
                    and counts[extra[0]] == start[extra[0]] + 1):
                mistake = (WRONG_PIT, extra[0], step[1])
                if mistake != self.mistake:
                    self.mistake = mistake
                    self.events.append((MISTAKE,) + mistake)
                return
        mistake = (DIFFERENCE, diff)
        if self.mistake is None or self.mistake[0] != DIFFERENCE or self.mistake[1] != diff:
            self.mistake = mistake
            self.events.append((MISTAKE, DIFFERENCE, diff) if kind == MISTAKE
                               else (TO_SET, diff))

    # --- activity mode --------------------------------------------------------------------

    def _step_place(self, step):
        """The pit a step's hand goes into (what a digital sensor sees); an Uur step has two,
        out of step[2] then into step[1], and ends with the second."""
        if step[0] == Step.UUR and not self.uur_half:
            return None
        return step[1]

    def _flag(self, pit, kind):
        self.flagged.add(pit)
        self.mistake = (kind, pit)
        self.events.append((MISTAKE, kind, pit))

    # --- the frame ------------------------------------------------------------------------

    def _render(self):
        frame = self._kept
        if frame is None:
            frame = Frame(self.size)
        else:
            frame.clear()
        game = self.game
        n = game.rules.n
        pits = 2 * n
        uur = game.uur if self.phase != SOWING else self.board.uur
        for pit in range(pits):                 # Uurs: always in their owner's colour
            owner = uur[pit]
            if owner is not None:
                frame.set(pit, PLAYER_COLOURS[owner], UUR)
        if self.phase == AWAIT:
            self._render_await(frame)
        elif self.phase == SOWING:
            self._render_step(frame)
        elif self.phase == OVER:
            scores = game.scores
            for player in (SOUTH, NORTH):
                store = pits + player
                pattern = WIN if scores[player] > scores[1 - player] else STEADY
                frame.set(store, PLAYER_COLOURS[player], pattern)
        if self.mistake is not None:
            kind = self.mistake[0]
            if kind == DIFFERENCE:
                diff = self.mistake[1]
                for place in diff:
                    if diff[place] > 0:
                        frame.set(place, TOO_MANY, MORE)
                    else:
                        frame.set(place, TOO_FEW, LESS)
            else:
                frame.set(self.mistake[1], ERROR, FLASH)
        if self.phase == SKIP or self.phase == RESTORE:
            self._render_target(frame)
        for pit in self.flagged:
            frame.set(pit, ERROR, FLASH)
        faults = self.faults
        if any(faults):                 # most frames have none: no walk over the places
            for place in range(self.size):
                if faults[place]:
                    # a step still shows what to do there, in the fault colour: do it, then
                    # confirm(); a place with nothing to do shows the fault itself
                    pattern = frame.pattern(place)
                    if pattern in (DROP, PICK, TAKE, UUR_FROM, UUR_TO, STEADY, FORCED):
                        frame.set(place, FAULT, pattern)
                    else:
                        frame.set(place, FAULT, BROKEN)
        self._frame = frame

    def _render_await(self, frame):
        game = self.game
        colour = PLAYER_COLOURS[game.to_move]
        base = self._pit_base()
        pattern = FORCED if game.rules.forced else STEADY
        for move in game.legal:            # no list made: a Pico's heap is full
            frame.set(base + move, colour, pattern)
        if self.hint is not None:           # a legal move (show_hint)
            frame.set(base + self.hint, HINT, PICK)
        n = game.rules.n
        for player in game.passes:
            for pit in range(player * n, player * n + n):
                frame.set(pit, PLAYER_COLOURS[player], PASS)

    def _render_step(self, frame):
        step = self.script[self.done]
        kind = step[0]
        colour = PLAYER_COLOURS[self.mover]
        stores = self.size - 2
        if kind == Step.DROP:
            frame.set(step[1], colour, DROP)
        elif kind == Step.PICK:
            frame.set(step[1], colour, PICK)
        elif kind == Step.CAPTURE:
            frame.set(step[1], colour, TAKE)
            frame.set(stores + self.mover, colour, STEADY)
        elif kind == Step.COLLECT:
            owner = PLAYER_COLOURS[step[3]]
            frame.set(step[1], owner, TAKE)
            frame.set(stores + step[3], owner, STEADY)
        elif kind == Step.UUR:
            if not self.uur_half:
                frame.set(step[2], colour, UUR_FROM)
            frame.set(step[1], colour, UUR_TO)

    def _render_target(self, frame):
        """Skip-ahead, takeback, resync: each place that is already right shows its owner's
        colour; the rest show the difference view (set above from the mistake)."""
        if self.mistake is None:
            frame.set(self.size - 2, PLAYER_COLOURS[SOUTH], STEADY)
            frame.set(self.size - 1, PLAYER_COLOURS[NORTH], STEADY)


def _untouched(moved, faults, counts, settled, start):
    """A look-ahead's `moved` place (one that every one of its boards changes; None when
    there is none) reads as it did (`start`), or is not yet settled, on a sensor without a
    fault: the reading is none of the look-ahead's boards."""
    return (moved is not None and not faults[moved]
            and (counts[moved] == start[moved] or not settled[moved]))


def _compact(values):
    """A list of small counts as bytes: a look-ahead of a 2 x 12 board's twelve legal moves
    holds 72 boards, which as lists of ints take 16 KB of a Pico's heap, as bytes a third of
    that; a list still when a place holds more than 255 seeds."""
    try:
        return bytes(values)
    except ValueError:
        return values
