"""The board's loop: what every board does with its sensors and buttons, written once.

    loop = BoardLoop(session, sensor, sound=buzzer_play, new_session=make_session)
    loop.feed(t_ms, values)     # a sensor frame: through the sensing into the session
    loop.press(CONFIRM)         # a button (NEW_GAME, UNDO, HINT, CONFIRM)
    events = loop.react()       # what happened since: a sound played, the record kept
    frame = loop.session.frame  # what the LEDs show now

Every board drives this class and keeps only its own input and output: the Pi's `layli run`
(`controller.board.runner.Runner`, for every profile: a Pico bridge, GPIO pins, the
simulated board), the Pico on its own (`firmware/standalone.py`, which schedules the same
calls one job a turn of its loop), `layli sim` (`simulator.run`), the controller process the
restart tests kill (`simulator.controller_proc`), the browser's table (`simulator.ui.table`)
and the tournament demo's boards (through the Runner).

What the loop decides, so that every board behaves alike (docs/architecture.md, "The board
loop"):

- a sensor frame goes through the sensing (`CountingSensor` for load cells: the counts, the
  settled flags and the faults to `Session.update`, a place not counted yet as 0;
  `ActivitySensor` for pit sensors: each touch to `Session.touch`, its faults to
  `Session.set_faults`);
- the buttons: NEW GAME keeps the game played (`finished(game)`) and starts the next from
  `new_session()`; UNDO takes back; HINT shows the move the computer opponent at `hint_level`
  would play (and, with `hint_reasons`, why: `hint_reason`); CONFIRM accepts the offer to skip
  ahead in a long relay when one is made, else vouches for the faulty places (re-zeroing an
  adrift load cell on the count the guide expects there: `Session.confirm`);
- the events: one sound a batch, the most urgent (SOUNDS: the game's end, a mistake, a sensor
  fault, a skip offered, a move done), `calibration_due` after a completed move (the load
  cells' drift is worth keeping), and the game kept when it ends (once).

Portable core: MicroPython subset.
"""

from ..guide.events import (GAME_OVER, MATCH_OVER, MISTAKE, MOVE_DONE, SENSOR_FAULT,
                            SKIP_OFFERED, STEP_DONE)
from ..guide.guide import AWAIT, COUNTING, SOWING

# the buttons, by number: protocol.messages.BUTTONS[i] names button i
NEW_GAME, UNDO, HINT, CONFIRM = 0, 1, 2, 3

HOST_HINTS = "hint"         # a hint's level on a host: ai.hints.HINT_LEVEL (the ai is loaded
                            # at the first hint, not with this module)



class Sound:
    """The board's sounds, by name: each board plays them its own way (a Pi's buzzer
    patterns, a Pico's tunes)."""
    MOVE_DONE = "move_done"
    OFFER = "offer"             # a long relay: CONFIRM skips ahead
    FAULT = "fault"             # a sensor cannot be believed
    MISTAKE = "mistake"
    GAME_OVER = "game_over"


# the sounds, the most urgent last: a batch of events plays the most urgent of its sounds
SOUNDS = (Sound.MOVE_DONE, Sound.OFFER, Sound.FAULT, Sound.MISTAKE, Sound.GAME_OVER)
# event kind -> the urgency of its sound (an index of SOUNDS, +1: 0 is silence)
_URGENCY = {MOVE_DONE: 1, SKIP_OFFERED: 2, SENSOR_FAULT: 3, MISTAKE: 4, GAME_OVER: 5,
            MATCH_OVER: 5}

RECENT = 16                 # the events kept in `recent`
_NONE = ()


