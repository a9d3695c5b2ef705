"""`layli bench tournament`: short real runs (a broker, the server, the live pages, WebSocket
clients, the tables in their own process) whose counts add up and whose delays are real;
the figures' arithmetic; bad arguments exit 2 with one line, a run that cannot be made 1."""

import json
import math

import pytest

from controller.commands import bench_tournament
from controller.commands.bench_tournament import (MoveKey, TablesProcess, bench, percentile, spread,
                                         tally)
from controller.cli import main
from controller.tournament.broker import BrokerError, find_mosquitto, free_port

KEYS = {"tables", "seconds", "rate", "broker", "clients", "sent", "per_client", "delay_ms",
        "target_ms", "target_met", "publish_late_ms", "load", "server_rejected", "flood",
        "flood_sent", "server_limited", "wall_seconds"}


def needs_mosquitto():
    try:
        find_mosquitto()
    except BrokerError as error:
        pytest.skip(str(error))


# --- the figures -------------------------------------------------------------------------------

def test_percentile_is_the_nearest_rank():
    values = [float(x) for x in range(1, 101)]          # 1 .. 100
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile(values, 1.0) == 100.0
    assert percentile([7.0], 0.99) == 7.0
    assert spread([3.0, 1.0, 2.0]) == {"p50": 2.0, "p90": 3.0, "p99": 3.0, "max": 3.0}
    assert spread([]) is None
    with pytest.raises(ValueError, match="no values"):
        percentile([], 0.5)
    with pytest.raises(ValueError, match="fraction"):
        percentile([1.0], 0)


def test_tally_tells_coalesced_from_lost():
    a = [MoveKey("table-1", "g/r1/b1", ply, 100.0 + ply) for ply in (1, 2, 3, 4)]
    b = [MoveKey("table-2", "g/r1/b2", ply, 200.0 + ply) for ply in (1, 2)]
    sent = [a[0], b[0], a[1], b[1], a[2], a[3]]
    # table-1: ply 2 skipped (ply 3 came later): coalesced; ply 4 never came: lost.
    # table-2: ply 2 never came and nothing after it: lost.
    seen = {a[0]: 101.1, a[2]: 103.1, b[0]: 201.1}
    assert tally(sent, seen, 9) == bench_tournament.ClientTally(3, 1, 2, 9)
    assert tally(sent, {}, 0) == bench_tournament.ClientTally(0, 0, 6, 0)


def check_report(report: dict, tables: int, seconds: float, rate: float, clients: int) -> None:
    """The counts add up, every delay figure is a positive finite number, nothing rejected."""
    assert set(report) == KEYS
    assert report["sent"] == round(tables * seconds * rate)
    assert len(report["per_client"]) == clients
    for client in report["per_client"]:
        assert client["received"] + client["coalesced"] + client["lost"] == report["sent"]
        assert client["lost"] == 0, client
        assert client["messages"] >= client["received"]
    delay = report["delay_ms"]
    assert set(delay) == {"p50", "p90", "p99", "max"}
    assert all(math.isfinite(value) and value > 0 for value in delay.values())
    assert delay["p50"] <= delay["p90"] <= delay["p99"] <= delay["max"]
    assert report["target_ms"] == 250
    assert report["target_met"] == (delay["p99"] < 250)
    assert len(report["load"]["start"]) == len(report["load"]["end"]) == 3
    assert report["server_rejected"] == 0


# --- real runs ---------------------------------------------------------------------------------

def test_a_short_run_on_the_embedded_broker_accounts_for_every_move():
    report = bench(tables=4, seconds=3, rate=2.0, broker="embedded", clients=2)
    check_report(report.as_json(), 4, 3, 2.0, 2)
    # one delay per move each client received, each a positive finite number of ms
    assert len(report.delays_ms) == sum(client.received for client in report.per_client)
    assert all(math.isfinite(delay) and delay > 0 for delay in report.delays_ms)
    assert len(report.late_ms) == report.sent
    assert report.broker == "embedded"


