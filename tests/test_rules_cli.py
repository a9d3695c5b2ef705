"""The `layli rules` command line: docs/rules.md section 8's JSON lines, errors and exit codes."""

import json
import subprocess
import sys

import pytest

KEYS = ["ply", "pits", "uur", "captured", "to_move", "legal", "over", "scores"]


def layli(*args):
    return subprocess.run([sys.executable, "-m", "controller", *args],
                          capture_output=True, text=True, timeout=120)


def test_replay_prints_one_object_per_position_with_the_keys_in_order():
    result = layli("rules", "replay", "layli-goobalay", "3", "1")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for ply, line in enumerate(lines):
        position = json.loads(line)
        assert list(position) == KEYS and position["ply"] == ply
        assert line == json.dumps(position)     # separators ", " and ": "
    assert json.loads(lines[0])["pits"] == [4] * 12


def test_moves_may_follow_options():
    result = layli("rules", "replay", "layli-goobalay", "3", "--first", "0", "1")
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 3


def test_replay_options_setup_and_first():
    result = layli("rules", "replay", "tampoduo", "--setup", "1,0,0,0,0,1,0,0,0,0,0,0",
                   "--option", "must_feed=true", "--first", "0")
    assert result.returncode == 0
    assert json.loads(result.stdout)["legal"] == [6]
    north = layli("rules", "replay", "layli-goobalay", "--first", "1")
    assert json.loads(north.stdout)["to_move"] == 1


def test_replay_to_end_plays_the_forced_moves():
    result = layli("rules", "replay", "mangala-iv", "--to-end")
    last = json.loads(result.stdout.splitlines()[-1])
    assert result.returncode == 0 and last["over"] and last["scores"] == [46, 51]


def test_mangala_random_setup_is_dealt_and_printed_as_counts():
    result = layli("rules", "replay", "mangala-iv", "--option", "setup=random")
    pits = json.loads(result.stdout)["pits"]
    assert result.returncode == 0 and sum(pits) == 98 and min(pits) >= 2


