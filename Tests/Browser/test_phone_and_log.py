"""Issue 24, the page on a phone and as a daily tool (§1, §3, §4), and issue 20 §7, the page's trace viewer.

Each test failed against the page before its change (`SCROLL_PLAYGROUND_PUBLIC` runs them on an older page).
"""

from __future__ import annotations

import json
import subprocess
import urllib.request

import pytest
from playwright.sync_api import expect

from conftest import REPO, SERVER_BIN
from feedpage import event_count, geometry, state, sync, wait_event, wait_items, wait_state, wait_until, wheel_to_end

# Scrolling, pulling and the chat: under the browser's physics too (conftest.py).
BOTH_PHYSICS = pytest.mark.physics("ios", "browser")

PHONE = {"width": 390, "height": 844, "touch": True}
EXAMPLE = REPO / "Examples" / "traces" / "pull-during-page-load.jsonl"
# Drops a file on the page as a person would (the drop handler is the page's own).
DROP = """([text, name]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
}"""


def server_trace(server, page) -> list[dict]:
    session = page.evaluate("window.playground.session")
    text = urllib.request.urlopen(f"{server.url}api/sessions/{session}/trace", timeout=10).read().decode()
    return [json.loads(line) for line in text.splitlines()]


# ---------- §1 the phone ----------

def test_a_hidden_feed_sends_no_geometry_and_the_hud_says_its_geometry_is_held(start_server, open_page, tmp_path):
    server = start_server(preset="playground", log_dir=str(tmp_path / "logs"))
    page, _ = open_page(server, **PHONE)
    wait_items(page, 30)
    page.locator("#feed").evaluate("(f) => { f.scrollTop = 300; }")
    wait_until(page, "window.playground.geometry.contentOffset.y === 300")
    sync(page)
    for tab in ["state", "log", "settings", "state"]:
        page.click(f".tab[data-tab={tab}]")
        sync(page)
    # The State tab shows the last real geometry, marked as held.
    expect(page.locator("#hud-held")).to_be_visible()
    expect(page.locator("#hud dd[data-key=offset]")).to_have_text("0, 300")
    expect(page.locator("#hud dd[data-key=container]")).not_to_have_text("0 × 0")
    page.click(".tab[data-tab=feed]")
    sync(page)
    page.click(".tab[data-tab=state]")
    expect(page.locator("#hud-held")).to_be_visible()
    page.click(".tab[data-tab=feed]")
    sync(page)
    sizes = [(line["message"]["containerSize"], line["message"]["contentSize"]) for line in server_trace(server, page)
             if line.get("kind") == "input" and line["message"].get("type") == "geometry"]
    assert sizes, "the trace holds the feed's geometry"
    zero = [s for s in sizes if 0 in (s[0]["width"], s[0]["height"], s[1]["width"], s[1]["height"])]
    assert zero == [], f"{len(zero)} zero-size geometries in the trace"
    assert geometry(page)["contentOffset"]["y"] == 300


def test_on_a_narrow_screen_the_frame_is_this_screen_at_full_size(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server, **PHONE)
    wait_items(page, 30)
    select = page.locator("#frame-size")
    assert select.locator("option").first.get_attribute("value") == "screen"
    expect(select).to_have_value("screen")
    assert page.evaluate("window.playground.frameScale") == 1
    expect(page.locator("#frame-readout")).not_to_contain_text("shown at")
    expect(page.locator("#frame-readout")).to_contain_text("this screen")
    # The feed is the room the screen has: as wide as the stage allows, and the page does not scroll.
    slot = page.locator("#phone-slot").bounding_box()
    stage = page.locator("#stage").bounding_box()
    assert slot is not None and stage is not None
    assert stage["width"] - slot["width"] <= 30, (stage, slot)
    sync(page)
    g = geometry(page)
    assert (g["containerSize"]["width"], g["containerSize"]["height"]) == (slot["width"] - 12, slot["height"] - 12)
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    expect(page.locator("#jump-go")).to_be_in_viewport()
    # A device larger than the screen still scales, as before; the choice (in the Settings tab on a phone:
    # the feed tab is the feed) survives a reload.
    page.click(".tab[data-tab=settings]")
    page.select_option("#frame-size", "390x844")
    page.click(".tab[data-tab=feed]")
    expect(page.locator("#frame-readout")).to_contain_text("shown at")
    page.click(".tab[data-tab=settings]")
    page.select_option("#frame-size", "screen")
    page.click(".tab[data-tab=feed]")
    page.reload()
    page.wait_for_function("() => window.playground && window.playground.status === 'open' && window.playground.rev !== null")
    expect(page.locator("#frame-size")).to_have_value("screen")
    # A wide window keeps its phone-sized default.
    wide, _ = open_page(server)
    expect(wide.locator("#frame-size")).to_have_value("390x700")


