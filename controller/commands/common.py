"""Argument helpers and the wait for a stop shared by the commands (host-only)."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from controller.rules import Rules, RulesError, deal_random_setup
from controller.rules.variants import parse_number, parse_option_text


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """--setup, --first and --option, as docs/rules.md section 8 names them."""
    parser.add_argument("--setup", metavar="A,B,...",
                        help="the starting counts, 2n comma-separated numbers in pit order")
    parser.add_argument("--first", type=int, choices=(0, 1), default=None,
                        help="who moves first: 0 South (default), 1 North")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a variant option (repeatable), e.g. endless_bound=500")


def parse_options(texts: list[str]) -> dict[str, str]:
    """`NAME=VALUE` texts as a dict; a name given twice is an error."""
    options: dict[str, str] = {}
    for text in texts:
        name, value = parse_option_text(text, "--option")
        if name in options:
            raise RulesError("--option %s given twice" % name)
        options[name] = value
    return options


def parse_setup(text: str | None) -> list[int] | None:
    """`--setup a,b,...` as a list of ints (the engine checks length and signs)."""
    if text is None:
        return None
    return [parse_number(item, "--setup count %d" % k)
            for k, item in enumerate(text.split(","), 1)]


def game_arguments(args: argparse.Namespace, variant: str) -> tuple[Rules, list[int] | None]:
    """The rules and the explicit set-up for a new game. Mangala IV's random set-up is dealt
    here, on the host, so that everything after it (MicroPython included) sees counts."""
    options = parse_options(args.option)
    if args.first is not None and "first" in options and options["first"] != str(args.first):
        raise RulesError("--first %d disagrees with --option first=%s" % (
            args.first, options["first"]))
    rules = Rules(variant, options)
    setup = parse_setup(args.setup)
    if setup is None and rules.options.get("setup") == "random":
        setup = deal_random_setup(rules, seed=random.SystemRandom().getrandbits(32))
    if setup is not None:
        setup = rules.check_setup(setup)
    return rules, setup


def ranged(kind: type, low: float, high: float, low_open: bool = False):
    """An argparse type: a number of `kind` (int or float) from `low` to `high` (above `low`
    when `low_open`), with a one-line message that says what was wrong."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a %s" % (
                text, "whole number" if kind is int else "number")) from None
        if value > high or value < low or (low_open and value == low):
            raise argparse.ArgumentTypeError("must be %s %s and at most %s, not %s" % (
                "more than" if low_open else "at least", low, high, text))
        return value
    return parse


@contextmanager
def stop_signals(stop: list[str]) -> Iterator[None]:
    """Within it, Ctrl-C (SIGINT) and SIGTERM (systemd's stop) append "Ctrl-C" or "SIGTERM" to
    `stop` instead of ending the process; the handlers before are put back after. Both are
    caught here, so a process started with SIGINT ignored (a shell's background job, say)
    still stops at Ctrl-C."""
    import signal

    before = {signum: signal.signal(signum, lambda *_, words=words: stop.append(words))
              for signum, words in ((signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "SIGTERM"))}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def until_stopped(every: Callable[[], object] | None = None, seconds: float = 1.0) -> str:
    """Wait for Ctrl-C or SIGTERM (`stop_signals`), calling `every()` each `seconds`
    meanwhile (a watch over a child process, say); which signal came, in words."""
    import time

    stop: list[str] = []
    due = time.monotonic() + seconds
    with stop_signals(stop):
        while not stop:
            time.sleep(0.2)
            if every is not None and time.monotonic() >= due:
                every()
                due = time.monotonic() + seconds
    return stop[0]
