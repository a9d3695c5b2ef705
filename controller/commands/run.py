"""`layli run`: the controller on a real board, or on the simulator (host-only).

    layli run --profile pico-bridge-2x6 --port /dev/ttyACM0
    layli run --profile pi-direct-2x6
    layli run --profile pico-bridge-2x6 --simulate          # no hardware: virtual players
    layli run --config /etc/layli/layli.toml                # the same, from a file
    layli run ... --ui [--ui-port 8766] [--ui-host 0.0.0.0] # and the table companion page

A config file (TOML) holds what the command line would; the command line wins. Keys:

    profile = "pico-bridge-2x6"      # a shipped profile's name, or a path to one
    port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c-if00"
    variant = "layli-goobalay"
    state = "/var/lib/layli"         # journal, calibration, records of finished games
    log_level = "info"               # debug, info, warning, error
    players = ["Amina", "Yusuf"]     # South's and North's names (the log, the companion page)
    [options]                        # variant options, as --option NAME=VALUE
    endless_bound = 500
    [tournament]                     # a table of an event: `layli tournament create` writes
    broker = "mqtt://arbiter.local:1883"      # these lines for each table (docs/tournament.md)
    table = "table-3"
    password = "..."

The journal (`STATE/journal.jsonl`) is written after every step, so a board that loses power
resumes the same move at the same step. `--ui` serves the table companion page (players,
captured seeds and scores, whose turn, the moves, the hint, a match's set-up between hands,
sensor faults, recent events) beside the board's loop, for a screen or a tablet next to the
board; with `--simulate` the simulated game is then played at the pace of real time
(`--speed`) and the page stays up after it, until Ctrl-C. Counting boards need
`STATE/calibration.json` (see hardware/README.md, "Calibration").
"""

from __future__ import annotations

import argparse
import logging
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from controller.commands.common import parse_options, stop_signals, until_stopped
from controller.errors import UsageError
from controller.guide import OVER
from controller.rules import VARIANTS, Rules

CONFIG_KEYS = {"profile": str, "port": str, "variant": str, "state": str, "log_level": str,
               "options": dict, "players": list, "tournament": dict}
TOURNAMENT_KEYS = ("broker", "table", "password")   # `layli tournament create` writes them
TOURNAMENT_OPTIONAL = ("ca",)           # ... and with an mqtts:// broker, the event's authority
LOG_LEVELS = ("debug", "info", "warning", "error")
DEFAULT_STATE = "~/.local/state/layli"
DEFAULT_PLAYERS = ("South", "North")
DEFAULT_UI_PORT = 8766


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", metavar="PROFILE",
                        help="the board profile: a name (layli hardware list) or a TOML path")
    parser.add_argument("--port", metavar="DEVICE",
                        help="the Pico's serial device (pico-bridge), e.g. /dev/ttyACM0")
    parser.add_argument("--simulate", action="store_true",
                        help="no hardware: the simulator's board and virtual players")
    parser.add_argument("--config", metavar="FILE", help="a TOML config file (see the docs)")
    parser.add_argument("--variant", choices=sorted(VARIANTS), metavar="V")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--state", metavar="DIR",
                        help="where the journal, calibration and records live (default %s)"
                             % DEFAULT_STATE)
    parser.add_argument("--log-level", choices=LOG_LEVELS)
    parser.add_argument("--seed", type=int, default=0, help="--simulate: the players' seed")
    parser.add_argument("--mistakes", type=float, default=0.0,
                        help="--simulate: the players' mistake rate")
    parser.add_argument("--ui", action="store_true",
                        help="serve the table companion page beside the board's loop")
    parser.add_argument("--ui-port", type=int, default=DEFAULT_UI_PORT, metavar="P",
                        help="--ui: its port (default %d; 0: any free one)" % DEFAULT_UI_PORT)
    parser.add_argument("--ui-host", default="127.0.0.1", metavar="ADDRESS",
                        help="--ui: the address served (0.0.0.0: also to a tablet on this "
                             "network; default 127.0.0.1, this computer only)")
    parser.add_argument("--speed", type=float, default=1.0, metavar="X",
                        help="--simulate --ui: simulated seconds per real second (0: no "
                             "pause; default 1)")


