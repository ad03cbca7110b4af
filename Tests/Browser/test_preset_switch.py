"""A switched preset acts on the position it finds (issue 40 §2): at the bottom with more to load, a preset
whose rule holds there loads; a fork continues in the recording's frame, and README's showcase (the
fractional-pixels recording continued live under `playground`) loads as `replay --compare` says."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from conftest import REPO
from feedpage import sync, wait_event, wait_until

FRACTIONAL = REPO / "Examples" / "traces" / "fractional-pixels-from-zoom.jsonl"


def events_named(page, name: str) -> list[dict]:
    return page.evaluate("(name) => window.playground.events.filter((e) => e.name === name)", name)


def test_switching_at_the_bottom_to_a_preset_whose_rule_holds_loads(start_server, open_page):
    server = start_server(preset="offsetObserving", physics="browser")
    page, probe = open_page(server, query="?physics=browser")
    page.evaluate("() => { const f = document.getElementById('feed'); f.scrollTop = f.scrollHeight; }")
    wait_until(page, "window.playground.geometry && window.playground.geometry.phase === 'idle'"
               " && Math.abs(window.playground.geometry.contentSize.height - window.playground.geometry.contentOffset.y"
               " - window.playground.geometry.containerSize.height) < 1")
    sync(page)
    assert events_named(page, "loadMoreStarted") == []
    page.locator("#presets input[value=playground]").check()
    wait_event(page, "loadMoreStarted")
    assert events_named(page, "loadMoreStarted")[0]["data"]["trigger"] == "bottom"
    assert events_named(page, "reachedBottom")[-1]["data"]["trigger"] == "configChanged"
    wait_until(page, "window.playground.itemIds().length > 30", timeout=5000)
    assert probe.problems() == []


def test_continuing_the_fractional_recording_under_playground_loads(start_server, open_page):
    server = start_server()
    page, probe = open_page(server)
    first = page.evaluate("window.playground.session")
    page.set_input_files("#trace-file", str(FRACTIONAL))
    expect(page.locator("#trace-body")).to_be_visible()
    page.select_option("#trace-preset", "playground")
    page.click("#trace-fork")
    wait_until(page, f"window.playground.session !== {json.dumps(first)} && window.playground.status === 'open'")
    wait_event(page, "loadMoreStarted")
    assert events_named(page, "loadMoreStarted")[0]["data"]["trigger"] == "bottom"
    assert events_named(page, "reachedBottom")[0]["data"]["trigger"] == "configChanged"
    # The page goes on in the recording's frame (699.7 px, measured in whole px as clientHeight is), not its own.
    wait_until(page, "window.playground.geometry !== null")
    sync(page)
    assert abs(page.evaluate("window.playground.geometry.containerSize.height") - 699.7) <= 0.5
    wait_until(page, "window.playground.itemIds().length === 50", timeout=5000)
    assert probe.problems() == []


def test_compare_draws_every_firing_in_a_lane_per_preset_chat_included(start_server, open_page):
    """Issue 40 §3: a load every preset agrees on is drawn in every lane, chat's included; the switch sits
    with the presets."""
    server = start_server(preset="playground")
    page, probe = open_page(server)
    switch = page.locator("#presets-panel input[name=compare]")
    expect(switch).to_be_visible()
    switch.check()
    wait_event(page, "configChanged")
    assert "chat" in page.evaluate("window.playground.lanePresets()")
    page.evaluate("() => { const f = document.getElementById('feed'); f.scrollTop = f.scrollHeight; }")
    wait_event(page, "loadMoreStarted")
    wait_until(page, "window.playground.laneFirings().some((f) => f.load.includes('customScrollView'))")
    firing = next(f for f in page.evaluate("window.playground.laneFirings()") if "customScrollView" in f["load"])
    assert set(firing["load"]) >= {"customScrollView", "refreshable", "playground", "chat"}, firing
    # Painted in chat's lane (the last), not only kept.
    painted = page.locator("#lanes").evaluate(
        "(c) => { const lanes = window.playground.lanePresets().length; const h = c.height / lanes;"
        " const d = c.getContext('2d').getImageData(Math.round(c.width * 0.5), Math.round(h * (lanes - 1)),"
        " Math.round(c.width * 0.5), Math.round(h)).data; const blue = [];"
        " for (let i = 0; i < d.length; i += 4) if (d[i + 2] > 150 && d[i] < 120) blue.push(i); return blue.length; }")
    assert painted > 0
    assert probe.problems() == []


def to_the_end(page) -> None:
    page.evaluate("() => { const f = document.getElementById('feed'); f.scrollTop = f.scrollHeight; }")
    wait_until(page, "window.playground.geometry && window.playground.geometry.phase === 'idle'"
               " && window.playground.geometry.contentOffset.y > 100")
    sync(page)


def test_the_end_shortfall_of_a_fractional_zoom_is_felt_in_the_page(start_server, open_page):
    """README step 2 in the page (issue 40 §4): 0.4 px short of the end, customScrollView never loads;
    playground's slack loads."""
    server = start_server(preset="customScrollView", physics="browser")
    page, probe = open_page(server, query="?physics=browser")
    field = page.locator("#controls input[name=endShortfall]")
    expect(field).to_be_visible()
    field.fill("0.4")
    field.dispatch_event("change")
    to_the_end(page)
    g = page.evaluate("window.playground.geometry")
    distance = g["contentSize"]["height"] - g["contentOffset"]["y"] - g["containerSize"]["height"]
    assert abs(distance - 0.4) < 0.05, g
    assert events_named(page, "reachedBottom") == [] and events_named(page, "loadMoreStarted") == []
    # A reload keeps the page's own setting.
    page.reload()
    page.wait_for_function("() => window.playground && window.playground.status === 'open' && window.playground.rev !== null")
    expect(page.locator("#controls input[name=endShortfall]")).to_have_value("0.4")
    # The preset that slacks half a pixel loads from where customScrollView stalled.
    to_the_end(page)
    page.locator("#presets input[value=playground]").check()
    wait_event(page, "loadMoreStarted")
    assert probe.problems() == []
