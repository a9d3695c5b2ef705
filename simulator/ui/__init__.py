"""The board in the browser (`layli sim --ui`): a virtual table driven by the real guide, a
Starlette app with one WebSocket, and the page (host-only).

    from simulator.ui import Table, create_app, serve
"""

from simulator.ui.table import Table, TableError, MODES
from simulator.ui.app import create_app
from simulator.ui.server import serve, PortTaken

__all__ = ["Table", "TableError", "MODES", "create_app", "serve", "PortTaken"]
