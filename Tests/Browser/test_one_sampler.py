"""One sampler: the recorder (Public/recorder.js) on someone else's scroller and the playground's page under
`physics` `browser` (Public/js/geometry.js, built on the recorder's `Sampler`) sample the same input the same way.

Both run under Playwright's clock, paused and advanced one 16 ms frame at a time, so every sample's time is
exact: the same script of wheel, mouse, touch and key input (built as DOM events, so nothing scrolls natively)
must give the same geometry in both, frame for frame — the time, the offset (the simulated pull at the top) and
the phase. The recorder is served alone, from an origin with no other file of ours, as an app that pastes it in
would have it.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page

from conftest import PUBLIC

FRAME_MS = 16
# A frame's time falls this long after the input before it, in both pages (the release's frame depends on it).
INPUT_BEFORE_FRAME_MS = 5
APP_ORIGIN = "http://recorder-app.test"
APP = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>An app of someone else's</title>
<style>body { margin: 0 } #list { height: 400px; width: 300px; overflow: auto; margin: 0; padding: 0 }
li { height: 40px; list-style: none }</style></head>
<body><ul id="list" tabindex="0"></ul>
<script type="module">
import { record } from "./recorder.js";
const list = document.getElementById("list");
for (let i = 0; i < 40; i++) {
  const row = document.createElement("li");
  row.dataset.id = `row-${i}`;
  row.textContent = `Row ${i + 1}`;
  list.append(row);
}
window.recording = record(list, { name: "someone else's app" });
</script></body></html>
"""
# The page captures the pointer on a press; a pointer made by script is no pointer the browser knows to capture.
NO_CAPTURE = """
Element.prototype.setPointerCapture = function () {};
Element.prototype.hasPointerCapture = function () { return false; };
Element.prototype.releasePointerCapture = function () {};
"""
# Resolves after two posted-message hops: the recorder measures in a task posted from the frame's callback.
AFTER_POSTED_TASKS = """new Promise((resolve) => {
  const first = new MessageChannel();
  first.port1.onmessage = () => {
    const second = new MessageChannel();
    second.port1.onmessage = () => resolve();
    second.port2.postMessage(0);
  };
  first.port2.postMessage(0);
})"""


def frames(page: Page, count: int) -> None:
    for _ in range(count):
        page.clock.run_for(FRAME_MS)
        page.evaluate(AFTER_POSTED_TASKS)


def align_to_frames(page: Page) -> float:
    """Moves the clock so input comes INPUT_BEFORE_FRAME_MS before the next frame; returns the time then."""
    page.evaluate("window.lastFrameAt = null; requestAnimationFrame((t) => { window.lastFrameAt = t; })")
    page.clock.run_for(FRAME_MS)
    last, now = page.evaluate("[window.lastFrameAt, performance.now()]")
    page.clock.run_for(int((FRAME_MS - INPUT_BEFORE_FRAME_MS - (now - last)) % FRAME_MS))
    page.evaluate(AFTER_POSTED_TASKS)
    return page.evaluate("performance.now()")


def play_script(page: Page, scroller: str) -> float:
    """The same input on either page, at its scroller's top; returns the time it started (after alignment)."""
    target = f"document.querySelector({json.dumps(scroller)})"
    x, y = page.evaluate(f"(() => {{ const box = {target}.getBoundingClientRect(); return [box.left + 50, box.top + 60]; }})()")

    def dispatch(make: str) -> None:
        page.evaluate(f"(() => {{ const el = {target}; el.dispatchEvent({make}); }})()")

    def wheel(delta_y: float, **extra: object) -> None:
        options = {"deltaY": delta_y, "cancelable": True, "bubbles": True, **extra}
        dispatch(f"new WheelEvent('wheel', {json.dumps(options)})")

    def pointer(kind: str, at_y: float, pointer_id: int = 7, button: int = 0) -> None:
        options = {"pointerId": pointer_id, "pointerType": "mouse", "button": button, "clientX": x, "clientY": at_y,
                   "bubbles": True, "cancelable": True}
        dispatch(f"new PointerEvent('{kind}', {json.dumps(options)})")

    def touch(kind: str, at_y: float, fingers: tuple[int, ...] = (3,)) -> None:
        touches = ", ".join(f"new Touch({{identifier: {finger}, target: el, clientX: {x}, clientY: {at_y}}})" for finger in fingers)
        dispatch(f"new TouchEvent('{kind}', {{touches: [{touches}], changedTouches: [{touches}], cancelable: true, bubbles: true}})")

    def key(kind: str, name: str) -> None:
        dispatch(f"new KeyboardEvent('{kind}', {{key: {json.dumps(name)}, bubbles: true}})")

    frames(page, 10)
    start = align_to_frames(page)
    # Wheel input upward at the top pulls (raw × 0.5); 150 ms without it is the release, then the spring.
    for _ in range(3):
        wheel(-40)
        frames(page, 2)
    frames(page, 30)
    # A pinch and a wheel event with no travel are no input.
    wheel(-40, ctrlKey=True)
    wheel(0)
    frames(page, 5)
    # A mouse drag: 1 and 2 px are under the slop; 4 px in all crosses it; another pointer is not this drag.
    pointer("pointerdown", y)
    frames(page, 2)
    for moved in (1, 2, 4):
        pointer("pointermove", y + moved)
        frames(page, 1)
    pointer("pointermove", y + 4, pointer_id=9)
    for step in range(1, 4):
        pointer("pointermove", y + 4 + 20 * step)
        frames(page, 1)
    pointer("pointermove", y + 40)
    frames(page, 1)
    pointer("pointerup", y + 40, pointer_id=9)
    frames(page, 2)
    pointer("pointerup", y + 40)
    frames(page, 30)
    # The secondary button never drags.
    pointer("pointerdown", y, button=2)
    pointer("pointermove", y + 30, button=2)
    frames(page, 3)
    pointer("pointerup", y + 30, button=2)
    # A finger pulls; a second finger is not followed; lifting the first is the release.
    touch("touchstart", y)
    frames(page, 2)
    for step in range(1, 4):
        touch("touchmove", y + 15 * step)
        frames(page, 1)
    touch("touchstart", y + 45, fingers=(3, 4))
    touch("touchend", y + 45, fingers=(3,))
    frames(page, 2)
    touch("touchend", y + 45, fingers=())
    frames(page, 30)
    # A scrolling key held is `interacting`; other keys are nothing.
    key("keydown", "ArrowDown")
    frames(page, 3)
    key("keydown", "a")
    key("keyup", "ArrowDown")
    frames(page, 15)
    # A finger caught mid-spring holds the pull where it is.
    for _ in range(2):
        wheel(-30)
        frames(page, 1)
    frames(page, 12)
    touch("touchstart", y)
    frames(page, 3)
    touch("touchend", y, fingers=())
    frames(page, 40)
    return start


