"""The `layli` command line (host-only).

Each command lives in its own module with `configure(parser)` and `run(args) -> exit status`;
this file only wires them together and turns bad input into one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from controller.errors import UsageError
from controller.rules import RulesError

# (words, module, help): the module provides configure(parser) and run(args).
COMMANDS = [
    (("rules", "replay"), "controller.commands.replay",
     "replay one game and print every position as JSON (docs/rules.md section 8)"),
    (("rules", "variants"), "controller.commands.variants",
     "list the variants and their options, with sources"),
    (("rules", "check"), "controller.commands.check",
     "read a game record (text or JSON), replay and check every move"),
    (("bench", "rules"), "controller.commands.bench_rules",
     "measure the rules engine (playouts/s, moves/s, MicroPython heap)"),
    (("play",), "controller.commands.play", "play a game in the terminal"),
    (("bench", "guide"), "controller.commands.bench_guide",
     "what one sensor frame costs: sensing and the guide, on CPython and MicroPython"),
    (("bench", "ai"), "controller.commands.bench_ai",
     "the strongest level against random, greedy and OpenSpiel's MCTS: wins, draws, losses"),
    (("bench", "tournament"), "controller.commands.bench_tournament",
     "64 tables' moves to the live pages: the delay's p50, p90, p99 and max, against 250 ms"),
    (("sim",), "simulator.cli",
     "play on the virtual board in the browser (--ui), or whole simulated games (headless)"),
    (("run",), "controller.commands.run",
     "run the controller on a board (a Pi with a Pico, a Pi alone) or on the simulator"),
    (("calibrate",), "controller.commands.calibrate",
     "weigh a Pico board's load cells, step by step, and keep the calibration"),
    (("tournament", "create"), "controller.commands.tournament_event",
     "make an event's folder: database, players, tables, broker users and access rules, arbiter"),
    (("tournament", "register"), "controller.commands.tournament_event",
     "register a player (a late entry in a Swiss event once round 1 is paired)"),
    (("tournament", "withdraw"), "controller.commands.tournament_event",
     "withdraw a player from the next round on (their games stay)"),
    (("tournament", "serve"), "controller.commands.tournament_event",
     "run an event: broker, server, live pages and arbiter pages, until Ctrl-C"),
    (("tournament", "demo"), "controller.commands.tournament_demo",
     "a whole simulated event on this computer: broker, server, live pages, simulated tables"),
    (("hardware",), "controller.commands.hardware",
     "board profiles: list, check (with the power budget), wiring diagram, bill of materials"),
    (("firmware", "config"), "controller.commands.firmware",
     "the Pico firmware's config.json for a board profile"),
    (("firmware", "deploy"), "controller.commands.firmware",
     "copy the firmware and a config onto a Pico (mpremote), and restart it"),
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit status 2, as argparse does
        self.exit(2, "%s: error: %s\n" % (self.prog, message))


def chosen(argv: list[str]) -> tuple[str, ...] | None:
    """The words of the command `argv` names (its first words, before any option), or None
    when it names none (`layli`, `layli --help`, `layli rules`, a misspelt command)."""
    for words, _, _ in COMMANDS:
        if tuple(argv[:len(words)]) == words:
            return words
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line: every command's name and help, and the options of the command
    `argv` names (all of them when `argv` is None). A command's module is imported only to
    configure its own options, so `layli rules variants` loads no web or tournament stack."""
    parser = _Parser(prog="layli", description="Controller of an LED-guided mancala board.")
    wanted = None if argv is None else chosen(argv)
    groups: dict[tuple[str, ...], argparse._SubParsersAction] = {}
    top = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    top.required = True
    groups[()] = top
    for words, module, help_text in COMMANDS:
        for depth in range(1, len(words)):
            prefix = words[:depth]
            if prefix not in groups:
                group_parser = groups[prefix[:-1]].add_parser(
                    prefix[-1], help="%s commands" % prefix[-1])
                sub = group_parser.add_subparsers(dest="_".join(prefix), metavar="COMMAND",
                                                  parser_class=_Parser)
                sub.required = True
                groups[prefix] = sub
        command = groups[words[:-1]].add_parser(words[-1], help=help_text,
                                                description=help_text)
        command.set_defaults(_module=module)
        if argv is None or words == wanted:
            importlib.import_module(module).configure(command)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args, extra = parser.parse_known_args(argv)
    # moves may follow options (`replay V --setup ... 3 5`): argparse leaves them over
    if extra and isinstance(getattr(args, "moves", None), list) and not [
            word for word in extra if word.startswith("-")]:
        args.moves.extend(extra)
    elif extra:
        parser.error("unrecognized arguments: %s" % " ".join(extra))
    try:
        return importlib.import_module(args._module).run(args)
    except (RulesError, UsageError) as error:
        sys.stdout.flush()
        print("layli: error: %s" % error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
