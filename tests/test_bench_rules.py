"""`layli bench rules`: runs, prints the JSON it promises, refuses bad arguments (no timing
assertions: the figures depend on the machine)."""

from __future__ import annotations

import json
import subprocess
import sys
import os

import pytest

from controller import micropython
from controller.commands.bench_rules import REFERENCE
from controller.cli import main

QUICK = ["bench", "rules", "--json", "--seconds", "0.02", "--runs", "1"]


def _need_micropython() -> None:
    """Skip locally without node or the npm package; fail in CI (see test_micropython.py)."""
    reason = micropython.unavailable_reason()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail("%s (the bench must run in CI)" % reason, pytrace=False)
    pytest.skip(reason)


def _positive_rates(figures: dict) -> None:
    assert set(figures) == {"playouts_per_s", "moves_per_s"}, figures
    assert figures["playouts_per_s"] > 0 and figures["moves_per_s"] > 0, figures


@pytest.mark.micropython
def test_bench_json(capsys):
    _need_micropython()
    assert main(QUICK + ["--variant", "tampoduo"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert list(report) == ["tampoduo", REFERENCE]
    assert set(report["tampoduo"]) == {"cpython", "micropython", "heap_bytes"}
    assert set(report[REFERENCE]) == {"cpython", "micropython"}
    for name in report:
        _positive_rates(report[name]["cpython"])
        _positive_rates(report[name]["micropython"])
    assert isinstance(report["tampoduo"]["heap_bytes"], int)
    assert report["tampoduo"]["heap_bytes"] > 0


@pytest.mark.micropython
def test_bench_table(capsys):
    _need_micropython()
    assert main(["bench", "rules", "--seconds", "0.02", "--runs", "1",
                 "--variant", "mangala-iv", "--variant", "mangala-iv"]) == 0
    out = capsys.readouterr().out
    rows = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert rows.count("mangala-iv") == 1 and REFERENCE in rows, out
    assert "heap per game" in out


@pytest.mark.parametrize("argv, complaint", [
    (["--runs", "0"], "--runs"),
    (["--runs", "many"], "--runs"),
    (["--seconds", "0"], "--seconds"),
    (["--seconds", "-1"], "--seconds"),
    (["--variant", "oware"], "--variant"),
])
def test_bench_bad_arguments(capsys, argv, complaint):
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "rules", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: " in err and complaint in err, err


def test_bench_without_micropython(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("LAYLI_MICROPYTHON_PACKAGE", str(tmp_path))
    assert main(QUICK + ["--variant", "tampoduo"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("layli: error: ") and captured.err.count("\n") == 1
    assert "npm ci --prefix firmware" in captured.err


def test_bench_guide_reports_the_cost_of_a_frame():
    result = subprocess.run([sys.executable, "-m", "controller", "bench", "guide", "--variant",
                             "mangala-iv", "--runs", "1", "--json"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["variant"] == "mangala-iv" and report["sim_seconds"] > 60
    for runtime in ("cpython", "micropython"):
        figures = report[runtime]
        assert figures["frames"] > 1000 and figures["guide_updates"] > 10
        assert figures["us_per_frame"] > 0 and figures["us_per_guide_update"] > 0
