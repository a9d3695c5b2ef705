"""`layli hardware`: the shipped board profiles, their check and power budget, wiring diagrams
and bills of materials (host-only).

    layli hardware list [--json]
    layli hardware check PROFILE [--json]       # PROFILE: a shipped name or a .toml path
                                                # (its power and noise budgets)
    layli hardware wiring PROFILE [-o FILE.svg]
    layli hardware bom PROFILE [--json]               # with estimated prices and the total
    layli hardware drawing PROFILE -o FILE.svg|FILE.dxf [--part top|top-N|mount|walls]
    layli hardware model PROFILE [-o FILE.scad]       # the OpenSCAD model's parameters
    layli hardware schematic PROFILE [-o FILE.kicad_sch|FILE.svg|FILE.pdf]
    layli hardware harness PROFILE [--json|--csv]     # every wire: from, to, colour, gauge, length
    layli hardware test --profile PROFILE [--port DEVICE] [--config FILE]   # bring-up

A broken profile prints one line per problem (file, key, what is wrong) and exits with status 2;
so does a board where a place cannot count its seeds (one line per place, with the numbers:
controller/hardware/noise.py).
`test` exits with 0 when every place, cell, button and the buzzer answered, 1 when something
needs fixing (controller/hardware/bringup.py).
"""

from __future__ import annotations

import argparse
import json
import sys

from controller.errors import UsageError
from controller.hardware.boards import BOARDS, board_of
from controller.hardware.bom import bill, total_usd
from controller.hardware.noise import GAIN, NoiseBudget, PlaceBudget, noise_budget
from controller.hardware.problems import ProfileError
from controller.hardware.profile import Budget, Profile, budget, check, load, shipped
from controller.hardware.wiring import svg
from controller.sensing.calibration import MIN_SEED_NOISE


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    listing = actions.add_parser("list", help="the shipped board profiles")
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    checking = actions.add_parser("check", help="validate a profile and print its power and "
                                  "noise budgets")
    checking.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
    checking.add_argument("--json", action="store_true", help="print one JSON object")
    wiring = actions.add_parser("wiring", help="the wiring diagram of a profile, as SVG")
    wiring.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
    wiring.add_argument("-o", "--output", metavar="FILE.svg", help="write it here, not to stdout")
    parts = actions.add_parser("bom", help="the bill of materials of a profile")
    parts.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
    parts.add_argument("--json", action="store_true", help="print one JSON object")
    drawing = actions.add_parser("drawing", help="the top plate and the load-cell mounts, "
                                 "in mm, as SVG or DXF (for a laser cutter)")
    drawing.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
    drawing.add_argument("-o", "--output", metavar="FILE", required=True,
                         help="FILE.svg or FILE.dxf (DXF needs the ezdxf package)")
    drawing.add_argument("--part", metavar="top|top-N|mount|walls",
                         help="only the top plate (every part as they join), only its part N "
                              "(top-1 at the west end: one laser job), only the load-cell "
                              "mounts, or only the walls (default: the plate and the mounts)")
    model = actions.add_parser("model", help="the board's parameters for its OpenSCAD model "
                               "(hardware/board.scad, hardware/cup.scad), and its checks")
    model.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
    model.add_argument("-o", "--output", metavar="FILE.scad",
                       help="write it here (hardware/board-params.scad is what the models "
                            "include), not to stdout")
    schematic = actions.add_parser("schematic", help="the schematic of a profile: KiCad 6 "
                                   "(.kicad_sch), SVG or PDF")
    schematic.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
    schematic.add_argument("-o", "--output", metavar="FILE",
                           help="FILE.kicad_sch, FILE.svg or FILE.pdf (default: the KiCad "
                                "file to stdout)")
    wires = actions.add_parser("harness", help="every wire of a profile's board: from, to, "
                               "colour, gauge, length")
    wires.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
    wires.add_argument("--json", action="store_true", help="print one JSON object")
    wires.add_argument("--csv", action="store_true", help="print CSV, one wire a row")
    testing = actions.add_parser("test", help="the bring-up test of a board just built: each "
                                 "place's sensor, the load cells' rates, the buttons, the "
                                 "buzzer")
    testing.add_argument("--profile", metavar="PROFILE",
                         help="a shipped name or a .toml file (or profile = in --config)")
    testing.add_argument("--port", metavar="DEVICE",
                         help="the Pico's serial device (default: the config's port, or the "
                              "one Pico on USB)")
    testing.add_argument("--config", metavar="FILE", help="a TOML config file, as layli run's")


def run(args: argparse.Namespace) -> int:
    try:
        return ACTIONS[args.action](args)
    except ProfileError as error:
        if getattr(args, "json", False):
            print(json.dumps({"profile": getattr(args, "profile", None), "ok": False,
                              "problems": [p._asdict() for p in error.problems]}))
        sys.stdout.flush()
        for problem in error.problems:
            print("layli: error: " + str(problem), file=sys.stderr)
        return 2


