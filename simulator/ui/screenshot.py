"""A screenshot of the board in the browser, for the README (host-only).

    python -m simulator.ui.screenshot docs/board.png [--moves 4] [--chromium /usr/bin/chromium]

Serves a table on a free port (rehearsing the board: every seed by hand), plays a few moves on
it by a hand that follows the LEDs (and stops in the middle of the next one, so the rings show
where the next seed goes), then has headless Chromium, driven by Playwright, photograph the
page.
"""

from __future__ import annotations

import argparse
import random
import time

from simulator.ui.app import create_app
from simulator.ui.server import start_in_thread
from simulator.ui.table import REHEARSE, Table

CHROMIUM = "/usr/bin/chromium"


def play(table: Table, moves: int, drops: int, seed: int) -> None:
    """`moves` whole moves and then `drops` actions of the next, as a person following the
    LEDs would make them."""
    hand = table.hand
    hand.rng = random.Random(seed)
    while len(table.game.moves) < moves:
        table.act_as_hand(hand.next_action(table.guide.frame, table.counts))
    for _ in range(drops):
        table.act_as_hand(hand.next_action(table.guide.frame, table.counts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simulator.ui.screenshot",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the PNG file to write")
    parser.add_argument("--moves", type=int, default=4, help="whole moves before (default 4)")
    parser.add_argument("--drops", type=int, default=3, help="actions into the next move")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--chromium", default=CHROMIUM, help="the browser to drive")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    app = create_app(mode="computer", seed=args.seed, way=REHEARSE)
    play(app.state.table, args.moves, args.drops, args.seed)
    url, server, thread = start_in_thread(app)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, headless=True)
            page = browser.new_page(viewport={"width": 1360, "height": 1000})
            page.goto(url)
            page.wait_for_function("layli.state !== null")
            time.sleep(0.3)             # a pulse near its brightest
            page.screenshot(path=args.out)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(5)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
