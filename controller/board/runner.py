"""The board's main loop: hardware in, the session in the middle, LEDs and buzzer out (host-only).

    runner = Runner(io, session, layout, sensing="counting", calibration=calibration)
    while not stopped:
        runner.step()               # read the sensors and buttons, guide, show, beep

`io` is the board as the runner sees it — a `BoardIO`: the real one (`controller.drivers.pico`
for a Pi with a Pico, `controller.drivers.direct` for a Pi alone) or the simulator's
(`simulator.board_io`). Each `step()` takes the sensor frames and button presses that came in
since the last and gives them to the board loop every board drives
(`controller.session.loop.BoardLoop`: the sensing, `CountingSensor` for load cells or
`ActivitySensor` for digital pit sensors, into the session, with its engine, guide and journal;
the buttons new game, undo, hint and confirm; the sounds), then logs what happened in words an
operator can read, keeps the records and the load cells' zeros on disk, and shows the guide's
frame through the profile's LED layout.

`publish`, when given, receives the board's state for a screen beside it (the table companion,
`controller.web.companion`) after every step in which it changed: `runner.view()`, the
board's view (`controller.board.view`) with the recent events in words.

A board with no game to play yet (a tournament's table before the server gives it one) is told
to `wait`: it shows the waiting frame, still reads its sensors (a load cell's creep is followed
all along) but guides nothing, until `new_game` starts the game it is given.

The journal makes a power cut harmless: `open_session` resumes the game in the journal at the
same move and step. "New game" keeps the finished (or abandoned) game as a record file before
the journal starts afresh.
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from pathlib import Path
from typing import Callable, Protocol, Sequence

from controller.guide.frame import waiting
from controller.guide.pixels import LedLayout, render
from controller.protocol.messages import BUTTONS
from controller.rules import Game, SIDES
from controller.rules.record import write_game
from controller.sensing import Calibration, CountingSensor
from controller.sensing.activity import ActivitySensor
from controller.session import FileStorage, Session
from controller.board.view import event_words, board_view
from controller.languages import _, every_language
from controller.guide.events import MISTAKE, SENSOR_FAULT, TO_SET
from controller.session.loop import HINT, NEW_GAME, UNDO, BoardLoop, Sound
from controller.session.session import SessionError

log = logging.getLogger("layli")

# how loud the log says an event: a mistake or a fault is a warning; the seeds still to move while
# the board is led somewhere (a line a seed) are for a debugging eye only
LOG_LEVELS = {MISTAKE: logging.WARNING, SENSOR_FAULT: logging.WARNING, TO_SET: logging.DEBUG}

SAID = 12       # the recent events in words that the runner keeps for the companion page


# the buzzer's pattern (a name of controller.drivers.gpio.BEEPS) for each of the loop's sounds
BEEPS_FOR = {Sound.MOVE_DONE: "move_done", Sound.OFFER: "move_done", Sound.FAULT: "mistake",
             Sound.MISTAKE: "mistake", Sound.GAME_OVER: "game_over"}


class BoardIO(Protocol):
    """The board's hardware, as the runner uses it."""

    def read(self) -> tuple[list[tuple[int, list[int]]], list[str]]:
        """The sensor frames (t_ms, values) and the buttons pressed (names of BUTTONS) since
        the last call."""

    def show(self, frame, pixels: list[tuple[int, int, int]]) -> None:
        """Show `pixels` on the strip (`frame` is the guide's frame they came from)."""

    def beep(self, name: str) -> None:
        """Sound one of the buzzer's patterns."""

    def close(self) -> None:
        ...


def monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


