"""`layli rules variants`: every variant and option, with defaults and sources."""

from __future__ import annotations

import argparse
import json

from controller.rules import VARIANTS
from controller.rules.variants import format_value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def describe() -> dict:
    """Variants and options as plain data (what --json prints)."""
    out = {}
    for name in sorted(VARIANTS):
        variant = VARIANTS[name]
        options = {}
        for option in sorted(variant.options):
            kind, default, allowed, what, source = variant.options[option]
            entry = {"kind": kind, "default": default, "what": what, "source": source}
            if kind == "choice":
                entry["choices"] = list(allowed)
            elif kind == "setup":
                entry["choices"] = list(allowed) + ["%d counts A,B,..." % (2 * variant.pits)]
            elif kind == "int":
                entry["range"] = list(allowed)
            options[option] = entry
        out[name] = {
            "title": variant.title, "pits_per_row": variant.pits,
            "seeds_per_pit": variant.seeds,
            "direction": "counterclockwise" if variant.direction == 1 else "clockwise",
            "hands": variant.hands, "sources": variant.sources, "options": options,
        }
    return out


def run(args: argparse.Namespace) -> int:
    data = describe()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    for name, variant in data.items():
        print("%s — %s" % (name, variant["title"]))
        print("  2 x %d pits, %d seeds per pit, %s%s" % (
            variant["pits_per_row"], variant["seeds_per_pit"], variant["direction"],
            ", match play in hands" if variant["hands"] else ""))
        print("  sources: %s" % variant["sources"])
        for option, spec in variant["options"].items():
            if spec["kind"] in ("choice", "setup"):
                values = "|".join(spec["choices"])
            elif spec["kind"] == "int":
                values = "%d..%d" % tuple(spec["range"])
            else:
                values = "true|false"
            print("  --option %s=%s (default %s)" % (option, values, format_value(spec["default"])))
            print("      %s [%s]" % (spec["what"], spec["source"]))
        print()
    return 0
