"""The tournament's live pages and the arbiter's pages (host-only).

    app = create_app(server, arbiters={"Hodan": "a long password"})
    url, instance, thread = controller.web.start_in_thread(app, 8080, "0.0.0.0")

For everyone:

- ``GET /``: the live page: the event, the pairings of every round (the current one first),
  the standings with the event's tie-breaks, and a card for every table with its status and a
  small live board. ``GET /table/<id>``: one table's board, big.
- ``WS /ws``: the server's live feed (`TournamentServer.live`). On connecting a page gets the
  latest "event", "pairings", "standings" and every "table/<id>" message, then each one again
  whenever it changes: the pages never poll.
- ``GET /api/live`` (`server.snapshot()`), ``GET /export.json``, ``GET /export.csv``,
  ``GET /records.pgn`` (every game record, round by round, board by board; a corrected
  game's record carries the arbiter's result in tags: see `with_correction`; a game whose
  board failed has a record without moves: see `failed_board_record`).

For the arbiters (HTTP Basic authentication against `arbiters`; with none the pages are off):

- ``GET /arbiter``: the page; ``GET /arbiter/state[?round=N]``: what it shows, as JSON (the
  games of round N, by default the latest, the results held, the rejected messages, what the
  broker refused and the corrections log).
- ``POST /arbiter/confirm`` ``{"game"}``, ``POST /arbiter/accept`` ``{"game"}`` (a result held
  because its record parts from the moves its board reported live: recorded as sent, and
  confirmed), ``POST /arbiter/correct`` ``{"game",
  "south_points", "south_seeds", "north_seeds", "reason"}``, ``POST /arbiter/pair``
  ``{"round"}`` (the number of the round to pair: a second click, or a second arbiter, cannot
  pair two rounds), ``POST /arbiter/move`` ``{"game", "table", "reason"}`` (a game whose
  board failed goes on at a spare table, from the moves its board reported: see
  `TournamentServer.move_game`), ``POST /arbiter/retire`` ``{"table", "reason"}`` and
  ``POST /arbiter/return`` ``{"table"}`` (a broken table is paired no more, until it is
  back). Correcting a game that has no result enters it (its board failed).
  Each takes a JSON object with exactly those keys and answers 200 with the new state, or
  400 with ``{"error": "..."}`` naming what was wrong, having changed nothing.
  The arbiter's name (the Basic user name) goes into the store with the action.

The requests must say ``Content-Type: application/json``: a form on another site can send
only the simple types without asking first, so it cannot act in an arbiter's name with the
credentials the browser keeps for this one.

Everything that reads or writes the store runs in Starlette's thread pool, so a slow disk
never holds up the WebSocket feed.

The pages speak their reader's language (docs/translations.md): live.html, table.html and
arbiter.html are Jinja2 templates (controller.web.pages), each request and the WebSocket run in
the language `LanguageMiddleware` picks, and so do the refusals (the ``error``) this module
words. What the exports, the records and the store hold is not translated.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import re
import threading
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from controller.languages import N_, _, ngettext
from controller.rules import Game
from controller.rules.record import quote as quoted      # PGN's escaping of a tag value
from controller.rules.record import write_game
from controller.tournament.model import POINTS, Result
from controller.tournament.server import TournamentServer
from controller.tournament.exports import export_csv as csv_of, export_json as json_of
from controller.tournament.exports import result_json, retirement_json   # as the exports write
from controller.tournament.rows import (Correction, Event, GameRow, Held, StoreError,
                                         result_text)
from controller.web.companion import STATIC as SHARED_STATIC
from controller.web.pages import SHARED as PAGES_SHARED
from controller.web.pages import Pages, page_middleware

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
STYLE = SHARED_STATIC / "style.css"         # the look every page of the project shares
PLACES = SHARED_STATIC / "places.js"        # where a board's places are drawn, on every page
WORDS = PAGES_SHARED / "words.js"           # the page scripts' words in the reader's language
PAGES = Pages(STATIC)                       # live.html, table.html, arbiter.html: templates

REALM = "layli arbiter"
MAX_BODY = 64 * 1024        # bytes: an arbiter's request is a few hundred
MAX_REASON = 500            # characters of a correction's reason
REJECTED_SHOWN = 100        # the newest rejected messages on the arbiter's page

OFF = N_("the arbiter's pages are off: this server was started without arbiters. Give it at "
         "least one arbiter's name and password (create_app(server, arbiters={name: password})) "
         "to turn them on.")


class RequestError(ValueError):
    """An arbiter's request refused as it stands; the message says what was wrong."""


