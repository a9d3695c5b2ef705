"""`layli tournament demo`: a whole event on one laptop, with simulated boards and players.

    event = DemoEvent(directory, tables=8, rounds=5)      # a broker, the server, 8 tables
    summary = event.run()                                 # every round, to the last result

Every table is a simulated board (`simulator.board_io.SimulatedBoardIO`: seeds, load cells,
players who follow the LEDs) driven by the same controller as a real board -- `Runner`,
`TableAgent` and `TableLink` over MQTT -- so the demo exercises what an event runs. The
players play the moves a seeded searcher picks for them, shown on the board as a hint (their
strength in search nodes comes from their rating); the seed is the game's id and the ply, so
a game is the same whatever the timing, the faults or the machine. A run with faults must
therefore end with the same standings as one without: `FaultPlan` cuts a table's power in the
middle of a game, restarts the broker and restarts the server, each at a round of its own.

The boards run on simulated time; `speed` is simulated seconds per real second (0: as fast
as the machine goes). At speed 0 a 2 x 6 game takes about 7 s of one core (4 s with quick
hands, `durations=QUICK`), most of it the load cells' models, read 93 times a simulated second
(measured 2026-12-08: a round robin of 4 players, 6 games, 44 s; 36 s with quick hands).
"""

from __future__ import annotations

import logging
import random
import shutil
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.ai import Searcher
from controller.guide import AWAIT
from controller.hardware.profile import load as load_profile
from controller.rules import Game
from controller.rules.match import Match
from controller.board.runner import Runner, open_session
from controller.sensing import Calibration
from controller.tournament.audit import Refusals
from simulator.attacks import Attacker
from controller.tournament.agent import JOURNAL, join
from controller.tournament.broker import EmbeddedBroker, Mosquitto
from controller.tournament.certificates import EventTLS
from controller.tournament.credentials import Credentials
from controller.tournament.model import Result
from controller.tournament.server import TournamentServer, standings_rows
from controller.tournament.rows import StoreError
from controller.tournament.store import Store
from simulator.board_io import SimulatedBoardIO
from simulator.board import Durations

log = logging.getLogger(__name__)

EVENT = "demo"
VARIANT = "layli-goobalay"
PROFILE = "pi-direct-2x6"
ATTACKER = "table-x"        # `attacks`: a board of the event never paired (sorted last)
ARBITER_WAITS_AT_MOST = 30.0    # seconds for a dead board to show offline before its game moves
IDLE_EVERY = 8          # a table with no game is stepped once in this many turns
ARBITER_LOOKS_EVERY = 50    # turns between the demo's arbiter's looks at the results held
# names for the demo's players (Somali given names), each with a made-up rating
NAMES = ("Ayaan", "Hodan", "Warsame", "Faadumo", "Cali", "Xaliimo", "Maxamed", "Sahra",
         "Abdi", "Ifrah", "Guuleed", "Nimco", "Jaamac", "Ubax", "Barkhad", "Deeqa",
         "Mukhtaar", "Idil", "Shire", "Hibo", "Yuusuf", "Qamar", "Cawil", "Ruun",
         "Bashiir", "Ladan", "Dhuux", "Sagal", "Farax", "Nasteexo", "Xirsi", "Ayan")
SLOWEST_NODES = 60          # the weakest player's search: a few plies
STRONGEST_NODES = 1500      # the strongest's: tens of milliseconds a move


