"""`layli rules check FILE`: read a game record (text or JSON), replay every move, report."""

from __future__ import annotations

import argparse
import json
import sys

from controller.errors import UsageError
from controller.rules import Match
from controller.rules.record import read_all, read_json, result_text


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="FILE",
                        help="a PGN-style text record or a JSON record ('-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _load(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise UsageError("cannot read %s: %s" % (path, error.strerror or error))
    except UnicodeDecodeError as error:
        raise UsageError("%s is not UTF-8 text (byte %d)" % (path, error.start))


def summarise(text: str) -> list[dict]:
    """One entry per game or match hand: variant, moves, result, score, end reason."""
    records = [read_json(text)] if text.lstrip().startswith("{") else read_all(text)
    out = []
    for item, _tags in records:
        games = item.games if isinstance(item, Match) else [item]
        for hand, game in enumerate(games, 1):
            out.append({
                "hand": hand if isinstance(item, Match) else None,
                "variant": game.rules.name, "moves": len(game.moves),
                "result": result_text(game), "scores": game.scores,
                "termination": game.end_reason,
            })
    return out


def run(args: argparse.Namespace) -> int:
    games = summarise(_load(args.record))
    if args.json:
        print(json.dumps({"games": games}))
        return 0
    for entry in games:
        where = "hand %d" % entry["hand"] if entry["hand"] else "game"
        score = "%d-%d" % tuple(entry["scores"]) if entry["scores"] else "not over"
        print("%s: %s, %d moves, %s (%s)%s" % (
            where, entry["variant"], entry["moves"], entry["result"], score,
            ", " + entry["termination"] if entry["termination"] else ""))
    print("ok: every move checked")
    return 0
