"""Serving the page on this computer: `layli sim --ui` (host-only).

    serve(port=8765)                  # blocks; opens the page in the default browser

Only 127.0.0.1 is served: the board is for the person at this computer.
"""

from __future__ import annotations

import threading
import webbrowser

from controller.web.server import (HOST, PortTaken, bind, server, start_in_thread,
                                   url_of)
from simulator.ui.app import create_app
from simulator.ui.table import COMPUTER_LEVEL

DEFAULT_PORT = 8765


def serve(variant: str = "layli-goobalay", options: dict | None = None, mode: str = "people",
          port: int = DEFAULT_PORT, open_browser: bool = True, seed: int | None = None,
          level: str = COMPUTER_LEVEL) -> None:
    """Serve the board until interrupted (Ctrl-C); PortTaken when the port is in use. `mode`
    and `level` as for simulator.ui.table.Table."""
    app = create_app(variant, options, mode, seed, level=level)
    sock = bind(port)
    url = url_of(sock)
    print("the board is at %s (Ctrl-C to stop)" % url, flush=True)
    if open_browser:
        # once the server is up: a browser quicker than the server would find nothing
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server(app).run(sockets=[sock])
    finally:
        sock.close()


__all__ = ["HOST", "DEFAULT_PORT", "PortTaken", "bind", "server", "serve", "start_in_thread",
           "url_of"]
