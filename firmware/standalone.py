"""Standalone mode (pico-standalone): the whole controller on the Pico, no Pi.

The portable core runs here as it runs on a Pi: the load cells' frames go through the sensing
filter (`controller.sensing.CountingSensor`), the counts into the session (`controller.session`:
the rules engine, the LED guide and the journal), and the guide's frame through the board's LED
layout onto the strip (`controller.guide.pixels.place_colours`, leds.Strip.show_places)::

    app = Standalone(device, clock, config["game"])
    while True:
        app.step()                  # one turn of the main loop
        clock.sleep_ms(1)

The buttons: NEW GAME starts a game (the difference view then leads the set-up); UNDO takes back
the move under way or the last one; HINT lights the move that gains most at once; CONFIRM
vouches for a place whose sensor is faulty, or accepts the offer to skip ahead in a long relay.
The buzzer chirps at each completed move, buzzes at a mistake and plays a tune at the end.

Files on the Pico's flash (littlefs), beside main.py:

- `calibration.json`: the load cells' calibration (`Calibration.to_json`), made once with the
  calibration procedure (on the Pico itself when there is none: calibrate.py); rewritten after
  each completed move with the drift tracked since folded into the tares, so a Pico that
  restarts does not start from a zero hours old;
- `journal.jsonl`: the session's journal, written after each completed move (its steps wait in
  RAM: flash wears), about a second after the move's end (SCRIPTS_FIRST_MS at most, then the
  next reading; it waits for no garbage collection: UNPLANNED_MS at most in all). After a
  power cut the game resumes at the start of the move that was under way (or ended in that
  second), and the difference view leads the board back there.

A littlefs write stops the CPU for 50 to 160 ms (a 4 KB flash sector erased, then
programmed, 45 ms typical an erase in the W25Q16JV datasheet; 53 ms for the calibration, up
to 162 ms for a move's journal lines on the emulated Pico). So neither file is written while a
reading is judged: a completed move's journal lines, then the calibration, are each written
at the end of a turn of the loop, after its reading (if any) was judged, one file a turn,
with the load cells' next reads queued first (`Device.may_be_away`), as a garbage
collection is. Before them, the turns with nothing else to do work out the next position's
legal moves, their step scripts and the boards their first steps make (`Session.prepare`),
which the reading where a pit is lifted would otherwise work out for the move lifted (on a
2 x 12 Pico up to 20 ms a relay's script, 3 ms its look-ahead). The heap's look and
collection (`Device.tick`) take a turn that did nothing else as well.
"""

import os
from array import array

from controller.guide.pixels import place_colours
from controller.rules.variants import RulesError
from controller.sensing import Calibration, CountingSensor, SensingError
from controller.sensing.counting import STEADY_MS
from controller.session import FileStorage, Session, SessionError, SYNC_MOVE
from controller.session.loop import BoardLoop, Sound

from leds import led_places

try:
    from fast import counting as native_counting     # the Pico: the per-frame filter and the
    from fast import weigh as native_weigh           # judgements' numbers native
except (ImportError, SyntaxError):
    native_counting = native_weigh = None

JOURNAL = "journal.jsonl"
CALIBRATION = "calibration.json"
RENDER_MS = 40                  # the strip follows the guide's patterns 25 times a second,
RENDER_WAITS = 3                # on a turn with nothing else to do (this many busy turns later
                                # at most, then instead of a reading: the readings queued
                                # during a collection, a CPU too busy; twice as many instead
                                # of the session's update)
SCRIPTS_FIRST_MS = 1000         # a move's files wait this long at most for the next scripts,
UNPLANNED_MS = 3000             # and this long at most for the load cells' reads to be queued
FRESH_US = 25000                # back from a flash write or a collection, the guide is fed the
                                # readings of the last 25 ms (two): older ones are stale, and
                                # parsing each cost the Pico 0.7 ms in the turn after
PACED_CHANNELS = 14             # a counted place is judged again every STEADY_MS (250) on a
                                # board of up to 14 channels (2 x 6), slower on a larger one:
                                # each judgement is 1-2 ms and a kilobyte of float garbage
                                # on a Pico, whose heap (40 KB free on a 2 x 12 board) then
                                # filled faster than the loop could collect it; and one
                                # judgement a frame at most, of a new band (the counted
                                # places' wait for a turn without a reading: in a reading's
                                # turn with a step of the game, 3 to 5 ms of sensing)
