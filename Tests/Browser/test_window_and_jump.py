"""A bounded window and jump to an item in a real browser against the real server (issue 12 §3, §4).

The server decides what the page holds; these tests count the rows the DOM holds on every change (a
MutationObserver and every animation frame, installed in the page) and measure where a jump leaves its item.
"""

from __future__ import annotations

from conftest import SCREENSHOTS
from feedpage import event_count, item_ids, state, sync, wait_event, wait_until

# Counts the items the page holds (drawn or not) on every change of the list and every frame: the most it ever held.
COUNT_ROWS = """() => {
  const list = document.getElementById('items');
  const rows = () => window.playground.itemIds().length;
  window.__rows = { max: rows(), samples: 0 };
  const sample = () => { window.__rows.max = Math.max(window.__rows.max, rows()); window.__rows.samples += 1; };
  new MutationObserver(sample).observe(list, { childList: true });
  const frame = () => { sample(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""

SCROLL_TO_END = "() => { const f = document.getElementById('feed'); f.scrollTop = f.scrollHeight; }"
SCROLL_TO_START = "() => { document.getElementById('feed').scrollTop = 0; }"

FIRST_VISIBLE = (
    "() => { const f = document.getElementById('feed').getBoundingClientRect();"
    " for (const n of document.querySelectorAll('#items > article'))"
    " { if (n.getBoundingClientRect().bottom > f.top + 0.5) return n.dataset.id; } return null; }")

# Where an item sits against the viewport, in the feed's CSS px: its top from the viewport's top, its centre
# from the viewport's centre, its bottom from the viewport's bottom.
PLACEMENT = """(id) => {
  const feed = document.getElementById('feed');
  const k = window.playground.frameScale || 1;
  const row = Array.from(document.querySelectorAll('#items > article')).find((n) => n.dataset.id === id);
  if (!row) return null;
  const box = row.getBoundingClientRect();
  const view = feed.getBoundingClientRect();
  const top = (box.top - view.top) / k;
  const height = box.height / k;
  return { top, center: top + height / 2 - feed.clientHeight / 2, bottom: top + height - feed.clientHeight };
}"""


def test_scrolling_through_2000_items_never_holds_more_than_the_window(start_server, open_page):
    server = start_server(max_items=2000, window_size=100, page_size=50, load_latency_ms=20)
    page, probe = open_page(server)
    page.evaluate(COUNT_ROWS)
    assert state(page)["window"] == {"start": 0, "count": 30, "limit": 100}
    for _ in range(200):
        # Read once: a page landing between two reads would leave the wait below watching for a change that came.
        last = item_ids(page)[-1]
        if last == "item-2000":
            break
        page.evaluate(SCROLL_TO_END)
        wait_until(page, f"() => window.playground.itemIds().at(-1) !== {last!r} || window.playground.state.hasMore === false")
    else:
        raise AssertionError("never reached item 2000")
    sync(page)
    assert item_ids(page)[-1] == "item-2000"
    assert len(item_ids(page)) == 100
    assert page.locator("#window-readout").inner_text() == "Window: items 1,901–2,000 of 2,000 · at most 100 in the page"
    page.screenshot(path=str(SCREENSHOTS / "window-1440x900.png"))
    assert event_count(page, "windowTrimmed") >= 35
    # Back to the top: every trimmed page loads back, older, with the view kept.
    for _ in range(200):
        first = item_ids(page)[0]
        if first == "item-1":
            break
        page.evaluate(SCROLL_TO_START)
        wait_until(page, f"() => window.playground.itemIds()[0] !== {first!r}")
    else:
        raise AssertionError("never got back to item 1")
    page.evaluate(SCROLL_TO_START)
    sync(page)
    assert page.evaluate(FIRST_VISIBLE) == "item-1"
    rows = page.evaluate("window.__rows")
    assert rows["max"] <= 100, rows
    assert rows["samples"] > 200, rows
    assert event_count(page, "anchorDrift") == 0
    assert event_count(page, "anchorKept") >= 30
    ids = item_ids(page)
    assert len(ids) == len(set(ids)) and ids == [f"item-{n}" for n in range(1, 101)]
    assert probe.problems() == [], "\n".join(probe.problems())


def jump(page, item: str, anchor: str) -> None:
    settled = event_count(page, "jumpSettled")
    page.fill("#jump-id", item)
    page.select_option("#jump-anchor", anchor)
    page.click("#jump-go")
    wait_event(page, "jumpSettled", settled + 1)
    sync(page)


def test_a_jump_puts_the_item_at_its_anchor_within_a_pixel(start_server, open_page):
    server = start_server(max_items=2000, window_size=100, load_latency_ms=100)
    page, probe = open_page(server, width=390, height=844)
    loads_before = event_count(page, "loadMoreStarted") + event_count(page, "loadPreviousStarted")
    for item, anchor in (("item-1500", "top"), ("item-700", "center"), ("item-1990", "bottom"), ("item-12", "center")):
        jump(page, item, anchor)
        placed = page.evaluate(PLACEMENT, item)
        assert placed is not None, f"{item} is not in the page: {item_ids(page)[:3]}…"
        assert abs(placed[anchor]) <= 1, (item, anchor, placed)
        # The page holds the window around the item.
        assert len(item_ids(page)) <= 100
        settled = page.evaluate("window.playground.events.filter(e => e.name === 'jumpSettled').at(-1)")
        assert settled["data"]["id"] == item
    page.screenshot(path=str(SCREENSHOTS / "jump-390x844.png"))
    # No edge rule fired because of a jump: every load since was one the jumps did not cause.
    assert event_count(page, "loadMoreStarted") + event_count(page, "loadPreviousStarted") == loads_before
    # An id the feed does not have: a clear error beside the box, nothing changes.
    ids = item_ids(page)
    rev = page.evaluate("window.playground.rev")
    page.fill("#jump-id", "item-2001")
    page.click("#jump-go")
    wait_until(page, "() => !document.getElementById('jump-error').hidden")
    assert "item-2001" in page.locator("#jump-error").inner_text()
    sync(page)
    assert item_ids(page) == ids and page.evaluate("window.playground.rev") == rev
    assert probe.problems() == [], "\n".join(probe.problems())
