"""The README's pictures of the board in the browser, made afresh (host-only).

    python -m simulator.ui.screenshot docs/ [--chromium /usr/bin/chromium]

Writes into the folder given:

- `board-play.png`: the play way on a laptop, South to choose a move after a few moves (the
  lit pits, the narration of the last move);
- `board-rehearse.png`: rehearsing the board on a laptop, in the middle of a move (the ring
  where the next seed goes, the hand);
- `board-phone.png`: a phone held upright (390 x 844), rehearsing an Uur's step (its two
  places lit, one seed out and one in);
- `board-lesson.png`: the first lesson of "Learn by playing" on a laptop.

Each is a table served on a free port, played to its moment by a hand that follows the LEDs,
and photographed by headless Chromium driven by Playwright.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from controller.guide import frame as frames
from simulator.ui.app import create_app
from simulator.ui.server import start_in_thread
from simulator.ui.table import PLAY, REHEARSE, Table

CHROMIUM = "/usr/bin/chromium"
LAPTOP = {"viewport": {"width": 1360, "height": 1000}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def play(table: Table, moves: int, drops: int, seed: int) -> None:
    """`moves` whole moves and then `drops` actions of the next, as a person following the
    LEDs would make them."""
    hand = table.hand
    hand.rng = random.Random(seed)
    while len(table.game.moves) < moves:
        table.act_as_hand(hand.next_action(table.guide.frame, table.counts))
    for _ in range(drops):
        table.act_as_hand(hand.next_action(table.guide.frame, table.counts))


def play_until(table: Table, pattern: str, limit: int = 5000) -> None:
    """The hand follows the LEDs until a place shows `pattern`."""
    for _ in range(limit):
        if table.guide.frame.where(pattern):
            return
        table.act_as_hand(table.hand.next_action(table.guide.frame, table.counts))
    raise RuntimeError("no place showed %r in %d actions" % (pattern, limit))


def pictures() -> list[tuple[str, dict, dict]]:
    """(file name, the table's settings, the page's) for each picture."""
    return [("board-play.png", {"mode": "computer", "way": PLAY}, LAPTOP),
            ("board-rehearse.png", {"mode": "computer", "way": REHEARSE}, LAPTOP),
            ("board-phone.png", {"mode": "people", "way": REHEARSE}, PHONE),
            ("board-lesson.png", {"mode": "people", "way": PLAY}, LAPTOP)]


def set_up(name: str, table: Table, seed: int) -> None:
    """Play the table to the picture's moment."""
    if name == "board-play.png":
        play(table, 4, 0, seed)
    elif name == "board-rehearse.png":
        play(table, 4, 3, seed)
    elif name == "board-phone.png":
        table.hand.rng = random.Random(1)
        play_until(table, frames.UUR_FROM)
    else:
        table.start_lesson(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simulator.ui.screenshot",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="where the PNG files go (made if missing)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--chromium", default=CHROMIUM, help="the browser to drive")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, headless=True)
        try:
            for name, settings, screen in pictures():
                seed = 1 if name == "board-phone.png" else args.seed
                app = create_app(seed=seed, **settings)
                set_up(name, app.state.table, args.seed)
                url, server, thread = start_in_thread(app)
                try:
                    page = browser.new_page(**screen)
                    page.goto(url)
                    page.wait_for_function("layli.state !== null")
                    time.sleep(0.3)             # a pulse near its brightest
                    page.screenshot(path=str(folder / name))
                    page.close()
                finally:
                    server.should_exit = True
                    thread.join(5)
                print("wrote %s" % (folder / name))
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
