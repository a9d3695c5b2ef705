"""A game at a board: the engine, the LED guide, and a journal that survives a power cut.

    session = Session(FileStorage("/var/lib/layli/journal"), "layli-goobalay")
    session.update(counts, settled, faults)     # each sensor frame; then session.frame shows
    ...                                         # the power goes; later:
    session = Session.resume(FileStorage("/var/lib/layli/journal"))

The journal is append-only, one JSON object a line: the game (variant, options, set-up, who
moves first), then every move started, every step accepted, every move completed, abandoned,
taken back or skipped ahead. `resume` replays it and puts the guide back at the same move and
the same step, so the players carry on where they were. The storage is synced after every
accepted step by default (a Pi); `sync="move"` syncs after each completed move only (a Pico,
whose flash wears), and a resume then goes back to the start of the move in progress — the
guide's difference view leads the board back there; its steps are not journaled (they would
be synced only with the move's own line). `one_frame=True` makes each guide draw
every LED frame into one Frame it keeps (Guide's `one_frame`: a Pico's).

With `match=True` the session plays a match in hands (docs/rules.md 2.1): when a hand ends it works
out the holdings and, unless the match is over, guides the set-up of the next hand from the
load cells (`guide.setup.HandSetup`), journaling the rows each hand starts from.

Portable core: MicroPython subset.
"""

import json

from ..rules.game import Game
from ..rules.variants import RulesError, format_value
from ..guide.guide import Guide, AWAIT, COUNTING, RESTORE, SKIP
from ..guide.events import (HAND_OVER, MATCH_OVER, MOVE_ABANDONED, MOVE_DONE, MOVE_STARTED,
                            MOVE_TAKEN_BACK, RESUMED, SKIP_AHEAD, STEP_DONE)

SYNC_STEP = "step"
SYNC_MOVE = "move"

# guide event -> journal entry
_LOGGED = (MOVE_STARTED, STEP_DONE, MOVE_DONE, MOVE_ABANDONED, MOVE_TAKEN_BACK, SKIP_AHEAD)
# the journal's word for a move's event (a dict made once: a Pico's reading that completes a
# move would otherwise find room for one in a nearly full heap)
_SHORT = {MOVE_STARTED: "start", MOVE_DONE: "move", SKIP_AHEAD: "skip"}


class SessionError(ValueError):
    """A journal that cannot be resumed; the message names the line."""