def read_config(path: str) -> dict[str, Any]:
    """The config file's settings, every key and type checked."""
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise UsageError("config %s: cannot read it: %s" % (path, error.strerror or error))
    except tomllib.TOMLDecodeError as error:
        raise UsageError("config %s: not valid TOML: %s" % (path, error))
    for key, value in data.items():
        kind = CONFIG_KEYS.get(key)
        if kind is None:
            raise UsageError("config %s: unknown key %r (known: %s)" % (
                path, key, ", ".join(sorted(CONFIG_KEYS))))
        if not isinstance(value, kind):
            raise UsageError("config %s: %s must be a %s, not %r" % (
                path, key, {dict: "table", list: "list"}.get(kind, "string"), value))
    players = data.get("players")
    if players is not None and (len(players) != 2 or not all(
            isinstance(name, str) and name.strip() for name in players)):
        raise UsageError("config %s: players must be two names, South's then North's, "
                         "not %r" % (path, players))
    if "log_level" in data and data["log_level"] not in LOG_LEVELS:
        raise UsageError("config %s: log_level %r is not one of %s" % (
            path, data["log_level"], ", ".join(LOG_LEVELS)))
    if "tournament" in data:
        check_tournament(data["tournament"], "config %s: [tournament]" % path)
        mode = os.stat(path).st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):    # it holds the table's broker password
            raise UsageError("config %s holds this table's tournament password and others may "
                             "read it (mode %03o); chmod 600 it" % (path, stat.S_IMODE(mode)))
    if "variant" in data and data["variant"] not in VARIANTS:
        raise UsageError("config %s: variant %r is not one of %s" % (
            path, data["variant"], ", ".join(sorted(VARIANTS))))
    return data


def check_tournament(table: dict, where: str) -> None:
    """A config's [tournament] table: the broker's mqtt:// or mqtts:// address, the table id
    and its password, and with mqtts:// the event's certificate authority (``ca``, PEM), as
    `layli tournament create` wrote them; UsageError naming what is wrong."""
    import ssl

    from controller.tournament.messages import is_table_id
    from controller.tournament.table import broker_address

    missing = [key for key in TOURNAMENT_KEYS if key not in table]
    unknown = [key for key in table if key not in TOURNAMENT_KEYS + TOURNAMENT_OPTIONAL]
    if missing or unknown:
        raise UsageError("%s needs the keys %s (and %s with an mqtts:// broker), not %s" % (
            where, ", ".join(TOURNAMENT_KEYS), ", ".join(TOURNAMENT_OPTIONAL),
            ", ".join(sorted(table)) or "none"))
    for key in TOURNAMENT_KEYS + TOURNAMENT_OPTIONAL:
        if key in table and (not isinstance(table[key], str) or not table[key]):
            raise UsageError("%s: %s must be a text, not %r" % (where, key, table[key]))
    try:
        tls = broker_address(table["broker"])[2]
    except ValueError as error:
        raise UsageError("%s: %s" % (where, error))
    if "ca" in table:
        if not tls:
            raise UsageError("%s: a ca is for an mqtts:// broker, not %s" % (
                where, table["broker"]))
        try:
            ssl.create_default_context(cadata=table["ca"])
        except (ssl.SSLError, ValueError) as error:
            raise UsageError("%s: ca is not a certificate in PEM, as `layli tournament "
                             "create` writes it (%s)" % (where, error))
    if not is_table_id(table["table"]):
        raise UsageError("%s: table %r is not a table id (a-z, 0-9 and -, at most 32)" % (
            where, table["table"]))


