"""The playground page in a real browser against the real server.

Every test starts its own server on a free port with short latencies and waits on conditions with
bounds (Playwright's expect / wait_for_function); the page only renders what the server decides.
"""

from __future__ import annotations

import json
import re
import subprocess

from playwright.sync_api import expect

from conftest import SCREENSHOTS, SERVER_BIN
from feedpage import (
    event_count, feed_top, geometry, item_ids, state, sync, wait_event, wait_items,
    wait_released, wait_state, wait_until, wheel_pull, wheel_to_end,
)


def assert_unique(ids: list[str]) -> None:
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"duplicate items: {duplicates}"


# ---------- loading ----------

def test_page_loads_without_console_errors_or_failed_requests(start_server, open_page):
    server = start_server()
    page, probe = open_page(server)
    expect(page.locator("#conn-pill")).to_have_attribute("data-status", "open")
    expect(page.locator("#presets .preset-option")).not_to_have_count(0)
    # Let the page run a little: geometry, pings, the timeline; then nothing may have complained.
    wheel_to_end(page)
    wait_event(page, "loadMoreStarted")
    sync(page)
    assert probe.problems() == [], "\n".join(probe.problems())
    response = page.request.get(server.url)
    assert "script-src 'self'" in response.headers.get("content-security-policy", ""), "the page is tested under the server's CSP"


def test_initial_items_render(start_server, open_page):
    server = start_server(initial_count=12)
    page, _ = open_page(server)
    wait_items(page, 12)
    ids = item_ids(page)
    assert_unique(ids)
    assert state(page)["itemCount"] == 12
    first = page.locator("#items > article").first
    expect(first.locator(".item-title")).not_to_be_empty()
    expect(page.locator("#end-of-feed")).to_be_hidden()
    expect(page.locator("#bottom-indicator")).to_be_hidden()


# ---------- bottom detection ----------

def test_wheel_to_bottom_in_playground_loads_exactly_one_page(start_server, open_page):
    server = start_server(preset="playground", initial_count=30, page_size=20)
    page, _ = open_page(server)
    wait_items(page, 30)
    wheel_to_end(page)
    wait_event(page, "reachedBottom")
    wait_items(page, 50)
    wait_state(page, "!s.loadingNextPage && s.itemCount === 50")
    sync(page)  # the geometry that reflects the new content has been judged
    sync(page)
    assert event_count(page, "loadMoreStarted") == 1
    assert len(item_ids(page)) == 50
    assert_unique(item_ids(page))
    expect(page.locator("#bottom-indicator")).to_be_hidden()


def test_short_feed_in_tall_viewport_fills_itself_then_stops(start_server, open_page):
    server = start_server(preset="playground", initial_count=3, page_size=2, max_items=0)
    page, _ = open_page(server, width=1440, height=1400)
    page.select_option("#frame-size", "390x1200")
    # Loads follow one another (re-armed as each page lands) until the content is taller than the
    # viewport by more than the bottom threshold.
    wait_until(
        page,
        "() => { const g = window.playground.geometry, s = window.playground.state;"
        " if (!g || !s || s.loadingNextPage) return false;"
        " const d = g.contentSize.height - (g.contentOffset.y + g.containerSize.height);"
        " return d > 50.5 && s.itemCount === window.playground.itemIds().length; }",
        timeout=20_000,
    )
    sync(page)
    sync(page)
    count = len(item_ids(page))
    s = state(page)
    assert not s["loadingNextPage"], "still loading after the feed was filled"
    assert count == s["itemCount"] > 3
    assert event_count(page, "loadMoreStarted") == (count - 3) // 2
    g = geometry(page)
    assert g["contentSize"]["height"] > g["containerSize"]["height"]
    # It stopped as soon as it was full: without the last page it would still be within the threshold.
    last_two = page.evaluate(
        "(() => { const rows = Array.from(document.querySelectorAll('#items > article')).slice(-2);"
        " return rows[1].getBoundingClientRect().bottom - rows[0].getBoundingClientRect().top + 8; })()"
    )
    assert g["contentSize"]["height"] - last_two - g["containerSize"]["height"] <= 50.5
    sync(page)
    assert len(item_ids(page)) == count


