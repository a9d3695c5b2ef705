"""`layli sim`: whole games on the simulated board, headless (host-only)."""

from __future__ import annotations

import argparse
import json

from controller.commands.common import parse_options, ranged
from controller.errors import UsageError
from controller.rules import VARIANTS, Rules
from simulator.run import board_profile, run as run_games

KEYS = ("games", "completed", "board_matches_engine", "mistakes_made", "mistakes_flagged",
        "false_alarms", "skip_aheads", "sim_seconds_per_game", "wall_seconds")
FAULT_KEYS = ("faults_injected", "faults_flagged")      # only with --faults
BROWSER_LEVEL = "medium"    # `--ui`'s computer unless another level is asked for: a fair
                            # opponent for someone trying the game for the first time
MATCH_KEYS = ("matches", "matches_completed", "hands", "board_matches_engine", "mistakes_made",
              "mistakes_flagged", "false_alarms", "skip_aheads", "sim_seconds_per_match",
              "wall_seconds")                          # with --match


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="layli-goobalay", choices=sorted(VARIANTS),
                        metavar="V", help="the variant (default layli-goobalay)")
    parser.add_argument("--games", type=ranged(int, 1, 100000), default=1, metavar="N",
                        help="how many games (with --match: matches) to play")
    parser.add_argument("--match", action="store_true",
                        help="play whole matches of hands, the players setting each next hand "
                             "up as the LEDs lead them (a variant played in hands, counting "
                             "sensing)")
    parser.add_argument("--mistakes", type=ranged(float, 0, 0.5), default=0.0, metavar="RATE",
                        help="the chance that a player's action is a mistake (e.g. 0.05)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="game k is played with seed S+k: runs repeat exactly")
    parser.add_argument("--sensing", choices=("counting", "activity"), default="counting",
                        help="load cells that count, or digital sensors that see activity")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a variant option (repeatable)")
    parser.add_argument("--faults", type=ranged(float, 0, 3600), default=0.0, metavar="PER_HOUR",
                        help="load cells break this often per simulated hour, each for 20-90 s "
                             "(counting sensing; adds faults_injected and faults_flagged)")
    parser.add_argument("--profile", metavar="PROFILE",
                        help="the board: a shipped profile or a .toml file (default: the shipped "
                             "pico-bridge board of the game's size, pi-direct with --sensing "
                             "activity); its seeds, and its load cells' sensitivity and noise")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--ui", action="store_true",
                        help="play on the virtual board in the browser instead (the variant "
                             "and --option apply; the page offers the rest)")
    parser.add_argument("--port", type=ranged(int, 1, 65535), default=8765, metavar="P",
                        help="with --ui: the port to serve on 127.0.0.1 (default 8765)")
    parser.add_argument("--no-browser", action="store_true",
                        help="with --ui: do not open the page, only print its address")
    parser.add_argument("--against", type=against, default=("computer", BROWSER_LEVEL),
                        metavar="WHO",
                        help="with --ui: computer[:LEVEL] (South is you, North the computer at "
                             "beginner, easy, medium, hard or strongest; default "
                             "computer:%s) or people (two people at one screen)"
                             % BROWSER_LEVEL)


def run(args: argparse.Namespace) -> int:
    options = parse_options(args.option) or None
    Rules(args.variant, options)                # bad options: one line, before any game
    if args.ui:
        return _serve(args, options)
    if args.faults and args.sensing != "counting":
        raise UsageError("--faults breaks load cells: it needs --sensing counting")
    if args.match:
        if not VARIANTS[args.variant].hands:
            raise UsageError("--match: %s is not played in hands (these are: %s)" % (
                args.variant, ", ".join(sorted(name for name, variant in VARIANTS.items()
                                               if variant.hands))))
        if args.sensing != "counting":
            raise UsageError("--match: the next hand is set up from the load cells' counts: "
                             "it needs --sensing counting")
    profile = board_profile(Rules(args.variant, options).n, args.sensing, args.profile)
    report = run_games(args.variant, args.games, args.mistakes, args.seed, args.sensing,
                       options, args.faults, args.match, profile)
    keys = MATCH_KEYS if args.match else KEYS
    if args.faults:
        keys += FAULT_KEYS
    if args.json:
        print(json.dumps({key: report[key] for key in keys}))
        return 0
    print("%s, %d %s, %s sensing on %s, mistake rate %g, seed %d" % (
        args.variant, args.games, "match(es)" if args.match else "game(s)", args.sensing,
        profile.name, args.mistakes, args.seed))
    for key in keys[1:]:
        print("  %-22s %s" % (key, report[key]))
    return 0


def against(text: str) -> tuple[str, str]:
    """`--against`: "people", "computer" or "computer:LEVEL" as (mode, level) of the browser's
    table; argparse's error (one line, exit 2) for anything else."""
    from controller.ai.search import LEVELS      # (the level names only, not the search)

    who, _, level = text.partition(":")
    if who == "people" and not level:
        return "people", BROWSER_LEVEL
    if who == "computer" and (not level or level in LEVELS):
        return "computer", level or BROWSER_LEVEL
    raise argparse.ArgumentTypeError(
        "%r: give people, or computer or computer:LEVEL with LEVEL one of %s"
        % (text, ", ".join(LEVELS)))


def _serve(args: argparse.Namespace, options: dict | None) -> int:
    from simulator.ui.server import PortTaken, serve     # the web stack only when asked for
    mode, level = args.against
    try:
        serve(args.variant, options, mode=mode, port=args.port,
              open_browser=not args.no_browser, seed=args.seed, level=level)
    except PortTaken as error:
        raise UsageError(str(error))
    except KeyboardInterrupt:
        pass
    return 0
