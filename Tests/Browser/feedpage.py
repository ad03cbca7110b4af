"""A small page object over the playground: gestures and bounded waits, no sleeps.

The page exposes a read-only `window.playground` (state, config, geometry, rev, events, itemIds(),
sync()). `sync()` waits two animation frames (so the latest geometry has been sent) and then a
ping/pong round trip: the server handles messages in order, so every decision caused by that
geometry has been made, and its messages have arrived, when it resolves.
"""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

FEED = "#feed"


def wait_until(page: Page, expression: str, timeout: float | None = None) -> None:
    """Waits (bounded) until a JS expression is truthy.

    Always handed to Playwright as a function: a bare expression string would be re-evaluated in the
    page with eval(), which the server's CSP (script-src 'self') rightly blocks.
    """
    body = expression if expression.lstrip().startswith("() =>") else f"() => ({expression})"
    page.wait_for_function(body, timeout=timeout)


def sync(page: Page) -> None:
    page.evaluate("window.playground.sync()")


def item_ids(page: Page) -> list[str]:
    return page.evaluate("window.playground.itemIds()")


def event_count(page: Page, name: str) -> int:
    return page.evaluate("(name) => window.playground.eventCount(name)", name)


def state(page: Page) -> dict:
    # The feed's rows can arrive a message before the first `state`: wait for it rather than read null.
    page.wait_for_function("window.playground.state !== null")
    return page.evaluate("window.playground.state")


def geometry(page: Page) -> dict:
    return page.evaluate("window.playground.geometry")


def wait_items(page: Page, count: int) -> None:
    """Waits until the page holds `count` items (drawn or not: only the rows near the viewport are elements).
    Polled every 100 ms, as `expect` polls, not every frame: a frame between an `items` message and the `state`
    sent with it would see a refresh's indicator still open."""
    page.wait_for_function("(n) => window.playground.itemIds().length === n", arg=count, polling=100)


def wait_event(page: Page, name: str, count: int = 1) -> None:
    page.wait_for_function("([name, n]) => window.playground.eventCount(name) >= n", arg=[name, count])


def wait_state(page: Page, predicate: str) -> None:
    """Waits until `predicate` (a JS expression over `s`, the latest state) holds."""
    page.wait_for_function(f"() => {{ const s = window.playground.state; return Boolean(s && ({predicate})); }}")


def feed_center(page: Page) -> tuple[float, float]:
    box = page.locator(FEED).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def feed_top(page: Page) -> tuple[float, float]:
    box = page.locator(FEED).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + 60


def at_end_js(axis: str = "vertical") -> str:
    if axis == "horizontal":
        return "() => { const f = document.getElementById('feed'); return f.scrollLeft + f.clientWidth >= f.scrollWidth - 1; }"
    return "() => { const f = document.getElementById('feed'); return f.scrollTop + f.clientHeight >= f.scrollHeight - 1; }"


def wheel_to_end(page: Page, axis: str = "vertical") -> None:
    """A wheel gesture down (or along the strip) to the current end of the feed.

    The wheel delta is the distance left, measured now: a larger one keeps the browser's smooth
    scroll going into the page that lands meanwhile, and loads more pages than the test asked for.
    Returns once the feed is at its end or the server has logged another reachedBottom.
    """
    x, y = feed_center(page)
    page.mouse.move(x, y)
    before = event_count(page, "reachedBottom")
    condition = f"() => ({at_end_js(axis)})() || window.playground.eventCount('reachedBottom') > {before}"
    remaining_js = (
        "() => { const f = document.getElementById('feed');"
        + (" return f.scrollWidth - f.clientWidth - f.scrollLeft; }" if axis == "horizontal"
           else " return f.scrollHeight - f.clientHeight - f.scrollTop; }")
    )
    for _ in range(3):
        remaining = page.evaluate(remaining_js) + 2
        if axis == "horizontal":
            page.mouse.wheel(remaining, 0)
        else:
            page.mouse.wheel(0, remaining)
        try:
            page.wait_for_function(condition, timeout=3000)
            return
        except Exception:
            continue  # the wheel event was lost or coalesced: wheel once more
    raise AssertionError("the feed never reached its end")


def wheel_pull(page: Page, total: float, step: float = 120) -> None:
    """Upward wheel input at the top of the feed: `total` px of raw wheel delta in a few quick events.

    Few and large, so that a busy machine does not space them past the 150 ms wheel release.
    """
    x, y = feed_center(page)
    page.mouse.move(x, y)
    done = 0.0
    while done < total:
        delta = min(step, total - done)
        page.mouse.wheel(0, -delta)
        done += delta


def wait_released(page: Page) -> None:
    """Waits until the page reports the pull sprung back to rest (phase idle, no negative offset)."""
    page.wait_for_function(
        "() => { const g = window.playground.geometry;"
        " return g && g.phase === 'idle' && g.contentOffset.y >= -g.contentInsets.top && g.contentOffset.x >= -g.contentInsets.leading; }"
    )


def touch_fling(page: Page, x: float, y: float, step: float, steps: int, step_ms: float = 16, lift_ms: float = 8) -> None:
    """A finger down at (x, y), `steps` moves of `step` px every `step_ms` ms, lifted `lift_ms` ms later."""
    cdp = page.context.new_cdp_session(page)
    start = time.time()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": start})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {
            "type": "touchMove", "touchPoints": [{"x": x, "y": y + step * i}], "timestamp": start + i * step_ms / 1000,
        })
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": start + (steps * step_ms + lift_ms) / 1000})
    cdp.detach()