UNSAVED = "calibration not saved: the Pico's memory is full (tried again after the next move)"

# the board loop's sounds as (hz, ms) notes; 0 hz is a rest
TUNES = {Sound.MOVE_DONE: ((1319, 50),), Sound.MISTAKE: ((196, 250),),
         Sound.OFFER: ((988, 50), (0, 50), (988, 50)),
         Sound.GAME_OVER: ((523, 150), (659, 150), (784, 150), (1047, 400)),
         Sound.FAULT: ((147, 500),)}
HINT_LEVEL = "pico"             # the computer opponent's level a hint comes from (bounded
                                # nodes and memory)


def counting_sensor(calibration):
    """The board's sensing: the native per-frame filter where there is one, and the counted
    places' re-judgements paced so that a large board makes no more of them a second than
    a 2 x 6 one (PACED_CHANNELS); every judgement is made in a turn of the loop of its own
    (`Standalone._judge`).

        >>> counting_sensor(Calibration([0] * 26, [1000.0] * 26)).steady_ms
        464
    """
    channels = len(calibration.tare)
    steady_ms = STEADY_MS * channels // PACED_CHANNELS
    return CountingSensor(calibration, native=native_counting, native_weigh=native_weigh,
                          judge_most=1,
                          steady_ms=steady_ms if steady_ms > STEADY_MS else STEADY_MS,
                          judge_apart=True)


class StandaloneError(ValueError):
    """Standalone mode cannot start: a missing calibration, a board that does not fit the
    game. The message says what to do."""


class Journal(FileStorage):
    """The journal's file, whose `sync()` only notes that its lines are due: the board's
    loop writes them (`write()`) at a moment of its choosing, not in the middle of judging
    a reading."""

    due = False

    def __init__(self, path):
        FileStorage.__init__(self, path, keep_open=True)    # its kilobyte while it is free

    def sync(self):
        self.due = True

    def write(self):
        self.due = False
        FileStorage.sync(self)

    def close(self):
        self.write()
        FileStorage.close(self)


def load_calibration(path, channels):
    """The calibration saved in `path` for `channels` load cells; None when there is none,
    StandaloneError when it is broken or for another board."""
    try:
        with open(path) as handle:
            text = handle.read()
    except OSError:
        return None
    try:
        calibration = Calibration.from_json(text)
    except SensingError as error:
        raise StandaloneError("%s: %s" % (path, error))
    if calibration.channels != channels:
        raise StandaloneError("%s calibrates %d load cells; this board has %d" % (
            path, calibration.channels, channels))
    return calibration


def save_text(path, text):
    """Write `path` so that a power cut leaves the old file or the new one, never half: write
    a new file, then rename it over the old (littlefs renames atomically)."""
    with open(path + ".new", "w") as handle:
        handle.write(text)
    try:
        os.rename(path + ".new", path)
    except OSError:             # a filesystem whose rename will not replace (FAT)
        os.remove(path)
        os.rename(path + ".new", path)