# --- reading an arbiter's request -------------------------------------------------------------

Check = Callable[[Any, str], Any]


def held_json(held: list[Held]) -> list[dict[str, Any]]:
    """The results held, as the arbiter's page shows them: `newest`, whether it is the latest
    held for its game (the one "accept" records)."""
    newest = {item.game_id: index for index, item in enumerate(held)}
    return [{"game": item.game_id, "table": item.table, "result": result_json(item.result),
             "live": list(item.live), "recorded": list(item.recorded), "ply": item.ply,
             "reason": item.reason, "copies": item.copies, "at": item.at,
             "decision": item.decision, "arbiter": item.arbiter,
             "decided_at": item.decided_at, "newest": newest[item.game_id] == index}
            for index, item in enumerate(held)]


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _game(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise RequestError(_("%(key)s must be a game id such as \"event/r1/b1\", not %(value)s")
                           % {"key": repr(key), "value": _shown(value)})
    return value


def _points(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value not in POINTS:
        raise RequestError(_("%(key)s (South's points) must be 1, 0.5 or 0, not %(value)s")
                           % {"key": repr(key), "value": _shown(value)})
    return float(value)


def _seeds(value: Any, key: str) -> int:
    if type(value) is not int or value < 0:
        raise RequestError(_("%(key)s must be a whole number of seeds >= 0, not %(value)s")
                           % {"key": repr(key), "value": _shown(value)})
    return value


def _reason(value: Any, key: str,
            empty: str = N_("%(key)s must say why the result is corrected, not %(value)s")
            ) -> str:
    """A reason the arbiter gave; `empty` (marked, translated here) says what a missing one
    should have said."""
    if not isinstance(value, str) or not value.strip():
        raise RequestError(_(empty) % {"key": repr(key), "value": _shown(value)})
    if len(value) > MAX_REASON:
        raise RequestError(_("%(key)s is %(length)d characters long, more than %(most)d")
                           % {"key": repr(key), "length": len(value), "most": MAX_REASON})
    if any(ord(char) < 32 and char not in "\t\n" for char in value):
        raise RequestError(_("%(key)s has a control character") % {"key": repr(key)})
    return value.strip()


def _move_reason(value: Any, key: str) -> str:
    return _reason(value, key, N_("%(key)s must say why the game moves, not %(value)s"))


def _retire_reason(value: Any, key: str) -> str:
    return _reason(value, key, N_("%(key)s must say why the table is retired, not %(value)s"))


def _table(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise RequestError(_("%(key)s must be a table id such as \"table-3\", not %(value)s")
                           % {"key": repr(key), "value": _shown(value)})
    return value


def _round(value: Any, key: str) -> int:
    if type(value) is not int or value < 1:
        raise RequestError(_("%(key)s must be the number of the round to pair (1, 2, ...), "
                             "not %(value)s") % {"key": repr(key), "value": _shown(value)})
    return value


CONFIRM: dict[str, Check] = {"game": _game}
ACCEPT: dict[str, Check] = {"game": _game}
CORRECT: dict[str, Check] = {"game": _game, "south_points": _points, "south_seeds": _seeds,
                             "north_seeds": _seeds, "reason": _reason}
PAIR: dict[str, Check] = {"round": _round}
MOVE: dict[str, Check] = {"game": _game, "table": _table, "reason": _move_reason}
RETIRE: dict[str, Check] = {"table": _table, "reason": _retire_reason}
RETURN: dict[str, Check] = {"table": _table}


def read_body(body: bytes, content_type: str | None, keys: dict[str, Check]) -> dict[str, Any]:
    """The checked fields of an arbiter's request: a JSON object with exactly `keys`, each
    passing its check; RequestError names the first thing wrong."""
    if not content_type:
        raise RequestError(_("the request's Content-Type must be application/json, not missing"))
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise RequestError(_("the request's Content-Type must be application/json, not %(type)s")
                           % {"type": content_type})
    if len(body) > MAX_BODY:
        raise RequestError(_("the request is more than %(most)d bytes") % {"most": MAX_BODY})
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise RequestError(_("the request is not JSON: %(error)s") % {"error": error}) from None
    if not isinstance(data, dict):
        raise RequestError(_("the request must be a JSON object with %(keys)s, not %(value)s")
                           % {"keys": ", ".join(keys), "value": _shown(data)})
    unknown = [key for key in data if key not in keys]
    missing = [key for key in keys if key not in data]
    values = {"unknown": ", ".join(_shown(key) for key in unknown),
              "missing": ", ".join(_shown(key) for key in missing), "keys": ", ".join(keys)}
    if unknown and missing:
        raise RequestError(ngettext(
            "unknown key %(unknown)s; missing %(missing)s (the request takes exactly %(keys)s)",
            "unknown keys %(unknown)s; missing %(missing)s (the request takes exactly %(keys)s)",
            len(unknown)) % values)
    if unknown:
        raise RequestError(ngettext(
            "unknown key %(unknown)s (the request takes exactly %(keys)s)",
            "unknown keys %(unknown)s (the request takes exactly %(keys)s)",
            len(unknown)) % values)
    if missing:
        raise RequestError(_("missing %(missing)s (the request takes exactly %(keys)s)")
                           % values)
    return {key: check(data[key], key) for key, check in keys.items()}


async def _body(request: Request) -> bytes:
    """The request's body, read no further than a byte past MAX_BODY (which read_body
    refuses): a client cannot make the server hold more."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            break
    return body


# --- who is asking ----------------------------------------------------------------------------

def check_arbiters(arbiters: dict[str, str] | None) -> dict[str, str]:
    """The arbiters' names and passwords, checked: each name is text without a colon (Basic
    authentication splits there), control characters or spaces at its ends; each password is
    non-empty text. ValueError names the first problem."""
    if arbiters is None:
        return {}
    if not isinstance(arbiters, dict):
        raise ValueError("the arbiters must map names to passwords, not %r" % (arbiters,))
    for name, password in arbiters.items():
        if not isinstance(name, str) or not name or name != name.strip() or ":" in name or \
                any(ord(char) < 32 or ord(char) == 127 for char in name):
            raise ValueError("an arbiter's name must be text without a colon, control "
                             "characters or spaces at its ends, not %r" % (name,))
        if not isinstance(password, str) or not password:
            raise ValueError("arbiter %s's password must be non-empty text" % name)
    return dict(arbiters)


def basic_user(header: str | None, arbiters: dict[str, str]) -> str | None:
    """The arbiter an Authorization header proves to be, or None. Every name and password is
    compared, in constant time, so the answer's timing tells nothing about either."""
    if not header or not header[:6].lower() == "basic ":
        return None
    try:
        user, _, password = base64.b64decode(header[6:].strip(), validate=True).decode(
            "utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    found = None
    for name, secret in arbiters.items():
        same_name = hmac.compare_digest(name.encode("utf-8"), user.encode("utf-8"))
        same_password = hmac.compare_digest(secret.encode("utf-8"), password.encode("utf-8"))
        if same_name and same_password:
            found = name
    return found


class LoginGuard:
    """Wrong arbiter passwords, counted by the address they come from: after `free` in a row
    each further one locks that address out for a growing time (1 s, doubling, at most
    `longest`), in which its logins are refused unchecked; each is logged. A right password
    clears the count. At most `remembered` addresses are kept (the oldest forgotten)."""

    def __init__(self, free: int = 3, longest: float = 300.0, remembered: int = 1024,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free = free
        self.longest = longest
        self.remembered = remembered
        self.clock = clock
        self.failures: dict[str, tuple[int, float]] = {}    # address: (in a row, locked until)
        self._lock = threading.Lock()

    def wait(self, address: str) -> float:
        """Seconds until `address` may try again (0: now)."""
        with self._lock:
            count, until = self.failures.get(address, (0, 0.0))
        return max(0.0, until - self.clock())

    def failed(self, address: str) -> None:
        with self._lock:
            count, _until = self.failures.pop(address, (0, 0.0))
            count += 1
            locked = 0.0 if count <= self.free else min(2.0 ** (count - self.free - 1),
                                                        self.longest)
            self.failures[address] = (count, self.clock() + locked)
            while len(self.failures) > self.remembered:
                self.failures.pop(next(iter(self.failures)))
        log.warning("arbiter login refused from %s: a wrong name or password (%d in a row%s)",
                    address, count, "; locked out for %g s" % locked if locked else "")

    def succeeded(self, address: str) -> None:
        with self._lock:
            self.failures.pop(address, None)


# --- what the arbiter sees --------------------------------------------------------------------

def arbiter_state(server: TournamentServer, arbiter: str, round: int | None = None
                  ) -> dict[str, Any]:
    """What the arbiter's page shows: the games of `round` (the latest by default) with their
    results, whether the next round can be paired, the newest rejected messages, what the
    broker refused, every correction, the tables (retired or in play), the spare ones and
    every game moved to one."""
    store = server.store
    event = store.event()
    latest = store.last_round()
    shown = latest if round is None else round
    if round is not None and not 1 <= round <= latest:
        if not latest:
            refusal = _("round %(round)d is not paired (rounds paired: none yet)")
        elif latest == 1:
            refusal = _("round %(round)d is not paired (rounds paired: 1)")
        else:
            refusal = _("round %(round)d is not paired (rounds paired: 1 to %(latest)d)")
        raise RequestError(refusal % {"round": round, "latest": latest})
    names = {player.number: player.name for player in store.players()}
    retired = store.retired()
    games = [{
        "game": row.id, "board": row.pairing.board, "table": row.table,
        "south": names[row.pairing.south],
        "north": None if row.pairing.is_bye else names[row.pairing.north],
        "bye": row.pairing.is_bye, "status": row.status, "result": result_json(row.result),
        "source": row.source, "confirmed_by": row.confirmed_by, "duplicates": row.duplicates,
    } for row in (store.games(shown) if shown else [])]
    complete = server.round_complete()
    return {
        "type": "arbiter", "arbiter": arbiter, "event": event.name, "variant": event.variant,
        "rounds": event.rounds, "latest_round": latest, "round": shown, "games": games,
        "round_complete": complete, "next_round": latest + 1 if latest < event.rounds else None,
        "can_pair": complete and latest < event.rounds,
        "rejected_counts": store.rejected_counts(),
        "rejected": [{"at": item.at, "topic": item.topic, "reason": item.reason,
                      "detail": item.detail, "payload": item.payload, "table": item.table,
                      "count": item.count, "first_at": item.first_at}
                     for item in store.rejected(REJECTED_SHOWN)],
        "held": held_json(store.held()),
        "refused_counts": server.refusals.counts(),
        "refused": server.refusals.rows(),
        "corrections": [{"game": item.game_id, "old": result_json(item.old),
                         "new": result_json(item.new), "arbiter": item.arbiter,
                         "reason": item.reason, "at": item.at}
                        for item in store.corrections()],
        "spare_tables": spare_tables(server),
        "tables": [{"table": row.id, "status": row.status,
                    "retired": retirement_json(retired.get(row.id))} for row in store.tables()],
        "relocations": [{"game": item.game_id, "from": item.from_table, "to": item.to_table,
                         "ply": item.ply, "arbiter": item.arbiter, "reason": item.reason,
                         "at": item.at} for item in store.relocations()],
    }


def spare_tables(server: TournamentServer) -> list[str]:
    """The tables in play with no game in the latest round, in order: where a game whose
    board failed can move (see TournamentServer.move_game)."""
    store = server.store
    busy = {row.table for row in store.games(store.last_round())} if store.last_round() else set()
    retired = store.retired()
    return [row.id for row in store.tables() if row.id not in busy and row.id not in retired]


# --- exports ----------------------------------------------------------------------------------

def records_text(server: TournamentServer) -> str:
    """Every game record of the event, in round and board order, separated by blank lines; a
    game the arbiter corrected carries the arbiter's result (`with_correction`), and a game
    whose board failed, whose result the arbiter entered, has a record of its own
    (`failed_board_record`)."""
    store = server.store
    latest = {item.game_id: item for item in store.corrections()}     # oldest first
    names: dict[int, str] | None = None
    records = []
    for row in store.games():
        correction = latest.get(row.id)
        text = row.record
        if not text and row.table is not None and correction is not None:
            if names is None:
                names = {player.number: player.name for player in store.players()}
            text = failed_board_record(store.event(), row, correction,
                                       (names[row.pairing.south], names[row.pairing.north]))
        if text:
            records.append(with_correction(text, correction).strip("\n"))
    return "\n\n".join(records) + "\n" if records else ""


def failed_board_record(event: Event, row: GameRow, correction: Correction,
                        players: tuple[str, str]) -> str:
    """The record of a game whose board failed, so that the event's records list every game
    played: its tags as its table would have written them (`players`: South's and North's
    names; the date is the arbiter's), no moves, and Result "*" (the board never reported an
    end); `with_correction` adds the arbiter's result."""
    tags = {"Event": row.id.rsplit("/", 2)[0], "Site": row.table,
            "Date": time.strftime("%Y.%m.%d", time.localtime(correction.at)),
            "Round": str(row.pairing.round), "South": players[0], "North": players[1]}
    return write_game(Game(event.variant, event.options or None), tags)


def with_correction(record: str, correction: Correction | None) -> str:
    """`record` with the arbiter's last correction in tags at the end of its first tag section:
    ArbiterResult ("1-0", "1/2-1/2", "0-1"), ArbiterScore (seeds, South first), Arbiter and
    ArbiterReason. The board's own Result and Score stay: they are what its moves reach, and
    a record is read back by replaying them. Without a correction, `record` unchanged."""
    if correction is None:
        return record
    new = correction.new
    tags = (("ArbiterResult", result_text(new)),
            ("ArbiterScore", "%d-%d" % (new.south_seeds, new.north_seeds)),
            ("Arbiter", correction.arbiter), ("ArbiterReason", correction.reason))
    added = ["[%s %s]" % (name, quoted(_one_line(value))) for name, value in tags]
    lines = record.split("\n")
    end = 0
    while end < len(lines) and lines[end].startswith("["):
        end += 1
    if end == 0:                # movetext only: the tags make its section, then a blank line
        added.append("")
    return "\n".join(lines[:end] + added + lines[end:])


def _one_line(value: str) -> str:
    """`value` with its control characters (a reason's line breaks) as spaces: a PGN tag value
    holds none."""
    return "".join(" " if ord(char) < 32 or ord(char) == 127 else char for char in value)


def _download(name: str, suffix: str) -> str:
    """A Content-Disposition that saves the export under the event's name (ASCII for old
    browsers, the name itself for the others)."""
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "event"
    return "attachment; filename=\"%s%s\"; filename*=UTF-8''%s" % (
        plain, suffix, quote(name + suffix, safe=""))


# --- the app ----------------------------------------------------------------------------------

def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers=headers or None)


class LivePages:
    """What anyone at the event may see: the live page, a table's page, the live feed and
    state, and the exports (JSON, CSV, the game records)."""

    def __init__(self, server: TournamentServer) -> None:
        self.server = server
        self.store = server.store

    async def live_page(self, request: Request) -> Response:
        return PAGES.response("live.html")

    async def table_page(self, request: Request) -> Response:
        table = request.path_params["table"]
        known = [row.id for row in await run_in_threadpool(self.store.tables)]
        if table not in known:
            if not known:
                refusal = _("no table %(table)s at this event (its tables: none)")
            else:
                refusal = _("no table %(table)s at this event (its tables: %(tables)s)")
            return PlainTextResponse(refusal % {"table": repr(table), "tables": ", ".join(known)},
                                     404)
        return PAGES.response("table.html")

    async def feed(self, websocket: WebSocket) -> None:
        await websocket.accept()
        await self.server.live.follow(websocket)

    async def live_json(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(self.server.snapshot))

    async def export_json(self, request: Request) -> Response:
        data = await run_in_threadpool(json_of, self.store)
        return JSONResponse(data, headers={
            "Content-Disposition": _download(data["event"]["name"], ".json")})

    async def export_csv(self, request: Request) -> Response:
        text = await run_in_threadpool(csv_of, self.store)
        name = (await run_in_threadpool(self.store.event)).name
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": _download(name, ".csv")})

    async def records_pgn(self, request: Request) -> Response:
        text = await run_in_threadpool(records_text, self.server)
        name = (await run_in_threadpool(self.store.event)).name
        return PlainTextResponse(text, headers={
            "Content-Disposition": _download(name, ".pgn")})


class ArbiterPages:
    """The arbiter's page, its state and its actions, each behind an arbiter's name and
    password (HTTP Basic; `arbiters` is {name: password}, none: the pages are off). An action
    checks its body, then acts in the thread pool, one at a time, and answers with the state
    of the round it concerns."""

    def __init__(self, server: TournamentServer, arbiters: dict[str, str] | None) -> None:
        self.server = server
        self.store = server.store
        self.arbiters = check_arbiters(arbiters)
        self._acting = threading.Lock()         # one arbiter's action at a time: check, act
        self.guard = LoginGuard()

    def who(self, request: Request) -> str | Response:
        """The arbiter making `request`, or the response that refuses it."""
        json_wanted = request.url.path != "/arbiter"
        if not self.arbiters:
            off = _(OFF)
            return _error(404, off) if json_wanted else PlainTextResponse(off, 404)
        address = request.client.host if request.client else "unknown"
        wait = self.guard.wait(address)
        if wait:
            message = ngettext("too many wrong passwords: try again in %(n)d second",
                               "too many wrong passwords: try again in %(n)d seconds",
                               int(wait + 0.999)) % {"n": int(wait + 0.999)}
            retry = {"Retry-After": str(int(wait + 0.999))}
            return _error(429, message, **retry) if json_wanted else PlainTextResponse(
                message, 429, headers=retry)
        header = request.headers.get("authorization")
        name = basic_user(header, self.arbiters)
        if name is not None:
            self.guard.succeeded(address)
            return name
        if header:                      # a login tried and wrong (none: the browser asks)
            self.guard.failed(address)
        message = _("the arbiter's pages need an arbiter's name and password")
        challenge = {"WWW-Authenticate": 'Basic realm="%s", charset="UTF-8"' % REALM}
        if json_wanted:
            return _error(401, message, **challenge)
        return PlainTextResponse(message, 401, headers=challenge)

    async def page(self, request: Request) -> Response:
        arbiter = self.who(request)
        if isinstance(arbiter, Response):
            return arbiter
        return PAGES.response("arbiter.html", headers={"Cache-Control": "no-store"})

    async def state(self, request: Request) -> Response:
        arbiter = self.who(request)
        if isinstance(arbiter, Response):
            return arbiter
        # lang: the page's language, which LanguageMiddleware has read
        unknown = [key for key in request.query_params if key not in ("round", "lang")]
        if unknown:
            return _error(400, _("unknown query parameter %(name)s (the state takes only round)")
                          % {"name": _shown(unknown[0])})
        text = request.query_params.get("round")
        if text is not None and not (text.isascii() and text.isdigit()):
            return _error(400, _("round must be a round's number (1, 2, ...), not %(value)s")
                          % {"value": _shown(text)})
        try:
            state = await run_in_threadpool(
                arbiter_state, self.server, arbiter, None if text is None else int(text))
        except RequestError as refused:
            return _error(400, str(refused))
        return JSONResponse(state, headers={"Cache-Control": "no-store"})

    def action(self, keys: dict[str, Check], act: Callable[[dict[str, Any], str], int | None]):
        """A POST endpoint: who, the body, then `act(fields, arbiter)` (in the thread pool,
        one at a time), answered with the state of the round it returns (None: the latest)."""
        async def endpoint(request: Request) -> Response:
            arbiter = self.who(request)
            if isinstance(arbiter, Response):
                return arbiter
            try:
                fields = read_body(await _body(request), request.headers.get("content-type"),
                                   keys)
            except RequestError as refused:
                return _error(400, str(refused))

            def run() -> dict[str, Any]:
                with self._acting:
                    round = act(fields, arbiter)
                    return arbiter_state(self.server, arbiter, round)
            try:
                return JSONResponse(await run_in_threadpool(run))
            except ValueError as refused:   # RequestError, StoreError, a pairing's refusal
                return _error(400, str(refused))
        return endpoint

    def _round_of(self, game: str) -> int:
        """The round of `game`, or RequestError when the event has no such game."""
        try:
            return self.store.game(game).pairing.round
        except StoreError:
            raise RequestError(_("'game': this event has no game %(game)s")
                               % {"game": _shown(game)}) from None

    def confirm(self, fields: dict[str, Any], arbiter: str) -> int:
        round = self._round_of(fields["game"])
        self.server.confirm(fields["game"], arbiter)
        return round

    def accept(self, fields: dict[str, Any], arbiter: str) -> int:
        round = self._round_of(fields["game"])
        self.server.accept_held(fields["game"], arbiter)
        return round

    def correct(self, fields: dict[str, Any], arbiter: str) -> int:
        round = self._round_of(fields["game"])
        result = Result(fields["south_points"], fields["south_seeds"], fields["north_seeds"])
        self.server.correct(fields["game"], result, arbiter, fields["reason"])
        return round

    def move(self, fields: dict[str, Any], arbiter: str) -> int:
        round = self._round_of(fields["game"])
        self.server.move_game(fields["game"], fields["table"], arbiter, fields["reason"])
        return round

    def retire(self, fields: dict[str, Any], arbiter: str) -> None:
        self.server.retire_table(fields["table"], arbiter, fields["reason"])
        return None

    def return_table(self, fields: dict[str, Any], arbiter: str) -> None:
        self.server.return_table(fields["table"], arbiter)
        return None

    def pair(self, fields: dict[str, Any], arbiter: str) -> None:
        store, server = self.store, self.server
        latest, rounds = store.last_round(), store.event().rounds
        wanted = fields["round"]
        if latest >= rounds:
            raise RequestError(ngettext("the event's %(n)d round is paired already",
                                        "all %(n)d rounds are paired already", rounds)
                               % {"n": rounds})
        if wanted <= latest:
            raise RequestError(_("round %(round)d is paired already") % {"round": wanted})
        if wanted != latest + 1:
            raise RequestError(_("the next round is %(next)d, not %(round)d")
                               % {"next": latest + 1, "round": wanted})
        if not server.round_complete():
            waiting = [row.id for row in store.games(latest) if row.result is None]
            raise RequestError(ngettext(
                "round %(round)d cannot be paired before round %(latest)d is over: %(games)s "
                "has no result",
                "round %(round)d cannot be paired before round %(latest)d is over: %(games)s "
                "have no result", len(waiting))
                % {"round": wanted, "latest": latest, "games": ", ".join(waiting)})
        server.pair_next_round()
        return None


def create_app(server: TournamentServer, arbiters: dict[str, str] | None = None) -> Starlette:
    """The live pages of `server`'s event and, with `arbiters` ({name: password}), the
    arbiter's pages."""
    live = LivePages(server)
    arbiter = ArbiterPages(server, arbiters)
    app = Starlette(middleware=page_middleware(), routes=[
        Route("/", live.live_page),
        Route("/table/{table}", live.table_page),
        WebSocketRoute("/ws", live.feed),
        Route("/api/live", live.live_json),
        Route("/export.json", live.export_json),
        Route("/export.csv", live.export_csv),
        Route("/records.pgn", live.records_pgn),
        Route("/arbiter", arbiter.page),
        Route("/arbiter/state", arbiter.state),
        Route("/arbiter/confirm", arbiter.action(CONFIRM, arbiter.confirm), methods=["POST"]),
        Route("/arbiter/correct", arbiter.action(CORRECT, arbiter.correct), methods=["POST"]),
        Route("/arbiter/accept", arbiter.action(ACCEPT, arbiter.accept), methods=["POST"]),
        Route("/arbiter/pair", arbiter.action(PAIR, arbiter.pair), methods=["POST"]),
        Route("/arbiter/move", arbiter.action(MOVE, arbiter.move), methods=["POST"]),
        Route("/arbiter/retire", arbiter.action(RETIRE, arbiter.retire), methods=["POST"]),
        Route("/arbiter/return", arbiter.action(RETURN, arbiter.return_table),
              methods=["POST"]),
        Route("/static/style.css", lambda request: FileResponse(STYLE)),
        Route("/static/places.js", lambda request: FileResponse(PLACES)),
        Route("/static/words.js", lambda request: FileResponse(WORDS)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.server = server
    return app