@pytest.mark.parametrize("broker", ["mosquitto", "embedded"])
def test_a_flooding_table_is_dropped_at_the_door_and_the_others_are_measured(broker):
    if broker == "mosquitto":
        needs_mosquitto()
    report = bench(tables=3, seconds=2, rate=2.0, broker=broker, flood=500.0)
    figures = report.as_json()
    assert figures["per_client"][0]["lost"] == 0 and report.sent == 12
    # every flood message reached the server and was dropped unread or rejected
    assert report.flood_sent >= 900
    assert report.limited + report.rejected == report.flood_sent
    assert report.limited > report.rejected
    assert figures["flood"] == 500.0 and figures["server_limited"] == report.limited
    assert any(line.startswith("table-flood sent %d bad messages" % report.flood_sent)
               for line in report.lines())


def test_the_command_over_mosquitto_prints_one_json_object(capsys):
    needs_mosquitto()
    assert main(["bench", "tournament", "--tables", "4", "--seconds", "3", "--broker",
                 "mosquitto", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    report = json.loads(out)
    assert (report["tables"], report["broker"], report["clients"]) == (4, "mosquitto", 1)
    check_report(report, 4, 3, 1.0, 1)


def test_the_command_says_whether_the_target_was_met(capsys):
    assert main(["bench", "tournament", "--tables", "2", "--seconds", "1", "--broker",
                 "embedded"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("layli bench tournament: 2 tables x 1 move/s for 1 s")
    assert lines[1] == "moves sent: 2" or lines[1].startswith("moves sent: 2 (")
    assert lines[2].startswith("client 1: received 2, coalesced 0, lost 0")
    assert lines[3].startswith("delay from a table's publish to a live page: p50 ")
    assert lines[4] in ("target (p99 under 250 ms): met", "target (p99 under 250 ms): NOT met")


def test_tables_that_cannot_connect_stop_the_run_saying_so(tmp_path):
    tables = TablesProcess({
        "url": "mqtt://127.0.0.1:%d" % free_port(), "passwords": {"table-1": "x" * 20},
        "directory": str(tmp_path), "seed": 1, "seconds": 1, "rate": 1.0, "log_level": 40,
        "connect_seconds": 0.5})
    try:
        with pytest.raises(bench_tournament.BenchError,
                           match=r"1 of 1 tables not connected .*table-1 \(not connected\)"):
            tables.expect("ready", 30)
    finally:
        tables.stop()
    assert tables.process.returncode == 0


# --- bad arguments -----------------------------------------------------------------------------

@pytest.mark.parametrize("argv, complaint", [
    (["--tables", "0"], "--tables"),
    (["--tables", "many"], "--tables"),
    (["--seconds", "0"], "--seconds"),
    (["--seconds", "-5"], "--seconds"),
    (["--rate", "0"], "--rate"),
    (["--rate", "101"], "--rate"),
    (["--clients", "0"], "--clients"),
    (["--broker", "nats"], "--broker"),
    (["--seed", "-1"], "--seed"),
    (["--flood", "-1"], "--flood"),
    (["--flood", "lots"], "--flood"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv, complaint):
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "tournament", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: " in err and complaint in err, err


def test_mosquitto_asked_for_but_missing_exits_2(capsys, monkeypatch):
    def missing(binary="mosquitto"):
        raise BrokerError("mosquitto not found: install Mosquitto")
    monkeypatch.setattr(bench_tournament, "find_mosquitto", missing)
    assert main(["bench", "tournament", "--broker", "mosquitto"]) == 2
    err = capsys.readouterr().err
    assert err == "layli: error: --broker mosquitto: mosquitto not found: install Mosquitto\n"


@pytest.mark.parametrize("arguments, complaint", [
    ({"tables": 0}, "tables must be"),
    ({"seconds": 0}, "seconds must be"),
    ({"rate": -1.0}, "rate must be"),
    ({"broker": "nats"}, "broker must be"),
    ({"clients": 0}, "clients must be"),
    ({"flood": -1.0}, "flood must be"),
])
def test_the_function_refuses_arguments_out_of_range(arguments, complaint):
    with pytest.raises(ValueError, match=complaint):
        bench(**arguments)
