"""An opened trace's "Try this hand under…": its hand on the server's simulated page under other settings."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from conftest import REPO, SCREENSHOTS
from feedpage import wait_items

TRACE = REPO / "Examples" / "traces" / "ios-lazy-estimate-prefetch.jsonl"


def open_trace(page) -> None:
    page.set_input_files("#trace-file", str(TRACE))
    expect(page.locator("#trace-body")).to_be_visible()
    expect(page.locator("#hand-trial")).to_be_visible()


def simulate(page, settings: str, preset: str = "") -> None:
    page.select_option("#hand-preset", preset)
    page.fill("#hand-settings", settings)
    page.click("#hand-run")


def test_a_recorded_hand_under_other_settings_beside_the_recorded_one(start_server, open_page):
    server = start_server(preset="playground")
    page, probe = open_page(server)
    wait_items(page, 30)
    open_trace(page)
    # As recorded: the hand makes the recording's three loads.
    simulate(page, "")
    expect(page.locator("#hand-summary")).to_contain_text("the same loads and refreshes as recorded")
    expect(page.locator("#hand-recorded li")).to_have_count(3)
    expect(page.locator("#hand-simulated li")).to_have_count(3)
    # With the bottom rule at 0 px and 600 ms loads, the same hand waits at the end and loads once.
    simulate(page, "bottomThreshold=0 loadLatencyMs=600")
    expect(page.locator("#hand-summary")).to_contain_text("other loads or refreshes than recorded")
    expect(page.locator("#hand-summary")).to_contain_text("stall 600 ms")
    expect(page.locator("#hand-simulated li")).to_have_count(1)
    expect(page.locator("#hand-recorded li")).to_have_count(3)
    # The settings that won leave as a file.
    with page.expect_download() as download:
        page.click("#hand-export")
    settings = json.loads(open(download.value.path(), encoding="utf-8").read())
    # The recording was made under refreshableLegacy; the export names it with the changed settings and the
    # recording's own (issue 40 §7: the same settings as the Swift).
    assert settings["preset"] == "refreshableLegacy" and settings["bottomThreshold"] == 0, settings
    assert settings.get("loadLatencyMs", 600) == 600 and len(settings) > 2, settings
    # And as the app takes them: the rules' setting in Swift; the synthetic feed's latency is no rule.
    with page.expect_download() as download:
        page.click("#hand-export-swift")
    swift = open(download.value.path(), encoding="utf-8").read()
    assert "FeedSettings(preset: .refreshableLegacy)" in swift and "settings.bottomThreshold = 0" in swift, swift
    assert "settings.loadLatencyMs" not in swift, swift
    for key, value in settings.items():
        if key != "preset":
            assert f"settings.{key} = " in swift or f"{key}={value}" in swift, (key, swift)
    # Another preset; and a setting the server does not know is refused in one line.
    simulate(page, "", "refreshOffsetObservable")
    # Only what differs from the recording: not the preset's own defaults, and quoted one way.
    expect(page.locator("#hand-summary")).to_contain_text("refreshOffsetObservable: ")
    assert "pullThreshold" not in page.locator("#hand-summary").text_content()
    assert '"' not in page.locator("#hand-summary").text_content()
    simulate(page, "nope=1")
    expect(page.locator("#hand-status")).to_contain_text('unknown setting "nope"')
    simulate(page, "bottomThreshold=500")
    expect(page.locator("#hand-summary")).to_contain_text("bottomThreshold=500")
    page.screenshot(path=str(SCREENSHOTS / "hand-trial-1440x900.png"), full_page=False)
    assert probe.problems() == [], probe.problems()


def test_the_trial_fits_a_phone(start_server, open_page):
    server = start_server(preset="playground")
    page, probe = open_page(server, width=390, height=844, touch=True)
    wait_items(page, 30)
    open_trace(page)
    simulate(page, "bottomThreshold=0 loadLatencyMs=600")
    expect(page.locator("#hand-summary")).to_contain_text("stall 600 ms")
    page.locator("#hand-trial").scroll_into_view_if_needed()
    box = page.locator("#hand-trial").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, box
    page.locator("#hand-trial").screenshot(path=str(SCREENSHOTS / "hand-trial-390x844.png"))
    assert probe.problems() == [], probe.problems()
