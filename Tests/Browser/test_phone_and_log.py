"""Issue 24, the page on a phone and as a daily tool (§1, §3, §4), and issue 20 §7, the page's trace viewer.

Each test failed against the page before its change (`SCROLL_PLAYGROUND_PUBLIC` runs them on an older page).
"""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect

from feedpage import event_count, geometry, state, sync, wait_event, wait_items, wait_state, wait_until, wheel_to_end

PHONE = {"width": 390, "height": 844, "touch": True}


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
