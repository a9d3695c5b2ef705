"""The board in the browser: a Starlette app with one WebSocket (host-only).

    app = create_app("layli-goobalay", mode="computer")
    uvicorn.run(app, host="127.0.0.1", port=8765)

``GET /`` is the page (plain HTML, SVG, JavaScript and CSS from ``static/``, no build step);
``/ws`` is the WebSocket. The server speaks first, with ``{"type": "hello", ...}`` (the
variants and their options, the palette's RGB, the patterns' meanings) and then the state; the
page sends actions as JSON (``{"action": "lift", "place": 2}``, see `Table.act`) and every page
connected receives the whole new state, ``{"type": "state", ...}``. A message that cannot be
acted on is answered, to its sender only, with ``{"type": "error", "message": ...}`` naming the
problem; nothing changes. One table per app: a page reloaded finds its game where it was.
Each page reads it in its own language (controller.web.pages picks it): the page, the hello,
every state and an error are said in the language of the connection they go to.

A computer's turn is played by the connection handlers: while it is the computer's turn each one
waits for the page's next message no longer than the computer's next action is due.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.guide import frame as frames
from controller.guide.pixels import PALETTE
from controller.rules import VARIANTS
from controller.web.companion import STATIC as COMPANION_STATIC
from controller.ai import LEVELS
from controller.board.view import variant_words
from controller.languages import N_, _, current, using
from controller.web.pages import Pages, page_middleware
from simulator.ui.howto import HOW_TO_PLAY, illustration
from simulator.ui.table import COMPUTER_LEVEL, FAULT_KINDS, MODES, PLAY, Table, TableError

STATIC = Path(__file__).parent / "static"
STYLE = COMPANION_STATIC / "style.css"      # one stylesheet for both pages
PLACES = COMPANION_STATIC / "places.js"     # one board geometry for the simulator's and the
                                            # tournament's boards
WORDS = COMPANION_STATIC / "words.js"       # every page's words in its language

# what each pattern means, for the page's legend, and the symbol the page draws beside a lit
# place, so that no meaning rests on colour or rhythm alone (frame.py names the patterns; not
# WAIT, which only a tournament's table waiting for its game shows). The physical board's
# rings have colour and rhythm only.
MEANINGS = (
    (frames.STEADY, "✓", N_("a pit you may play; the store the seeds go to")),
    (frames.DROP, "↓", N_("drop the next seed here")),
    (frames.PICK, "↑", N_("lift every seed from here (a relay too; green: a hint)")),
    (frames.TAKE, "⇒", N_("empty this pit into the lit store")),
    (frames.UUR_FROM, "1↑", N_("move one seed out of here ...")),
    (frames.UUR_TO, "1↓", N_("... into here: an Uur pair")),
    (frames.UUR, "U", N_("an Uur, in its owner's colour")),
    (frames.FORCED, "!", N_("the only move")),
    (frames.PASS, "–", N_("this row passes")),
    (frames.FLASH, "✕", N_("a mistake: a seed in the wrong pit")),
    (frames.MORE, "−", N_("too many seeds here")),
    (frames.LESS, "+", N_("too few seeds here")),
    (frames.BROKEN, "?", N_("a broken sensor: confirm by hand")),
    (frames.WIN, "★", N_("the winner's store")),
)


# Each option of the variants as the new-game form offers it: its group (RULES, shown; MATCH,
# shown when a match of hands is chosen; ADVANCED, in the closed "board simulation" part),
# its label in players' words, its choices' words and a sentence saying what it does. The
# option's source (controller.rules.variants) goes into the tooltip with the sentence.
RULES, MATCH, ADVANCED = "rules", "match", "advanced"
OPTION_WORDS: dict[str, tuple[str, str, dict, str]] = {
    "capture_last_seed": (RULES, N_("the capturing seed is captured too"), {}, N_(
        "The seed that makes a capture goes into the store with the seeds it captures.")),
    "end_when": (RULES, N_("the game ends"), {
        "mover": N_("when the player to move has no move"),
        "either": N_("when either row is empty (Uurs aside)")}, N_(
        "When the game is over: as soon as the player to move cannot move, or as soon as "
        "either row holds no seed outside its Uurs.")),
    "first_move_right": (RULES, N_("the first move is from the rightmost pit"), {}, N_(
        "The first move of the game must be from the mover's rightmost pit that can be "
        "played.")),
    "must_feed": (RULES, N_("a player must leave an empty row a seed"), {}, N_(
        "When the other row is empty, a move must sow a seed into it; if none can, the game "
        "ends.")),
    "pits": (RULES, N_("pits in a row"), {}, N_("How many pits each player has, 6 to 12.")),
    "direction": (RULES, N_("seeds are sown"), {
        "clockwise": N_("clockwise"), "counterclockwise": N_("counterclockwise")}, N_(
        "Which way round the board the seeds go.")),
    "setup": (RULES, N_("at the start"), {
        "seven": N_("seven seeds in every pit"), "random": N_("98 seeds dealt at random")}, N_(
        "How the stones are put in the pits before the first move.")),
    "first": (RULES, N_("who moves first"), {"0": N_("South"), "1": N_("North")}, N_(
        "The player who makes the first move (at the board, a guess of odd or even decides "
        "it).")),
    "start": (RULES, N_("each turn sows from"), {
        "leftmost": N_("the leftmost pit with seeds"),
        "rightmost": N_("the rightmost pit with seeds"),
        "free": N_("any pit with seeds")}, N_(
        "Which of your pits a move must start from.")),
    "hands": (MATCH, N_("the most hands in a match (0: no limit)"), {}, N_(
        "After this many hands the player holding more seeds wins the match; 0 plays on until "
        "a player cannot fill their row.")),
    "arrangement": (MATCH, N_("the next hand's seeds are placed"), {
        "mirror": N_("copied pit for pit from the first player's row"),
        "free": N_("as each player likes")}, N_(
        "How the player holding more seeds sets up their row for the next hand.")),
    "next_first": (MATCH, N_("who starts the next hand"), {
        "arranger": N_("the player who placed first"), "alternate": N_("each in turn")}, N_(
        "Who makes the first move of each hand after the first.")),
    "endless": (ADVANCED, N_("a move that would never end"), {
        "illegal": N_("cannot be played"), "abar": N_("is played and changes nothing")}, N_(
        "What happens to a move whose relays would go on for ever.")),
    "endless_bound": (ADVANCED, N_("a move never ends after this many seeds"), {}, N_(
        "How many seeds a move may sow before it counts as one that never ends.")),
}

FAULT_WORDS = {"stuck": N_("stuck"), "railed": N_("railed"), "off scale": N_("off scale"),
               "below empty": N_("below empty")}


def hello() -> dict:
    """The first message, in the language in use: what the page needs to draw any game and
    offer every choice."""
    variants = []
    for name in sorted(VARIANTS):
        spec = VARIANTS[name]
        options = []
        for option in sorted(spec.options):
            kind, default, choices = spec.options[option][:3]
            group, label, choice_words, what = OPTION_WORDS[option]
            source = spec.options[option][4] if len(spec.options[option]) > 4 else ""
            options.append({"name": option, "kind": kind, "default": default,
                            "choices": list(choices) if choices else None,
                            "what": _(what) + (" (%s)" % source if source else ""),
                            "group": group, "label": _(label),
                            "choice_words": {str(key): _(words)
                                             for key, words in choice_words.items()}})
        variants.append({"name": name, "title": spec.title, "hands": spec.hands,
                         "words": variant_words(spec.title), "options": options,
                         "howto": [[_(title), _(words), illustration(name, title)]
                                   for title, words in HOW_TO_PLAY[name]]})
    return {"type": "hello", "variants": variants, "modes": list(MODES), "levels": list(LEVELS),
            "palette": {name: list(rgb) for name, rgb in PALETTE.items()},
            "legend": [[pattern, _(words)] for pattern, _symbol, words in MEANINGS],
            "symbols": {pattern: symbol for pattern, symbol, _words in MEANINGS},
            "fault_kinds": list(FAULT_KINDS),
            "fault_words": {kind: _(FAULT_WORDS[kind]) for kind in FAULT_KINDS}}


class _Hub:
    """The table and the pages watching it, each in its own language."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.sockets: dict[WebSocket, str] = {}

    async def broadcast(self) -> None:
        texts: dict[str, str] = {}
        for socket, language in list(self.sockets.items()):
            if language not in texts:
                with using(language):
                    texts[language] = json.dumps(self.table.state())
            try:
                await socket.send_text(texts[language])
            except (RuntimeError, WebSocketDisconnect):
                self.sockets.pop(socket, None)

    def handle(self, text: str) -> str | None:
        """Act on one message; the error to send back (in the language in use), or None."""
        try:
            message = json.loads(text)
        except ValueError as error:
            return "the message is not JSON: %s" % error
        try:
            self.table.act(message)
        except TableError as error:
            return str(error)
        return None