class Standalone:
    """The controller on the Pico (see the module). `game` is config.json's "game" entry;
    `folder` is where the journal and the calibration live ("" : the current directory)."""

    def __init__(self, device, clock, game, folder=""):
        if not device.counting:
            raise StandaloneError("standalone mode counts seeds by weight: it needs load cells "
                                  "(sensors kind hx711 or hx711-74hc165)")
        self.device = device
        device.pace_collections()       # a move's work and the judgements: a heap in bursts
        self.clock = clock
        self.settings = game
        self.journal_path = folder + JOURNAL
        self.calibration_path = folder + CALIBRATION
        channels = device.sensors.channels
        if hasattr(device.sensors, "keep_us"):
            device.sensors.keep_us = FRESH_US
        self.storage = Journal(self.journal_path)
        self._waiting_since = None      # since when a file waits to be written (ms)
        self.frames = 0
        self.sensing_errors = 0
        self.problem = None
        session = self._resume()
        if session is None:
            session = self._new_session()
        else:
            self._resolved(session)
        # the game, the buttons and the sounds: the board loop every board drives (its
        # `recent` events, newest last, are for a person at a REPL); what is the Pico's own
        # here is when each of its calls is made
        self.loop = BoardLoop(session, sound=self._play, new_session=self._new_session,
                              hint_level=HINT_LEVEL, compact=True)
        places = session.guide.size
        if places != channels:
            raise StandaloneError("%s has %d places (pits and stores); the board has %d load "
                                  "cells" % (game["variant"], places, channels))
        if len(game["layout"]) != places:
            raise StandaloneError("game.layout lights %d places; %s has %d" % (
                len(game["layout"]), game["variant"], places))
        try:
            self.layout = device.led_layout(game)
        except ValueError as error:
            raise StandaloneError("game.layout: %s" % error)
        self._led_place = led_places(self.layout.leds, device.strip.count)
        self.calibrating = None
        calibration = load_calibration(self.calibration_path, channels)
        if calibration is None:             # a new board: calibrate it here
            from calibrate import Calibrating
            self.calibrating = Calibrating(channels, session.game.setup)
        else:
            # its counts for the session are kept by the loop (the guide copies what it
            # keeps: a list of 26 was a few of a nearly full heap's slowest allocations a
            # changed reading), as bytes where no place can hold more than 255 seeds
            # (compact): the guide compares them with its boards in one go
            self.loop.use_sensor(counting_sensor(calibration))
        self._values = array("i", [0] * channels)     # each reading, taken without a list
        self._colours = bytearray(3 * channels)     # each LED frame's colours, a place's 3
        self._render_at = 0
        self._render_waits = 0          # turns the LEDs have waited for, being due
        self._changed = None            # the places a reading changed, for the session
        self._held = -1                 # a reading taken, to sense next turn: its trusted cells

    # --- games ----------------------------------------------------------------------------

    @property
    def session(self):
        """The game at the board (the loop's)."""
        return self.loop.session

    @property
    def sensor(self):
        """The load cells' sensing (None while the board is being calibrated)."""
        return self.loop.sensor

    def new_game(self):
        """A new game (or match) as config.json's "game" says; the journal starts afresh."""
        self.loop.new_game()

    def _new_session(self):
        game = self.settings
        try:
            session = Session(self.storage, game["variant"], game["options"],
                              sync=SYNC_MOVE, match=game["match"], one_frame=True)
        except RulesError as error:
            raise StandaloneError("game: %s" % error)
        self._resolved(session)
        return session

    def _resolved(self, session):
        """The game's legal moves worked out now, before the loop's first turns: the first
        LED frame would otherwise work them out (a relay from every pit: 8 ms on a 2 x 12
        Pico) in a turn with the first reading."""
        session.game.legal_moves()

    def _resume(self):
        """The game in the journal, if there is one this board can carry on."""
        if not self.storage.lines():
            return None
        try:
            session = Session.resume(self.storage, SYNC_MOVE, one_frame=True)
        except (SessionError, RulesError, ValueError) as error:
            self.problem = "journal not resumed: %s" % error
            return None
        if session.game.rules.name != self.settings["variant"] or (
                session.guide.size != self.device.sensors.channels):
            self.problem = "journal of another game (%s): a new game" % session.game.rules.name
            return None
        return session

    # --- the main loop ----------------------------------------------------------------------

    def step(self):
        """One turn of the main loop: one job (a reading of the cells if one is ready, what
        the last one changed to the session, the boards of a move's next steps, or the LEDs,
        25 frames a second), the buttons, the buzzer, the watchdog."""
        device = self.device
        loop = self.loop
        session = loop.session
        now = self.clock.ticks_ms()
        # one job a turn, each a few milliseconds at most, the next reading waiting in the
        # ring meanwhile (a millisecond or two): a reading through the sensing (its parse
        # and the filter; back from a long turn, the parse of the readings of meanwhile
        # alone, the first one's sensing in the next turn: _take); or a new band's
        # judgement that reading made due (1 to 3 ms); or
        # what they changed to the session (a step of the game's, 3 to 5 ms: a move's end,
        # a capture; in one turn they were most of a frame's 10.7 ms on a 2 x 12 board); or,
        # after a step, the boards of the move's next steps, which the next step's reading
        # would otherwise work out in its turn (Session.ready), or after a move a piece of
        # the next position's scripts and look-ahead (_prepare_due); or the LEDs, every
        # RENDER_MS (the guide's frame drawn, the strip: 3 to 6 ms), on a turn with nothing
        # else to do, or after RENDER_WAITS turns of waiting for one (a CPU behind, taking
        # the readings queued while it was away) instead of the reading or, after twice as
        # many, the session's work
        due = now >= self._render_at
        waits = self._render_waits
        overdue = due and waits >= RENDER_WAITS
        updated = fed = False
        if self.calibrating is None:
            sensor = loop.sensor
            if not (overdue and waits >= 2 * RENDER_WAITS):
                if sensor.judge_due:
                    self._judge()
                    updated = True
                elif self._changed is not None:
                    self._update()
                    updated = True
                elif not session.ready or self._prepare_due():
                    # (a piece that finds nothing to do leaves the turn to the reading)
                    updated = session.prepare()
            if not updated and not overdue:
                fed = self._take(now)
        elif not overdue:
            frame = device.sensors.read()
            fed = frame is not None
            if fed:
                self.frames += 1
                self.calibrating.feed(frame)
        for button, pressed, _ in device.buttons.poll():
            if pressed:
                self.press(button)
        if self.calibrating is None:
            loop.react()
            session = loop.session          # (a NEW GAME press makes a new one)
        else:
            self._calibrated()
        rendered = due and not fed and not updated
        if due and not rendered:
            self._render_waits += 1
        if rendered:
            self._render_waits = 0
            self._render_at = now + RENDER_MS
            if self.calibrating is not None:
                shown = self.calibrating.frame()
            else:
                shown = session.frame
            # the patterns' phase at the moment of drawing, not at the step's start: the
            # sensing and the guide may have taken tens of ms since (a relay's pick, a move's
            # start), and a blink drawn that late is a different blink to the players
            device.strip.show_places(
                place_colours(shown, self.layout, self.clock.ticks_ms(), self._colours),
                self._led_place)
        # what waits for a turn with nothing else: the work ahead, a counted place judged
        # again (about 2 ms), the heap's look (8 ms) and collection (30 ms), one a turn
        spare = not fed and not updated and not rendered
        if self.calibrating is None:
            if self._work_ahead(now, spare):
                spare = False
            elif spare and loop.sensor.rejudge_due and not device.heap_due:
                self._judge()
                spare = False
        device.tick(spare)

    def _work_ahead(self, now, idle):
        """What waits for a moment of its own, one thing a turn: on an `idle` turn (no
        reading came in, no LEDs drawn) the next position's legal moves, then their scripts
        and the boards their first steps make, one a turn (a few ms each: ready before the
        players can have lifted the next pit and the reading settled); once they are all
        made (`Session.prepared`), a completed move's journal lines, then the calibration,
        then, on idle turns again, the rest of the guide's work ahead. The files are
        each written when the CPU may be away (see the module: the readings that wait
        meanwhile keep the next turns busy, and the scripts would not be made in time). A
        CPU too busy for idle turns does not keep the files waiting more than
        SCRIPTS_FIRST_MS, nor one too late for the reads to be queued more than UNPLANNED_MS
        (a game kept is worth a few untrusted readings). True when it did something."""
        loop = self.loop
        session = loop.session
        storage = self.storage
        waiting = storage.due or loop.calibration_due
        if not waiting:
            self._waiting_since = None
            return idle and not self.device.heap_due and session.prepare()
        if self._waiting_since is None:
            self._waiting_since = now
        if idle and self._prepare_due() and session.prepare():
            return True
        waited = now - self._waiting_since
        if not session.prepared and waited < SCRIPTS_FIRST_MS:
            return False
        # before the calibration, a collection found due goes first (Device.tick, after
        # this): a file opened on a full heap fails for want of its kilobyte in one piece.
        # Not before the journal, which is kept open and written line by line: a collection
        # can wait seconds for its moment, and a move heard done must not (a power cut then
        # would take it back)
        if not storage.due and self.device.collect_due and waited < UNPLANNED_MS:
            return False
        if not (self.device.may_be_away() or waited >= UNPLANNED_MS):
            return False
        if storage.due:
            storage.write()
        else:
            loop.calibration_due = False
            try:
                save_text(self.calibration_path, loop.sensor.calibration_now().to_json())
            except MemoryError:
                # opening a file takes a kilobyte in one piece, which a full heap may not
                # have: the old calibration stays, the next move's end tries again
                self.problem = UNSAVED
            else:
                if self.problem == UNSAVED:
                    self.problem = None
        self._waiting_since = now       # the next file waits from now
        return True

    def _prepare_due(self):
        """True while the next move's scripts and look-ahead wait to be made (a turn of their
        own each, before the next reading: a player can lift a pit a second after a move's
        end, and on a 2 x 12 Pico they are some 85 ms of pieces), unless the heap's look or
        collection is due: the pieces leave a kilobyte or two each on a heap 30 KB from
        full, so it goes first, on the next turn with nothing else."""
        return not self.loop.session.prepared and not self.device.heap_due

    def _take(self, now):
        """The next reading, if one is ready, through the sensing; True when one was taken.
        Back from a turn longer than FRESH_US (a script made ahead, a collection, a file),
        the take parses the readings of the last FRESH_US, two or three (3 to 4.6 ms on a
        2 x 12 Pico, as long as the sensing of one): the first is sensed in the next turn,
        not in this one."""
        held = self._held
        if held >= 0:
            self._held = -1
        else:
            sensors = self.device.sensors
            passed = sensors.passed_over
            held = sensors.take(self._values)
            if held < 0:
                return False
            if sensors.passed_over != passed:
                self._held = held
                return True
        self.frames += 1
        self._sense(now, held)
        return True

    def _sense(self, now, trusted):
        """The reading in self._values (`trusted`: the bitmask of the cells to believe)
        through the sensing; the places whose count, settled flag or fault changed wait for
        `_update` (see step)."""
        try:
            changed = self.loop.sensor.feed_values(now, self._values, trusted)
        except SensingError as error:       # a frame the converters should never give
            self.sensing_errors += 1
            self.problem = str(error)
            return
        if changed:
            self._note(changed)

    def _note(self, changed):
        """Keep the places in `changed` for the next `_update`, with those already kept."""
        waiting = self._changed
        if waiting is None:
            self._changed = changed
            return
        for place in changed:           # (a re-judgement's, with a reading's waiting)
            if place not in waiting:
                waiting.append(place)

    def _update(self):
        """The sensing's counts, settled flags and faults to the session, after a change in
        the places noted (`BoardLoop.sensed`: the counts kept are copied from the sensing's
        there alone, a place's count changing only with a change the sensing reports)."""
        changed = self._changed
        if changed is None:
            return
        self._changed = None
        self.loop.sensed(changed)

    def _judge(self):
        """The sensing's judgements that are due (it leaves them to a turn of their own:
        `counting_sensor`): a new band's, in the turn after its reading, or a counted place's
        again, on an idle turn. What they changed waits for `_update`, the next turn."""
        changed = self.loop.sensor.judge()
        if changed:
            self._note(changed)

    def press(self, button):
        """What a press of `button` (0 new game, 1 undo, 2 hint, 3 confirm: BoardLoop.press)
        does."""
        if self.calibrating is not None:
            self.calibrating.press(button)
            return
        self._update()                  # the last reading first: a press answers the board
        try:                            # as it is
            self.loop.press(button)
        except MemoryError:             # the heap too full to load or run the hint's search
            self.problem = "no hint: the Pico's memory is full"
            self._play(Sound.MISTAKE)

    def _play(self, sound):
        buzzer = self.device.buzzer
        if buzzer is not None:
            buzzer.play(TUNES[sound])

    def _calibrated(self):
        """Sounds for the calibration's steps; at its end, the calibration saved and the
        game on (its difference view leads the set-up from the board as it is)."""
        calibrating = self.calibrating
        events, calibrating.events = calibrating.events, []
        buzzer = self.device.buzzer
        for event in events:
            if buzzer is not None:
                buzzer.play(TUNES[Sound.MOVE_DONE if event[0] == "accepted" else Sound.MISTAKE])
            if event[0] == "refused":
                self.problem = calibrating.problem
        if calibrating.calibration is not None:
            save_text(self.calibration_path, calibrating.calibration.to_json())
            self.loop.use_sensor(counting_sensor(calibrating.calibration))
            self.calibrating = None
            self.problem = None
            self.new_game()

    def run(self):
        """Standalone mode for ever: the watchdog, then a step every millisecond or so."""
        self.device.start_watchdog()
        while True:
            self.step()
            self.clock.sleep_ms(1)
