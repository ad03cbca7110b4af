"""Issue 12 §1, failure policies, and bad settings, as the page shows them: the failed-page row follows
`state.loadFailure` (a scheduled retry counts down, giving up says so, `none` offers no Retry), and a
refused setting changes nothing.
"""

from __future__ import annotations

from playwright.sync_api import expect

from feedpage import event_count, wait_event, wait_items, wait_until, wheel_to_end


def row_text(page) -> str:
    return page.locator("#load-failed-text").inner_text()


def test_backoff_counts_down_gives_up_and_retry_lands_the_page(start_server, open_page):
    server = start_server(
        preset="playground", failure_rate=1, load_latency_ms=100, retry_base_ms=1200, retry_max_ms=1200,
        retry_max=1)
    page, probe = open_page(server)
    wait_items(page, 30)
    wheel_to_end(page)
    wait_event(page, "loadMoreRetryScheduled")
    row = page.locator("#load-failed")
    expect(row).to_be_visible()
    expect(row).to_have_attribute("data-next", "scheduled")
    expect(page.locator("#load-failed-text")).to_contain_text("Couldn't load page 2 · retry 1 of 1 in")
    expect(page.locator("#load-retry")).to_have_text("Retry now")
    # The countdown moves on its own (no message from the server while it does).
    first = row_text(page)
    wait_until(page, f"document.getElementById('load-failed-text').textContent !== {first!r}")
    assert event_count(page, "loadMoreRetryScheduled") == 1
    # The retry fails too, and the policy gives up: the row says so and offers Retry.
    wait_event(page, "loadMoreGaveUp")
    expect(row).to_have_attribute("data-next", "gaveUp")
    expect(page.locator("#load-failed-text")).to_have_text("Couldn't load page 2 · gave up after 2 tries")
    expect(page.locator("#load-retry")).to_have_text("Retry")
    expect(page.locator("#feed-announcer")).to_have_text("Gave up on page 2")
    # With failures off, Retry loads the page and the row goes.
    page.fill("input[name=failureRate]", "0")
    page.dispatch_event("input[name=failureRate]", "change")
    wait_event(page, "configChanged")
    page.locator("#load-retry").click()
    wait_items(page, 50)
    expect(row).to_be_hidden()
    trigger = page.evaluate(
        "window.playground.events.filter(e => e.name === 'loadMoreRetryStarted').map(e => e.data.trigger)")
    assert trigger == ["retry", "manual"]
    assert probe.problems() == []


def test_none_offers_no_retry_and_the_policy_can_be_changed_from_settings(start_server, open_page):
    server = start_server(preset="refreshable", failure_rate=1, load_latency_ms=100, retry_policy="none")
    page, _ = open_page(server)
    wait_items(page, 30)
    wheel_to_end(page)
    wait_event(page, "loadMoreFailed")
    row = page.locator("#load-failed")
    expect(row).to_have_attribute("data-next", "none")
    expect(page.locator("#load-failed-text")).to_have_text("Couldn't load page 2")
    expect(page.locator("#load-retry")).to_be_hidden()
    # Switching the policy in Settings decides again about the failure on show.
    page.select_option("select[name=retryPolicy]", "backoff")
    wait_event(page, "loadMoreRetryScheduled")
    expect(row).to_have_attribute("data-next", "scheduled")
    expect(page.locator("#load-retry")).to_be_visible()


def test_bad_settings_are_refused_and_change_nothing(start_server, open_page):
    server = start_server()
    page, _ = open_page(server)
    wait_items(page, 30)
    # A retryMax of 1e9 from the form: the server's message beside the field, the setting unchanged.
    page.fill("input[name=retryMax]", "1000000000")
    page.dispatch_event("input[name=retryMax]", "change")
    expect(page.locator("#error-retryMax")).to_have_text("retryMax must be in 0…100")
    assert page.evaluate("window.playground.config.retryMax") == 5
    # A typo from another client: refused naming the key, logged, nothing changed.
    page.evaluate("window.playground.send({type: 'config', bottomTreshold: 10})")
    wait_until(page, "window.playground.events.some(e => e.name === 'protocolError' && e.data.field === 'bottomTreshold')")
    refused = page.evaluate(
        "window.playground.events.filter(e => e.name === 'protocolError').map(e => e.data)")
    assert refused[-1]["code"] == "bad_message"
    assert "did you mean \"bottomThreshold\"" in refused[-1]["message"]
    assert event_count(page, "configChanged") == 0
