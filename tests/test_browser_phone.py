"""The board in the browser on a phone held upright (issue 16, item 7): real headless Chromium
with a touch screen at 390 x 844, every action by a tap or a finger's drag."""

from __future__ import annotations

import pytest

from chromium import needs_chromium
from controller.guide import frame as frames
from controller.rules import VARIANTS
from simulator.ui.app import create_app
from simulator.ui.screenshot import play_until
from simulator.ui.table import REHEARSE, Table
from test_browser_table import PHONE, Page

FINGERTIP = 44          # px: the smallest target a finger hits reliably (WCAG 2.5.5, Apple HIG)


@pytest.fixture
def phone(browser):
    """A page on a phone for a table served on a free port: (page, table, serve)."""
    from simulator.ui.server import start_in_thread
    context = browser.new_context(**PHONE)
    servers = []

    def serve(variant: str = "layli-goobalay", **kwargs):
        app = create_app(variant, seed=1, **kwargs)
        url, server, thread = start_in_thread(app)
        servers.append((server, thread))
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => layli.state !== null")
        return page, app.state.table

    yield serve
    context.close()
    for server, thread in servers:
        server.should_exit = True
        thread.join(5)


def boxes(page, selector: str) -> list[dict]:
    return page.evaluate("s => [...document.querySelectorAll(s)].map(e => {"
                         "const r = e.getBoundingClientRect();"
                         "return {x: r.x, y: r.y, width: r.width, height: r.height}; })",
                         selector)


@needs_chromium
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_upright_the_board_fits_the_phone_and_every_pit_is_a_fingertip_wide(phone, variant):
    page, table = phone(variant)
    n = table.game.rules.n
    assert page.evaluate("document.querySelector('#table').classList.contains('upright')")
    pits = boxes(page, "#board .pit")
    assert len(pits) == 2 * n
    assert min(min(box["width"], box["height"]) for box in pits) >= FINGERTIP, pits
    stores = boxes(page, "#board .store")
    assert min(min(box["width"], box["height"]) for box in stores) >= FINGERTIP
    # nothing wider than the screen: no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    board = boxes(page, "#board")[0]
    if n <= 7:
        # the short boards and the buttons are on the first screen, without scrolling
        assert board["y"] + board["height"] <= 844
        buttons = boxes(page, "#buttons button:not([hidden])")
        assert buttons and max(b["y"] + b["height"] for b in buttons) <= 844
    # every button a fingertip high
    assert min(b["height"] for b in boxes(page, "#buttons button:not([hidden])")) >= FINGERTIP


def at_the_light(page, table: Table, pattern: str) -> tuple[int, Page]:
    """The table played by its own hand until a place shows `pattern`, the page shown it
    afresh: (the first such place, the page)."""
    place = play_until(table, pattern)[0]
    page.reload()
    page.wait_for_function("() => layli.state !== null")
    return place, Page(page, table)


@needs_chromium
def test_rehearsing_an_uur_step_by_two_taps(phone):
    """The Uur's seed out of the pit that blinks twice, into the one that pulses: a tap on
    each (touch has no shift-click)."""
    page, table = phone(way=REHEARSE)
    source, board = at_the_light(page, table, frames.UUR_FROM)
    target = table.guide.frame.where(frames.UUR_TO)[0]
    before = table.counts[:]
    done = table.guide.done
    board.tap(source)                             # one seed out, not the whole pit lifted
    assert table.counts[source] == before[source] - 1 and table.hand.hand == 1
    board.tap(target)
    assert table.counts[target] == before[target] + 1 and table.hand.hand == 0
    assert table.guide.done == done + 1 or table.guide.phase != "sowing"
    assert not table.guide.frame.where(frames.FLASH)
    assert "Uur" in " ".join(table.said[-3:]) or table.game.uur != [None, None]