def create_app(variant: str = "layli-goobalay", options: dict | None = None,
               mode: str = "people", seed: int | None = None,
               hint_seconds: float | None = None, step_seconds: float | None = None,
               table: Table | None = None, way: str = PLAY,
               level: str = COMPUTER_LEVEL) -> Starlette:
    """The app serving one table (a new one from the arguments unless `table` is given);
    `way`, how a person plays: PLAY (a lit pit chosen, the move sown for them) or REHEARSE
    (every seed by hand); `level`, the computer's (controller.ai.LEVELS)."""
    if table is None:
        timing = {}
        if hint_seconds is not None:
            timing["hint_seconds"] = hint_seconds
        if step_seconds is not None:
            timing["step_seconds"] = step_seconds
        table = Table(variant, options, mode, seed, way=way, level=level, **timing)
    hub = _Hub(table)

    pages = Pages(STATIC)

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        hub.sockets[websocket] = current()          # the page's (LanguageMiddleware)
        await websocket.send_text(json.dumps(hello()))
        await websocket.send_text(json.dumps(hub.table.state()))
        inbox: asyncio.Queue = asyncio.Queue()

        async def read() -> None:
            try:
                while True:
                    await inbox.put(await websocket.receive_text())
            except (WebSocketDisconnect, RuntimeError):
                await inbox.put(None)

        reader = asyncio.create_task(read())
        try:
            while True:
                wait = hub.table.autoplay_wait()
                try:
                    text = await asyncio.wait_for(inbox.get(), wait)
                except asyncio.TimeoutError:
                    if hub.table.autoplay_step():
                        await hub.broadcast()
                    continue
                if text is None:
                    break
                error = hub.handle(text)
                if error is None:
                    await hub.broadcast()
                else:
                    await websocket.send_text(json.dumps({"type": "error", "message": error}))
        finally:
            hub.sockets.pop(websocket, None)
            reader.cancel()

    app = Starlette(routes=[
        Route("/", pages.route("index.html")),
        WebSocketRoute("/ws", socket),
        # the stylesheet is shared with the companion page (controller/web)
        Route("/static/style.css", lambda request: FileResponse(STYLE)),
        Route("/static/places.js", lambda request: FileResponse(PLACES)),
        Route("/static/words.js", lambda request: FileResponse(WORDS)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], middleware=page_middleware())
    app.state.table = table
    return app
