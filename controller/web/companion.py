"""The table companion: a page beside a physical board, live from its controller (host-only).

    publisher = Publisher()
    app = create_app(publisher)                   # GET / the page, /ws its WebSocket
    url, server, thread = start_in_thread(app)    # the server's own thread and asyncio loop
    runner = Runner(..., publish=publisher.publish)

The board's loop (the main thread) calls `publish(state)` after a step in which the state
changed. `publish` never waits: it keeps the state's JSON text, one a language (the state's
`Words` said in each: controller.languages.localise), under a lock and asks the server's loop,
through `call_soon_threadsafe`, to wake the pages' handlers. Each handler sends the newest text
in its page's language that it has not sent yet, so a slow page skips states in between and a
gone one just ends its handler; the board never waits for either. The page sends nothing.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.languages import LANGUAGES, current, has_words, localise
from controller.web.pages import Pages, page_middleware

STATIC = Path(__file__).parent / "static"
# the virtual board's stylesheet, which the companion page shares

WAITING = {"type": "waiting"}       # what a page gets before the board's first state


class Publisher:
    """The latest states, each under its key, handed from other threads to the server's loop.

    A board's companion has one key; the tournament's live pages one a table, plus the
    pairings and standings. Each page is sent the newest text of every key that changed since
    it was last sent, one WebSocket message a key.
    """

    def __init__(self, first: dict | None = None) -> None:
        self._lock = threading.Lock()
        self._texts: dict[str, dict[str, str]] = {}     # key: {language: JSON text}
        self._versions: dict[str, int] = {}
        self._version = 0
        # each serving loop (one under uvicorn; one a connection under Starlette's TestClient)
        # and the event that its handlers wait on
        self._changed: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}
        self.publish(WAITING if first is None else first)

    def publish(self, state: dict, key: str = "state") -> None:
        """A new state for `key` (any thread; returns at once). The same state again is not
        sent."""
        if has_words(state):
            texts = {language: json.dumps(localise(state, language)) for language in LANGUAGES}
        else:       # plain data (a tournament's table, its pairings): one text for all
            texts = dict.fromkeys(LANGUAGES, json.dumps(state))
        with self._lock:
            if self._texts.get(key) == texts:
                return
            self._version += 1
            self._texts[key] = texts
            self._versions[key] = self._version
            loops = list(self._changed)
        for loop in loops:
            try:
                loop.call_soon_threadsafe(self._wake, loop)
            except RuntimeError:        # that loop has closed: no page there to tell
                with self._lock:
                    self._changed.pop(loop, None)

    def latest(self, key: str = "state", language: str | None = None) -> tuple[int, str]:
        """(version, JSON text) of the newest state of `key`, in `language` (default: the one
        in use)."""
        with self._lock:
            return self._versions[key], self._texts[key][language or current()]

    def since(self, version: int, language: str | None = None) -> tuple[int, list[str]]:
        """(the newest version, the texts in `language` (default: the one in use) of every key
        changed after `version`, oldest change first)."""
        language = language or current()
        with self._lock:
            changed = sorted((v, key) for key, v in self._versions.items() if v > version)
            return self._version, [self._texts[key][language] for v, key in changed]

    def _attach(self) -> asyncio.Event:
        """The running loop's event that `publish` sets (called in a serving loop)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            event = self._changed.get(loop)
            if event is None:
                event = self._changed[loop] = asyncio.Event()
            return event

    def _wake(self, loop: asyncio.AbstractEventLoop) -> None:
        # in `loop`: wake every handler waiting now; later ones wait on a new event
        with self._lock:
            event = self._changed.get(loop)
            self._changed[loop] = asyncio.Event()
        if event is not None:
            event.set()

    async def follow(self, websocket: WebSocket) -> None:
        """Send `websocket` every new state, in the language in use (its page's), until it
        goes away."""
        language = current()
        gone = asyncio.ensure_future(_until_closed(websocket))
        sent = 0
        try:
            while not gone.done():
                changed = self._attach()
                version, texts = self.since(sent, language)
                if texts:
                    for text in texts:
                        await websocket.send_text(text)
                    sent = version
                    continue
                waiting = asyncio.ensure_future(changed.wait())
                await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass                        # the page went away while we sent
        finally:
            gone.cancel()


async def _until_closed(websocket: WebSocket) -> None:
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return


def create_app(publisher: Publisher) -> Starlette:
    """The companion's app: ``GET /`` the page, ``/ws`` the states, ``/static`` its files;
    each in its reader's language (controller.web.pages)."""
    pages = Pages(STATIC)

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        await publisher.follow(websocket)

    app = Starlette(routes=[
        Route("/", pages.route("companion.html")),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], middleware=page_middleware())
    app.state.publisher = publisher
    return app