def test_an_illegal_move_prints_the_positions_before_it_then_one_error_line():
    result = layli("rules", "replay", "layli-goobalay", "3", "5", "1")
    assert result.returncode == 2
    assert len(result.stdout.splitlines()) == 2
    assert result.stderr.count("\n") == 1
    assert "ply 2: North's move 5 is not legal: pit 5 is empty (legal: 1, 3, 4, 6)" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["rules", "replay", "oware"], "unknown variant 'oware'"),
    (["rules", "replay", "layli-goobalay", "--option", "colour=red"], "unknown option 'colour'"),
    (["rules", "replay", "layli-goobalay", "--option", "endless_bound"], "not NAME=VALUE"),
    (["rules", "replay", "layli-goobalay", "--option", "hands=1", "--option", "hands=2"],
     "given twice"),
    (["rules", "replay", "layli-goobalay", "--setup", "4,4,4"], "has 3 counts"),
    (["rules", "replay", "layli-goobalay", "--setup", "4,4,x,4,4,4,4,4,4,4,4,4"],
     "--setup count 3 'x' is not a whole number"),
    (["rules", "replay", "layli-goobalay", "--setup=-1,4,4,4,4,4,4,4,4,4,4,4"], "negative"),
    (["rules", "replay", "layli-goobalay", "--first", "2"], "invalid choice"),
    (["rules", "replay", "layli-goobalay", "--to-end"], "no forced start"),
    (["rules", "replay", "layli-goobalay", "0"], "not a pit number"),
    (["rules", "replay", "layli-goobalay", "three"], "not a pit number 1..6 (legal: 1, 2, 3"),
    (["rules", "replay", "layli-goobalay", "\u00b2"], "not a pit number"),
    (["rules", "replay", "layli-goobalay", "\u0663"], "not a pit number"),
    (["rules", "replay", "layli-goobalay", "9" * 5000], "not a pit number"),
    (["rules", "replay", "layli-goobalay", "--setup", "4," * 11 + "9" * 5000], "too large"),
    (["rules", "replay", "layli-goobalay", "--option", "endless_bound=\u00b2"],
     "not a whole number"),
    (["rules", "replay", "layli-goobalay", "--setup", "0,0,0,0,0,0,1,1,1,1,1,1", "1"],
     "after the end of the game"),
])
def test_bad_input_gets_one_line_and_exit_status_2(args, message):
    result = layli(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_variants_lists_every_variant_and_option_with_sources():
    result = layli("rules", "variants", "--json")
    data = json.loads(result.stdout)
    assert sorted(data) == ["layli-goobalay", "layli-goobalay-long", "mangala-iv", "tampoduo"]
    assert data["layli-goobalay"]["options"]["capture_last_seed"]["default"] is True
    assert data["mangala-iv"]["options"]["start"]["choices"] == ["leftmost", "rightmost", "free"]
    # Mangala IV takes `endless` and ignores it (docs/rules.md 6): its text says so
    assert data["mangala-iv"]["options"]["endless"]["what"].startswith("no effect in Mangala IV")
    assert data["tampoduo"]["options"]["endless"]["what"].startswith("illegal:")
    assert all(variant["sources"] for variant in data.values())
    text = layli("rules", "variants").stdout
    assert "--option endless_bound=1..10000000 (default 10000)" in text


HEAVY = ("controller.tournament", "controller.web", "simulator", "paho", "amqtt", "starlette",
         "uvicorn", "networkx")


@pytest.mark.parametrize("args", [("rules", "variants"), ("--help",), ("rules", "replay",
                                                                      "tampoduo", "1")])
def test_a_rules_command_loads_no_web_tournament_or_simulator_module(args):
    """The parser is built with the options of the command given alone: `layli rules
    variants` (and `layli --help`) import none of the web, tournament or simulator stack,
    which took 0.6 to 1 s to load (seconds on a Pi)."""
    code = ("import sys\nfrom controller.cli import main\ntry:\n    main(%r)\n"
            "except SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if m.split('.')[0]"
            " in %r or m.startswith(%r)), file=sys.stderr)" % (
                list(args), [name for name in HEAVY if "." not in name],
                tuple(name for name in HEAVY if "." in name)))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.stderr.strip().splitlines()[-1] == "[]", result.stderr[-2000:]
    assert result.stdout.strip(), result.stderr[-2000:]


def test_every_command_still_has_its_options():
    """`layli COMMAND --help`, the parser built for that command alone, says what it says
    with every command's options configured."""
    import contextlib
    import io

    from controller.cli import COMMANDS, build_parser

    def shown(parser, argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            parser.parse_args(argv)
        return out.getvalue()

    every = build_parser()
    for words, _, _ in COMMANDS:
        argv = list(words) + ["--help"]
        alone = shown(build_parser(argv), argv)
        assert "options:" in alone and alone == shown(every, argv), words


def test_check_reads_a_record_and_names_a_wrong_move(tmp_path):
    from controller.rules import Game
    from controller.rules.record import game_to_json, write_game

    game = Game("layli-goobalay")
    for move in [3, 1, 2]:
        game.push(move)
    good = tmp_path / "game.pgn"
    good.write_text(write_game(game, {"South": "Ayan", "North": "Hodan"}))
    result = layli("rules", "check", str(good), "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["games"] == [{
        "hand": None, "variant": "layli-goobalay", "moves": 3, "result": "*", "scores": None,
        "termination": None}]
    as_json = tmp_path / "game.json"
    as_json.write_text(game_to_json(game))
    assert layli("rules", "check", str(as_json)).returncode == 0
    bad = tmp_path / "bad.pgn"
    bad.write_text(good.read_text().replace("1. 3 1", "1. 3 5"))
    result = layli("rules", "check", str(bad))
    assert result.returncode == 2
    assert "move 1 (North 5): not legal (legal: 1, 3, 4, 6)" in result.stderr
    missing = layli("rules", "check", str(tmp_path / "none.pgn"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_the_startup_benchmark_measures_against_the_bare_interpreter(capsys):
    """benchmarks/startup.py: each command's median, and that less the bare interpreter's
    median measured in the same run; a run count under one is refused."""
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from benchmark_scripts import load_benchmark

    startup = load_benchmark("startup")
    figures = startup.summary({"python -c pass": [0.1, 0.3, 0.2],
                               "layli --help": [0.5, 0.4, 0.45]})
    assert figures["layli --help"] == {"median_s": 0.45, "over_python_s": 0.25, "runs": 3}
    assert figures["python -c pass"]["over_python_s"] == 0
    with pytest.raises(SystemExit) as stopped:
        startup.main(["--runs", "0"])
    assert stopped.value.code == 2 and "--runs must be at least 1" in capsys.readouterr().err
