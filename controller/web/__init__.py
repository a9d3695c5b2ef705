"""The controller's web pages (host-only): the table companion page for a screen beside a
physical board (`layli run --ui`), and the serving helpers it shares with the virtual board
(`simulator.ui`).

    from controller.web import Publisher, create_app, start_in_thread
"""

from controller.web.server import HOST, PortTaken, bind, server, start_in_thread, url_of
from controller.web.companion import Publisher, create_app

__all__ = ["HOST", "PortTaken", "bind", "server", "start_in_thread", "url_of", "Publisher",
           "create_app"]
