"""A layout for every screen an iOS developer owns (issue 40 §5, §8): at each size the feed's box, whether the
log is on the first screen beside it, and a pull from the feed's middle that arms at 68 pt; and the nits
(the section bar on one line, the jump anchor's "center" whole, the Swift box not cut off, no pull hint
where there is no refresh)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from feedpage import sync, wait_event, wait_until

# (width, height, touch, log beside the feed on the first screen)
SIZES = [
    (1440, 900, False, True),
    (1280, 800, False, True),
    (1024, 768, False, True),
    (820, 1180, True, True),   # iPad upright
    (1180, 820, True, True),   # iPad on its side
    (844, 390, True, False),   # a phone on its side: the feed has the height, the log is a tab away
    (375, 667, True, False),
    (390, 844, True, False),
    (430, 932, True, False),
]


def box(page, selector):
    return page.locator(selector).bounding_box()


def pull_from_the_middle(page, touch: bool) -> None:
    """A finger (or a mouse) down in the middle of the feed, dragged to the bottom of the feed or screen."""
    feed = box(page, "#feed")
    x = feed["x"] + feed["width"] / 2
    y0 = feed["y"] + feed["height"] / 2
    y1 = min(feed["y"] + feed["height"], page.viewport_size["height"]) - 2
    steps = 12
    if touch:
        cdp = page.context.new_cdp_session(page)
        start = time.time()
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y0}], "timestamp": start})
        for i in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y0 + (y1 - y0) * i / steps}],
                                                  "timestamp": start + i * 0.03})
        # Held at the bottom until the page has measured the pull, then lifted.
        wait_until(page, "window.playground.geometry && window.playground.geometry.contentOffset.y < -60")
        sync(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": start + 1})
        cdp.detach()
    else:
        page.mouse.move(x, y0)
        page.mouse.down()
        page.mouse.move(x, y1, steps=steps)
        wait_until(page, "window.playground.geometry && window.playground.geometry.contentOffset.y < -60")
        sync(page)
        page.mouse.up()


@pytest.mark.parametrize("width,height,touch,log_beside", SIZES, ids=[f"{w}x{h}" for w, h, _, _ in SIZES])
def test_every_screen_has_the_feed_the_log_and_a_pull_that_arms(start_server, open_page, width, height, touch, log_beside):
    server = start_server(preset="playground")
    page, probe = open_page(server, width=width, height=height, touch=touch)
    feed = box(page, "#feed")
    assert feed is not None and feed["x"] >= 0 and feed["x"] + feed["width"] <= width
    # The feed is on the first screen, and tall: at least 300 px, or the window's height less its bars.
    assert feed["y"] >= 0 and feed["y"] + feed["height"] <= height + 1, feed
    assert feed["height"] >= min(300, height - 80), feed
    log = page.locator("#log-scroll")
    if log_beside:
        expect(log).to_be_visible()
        rows = box(page, "#log-scroll")
        assert rows["y"] + 60 <= height, f"the log's rows start at {rows['y']}, below the first screen"
        assert rows["x"] >= feed["x"] + feed["width"], "the log is beside the feed"
        expect(page.locator("#tabs")).to_be_hidden()
        # The section bar covers nothing: one line while it stays at the top of its column.
        bar = box(page, "#section-bar")
        sticky = page.locator("#section-bar").evaluate("(e) => getComputedStyle(e).position === 'sticky'")
        assert not sticky or bar["height"] <= 40, bar
    else:
        expect(page.locator("#tabs")).to_be_visible()
        expect(log).to_be_hidden()
    pull_from_the_middle(page, touch)
    wait_event(page, "refreshEligible")
    wait_event(page, "refreshStarted")
    assert probe.problems() == []


def test_the_nits(start_server, open_page):
    server = start_server(preset="customScrollView")
    for width, height in [(1440, 900), (1024, 768)]:
        page, probe = open_page(server, width=width, height=height)
        # The jump anchor shows "center" whole.
        page.select_option("#jump-anchor", "center")
        fits = page.locator("#jump-anchor").evaluate(
            "(s) => { const c = document.createElement('canvas').getContext('2d'); const st = getComputedStyle(s);"
            " c.font = `${st.fontSize} ${st.fontFamily}`; return c.measureText('center').width + 24 <= s.clientWidth; }")
        assert fits, f"{width}: the anchor's 'center' is cut"
        # The Swift is not cut off at the column's edge.
        swift = page.locator("#export-swift")
        wait_until(page, "document.getElementById('export-swift').textContent.length > 0")
        assert swift.evaluate("(e) => e.scrollWidth <= e.clientWidth"), f"{width}: the Swift box is cut off"
        # customScrollView has no refresh: the line above the feed does not ask for a pull.
        expect(page.locator("#pull-hint")).not_to_contain_text("Pull down")
        expect(page.locator("#pull-hint")).to_contain_text("no pull-to-refresh")
        assert probe.problems() == []
