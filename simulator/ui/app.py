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
from simulator.ui.howto import HOW_TO_PLAY
from simulator.ui.table import COMPUTER_LEVEL, FAULT_KINDS, MODES, PLAY, Table, TableError

STATIC = Path(__file__).parent / "static"
STYLE = COMPANION_STATIC / "style.css"      # one stylesheet for both pages
PLACES = COMPANION_STATIC / "places.js"     # one board geometry for the simulator's and the
                                            # tournament's boards

# what each pattern means, for the page's legend, and the symbol the page draws beside a lit
# place, so that no meaning rests on colour or rhythm alone (frame.py names the patterns; not
# WAIT, which only a tournament's table waiting for its game shows). The physical board's
# rings have colour and rhythm only.
MEANINGS = (
    (frames.STEADY, "✓", "a pit you may play; the store the seeds go to"),
    (frames.DROP, "↓", "drop the next seed here"),
    (frames.PICK, "↑", "lift every seed from here (a relay too; green: a hint)"),
    (frames.TAKE, "⇒", "empty this pit into the lit store"),
    (frames.UUR_FROM, "1↑", "move one seed out of here ..."),
    (frames.UUR_TO, "1↓", "... into here: an Uur pair"),
    (frames.UUR, "U", "an Uur, in its owner's colour"),
    (frames.FORCED, "!", "the only move"),
    (frames.PASS, "–", "this row passes"),
    (frames.FLASH, "✕", "a mistake: a seed in the wrong pit"),
    (frames.MORE, "−", "too many seeds here"),
    (frames.LESS, "+", "too few seeds here"),
    (frames.BROKEN, "?", "a broken sensor: confirm by hand"),
    (frames.WIN, "★", "the winner's store"),
)


# Each option of the variants as the new-game form offers it: its group (RULES, shown; MATCH,
# shown when a match of hands is chosen; ADVANCED, in the closed "board simulation" part),
# its label in players' words and its choices' words. The option's own description and source
# (controller.rules.variants) go into the tooltip.
RULES, MATCH, ADVANCED = "rules", "match", "advanced"
OPTION_WORDS: dict[str, tuple[str, str, dict]] = {
    "capture_last_seed": (RULES, "the capturing seed is captured too", {}),
    "end_when": (RULES, "the game ends", {
        "mover": "when the player to move has no move",
        "either": "when either row is empty (Uurs aside)"}),
    "first_move_right": (RULES, "the first move is from the rightmost pit", {}),
    "must_feed": (RULES, "a player must leave an empty row a seed", {}),
    "pits": (RULES, "pits in a row", {}),
    "direction": (RULES, "seeds are sown", {
        "clockwise": "clockwise", "counterclockwise": "counterclockwise"}),
    "setup": (RULES, "at the start", {
        "seven": "seven seeds in every pit", "random": "98 seeds dealt at random"}),
    "first": (RULES, "who moves first", {"0": "South", "1": "North"}),
    "start": (RULES, "each turn sows from", {
        "leftmost": "the leftmost pit with seeds", "rightmost": "the rightmost pit with seeds",
        "free": "any pit with seeds"}),
    "hands": (MATCH, "the most hands in a match (0: no limit)", {}),
    "arrangement": (MATCH, "the next hand's seeds are placed", {
        "mirror": "copied pit for pit from the first player's row",
        "free": "as each player likes"}),
    "next_first": (MATCH, "who starts the next hand", {
        "arranger": "the player who placed first", "alternate": "each in turn"}),
    "endless": (ADVANCED, "a move that would never end", {
        "illegal": "cannot be played", "abar": "is played and changes nothing"}),
    "endless_bound": (ADVANCED, "a move never ends after this many seeds", {}),
}


def hello() -> dict:
    """The first message: what the page needs to draw any game and offer every choice."""
    variants = []
    for name in sorted(VARIANTS):
        spec = VARIANTS[name]
        options = []
        for option in sorted(spec.options):
            kind, default, choices, what = spec.options[option][:4]
            group, label, choice_words = OPTION_WORDS[option]
            source = spec.options[option][4] if len(spec.options[option]) > 4 else ""
            options.append({"name": option, "kind": kind, "default": default,
                            "choices": list(choices) if choices else None,
                            "what": what + (" (%s)" % source if source else ""),
                            "group": group, "label": label,
                            "choice_words": {str(key): words
                                             for key, words in choice_words.items()}})
        variants.append({"name": name, "title": spec.title, "hands": spec.hands,
                         "words": variant_words(spec.title), "options": options,
                         "howto": [list(item) for item in HOW_TO_PLAY[name]]})
    return {"type": "hello", "variants": variants, "modes": list(MODES), "levels": list(LEVELS),
            "palette": {name: list(rgb) for name, rgb in PALETTE.items()},
            "legend": [[pattern, words] for pattern, _, words in MEANINGS],
            "symbols": {pattern: symbol for pattern, symbol, _ in MEANINGS},
            "fault_kinds": list(FAULT_KINDS)}


class _Hub:
    """The table and the pages watching it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.sockets: set[WebSocket] = set()

    async def broadcast(self) -> None:
        text = json.dumps(self.table.state())
        for socket in list(self.sockets):
            try:
                await socket.send_text(text)
            except (RuntimeError, WebSocketDisconnect):
                self.sockets.discard(socket)

    def handle(self, text: str) -> str | None:
        """Act on one message; the error to send back, or None."""
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

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        hub.sockets.add(websocket)
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
            hub.sockets.discard(websocket)
            reader.cancel()

    app = Starlette(routes=[
        Route("/", index),
        WebSocketRoute("/ws", socket),
        # the stylesheet is shared with the companion page (controller/web)
        Route("/static/style.css", lambda request: FileResponse(STYLE)),
        Route("/static/places.js", lambda request: FileResponse(PLACES)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.table = table
    return app