def test_keyboard_scrolling_is_reported(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.locator("#feed").focus()
    page.keyboard.press("End")
    wait_event(page, "reachedBottom")
    wait_event(page, "loadMoreStarted")
    wait_items(page, 50)


def test_end_of_feed_row_appears_when_has_more_is_false(start_server, open_page):
    server = start_server(initial_count=10, page_size=10, max_items=20)
    page, _ = open_page(server)
    wait_items(page, 10)
    expect(page.locator("#end-of-feed")).to_be_hidden()
    wheel_to_end(page)
    wait_items(page, 20)
    wait_state(page, "s.hasMore === false")
    end_row = page.locator("#end-of-feed")
    expect(end_row).to_be_visible()
    expect(end_row).to_contain_text("20 items")
    # At the bottom again the server logs the exhausted feed and loads nothing.
    wheel_to_end(page)
    wait_event(page, "feedExhausted")
    sync(page)
    assert len(item_ids(page)) == 20


# ---------- pull to refresh ----------

def test_wheel_pull_past_threshold_refreshes_and_new_items_appear_on_top(start_server, open_page):
    # A refresh long enough that the spinner is on screen to be seen, even on a busy machine.
    server = start_server(preset="playground", refresh_count=5, refresh_latency_ms=1500)
    page, _ = open_page(server)
    wait_items(page, 30)
    before = item_ids(page)
    wheel_pull(page, 240)  # browser: × 0.5 = 120 px; ios: the rubber band shows 111 px of 688; both > 68
    wait_event(page, "refreshStarted")
    expect(page.locator("#top-indicator")).to_have_class(re.compile(r"\bis-refreshing\b"))
    wait_items(page, 35)
    after = item_ids(page)
    assert after[5:] == before
    assert not set(after[:5]) & set(before)
    # The new items are on screen, on top.
    expect(page.locator("#items > article").first).to_be_in_viewport()
    wait_state(page, "!s.refreshing && !s.indicator.top.visible")
    expect(page.locator("#top-indicator")).to_have_css("opacity", "0")
    assert page.evaluate("document.getElementById('top-indicator').getBoundingClientRect().height") == 0
    assert event_count(page, "refreshStarted") == 1


def test_pull_released_below_threshold_does_not_refresh(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    wheel_pull(page, 80)  # 40 px of pull (ios: 41 px), under the 68 px threshold
    wait_event(page, "pullStarted")
    wait_released(page)
    sync(page)
    sync(page)
    assert event_count(page, "refreshStarted") == 0
    assert not state(page)["refreshing"]
    assert len(item_ids(page)) == 30


def test_touch_drag_pull_refreshes(start_server, open_page):
    server = start_server(preset="playground", refresh_count=4)
    page, _ = open_page(server, width=390, height=844, touch=True)
    wait_items(page, 30)
    page.locator("#feed").scroll_into_view_if_needed()
    x, y = feed_top(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 13):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + step * 20}]})
    # 240 px of finger travel, held before lifting: × 0.5 = 120 px of pull (ios: the rubber band, 103 px of 480).
    wait_until(page, "window.playground.geometry.contentOffset.y <= -100 && window.playground.geometry.phase === 'interacting'")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_event(page, "refreshStarted")
    wait_items(page, 34)
    wait_state(page, "!s.refreshing")


def test_refresh_offset_observable_refreshes_without_release(start_server, open_page):
    # The design refreshes again if the pull is still held when its refreshing hold ends: hold long
    # enough that this test's single gesture gives exactly one refresh.
    server = start_server(preset="refreshOffsetObservable", refresh_hold_ms=4000)
    page, _ = open_page(server)
    wait_items(page, 30)
    x, y = feed_top(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 260, steps=13)  # 130 px of pull (ios: about 118 px of 688) > the preset's default 100
    wait_event(page, "refreshStarted")
    # Still held: the refresh fired before any release.
    assert geometry(page)["phase"] == "interacting"
    assert geometry(page)["contentOffset"]["y"] < -100
    page.mouse.up()
    wait_items(page, 35)
    wait_released(page)
    wait_state(page, "!s.refreshing")
    assert event_count(page, "refreshStarted") == 1


