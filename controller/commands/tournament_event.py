"""`layli tournament create` and `layli tournament serve`: a real event (host-only).

    layli tournament create club-night --name "Club night" --rounds 5 --tables 8 \\
        --players players.csv
    layli tournament serve club-night --broker mosquitto --mqtt-host 0.0.0.0 --host 0.0.0.0

    layli tournament register club-night "Ubax" --rating 1710     # a late entry
    layli tournament withdraw club-night "Cali"

`create` makes the event's folder: ``event.sqlite`` (the event, its players and tables),
``credentials.json`` (the broker passwords of the server and of every table, readable by the
owner only), ``arbiters.json`` (the arbiter's login for the correction pages, likewise),
``mosquitto/`` (mosquitto.conf, the password file and the ACL that lets each table publish
only to its own topics) and ``tables/table-N.toml``: the lines to add to each table's
`layli run` config file (`[tournament]`: the broker, the table id, its password).

`serve` runs the event: a broker (the embedded one, a Mosquitto it starts from the folder's
configuration, or one already running at mqtt://host:port), the server, and the live and
arbiter pages, until Ctrl-C. The arbiter pairs each round from the arbiter page; with
`--auto-pair` the next round is paired as soon as the last result of a round is in.

A players file is CSV: name, then optionally rating and club, one player a line; a first line
``name,rating,club`` is a header.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import secrets
import sys
from pathlib import Path

from controller.commands.common import parse_options, ranged, until_stopped
from controller.errors import UsageError

ARBITERS_FILE = "arbiters.json"
MQTT_PORT = 1883           # plain MQTT: on this computer only (the server's own connection)
MQTTS_PORT = 8883          # MQTT over TLS: the tables, across the club's network
TLS_FOLDER = "tls"         # the event's certificate authority and server certificate


def configure(parser: argparse.ArgumentParser) -> None:
    words = parser.prog.split()[-1]
    parser.add_argument("folder", help="the event's folder")
    if words == "create":
        from controller.rules import VARIANTS

        parser.add_argument("--name", required=True, help="the event's name (no /)")
        parser.add_argument("--rounds", type=ranged(int, 1, 99), required=True)
        parser.add_argument("--tables", type=ranged(int, 1, 999), required=True,
                            help="tables (boards): table-1, table-2, ...")
        parser.add_argument("--system", choices=("swiss", "round-robin"), default="swiss")
        parser.add_argument("--variant", choices=sorted(VARIANTS), default="layli-goobalay")
        parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                            help="a variant option (repeatable)")
        parser.add_argument("--format", choices=("game", "hands"), default="game",
                            help="a pairing plays one game, or a match of hands "
                                 "(docs/rules.md 2.1)")
        parser.add_argument("--players", metavar="CSV", help="the players: name[,rating[,club]]")
        parser.add_argument("--arbiter", default="arbiter",
                            help="the arbiter's login name (default arbiter)")
        parser.add_argument("--broker-host", default="localhost",
                            help="the broker's address as the tables reach it (default "
                                 "localhost), written into each table's config")
    elif words == "register":
        parser.add_argument("name", help="the player's name")
        parser.add_argument("--rating", type=ranged(int, 0, 4000), default=None)
        parser.add_argument("--club", default="")
    elif words == "withdraw":
        parser.add_argument("player", help="the player's name, or pairing number")
    else:
        parser.add_argument("--broker", default="embedded",
                            help="embedded (default), mosquitto (started from the folder's "
                                 "config), or mqtt://host:port of a running broker")
        parser.add_argument("--mqtt-host", default="127.0.0.1",
                            help="where the started broker listens to the tables, over TLS "
                                 "(0.0.0.0: every network)")
        parser.add_argument("--mqtt-port", type=ranged(int, 1, 65535), default=MQTT_PORT,
                            help="plain MQTT, on this computer only (default %d)" % MQTT_PORT)
        parser.add_argument("--mqtts-port", type=ranged(int, 1, 65535), default=MQTTS_PORT,
                            help="MQTT over TLS, for the tables (default %d)" % MQTTS_PORT)
        parser.add_argument("--host", default="127.0.0.1",
                            help="where the pages listen (0.0.0.0: every network, over HTTPS)")
        parser.add_argument("--port", type=ranged(int, 0, 65535), default=8080)
        parser.add_argument("--auto-pair", action="store_true",
                            help="pair the next round as soon as a round's results are in")


def run(args: argparse.Namespace) -> int:
    if hasattr(args, "rounds"):
        return create(args)
    if hasattr(args, "rating"):
        return register(args)
    if hasattr(args, "player"):
        return withdraw(args)
    return serve(args)


def _event_store(folder: Path):
    from controller.tournament.rows import DamagedError, StoreError
    from controller.tournament.store import Store

    if not (folder / "event.sqlite").exists():
        raise UsageError("%s holds no event: `layli tournament create %s ...` first" % (
            folder, folder))
    try:
        return Store(folder / "event.sqlite")
    except DamagedError as error:
        raise UsageError("%s\n%s" % (error, way_forward(folder)))
    except StoreError as error:
        raise UsageError(str(error))


LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    """Whether `host` is this computer only (127.x, ::1, localhost)."""
    import ipaddress
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def keep_alive(broker) -> bool:
    """The event's own broker started again if it has stopped (killed, crashed) under a
    running `serve`; True when it was. The server and the tables reconnect by themselves, and
    the pages say "reconnecting" meanwhile. A start that fails is logged and tried again at
    the next call."""
    from controller.tournament.broker import BrokerError

    if broker is None or broker.running:
        return False
    log = logging.getLogger(__name__)
    log.error("the event's broker has stopped: starting it again")
    try:
        broker.start()
    except (BrokerError, OSError) as error:
        log.error("the broker did not start again: %s", error)
        return False
    log.warning("the broker runs again at %s", broker.url)
    return True


def way_forward(folder: Path) -> str:
    """What the arbiter can do about a damaged event file: the newest backup (the server keeps
    one as each round starts), or SQLite's own recovery."""
    from controller.tournament.server import BACKUPS

    kept = sorted((int(path.stem[len("round-"):]), path)
                  for path in (folder / BACKUPS).glob("round-*.sqlite")
                  if path.stem[len("round-"):].isdigit())
    database = folder / "event.sqlite"
    if kept:
        return ("The last good copy is %s, made as its round started: stop everything using "
                "the event, move %s aside, copy that file in its place, and start again; what "
                "was recorded after it (results, corrections) must be entered again."
                % (kept[-1][1], database))
    return ("There is no backup (one is kept as each round starts). SQLite can save what is "
            "readable: sqlite3 %s .recover | sqlite3 recovered.sqlite, then move %s aside and "
            "put recovered.sqlite in its place." % (database, database))


