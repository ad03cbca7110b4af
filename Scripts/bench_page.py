#!/usr/bin/env python3
"""The page's frames during a touch fling (`make bench-page`; BENCHMARKS.md, "The page's frames").

For each physics (`ios`, `browser`), feed length, window (`windowSize`) and CPU throttle, in Debian's chromium
at 390 × 844 with touch: a fresh page, the feed grown by a jump to item-ROWS of an endless feed (`maxItems` 0;
with `windowSize` 0 the page then holds every item before it, else at most the window), one warm-up fling, then
RUNS measured flings, each from the same place (where the jump left the feed). A fling is a finger moving down
32 px every 16 ms for 8 moves (2,000 px/s, toward the feed's start, where the rows are), dispatched over the
DevTools protocol in real time, then lifted. Each run is traced from the touch to the feed's rest
(`window.playground` says `motion` and `geometry.phase` idle); the figures are the median of the runs.

- **frames**, **interval p95 / p99 / max**, **over 25 ms**: the page's animation frames from the touch to
  the rest, by the timestamps a requestAnimationFrame loop of the benchmark's own records (the page runs a
  callback in each of those frames anyway while the feed moves), and the intervals between consecutive ones.
- **dropped (Chrome)**: the renderer's `PipelineReporter` events in the trace (`cc`'s frame reporter, what
  DevTools' Frames track draws): frames Chrome produced or meant to (`state` presented all, presented
  partial, dropped) and of those the ones with `STATE_DROPPED`, "N of M"; partial presentations are counted
  as presented. Frames with no update desired are not frames of the fling.
- **scroll ms / frame**: the page's own scroll work, from the trace's top-level `FunctionCall` events of
  `/js/geometry.js` (the geometry reporter's frame: the iOS model, the measurement and the anchor sent with
  it, with any layout they force; and its touch listeners), summed over the run and divided by the frames the
  reporter ran; p95 is over those frames (each frame's reporter callback with its share of input listeners).
- **rendering ms / frame**: Chrome's own work on the page's main thread (style, layout, pre-paint, paint,
  layerize: top-level trace events, so a layout the page forced counts here too), over the page's frames.
- A second table: what the page holds once the feed has grown (rows, DOM nodes and JS heap from the DevTools
  protocol after a garbage collection, layout objects, and the renderer process's resident memory).

Nothing here asserts; timings are only worth reading from a quiet machine. `--public` measures another page
(an older checkout's, for a "before" column): `git worktree add /tmp/before main` and
`--public /tmp/before/Public`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FLING_MOVES = 8
FLING_STEP_PX = 32
FLING_STEP_S = 0.016
WIDTH, HEIGHT = 390, 844
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline.frame"]
# Chrome's rendering work on the main thread: style, layout, pre-paint, paint, layerize.
RENDERING_EVENTS = {"UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize"}
CHROME_FRAME_STATES = {"STATE_PRESENTED_ALL", "STATE_PRESENTED_PARTIAL", "STATE_DROPPED"}
LONG_FRAME_MS = 25
WAIT_MS = 120_000

# The benchmark's own animation-frame loop while a run lasts: the timestamps of the frames the page's main
# thread ran (wrapping the page's own callbacks would hide their source from the trace).
RECORD_FRAMES = """() => {
  window.__benchFrames = [];
  window.__benchRecording = true;
  const record = (now) => {
    if (!window.__benchRecording) return;
    window.__benchFrames.push(now);
    requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
}"""

AT_REST = "() => window.playground.motion === 'idle' && window.playground.geometry?.phase === 'idle'"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--public", default=str(REPO / "Public"), help="the page's directory (default: this checkout's)")
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "scroll-playground"), help="the server")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--physics", default="ios,browser", help="comma-separated: ios, browser")
    parser.add_argument("--rows", default="2000,20000,100000", help="comma-separated feed lengths (a jump to item-N)")
    parser.add_argument("--window-size", default="0", help="comma-separated windowSize settings (0 = unbounded)")
    parser.add_argument("--throttle", default="1,4", help="comma-separated CPU throttling rates (1 = none)")
    parser.add_argument("--runs", type=int, default=3, help="measured flings per row of the table (median)")
    parser.add_argument("--json", help="also write every run's figures here")
    return parser.parse_args()


def numbers(text: str, kind=int) -> list:
    return [kind(part) for part in text.split(",") if part.strip()]


@dataclass(frozen=True, order=True)
class Cell:
    """One row of the table: what was measured."""

    throttle: float
    rows: int
    window: int
    physics: str


def percentile(values: list[float], p: float) -> float:
    """Nearest rank."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def top_level(events: list[dict]) -> list[dict]:
    """The complete events not nested in another of the list on the same thread."""
    kept, ends = [], {}
    for event in sorted(events, key=lambda e: (e["tid"], e["ts"], -e.get("dur", 0))):
        if event["ts"] < ends.get(event["tid"], -1):
            continue
        kept.append(event)
        ends[event["tid"]] = event["ts"] + event.get("dur", 0)
    return kept


def renderer_of(trace: dict, origin: str) -> int:
    """The page's renderer process: the one that ran the page's scripts."""
    return next(
        e["pid"] for e in trace["traceEvents"]
        if e.get("name") == "FunctionCall" and e.get("args", {}).get("data", {}).get("url", "").startswith(origin))


def read_trace(trace: dict, renderer: int) -> dict:
    """Chrome's frames, the page's scroll work and Chrome's rendering work, from one run's trace."""
    mine = [e for e in trace["traceEvents"] if e.get("pid") == renderer]
    states = [
        e["args"]["frame_reporter"].get("state") for e in mine
        if e.get("name") == "PipelineReporter" and e.get("ph") == "b" and "frame_reporter" in e.get("args", {})
    ]
    produced = [state for state in states if state in CHROME_FRAME_STATES]
    calls = top_level([e for e in mine if e.get("name") == "FunctionCall" and e.get("ph") == "X"])
    scroll = [e for e in calls if e["args"].get("data", {}).get("url", "").endswith("/js/geometry.js")]
    # The reporter's frame callbacks (inside a FireAnimationFrame), each with the listeners that ran since the last.
    animation = [(e["ts"], e["ts"] + e.get("dur", 0)) for e in mine if e.get("name") == "FireAnimationFrame" and e.get("ph") == "X"]
    per_frame: list[float] = []
    pending = 0.0
    for call in scroll:
        pending += call.get("dur", 0) / 1000
        if any(start <= call["ts"] < end for start, end in animation):
            per_frame.append(pending)
            pending = 0.0
    rendering = sum(e.get("dur", 0) for e in top_level([e for e in mine if e.get("name") in RENDERING_EVENTS and e.get("ph") == "X"]))
    return {
        "chromeFrames": len(produced),
        "dropped": sum(state == "STATE_DROPPED" for state in produced),
        "scrollMsPerFrame": sum(per_frame) / len(per_frame) if per_frame else math.nan,
        "scrollMsP95": percentile(per_frame, 95),
        "renderingMs": rendering / 1000,
    }


def fling(cdp, x: float, y: float) -> None:
    """A finger down the feed at 2,000 px/s (toward its start: the jump leaves the rows above the view), in real
    time; Chrome stamps each event as it arrives."""
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    start = time.monotonic()
    for i in range(1, FLING_MOVES + 1):
        time.sleep(max(0.0, start + i * FLING_STEP_S - time.monotonic()))
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + FLING_STEP_PX * i}]})
    time.sleep(max(0.0, start + (FLING_MOVES + 0.5) * FLING_STEP_S - time.monotonic()))
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def jump_to(page, rows: int) -> float:
    """Jumps to item-`rows`; returns the ms from the jump sent to its item drawn at the top (its window landed
    and the frame after it ran), by the page's clock."""
    settled = page.evaluate("window.playground.eventCount('jumpSettled')")
    drawn = page.evaluate("""(id) => new Promise((resolve) => {
      const start = performance.now();
      window.playground.send({ type: 'jump', id, anchor: 'top' });
      const look = () => {
        if (window.playground.anchor?.id === id) resolve(performance.now() - start);
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    })""", f"item-{rows}")
    page.wait_for_function("(n) => window.playground.eventCount('jumpSettled') > n", arg=settled, timeout=WAIT_MS)
    page.wait_for_function(AT_REST, timeout=WAIT_MS)
    page.evaluate("window.playground.sync()")
    return drawn


