"""The LED-guided mancala board's controller.

The portable core (rules, sensing, guide, session, protocol, ai: what `firmware/manifest.py`
ships to the Pico) runs on CPython and MicroPython; everything else here (board: the host's
loop; the CLI and its commands, drivers, hardware, opponents, web, tournament) is host-only,
and the core never imports it (docs/architecture.md).
"""

__version__ = "0.1.0"       # pyproject.toml's; the Pico's firmware reports its own in Hello