class Runner:
    """One board's loop on a host (see the module text): the board's I/O around the one
    `BoardLoop` every board drives. `session_factory()` makes a new game's session when "new
    game" is pressed; `records` is the folder finished games are kept in; `players` names
    South and North in the words it logs; `publish(state)` is told the state whenever it
    changes (see the module text): it must return at once."""

    def __init__(self, io: BoardIO, session: Session, layout: LedLayout, sensing: str,
                 calibration: Calibration | None = None,
                 session_factory: Callable[[], Session] | None = None,
                 records: Path | None = None, now_ms: Callable[[], int] = monotonic_ms,
                 max_count: int | None = None, calibration_path: Path | None = None,
                 players: tuple[str, str] = SIDES,
                 publish: Callable[[dict], None] | None = None) -> None:
        sensor: CountingSensor | ActivitySensor
        if sensing == "counting":
            if calibration is None:
                raise ValueError("counting sensing needs a calibration")
            if len(calibration.tare) != layout_places(layout):
                raise ValueError("the calibration has %d channels, the board %d places" % (
                    len(calibration.tare), layout_places(layout)))
            sensor = CountingSensor(calibration, max_count=max_count)
        elif sensing == "activity":
            sensor = ActivitySensor(layout_places(layout) - 2)
        else:
            raise ValueError("sensing must be counting or activity, not %r" % (sensing,))
        self.io = io
        self.session_factory = session_factory
        self.loop = BoardLoop(session, sensor, sound=self._sound,
                              new_session=self._fresh,
                              finished=self.keep_record, hint_reasons=True)
        self.layout = layout
        self.sensing = sensing
        self.records = records
        self.now_ms = now_ms
        self.calibration_path = calibration_path
        self.events: list[tuple] = []       # everything that happened, for tests and logs
        self.players = tuple(players)
        self.said: deque[str] = deque(maxlen=SAID)      # the recent events in words
        self.said_count = 0                 # how many were ever said: a cheap mark of change
        self.publish = publish
        self._published = None
        self.waiting: str | None = None     # why there is no game to guide, in words
        _log_start(session)

    @property
    def session(self) -> Session:
        """The game at the board (the loop's: a new game comes with a new session)."""
        return self.loop.session

    @property
    def sensor(self) -> CountingSensor | ActivitySensor:
        """The board's sensing (the loop's)."""
        return self.loop.sensor

    @property
    def hint_reason(self) -> str | None:
        """Why the hint on show is a good move, in English (the log's words)."""
        reason = self.loop.hint_reason
        return None if reason is None else reason.english(self.players)

    def step(self) -> None:
        frames, presses = self.io.read()
        if self.waiting is not None:
            self._wait(frames, presses)
            return
        loop = self.loop
        for t_ms, values in frames:
            loop.feed(t_ms, values)
            self._events()
        for button in presses:
            self.press(button)
        self._events()          # any the session had from elsewhere (a resumed journal, say)
        self._show(self.session.frame)

    def wait(self, reason: str | None) -> None:
        """Wait for a game (`reason`, in words, says why there is none), or with None guide
        the session's game again (judged as the board stands now: seeds may have moved)."""
        if reason == self.waiting:
            return
        self.waiting = reason
        if reason is None:
            log.info("a game to guide: %s", self.session.game.rules.name)
            self._judge_board()
        else:
            log.info("no game here: %s", reason)

    def _wait(self, frames: list[tuple[int, list[int]]], presses: list[str]) -> None:
        for t_ms, values in frames:
            self.sensor.feed(t_ms, values)      # the cells' creep is followed all along
        for button in presses:
            log.info("button: %s: no game here, %s", _button_words(button), self.waiting)
        self._show(waiting(len(self.session.frame.places)))

    def _show(self, frame) -> None:
        self.io.show(frame, render(frame, self.layout, self.now_ms()))
        if self.publish is not None:
            self._publish()

    def _publish(self) -> None:
        # a tuple of what the state is made of, compared at every step (a frame every 10.7
        # ms), so the whole state is built and sent only when something in it changed
        session = self.session
        guide, setup = session.guide, session.setup
        mark = (self.waiting, id(session), len(session.game.moves), session.game.over, guide.phase,
                session.game.to_move, guide.hint, tuple(guide.faults), self.said_count,
                None if setup is None else (setup.phase, tuple(sorted(setup.wrong.items()))))
        if mark != self._published:
            self._published = mark
            self.publish(self.view())

    def view(self) -> dict:
        """The state a page beside the board draws (the table companion, controller.web): the
        board's view (controller.board.view.board_view: players, captured seeds, scores, whose
        turn, the moves, the hint, a match's set-up, faults), the recent events in words
        (`events`), and why the board has no game yet (`waiting`, None once it has one)."""
        state = every_language(lambda: board_view(self.session, self.players,
                                                  self.loop.hint_reason))
        waiting = self.waiting
        state.update(type="state", events=list(self.said),
                     waiting=None if waiting is None else every_language(lambda: _(waiting)))
        return state

    def press(self, button: str) -> None:
        """A button of the board (one of BUTTONS)."""
        log.info("button: %s", _button_words(button))
        number = BUTTONS.index(button)
        if number == NEW_GAME:
            self.new_game()
            return
        done = self.loop.press(number)
        if number == UNDO and not done:
            log.info("nothing to take back")
        elif number == HINT and done:
            game = self.session.game
            log.info("hint: %s pit %d, %s", self.players[game.to_move],
                     self.session.guide.hint, self.hint_reason)
        self._events()

    def new_game(self, moves: Sequence[int] = ()) -> None:
        """Keep the game as a record and start the next one in a fresh journal; with `moves`,
        a game begun on another board, which carries on from them (`Session.carry_on`: a
        RulesError for a move that is not legal there, and the new game starts afresh)."""
        if self.session_factory is None:      # (a tournament's table is given one with a game)
            log.info("new game: not available here")
            return
        try:
            self.loop.new_game(moves)
        finally:
            self.waiting = None
            _log_start(self.session)
            self._events()

    def _fresh(self) -> Session:
        """The next game's session, in a journal started afresh (the factory would resume
        the game in it otherwise)."""
        self.session.storage.clear()
        assert self.session_factory is not None        # (new_game looked)
        return self.session_factory()

    def _judge_board(self) -> None:
        """Judge the board as it stands now: the sensors report changes only."""
        self.loop.judge_board()
        self._events()

    def keep_record(self, game: Game | None = None) -> Path | None:
        """Write `game` (the one at the board) to the records folder; its path, or None."""
        if game is None:
            game = self.session.game
        if self.records is None or not game.moves:
            return None
        self.records.mkdir(parents=True, exist_ok=True)
        path = self.records / time.strftime("game-%Y%m%d-%H%M%S.pgn")
        path.write_text(write_game(game), encoding="utf-8")
        log.info("record kept: %s", path)
        return path

    def _sound(self, sound: str) -> None:
        self.io.beep(BEEPS_FOR[sound])

    def _events(self) -> None:
        for event in self.loop.react():
            self.events.append(event)
            # said in every language (pages in different ones may read it); logged in English
            text = every_language(lambda: event_words(event, self.session, self.players))
            if text:
                self.said.append(text)
                self.said_count += 1
                log.log(LOG_LEVELS.get(event[0], logging.INFO), text)
        if self.loop.calibration_due:
            self.loop.calibration_due = False
            self.save_calibration()

    def save_calibration(self) -> None:
        """Keep each load cell's zero as it is now (drift tracked in), so that a controller
        that restarts does not start from a zero hours old."""
        if self.calibration_path is None or self.sensing != "counting":
            return
        assert isinstance(self.sensor, CountingSensor)
        temporary = self.calibration_path.with_name(self.calibration_path.name + ".new")
        temporary.write_text(self.sensor.calibration_now().to_json(), encoding="utf-8")
        os.replace(temporary, self.calibration_path)       # never half a file


