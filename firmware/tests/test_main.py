"""main.py: the mode from config.json, safe mode, and what a broken start says."""

import json
import machine
import rig
import main
from bridge import Bridge
from port import MemoryPort
from standalone import CALIBRATION, Standalone, save_text


def test_start_builds_the_mode_the_config_asks_for():
    clock = rig.fresh_pico()
    app = main.start(rig.board_config("bridge"), clock, MemoryPort())
    assert isinstance(app, Bridge)
    clock = rig.fresh_pico()
    folder = rig.fresh_folder("main")
    save_text(folder + CALIBRATION, rig.calibration_json())
    app = main.start(rig.board_config("standalone"), clock, folder=folder)
    assert isinstance(app, Standalone)
    assert machine.WDT.instance is None         # the watchdog waits for the main loop


def test_confirm_held_at_boot_is_safe_mode():
    clock = rig.fresh_pico()
    machine.drive(rig.BUTTONS["confirm"], 0)
    assert main.start(rig.board_config("bridge"), clock, MemoryPort()) is None
    assert machine.WDT.instance is None


def test_main_reads_the_config_file():
    folder = rig.fresh_folder("mainconfig")
    assert main.main(folder + "missing.json") is None           # says so, and returns
    with open(folder + "config.json", "w") as handle:
        handle.write(json.dumps({"mode": "bridge"}))
    assert main.main(folder + "config.json") is None            # 'profile' is missing


def test_a_crash_leaves_its_traceback():
    folder = rig.fresh_folder("crash")
    try:
        {}["missing"]
    except KeyError as error:
        main.record_crash(error, folder + "crash.txt")
    text = open(folder + "crash.txt").read()
    assert "KeyError" in text and "missing" in text
