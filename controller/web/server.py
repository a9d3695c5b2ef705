"""Serving a Starlette app from this computer: the listening socket, a quiet uvicorn, a thread
(host-only). `layli sim --ui` (the virtual board) and `layli run --ui` (the table companion)
both serve through these.

    sock = bind(8765)                        # PortTaken names the port and what to do
    server(app).run(sockets=[sock])          # blocks
    url, instance, thread = start_in_thread(app)     # or beside other work
"""

from __future__ import annotations

import socket
import threading

import uvicorn

HOST = "127.0.0.1"


class PortTaken(OSError):
    """The port is in use by another program; the message says which and what to do."""


def bind(port: int, host: str = HOST, option: str = "--port") -> socket.socket:
    """A listening socket on `host`:`port` (0: any free port), or PortTaken, whose message
    names the command-line `option` that chooses another port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise PortTaken("port %d on %s is taken (%s): choose another with %s"
                        % (port, host, error.strerror or error, option))
    sock.listen(64)
    return sock


def url_of(sock: socket.socket, https: bool = False) -> str:
    """The page's address on a bound socket (0.0.0.0 is shown as this computer's name)."""
    host, port = sock.getsockname()[:2]
    if host == "0.0.0.0":
        host = socket.gethostname()
    return "%s://%s:%d/" % ("https" if https else "http", host, port)


def server(app, tls: tuple[str, str] | None = None) -> uvicorn.Server:
    """A quiet uvicorn server for `app` (run it on a bound socket: `.run(sockets=[sock])`);
    `tls`: (certificate, key) files to serve HTTPS with."""
    certificate, key = tls if tls is not None else (None, None)
    return uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="websockets-sansio",
                                         lifespan="off", ssl_certfile=certificate,
                                         ssl_keyfile=key))


def start_in_thread(app, port: int = 0, host: str = HOST, option: str = "--port",
                    sock: socket.socket | None = None, tls: tuple[str, str] | None = None,
                    ) -> tuple[str, uvicorn.Server, threading.Thread]:
    """Serve `app` from a background thread (its own asyncio loop): (url, server, thread);
    stop it with ``server.should_exit = True; thread.join()``. `sock`: an already bound one;
    `tls`: (certificate, key) files, to serve HTTPS."""
    if sock is None:
        sock = bind(port, host, option)
    url = url_of(sock, https=tls is not None)
    instance = server(app, tls)
    # uvicorn installs signal handlers only in the main thread, so Ctrl-C stays the caller's
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if instance.started:
            break
        threading.Event().wait(0.02)
    return url, instance, thread
