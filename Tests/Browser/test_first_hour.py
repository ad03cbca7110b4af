"""Issue 31, the first hour of a new iOS developer: a desktop page that shows where everything is (§3), a
phone that looks like an iPhone (§4), and the smaller things they trip on (§5).

Each test failed against the page before its change (`SCROLL_PLAYGROUND_PUBLIC` runs them on an older page).
"""

from __future__ import annotations

from playwright.sync_api import expect

from conftest import SCREENSHOTS
from feedpage import event_count, item_ids, sync, wait_event, wait_items, wait_until, wheel_pull


# ---------- §5 the smaller things ----------

def test_from_chat_to_a_preset_that_opens_at_the_top_the_feed_starts_over(start_server, open_page):
    server = start_server(preset="chat", new_message_every_ms=0)
    page, probe = open_page(server)
    wait_items(page, 30)
    assert item_ids(page)[0] != "item-1"  # chat opens at its newest items
    page.click("#presets .preset-option[data-preset=playground]")
    # The feed starts over at item 1, at the top, as switching to chat starts it over at the bottom.
    wait_until(page, "window.playground.config.preset === 'playground' && window.playground.itemIds()[0] === 'item-1'")
    sync(page)
    assert page.evaluate("document.getElementById('feed').scrollTop") == 0
    note = page.locator("#log-list .log-row[data-name=presetReset]")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("opens at the top")
    # So the next pull refreshes: no older items are left above to load instead.
    wheel_pull(page, 320)
    wait_event(page, "refreshStarted")
    assert event_count(page, "loadPreviousStarted") == 0
    # Every row in time order, the page's own notes among the server's events.
    page.click("#presets .preset-option[data-preset=chat]")
    wait_until(page, "window.playground.config.preset === 'chat'")
    expect(note).to_have_count(2)
    sync(page)
    times = page.locator("#log-list .log-time").all_inner_texts()
    names = page.locator("#log-list .log-name").all_inner_texts()
    assert times == sorted(times), list(zip(times, names))
    assert probe.problems() == []


def test_without_a_log_dir_download_trace_is_disabled_and_says_why(start_server, open_page, tmp_path):
    server = start_server(preset="playground")
    page, probe = open_page(server)
    button = page.locator("#log-trace")
    expect(button).to_be_disabled()
    why = page.locator("#log-trace-note")
    expect(why).to_be_visible()
    expect(why).to_contain_text("--log-dir")
    # Beside the button, and what a screen reader hears with it.
    assert button.get_attribute("aria-describedby") == "log-trace-note"
    b, w = button.bounding_box(), why.bounding_box()
    assert abs((w["y"] + w["height"] / 2) - (b["y"] + b["height"] / 2)) < 60, (b, w)
    assert probe.problems() == []

    recording = start_server(preset="playground", log_dir=tmp_path)
    page, probe = open_page(recording)
    expect(page.locator("#log-trace")).to_be_enabled()
    expect(page.locator("#log-trace-note")).to_be_hidden()
    with page.expect_download() as download:
        page.click("#log-trace")
    assert download.value.suggested_filename.endswith(".jsonl")
    assert probe.problems() == []


def test_every_refused_link_value_is_shown_at_the_top_once(start_server, open_page):
    server = start_server(preset="playground")
    page, probe = open_page(server, query="?bottomThreshold=-5&pageSise=10&pageSize=7")
    notice = page.locator("#link-notice")
    expect(notice).to_be_visible()
    expect(notice).to_be_in_viewport()
    expect(notice.locator("li")).to_have_count(2)
    expect(notice).to_contain_text("bottomThreshold=-5")
    expect(notice).to_contain_text('did you mean "pageSize"')
    rows = notice.locator("li").all_inner_texts()
    assert sorted(row.split(" — ")[0] for row in rows) == ["bottomThreshold=-5", "pageSise=10"], rows
    # What the link set otherwise applies; the refused values are left out, not guessed.
    assert page.evaluate("window.playground.config.pageSize") == 7
    assert page.evaluate("window.playground.config.bottomThreshold") == 50
    # Above everything else on the page, and dismissed for good.
    box = notice.bounding_box()
    assert box["y"] < page.locator("#stage").bounding_box()["y"]
    page.click("#link-notice-dismiss")
    expect(notice).to_be_hidden()
    assert probe.problems() == []