def tournament_table(config: dict, runner, state: Path):
    """With a [tournament] table in the config: this board as that tournament table, its
    link to the broker and its agent (controller.tournament.agent); else (None, None)."""
    table = config.get("tournament")
    if not table:
        return None, None
    from controller import __version__
    from controller.tournament.agent import join

    link, agent = join(runner, table["table"], table["broker"], table["password"], state,
                       firmware=__version__, ca=table.get("ca"))
    logging.getLogger("layli").info("tournament table %s, broker %s", table["table"],
                                    table["broker"])
    return link, agent


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """The config file's settings overridden by the command line's."""
    merged: dict[str, Any] = read_config(args.config) if args.config else {}
    for key in ("profile", "port", "variant", "state", "log_level"):
        value = getattr(args, key)
        if value is not None:
            merged[key] = value
    options = {name: str(value) for name, value in merged.get("options", {}).items()}
    options.update(parse_options(args.option))
    merged["options"] = options
    merged.setdefault("variant", "layli-goobalay")
    merged.setdefault("state", DEFAULT_STATE)
    merged.setdefault("log_level", "info")
    merged["players"] = tuple(name.strip() for name in merged.get("players", DEFAULT_PLAYERS))
    if "profile" not in merged:
        raise UsageError("no board profile: give --profile NAME (layli hardware list shows "
                         "them) or profile = \"NAME\" in the config file")
    return merged


def run(args: argparse.Namespace) -> int:
    from controller.hardware.profile import load, check

    config = settings(args)
    logging.basicConfig(level=config["log_level"].upper(),
                        format="%(asctime)s %(levelname)s %(message)s")
    profile = load(config["profile"])
    problems = check(profile)
    if problems:
        raise UsageError("profile %s: %s (layli hardware check %s says more)" % (
            profile.name, problems[0], profile.name))
    rules = Rules(config["variant"], config["options"] or None)
    if rules.n != profile.pits:
        raise UsageError("%s has %d pits a row; the board of profile %s has %d" % (
            rules.name, rules.n, profile.name, profile.pits))
    if args.ui_port < 0 or args.ui_port > 65535:
        raise UsageError("--ui-port %d is not a port (0..65535)" % args.ui_port)
    if args.speed < 0:
        raise UsageError("--speed %g: give 0 (no pause) or more" % args.speed)
    if args.simulate:
        return _simulate(profile, config, args)
    if profile.kind == "pico-standalone":
        raise UsageError("profile %s runs on the Pico itself, without a Pi: `layli firmware "
                         "config %s -o config.json`, then `layli firmware deploy "
                         "config.json`" % (profile.name, profile.name))
    return _run_hardware(profile, config, args)


def _companion(args: argparse.Namespace):
    """With --ui: the companion page served from its own thread, and the runner's `publish`;
    (None, None) without. A taken port is a UsageError naming --ui-port."""
    if not args.ui:
        return None, None
    from controller.web import PortTaken, Publisher, create_app, start_in_thread

    publisher = Publisher()
    try:
        url, server, thread = start_in_thread(create_app(publisher), args.ui_port,
                                              args.ui_host, "--ui-port")
    except PortTaken as error:
        raise UsageError(str(error))
    except OSError as error:        # an address not of this computer, say
        raise UsageError("--ui-host %s: %s" % (args.ui_host, error.strerror or error))
    print("the table companion is at %s" % url, flush=True)
    logging.getLogger("layli").info("the table companion is at %s", url)

    def stop() -> None:
        server.should_exit = True
        thread.join(5)

    return publisher.publish, stop


def sensing_of(profile) -> str:
    return "activity" if profile.sensors.kind == "digital" else "counting"