def samples(messages: list[dict], start: float) -> list[tuple[float, float, float, str]]:
    """Each geometry from `start` on as (t since start, x, y, phase)."""
    return [
        (round(m["t"] - start, 2), m["contentOffset"]["x"], m["contentOffset"]["y"], m["phase"])
        for m in messages if m["t"] >= start
    ]


def record_app(browser) -> list[tuple[float, float, float, str]]:
    context = browser.new_context(viewport={"width": 1440, "height": 900}, has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        served: list[str] = []

        def serve(route) -> None:
            path = route.request.url.removeprefix(APP_ORIGIN)
            served.append(path)
            if path == "/recorder.js":
                route.fulfill(body=(PUBLIC / "recorder.js").read_text(), content_type="text/javascript")
            elif path == "/":
                route.fulfill(body=APP, content_type="text/html")
            else:
                route.fulfill(status=404, body="")

        page.route(f"{APP_ORIGIN}/**", serve)
        page.clock.install(time=0)
        page.clock.pause_at(1000)
        page.goto(f"{APP_ORIGIN}/")
        for _ in range(100):
            if page.evaluate("window.recording !== undefined"):
                break
            page.wait_for_timeout(20)
        assert page.evaluate("window.recording !== undefined"), f"the recorder did not start: {errors}"
        start = play_script(page, "#list")
        trace = [json.loads(line) for line in page.evaluate("window.recording.trace()").splitlines()]
        assert errors == []
        # The recorder needs no other file (and no server): what an app that pastes it in has.
        assert served == ["/", "/recorder.js"]
        return samples([line["message"] for line in trace if line["kind"] == "input" and line["message"]["type"] == "geometry"], start)
    finally:
        context.close()


def sample_page(browser, server) -> list[tuple[float, float, float, str]]:
    context = browser.new_context(viewport={"width": 1440, "height": 900}, has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        sent: list[dict] = []

        def on_socket(socket) -> None:
            def on_frame(payload) -> None:
                message = json.loads(payload)
                if message.get("type") == "geometry":
                    sent.append(message)
            socket.on("framesent", on_frame)

        page.on("websocket", on_socket)
        page.add_init_script(NO_CAPTURE)
        page.clock.install(time=0)
        page.clock.pause_at(1000)
        page.goto(server.url + "?physics=browser")
        # Bounded: the feed's first items are in and the geometry has stopped changing (the network runs on real time).
        quiet = 0
        for _ in range(300):
            before = len(sent)
            frames(page, 2)
            page.wait_for_timeout(10)
            ready = page.evaluate("window.playground?.status === 'open' && window.playground.rev !== null")
            quiet = quiet + 1 if ready and len(sent) == before and sent else 0
            if quiet >= 20:
                break
        assert quiet >= 20, f"the page did not settle: {len(sent)} geometry messages, {errors}"
        assert page.evaluate("document.getElementById('feed').scrollTop") == 0
        start = play_script(page, "#feed")
        assert errors == []
        return samples(sent, start)
    finally:
        context.close()


def test_the_recorder_stands_alone_and_the_page_samples_input_as_it_does(start_server, browser):
    recorded = record_app(browser)
    # The rules, in the recording: the wheel pulls 0.5 × 40 px a notch, and holds the pull until the release.
    assert [y for _, _, y, _ in recorded[:3]] == [-20, -40, -60]
    assert {phase for *_, phase in recorded[:3]} == {"interacting"}
    release = next(i for i, (*_, phase) in enumerate(recorded) if phase == "idle")
    assert recorded[release][2] == -60 and recorded[release + 1][2] > -60, "the release frame, then the spring"
    # The drag's slop: the first pull is the 2 px of the move that crossed 3 px in all (× 0.5).
    assert -1 in [y for _, _, y, phase in recorded if phase == "interacting"]

    sampled = sample_page(browser, start_server())
    assert sampled == recorded


def test_recorder_js_imports_nothing():
    """It is pasted into other people's apps: one module, no imports, and it exports the sampler the page uses."""
    source = (PUBLIC / "recorder.js").read_text()
    assert not re.search(r"^\s*import\b", source, re.MULTILINE)
    assert not re.search(r"\bimport\s*\(", source)
    page_reporter = (PUBLIC / "js" / "geometry.js").read_text()
    assert re.search(r'import \{[^}]*\bSampler\b[^}]*\} from "\.\./recorder\.js"', page_reporter)
    # The page's reporter keeps no frame loop of its own: the sampler's is the only one.
    assert "requestAnimationFrame" not in page_reporter
