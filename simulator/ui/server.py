"""Serving the page on this computer: `layli sim --ui` (host-only).

    serve(port=8765)                  # blocks; opens the page in the default browser

Only 127.0.0.1 is served: the board is for the person at this computer.
"""

from __future__ import annotations

import socket
import threading
import webbrowser

import uvicorn

from simulator.ui.app import create_app

HOST = "127.0.0.1"
DEFAULT_PORT = 8765


class PortTaken(OSError):
    """The port is in use by another program; the message says which and what to do."""


def bind(port: int) -> socket.socket:
    """A listening socket on HOST:`port` (0: any free port), or PortTaken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as error:
        sock.close()
        raise PortTaken("port %d on %s is taken (%s): choose another with --port"
                        % (port, HOST, error.strerror or error))
    sock.listen(64)
    return sock


def server(app) -> uvicorn.Server:
    """A quiet uvicorn server for `app` (run it on a bound socket: `.run(sockets=[sock])`)."""
    return uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio",
                                         lifespan="off"))


def serve(variant: str = "layli-goobalay", options: dict | None = None, mode: str = "people",
          port: int = DEFAULT_PORT, open_browser: bool = True, seed: int | None = None) -> None:
    """Serve the board until interrupted (Ctrl-C); PortTaken when the port is in use."""
    app = create_app(variant, options, mode, seed)
    sock = bind(port)
    url = "http://%s:%d/" % (HOST, sock.getsockname()[1])
    print("the board is at %s (Ctrl-C to stop)" % url, flush=True)
    if open_browser:
        # once the server is up: a browser quicker than the server would find nothing
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server(app).run(sockets=[sock])
    finally:
        sock.close()


def start_in_thread(app, port: int = 0) -> tuple[str, uvicorn.Server, threading.Thread]:
    """Serve `app` from a background thread (tests, the screenshot): (url, server, thread);
    stop it with ``server.should_exit = True; thread.join()``."""
    sock = bind(port)
    url = "http://%s:%d/" % (HOST, sock.getsockname()[1])
    instance = server(app)
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if instance.started:
            break
        threading.Event().wait(0.02)
    return url, instance, thread
