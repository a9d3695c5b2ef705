"""The pages against axe-core, Deque's accessibility rules (the engine behind Lighthouse's and
most browsers' accessibility audits), in real headless Chromium: the board in the browser in
both ways to play, the table companion and the tournament's live page have no serious or
critical violation.

axe-core comes from npm (`npm ci --prefix tests`, which .ci/run does). Without it these tests
skip here and fail in CI.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chromium import needs_chromium

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")

pytestmark = needs_chromium


@pytest.fixture
def axe():
    """A check of an open page: its serious and critical violations, each in one line."""
    if not AXE.is_file():
        reason = "axe-core is not installed: run `npm ci --prefix tests`"
        if os.environ.get("CI"):
            pytest.fail(reason + " (the accessibility check must run in CI)", pytrace=False)
        pytest.skip(reason)

    def check(page) -> list[str]:
        # evaluated by the browser's debugging protocol: the pages' content security policy
        # refuses an inline script tag, as it should
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
        found = page.evaluate("async () => (await axe.run(document)).violations")
        return ["%s (%s): %s, at %s" % (v["id"], v["impact"], v["help"],
                                        json.dumps([node["target"] for node in v["nodes"]][:3]))
                for v in found if v["impact"] in SERIOUS]
    return check


@pytest.mark.parametrize("way, screen", [("play", "laptop"), ("rehearse", "laptop"),
                                         ("rehearse", "phone")])
def test_the_board_in_the_browser(browser, axe, way, screen):
    from simulator.ui.app import create_app
    from simulator.ui.server import start_in_thread
    from test_browser_table import PHONE

    app = create_app(mode="computer", seed=1, way=way)
    url, server, thread = start_in_thread(app)
    page = browser.new_page(**(PHONE if screen == "phone" else
                               {"viewport": {"width": 1300, "height": 800}}))
    try:
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        assert axe(page) == []
        page.click("#simulation summary")         # the board simulation part, opened
        assert axe(page) == []
        page.click("#learn")                      # a lesson of the first game
        page.wait_for_function("() => layli.state.lesson !== null")
        assert axe(page) == []
    finally:
        page.close()
        server.should_exit = True
        thread.join(5)


def test_the_table_companion(browser, axe, tmp_path):
    from test_companion import PLAYERS, feed, make_runner
    from controller.web import Publisher, create_app, start_in_thread

    publisher = Publisher()
    url, server, thread = start_in_thread(create_app(publisher))
    io, runner = make_runner(tmp_path, publisher.publish)
    page = browser.new_page()
    try:
        page.goto(url)
        feed(io, runner, [4] * 12 + [0, 0], 0)
        page.wait_for_function("names => document.body.textContent.includes(names[0])",
                               arg=list(PLAYERS))
        assert axe(page) == []
    finally:
        page.close()
        server.should_exit = True
        thread.join(5)


def test_the_tournaments_live_page(browser, axe):
    from controller.web.server import start_in_thread
    from test_tournament_web import LiveEvent

    event = LiveEvent()
    event.server.pair_next_round()
    url, server, thread = start_in_thread(event.app)
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    try:
        page.goto(url)
        page.wait_for_selector("#pairings tr[data-game]")
        assert axe(page) == []
    finally:
        page.close()
        server.should_exit = True
        thread.join(5)