def checked(name_or_path: str) -> Profile:
    """The profile, loaded and checked: a ProfileError with every problem otherwise."""
    profile = load(name_or_path)
    problems = check(profile)
    if problems:
        raise ProfileError(problems)
    return profile


def _list(args: argparse.Namespace) -> int:
    rows = []
    for name in shipped():
        profile = load(name)
        rows.append({"name": name, "profile": profile.kind, "pits": profile.pits,
                     "leds": profile.leds.length, "sensing": profile.sensors.kind,
                     "pins": len(profile.pins()), "title": profile.title})
    if args.json:
        print(json.dumps({"profiles": rows}))
        return 0
    print("%-22s %-16s %5s %5s %-10s %s" % ("profile", "kind", "board", "LEDs", "sensing",
                                          "title"))
    for row in rows:
        print("%-22s %-16s %5s %5d %-10s %s" % (row["name"], row["profile"],
                                               "2x%d" % row["pits"], row["leds"],
                                               row["sensing"], row["title"]))
    return 0


def _check(args: argparse.Namespace) -> int:
    profile = load(args.profile)
    problems = check(profile)
    seeds = noise_budget(profile)
    if problems:
        if not args.json:
            raise ProfileError(problems)
        # the figures too: a board refused for its seeds shows what its places can count
        print(json.dumps({"profile": profile.name, "ok": False,
                          "problems": [p._asdict() for p in problems],
                          "noise_budget": seeds.as_dict()}))
        sys.stdout.flush()
        for problem in problems:
            print("layli: error: " + str(problem), file=sys.stderr)
        return 2
    figures = budget(profile)
    pins = {key: sum(1 for pin in profile.pins() if board_of(pin) is BOARDS[key])
            for key in profile.boards}
    if args.json:
        print(json.dumps({"profile": profile.name, "ok": True, "problems": [],
                          "path": profile.label, "kind": profile.kind,
                          "pins": {key: {"used": used, "of": len(BOARDS[key].usable)}
                                   for key, used in pins.items()},
                          "budget": figures.as_dict(), "noise_budget": seeds.as_dict()}))
        return 0
    print("%s: ok (%s)" % (profile.name, profile.label))
    print("  %s" % profile.title)
    print("  pins: %s" % ", ".join("%s %d of %d" % (BOARDS[key].title, used,
                                                     len(BOARDS[key].usable))
                                   for key, used in pins.items()))
    print()
    print(budget_text(figures))
    print()
    print(noise_text(seeds))
    return 0


def noise_text(figures: NoiseBudget) -> str:
    """The noise budget as a table a maker reads: the places with the same cell and the same
    count to make are one row."""
    seed = figures.seed
    head = "noise budget: %s, %g g, mass spread %g%%" % (seed.key, seed.mass_g,
                                                          100 * seed.mass_cv)
    if not figures.places:
        return head + ": digital sensors see a hand, not its weight: nothing to count by weight"
    out = [head, "  HX711 at gain %d, %d samples/s; a place tells N seeds from N +- 1 while one "
           "seed is %d standard" % (GAIN, figures.rate_sps, MIN_SEED_NOISE),
           "  deviations of the noise and the seeds' spread at N (`largest`); it must count "
           "`needs` and carry them",
           "  %-22s %-14s %-20s %-17s %6s %8s %6s %s" % (
               "places", "cell", "one seed", "noise (rms)", "sigma", "largest", "needs",
               "load / rating")]
    groups: dict[PlaceBudget, tuple[list[str], PlaceBudget]] = {}
    for place in figures.places:          # the same figures but for place and label: one row
        figures_only = place._replace(place=0, label="")
        groups.setdefault(figures_only, ([], place))[0].append(place.label)
    for labels, place in groups.values():
        out.append("  %-22s %-14s %8.2f uV %6.0f ct %6.0f nV %5.0f ct %6.1f %8s %6d %5.0f / %d g"
                   % (_places(labels), place.cell, place.seed_uv, place.seed_counts,
                      place.noise_nv, place.noise_counts, place.sigmas,
                      place.largest if place.largest >= 0 else "none", place.needed,
                      place.load_g, place.capacity_g))
    return "\n".join(out)


def _places(labels: list[str]) -> str:
    """`S1-S6, N1-N6` for a board's pits, the labels themselves otherwise."""
    if len(labels) > 2 and all(label[1:].isdigit() for label in labels):
        rows = [[l for l in labels if l[0] == side] for side in "SN"]
        return ", ".join("%s-%s" % (row[0], row[-1]) for row in rows if row)
    return ", ".join(labels)