def _simulate(profile, config: dict, args: argparse.Namespace) -> int:
    """One game on the simulated board, through the same runner as the hardware."""
    import tempfile
    import time

    from controller.rules import Game
    from controller.board.runner import Runner, open_session
    from simulator.board_io import SimulatedBoardIO

    sensing = sensing_of(profile)
    game = Game(config["variant"], config["options"] or None)
    layout = profile.led_layout()
    io = SimulatedBoardIO(game.rules.n, game.setup, sensing, layout.count, args.seed,
                          args.mistakes)
    publish, stop = _companion(args)
    # a person watching the page sees the game at the pace of real time (or --speed's)
    pace = args.speed if publish is not None else 0.0
    with tempfile.TemporaryDirectory() as state:
        session = open_session(Path(state) / "journal.jsonl", config["variant"],
                               config["options"] or None, sensing)
        io.attach()
        runner = Runner(io, session, layout, sensing, io.calibration, now_ms=io.now_ms,
                        max_count=sum(game.setup), players=config["players"],
                        publish=publish)
        start, start_ms = time.monotonic(), io.now_ms()
        while session.guide.phase != OVER and io.now_ms() < 6 * 3600 * 1000:
            runner.step()
            if pace:
                ahead = (io.now_ms() - start_ms) / 1000 / pace - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
        board = io.board.counts()
        done = session.guide.phase == OVER and board == session.guide.board.places()
        logging.getLogger("layli").info(
            "simulated game %s after %.0f simulated s; the board %s the engine",
            "over" if session.guide.phase == OVER else "unfinished", io.now_ms() / 1000,
            "equals" if done else "differs from")
    if stop is not None:
        print("the game is over; the page stays up until Ctrl-C", flush=True)
        logging.getLogger("layli").info("stopped (%s)", until_stopped())
        stop()
    return 0 if done else 1


def _run_hardware(profile, config: dict, args: argparse.Namespace) -> int:
    """The board's loop until SIGTERM or Ctrl-C: 80 steps a second."""
    import time

    from controller.board.runner import Runner, open_session
    from controller.sensing import Calibration, SensingError

    log = logging.getLogger("layli")
    state = Path(config["state"]).expanduser()
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError("state folder %s: %s" % (state, error.strerror or error))
    sensing = sensing_of(profile)
    calibration = None
    calibration_path = state / "calibration.json"
    if sensing == "counting":
        try:
            calibration = Calibration.from_json(calibration_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UsageError("no calibration at %s: calibrate the load cells first "
                             "(hardware/README.md, \"Calibration\")" % calibration_path)
        except (OSError, SensingError, ValueError) as error:
            raise UsageError("calibration %s: %s" % (calibration_path, error))
    io = open_board(profile, config)
    publish, stop_page = _companion(args)
    variant, options = config["variant"], config["options"] or None
    journal = state / "journal.jsonl"
    session = open_session(journal, variant, options, sensing)
    runner = Runner(io, session, profile.led_layout(), sensing, calibration,
                    session_factory=lambda: open_session(journal, variant, options, sensing),
                    records=state / "records", calibration_path=calibration_path,
                    max_count=sum(session.game.setup), players=config["players"],
                    publish=publish)
    link, agent = tournament_table(config, runner, state)
    stop: list[str] = []
    log.info("running %s (%s); state in %s", profile.name, profile.title, state)
    try:
        with stop_signals(stop):
            tick = time.monotonic()
            while not stop:
                runner.step()
                if agent is not None:
                    agent.step()
                tick += 0.0125
                time.sleep(max(0.0, tick - time.monotonic()))
    finally:
        io.close()
        if link is not None:
            link.close()
        if stop_page is not None:
            stop_page()
    log.info("stopped (%s); the game is in %s", stop[0] if stop else "error", journal)
    return 0


def open_board(profile, config: dict):
    """The board's hardware for `profile`: the Pico over serial, or the Pi's own GPIO."""
    if profile.kind == "pico-bridge":
        from controller.drivers.pico import PicoBridge

        port = config.get("port")
        if not port:
            raise UsageError("profile %s talks to its Pico over USB serial: give --port "
                             "DEVICE (e.g. /dev/ttyACM0) or port = \"...\" in the config file"
                             % profile.name)
        from controller.drivers.common import DeviceError

        board = PicoBridge(port, profile.name, profile.places)
        try:
            board.open()
        except DeviceError as error:    # it names the port and what to check
            raise UsageError(str(error))
        return board
    from controller.drivers.direct import DirectBoard

    return DirectBoard(profile)
