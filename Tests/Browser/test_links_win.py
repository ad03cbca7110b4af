"""A link always opens what it says (issue 40 §1): in a tab that already has a session, a link with other
settings opens a new session with the link's settings, says so, and offers the way back to the old one; a
reload of the same link still resumes."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from conftest import REPO
from feedpage import wait_until

EXAMPLE = REPO / "Examples" / "traces" / "pull-during-page-load.jsonl"


def wait_open(page) -> None:
    page.wait_for_function("() => window.playground && window.playground.status === 'open' && window.playground.rev !== null")


def problems(probe) -> list[str]:
    """What the page said, less the favicon request a navigation aborts on its way out."""
    return [p for p in probe.problems() if "favicon" not in p]


def go(page, server, query: str) -> None:
    page.goto(server.url + query)
    wait_open(page)


def test_a_new_link_opens_its_settings_in_both_orders(start_server, open_page):
    server = start_server()
    page, probe = open_page(server, query="?preset=customScrollView")
    first = page.evaluate("window.playground.session")
    assert page.evaluate("window.playground.config.preset") == "customScrollView"

    # Another link in the same tab: a new session with exactly the link's settings, and a notice.
    go(page, server, "?preset=refreshable&bottomThreshold=1500")
    second = page.evaluate("window.playground.session")
    assert second != first
    config = page.evaluate("window.playground.config")
    assert config["preset"] == "refreshable" and config["bottomThreshold"] == 1500
    assert page.evaluate("window.playground.eventCount('sessionResumed')") == 0
    expect(page.locator("#brand-preset")).to_have_text("refreshable")
    notice = page.locator("#link-notice-session")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(f"{first} (customScrollView)")
    expect(page.locator(".log-row[data-name=linkOpened]")).to_have_count(1)

    # A reload of that link resumes it.
    page.reload()
    wait_open(page)
    assert page.evaluate("window.playground.session") == second
    wait_until(page, "window.playground.eventCount('sessionResumed') >= 1")

    # The other order: back to the first link, a session with its settings again.
    go(page, server, "?preset=customScrollView")
    third = page.evaluate("window.playground.session")
    assert third not in (first, second)
    config = page.evaluate("window.playground.config")
    assert config["preset"] == "customScrollView" and config["bottomThreshold"] != 1500

    # The log's button goes back to the session the link replaced, resumed.
    page.locator(".log-row[data-name=linkOpened] .log-action").click()
    wait_open(page)
    wait_until(page, f"window.playground.session === {json.dumps(second)}")
    wait_until(page, "window.playground.eventCount('sessionResumed') >= 1")
    assert page.evaluate("window.playground.config.preset") == "refreshable"
    assert "bottomThreshold=1500" in page.url
    assert problems(probe) == []


def test_a_link_after_a_fork_opens_the_link_not_the_fork(start_server, open_page):
    server = start_server()
    page, probe = open_page(server, query="?preset=playground")
    page.set_input_files("#trace-file", str(EXAMPLE))
    expect(page.locator("#trace-body")).to_be_visible()
    first = page.evaluate("window.playground.session")
    page.click("#trace-fork")
    wait_until(page, f"window.playground.session !== {json.dumps(first)} && window.playground.status === 'open'")
    fork = page.evaluate("window.playground.session")
    header = json.loads(EXAMPLE.read_text().splitlines()[0])
    wait_until(page, f"window.playground.config.physics === {json.dumps(header['config'].get('physics', 'browser'))}")
    # The fork is the trace's session: a reload resumes it.
    page.reload()
    wait_open(page)
    assert page.evaluate("window.playground.session") == fork

    go(page, server, "?preset=playground")
    assert page.evaluate("window.playground.session") != fork
    config = page.evaluate("window.playground.config")
    assert config["preset"] == "playground" and config["physics"] == "ios"
    expect(page.locator("#link-notice-session")).to_contain_text(f"session {fork}")
    assert problems(probe) == []