def budget_text(figures: Budget) -> str:
    """The power budget as a table a maker reads."""
    rows = [
        ("LED strip: %d LEDs at full white (60 mA each)" % figures.leds,
         figures.full_white_ma, "not reachable: capped below"),
        ("  at the brightness cap, %d/256" % figures.brightness, figures.at_brightness_ma, ""),
        ("  after the strip's current cap of %d mA" % figures.strip_max_ma, figures.strip_ma,
         "counted"),
        ("  the LEDs' own draw, dark", figures.idle_ma, "counted"),
    ]
    for share in figures.loads:
        rows.append(("%s, %d x %d mA" % (share.what, share.count, share.ma_each), share.ma,
                     "from " + share.rail))
    out = ["power budget, worst case (mA)"]
    out += ["  %-58s %7d  %s" % row for row in rows]
    used = 100 * figures.total_ma // figures.supply_ma
    out.append("  %-58s %7d" % ("total", figures.total_ma))
    out.append("  %-58s %7d  headroom %d mA (%d%% used)" % (
        "supply: %s %s" % (figures.supply.maker, figures.supply.number), figures.supply_ma,
        figures.headroom_ma, used))
    for board, drawn, limit in figures.rails:
        out.append("  %-58s %7d  of %d mA" % ("%s 3V3 pin" % BOARDS[board].title, drawn, limit))
    return "\n".join(out)


def _wiring(args: argparse.Namespace) -> int:
    return write(svg(checked(args.profile)), args.output)


def _drawing(args: argparse.Namespace) -> int:
    from controller.hardware import drawing

    drawing.write(drawing.drawing(checked(args.profile), args.part), args.output)
    print("wrote %s" % args.output)
    return 0


def _model(args: argparse.Namespace) -> int:
    from controller.hardware import model

    return write(model.parameters(checked(args.profile)), args.output)


def write(text: str, output: str | None) -> int:
    """`text` to stdout, or to the file `output`."""
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise UsageError("cannot write %s: %s" % (output, error.strerror or error))
    print("wrote %s" % output)
    return 0


def _bom(args: argparse.Namespace) -> int:
    profile = checked(args.profile)
    lines = bill(profile)
    total = total_usd(lines)
    unpriced = sum(1 for line in lines if not line.part.price_usd)
    note = PRICES_NOTE + ("; %d line%s not priced (no seller's listing found: ask a local "
                          "shop), not in the total" % (unpriced, "s" if unpriced > 1 else "")
                          if unpriced else "")
    if args.json:
        print(json.dumps({"profile": profile.name, "parts": [line.as_dict() for line in lines],
                          "total_usd": round(total, 2), "unpriced_lines": unpriced,
                          "prices": note}))
        return 0
    print("bill of materials: %s (%s)" % (profile.name, profile.title))
    print("%4s  %-18s %-16s %9s  %s" % ("qty", "maker", "number", "US$", "part (for)"))
    for line in lines:
        order = " [order %d pack%s of %d]" % (line.packs, "s" if line.packs > 1 else "",
                                               line.part.pack) if line.part.pack > 1 else ""
        price = "%9.2f" % line.price_usd if line.part.price_usd else "%9s" % "-"
        print("%4d  %-18s %-16s %s  %s (%s)%s" % (
            line.quantity, line.part.maker, line.part.number, price, line.part.name,
            line.what, order))
    print("%4s  %-18s %-16s %9.2f  %s" % ("", "", "total", total, note))
    return 0


PRICES_NOTE = ("estimates: single-unit list prices in US dollars from the makers' and "
               "distributors' pages (hardware/parts.toml gives each one's source and date), "
               "without shipping, tax or duty")


def _test(args: argparse.Namespace) -> int:
    from controller.commands.run import read_config
    from controller.hardware.bringup import command

    config = read_config(args.config) if args.config else {}
    name = args.profile or config.get("profile")
    if not name:
        raise UsageError("no board profile: give --profile NAME (layli hardware list shows "
                         "them)")
    args.profile = name
    return command(checked(name), args.port or config.get("port"))


def _schematic(args: argparse.Namespace) -> int:
    from controller.hardware import schematic

    profile = checked(args.profile)
    output = args.output
    if output is None or output.endswith(".kicad_sch"):
        return write(schematic.kicad(profile), output)
    if output.endswith(".svg"):
        return write(schematic.svg(profile), output)
    if output.endswith(".pdf"):
        try:
            data = schematic.pdf(profile)
        except (ImportError, OSError) as error:
            raise UsageError("a PDF needs cairosvg and the cairo library (pip install cairosvg): "
                             "%s; or write FILE.svg and print that" % error)
        try:
            with open(output, "wb") as handle:
                handle.write(data)
        except OSError as error:
            raise UsageError("cannot write %s: %s" % (output, error.strerror or error))
        print("wrote %s" % output)
        return 0
    raise UsageError("%s: write FILE.kicad_sch, FILE.svg or FILE.pdf" % output)


def _harness(args: argparse.Namespace) -> int:
    import csv

    from controller.hardware.harness import CSV_FIELDS, harness, table

    profile = checked(args.profile)
    rows = harness(profile)
    if args.json:
        print(json.dumps({"profile": profile.name, "wires": [r.as_dict() for r in rows]}))
    elif args.csv:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(CSV_FIELDS)
        out.writerows(rows)
    else:
        print("harness: %s (%s)" % (profile.name, profile.title))
        sys.stdout.write(table(rows))
    return 0


ACTIONS = {"list": _list, "check": _check, "wiring": _wiring, "bom": _bom,
           "schematic": _schematic, "harness": _harness,
           "drawing": _drawing, "model": _model, "test": _test}
