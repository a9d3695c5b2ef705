"""`layli tournament demo`: a whole simulated event on this computer, with the live pages.

    layli tournament demo --tables 8 --rounds 5              # watch it in the browser
    layli tournament demo --tables 32 --rounds 5 --json      # flat out, a summary in JSON

A broker (the embedded one by default, or Mosquitto), the tournament server with its live
pages, and `--tables` simulated boards, each run by the same controller as a real table
(controller.tournament.demo). With `--faults` a board dies mid-game in round 1 (the arbiter moves
its game to a spare table, where it goes on), a table loses power mid-game in round 2, the broker
restarts in round 3 and the server in round 4; the standings must not change, and the summary
says whether they equal the ones worked out straight on the rules engine (`reference`).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import webbrowser

from controller.commands.common import parse_options, ranged, until_stopped
from controller.errors import UsageError

DEFAULT_PORT = 8770


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=ranged(int, 1, 256), default=8,
                        help="simulated tables (default 8); twice as many players")
    parser.add_argument("--rounds", type=ranged(int, 1, 50), default=5,
                        help="rounds (default 5)")
    parser.add_argument("--system", choices=("swiss", "round-robin"), default="swiss",
                        help="pairing system (default swiss; a round robin of 2 x tables "
                             "players has 2 x tables - 1 rounds)")
    parser.add_argument("--format", choices=("game", "hands"), default="game",
                        help="a pairing plays one game (default) or a match of hands, each "
                             "next hand set up on the board as its LEDs lead the players")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a variant option for the event (repeatable), e.g. hands=3 to "
                             "cap a match's hands")
    parser.add_argument("--broker", choices=("embedded", "mosquitto"), default="embedded",
                        help="the embedded broker (default: needs nothing installed) or a "
                             "Mosquitto the demo starts")
    parser.add_argument("--tls", action="store_true",
                        help="the tables reach the broker over TLS, trusting the event's own "
                             "certificate authority, as at a club")
    parser.add_argument("--attacks", action="store_true",
                        help="in round 1 a player attacks the event with a spare board's "
                             "password (takeovers, forgeries, a flood, a swapped record...)")
    parser.add_argument("--faults", action="store_true",
                        help="a board dies and its game moves to a spare table (round 1), "
                             "cut a table's power (round 2), restart the broker (round 3) and "
                             "the server (round 4)")
    parser.add_argument("--speed", type=ranged(float, 0, 10000), default=None, metavar="X",
                        help="simulated seconds per real second (default 20 with the pages, "
                             "0 = flat out with --json)")
    parser.add_argument("--port", type=ranged(int, 0, 65535), default=DEFAULT_PORT,
                        help="the live pages' port (default %d; 0 any free)" % DEFAULT_PORT)
    parser.add_argument("--no-browser", action="store_true", help="do not open the page")
    parser.add_argument("--dir", default=None, metavar="DIR",
                        help="where the event's files go (default a temporary folder, removed "
                             "at the end)")
    parser.add_argument("--json", action="store_true",
                        help='no pages; print {"games", "results_recorded", "standings", ...}')
    parser.add_argument("--timeout", type=ranged(float, 1, 86400), default=3600,
                        help="give up after this many seconds (default 3600)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.rules import Rules
    from controller.tournament.broker import BrokerError
    from simulator.tournament import (VARIANT, DemoEvent, FaultPlan, reference_standings, remove,
                                            temporary_directory)

    if args.system == "round-robin" and args.rounds > 2 * args.tables - 1:
        raise UsageError("--rounds %d: a round robin of %d players has %d rounds" % (
            args.rounds, 2 * args.tables, 2 * args.tables - 1))
    options = parse_options(args.option) or None
    Rules(VARIANT, options)                     # bad options: one line, before the event
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    # every board's guide logs the players' steps; at dozens of tables only errors matter
    logging.getLogger("layli").setLevel(logging.ERROR)
    if not args.json:
        logging.getLogger("controller.tournament").setLevel(logging.INFO)
    speed = args.speed if args.speed is not None else (0.0 if args.json else 20.0)
    directory = Path(args.dir) if args.dir else temporary_directory()
    if args.dir and (directory / "event.sqlite").exists():
        raise UsageError("--dir %s holds an event already: give an empty folder" % directory)
    pages = None if args.json else _Pages(args.port, not args.no_browser)
    try:
        event = DemoEvent(directory, args.tables, args.rounds, broker=args.broker,
                          system=args.system, speed=speed, match_format=args.format,
                          options=options,
                          faults=FaultPlan(table_dies_round=1) if args.faults else None,
                          on_server=pages.serve if pages else None, tls=args.tls,
                          attacks=args.attacks)
        start = time.monotonic()
        try:
            summary = event.run(timeout=args.timeout)
        except BrokerError as error:
            raise UsageError(str(error))
        summary["seconds"] = round(time.monotonic() - start, 1)
        summary["standings_equal_reference"] = summary["standings"] == reference_standings(
            args.tables, args.rounds, system=args.system, match_format=args.format,
            options=options)
        if args.json:
            print(json.dumps(summary))
        else:
            _print_summary(summary)
            if pages is not None and pages.url:
                print("the live pages stay up at %s until Ctrl-C" % pages.url, flush=True)
                until_stopped()
    finally:
        if pages is not None:
            pages.stop()
        if not args.dir:
            remove(directory)
    return 0 if summary["results_recorded"] == summary["games"] else 1


class _Pages:
    """The live pages, served again for each server the demo starts (a server restart)."""

    def __init__(self, port: int, open_browser: bool) -> None:
        self.port = port
        self.open_browser = open_browser
        self.url: str | None = None
        self._running = None

    def serve(self, server) -> None:
        from controller.tournament.web import create_app
        from controller.web import PortTaken, start_in_thread

        self.stop()
        try:
            url, instance, thread = start_in_thread(create_app(server), self.port,
                                                    option="--port")
        except PortTaken as error:
            raise UsageError(str(error))
        self._running = (instance, thread)
        if self.url is None:
            print("live pages: %s" % url, flush=True)
            if self.open_browser:
                webbrowser.open(url)
        self.url = url
        self.port = int(url.rstrip("/").rsplit(":", 1)[1])     # the same port after a restart

    def stop(self) -> None:
        if self._running is not None:
            instance, thread = self._running
            instance.should_exit = True
            thread.join(5)
            self._running = None


def _print_summary(summary: dict) -> None:
    print("%d games, %d results recorded (%d copies ignored, %d messages rejected) in %.1f s"
          % (summary["games"], summary["results_recorded"], summary["duplicates"],
             summary["rejected"], summary["seconds"]))
    if summary["faults"]:
        print("faults: %s" % ", ".join(summary["faults"]))
    if "attacks" in summary:
        print("attacks: %s" % "; ".join(summary["attacks"]))
        print("turned away: %s; rejected: %s; held for the arbiter: %s" % (
            ", ".join("%s %d" % item for item in sorted(summary["refused"].items())) or "none",
            ", ".join("%s %d" % item for item in sorted(
                summary["rejected_by_reason"].items())) or "none",
            ", ".join("%s (%s)" % (game, decision or "undecided")
                      for game, decision in summary["held"]) or "none"))
    print("standings %s the ones worked out on the rules engine alone" % (
        "equal" if summary["standings_equal_reference"] else "DIFFER FROM"))
    print("%4s  %-14s %6s %5s %9s %7s %6s" % ("rank", "player", "points", "games",
                                              "Buchholz", "S-B", "seeds"))
    for row in summary["standings"]:
        print("%4d  %-14s %6g %5d %9g %7g %+6d" % (
            row["rank"], row["name"], row["points"], row["games"], row["buchholz"],
            row["sonneborn_berger"], row["seed_difference"]))


if __name__ == "__main__":
    from controller.cli import main
    sys.exit(main(["tournament", "demo"] + sys.argv[1:]))