# 11 px type: labels whose middles are this far apart keep a clear gap between them.
LABEL_SPACING_PX = 16


def test_the_timelines_labels_keep_apart_at_every_size(start_server, open_page):
    # The default feed at rest: "1k" and the range's end ("2394") were drawn 13 to 15 px apart.
    server = start_server(preset="playground")
    for size in [{"width": 1440, "height": 900}, {"width": 1024, "height": 768}, {"width": 390, "height": 844, "touch": True}]:
        page, probe = open_page(server, **size)
        wait_items(page, 30)
        if page.locator("#tabs").is_visible():
            page.click(".tab[data-tab=state]")
        for offset in [0, 1200]:
            if offset:
                if page.locator("#tabs").is_visible():
                    page.click(".tab[data-tab=feed]")
                page.locator("#feed").evaluate(f"(f) => {{ f.scrollTop = {offset}; }}")
                sync(page)
                if page.locator("#tabs").is_visible():
                    page.click(".tab[data-tab=state]")
            page.wait_for_function("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
            labels = sorted(page.evaluate("window.playground.timelineLabels()"), key=lambda label: label["y"])
            close = [(a["text"], b["text"], round(b["y"] - a["y"], 1)) for a, b in zip(labels, labels[1:])
                     if b["y"] - a["y"] < LABEL_SPACING_PX]
            assert close == [], f"{size} at {offset}: {labels}"
        assert probe.problems() == []


# ---------- §3 the desktop page shows where everything is ----------

DESKTOP_SIZES = [(1440, 900), (1280, 800), (1024, 768)]


def test_settings_and_export_are_a_click_away_and_the_frame_is_full_size(start_server, open_page):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    server = start_server(preset="playground")
    for width, height in DESKTOP_SIZES:
        page, probe = open_page(server, width=width, height=height)
        wait_items(page, 30)
        sync(page)
        page.screenshot(path=str(SCREENSHOTS / f"first-hour-{width}x{height}.png"))
        if width >= 1280:
            # The default device, 390 × 700, at 100 %: its feed is 378 × 688, the whole frame on screen.
            expect(page.locator("#frame-size")).to_have_value("390x700")
            assert page.evaluate("window.playground.frameScale") == 1, f"{width}×{height}"
            expect(page.locator("#frame-readout")).not_to_contain_text("shown at")
            slot = page.locator("#phone-slot").bounding_box()
            assert (slot["width"], slot["height"]) == (390, 700) and slot["y"] + slot["height"] <= height, slot
        # The first screen says where everything is: the section bar names Settings and "Use in your app".
        for name, panel in [("Settings", "#controls-panel"), ("Use in your app", "#export-panel"), ("State", "#hud-panel")]:
            link = page.locator("#section-bar a", has_text=name)
            expect(link).to_be_in_viewport()
            link.click()
            expect(page.locator(f"{panel} h2")).to_be_in_viewport()
            expect(link).to_have_attribute("aria-current", "true")
        assert probe.problems() == [], "\n".join(probe.problems())


# ---------- §4 on a phone it is an iPhone feed ----------

PHONE = {"width": 390, "height": 844, "touch": True}
MIN_TARGET_PX = 44  # CSS px are points on an iPhone: Apple's smallest hit target
MIN_TEXT_PX = 13

# Every visible control's box (a radio's or checkbox's label is its target) and every visible text's size.
MEASURE = """() => {
    const shown = (e) => {
        if (!e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
        for (let n = e; n && n !== document.body; n = n.parentElement) {
            const s = getComputedStyle(n);
            if (s.clipPath === 'inset(50%%)' || s.clip === 'rect(0px, 0px, 0px, 0px)') return false;  // visually hidden
        }
        return e.getClientRects().length > 0;
    };
    const name = (e) => e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '')
        + ' "' + (e.textContent || e.value || '').trim().slice(0, 30) + '"';
    const small = [];
    const controls = 'button, select, input, textarea, a[href], summary, [tabindex]:not([tabindex="-1"])';
    for (const e of document.querySelectorAll(controls)) {
        if (!shown(e)) continue;
        const target = e.matches('input[type=radio], input[type=checkbox]') ? (e.closest('label') ?? e) : e;
        const r = target.getBoundingClientRect();
        if (r.width < %(target)d - 0.5 || r.height < %(target)d - 0.5) small.push(`${name(e)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    const tiny = new Set();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!node.textContent.trim() || !parent || !shown(parent)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) continue;
        const size = parseFloat(getComputedStyle(parent).fontSize);
        if (size < %(text)d) tiny.add(`${name(parent)} ${size}px`);
    }
    for (const e of document.querySelectorAll('input, select, textarea')) {
        if (shown(e) && parseFloat(getComputedStyle(e).fontSize) < %(text)d) tiny.add(`${name(e)} ${getComputedStyle(e).fontSize}`);
    }
    return { small, tiny: Array.from(tiny) };
}""" % {"target": MIN_TARGET_PX, "text": MIN_TEXT_PX}


def test_on_a_phone_the_feed_is_the_screen_and_every_control_fits_a_finger(start_server, open_page, tmp_path):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    server = start_server(preset="playground", refresh_latency_ms=3000, max_items=2000, log_dir=tmp_path)
    page, probe = open_page(server, **PHONE)
    wait_items(page, 30)
    sync(page)
    # The feed is the device: edge to edge, below one slim bar, most of the screen.
    slot = page.locator("#phone-slot").bounding_box()
    bar = page.locator(".topbar").bounding_box()
    assert slot["x"] == 0 and slot["width"] == 390, slot
    assert bar["height"] <= 56, bar
    assert slot["y"] <= bar["height"] + 60, (slot, bar)
    assert slot["height"] >= 0.7 * 844, slot
    # Rows of an iOS list: no card around each row, the item's id only on demand (a tap focuses the row).
    row = page.locator("#items > article").nth(2)
    assert row.evaluate("(r) => getComputedStyle(r).borderTopWidth") == "0px"
    expect(row.locator(".item-id")).to_be_hidden()
    row.tap()
    expect(row.locator(".item-id")).to_be_visible()
    expect(row.locator(".item-id")).to_have_text("#item-3")
    # The state line is never cut, however long what it says.
    page.locator("#feed").evaluate("(f) => { f.scrollTop = 1500; }")
    page.click("#btn-refresh")
    page.wait_for_function("() => window.playground.state && window.playground.state.refreshing")
    line = page.locator("#feed-line")
    expect(page.locator("#live-readout")).to_contain_text("refreshing")
    assert line.evaluate("(l) => l.scrollHeight <= l.clientHeight + 1 && l.scrollWidth <= l.clientWidth + 1"), line.inner_text()
    for tab in ["feed", "state", "log", "settings"]:
        page.click(f".tab[data-tab={tab}]")
        sync(page)
        page.screenshot(path=str(SCREENSHOTS / f"first-hour-390x844-{tab}.png"), full_page=True)
        found = page.evaluate(MEASURE)
        assert found["small"] == [], f"{tab}: controls under {MIN_TARGET_PX} px: {found['small']}"
        assert found["tiny"] == [], f"{tab}: text under {MIN_TEXT_PX} px: {found['tiny']}"
    assert probe.problems() == []
