"""A board as a tournament table: it plays what the server assigns and reports it (host-only).

    link = TableLink("table-3", url, "table-3", password, state_dir)
    agent = TableAgent(runner, link, state_dir, match=False)
    while True:
        runner.step()
        agent.step()

The board's loop calls `step()` after each `runner.step()`. Until the server has given the
board a game, the board waits (`Runner.wait`): its LEDs say so and light no pit. When the
server's latest assignment names a game the board is not playing, the agent starts that game:
a new session of the assigned variant and options (`Runner.new_game`), the players' names on the
board's log and pages; a game the arbiter moved here from a board that failed carries on from
the moves it brings (`Session.carry_on`). The server pairs a round only when the last is over,
so an assignment of another game, or of none, while the board's own game is unfinished means
the arbiter moved that game elsewhere (or entered its result): the board drops it. Then,
at every step, it reports what changed: each move once (ply by ply, again after a takeback),
the state when it changed, and the result with the record when the game (or match) is over.

What the agent must not forget across a power cut -- which game the board's journal belongs to,
and whether its result has been handed to the link -- it keeps in ``STATE_DIR/AGENT_FILE``,
written whole or not at all; the link keeps the unacknowledged result itself.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from controller.languages import N_
from controller.rules import RulesError
from controller.rules.record import write_game, write_match
from controller.rules import place_words
from controller.board.runner import Runner, open_session
from controller.session import Session
from controller.tournament.model import DRAW, NORTH_WIN, SOUTH_WIN
from controller.tournament.table import TableLink

log = logging.getLogger(__name__)

AGENT_FILE = "tournament-game.json"
JOURNAL = "journal.jsonl"           # the board's journal, as `layli run` keeps it
WAITING = N_("waiting for the tournament to give this table a game")


def join(runner: Runner, table_id: str, url: str, password: str, state_dir: Path,
         firmware: str = "", **link_options: Any) -> tuple[TableLink, TableAgent]:
    """Make `runner`'s board tournament table `table_id`: its link to the broker at `url`
    (its username is the table id) and its agent, the games journaled in
    ``STATE_DIR/journal.jsonl``. `link_options` tune the link (TableLink's keywords)."""
    journal = Path(state_dir) / JOURNAL
    sensing = runner.sensing
    link = TableLink(table_id, url, table_id, password, state_dir, firmware=firmware,
                     **link_options)
    agent = TableAgent(runner, link, state_dir, lambda variant, options, match: open_session(
        journal, variant, options or None, sensing, match))
    return link, agent


class Link(Protocol):
    """What the agent needs of a `TableLink` (tests give a recording fake)."""

    table_id: str

    @property
    def assignment(self) -> Any: ...

    def publish_state(self, fields: dict[str, Any]) -> None: ...

    def publish_move(self, game: str, ply: int, move: int) -> None: ...

    def publish_result(self, game: str, south_points: float, south_seeds: int,
                       north_seeds: int, record: str) -> None: ...


class TableAgent:
    """Plays the assigned games on `runner`'s board and reports them over `link`.
    `new_session(variant, options, match)` makes the session of a new game, or with `match` a
    new match of hands (a fresh journal)."""

    def __init__(self, runner: Runner, link: Link, state_dir: str | os.PathLike,
                 new_session: Callable[[str, dict, bool], Session],
                 clock: Callable[[], float] = time.time) -> None:
        self.runner = runner
        self.link = link
        self.new_session = new_session
        self.clock = clock
        self.path = Path(state_dir) / AGENT_FILE
        kept = self._load()
        self.game: str | None = kept.get("game")        # the server's id of the game on the board
        self.assigned: dict[str, Any] = kept.get("assignment") or {}
        self.reported: bool = kept.get("reported", False)
        # back from a power cut, the board sends its game's moves again from the first, from
        # its journal: any the link had not delivered when the power went come, in order,
        # before its result (the server keeps those it has as copies)
        self.moves_sent = 0
        self._state_mark: tuple | None = None
        if self.game is not None:
            runner.players = tuple(self.assigned["players"])
        else:
            runner.wait(WAITING)        # from the first frame: no default game lit for anyone

    # --- the board's loop -------------------------------------------------------------------

    def step(self) -> None:
        """Start the game the server assigns (dropping one it took away); report what
        changed."""
        assignment = self.link.assignment
        if assignment is not None and assignment.fields["game"] != self.game:
            fields = assignment.fields
            if self.game is not None and not self.reported:
                # the server gave this board something else while its game was unfinished:
                # the arbiter moved that game to another table (or entered its result) while
                # this board was down, since a round is paired only when the last is over
                self._taken_away()
            if fields["game"] is not None:
                self._start(fields)
        if self.game is None:
            self.runner.wait(WAITING)
            self._report_state()
            return
        if assignment is None:
            # just powered on, the server not heard yet: its retained assignment says whether
            # the game is still this board's (the arbiter may have moved it meanwhile); the
            # players play on, and their moves are reported once it has come
            return
        game = self.runner.session.game
        moves = game.moves
        if len(moves) < self.moves_sent:        # a takeback: the plies after it come again
            self.moves_sent = len(moves)
        while self.moves_sent < len(moves):
            self.link.publish_move(self.game, self.moves_sent + 1, moves[self.moves_sent])
            self.moves_sent += 1
        self._report_state()
        if not self.reported and self._finished():
            self._report_result()

    def _start(self, fields: dict[str, Any]) -> None:
        variant, options = fields["variant"], fields["options"]
        match = fields["format"] == "hands"
        runner = self.runner
        runner.session_factory = lambda: self.new_session(variant, options, match)
        try:
            # moves: the arbiter moved the game here from a board that failed; it carries on
            # from the moves that board reported, once the seeds are set out as they stood
            runner.new_game(fields["moves"])
        except (RulesError, ValueError) as error:
            log.error("%s: game %s cannot carry on from the moves the server sent (%s): it "
                      "starts afresh; call the arbiter", self.link.table_id, fields["game"],
                      error)
        runner.players = tuple(fields["players"])
        self.game = fields["game"]
        self.assigned = dict(fields)
        self.reported = False
        self.moves_sent = len(runner.session.game.moves)        # the server has those
        self._save()
        log.info("%s: game %s, round %d board %d: %s (South) against %s (North)%s",
                 self.link.table_id, self.game, fields["round"], fields["board"],
                 *fields["players"], ", carried on from ply %d" % self.moves_sent
                 if self.moves_sent else "")

    def _taken_away(self) -> None:
        """The server took this board's game away (see `step`): the board waits for its next
        game, which keeps the record of this one (`Runner.new_game`)."""
        log.warning("%s: game %s is no longer this board's (the arbiter moved it or entered "
                    "its result): this board waits", self.link.table_id, self.game)
        self.game = None
        self.assigned = {}
        self.reported = False
        self._save()
        self.runner.wait(WAITING)

    def _finished(self) -> bool:
        session = self.runner.session
        return session.match.over if session.match is not None else session.game.over

    def _report_result(self) -> None:
        session = self.runner.session
        assigned = self.assigned
        tags = {"Event": assigned["event"], "Site": self.link.table_id,
                "Date": time.strftime("%Y.%m.%d", time.localtime(self.clock())),
                "Round": str(assigned["round"]), "South": assigned["players"][0],
                "North": assigned["players"][1]}
        if session.match is not None:
            match = session.match
            record = write_match(match, tags)
            seeds, winner = match.holdings, match.winner
        else:
            game = session.game
            record = write_game(game, tags)
            seeds, winner = game.scores, game.winner()
        points = DRAW if winner is None else SOUTH_WIN if winner == 0 else NORTH_WIN
        self.link.publish_result(self.game, points, seeds[0], seeds[1], record)
        self.reported = True
        self._save()
        log.info("%s: result of %s sent: %s %d-%d", self.link.table_id, self.game,
                 {SOUTH_WIN: "1-0", DRAW: "1/2-1/2", NORTH_WIN: "0-1"}[points], *seeds)

    def _report_state(self) -> None:
        session = self.runner.session
        game, guide = session.game, session.guide
        faults = tuple(place_words(place, game.rules.n, self.runner.players) + ": " + why
                       for place, why in enumerate(guide.faults) if why)
        if self.game is None:
            status = "idle"
        elif self._finished():
            status = "finished"
        else:
            status = "fault" if faults else "playing"
        mark = (self.game, status, len(game.moves), game.to_move, faults)
        if mark == self._state_mark:
            return
        self._state_mark = mark
        self.link.publish_state({
            "game": self.game, "status": status, "variant": game.rules.name,
            "pits": list(game.pits), "uur": list(game.uur), "captured": list(game.captured),
            "to_move": game.to_move, "ply": len(game.moves),
            "players": list(self.runner.players), "faults": list(faults)})

    # --- what survives a power cut ----------------------------------------------------------

    def _save(self) -> None:
        data = {"v": 1, "game": self.game, "assignment": self.assigned,
                "reported": self.reported}
        temporary = self.path.with_name(self.path.name + ".new")
        temporary.write_text(json.dumps(data) + "\n", encoding="utf-8")
        os.replace(temporary, self.path)        # never half a file

    def _load(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if (type(data) is not dict or data.get("v") != 1
                    or set(data) != {"v", "game", "assignment", "reported"}):
                raise ValueError("not a table agent's file")
        except (OSError, ValueError) as error:
            aside = self.path.with_name(self.path.name + ".unreadable-%d" % int(self.clock()))
            os.replace(self.path, aside)
            log.error("%s unreadable (%s): kept as %s; waiting for an assignment",
                      self.path, error, aside)
            return {}
        return data
