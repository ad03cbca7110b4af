"""The page draws its feed as a LazyVStack does (issue 39): only the rows near the viewport are elements, the
geometry it reports is the one every row laid out gives, screen readers hear each row's true place, and a far
jump's list arrives in parts and lands.

Counts and agreements, never timings: Scripts/bench_page.py measures frames and memory (`make bench-page`).
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page

from feedpage import event_count, sync, wait_event

SCROLL_TO = "([horizontal, at]) => { const f = document.getElementById('feed'); if (horizontal) f.scrollLeft = at; else f.scrollTop = at; }"
END = "(horizontal) => { const f = document.getElementById('feed'); return horizontal ? f.scrollWidth - f.clientWidth : f.scrollHeight - f.clientHeight; }"


def jump_to(page: Page, item: str) -> None:
    settled = event_count(page, "jumpSettled")
    page.evaluate("(id) => window.playground.send({ type: 'jump', id, anchor: 'top' })", item)
    wait_event(page, "jumpSettled", settled + 1)
    sync(page)


def test_the_page_holds_at_most_4000_elements_at_20000_rows(start_server, open_page):
    server = start_server(max_items=0, load_latency_ms=20, max_session_items=30_000)
    page, probe = open_page(server, width=390, height=844, touch=True)
    before = page.evaluate("document.querySelectorAll('*').length")
    jump_to(page, "item-20000")
    assert page.evaluate("window.playground.itemIds().length") >= 20_000
    elements = page.evaluate("document.querySelectorAll('*').length")
    # Before: 120,692 elements at 20,039 rows (every row an element of six).
    assert elements <= 4_000, elements
    assert elements - before < 400, (before, elements)
    # The item the jump went to is drawn and in view.
    assert page.evaluate("window.playground.anchor.id") == "item-20000"
    assert probe.problems() == [], probe.problems()


@pytest.mark.parametrize("query", ["", "?axis=horizontal", "?preset=chat"], ids=["list", "strip", "chat"])
def test_the_reported_content_size_is_the_one_every_row_laid_out_gives(start_server, open_page, query):
    """`contentSize: exact` is unchanged: the padding that stands for the rows not drawn is exactly as long as
    they are, at every position (rows of an item's own height, with and without a subtitle, chat bubbles with
    their margins and gaps, the strip's cards)."""
    # A feed of 400 items and no more: nothing loads at its end while the sizes are compared.
    server = start_server(load_latency_ms=20, initial_count=400, max_items=400)
    page, probe = open_page(server, width=390, height=844, query=query)
    horizontal = "horizontal" in query
    page.wait_for_function("() => window.playground.itemIds().length >= 400")
    end = page.evaluate(END, horizontal)
    for at in (0, end * 0.37, end * 0.81, end, 1234.5):
        page.evaluate(SCROLL_TO, [horizontal, at])
        sync(page)
        sizes = page.evaluate("window.playground.contentSizes()")
        assert sizes["reported"] == sizes["everyRow"], (at, sizes)
    assert probe.problems() == [], probe.problems()


def test_each_row_tells_a_screen_reader_its_place_in_the_whole_feed(start_server, open_page):
    server = start_server(max_items=300, page_size=150, initial_count=300, load_latency_ms=20)
    page, probe = open_page(server, width=390, height=844)
    page.wait_for_function("() => window.playground.state?.hasMore === false")
    for at in (0, 9000, 20000):
        page.evaluate(SCROLL_TO, [False, at])
        sync(page)
        rows = page.evaluate(
            "() => Array.from(document.querySelectorAll('#items > article'), (r) => [r.dataset.id, r.getAttribute('aria-posinset'), r.getAttribute('aria-setsize')])")
        ids = page.evaluate("window.playground.itemIds()")
        assert 0 < len(rows) < 100
        for row_id, position, size in rows:
            assert int(position) == ids.index(row_id) + 1
            assert size == "300"
    assert probe.problems() == [], probe.problems()


def test_a_bounded_windows_rows_count_from_the_sessions_first_item(start_server, open_page):
    server = start_server(max_items=2000, window_size=100, page_size=50, load_latency_ms=20)
    page, probe = open_page(server, width=390, height=844)
    jump_to(page, "item-1500")
    start = page.evaluate("window.playground.state.window.start")
    assert start > 0
    row = page.locator("#items > article[data-id='item-1500']")
    assert row.get_attribute("aria-posinset") == "1500"
    assert probe.problems() == [], probe.problems()


def test_a_jump_to_item_100000_arrives_in_parts_and_lands(start_server, open_page):
    """Only the item cap is raised: under the default --max-outbound (4 MiB) the 100,000 items (≈ 11 MB) can only
    arrive in parts, and the jump settles only once the page reports the last part's rev."""
    server = start_server(max_items=0, load_latency_ms=20, max_session_items=200_000)
    page, probe = open_page(server, width=390, height=844, touch=True)
    started = time.monotonic()
    jump_to(page, "item-100000")
    took = time.monotonic() - started
    print(f"jump to item-100000 landed and synced in {took:.2f} s")
    assert page.evaluate("window.playground.itemIds().length") >= 100_000
    assert page.evaluate("window.playground.anchor.id") == "item-100000"
    assert page.evaluate("document.querySelectorAll('*').length") <= 4_000
    assert probe.problems() == [], probe.problems()