class BoardLoop:
    """The game at one board and what its sensors and buttons do to it (see the module).

    `session`: the game (`controller.session.Session`); `sensor`: a `CountingSensor`, an
    `ActivitySensor`, or None for a board whose counts are given (`update`). The outputs are
    callables, each optional: `sound(name)` plays one of SOUNDS (a `Sound`); `new_session()`
    makes the next game's session (without it NEW GAME does nothing); `finished(game)` keeps a
    game that ended or was left for a new one (a record). `compact` keeps the counts for the
    session in a bytearray when every seed in play fits a byte (a Pico's heap)."""

    def __init__(self, session, sensor=None, sound=None, new_session=None, finished=None,
                 hint_level=HOST_HINTS, hint_reasons=False, compact=False):
        self.session = session
        self.sensor = None
        self.sound = sound
        self.new_session = new_session
        self.finished = finished
        self.hint_level = hint_level
        self.hint_reasons = hint_reasons
        self.compact = compact
        self.hint_reason = None         # why the hint on show is a good move (hint_reasons):
                                        # a controller.ai.hints.Reason
        self.calibration_due = False    # a move completed: the load cells' zeros are worth
        #                                 keeping (the board clears this when it has)
        self.recent = []                # the last RECENT events, newest last
        self._kept = None               # the game last given to `finished`
        # counting: the counts kept for the session (the guide copies what it keeps);
        # activity: the faults last given to it
        self._counts = None
        self._faults = None
        self._vouched = None            # the sensing a confirm re-zeroes (counting)
        if sensor is not None:
            self.use_sensor(sensor)

    def use_sensor(self, sensor):
        """Sense with `sensor` from now on (a Pico that has just been calibrated)."""
        self.sensor = sensor
        if self.session.mode == COUNTING:
            self._vouched = sensor
            self._counts = self._counts_store()
        else:
            self._faults = list(sensor.faults)

    # --- the sensors ------------------------------------------------------------------------

    def feed(self, t_ms, values):
        """A sensor frame (`values`: each channel's raw reading, None where there is none):
        through the sensing into the session."""
        sensor = self.sensor
        if self._vouched is not None:
            if sensor.feed(t_ms, values):
                self.sensed()
            return
        session = self.session
        for pit in sensor.feed(t_ms, values):
            session.touch(pit)
        if sensor.faults != self._faults:
            self._faults = list(sensor.faults)
            session.set_faults(self._faults)

    def sensed(self, changed=None):
        """The counting sensor's counts, settled flags and faults to the session, after a
        change in the places `changed` (every place when None): a place not counted yet is
        0."""
        sensor = self.sensor
        counts = self._counts
        counted = sensor.counts
        most = 255 if self.compact and isinstance(counts, bytearray) else None
        for place in (range(len(counts)) if changed is None else changed):
            count = counted[place]
            if count is None:
                count = 0
            elif most is not None and count > most:
                count = most            # more than every seed in play: as wrong as the count
            counts[place] = count
        self.session.update(counts, sensor.settled, sensor.faults)

    def update(self, counts, settled=None, faults=None):
        """Counts given directly (a board with no sensing of its own: the browser's table)."""
        self.session.update(counts, settled, faults)

    def judge_board(self):
        """The board as the sensing sees it now, judged again (after a new game, or when a
        waiting board is given one: the sensing reports changes only). Nothing until every
        place has been counted."""
        if self._vouched is not None and None not in self.sensor.counts:
            self.sensed()

    def _counts_store(self):
        channels = len(self.sensor.counts)
        if not self.compact:
            return [0] * channels
        session = self.session
        if session.match is not None:
            seeds = session.match.seeds_accounted()
        else:
            game = session.game
            seeds = sum(game.pits) + game.captured[0] + game.captured[1]
        return bytearray(channels) if seeds <= 255 else [0] * channels

    # --- the buttons ------------------------------------------------------------------------

    def press(self, button):
        """What a press of `button` (NEW_GAME, UNDO, HINT, CONFIRM) does; True when it did
        something (False: nothing to take back, no hint now, no new game here)."""
        if button == NEW_GAME:
            return self.new_game()
        if button == UNDO:
            return self.session.takeback()
        if button == HINT:
            return self.hint()
        if button == CONFIRM:
            self.confirm()
            return True
        raise ValueError("no button %r: 0 to 3" % (button,))

    def new_game(self, moves=()):
        """Keep the game played (if any move was) and start the next from `new_session()`,
        judged on the board as it stands; False when this board makes no new games. The
        seeds of the last game are still out until the players set up: the guide leads the
        board to the start (its difference view, the work left reported as TO_SET, not as
        mistakes) and the first move waits until the board matches. With `moves`, a game
        begun on another board carries on from them (`Session.carry_on`: a RulesError for a
        move that is not legal there, after which the new game starts afresh)."""
        if self.new_session is None:
            return False
        self._keep(self.session.game)
        self.session = self.new_session()
        self.hint_reason = None
        if self._counts is not None:
            self._counts = self._counts_store()
        try:
            if moves:
                self.session.carry_on(moves)
        finally:
            if not moves or self.session.guide.phase == AWAIT:
                self.session.guide.resync()
            self.judge_board()
        return True

    def hint(self):
        """Show the move the computer opponent would play, if the player to move is about
        to lift a pit; True when a hint is on show. The search is loaded at the first hint
        (a Pico that never asks keeps its 10 KB of bytecode free); MemoryError from a heap
        too full for it."""
        session = self.session
        game = session.game
        if game.over or session.guide.phase != AWAIT:
            return False
        move = self.hint_move(game)
        if self.hint_reasons:
            from ..ai.hints import why
            self.hint_reason = why(game, move)
        session.guide.show_hint(move)
        return True

    def hint_move(self, game):
        """The move the computer opponent at `hint_level` plays in `game` (its seed the ply,
        so that the same position gets the same hint)."""
        from ..ai import Searcher
        return Searcher(self.hint_level, seed=len(game.moves) + 1).choose(game)

    def confirm(self):
        """CONFIRM: the offer to skip ahead taken when one is made (True), else the faulty
        places vouched for (see the module)."""
        session = self.session
        guide = session.guide
        if guide.skip_offered and guide.phase == SOWING and session.skip_ahead():
            return True
        session.confirm(self._vouched)
        return False

    # --- what happened ----------------------------------------------------------------------

    def react(self):
        """The session's events since the last call (an empty tuple when none), newest last:
        kept in `recent`, the most urgent sound played, `calibration_due` set after a
        completed move, a game that ended given to `finished`."""
        session = self.session
        events = session.events
        if not events:
            return _NONE
        session.events = []
        recent = self.recent
        recent.extend(events)
        if len(recent) > RECENT:
            del recent[:-RECENT]
        urgency = 0
        for event in events:
            kind = event[0]
            if kind == STEP_DONE:           # most events: no sound, nothing to note
                continue
            level = _URGENCY.get(kind, 0)
            if level > urgency:
                urgency = level
            if kind == MOVE_DONE:
                self.calibration_due = True
            elif kind == GAME_OVER:
                self._keep(session.game)
        if urgency and self.sound is not None:
            self.sound(SOUNDS[urgency - 1])
        return events

    def _keep(self, game):
        if self.finished is not None and game.moves and game is not self._kept:
            self._kept = game
            self.finished(game)