def test_a_trace_opened_on_the_phone_is_brought_into_view(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server, **PHONE)
    wait_items(page, 30)
    page.click(".tab[data-tab=state]")
    page.set_input_files("#trace-file", str(EXAMPLE))
    expect(page.locator("#trace-body")).to_be_visible()
    expect(page.locator("#trace-fork")).to_be_in_viewport()
    # Dropped on the Feed tab, it opens on the State tab, in view.
    page.click("#trace-close")
    page.click(".tab[data-tab=feed]")
    page.evaluate(DROP, [EXAMPLE.read_text(), EXAMPLE.name])
    expect(page.locator(".tab[data-tab=state]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#trace-plot")).to_be_in_viewport()


@BOTH_PHYSICS
def test_the_line_above_the_feed_hints_the_pull_then_reads_the_state_live(start_server, open_page):
    server = start_server(preset="playground", load_latency_ms=1500)
    page, _ = open_page(server, **PHONE)
    wait_items(page, 30)
    hint = page.locator("#pull-hint")
    expect(hint).to_be_visible()
    expect(hint).to_have_text("↓ Pull down, drag or scroll up at the top to refresh")
    before = page.locator("#phone-slot").bounding_box()
    page.locator("#feed").evaluate("(f) => { f.scrollTop = 300; }")
    readout = page.locator("#live-readout")
    expect(readout).to_contain_text("y 300 · to bottom")
    expect(hint).to_be_hidden()
    assert page.locator("#phone-slot").bounding_box() == before, "the line keeps its height"
    page.click("#btn-load-more")
    expect(readout).to_contain_text("· loading")
    wait_state(page, "!s.loadingNextPage")
    expect(readout).not_to_contain_text("loading")


# ---------- §3 the log and the HUD ----------

