"""`layli rules replay`: one game, every position as a line of JSON (docs/rules.md section 8)."""

from __future__ import annotations

import argparse
import json
import sys

from controller.commands.common import add_game_arguments, game_arguments
from controller.rules.replay import replay


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", metavar="VARIANT", help="e.g. layli-goobalay")
    add_game_arguments(parser)
    parser.add_argument("--to-end", action="store_true",
                        help="then play the forced moves until the game is over (Mangala IV)")
    parser.add_argument("--micropython", action="store_true",
                        help="run the same replay inside MicroPython (node + the npm package)")
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="own pit numbers, in order")


def run(args: argparse.Namespace) -> int:
    rules, setup = game_arguments(args, args.variant)
    if args.micropython:
        return _run_micropython(args, rules, setup)

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")

    replay(rules, None, setup, args.first, args.moves, args.to_end, write)
    return 0


def _run_micropython(args: argparse.Namespace, rules, setup) -> int:
    from controller import micropython

    call = json.dumps([rules.name, rules.options, setup, args.first, args.moves, args.to_end])
    script = (
        "import sys, json\n"
        "from controller.rules import RulesError\n"
        "from controller.rules.replay import replay\n"
        "a = json.loads(%r)\n"
        "try:\n"
        "    replay(a[0], a[1], a[2], a[3], a[4], a[5], print)\n"
        "except RulesError as error:\n"
        "    print('layli: error: %%s' %% error, file=sys.stderr)\n"
        "    raise SystemExit(2)\n" % call)
    result = micropython.run(script)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    return result.returncode
