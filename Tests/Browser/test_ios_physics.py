"""The page scrolls like an iPhone (issue 23 §2): under `physics` `ios` touch, pointer and wheel input drive
the iOS model (Public/js/ios-scroll.js), and the server sees SwiftUI's ScrollGeometry, rubber band included.

Touches go through the DevTools protocol with their own timestamps, so a fling's speed is what the test
says, whatever the machine's load. What the server saw is read from the session's trace
(`/api/sessions/ID/trace`): the geometry it was sent, in order.
"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Page, expect

from conftest import SCREENSHOTS
from feedpage import event_count, feed_center, geometry, sync, touch_fling, wait_event, wheel_pull

pytestmark = pytest.mark.physics("ios")

NORMAL_DECELERATION_RATE = 0.998  # js/ios-scroll.js, docs/fidelity.md
IDLE_JS = "() => window.playground.motion === 'idle' && window.playground.geometry?.phase === 'idle'"


def touch_hold(page: Page, x: float, y: float, step: float, steps: int):
    """A finger down and dragged, still down: returns a function that lifts it (slowly: no fling)."""
    cdp = page.context.new_cdp_session(page)
    start = time.time()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": start})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {
            "type": "touchMove", "touchPoints": [{"x": x, "y": y + step * i}], "timestamp": start + i * 0.05,
        })

    def lift() -> None:
        # Lifted well after the last move: the finger was still, the content springs back without momentum.
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": start + steps * 0.05 + 0.5})
        cdp.detach()

    return lift


def wait_idle(page: Page) -> None:
    page.wait_for_function(IDLE_JS, timeout=10_000)
    sync(page)


def sent_geometry(page: Page) -> list[dict]:
    """Every geometry the server received this session, from its trace (the server needs --log-dir)."""
    return [line["message"] for line in trace_lines(page) if line.get("kind") == "input" and line["message"].get("type") == "geometry"]


def distance_to_bottom(g: dict) -> float:
    return g["contentSize"]["height"] + g["contentInsets"]["bottom"] - (g["contentOffset"]["y"] + g["containerSize"]["height"])


def scroll_top(page: Page) -> float:
    return page.evaluate("document.getElementById('feed').scrollTop")


def trace_lines(page: Page) -> list[dict]:
    session = page.evaluate("window.playground.session")
    text = page.evaluate("async (id) => (await fetch(`/api/sessions/${encodeURIComponent(id)}/trace`)).text()", session)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_the_page_defaults_to_ios_and_says_so(start_server, open_page, tmp_path):
    server = start_server(log_dir=tmp_path)
    page, probe = open_page(server)
    assert page.evaluate("window.playground.config.physics") == "ios"
    assert trace_lines(page)[0]["config"]["physics"] == "ios"
    assert page.evaluate("window.playground.physics") == "ios"
    expect(page.locator("#frame-readout")).to_contain_text("ios physics")
    assert page.evaluate("getComputedStyle(document.getElementById('feed')).touchAction") == "none"
    # The Settings tab switches it; the server confirms, and the page scrolls natively again.
    page.select_option("#controls select[name=physics]", "browser")
    page.wait_for_function("() => window.playground.config.physics === 'browser'")
    expect(page.locator("#frame-readout")).to_contain_text("browser physics")
    assert page.evaluate("window.playground.physics") == "browser"
    assert page.evaluate("getComputedStyle(document.getElementById('feed')).touchAction") == "pan-y"
    # The next session in this tab keeps the choice: it is in the hello, so the trace's header records it.
    page.reload()
    page.wait_for_function("() => window.playground && window.playground.status === 'open' && window.playground.rev !== null")
    assert page.evaluate("window.playground.physics") == "browser"
    # A link chooses it in the hello, which the trace records (its header holds the server's defaults).
    linked, linked_probe = open_page(server, query="?physics=browser")
    lines = trace_lines(linked)
    hello = next(line["message"] for line in lines if line.get("kind") == "input" and line["message"]["type"] == "hello")
    assert hello["config"]["physics"] == "browser"
    assert linked.evaluate("window.playground.physics") == "browser"
    expect(linked.locator("#frame-readout")).to_contain_text("browser physics")
    assert probe.problems() == [] and linked_probe.problems() == []


def test_touch_fling_ends_where_the_model_says(start_server, open_page, tmp_path):
    server = start_server(initial_count=120, log_dir=tmp_path)
    page, probe = open_page(server, width=390, height=844, touch=True)
    scale = page.evaluate("window.playground.frameScale")
    x, _ = feed_center(page)
    # The finger moves up 20 px every 16 ms: 1,250 px/s, the content follows it down the feed.
    touch_fling(page, x, 620, -20, 10)
    wait_idle(page)
    release = page.evaluate("window.playground.lastRelease")
    assert release is not None
    speed = 20 / scale / 0.016
    assert abs(release["velocity"] - speed) <= 0.02 * speed, release
    travel = release["velocity"] / 1000 * NORMAL_DECELERATION_RATE / (1 - NORMAL_DECELERATION_RATE)
    expected = release["position"] + travel
    assert expected < release["maxOffset"], "the fling must end inside the content for this test"
    assert abs(scroll_top(page) - expected) <= 0.02 * travel, (scroll_top(page), expected, release)
    # The server saw the finger, the coast and the rest, in that order.
    phases = [g["phase"] for g in sent_geometry(page)]
    dragged = phases.index("interacting")
    coasted = phases.index("decelerating", dragged)
    assert "idle" in phases[coasted:], phases
    assert probe.problems() == []


def test_a_touch_catches_a_coasting_fling_and_holds_it(start_server, open_page):
    server = start_server(initial_count=120)
    page, probe = open_page(server, width=390, height=844, touch=True)
    x, _ = feed_center(page)
    touch_fling(page, x, 620, -30, 10)  # 1,875 px/s: about 935 px of momentum
    page.wait_for_function("() => window.playground.motion === 'decelerating' && document.getElementById('feed').scrollTop > 320")
    fling = page.evaluate("window.playground.lastRelease")
    left_alone = fling["position"] + fling["velocity"] / 1000 * NORMAL_DECELERATION_RATE / (1 - NORMAL_DECELERATION_RATE)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": 500}]})
    # The finger stopped the content where it was: no more momentum, tracking until it moves or lifts.
    assert page.evaluate("window.playground.motion") == "tracking"
    caught = scroll_top(page)
    page.wait_for_function("() => window.playground.geometry.phase === 'tracking'")
    assert scroll_top(page) == caught
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    wait_idle(page)
    assert scroll_top(page) == caught
    assert caught < left_alone - 50, (caught, left_alone)
    assert probe.problems() == []


def test_fling_into_the_bottom_overshoots_and_settles_at_the_end(start_server, open_page, tmp_path):
    server = start_server(initial_count=10, max_items=10, log_dir=tmp_path)
    page, probe = open_page(server, width=390, height=844, touch=True)
    page.wait_for_function("() => window.playground.state && window.playground.state.hasMore === false")
    x, y = feed_center(page)
    # 2,500 px/s would coast 1,250 px: well past the end of ten rows.
    touch_fling(page, x, y + 150, -40, 6)
    wait_idle(page)
    sent = sent_geometry(page)
    overshoot = min(distance_to_bottom(g) for g in sent)
    # Past the end the server sees a negative distanceToBottom, while the content coasts and bounces.
    assert overshoot < -5, overshoot
    assert all(g["phase"] == "decelerating" for g in sent if distance_to_bottom(g) < -0.5)
    last = sent[-1]
    assert last["phase"] == "idle" and abs(distance_to_bottom(last)) < 0.5, last
    assert abs(distance_to_bottom(geometry(page))) < 0.5
    assert probe.problems() == []


def test_fast_wheel_up_into_the_top_bounces_and_does_not_refresh(start_server, open_page, tmp_path):
    server = start_server(preset="playground", initial_count=60, log_dir=tmp_path)
    page, probe = open_page(server)
    x, y = feed_center(page)
    page.mouse.move(x, y)
    for _ in range(5):
        page.mouse.wheel(0, 130)
    wait_idle(page)
    assert scroll_top(page) == 650
    # A fast burst up, longer than the way to the top: it reaches the top while the content moves (in its
    # sixth event, not at the end of one: a busy machine that paused there would start a pull from rest).
    for _ in range(7):
        page.mouse.wheel(0, -120)
    wait_idle(page)
    sent = sent_geometry(page)
    past_top = [g for g in sent if g["contentOffset"]["y"] < -1]
    assert past_top, "the content never bounced past the top"
    assert all(g["phase"] == "decelerating" for g in past_top), [g["phase"] for g in past_top]
    assert geometry(page)["contentOffset"]["y"] == 0
    assert event_count(page, "refreshStarted") == 0
    assert probe.problems() == []


# Every frame, the offset the server is shown; every wheel event the page gets, when it got it.
RECORD_OFFSETS = """() => {
    const record = { offsets: [], wheels: [] };
    window.__record = record;
    const frame = (t) => {
        const g = window.playground.geometry;
        if (g) record.offsets.push([t, g.contentOffset.y]);
        if (window.__record === record) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    window.addEventListener("wheel", () => record.wheels.push(performance.now()), { capture: true, passive: true });
}"""
STOP_RECORDING = "() => { const record = window.__record; window.__record = null; return record; }"
WHEEL_EVENTS = 120


def longest_still(offsets: list[list[float]], start: float, end: float) -> float:
    """The longest time (ms) between `start` and `end` the offset stayed within 0.5 px of where it was."""
    samples = [sample for sample in offsets if start <= sample[0] <= end]
    longest, since, at = 0.0, samples[0][0], samples[0][1]
    for t, y in samples[1:]:
        if abs(y - at) > 0.5:
            since, at = t, y
        longest = max(longest, t - since)
    return longest


@pytest.mark.parametrize("every_ms", [67, 117])
def test_a_steady_wheel_keeps_scrolling_as_pages_load(start_server, open_page, every_ms):
    # A mouse wheel turned steadily down, 100 px an event: one long burst that reaches the end each time a
    # page is loading. That end bounces, and once the page lands the wheel scrolls on (issue 31 §1).
    server = start_server(preset="playground", max_items=0, load_latency_ms=600)
    page, probe = open_page(server)
    x, y = feed_center(page)
    page.mouse.move(x, y)
    page.evaluate(RECORD_OFFSETS)
    start = time.monotonic()
    for sent in range(WHEEL_EVENTS):
        # The gesture's own rhythm, not a wait for a condition: an event is due every `every_ms`.
        due = start + sent * every_ms / 1000
        if due > time.monotonic():
            time.sleep(due - time.monotonic())
        page.mouse.wheel(0, 100)
    page.wait_for_function(f"() => window.__record.wheels.length >= {WHEEL_EVENTS}")
    record = page.evaluate(STOP_RECORDING)
    wheels = record["wheels"]
    still = longest_still(record["offsets"], wheels[0], wheels[-1])
    pages = event_count(page, "loadMoreFinished")
    assert still < 1000, f"the feed sat still for {still:.0f} ms of a steady wheel ({pages} pages loaded)"
    assert pages >= 3, f"{pages} pages loaded in {WHEEL_EVENTS} wheel events"
    assert probe.problems() == []


def test_wheel_pull_from_rest_at_the_top_refreshes(start_server, open_page, tmp_path):
    server = start_server(preset="playground", log_dir=tmp_path)
    page, probe = open_page(server)
    threshold = page.evaluate("window.playground.config.pullThreshold")
    wheel_pull(page, 320)
    # The rubber band: 320 px of wheel past the top shows (1 − 1/(320·0.55/L + 1))·L, above the threshold.
    container = geometry(page)["containerSize"]["height"]
    shown = (1 - 1 / (320 * 0.55 / container + 1)) * container
    assert shown > threshold
    wait_event(page, "refreshStarted")
    pulled = min(g["contentOffset"]["y"] for g in sent_geometry(page))
    assert abs(-pulled - shown) < 1, (pulled, shown)
    assert probe.problems() == []


def test_touch_pull_past_the_threshold_refreshes_on_release(start_server, open_page):
    server = start_server(preset="playground")
    page, probe = open_page(server, width=390, height=844, touch=True)
    box = page.locator("#feed").bounding_box()
    lift = touch_hold(page, box["x"] + box["width"] / 2, box["y"] + 30, 20, 12)
    page.wait_for_function("() => window.playground.geometry.contentOffset.y < -90 && window.playground.geometry.phase === 'interacting'")
    sync(page)
    assert event_count(page, "refreshStarted") == 0  # a pull refreshes on release, not before
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "ios-390x844-rubber-band-top.png"))
    lift()
    wait_event(page, "refreshStarted")
    assert probe.problems() == []


def test_screenshots_mid_rubber_band(start_server, open_page):
    """Looked at by a person: the rubber band at the top (a pointer drag) and at the bottom (a finger)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    server = start_server(initial_count=10, max_items=10)
    page, probe = open_page(server)
    x, _ = feed_center(page)
    box = page.locator("#feed").bounding_box()
    page.mouse.move(x, box["y"] + 100)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(x, box["y"] + 100 + 40 * i)
    page.wait_for_function("() => window.playground.geometry.contentOffset.y < -60")
    page.screenshot(path=str(SCREENSHOTS / "ios-1440x900-rubber-band-top.png"))
    page.mouse.up()
    wait_idle(page)
    assert geometry(page)["contentOffset"]["y"] == 0

    phone, phone_probe = open_page(server, width=390, height=844, touch=True)
    phone.wait_for_function("() => window.playground.state && window.playground.state.hasMore === false")
    px, py = feed_center(phone)
    touch_fling(phone, px, py + 150, -40, 6)
    phone.wait_for_function("() => window.playground.motion === 'idle'")
    lift = touch_hold(phone, px, py + 150, -30, 10)
    phone.wait_for_function(
        "() => { const g = window.playground.geometry; return g.contentSize.height - (g.contentOffset.y + g.containerSize.height) < -60; }")
    phone.screenshot(path=str(SCREENSHOTS / "ios-390x844-rubber-band-bottom.png"))
    lift()
    wait_idle(phone)
    assert abs(distance_to_bottom(geometry(phone))) < 0.5
    assert probe.problems() == [] and phone_probe.problems() == []
