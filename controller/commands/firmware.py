"""`layli firmware`: the Pico's config.json made from a board profile, and the firmware put onto
a Pico (host-only).

    layli firmware config PROFILE [--variant V] [--option N=V] [-o config.json]
    layli firmware deploy config.json [--port DEVICE] [--calibration FILE] [--mpy]
                                      [--frozen | --config-only] [--dry-run]

`deploy` checks the config with the firmware's own checker, then copies the firmware that
ships inside layli (`controller/hardware/pico_firmware`: the firmware's modules and the portable
core) with mpremote (`pip install 'layli[deploy]'`), and restarts the Pico
(controller/hardware/deploy.py says each step). It exits with status 2 and one line when
something stops it, and nothing is copied when the config is wrong.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

from controller.errors import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    action = parser.prog.split()[-1]
    if action == "config":
        parser.add_argument("profile", metavar="PROFILE", help="a shipped name or a .toml file")
        parser.add_argument("--variant", default=None, metavar="V",
                            help="the game the board plays (standalone) or draws (bridge): "
                                 "one of the board's pits a row (default: the first that "
                                 "fits: 2 x 6 layli-goobalay, 2 x 7 mangala-iv, 2 x 12 "
                                 "layli-goobalay-long)")
        parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                            help="pico-standalone: an option of the game (repeatable)")
        parser.add_argument("-o", "--output", metavar="FILE",
                            help="write it here, not to stdout")
        return
    parser.add_argument("config", type=Path, metavar="CONFIG",
                        help="the board's config.json (layli firmware config makes it)")
    parser.add_argument("--port", metavar="DEVICE",
                        help="the Pico's serial device (default: the one mpremote finds)")
    parser.add_argument("--calibration", type=Path, metavar="FILE",
                        help="a calibration.json to copy too (layli calibrate makes one)")
    parser.add_argument("--mpy", action="store_true",
                        help="copy modules compiled with mpy-cross: smaller, quicker to start")
    parser.add_argument("--frozen", action="store_true",
                        help="the Pico runs layli's own MicroPython with the firmware frozen in "
                             "(firmware/tools/build_uf2.py): copy the config (and calibration) "
                             "only, and remove the modules an earlier deploy left, which would "
                             "run instead")
    parser.add_argument("--config-only", action="store_true",
                        help="the firmware is on the Pico already (an earlier deploy): copy "
                             "the config (and calibration) only, to change the board's mode, "
                             "game or calibration")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the commands, run nothing")


def run(args: argparse.Namespace) -> int:
    if args.firmware == "config":
        return _config(args)
    return _deploy(args)


def _config(args: argparse.Namespace) -> int:
    from controller.commands.common import parse_options
    from controller.commands.hardware import checked, write
    from controller.hardware.firmware import firmware_config

    config = firmware_config(checked(args.profile), args.variant,
                             parse_options(args.option) or None)
    return write(json.dumps(config, indent=2) + "\n", args.output)


def _deploy(args: argparse.Namespace) -> int:
    from controller.hardware import deploy

    if args.frozen and args.config_only:
        raise UsageError("--frozen and --config-only both copy the config only: give one")
    if args.calibration is not None and not args.calibration.is_file():
        raise UsageError("%s: no such calibration file" % args.calibration)
    try:
        with tempfile.TemporaryDirectory(prefix="layli-deploy-") as staging:
            steps = deploy.steps(args.config, args.port, args.calibration, args.mpy,
                                 args.frozen, Path(staging), dry_run=args.dry_run,
                                 config_only=args.config_only)
            if args.dry_run:
                for step in steps:
                    print(shlex.join(step))
                return 0
            print("deploy: if main.py runs the bridge or a watchdog, unplug the Pico and "
                  "hold CONFIRM while plugging it back in (safe mode) first", file=sys.stderr)
            deploy.run_steps(steps)
    except deploy.DeployError as error:
        raise UsageError(str(error))
    print("deployed onto the Pico%s; it restarts into main.py" % (
        " on %s" % args.port if args.port else ""))
    return 0