def test_switching_preset_changes_behaviour(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    wheel_pull(page, 240)
    wait_event(page, "refreshStarted")
    wait_items(page, 35)
    wait_state(page, "!s.refreshing")
    wait_released(page)

    # customScrollView has no pull-to-refresh: the same gesture does nothing.
    page.locator("#presets input[value=customScrollView]").check()
    wait_state(page, "s.preset === 'customScrollView'")
    wait_event(page, "configChanged")
    expect(page.locator("#brand-preset")).to_have_text("customScrollView")
    page.locator("#feed").evaluate("(f) => f.scrollTo({ top: 0 })")
    wheel_pull(page, 240)
    wait_released(page)
    sync(page)
    sync(page)
    assert event_count(page, "refreshStarted") == 1
    assert len(item_ids(page)) == 35


# ---------- inspector, log, timeline ----------

def test_log_panel_shows_reached_bottom_and_load_more_started(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    wheel_to_end(page)
    wait_event(page, "loadMoreFinished")
    log = page.locator("#log-list")
    expect(log.locator(".log-row[data-name=reachedBottom]").first).to_be_visible()
    expect(log.locator(".log-row[data-name=loadMoreStarted]").first).to_be_visible()

    # Filter by name, then by text.
    page.select_option("#log-name", "loadMoreStarted")
    expect(log.locator(".log-row:visible")).to_have_count(event_count(page, "loadMoreStarted"))
    page.select_option("#log-name", "")
    page.fill("#log-text", "reachedbottom")
    expect(log.locator(".log-row:visible").first).to_have_attribute("data-name", "reachedBottom")
    page.fill("#log-text", "")

    # Export: one JSON object per line, every event the page received.
    with page.expect_download() as download_info:
        page.click("#log-export")
    lines = open(download_info.value.path(), encoding="utf-8").read().splitlines()
    records = [json.loads(line) for line in lines]
    assert {"reachedBottom", "loadMoreStarted"} <= {r["name"] for r in records}
    assert all("seq" in r and "time" in r for r in records)

    # Pause holds rows back; resume shows them.
    page.click("#log-pause")
    rows = log.locator(".log-row").count()
    page.click("#btn-load-more")
    wait_event(page, "loadMoreFinished", 2)
    assert log.locator(".log-row").count() == rows
    page.click("#log-pause")
    expect(log.locator(".log-row[data-name=loadMoreFinished]")).to_have_count(2)


def test_log_follows_the_newest_unless_scrolled_away(start_server, open_page):
    server = start_server(preset="playground", load_latency_ms=50)
    page, _ = open_page(server)
    wait_items(page, 30)
    log = page.locator("#log-scroll")
    for n in range(1, 7):
        page.click("#btn-load-more")
        wait_event(page, "loadMoreFinished", n)
    wait_until(page, "(() => { const l = document.getElementById('log-scroll'); return l.scrollHeight > l.clientHeight + 40; })()")
    at_bottom = "(l) => l.scrollTop + l.clientHeight >= l.scrollHeight - 2"
    assert log.evaluate(at_bottom), "the log follows the newest row"
    log.evaluate("(l) => { l.scrollTop = 0; }")
    expect(page.locator("#log-follow")).to_be_visible()
    page.click("#btn-load-more")
    wait_event(page, "loadMoreFinished", 7)
    expect(page.locator("#log-follow")).to_contain_text("new")
    assert log.evaluate("(l) => l.scrollTop") == 0, "scrolled away, the log stays where the user put it"
    page.click("#log-follow")
    assert log.evaluate(at_bottom)
    expect(page.locator("#log-follow")).to_be_hidden()


def test_compare_mode_marks_disagreements(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.locator("#presets-compare input[name=compare]").check()
    wait_event(page, "configChanged")
    # 30 px above the bottom: within playground's 50 px threshold, not at customScrollView's exact bottom.
    page.locator("#feed").evaluate("(f) => { f.scrollTop = f.scrollHeight - f.clientHeight - 30; }")
    wait_event(page, "presetDisagreement")
    row = page.locator("#log-list .log-row.is-disagreement").first
    expect(row).to_be_visible()
    assert row.evaluate("(r) => getComputedStyle(r).backgroundColor") != page.locator(
        "#log-list .log-row:not(.is-disagreement)").first.evaluate("(r) => getComputedStyle(r).backgroundColor")


def test_hud_shows_live_geometry_and_origin(start_server, open_page):
    server = start_server(preset="offsetObserving")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.locator("#feed").evaluate("(f) => { f.scrollTop = 120; }")
    wait_state(page, "s.origin && s.origin.y === -120")
    expect(page.locator("#hud dd[data-key=offset]")).to_have_text("0, 120")
    expect(page.locator("#hud dd[data-key=origin]")).to_have_text("0, -120")
    expect(page.locator("#hud dd[data-key=phase]")).to_have_text("idle")
    expect(page.locator("#hud dd[data-key=rtt]")).to_have_text(re.compile(r"^\d+(\.\d)? ms$"))


def test_settings_are_sent_as_config(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.fill("#controls input[name=pullThreshold]", "90")
    page.locator("#controls input[name=pullThreshold]").press("Enter")
    page.locator("#controls input[name=pullThreshold]").blur()
    wait_event(page, "configChanged")
    sync(page)
    # 160 px of wheel → 80 px of pull (ios: 78 px): past the default 68, short of the new 90, so no refresh.
    wheel_pull(page, 160)
    wait_released(page)
    sync(page)
    assert event_count(page, "refreshStarted") == 0
    wheel_pull(page, 220)  # 110 px (ios: 103 px): past 90
    wait_event(page, "refreshStarted")


def test_reduced_motion_is_respected(start_server, open_page):
    server = start_server(preset="playground", load_latency_ms=2000)
    page, _ = open_page(server, reduced_motion="reduce")
    wait_items(page, 30)
    wheel_to_end(page)
    wait_state(page, "s.loadingNextPage")
    spinner = page.locator("#bottom-indicator .spinner")
    expect(spinner).to_be_visible()
    expect(spinner).to_have_css("animation-name", "none")
    # The pull springs back without an animation: a release is followed at once by offset 0 (under ios the
    # rubber band springs back as an iPhone's does with Reduce Motion on: docs/decisions.md).
    page.locator("#feed").evaluate("(f) => f.scrollTo({ top: 0 })")
    wheel_pull(page, 80)
    wait_released(page)


def test_horizontal_axis_shows_a_strip_and_loads_at_its_end(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.select_option("#controls select[name=axis]", "horizontal")
    wait_event(page, "configChanged")
    expect(page.locator("#feed")).to_have_class(re.compile(r"\bis-horizontal\b"))
    box = page.locator("#feed").bounding_box()
    assert box is not None and box["width"] > box["height"]
    wheel_to_end(page, axis="horizontal")
    wait_until(page, "window.playground.geometry.contentOffset.x > 0")
    wait_event(page, "loadMoreStarted")
    wait_items(page, 50)


# ---------- connection ----------

def test_after_the_socket_drops_the_page_resumes_without_duplicates(start_server, open_page):
    server = start_server(preset="playground", load_latency_ms=150)
    page, _ = open_page(server)
    wait_items(page, 30)
    session = page.evaluate("window.playground.session")
    wheel_to_end(page)
    wait_event(page, "loadMoreStarted")
    page.click("#conn-drop")  # the page reconnects after ≥ 200 ms; the page of items lands meanwhile
    expect(page.locator("#conn-pill")).to_have_attribute("data-status", "reconnecting")
    expect(page.locator("#conn-pill")).to_have_attribute("data-status", "open")
    assert page.evaluate("window.playground.session") == session
    wait_items(page, 50)
    wait_state(page, "s.itemCount === 50 && !s.loadingNextPage")
    ids = item_ids(page)
    assert_unique(ids)
    assert len(ids) == state(page)["itemCount"] == 50
    wait_event(page, "sessionResumed")

    # A second drop while idle: nothing is missing or doubled either.
    page.click("#conn-drop")
    expect(page.locator("#conn-pill")).to_have_attribute("data-status", "reconnecting")
    expect(page.locator("#conn-pill")).to_have_attribute("data-status", "open")
    wait_event(page, "sessionResumed", 2)
    sync(page)
    assert item_ids(page) == ids


def test_prepend_while_scrolled_keeps_the_visible_item_in_place(start_server, open_page):
    server = start_server(preset="playground", refresh_count=5)
    page, _ = open_page(server)
    wait_items(page, 30)
    page.locator("#feed").evaluate("(f) => { f.scrollTop = 500; }")
    sync(page)
    anchor = page.evaluate(
        "(() => { const f = document.getElementById('feed').getBoundingClientRect();"
        " const row = Array.from(document.querySelectorAll('#items > article')).find(r => r.getBoundingClientRect().bottom > f.top + 1);"
        " return { id: row.dataset.id, top: row.getBoundingClientRect().top }; })()"
    )
    page.click("#btn-refresh")
    wait_items(page, 35)
    top = page.evaluate("(id) => document.querySelector(`#items > article[data-id='${id}']`).getBoundingClientRect().top", anchor["id"])
    assert abs(top - anchor["top"]) <= 1
    expect(page.locator("#new-items")).to_be_visible()


# ---------- for people to look at ----------

SCREEN_SIZES = [(1440, 900, False), (1280, 720, False), (768, 1024, False), (390, 844, True)]


def test_screenshots_of_the_whole_page(start_server, open_page):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    server = start_server(preset="playground")
    for width, height, touch in SCREEN_SIZES:
        page, probe = open_page(server, width=width, height=height, touch=touch)
        wait_items(page, 30)
        page.locator("#feed").scroll_into_view_if_needed()
        wheel_to_end(page)
        wait_items(page, 50)
        page.locator("#feed").evaluate("(f) => f.scrollTo({ top: 0 })")
        wait_released(page)
        sync(page)
        path = SCREENSHOTS / f"playground-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000
        assert probe.problems() == [], "\n".join(probe.problems())
        assert_nothing_cut_off_or_overlapping(page, width)
        if page.locator("#tabs").is_visible():
            # Narrow: every part is a tab away; each gets its own picture.
            for tab in ["state", "log", "settings"]:
                page.click(f".tab[data-tab={tab}]")
                page.screenshot(path=str(SCREENSHOTS / f"playground-{width}x{height}-{tab}.png"), full_page=True)
                assert_nothing_cut_off_or_overlapping(page, width)
            page.click(".tab[data-tab=feed]")


def assert_nothing_cut_off_or_overlapping(page, width: int) -> None:
    """No sideways overflow, and no two visible panels (or the phone and the stage's buttons) overlap."""
    report = page.evaluate(
        """() => {
            const boxes = Array.from(document.querySelectorAll('.panel, .topbar, .tabs'))
              .filter((e) => e.offsetParent !== null || e.classList.contains('topbar'))
              .map((e) => ({ id: e.id || e.className, e, r: e.getBoundingClientRect() }));
            const overlaps = [];
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
              if (boxes[i].e.contains(boxes[j].e) || boxes[j].e.contains(boxes[i].e)) continue;  // the tabs are in the top bar
              const a = boxes[i].r, b = boxes[j].r;
              const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
              const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
              if (x > 1 && y > 1) overlaps.push(boxes[i].id + ' / ' + boxes[j].id);
            }
            const phone = document.getElementById('phone-slot').getBoundingClientRect();
            const actions = document.getElementById('stage-actions').getBoundingClientRect();
            const stage = document.getElementById('stage').getBoundingClientRect();
            return {
              overflow: document.documentElement.scrollWidth - window.innerWidth,
              overlaps,
              phoneOverActions: actions.height > 0 && Math.min(phone.bottom, actions.bottom) - Math.max(phone.top, actions.top) > 1
                && Math.min(phone.right, actions.right) - Math.max(phone.left, actions.left) > 1,
              phoneOutsideStage: stage.width > 0 && (phone.left < stage.left - 1 || phone.right > stage.right + 1),
            };
        }"""
    )
    assert report["overflow"] <= 0, f"the page scrolls sideways by {report['overflow']} px at width {width}"
    assert report["overlaps"] == [], f"overlapping at width {width}: {report['overlaps']}"
    assert not report["phoneOverActions"], f"the phone covers the feed's buttons at width {width}"
    assert not report["phoneOutsideStage"], f"the phone sticks out of its panel at width {width}"


def test_downloaded_trace_replays_to_the_same_decisions(start_server, open_page, tmp_path):
    server = start_server(preset="playground", log_dir=str(tmp_path / "logs"))
    page, _ = open_page(server)
    wait_items(page, 30)
    wheel_to_end(page)
    wait_event(page, "loadMoreFinished")
    sync(page)
    with page.expect_download() as download_info:
        page.click("#log-trace")
    trace = tmp_path / "downloaded.jsonl"
    download_info.value.save_as(trace)
    header = json.loads(trace.read_text(encoding="utf-8").splitlines()[0])
    assert header["kind"] == "header" and header["format"] == 1
    replay = subprocess.run([str(SERVER_BIN), "replay", str(trace), "--diff"], capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("no differences"), replay.stdout


def test_trace_download_without_log_dir_says_how(start_server, open_page):
    # Off, with the reason where the button is (issue 31 §5); it used to log traceUnavailable when pressed.
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    expect(page.locator("#log-trace")).to_be_disabled()
    expect(page.locator("#log-trace-note")).to_contain_text("--log-dir")