def demo_players(count: int, seed: int = 1) -> list[tuple[str, int]]:
    """`count` (name, rating) pairs: the names above, numbered after the first lap."""
    rng = random.Random(seed)
    players = []
    for index in range(count):
        name = NAMES[index % len(NAMES)]
        if index >= len(NAMES):
            name += " %d" % (index // len(NAMES) + 1)
        players.append((name, rng.randrange(1200, 2200, 5)))
    return players


def nodes_for(rating: int) -> int:
    """A player's search budget: 60 nodes at 1200, 1500 at 2200, geometric in between."""
    share = min(max((rating - 1200) / 1000, 0.0), 1.0)
    return round(SLOWEST_NODES * (STRONGEST_NODES / SLOWEST_NODES) ** share)


def move_seed(game: str, ply: int, hand: int = 1) -> int:
    """The seed of the search for ply `ply` of `game` (of its `hand`, in a match of hands):
    the same on every run."""
    text = "%s#%d" % (game, ply) if hand == 1 else "%s#%d#%d" % (game, hand, ply)
    return zlib.crc32(text.encode("utf-8")) or 1


def chosen_move(game: Game, game_id: str, nodes: int, hand: int = 1) -> int:
    """The move a demo player of `nodes` search nodes plays in `game` (the event's game
    `game_id`; in a match of hands, its `hand`): the same whatever the timing, the board or
    the machine."""
    return Searcher("strongest", seed=move_seed(game_id, len(game.moves), hand),
                    nodes=nodes).choose(game)


def arranged_row(seeds: int, n: int) -> list[int]:
    """The row a demo player arranges `seeds` into when setting up a match's next hand, as
    the simulated players do it on the board (`LedPlayer._set_up`: one seed at a time into the
    emptiest pit, the first of them on a tie): the extra seeds in the first pits."""
    return [seeds // n + (1 if pit < seeds % n else 0) for pit in range(n)]


def set_up_event(store: Store, tables: int, rounds: int, system: str,
                 seed: int, spare: int = 0, match_format: str = "game",
                 options: dict[str, Any] | None = None) -> dict[str, int]:
    """The demo's event in an empty `store`: its players (two for each of `tables`) and its
    tables (`spare` more than the games need); the players' ratings. `match_format` "hands":
    each pairing plays a match of hands; `options`: the variant's (e.g. {"hands": 2})."""
    store.create_event(EVENT, VARIANT, options, system=system, rounds=rounds,
                       match_format=match_format)
    ratings = dict(demo_players(2 * tables, seed))
    for name, rating in ratings.items():
        store.register(name, rating)
    for number in range(1, tables + spare + 1):
        store.add_table("table-%d" % number)
    return ratings


class _ThinkingPlayers(SimulatedBoardIO):
    """The simulated board, whose players make up their mind before they look at the LEDs:
    `think()` shows the move chosen as a hint and returns the frame to act on."""

    think: Callable[[], Any] = staticmethod(lambda: None)

    def show(self, frame, pixels) -> None:
        thought = self.think()
        super().show(frame if thought is None else thought, pixels)


class SimulatedTable:
    """A simulated board and its controller, as table `table_id` of the event at `url`.
    `strength(name)` is a player's search budget in nodes; `durations`, how quick the
    players' hands are (default: careful)."""

    def __init__(self, table_id: str, url: str, password: str, directory: Path,
                 strength: Callable[[str], int], seed: int = 0, ca: str | None = None,
                 durations: Durations | None = None) -> None:
        self.table_id = table_id
        self.url = url
        self.password = password
        self.ca = ca                    # the event's authority, over an mqtts:// url
        self.directory = directory / table_id
        self.directory.mkdir(parents=True, exist_ok=True)
        self.strength = strength
        self.profile = load_profile(PROFILE)
        self.layout = self.profile.led_layout()
        start = Game(VARIANT)
        self.io = _ThinkingPlayers(start.rules.n, start.setup, "counting", self.layout.count,
                                   seed, durations=durations)
        self.io.think = self._think
        self.io.attach()
        self.max_count = sum(start.setup)
        self.powered = False
        self.power_on()

    def power_on(self) -> None:
        """The controller starts (the first time, or after a power cut): the journal
        resumed, a new link to the broker, the agent's memory read back."""
        session = open_session(self.directory / JOURNAL, VARIANT, None, "counting")
        # as `layli run` does: each cell's zero is kept at every move, and a controller that
        # restarts starts from it (the cells drift: the first calibration is hours old)
        kept = self.directory / "calibration.json"
        calibration = (Calibration.from_json(kept.read_text(encoding="utf-8"))
                       if kept.exists() else self.io.calibration)
        self.runner = Runner(self.io, session, self.layout, "counting", calibration,
                             now_ms=self.io.now_ms, max_count=self.max_count,
                             calibration_path=kept)
        self.link, self.agent = join(self.runner, self.table_id, self.url, self.password,
                                     self.directory, firmware="simulated",
                                     reconnect_delay=(0.2, 2.0), resend_every=5.0, ca=self.ca)
        self.powered = True

    def power_cut(self) -> None:
        """The controller loses power: no goodbye to the broker (its will says offline), the
        journal and the kept result stay on disk, the seeds stay in their pits."""
        self.link.abandon()
        self.runner.session.storage.close()
        self.powered = False

    def close(self) -> None:
        if self.powered:
            self.link.close()
            self.runner.session.storage.close()
            self.powered = False

    @property
    def busy(self) -> bool:
        """Whether a game is being played here (assigned, not yet reported)."""
        return self.powered and self.agent.game is not None and not self.agent.reported

    def step(self) -> None:
        """One step of the board's loop."""
        if not self.powered:
            return
        self.runner.step()
        self.agent.step()

    def _think(self):
        """The player to move chooses, and the board shows it as a hint: the frame they see."""
        if not self.powered:
            return None
        session = self.runner.session
        guide, game = session.guide, session.game
        if self.agent.game is None:
            return None         # no game given yet: the board shows it waits, and so do they
        if session.setup is None and not game.over and guide.phase == AWAIT and \
                guide.hint is None:
            nodes = self.strength(self.runner.players[game.to_move])
            hand = 1 if session.match is None else len(session.match.games)
            guide.show_hint(chosen_move(game, self.agent.game, nodes, hand))
        return session.frame        # (between a match's hands: its set-up, which they follow)


@dataclass
class FaultPlan:
    """Which round each fault strikes (0: never), and how long a table stays without power
    (simulated seconds, or until no other table is playing). Each strikes once, when the
    round's games are under way. A board
    that dies (`table_dies_round`) stays dead until the round is over (it is mended, or
    swapped, before the next); the demo's arbiter moves its game to a spare table, which the
    event then has (`DemoEvent`)."""

    table_off_round: int = 2
    table_off_seconds: float = 20.0
    broker_restart_round: int = 3
    server_restart_round: int = 4
    table_dies_round: int = 0
    done: list[str] = field(default_factory=list)


class DemoEvent:
    """A simulated event in `directory`: `tables` tables, twice as many players, a Swiss of
    `rounds` rounds (or round robin), over Mosquitto (`broker="mosquitto"`) or the embedded
    broker. `speed`: simulated seconds per real second (0: flat out). `durations`: how quick
    the players' hands are (default: careful; simulator.board.QUICK halves a game's
    simulated time, and so the machine's work, with the same moves and results)."""

    def __init__(self, directory: str | Path, tables: int, rounds: int, *,
                 broker: str = "embedded", system: str = "swiss", speed: float = 0.0,
                 faults: FaultPlan | None = None, seed: int = 1, match_format: str = "game",
                 options: dict[str, Any] | None = None,
                 on_server: Callable[[TournamentServer], None] | None = None,
                 tls: bool = False, attacks: bool = False,
                 durations: Durations | None = None) -> None:
        if tables < 1:
            raise ValueError("a demo needs at least 1 table, not %d" % tables)
        if rounds < 1:
            raise ValueError("a demo needs at least 1 round, not %d" % rounds)
        if broker not in ("embedded", "mosquitto"):
            raise ValueError("broker must be embedded or mosquitto, not %r" % (broker,))
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        spare = 1 if faults is not None and faults.table_dies_round else 0
        self.table_ids = ["table-%d" % number for number in range(1, tables + spare + 1)]
        self.rounds = rounds
        self.speed = speed
        self.durations = durations
        self.faults = faults
        self.on_server = on_server
        self.database = self.directory / "event.sqlite"
        with Store(self.database) as store:
            self.ratings = set_up_event(store, tables, rounds, system, seed, spare, match_format,
                                        options)
            if attacks:                 # the board a hostile player sits at: never paired
                store.add_table(ATTACKER)
        # `attacks`: in round 1 a player attacks the event (simulator/attacks.py)
        self.attacks: list[str] | None = [] if attacks else None
        self.options = options
        self.credentials = Credentials.generate(
            EVENT, self.table_ids + ([ATTACKER] if attacks else []))
        self.credentials.save(self.directory / "credentials.json")
        # what the broker refused, and the rate limits: the server shows them
        self.refusals = Refusals(self.credentials.users())
        # with `tls`, the tables reach the broker as at a club: over TLS, trusting the event's
        # own authority (the server's own connection stays plain, on this computer)
        self.tls = EventTLS(self.directory / "tls") if tls else None
        if self.tls is not None:
            self.tls.create(EVENT, ["localhost"])
        listening = dict(credentials=self.credentials, refusals=self.refusals, tls=self.tls)
        if broker == "mosquitto":
            self.broker: Mosquitto | EmbeddedBroker = Mosquitto(self.directory / "mosquitto",
                                                                **listening)
        else:
            self.broker = EmbeddedBroker(self.directory / "broker", **listening)
        self.server: TournamentServer | None = None
        self.tables: list[SimulatedTable] = []
        self._dead: tuple[SimulatedTable, int] | None = None    # a dead board, and its round
        # a game whose board has just died, waiting for the arbiter: (its game, the board,
        # the wall-clock time by which the arbiter moves it whatever the live page says)
        self._orphan: tuple[str, SimulatedTable, float] | None = None

    # --- the parts --------------------------------------------------------------------------

    def start_server(self) -> TournamentServer:
        credentials = self.credentials
        server = TournamentServer(Store(self.database), self.broker.url,
                                  credentials.server_user, credentials.server_password,
                                  auto_pair=True, refusals=self.refusals)
        server.start()
        self.server = server
        if self.on_server is not None:
            self.on_server(server)
        return server

    def stop_server(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server.store.close()
            self.server = None

    def strength(self, name: str) -> int:
        return nodes_for(self.ratings[name])

    # --- the event --------------------------------------------------------------------------

    def run(self, timeout: float = 3600.0) -> dict[str, Any]:
        """Play every round to its last result; the summary (`summary()`)."""
        self.broker.start()
        try:
            server = self.start_server()
            url = self.broker.tls_url or self.broker.url
            ca = self.tls.ca_text() if self.tls is not None else None
            self.tables = [SimulatedTable(table, url, self.credentials.password(table),
                                          self.directory, self.strength, seed=number, ca=ca,
                                          durations=self.durations)
                           for number, table in enumerate(self.table_ids, 1)]
            server.pair_next_round()
            self._play(timeout)
            return self.summary()
        finally:
            for table in self.tables:
                table.close()
            self.stop_server()
            self.broker.stop()

    def _play(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        start, start_ms = time.monotonic(), self._now_ms()
        off: tuple[SimulatedTable, int] | None = None      # a table without power, until when
        turn = 0
        while not self._finished():
            if time.monotonic() > deadline:
                raise TimeoutError("the demo did not finish within %g s: %s" % (
                    timeout, self._progress()))
            turn += 1
            for table in self.tables:
                # a table with no game to play waits for the server: its board is still,
                # and stepping it (its load cells read 93 times a simulated second) cost
                # as much as a game's; looked at every IDLE_EVERY turns it notices its next
                # game a few turns later, and plays it the same (a game does not depend on
                # the timing)
                if table.busy or turn % IDLE_EVERY == 0:
                    table.step()
            if self.faults is not None:
                off = self._strike(off)
            if self.attacks == []:
                self._attack()
            if turn % ARBITER_LOOKS_EVERY == 0:
                self._arbitrate()
            if self.speed:
                ahead = (self._now_ms() - start_ms) / 1000 / self.speed - (
                    time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
            elif not any(table.busy for table in self.tables):
                time.sleep(0.01)        # waiting for the server: acks, the next round

    def _now_ms(self) -> int:
        return max(table.io.now_ms() for table in self.tables) if self.tables else 0

    def _strike(self, off: tuple[SimulatedTable, int] | None) -> tuple[SimulatedTable, int] | None:
        """Make the fault plan's faults happen, each once, half-way through its round."""
        plan = self.faults
        assert plan is not None
        # its own clock stands still; with no other table at play the event would only wait
        # for it (the idle tables' clocks, stepped now and then, take half a minute of wall
        # time for 20 simulated seconds): it comes back at once
        if off is not None and (self._now_ms() >= off[1] or not any(
                table.busy for table in self.tables)):
            off[0].power_on()
            plan.done.append("table %s back" % off[0].table_id)
            off = None
        store = self._store_view()
        if store is None:
            return off
        number, playing, total = store
        if self._dead is not None and number > self._dead[1]:
            table = self._dead[0]
            table.power_on()            # mended: it drops the game that moved, and plays on
            plan.done.append("table %s mended" % table.table_id)
            self._dead = None
        if self._orphan is not None:
            self._move_orphan()
        if not total or playing * 2 > total:
            return off              # not yet half-way through this round's games
        if number == plan.table_off_round and "table off" not in plan.done:
            busy = [table for table in self.tables if table.busy and
                    len(table.runner.session.game.moves) >= 2]
            if busy:
                table = busy[0]
                table.power_cut()
                plan.done.append("table off")
                log.info("fault: %s loses power in round %d", table.table_id, number)
                return (table, self._now_ms() + int(plan.table_off_seconds * 1000))
        if number == plan.table_dies_round and "table dies" not in plan.done:
            self._table_dies(number)
        if number == plan.broker_restart_round and "broker restart" not in plan.done:
            plan.done.append("broker restart")
            log.info("fault: the broker restarts in round %d", number)
            self.broker.restart()
        if number == plan.server_restart_round and "server restart" not in plan.done:
            plan.done.append("server restart")
            log.info("fault: the server restarts in round %d", number)
            self.stop_server()
            self.start_server()
        return off

    def _attack(self) -> None:
        """In round 1, once a board has reported two moves or more: every attack of
        `simulator.attacks` (the swapped record on that board's game)."""
        assert self.attacks is not None
        view = self._store_view()
        if view is None or self.server is None:
            return
        number, playing, _total = view
        if number != 1 or not playing:
            return
        store = self.server.store
        victims = [table for table in self.tables if table.busy and table.agent.game
                   and len(store.moves(table.agent.game)) >= 2]
        if not victims:
            return
        victim = victims[0]
        game = victim.agent.game
        players = list(victim.link.assignment.fields["players"])
        url = self.broker.tls_url or self.broker.url
        ca = self.tls.ca_text() if self.tls is not None else None
        attacker = Attacker(url, ATTACKER, self.credentials.password(ATTACKER),
                            victim.table_id, ca)
        log.info("attack: %s's password against the event, %s's game %s", ATTACKER,
                 victim.table_id, game)
        attacker.run(game)
        attacker.state_lie(game, ["Somebody", "Nobody"])
        inside = Attacker(url, victim.table_id, self.credentials.password(victim.table_id),
                          victim.table_id, ca)
        inside.swap_record(game, players, VARIANT, self.options, store.moves(game))
        self.attacks.extend(attacker.done + inside.done)

    def _arbitrate(self) -> None:
        """The demo's arbiter looks at the results held: one whose record is the game its
        board played (the players at the table say so) is accepted. (A forged record waits:
        its board's own, held after it, is the one accepted.)"""
        server = self.server
        if server is None:
            return
        for held in server.store.held(undecided=True):
            table = next((table for table in self.tables if table.powered
                          and table.agent.game == held.game_id and table.agent.reported), None)
            if table is not None and list(held.recorded) == list(
                    table.runner.session.game.moves):
                try:
                    server.accept_held(held.game_id, "the demo's arbiter")
                except StoreError:
                    continue        # decided meanwhile, or not the newest held
                log.info("the demo's arbiter accepted the result held for %s: the record of "
                         "the game its board played", held.game_id)

    def _table_dies(self, number: int) -> None:
        """A busy board dies for good mid-game; its game waits for the arbiter."""
        assert self.faults is not None
        busy = [table for table in self.tables if table.busy and
                len(table.runner.session.game.moves) >= 2]
        if not busy:
            return
        table = busy[-1]
        game = table.agent.game
        assert game is not None
        table.power_cut()
        self._dead = (table, number)
        self._orphan = (game, table, time.monotonic() + ARBITER_WAITS_AT_MOST)
        self.faults.done.append("table dies")
        log.info("fault: %s dies in round %d", table.table_id, number)

    def _move_orphan(self) -> None:
        """The arbiter moves the dead board's game to the spare table, where it carries on
        from the moves the board reported, once the live page shows that board offline, as
        an arbiter at the event would see it. Not before: the board's last move may still be
        on its way, and a move arriving after its game has gone is refused as not that
        table's (Mosquitto delivered one so, once in CI)."""
        assert self.server is not None and self.faults is not None and self._orphan
        game, table, deadline = self._orphan
        if (self.server.table_view(table.table_id)["presence"] != "offline"
                and time.monotonic() < deadline):
            return
        self._orphan = None
        number = self.server.store.last_round()
        used = {row.table for row in self.server.store.games(number)}
        spare = [other for other in self.table_ids if other not in used][0]
        moves = self.server.move_game(game, spare, "the demo's arbiter",
                                      "%s's board died" % table.table_id)
        self.faults.done.append("game moved to %s" % spare)
        log.info("fault: %s goes on at %s from ply %d", game, spare, len(moves))

    def _store_view(self) -> tuple[int, int, int] | None:
        """(the latest round, its games still being played, its games at tables)."""
        if self.server is None:
            return None
        store = self.server.store
        number = store.last_round()
        rows = [row for row in store.games(number) if row.table is not None]
        return number, sum(row.result is None for row in rows), len(rows)

    def _finished(self) -> bool:
        if self.server is None:
            return False
        store = self.server.store
        return store.last_round() == self.rounds and self.server.round_complete() and not any(
            table.busy for table in self.tables)

    def _progress(self) -> str:
        view = self._store_view()
        if view is None:
            return "the server is down"
        stuck = ["%s %s (%s, ply %d)" % (table.table_id, table.agent.game,
                                          table.runner.session.guide.phase,
                                          len(table.runner.session.game.moves))
                 for table in self.tables if table.busy]
        return "round %d, %d of %d games still playing: %s" % (view + ("; ".join(stuck),))

    def summary(self) -> dict[str, Any]:
        """{"games", "results_recorded", "duplicates", "rejected", "standings", "faults",
        "tls"}, and with attacks {"attacks", "refused", "rejected_by_reason", "held"}."""
        store = Store(self.database)
        try:
            games = [row for row in store.games() if row.table is not None]
            snapshot = standings_rows(store)
            duplicates = sum(row.duplicates for row in games)
            rejected = sum(store.rejected_counts().values())
        finally:
            store.close()
        return {"games": len(games),
                "results_recorded": sum(row.result is not None for row in games),
                "duplicates": duplicates, "rejected": rejected, "standings": snapshot,
                "faults": list(self.faults.done) if self.faults is not None else [],
                "tls": self.tls is not None, **self._attacks_summary()}

    def _attacks_summary(self) -> dict[str, Any]:
        """With attacks: what was tried, and what the event made of it (the broker's
        refusals and the rate limit's, the rejected messages by reason, the held results)."""
        if self.attacks is None:
            return {}
        with Store(self.database) as store:
            return {"attacks": list(self.attacks), "refused": self.refusals.counts(),
                    "rejected_by_reason": store.rejected_counts(),
                    "held": [(item.game_id, item.decision) for item in store.held()]}


def reference_standings(tables: int, rounds: int, *, system: str = "swiss",
                        seed: int = 1, match_format: str = "game",
                        options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The standings a demo of `tables` and `rounds` must end with, worked out without boards,
    broker or clock: the same players, the same pairing code, and each game (or match of
    hands, each next hand arranged as the simulated players arrange it) played straight on
    the rules engine with the moves the simulated players choose. A demo whose boards, links
    or server went wrong anywhere, or recorded a result twice, ends otherwise."""
    store = Store(":memory:")
    try:
        ratings = set_up_event(store, tables, rounds, system, seed, match_format=match_format,
                               options=options)
        server = TournamentServer(store, "mqtt://127.0.0.1:1")     # never connected
        for _ in range(rounds):
            server.pair_next_round()
            names = {player.number: player.name for player in store.players()}
            for row in store.games(store.last_round()):
                if row.table is None:
                    continue
                players = (names[row.pairing.south], names[row.pairing.north])

                def play(game: Game, hand: int = 1) -> None:
                    while not game.over:
                        nodes = nodes_for(ratings[players[game.to_move]])
                        game.push(chosen_move(game, row.id, nodes, hand))

                if match_format == "hands":
                    match = Match(VARIANT, options)
                    while True:
                        play(match.game, len(match.games))
                        match.end_hand()
                        if match.over:
                            break
                        held = match.holdings[match.arranger]
                        match.arrange(arranged_row(held, match.rules.n))    # mirrored
                    winner, seeds = match.winner, match.holdings
                else:
                    game = Game(VARIANT, options)
                    play(game)
                    winner, seeds = game.winner(), game.scores
                points = 0.5 if winner is None else 1.0 - winner
                store.record_result(row.id, Result(points, *seeds), "", "arbiter")
        return standings_rows(store)
    finally:
        store.close()


def temporary_directory() -> Path:
    return Path(tempfile.mkdtemp(prefix="layli-demo-"))


def remove(directory: Path) -> None:
    shutil.rmtree(directory, ignore_errors=True)