def measure_run(browser, page, cdp, home: float) -> dict:
    # Every run from the same place: where the jump left the feed.
    page.evaluate("(top) => { document.getElementById('feed').scrollTop = top; }", home)
    page.wait_for_function(AT_REST, timeout=WAIT_MS)
    page.evaluate("window.playground.sync()")
    box = page.locator("#feed").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.15
    top = page.evaluate("document.getElementById('feed').scrollTop")
    page.evaluate(RECORD_FRAMES)
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    fling(cdp, x, y)
    page.wait_for_function("(top) => document.getElementById('feed').scrollTop < top - 50", arg=top, timeout=WAIT_MS)
    page.wait_for_function(AT_REST, timeout=WAIT_MS)
    trace = json.loads(browser.stop_tracing())
    stamps = page.evaluate("() => { window.__benchRecording = false; return window.__benchFrames; }")
    intervals = [b - a for a, b in zip(stamps, stamps[1:])]
    figures = read_trace(trace, renderer_of(trace, page.url.split("?")[0]))
    return {
        "frames": len(stamps),
        "intervalP95": percentile(intervals, 95),
        "intervalP99": percentile(intervals, 99),
        "intervalMax": max(intervals, default=math.nan),
        "over25": sum(interval > LONG_FRAME_MS for interval in intervals),
        "travel": top - page.evaluate("document.getElementById('feed').scrollTop"),
        **figures,
        "renderingMsPerFrame": figures["renderingMs"] / max(1, len(stamps)),
    }