def test_log_rows_round_numbers_and_the_record_keeps_them_exact(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    sync(page)
    g = geometry(page)
    content, container = g["contentSize"]["height"], g["containerSize"]["height"]
    offset = content - container - 20.22  # 20.22 px from the end: reachedBottom, distanceToBottom with float noise
    exact = content - (offset + container)
    assert round(exact, 2) != exact and round(exact, 2) == 20.22
    seq = page.evaluate("window.playground.geometry && 100000")
    page.evaluate("(m) => window.playground.send(m)", {
        "type": "geometry", "seq": seq, "t": 1, "contentOffset": {"x": 0, "y": offset}, "contentSize": g["contentSize"],
        "containerSize": g["containerSize"], "contentInsets": g["contentInsets"], "phase": "idle"})
    wait_event(page, "reachedBottom")
    row = page.locator("#log-list .log-row[data-name=reachedBottom]").first
    expect(row.locator(".log-data")).to_contain_text("distanceToBottom=20.22")
    assert repr(exact) not in row.locator(".log-data").inner_text()
    row.locator("summary").click()
    expect(row.locator(".log-json")).to_contain_text(f'"distanceToBottom": {exact!r}')


def test_a_refused_setting_is_one_row_in_time_order(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    field = page.locator("#controls input[name=pullThreshold]")
    field.fill("-5")
    field.press("Enter")
    wait_event(page, "protocolError")
    sync(page)
    expect(page.locator("#log-list .log-row[data-name=protocolError]")).to_have_count(1)
    expect(page.locator("#log-list .log-row[data-name=protocolError]")).to_contain_text("pullThreshold")
    expect(page.locator("#log-list .log-row[data-name=error]")).to_have_count(0)
    assert page.evaluate("window.playground.unloggedErrors") == 0, "the error waits for no other row"
    times = page.locator("#log-list .log-time").all_inner_texts()
    assert times == sorted(times), times


def test_the_filter_says_no_matches_and_long_names_are_not_cut(start_server, open_page):
    server = start_server(preset="chat")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.click("#btn-load-previous")
    wait_event(page, "loadPreviousFinished")
    page.fill("#log-text", "no event says this")
    expect(page.locator("#log-nomatch")).to_be_visible()
    expect(page.locator("#log-nomatch")).to_contain_text("No matches")
    page.fill("#log-text", "")
    expect(page.locator("#log-nomatch")).to_be_hidden()
    cut = page.evaluate("Array.from(document.querySelectorAll('.log-name')).filter(n => n.scrollWidth > n.clientWidth + 1).map(n => n.textContent)")
    assert cut == [], cut
    # The longest name the server has fits too.
    fits = page.evaluate("""() => {
        const name = document.querySelector('#log-list .log-name');
        const saved = name.textContent;
        name.textContent = 'loadPreviousRetryScheduled';
        const fits = name.scrollWidth <= name.clientWidth + 1;
        name.textContent = saved;
        return fits;
    }""")
    assert fits


def test_the_hud_flags_the_avatar_and_the_timeline_labels_are_not_cut_or_overlapping(start_server, open_page):
    server = start_server(preset="playground", refresh_latency_ms=3000, max_items=2000)
    for size in [{}, PHONE]:
        page, _ = open_page(server, **size)
        wait_items(page, 30)
        page.click("#btn-refresh")
        wait_state(page, "s.refreshing")
        if page.locator("#tabs").is_visible():
            page.click(".tab[data-tab=state]")
        armed = page.locator("#hud dd[data-key=armed]")
        expect(armed).to_have_text("no · refreshing")
        assert armed.evaluate("(d) => d.scrollWidth <= d.clientWidth + 1 && d.firstElementChild.scrollWidth <= d.firstElementChild.clientWidth + 1")
        if page.locator("#tabs").is_visible():
            page.click(".tab[data-tab=feed]")
        wait_state(page, "!s.refreshing")
    # Item 1501's avatar says 1501.
    page.fill("#jump-id", "item-1501")
    page.click("#jump-go")
    avatar = page.locator("#items > article[data-id=item-1501] .item-avatar")
    expect(avatar).to_have_text("1501")
    assert avatar.evaluate("(a) => a.scrollWidth <= a.clientWidth")


def test_the_timelines_y_labels_never_overlap(start_server, open_page):
    server = start_server(preset="playground", initial_count=200, max_items=200)
    page, _ = open_page(server)
    wait_items(page, 200)
    for offset in [0, 300, 700, 1000, 1300, 1600, 2500, 6000, 12000]:
        page.locator("#feed").evaluate(f"(f) => {{ f.scrollTop = {offset}; }}")
        sync(page)
        page.wait_for_function("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        labels = sorted(page.evaluate("window.playground.timelineLabels()"), key=lambda label: label["y"])
        close = [(a["text"], b["text"]) for a, b in zip(labels, labels[1:]) if b["y"] - a["y"] < 12]
        assert close == [], f"at {offset}: {labels}"


def test_the_timelines_y_labels_fit_left_of_the_plot_in_a_feed_millions_of_px_long(start_server, open_page, tmp_path):
    """A feed of 100,000 rows is about 9 million px long: its offsets label the axis in the room it has."""
    items = tmp_path / "items.json"
    items.write_text(json.dumps([{"id": f"tall-{i}", "title": f"Tall {i}", "height": 60_000} for i in range(200)]))
    server = start_server(items=str(items), initial_count=200)
    page, _ = open_page(server)
    wait_items(page, 200)
    for offset in [700, 45_000, 600_000, 11_000_000]:
        page.locator("#feed").evaluate(f"(f) => {{ f.scrollTop = {offset}; }}")
        sync(page)
        page.wait_for_function("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        labels = page.evaluate("window.playground.timelineLabels()")
        assert [label for label in labels if label["width"] > label["room"]] == [], f"at {offset}: {labels}"


def test_compare_lanes_are_drawn_only_for_compared_presets(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.locator("#presets-compare input[name=compare]").check()
    wait_event(page, "configChanged")
    expect(page.locator("#lanes")).to_be_visible()
    presets = page.evaluate("window.playground.presets")
    # The server says which presets compare mode runs (`compared: false` leaves one out).
    assert page.evaluate("window.playground.lanePresets()") == [p["name"] for p in presets if p.get("compared") is not False]


def test_a_fork_is_logged_as_forked_from_its_parent_and_moment(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    page.set_input_files("#trace-file", str(EXAMPLE))
    expect(page.locator("#trace-body")).to_be_visible()
    page.evaluate("window.playground.scrubTo(500)")
    first = page.evaluate("window.playground.session")
    page.click("#trace-fork")
    wait_until(page, f"window.playground.session !== {json.dumps(first)} && window.playground.status === 'open'")
    wait_event(page, "sessionForked")
    row = page.locator("#log-list .log-row[data-name=sessionForked]")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("parent=pull-during-page-load.jsonl")
    expect(row).to_contain_text("at=500")
    start = page.evaluate("window.playground.traceMoment.start")
    expect(row).to_contain_text(f"continues pull-during-page-load.jsonl from {(500 - start) / 1000:.3f} s")
    assert event_count(page, "sessionResumed") == 0


# ---------- §4 what a newcomer meets ----------

def test_the_jump_box_suggests_an_item_that_exists(start_server, open_page):
    server = start_server(preset="playground")
    page, _ = open_page(server)
    wait_items(page, 30)
    suggestion = page.locator("#jump-id").get_attribute("placeholder")
    assert page.evaluate("window.playground.config.maxItems") == 200
    page.fill("#jump-id", suggestion)
    page.click("#jump-go")
    wait_until(page, f"window.playground.itemIds().includes({json.dumps(suggestion)})")
    expect(page.locator(f"#items > article[data-id={suggestion}]")).to_be_in_viewport()
    expect(page.locator("#jump-error")).to_be_hidden()


@BOTH_PHYSICS
def test_a_failed_page_overlays_the_feed_and_changes_no_geometry(start_server, open_page):
    server = start_server(preset="playground", failure_rate=1, retry_policy="manual")
    page, _ = open_page(server)
    wait_items(page, 30)
    sync(page)
    size = geometry(page)["contentSize"]
    wheel_to_end(page)
    wait_event(page, "loadMoreFailed")
    expect(page.locator("#load-failed")).to_be_visible()
    sync(page)
    sync(page)
    assert geometry(page)["contentSize"] == size, "the failure row is no content"
    names = page.evaluate("window.playground.events.map(e => e.name)")
    after = names[names.index("loadMoreFailed") + 1:]
    assert "leftBottom" not in after and "reachedBottom" not in after, after
    # Its Retry still works.
    page.click("#load-retry")
    wait_event(page, "loadMoreFailed", 2)


def test_a_failed_refresh_covers_no_item(start_server, open_page):
    server = start_server(preset="playground", failure_rate=1, refresh_latency_ms=100)
    page, _ = open_page(server, **PHONE)
    wait_items(page, 30)
    before = page.locator("#phone-slot").bounding_box()
    page.click("#btn-refresh")
    wait_event(page, "refreshFailed")
    banner = page.locator("#refresh-failed")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Couldn't refresh")
    a = banner.bounding_box()
    b = page.locator("#feed").bounding_box()
    assert a["y"] + a["height"] <= b["y"], "the banner has its own room above the feed"
    assert page.locator("#phone-slot").bounding_box() == before, "and showing it moved nothing"


# ---------- issue 20 §7: the trace viewer takes any trace the server would ----------

def test_a_300000_line_trace_opens(start_server, open_page, tmp_path):
    lines = EXAMPLE.read_text().splitlines()
    end = json.loads(lines[-1])["t"]
    filler = "".join(json.dumps({"kind": "timer", "t": end + 1 + i // 100, "timer": "refreshHold"}) + "\n"
                     for i in range(300_000 - len(lines)))
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines) + "\n" + filler)
    assert sum(1 for _ in path.open()) == 300_000
    replay = subprocess.run([str(SERVER_BIN), "replay", str(path)], capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0, replay.stderr[-500:]  # the server reads it
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    page.set_input_files("#trace-file", str(path))
    expect(page.locator("#trace-body")).to_be_visible(timeout=30_000)
    expect(page.locator("#trace-error")).to_be_hidden()
    expect(page.locator("#trace-name")).to_contain_text("long.jsonl · 110 geometries · 10 decisions")
    moment = page.evaluate("window.playground.traceMoment")
    assert moment["end"] == end + (300_000 - len(lines) - 1) // 100 + 1
    assert probe.problems() == []


def test_a_header_over_60_kb_with_emoji_forks(start_server, open_page):
    lines = EXAMPLE.read_text().splitlines()
    header = json.loads(lines[0])
    # Two runs of emoji at different offsets: whatever the slices' size, one run is cut across a slice edge.
    header["note"] = "😀" * 9000
    header["noteAgain"] = "x" + "🙂" * 9000
    path = EXAMPLE.name.replace(".jsonl", "-emoji.jsonl")
    text = "\n".join([json.dumps(header, ensure_ascii=False)] + lines[1:]) + "\n"
    assert len(text.splitlines()[0].encode()) > 60_000
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    page.evaluate(DROP, [text, path])
    expect(page.locator("#trace-body")).to_be_visible()
    page.evaluate("window.playground.scrubTo(500)")
    first = page.evaluate("window.playground.session")
    page.click("#trace-fork")
    wait_until(page, f"window.playground.session !== {json.dumps(first)} && window.playground.status === 'open'")
    expect(page.locator("#trace-error")).to_be_hidden()
    wait_until(page, "window.playground.itemIds().length === 30")
    assert probe.problems() == []