def _json_value(value):
    """An option value as JSON (text, a list of counts, true/false, a number)."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[%s]" % ", ".join([str(item) for item in value])
    return format_value(value)


class Session:
    """The game in play at a board, journaled. `events` collects the guide's events."""

    def __init__(self, storage, variant="layli-goobalay", options=None, setup=None, first=None,
                 mode=COUNTING, sync=SYNC_STEP, match=False, one_frame=False, _journal=True):
        if sync != SYNC_STEP and sync != SYNC_MOVE:
            raise ValueError("sync must be %r or %r, not %r" % (SYNC_STEP, SYNC_MOVE, sync))
        if match and mode != COUNTING:
            raise ValueError("a match's next hand is set up from the load cells: counting mode")
        self.storage = storage
        self.sync = sync
        self.mode = mode
        self.one_frame = one_frame      # each guide draws into one Frame (Guide's one_frame)
        self.match = None
        if match:
            # a match's rules and its set-up guide are loaded for a match alone: a Pico that
            # plays single games keeps their 3.5 KB of bytecode free
            from ..rules.match import Match
            self.match = Match(variant, options, setup, first)
        self.guide = self._guide(self.match.game if match else
                                 Game(variant, options, setup, first))
        self.setup = None               # a match between hands: the next hand's set-up
        self.events = []
        if _journal:
            storage.clear()
            rules = self.game.rules
            names = sorted(rules.options)
            options = ", ".join(["[%s, %s]" % (json.dumps(name), _json_value(rules.options[name]))
                                 for name in names])
            storage.append('{"e": "game", "variant": %s, "options": [%s], "setup": [%s], '
                           '"first": %d, "mode": %s, "match": %s}' % (
                               json.dumps(rules.name), options,
                               ", ".join([str(c) for c in self.game.setup]), self.game.first,
                               json.dumps(mode), "true" if match else "false"))
            storage.sync()

    # --- the board's inputs, passed to the guide and journaled ------------------------------

    def update(self, counts, settled=None, faults=None):
        """A reading of every place (see Guide.update); what to show then is `frame`. In a
        match, between hands, the reading goes to the next hand's set-up instead."""
        if self.setup is not None:
            self._setup_update(counts, settled)
            return
        self.guide.update(counts, settled, faults)
        self._log()
        if self._hand_ended():
            self._end_hand()

    def prepare(self):
        """Work ahead while nothing happens (Guide.prepare); True when it did some."""
        return self.setup is None and self.guide.prepare()

    @property
    def prepared(self):
        """False while the next move's scripts wait to be made (Guide.prepared)."""
        return self.setup is not None or self.guide.prepared

    @property
    def ready(self):
        """False while the move under way waits for the boards of its next steps
        (Guide.ready)."""
        return self.setup is not None or self.guide.ready

    def _hand_ended(self):
        """A match's hand is over and not yet closed."""
        match = self.match
        return (match is not None and self.game.over and match.holdings is None
                and not match.over)

    @property
    def frame(self):
        """What the board shows now."""
        return self.guide.frame if self.setup is None else self.setup.frame

    def _end_hand(self):
        holdings = self.match.end_hand()
        self.events.append((HAND_OVER, holdings))
        if self.match.over:
            self.events.append((MATCH_OVER, self.match.winner, self.match.end_reason))
        else:
            from ..guide.setup import HandSetup
            self.setup = HandSetup(self.match)

    def _setup_update(self, counts, settled):
        setup = self.setup
        setup.update(list(counts), settled)     # (its rows become the hand's, as lists)
        self.events.extend(setup.events)
        setup.events = []
        if setup.game is not None:
            rows = setup.rows
            self.storage.append('{"e": "hand", "rows": [[%s], [%s]]}' % (
                ", ".join([str(c) for c in rows[0]]), ", ".join([str(c) for c in rows[1]])))
            self.storage.sync()
            self._next_hand()

    def _next_hand(self):
        self.setup = None
        self.guide = self._guide(self.match.game, self.match.aside)

    def _guide(self, game, aside=None):
        return Guide(game, self.mode, aside, self.one_frame)

    @property
    def game(self):
        """The game at the board: its guide's (a new game or hand comes with a new guide)."""
        return self.guide.game

    def carry_on(self, moves):
        """Carry on a game begun on another board (a tournament's game moved here when its
        board failed): `moves` are played and journaled as moves done, and the guide leads
        the board to the position they reach (its difference view, as after a takeback).
        Only at the start of a single game; a RulesError for a move that is not legal there
        leaves the session as it was."""
        if self.match is not None or self.game.moves or self.guide.phase != AWAIT:
            raise ValueError("moves are carried on only at the start of a single game")
        game = Game(self.game.rules, None, self.game.setup, self.game.first)
        for move in moves:
            game.push(move)             # RulesError: nothing is journaled
        for move in moves:
            self.storage.append('{"e": "move", "move": %d}' % move)
        self.storage.sync()
        self.guide = self._guide(game)
        self.guide.resync()
        self._log()

    def touch(self, pit):
        frame = self.guide.touch(pit)
        self._log()
        return frame

    def takeback(self):
        done = self.guide.takeback()
        self._log()
        return done

    def skip_ahead(self):
        done = self.guide.skip_ahead()
        self._log()
        return done

    def confirm(self, sensor=None):
        """The confirm button: a person vouches for the places whose sensors are faulty (see
        Guide.confirm). Given the `CountingSensor`, each such place whose cell came back from
        a fault with its zero moved (`adrift`) is re-zeroed on the count the guide now expects
        there: the person has looked, and the cell counts again from their word. Other faults
        (saturated, dead, below empty, off scale) wait for the cell to be mended."""
        self.guide.confirm()
        # not while a target view (skip-ahead, takeback, resync) waits: what the place should
        # hold is known only once the guide has accepted the board
        if sensor is not None and self.guide.mode == COUNTING and \
                self.guide.phase not in (SKIP, RESTORE):
            expected = self.guide.board.places()
            for place in range(len(expected)):
                if sensor.adrift(place):
                    sensor.retare(place, expected[place])
        self._log()

    def resync(self):
        self.guide.resync()
        self._log()

    def set_faults(self, faults):
        """Activity mode: the pit sensors' faults (see Guide.set_faults)."""
        frame = self.guide.set_faults(faults)
        self._log()
        return frame

    def _log(self):
        events = self.guide.take_events()
        wrote = False
        synced_move = False
        for event in events:
            self.events.append(event)
            kind = event[0]
            if kind not in _LOGGED:
                continue
            if kind == STEP_DONE:
                if self.sync == SYNC_MOVE:
                    # it would reach the storage only with the line of the move that it is a
                    # step of (which says more), and a Pico's reading that accepts a step
                    # would make a string for it on a nearly full heap
                    continue
                line = '{"e": "step", "done": %d}' % event[1]
            elif kind == MOVE_TAKEN_BACK or kind == MOVE_ABANDONED:
                line = '{"e": "%s"}' % ("takeback" if kind == MOVE_TAKEN_BACK else "abandon")
            else:
                line = '{"e": "%s", "move": %d}' % (_SHORT[kind], event[1])
                synced_move = synced_move or kind == MOVE_DONE
            self.storage.append(line)
            wrote = True
        if wrote and (self.sync == SYNC_STEP or synced_move):
            self.storage.sync()

    # --- resuming -------------------------------------------------------------------------

    @staticmethod
    def resume(storage, sync=SYNC_STEP, one_frame=False):
        """The session the journal in `storage` describes, at the same move and step
        (`sync`, `one_frame`: as for a new Session)."""
        entries = _read(storage.lines())
        head = entries[0][1]
        try:
            options = {}
            for name, value in head["options"]:
                options[name] = value
            session = Session(storage, head["variant"], options, head["setup"], head["first"],
                              head.get("mode", COUNTING), sync, head.get("match", False),
                              one_frame, _journal=False)
        except (KeyError, TypeError, ValueError) as error:
            raise SessionError("journal line 1: not a game: %s" % error)
        game = session.game
        pending = None
        done = 0
        skipping = False
        for number, entry in entries[1:]:
            kind = entry.get("e")
            try:
                if kind == "start":
                    pending, done, skipping = entry["move"], 0, False
                elif kind == "step":
                    done = entry["done"]
                elif kind == "move":
                    game.push(entry["move"])
                    pending, skipping = None, False
                elif kind == "abandon":
                    pending, skipping = None, False
                elif kind == "takeback":
                    game.pop()
                elif kind == "skip":
                    skipping = True
                elif kind == "hand":
                    if session.match is None:
                        raise SessionError("a hand in the journal of a single game")
                    session.match.end_hand()
                    session.match.arrange(entry["rows"][session.match.arranger],
                                          entry["rows"][1 - session.match.arranger])
                    game = session.match.game
                    pending, skipping = None, False
                else:
                    raise SessionError("unknown entry %r" % (kind,))
            except (KeyError, IndexError, TypeError, RulesError, SessionError) as error:
                raise SessionError("journal line %d: %s" % (number, error))
        session.guide = session._guide(game,
                                       None if session.match is None else session.match.aside)
        if session._hand_ended():
            session._end_hand()         # the power went during the set-up of the next hand
        if pending is not None:
            session.guide.resume_move(pending, done)
            if skipping:
                session.guide.skip_ahead()
        session.guide.take_events()
        session.events.append((RESUMED, len(game.moves), pending, done))
        return session


def _read(lines):
    """(line number, entry) for each journal line; a torn last line is dropped."""
    entries = []
    for k in range(len(lines)):
        text = lines[k].strip()
        if not text:
            continue
        try:
            entry = json.loads(text)
            if not isinstance(entry, dict):
                raise ValueError("not an object")
        except ValueError as error:
            if k == len(lines) - 1:
                break                   # written when the power went: the step is redone
            raise SessionError("journal line %d is damaged: %s" % (k + 1, error))
        entries.append((k + 1, entry))
    if not entries or entries[0][1].get("e") != "game":
        raise SessionError("the journal does not start with a game")
    return entries
