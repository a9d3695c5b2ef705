"""The table companion: a page beside a physical board, live from its controller (host-only).

    publisher = Publisher()
    app = create_app(publisher)                   # GET / the page, /ws its WebSocket
    url, server, thread = start_in_thread(app)    # the server's own thread and asyncio loop
    runner = Runner(..., publish=publisher.publish)

The board's loop (the main thread) calls `publish(state)` after a step in which the state
changed. `publish` never waits: it keeps the state's JSON text under a lock and asks the
server's loop, through `call_soon_threadsafe`, to wake the pages' handlers. Each handler sends
the newest text it has not sent yet, so a slow page skips states in between and a gone one just
ends its handler; the board never waits for either. The page sends nothing.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

STATIC = Path(__file__).parent / "static"
# the virtual board's stylesheet, which the companion page shares

WAITING = {"type": "waiting"}       # what a page gets before the board's first state


class Publisher:
    """The latest state of a board, handed from the board's thread to the server's loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._text = json.dumps(WAITING)
        self._version = 0
        # each serving loop (one under uvicorn; one a connection under Starlette's TestClient)
        # and the event that its handlers wait on
        self._changed: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}

    def publish(self, state: dict) -> None:
        """A new state (any thread; returns at once). The same state again is not sent."""
        text = json.dumps(state)
        with self._lock:
            if text == self._text:
                return
            self._text = text
            self._version += 1
            loops = list(self._changed)
        for loop in loops:
            try:
                loop.call_soon_threadsafe(self._wake, loop)
            except RuntimeError:        # that loop has closed: no page there to tell
                with self._lock:
                    self._changed.pop(loop, None)

    def latest(self) -> tuple[int, str]:
        """(version, JSON text) of the newest state."""
        with self._lock:
            return self._version, self._text

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
        """Send `websocket` every new state until it goes away."""
        gone = asyncio.ensure_future(_until_closed(websocket))
        sent = -1
        try:
            while not gone.done():
                changed = self._attach()
                version, text = self.latest()
                if version != sent:
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
    """The companion's app: ``GET /`` the page, ``/ws`` the states, ``/static`` its files."""

    async def index(request):
        return FileResponse(STATIC / "companion.html")

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        await publisher.follow(websocket)

    app = Starlette(routes=[
        Route("/", index),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.publisher = publisher
    return app