def page_size(browser, page, cdp) -> dict:
    """What the page holds once the feed has grown: rows, DOM nodes, layout objects, JS heap, renderer memory."""
    cdp.send("HeapProfiler.collectGarbage")
    cdp.send("Performance.enable")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    browser.start_tracing(page=page, categories=["devtools.timeline"])
    page.evaluate("window.playground.sync()")
    renderer = renderer_of(json.loads(browser.stop_tracing()), page.url.split("?")[0])
    status = Path(f"/proc/{renderer}/status")
    rss = next((int(line.split()[1]) / 1024 for line in status.read_text().splitlines() if line.startswith("VmRSS")), math.nan) \
        if status.exists() else math.nan
    return {
        "rowsHeld": page.evaluate("window.playground.itemIds().length"),
        "elements": page.evaluate("document.querySelectorAll('*').length"),
        "domNodes": cdp.send("Memory.getDOMCounters")["nodes"],
        "layoutObjects": metrics.get("LayoutObjects", math.nan),
        "jsHeapMB": metrics.get("JSHeapUsedSize", math.nan) / 2**20,
        "rendererRssMB": rss,
    }


def measure_cell(browser, url: str, cell: Cell, runs: int) -> tuple[dict, list[dict]]:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{url}?maxItems=0&windowSize={cell.window}&physics={cell.physics}")
        page.wait_for_function("() => window.playground && window.playground.status === 'open' && window.playground.rev !== null")
        cdp = context.new_cdp_session(page)
        jump_ms = jump_to(page, cell.rows)
        size = {**page_size(browser, page, cdp), "jumpMs": jump_ms}
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cell.throttle})
        home = page.evaluate("document.getElementById('feed').scrollTop")
        measure_run(browser, page, cdp, home)  # warm-up
        results = [measure_run(browser, page, cdp, home) for _ in range(runs)]
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        return size, results
    finally:
        context.close()


def median(runs: list[dict], key: str) -> float:
    values = [run[key] for run in runs if not math.isnan(run[key])]
    return statistics.median(values) if values else math.nan


def describe(cell: Cell, size: dict) -> str:
    window = "" if cell.window == 0 else f", window {cell.window:,}"
    return f"| {cell.physics} | {cell.rows:,} ({size['rowsHeld']:,} held{window}) | {'none' if cell.throttle == 1 else f'{cell.throttle:g}×'} "


def frames_row(cell: Cell, size: dict, runs: list[dict]) -> str:
    dropped, produced = median(runs, "dropped"), median(runs, "chromeFrames")
    share = f" ({dropped / produced:.0%})" if produced else ""
    return (
        describe(cell, size)
        + f"| {median(runs, 'frames'):.0f} | {median(runs, 'intervalP95'):.1f} / {median(runs, 'intervalP99'):.1f} / "
        f"{median(runs, 'intervalMax'):.1f} ms | {median(runs, 'over25'):.0f} | {dropped:.0f} of {produced:.0f}{share} "
        f"| {median(runs, 'scrollMsPerFrame'):.2f} ms (p95 {median(runs, 'scrollMsP95'):.2f}) "
        f"| {median(runs, 'renderingMsPerFrame'):.2f} ms |"
    )


