"""Accessibility (axe-core) and idle-cost measurements of the page, shared by the tests and by people.

axe-core comes from `axe-playwright-python` (which bundles `axe.min.js`). It is injected through the
DevTools protocol (`Runtime.evaluate`), which the page's CSP does not govern: `page.evaluate` of a
string or a script tag would be refused by `script-src 'self'`, and the page is audited under its real
CSP rather than with `bypass_csp`.

Run directly for the figures docs/decisions.md quotes (needs a running server):
    .venv/bin/python Tests/Browser/audit.py http://127.0.0.1:8080/
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from playwright.sync_api import Page

AXE_SCRIPT = (Path(__import__("axe_playwright_python").__file__).parent / "axe.min.js").read_text(encoding="utf-8")
IDLE_SECONDS = 5.0


def run_axe(page: Page) -> list[dict]:
    """axe-core's violations on the page as it is now: [{id, impact, nodes: [{target, …}], …}]."""
    cdp = page.context.new_cdp_session(page)
    try:
        loaded = cdp.send("Runtime.evaluate", {"expression": "typeof window.axe === 'object'", "returnByValue": True})
        if not loaded["result"].get("value"):
            cdp.send("Runtime.evaluate", {"expression": AXE_SCRIPT})
        answer = cdp.send("Runtime.evaluate", {
            "expression": "axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))",
            "awaitPromise": True,
            "returnByValue": True,
        })
    finally:
        cdp.detach()
    if "exceptionDetails" in answer:
        raise AssertionError(f"axe failed: {answer['exceptionDetails']}")
    return json.loads(answer["result"]["value"])


def summarize(violations: list[dict]) -> dict[str, int]:
    """{"rule (impact)": number of elements}."""
    counts: Counter[str] = Counter()
    for violation in violations:
        counts[f"{violation['id']} ({violation.get('impact')})"] += len(violation.get("nodes", []))
    return dict(sorted(counts.items()))


def serious(violations: list[dict]) -> list[str]:
    """Readable lines for every violation of impact serious or critical."""
    lines = []
    for violation in violations:
        if violation.get("impact") not in ("serious", "critical"):
            continue
        for node in violation.get("nodes", []):
            lines.append(f"{violation['id']} ({violation['impact']}): {node.get('target')} {node.get('failureSummary', '')[:200]}")
    return lines


def idle_busy_ms(page: Page, seconds: float = IDLE_SECONDS) -> float:
    """Main-thread busy time (ms) while the page sits idle for `seconds`, from Chromium's own counter.

    `Performance.getMetrics` reports `TaskDuration`, the cumulative time the renderer's main thread
    spent running tasks; the difference over the window is what an idle page costs.
    """
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Performance.enable", {"timeDomain": "timeTicks"})

        def task_seconds() -> float:
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            return metrics["TaskDuration"]

        before = task_seconds()
        # A bounded wait that is the measurement itself: the page is left alone for `seconds`.
        page.wait_for_timeout(seconds * 1000)
        after = task_seconds()
    finally:
        cdp.detach()
    return (after - before) * 1000


def main(url: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
        for width, height, touch in [(1440, 900, False), (390, 844, True)]:
            context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
            page = context.new_page()
            page.goto(url)
            page.wait_for_function("() => window.playground && window.playground.status === 'open' && window.playground.rev !== null")
            print(f"axe {width}x{height} fresh:", json.dumps(summarize(run_axe(page))))
            page.evaluate("() => { const f = document.getElementById('feed'); f.scrollTop = f.scrollHeight; }")
            page.wait_for_function("() => window.playground.eventCount('loadMoreFinished') >= 1", timeout=15_000)
            print(f"axe {width}x{height} after a page:", json.dumps(summarize(run_axe(page))))
            if width == 1440:
                page.wait_for_timeout(1000)
                busy = idle_busy_ms(page)
                print(f"idle {width}x{height}: {busy:.0f} ms busy in {IDLE_SECONDS:.0f} s = {busy / IDLE_SECONDS / 10:.1f} %")
            context.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080/")