def register(args: argparse.Namespace) -> int:
    """A player joins (a late entry once round 1 is paired, in a Swiss event)."""
    from controller.tournament.rows import StoreError

    with _event_store(Path(args.folder)) as store:
        try:
            player = store.register(args.name, args.rating, args.club)
        except StoreError as error:
            raise UsageError(str(error))
        fixed = store.numbers_fixed()
    print("registered %s (pairing number %d%s)" % (
        player.name, player.number, "" if fixed else ", until round 1 is paired"))
    return 0


def withdraw(args: argparse.Namespace) -> int:
    """A player leaves: not paired from the next round on (their games stay)."""
    from controller.tournament.rows import StoreError

    player: int | str = int(args.player) if args.player.isdigit() else args.player
    with _event_store(Path(args.folder)) as store:
        try:
            store.withdraw(player)
        except StoreError as error:
            raise UsageError(str(error))
    print("%s withdrawn" % args.player)
    return 0


def read_players(path: Path) -> list[tuple[str, int | None, str]]:
    """(name, rating or None, club) from a players CSV; UsageError naming the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError("--players %s: %s" % (path, getattr(error, "strerror", None) or error))
    players = []
    for number, row in enumerate(csv.reader(text.splitlines()), 1):
        cells = [cell.strip() for cell in row]
        if not cells or not any(cells):
            continue
        if number == 1 and cells[0].lower() == "name":
            continue
        if len(cells) > 3:
            raise UsageError("%s line %d: name, rating, club: %d cells" % (path, number,
                                                                           len(cells)))
        name = cells[0]
        rating = None
        if len(cells) > 1 and cells[1]:
            if not cells[1].isdigit():
                raise UsageError("%s line %d: the rating %r is not a whole number" % (
                    path, number, cells[1]))
            rating = int(cells[1])
        players.append((name, rating, cells[2] if len(cells) > 2 else ""))
    return players


def table_lines(broker: str, table: str, password: str, ca: str | None) -> str:
    """The [tournament] lines of one table's layli.toml: its broker, id and password, and the
    event's certificate authority its broker's certificate must come from."""
    text = ("# add to this table's layli.toml (docs/layli.toml)\n[tournament]\n"
            "broker = \"%s\"\ntable = \"%s\"\npassword = \"%s\"\n" % (broker, table, password))
    if ca:
        text += "# the event's own certificate authority: the broker must show its certificate\n"
        text += 'ca = """\n%s"""\n' % ca
    return text


def create(args: argparse.Namespace) -> int:
    from controller.tournament.broker import BrokerError, Mosquitto
    from controller.tournament.certificates import EventTLS
    from controller.tournament.credentials import Credentials, CredentialsError, write_private
    from controller.tournament.rows import StoreError
    from controller.tournament.store import Store

    folder = Path(args.folder)
    if (folder / "event.sqlite").exists():
        raise UsageError("%s holds an event already" % folder)
    players = read_players(Path(args.players)) if args.players else []
    tables = ["table-%d" % number for number in range(1, args.tables + 1)]
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "event.sqlite")
    try:
        try:
            store.create_event(args.name, args.variant, parse_options(args.option) or None,
                               system=args.system, rounds=args.rounds,
                               match_format=args.format)
            for name, rating, club in players:
                store.register(name, rating, club)
            for table in tables:
                store.add_table(table)
            credentials = Credentials.generate(args.name, tables)
        except (StoreError, CredentialsError) as error:
            store.close()
            (folder / "event.sqlite").unlink()
            raise UsageError(str(error))
    finally:
        store.close()
    credentials.save(folder / "credentials.json")
    arbiter_password = secrets.token_urlsafe(12)
    write_private(folder / ARBITERS_FILE, (json.dumps({args.arbiter: arbiter_password},
                                                      indent=2) + "\n").encode("utf-8"))
    tls = EventTLS(folder / TLS_FOLDER)
    tls.create(args.name, [args.broker_host])
    try:
        Mosquitto(folder / "mosquitto", port=MQTT_PORT, credentials=credentials,
                  tls=tls, tls_host="0.0.0.0", tls_port=MQTTS_PORT).write_config()
    except BrokerError as error:        # serve writes it at each start; only a convenience
        print("the Mosquitto configuration is not written (%s)" % error)
    (folder / "tables").mkdir(exist_ok=True)
    for table in tables:
        write_private(folder / "tables" / ("%s.toml" % table), table_lines(
            "mqtts://%s:%d" % (args.broker_host, MQTTS_PORT), table,
            credentials.password(table), tls.ca_text()).encode("utf-8"))
    print("event %r in %s: %d players, %d tables, %d rounds (%s)" % (
        args.name, folder, len(players), len(tables), args.rounds, args.system))
    print("arbiter login: %s / %s (kept in %s)" % (args.arbiter, arbiter_password,
                                                  folder / ARBITERS_FILE))
    print("each table's [tournament] lines: %s/" % (folder / "tables"))
    return 0


def serve(args: argparse.Namespace) -> int:
    from controller.tournament.audit import Refusals
    from controller.tournament.broker import BrokerError, EmbeddedBroker, Mosquitto
    from controller.tournament.certificates import EventTLS, TLSError
    from controller.tournament.credentials import Credentials, CredentialsError, read_private
    from controller.tournament.server import TournamentServer
    from controller.tournament.rows import StoreError
    from controller.tournament.store import Store
    from controller.tournament.web import create_app
    from controller.web import PortTaken, start_in_thread

    folder = Path(args.folder)
    _event_store(folder).close()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    for chatty in ("amqtt", "transitions"):     # the embedded broker's every state change
        logging.getLogger(chatty).setLevel(logging.WARNING)
    try:
        credentials = Credentials.load(folder / "credentials.json")
        arbiters = json.loads(read_private(folder / ARBITERS_FILE, "the arbiters' logins"))
    except (CredentialsError, OSError, ValueError) as error:
        raise UsageError(str(error))
    tls = EventTLS(folder / TLS_FOLDER)
    if not tls.exists:
        tls = None
    # plain MQTT and HTTP on this computer only: beyond it, TLS with the event's certificate
    for option, host in (("--mqtt-host", args.mqtt_host), ("--host", args.host)):
        if not is_loopback(host) and tls is None:
            raise UsageError("%s %s: beyond this computer the event speaks only TLS, and %s "
                             "has no certificates (%s/): an event made by `layli tournament "
                             "create` has them" % (option, host, folder, TLS_FOLDER))
    if tls is not None:
        try:
            tls.check()
        except TLSError as error:
            raise UsageError(str(error))
    broker = None
    refusals = Refusals(credentials.users())    # what is turned away, for the log and arbiter
    listening = dict(refusals=refusals, tls=tls, tls_host=args.mqtt_host,
                     tls_port=args.mqtts_port)
    if args.broker == "embedded":
        broker = EmbeddedBroker(folder / "broker", args.mqtt_port, credentials, LOOPBACK,
                                **listening)
    elif args.broker == "mosquitto":
        broker = Mosquitto(folder / "mosquitto", args.mqtt_port, credentials, LOOPBACK,
                           **listening)
    elif not args.broker.startswith(("mqtt://", "mqtts://")):
        raise UsageError("--broker %s: embedded, mosquitto or mqtt://host:port" % args.broker)
    try:
        if broker is not None:
            broker.start()
        url = broker.url if broker is not None else args.broker
        store = Store(folder / "event.sqlite")
        server = TournamentServer(store, url, credentials.server_user,
                                  credentials.server_password, auto_pair=args.auto_pair,
                                  refusals=refusals)
        server.start()
        try:
            page, instance, thread = start_in_thread(
                create_app(server, arbiters), args.port, args.host,
                tls=None if is_loopback(args.host) or tls is None else (
                    str(tls.cert_path), str(tls.key_path)))
        except PortTaken as error:
            raise UsageError(str(error))
        tables = broker.tls_url if broker is not None and broker.tls_url else url
        print("the broker is at %s for the tables; the live pages at %s (arbiter: %sarbiter)"
              % (tables, page, page), flush=True)
        logging.getLogger(__name__).info("stopping (%s)", until_stopped(
            lambda: keep_alive(broker)))
        instance.should_exit = True
        thread.join(5)
        server.stop()
        store.close()
    except (BrokerError, StoreError, TimeoutError, ValueError) as error:
        raise UsageError(str(error))
    finally:
        if broker is not None:
            broker.stop()
    return 0


if __name__ == "__main__":
    from controller.cli import main
    sys.exit(main(["tournament"] + sys.argv[1:]))