@needs_chromium
def test_a_seed_sown_into_the_wrong_pit_put_right_by_taps(phone):
    page, table = phone(way=REHEARSE)
    board = Page(page, table)
    board.tap(2)                                  # South lifts pit 3: 4 seeds
    expected = board.where("drop")[0]
    wrong = expected + 2
    board.tap(wrong)                              # a seed into the wrong pit: it flashes
    assert board.rings()[wrong] == ["error", "flash"]
    assert "belongs in" in page.locator("#status").inner_text()
    board.tap(wrong)                              # a tap on the flashing pit: the seed back
    assert board.rings()[wrong][1] != "flash" and table.hand.hand == 4
    assert page.locator("#status").inner_text() == "put right at %s" % table.place_name(wrong)
    board.tap(expected)
    assert table.counts[expected] == 5 and table.guide.done == 2


@needs_chromium
def test_one_seed_from_anywhere_by_the_one_seed_button_then_a_tap(phone):
    page, table = phone(way=REHEARSE)
    board = Page(page, table)
    assert page.locator("#one").is_visible()
    page.locator("#one").tap()
    assert page.locator("#one").get_attribute("aria-pressed") == "true"
    board.tap(7)                                  # one seed out of a steady (dark) pit
    assert table.counts[7] == 3 and table.hand.hand == 1
    assert page.locator("#one").get_attribute("aria-pressed") == "false"
    board.tap(7)                                  # the next tap drops it back
    assert table.counts[7] == 4 and table.hand.hand == 0


def touch_drag(page, source, target) -> None:
    """A finger pressed on `source`, moved, lifted on `target` (locators): Chromium's own
    touch events, which it turns into pointer events as a phone's would be."""
    cdp = page.context.new_cdp_session(page)
    start, end = source.bounding_box(), target.bounding_box()
    points = [(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)]
    for i in range(1, 6):
        points.append((points[0][0] + (end["x"] + end["width"] / 2 - points[0][0]) * i / 5,
                       points[0][1] + (end["y"] + end["height"] / 2 - points[0][1]) * i / 5))
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": points[0][0], "y": points[0][1]}]})
    for x, y in points[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                              "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@needs_chromium
def test_a_finger_drags_one_seed_to_a_pit_and_a_pit_onto_its_store(phone):
    page, table = phone(way=REHEARSE)
    board = Page(page, table)
    board.tap(2)                                  # South lifts pit 3
    expected = board.where("drop")[0]
    wrong = expected + 1
    board.tap(wrong)
    assert board.rings()[wrong] == ["error", "flash"]
    # the wrong seed dragged straight to where it belongs: one seed, the step taken
    board.answered(lambda: touch_drag(page, board.place(wrong), board.place(expected)))
    assert table.counts[wrong] == 4 and table.counts[expected] == 5 and table.guide.done == 2
    assert not board.where("flash")
    # a capture: the pit to empty dragged onto the lit store by a finger
    pit, board = at_the_light(page, table, frames.TAKE)
    store = [s for s in (12, 13) if table.guide.frame.pattern(s) == frames.STEADY][0]
    seeds, banked = table.counts[pit], table.counts[store]
    board.answered(lambda: touch_drag(page, board.place(pit), board.place(store)))
    assert table.counts[pit] == 0 and table.counts[store] == banked + seeds


@needs_chromium
def test_one_tap_does_what_the_light_asks_an_uur_step_and_a_capture(phone):
    """From a newcomer's review: a tap on the pit lit 1↓ first lifted its seed (a mistake);
    a tap on a pit lit ⇒, then on it again, dropped a seed back into it. Now a tap on 1↓
    moves the Uur's seed from the place lit 1↑, and a tap on ⇒ empties the pit into the lit
    store."""
    page, table = phone(way=REHEARSE)
    source, board = at_the_light(page, table, frames.UUR_FROM)
    target = table.guide.frame.where(frames.UUR_TO)[0]
    before = table.counts[:]
    board.tap(target)                             # the 1↓ pit alone
    assert table.counts[source] == before[source] - 1
    assert table.counts[target] == before[target] + 1 and table.hand.hand == 0
    assert not table.guide.frame.where(frames.FLASH) and not board.where("less")
    pit, board = at_the_light(page, table, frames.TAKE)
    store = [s for s in (12, 13) if table.guide.frame.pattern(s) == frames.STEADY][0]
    seeds, banked = table.counts[pit], table.counts[store]
    board.tap(pit)
    assert table.counts[pit] == 0 and table.counts[store] == banked + seeds