def _button_words(button: str) -> str:
    """`button` (one of BUTTONS) as the log says it; ValueError for any other."""
    if button not in BUTTONS:
        raise ValueError("unknown button %r: one of %s" % (button, ", ".join(BUTTONS)))
    return button.replace("_", " ")


def layout_places(layout: LedLayout) -> int:
    return len(layout.leds)


def open_session(journal: Path, variant: str, options: dict | None, mode: str,
                 match: bool = False) -> Session:
    """The game in `journal`, resumed where it was; a new game (with `match`, a new match of
    hands) when there is none, or it is over. A journal that cannot be read is kept aside,
    never overwritten."""
    storage = FileStorage(str(journal))
    if storage.lines():
        try:
            session = Session.resume(storage)
        except SessionError as error:
            aside = journal.with_name(journal.name + ".unreadable-%d" % int(time.time()))
            storage.close()
            os.replace(journal, aside)
            log.error("journal %s unreadable (%s): kept as %s; a new game starts",
                      journal, error, aside)
            storage = FileStorage(str(journal))
        else:
            over = session.match.over if session.match is not None else session.game.over
            if not over:        # a match between hands is resumed too: its set-up goes on
                log.info("resumed the game in %s at ply %d", journal, len(session.game.moves))
                return session
            storage.clear()
    return Session(storage, variant, options, mode=mode, match=match)


def _log_start(session: Session) -> None:
    game = session.game
    log.info("%s, %s sensing: %s to move", game.rules.name, session.mode,
             ("South", "North")[game.to_move])