def size_row(cell: Cell, size: dict) -> str:
    return (
        describe(cell, size) + f"| {size['elements']:,} | {size['domNodes']:,} | {size['layoutObjects']:,.0f} "
        f"| {size['jsHeapMB']:.1f} MB | {size['rendererRssMB']:.0f} MB | {size['jumpMs']:,.0f} ms |"
    )


def goals(table: dict[Cell, tuple[dict, list[dict]]]) -> list[str]:
    """BENCHMARKS.md's goals (issue 39), met or missed, from the medians (unbounded window)."""
    def verdict(ok: bool) -> str:
        return "met" if ok else "missed"

    lines = []
    for cell, (size, runs) in sorted(table.items()):
        if cell.window != 0:
            continue
        where = f"{cell.rows:,} rows, {cell.physics}, {'unthrottled' if cell.throttle == 1 else f'{cell.throttle:g}× throttle'}"
        if cell.throttle == 1:
            work = median(runs, "scrollMsPerFrame")
            lines.append(f"- scroll work ≤ 1 ms a frame, {where}: {work:.2f} ms, {verdict(work <= 1)}")
            lines.append(f"- elements ≤ 4,000, {where}: {size['elements']:,}, {verdict(size['elements'] <= 4_000)}")
        frames = max(1, median(runs, "frames") - 1)
        over = median(runs, "over25") / frames
        dropped = median(runs, "dropped") / max(1, median(runs, "chromeFrames"))
        limit = 0.05 if cell.throttle > 1 else 0.0
        if cell.physics == "ios":
            lines.append(f"- fling intervals over 25 ms ≤ {limit:.0%} and frames dropped ≤ {limit:.0%}, {where}: "
                         f"{over:.1%} and {dropped:.1%}, {verdict(over <= limit and dropped <= limit)}")
        if cell.rows >= 100_000 and cell.throttle == 1:
            lines.append(f"- renderer memory ≤ 200 MB, {where}: {size['rendererRssMB']:.0f} MB, "
                         f"{verdict(size['rendererRssMB'] <= 200)}")
            lines.append(f"- the jump drawn within 1 s, {where}: {size['jumpMs']:,.0f} ms, {verdict(size['jumpMs'] <= 1000)}")
    return lines


def main() -> int:
    args = parse_args()
    # The browser tests' server fixture, pointed at the page measured.
    os.environ["SCROLL_PLAYGROUND_PUBLIC"] = str(Path(args.public).resolve())
    os.environ["SCROLL_PLAYGROUND_BIN"] = str(Path(args.binary).resolve())
    sys.path.insert(0, str(REPO / "Tests" / "Browser"))
    from conftest import ServerProcess  # noqa: E402
    from playwright.sync_api import sync_playwright  # noqa: E402

    cells = sorted(
        Cell(throttle, rows, window, physics)
        for throttle in numbers(args.throttle, float) for rows in numbers(args.rows) for window in numbers(args.window_size)
        for physics in [name.strip() for name in args.physics.split(",") if name.strip()]
    )
    # A session holds the longest feed measured (the default cap is 10,000 items); the jump's list goes in parts.
    server = ServerProcess({"load-latency-ms": 20, "max-session-items": max(numbers(args.rows)) + 1_000})
    table: dict[Cell, tuple[dict, list[dict]]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, headless=True, args=["--no-sandbox"])
            for cell in cells:
                table[cell] = measure_cell(browser, server.url, cell, args.runs)
                print(frames_row(cell, *table[cell]), file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.stop()
    print(f"bench-page: {args.public}, {WIDTH} × {HEIGHT} touch, a fling of {FLING_STEP_PX / FLING_STEP_S:,.0f} px/s, "
          f"median of {args.runs} runs; load average at the end {os.getloadavg()[0]:.2f}\n")
    print("| physics | rows | CPU throttle | frames | interval p95 / p99 / max | over 25 ms | dropped (Chrome) "
          "| scroll ms / frame | rendering ms / frame |")
    print("|---|---|---|---|---|---|---|---|---|")
    for cell in cells:
        print(frames_row(cell, *table[cell]))
    print()
    print("\n".join(goals(table)))
    print("\n| physics | rows | CPU throttle | elements | DOM nodes | layout objects | JS heap | renderer RSS | jump drawn |"
          "\n|---|---|---|---|---|---|---|---|---|")
    for cell in cells:
        if cell.throttle == cells[0].throttle:
            print(size_row(cell, table[cell][0]))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {f"{c.physics}/{c.rows}/{c.window}/{c.throttle:g}": {"size": size, "runs": runs} for c, (size, runs) in table.items()},
            indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
