"""The README's pictures of the board in the browser, made afresh (host-only).

    python -m simulator.ui.screenshot docs/ [--chromium /usr/bin/chromium]

Writes into the folder given:

- `board-play.png`: the play way on a laptop, South to choose a move after a few moves (the
  lit pits, the narration of the last move);
- `board-rehearse.png`: rehearsing the board on a laptop, in the middle of a move (the ring
  where the next seed goes, the hand);
- `board-phone.png`: a phone held upright (390 x 844), rehearsing an Uur's step (its two
  places lit, one seed out and one in);
- `board-lesson.png`: the first lesson of "Learn by playing" on a laptop;
- `board-somali.png`: the play way as a browser set to Somali shows it (the page's language
  is the browser's).

Each is a table served on a free port, played to its moment by a hand that follows the LEDs,
and photographed by headless Chromium driven by Playwright.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

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


def play_until(table: Table, pattern: str, limit: int = 5000) -> list[int]:
    """The hand follows the LEDs until a place shows `pattern`; those places."""
    for _ in range(limit):
        places = table.guide.frame.where(pattern)
        if places:
            return places
        table.act_as_hand(table.hand.next_action(table.guide.frame, table.counts))
    raise RuntimeError("no place showed %r in %d actions" % (pattern, limit))


@dataclass(frozen=True)
class Picture:
    """One picture: its file, the table's settings, the page's screen, and how the table is
    played to the picture's moment (from the command's seed)."""

    name: str
    table: dict
    screen: dict
    moment: Callable[[Table, int], object]


def _uur_step(table: Table, seed: int) -> None:
    table.hand.rng = random.Random(1)
    play_until(table, frames.UUR_FROM)


PICTURES = (
    Picture("board-play.png", {"mode": "computer", "way": PLAY}, LAPTOP,
            lambda table, seed: play(table, 4, 0, seed)),
    Picture("board-rehearse.png", {"mode": "computer", "way": REHEARSE}, LAPTOP,
            lambda table, seed: play(table, 4, 3, seed)),
    # seed 1's game has an Uur early
    Picture("board-phone.png", {"mode": "people", "way": REHEARSE, "seed": 1}, PHONE, _uur_step),
    Picture("board-lesson.png", {"mode": "people", "way": PLAY}, LAPTOP,
            lambda table, seed: table.start_lesson(1)),
    Picture("board-somali.png", {"mode": "computer", "way": PLAY}, {**LAPTOP, "locale": "so"},
            lambda table, seed: play(table, 4, 0, seed)),
)


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
            for picture in PICTURES:
                app = create_app(**{"seed": args.seed, **picture.table})
                picture.moment(app.state.table, args.seed)
                url, server, thread = start_in_thread(app)
                try:
                    page = browser.new_page(**picture.screen)
                    page.goto(url)
                    page.wait_for_function("() => layli.state !== null")
                    time.sleep(0.3)             # a pulse near its brightest
                    page.screenshot(path=str(folder / picture.name))
                    page.close()
                finally:
                    server.should_exit = True
                    thread.join(5)
                print("wrote %s" % (folder / picture.name))
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
