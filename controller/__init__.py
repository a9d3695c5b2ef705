"""The LED-guided mancala board's controller.

The portable core (rules, sensing, guide, session, protocol) runs on CPython and MicroPython;
everything else here (CLI, drivers, web, tournament) is host-only and the core never imports it.
"""

__version__ = "0.1.0"       # pyproject.toml's; the Pico's firmware reports its own in Hello
