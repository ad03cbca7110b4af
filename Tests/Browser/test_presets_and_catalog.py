"""The page learns presets and events from the server (issue 21 §1–2) and chat behaves like chat (issue 24 §2).

The page names no preset and keeps no list of event kinds: it reads `welcome.presets` (what each preset
has and does) and `welcome.events` (every event kind with its category). These tests hold the page to
the Swift sources, read here independently of the server.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from conftest import REPO, SCREENSHOTS
from feedpage import event_count, state, sync, wait_event, wait_items, wait_state, wait_until, wheel_to_end, feed_center

# Scrolling, pulling and the chat: under the browser's physics too (conftest.py).
BOTH_PHYSICS = pytest.mark.physics("ios", "browser")

AT_END = "() => { const f = document.getElementById('feed'); return f.scrollTop + f.clientHeight >= f.scrollHeight - 2; }"
CATEGORIES = ["load", "refresh", "topEdge", "window", "chat", "anchor", "session", "protocol"]


def swift_cases(path: str, enum: str) -> list[str]:
    """The case names of a Swift enum, read from its source."""
    text = (REPO / path).read_text(encoding="utf-8")
    body = text[text.index(f"public enum {enum}"):]
    body = body[: body.index("\n}\n")]
    return re.findall(r"^\s*case (\w+)\s*$", body, flags=re.MULTILINE)


def test_every_event_kind_has_a_category_a_colour_and_a_filter_option(start_server, open_page):
    names = swift_cases("Sources/ScrollCore/Wire/EventName.swift", "EventName")
    assert len(names) >= 52 and "anchorKept" in names and "jumpSettled" in names
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    categories = page.evaluate("(names) => names.map((n) => window.playground.eventCategory(n))", names)
    uncategorised = [name for name, category in zip(names, categories) if category not in CATEGORIES]
    assert uncategorised == [], uncategorised
    assert set(categories) == set(CATEGORIES)
    # The name filter offers every kind before any has happened, each under its category, and each category.
    options = page.evaluate("() => Array.from(document.querySelectorAll('#log-name option'), (o) => o.value)")
    assert [name for name in names if name not in options] == []
    assert [c for c in CATEGORIES if f"category:{c}" not in options] == []
    grouped = page.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('#log-name optgroup option'),"
        " (o) => [o.value, o.parentElement.dataset.category]))")
    assert all(grouped[name] == category for name, category in zip(names, categories))
    # Each category has its own colour in the log.
    colours = page.evaluate(
        """(categories) => categories.map((c) => {
             const row = document.createElement('li'); row.className = `log-row cat-${c}`;
             const name = document.createElement('span'); name.className = 'log-name'; row.append(name);
             document.getElementById('log-list').append(row);
             const colour = getComputedStyle(name).color; row.remove(); return colour; })""", CATEGORIES)
    assert len(set(colours)) == len(CATEGORIES), dict(zip(CATEGORIES, colours))
    # A row carries its category; filtering by a category shows only its rows.
    wheel_to_end(page)
    wait_event(page, "loadMoreFinished")
    row = page.locator("#log-list .log-row[data-name=sessionOpened]").first
    expect(row).to_have_class(re.compile(r"\bcat-session\b"))
    expect(row.locator(".log-name")).to_have_attribute("title", re.compile(r"session opened"))
    page.select_option("#log-name", "category:load")
    shown = page.evaluate("() => Array.from(document.querySelectorAll('#log-list .log-row:not([hidden])'), (r) => r.dataset.category)")
    assert "loadMoreStarted" in page.evaluate("() => Array.from(document.querySelectorAll('#log-list .log-row:not([hidden])'), (r) => r.dataset.name)")
    assert set(shown) == {"load"}
    page.screenshot(path=str(SCREENSHOTS / "log-category-1440x900.png"))
    page.select_option("#log-name", "")
    assert probe.problems() == [], "\n".join(probe.problems())


def test_no_preset_name_decides_anything_in_the_page():
    presets = swift_cases("Sources/ScrollRules/Preset.swift", "Preset")
    assert "chat" in presets and "playground" in presets
    found = []
    for path in sorted((REPO / "Public" / "js").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for name in presets:
            for match in re.finditer(rf"""["']{name}["']""", text):
                found.append(f"{path.name}:{text.count(chr(10), 0, match.start()) + 1}: {name}")
    assert found == []


def test_the_timeline_names_no_event_kind():
    """Issue 41 (asked in issue 40's brief): the timeline draws what `welcome.events[].plot` says."""
    names = swift_cases("Sources/ScrollCore/Wire/EventName.swift", "EventName")
    text = (REPO / "Public" / "js" / "timeline.js").read_text(encoding="utf-8")
    found = [name for name in names if re.search(rf"""["']{name}["']""", text)]
    assert found == []


def test_the_timeline_draws_spans_from_the_catalog(start_server, open_page):
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    plots = {e["name"]: e.get("plot") for e in page.evaluate(
        """async () => {
            const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws", "scroll-playground.v1");
            await new Promise((resolve) => ws.addEventListener("open", resolve));
            const welcome = new Promise((resolve) => ws.addEventListener("message", (e) => resolve(JSON.parse(e.data))));
            ws.send(JSON.stringify({ type: "hello", version: 1 }));
            const msg = await welcome;
            ws.close();
            return msg.events;
        }""")}
    assert plots["loadMoreStarted"] == "loadBegins" and plots["loadMoreFailed"] == "loadFails"
    assert plots["sessionOpened"] is None
    assert probe.problems() == []


@BOTH_PHYSICS
def test_switching_to_a_preset_that_opens_at_the_bottom_resets_the_feed_to_its_newest_items(start_server, open_page):
    server = start_server(preset="playground", new_message_every_ms=0)
    page, probe = open_page(server)
    wait_items(page, 30)
    assert page.evaluate("window.playground.preset.opensAtBottom") is False
    page.locator("#feed").evaluate("(f) => f.scrollTo({ top: 300 })")
    sync(page)
    page.locator("#presets input[value=chat]").check()
    wait_event(page, "sessionReset")
    wait_state(page, "s.preset === 'chat'")
    wait_until(page, "() => window.playground.itemIds().at(-1) === 'item-200'")
    wait_until(page, AT_END)
    expect(page.locator("#phone")).to_have_class(re.compile(r"\bis-chat\b"))
    expect(page.locator("#end-of-feed")).to_be_hidden()
    # The log says why the feed changed under the user.
    note = page.locator("#log-list .log-row[data-name=presetReset]")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("opens at the bottom")
    events = [e["name"] for e in page.evaluate("window.playground.events")]
    assert events.index("configChanged") < events.index("sessionReset") < events.index("scrollToBottom")
    sync(page)
    assert state(page)["reachedBottom"] is True
    # Switching back resets too (issue 31 §5): a feed that opens at the top starts at item 1 again, or the
    # next pull would load older items instead of refreshing.
    resets = event_count(page, "sessionReset")
    page.locator("#presets input[value=playground]").check()
    wait_state(page, "s.preset === 'playground'")
    wait_event(page, "sessionReset", resets + 1)
    wait_until(page, "() => window.playground.itemIds()[0] === 'item-1'")
    expect(note).to_have_count(2)
    expect(note.last).to_contain_text("opens at the top")
    assert probe.problems() == [], "\n".join(probe.problems())


def test_a_preset_without_a_pull_rule_offers_no_refresh(start_server, open_page):
    server = start_server(preset="chat", new_message_every_ms=0)
    page, probe = open_page(server, width=390, height=844, touch=True)
    wait_items(page, 30)
    assert "pull" not in page.evaluate("window.playground.preset.rules")
    expect(page.locator("#btn-refresh")).to_be_disabled()
    page.screenshot(path=str(SCREENSHOTS / "chat-no-refresh-390x844.png"))
    # The description decides, not the name: a design without a pull rule disables it too, one with enables it.
    page.evaluate("window.playground.send({ type: 'config', preset: 'refreshable' })")
    wait_state(page, "s.preset === 'refreshable'")
    expect(page.locator("#btn-refresh")).to_be_enabled()
    page.evaluate("window.playground.send({ type: 'config', preset: 'customScrollView' })")
    wait_state(page, "s.preset === 'customScrollView'")
    expect(page.locator("#btn-refresh")).to_be_disabled()
    assert event_count(page, "refreshStarted") == 0
    assert probe.problems() == [], "\n".join(probe.problems())


def pill_flow(page, probe, name: str) -> None:
    # Messages arrive from the start: at least the opening page, however many came since.
    wait_until(page, "() => window.playground.itemIds().length >= 30")
    wait_until(page, AT_END)
    # Scrolled up into the history: arrivals land below without moving the view, and the pill counts them.
    # A wheel gesture up, as a reader does. A message landing at that very moment pins the view back to
    # the end (it was at the end when the content grew): the reader scrolls up again, at most 5 times.
    x, y = feed_center(page)
    page.mouse.move(x, y)
    for _ in range(5):
        page.mouse.wheel(0, -600)
        try:
            page.wait_for_function("() => window.playground.state.reachedBottom === false", timeout=2000)
        except PlaywrightTimeout:
            continue
        sync(page)
        if page.evaluate("() => window.playground.state.reachedBottom === false"):
            break
    wait_state(page, "!s.reachedBottom")
    pill = page.locator("#new-messages")
    expect(pill).to_have_text(re.compile(r"^↓ [2-9]\d* new messages$"))
    expect(pill).to_be_visible()
    # The count is the messages the view did not follow since it last went to the bottom.
    text, unfollowed = page.evaluate(
        """() => { const events = window.playground.events; let n = 0;
             for (const e of events) { if (e.name === 'scrollToBottom') n = 0;
               else if (e.name === 'messageArrived' && e.data.follow === false) n += 1; }
             return [document.getElementById('new-messages').textContent, n]; }""")
    assert text == f"↓ {unfollowed} new messages"
    page.screenshot(path=str(SCREENSHOTS / f"chat-new-messages-{name}.png"))
    newest = page.evaluate("window.playground.itemIds().at(-1)")
    pill.click()
    wait_until(page, AT_END)
    expect(pill).to_be_hidden()
    sync(page)
    assert state(page)["reachedBottom"] is True
    assert newest in page.evaluate("window.playground.itemIds()")
    # At the end, the next arrival is followed and no pill shows.
    seen = event_count(page, "messageArrived")
    wait_event(page, "messageArrived", seen + 1)
    last = [e for e in page.evaluate("window.playground.events") if e["name"] == "messageArrived"][-1]
    assert last["data"]["follow"] is True
    expect(pill).to_be_hidden()
    assert probe.problems() == [], "\n".join(probe.problems())


@BOTH_PHYSICS
def test_new_messages_below_a_reader_scrolled_up_show_a_pill_that_jumps_to_the_newest(start_server, open_page):
    server = start_server(preset="chat", new_message_every_ms=700)
    page, probe = open_page(server)
    pill_flow(page, probe, "1440x900")


@BOTH_PHYSICS
def test_the_new_messages_pill_on_a_phone(start_server, open_page):
    server = start_server(preset="chat", new_message_every_ms=700)
    page, probe = open_page(server, width=390, height=844, touch=True)
    pill_flow(page, probe, "390x844")
