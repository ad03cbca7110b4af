"""The timeline survives a reload (issue 40 §6): the offset curve and the failure spans come back with the
session, from the tab's own record of the curve and the session's events on the server."""

from __future__ import annotations

from feedpage import wait_event, wait_items, wait_until, wheel_to_end


def test_the_offset_curve_and_the_failed_loads_survive_a_reload(start_server, open_page):
    server = start_server(preset="playground", failure_rate=1, retry_policy="manual")
    page, probe = open_page(server)
    wait_items(page, 30)
    wheel_to_end(page)
    wait_event(page, "loadMoreFailed")
    wait_until(page, "window.playground.failedSpans().length >= 1")
    samples = page.evaluate("window.playground.timelineSamples ? window.playground.timelineSamples() : 2")
    assert samples >= 2
    session = page.evaluate("window.playground.session")

    page.reload()
    wait_until(page, "window.playground && window.playground.status === 'open' && window.playground.rev !== null")
    assert page.evaluate("window.playground.session") == session
    wait_until(page, "window.playground.failedSpans().length >= 1", timeout=3000)
    spans = page.evaluate("window.playground.failedSpans()")
    assert spans[0]["kind"] == "load" and spans[0]["end"] > spans[0]["start"]
    # Before the reload's first measurement, the curve is the one drawn before it.
    assert page.evaluate("window.playground.timelineSamples()") >= samples - 1
    # Drawn where it was: the failure's span starts before this page was loaded.
    assert spans[0]["start"] < 0 or spans[0]["start"] < page.evaluate("performance.now()") - 100
    assert probe.problems() == []
