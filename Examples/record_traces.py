#!/usr/bin/env python3
"""Records the pitfall traces in Examples/traces/ through the real server.

Each gesture drives a scripted page over the WebSocket protocol: the script keeps the items the server
sends, lays them out (content height = sum of item heights), and reports geometry frame by frame the way
the browser page does, including the pull simulation's negative offsets and the release. The server runs
with --log-dir, and its trace of the session is copied here.

Usage (after `swift build`):  .venv/bin/python Examples/record_traces.py [NAME ...]  (default: all)
Needs the `websockets` package (in Tests/Browser/requirements.txt).
"""
import asyncio
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import websockets

ROOT = pathlib.Path(__file__).resolve().parent.parent
SERVER = ROOT / ".build" / "debug" / "scroll-playground"
OUT = ROOT / "Examples" / "traces"
FRAME = 1 / 60
VIEWPORT = 700.0


class Page:
    """A scripted page: the items it was sent, their layout, and the geometry it reports."""

    def __init__(self, ws, width=390.0, viewport=VIEWPORT, inset_top=0.0):
        self.ws = ws
        self.items = []
        self.seq = 0
        self.offset_x = 0.0
        self.offset_y = 0.0
        self.width = width
        self.viewport = viewport
        self.inset_top = inset_top
        self.extra_height = 0.0
        self.zoom_fraction = 0.0
        # Like the browser page: report the anchor (first visible item) and the rendered rev, measured
        # just before and just after a prepend or a trim at the top (docs/protocol.md, "Anchoring").
        self.anchors = False
        self.rev = 0
        self.pending_jump = None
        self.errors = []

    @property
    def content_height(self):
        heights = sum(item.get("height", 72) for item in self.items)
        return heights + self.extra_height + self.zoom_fraction if self.items else 0.0

    async def hello(self, preset, **config):
        await self.ws.send(json.dumps({"type": "hello", "version": 1, "preset": preset, "config": config}))
        await self.pump(0.2)

    async def pump(self, seconds):
        """Takes in what the server sent for `seconds`, applying items as a page would."""
        deadline = asyncio.get_running_loop().time() + seconds
        while True:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                return
            try:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), remaining))
            except asyncio.TimeoutError:
                return
            if message["type"] == "items":
                anchored = message["op"] == "prepend" or (message["op"] == "trim" and message.get("edge") == "top")
                if anchored and self.anchors:
                    await self.report_now()
                if message["op"] == "replace":
                    self.items = message["items"]
                elif message["op"] == "append":
                    self.items += message["items"]
                elif message["op"] == "trim":
                    count = message["count"]
                    if message["edge"] == "top":
                        # The rows above the view go; the view keeps its place.
                        self.offset_y -= sum(item.get("height", 72) for item in self.items[:count])
                        self.items = self.items[count:]
                    else:
                        self.items = self.items[:len(self.items) - count]
                else:
                    # A prepend keeps what the user looks at where it was.
                    self.items = message["items"] + self.items
                    if self.offset_y > 0 or message.get("older"):
                        self.offset_y += sum(item.get("height", 72) for item in message["items"])
                self.rev = message["rev"]
                if self.pending_jump and self.place(*self.pending_jump):
                    self.pending_jump = None
                if anchored and self.anchors:
                    await self.report_now()
            elif message["type"] == "command" and message["name"] == "scrollToTop":
                self.offset_y = 0.0
            elif message["type"] == "command" and message["name"] == "scrollToBottom":
                self.offset_y = self.max_offset()
            elif message["type"] == "command" and message["name"] == "scrollToItem":
                self.pending_jump = (message["id"], message["anchor"])
            elif message["type"] == "error":
                self.errors.append(message)

    def place(self, item_id, anchor):
        """The page's scrollToItem: the item at its anchor, from the rows' heights."""
        top = 0.0
        for item in self.items:
            height = item.get("height", 72)
            if item["id"] == item_id:
                target = {"top": top, "center": top + height / 2 - self.viewport / 2,
                          "bottom": top + height - self.viewport}[anchor]
                self.offset_y = min(max(0.0, target), self.max_offset())
                return True
            top += height
        return False

    def anchor(self):
        top = 0.0
        for item in self.items:
            height = item.get("height", 72)
            if top + height > self.offset_y + 0.5:
                return {"id": item["id"], "offset": round(top - self.offset_y, 1)}
            top += height
        return None

    def geometry(self, phase):
        self.seq += 1
        message = {
            "type": "geometry", "seq": self.seq, "t": round(self.seq * 16.667, 3),
            "contentOffset": {"x": self.offset_x, "y": self.offset_y},
            "contentSize": {"width": self.width, "height": self.content_height},
            "containerSize": {"width": self.width, "height": self.viewport},
            "contentInsets": {"top": self.inset_top, "leading": 0, "bottom": 0, "trailing": 0},
            "phase": phase,
        }
        if self.anchors:
            message["rev"] = self.rev
            anchor = self.anchor()
            if anchor:
                message["anchor"] = anchor
        return message

    async def report_now(self, phase="decelerating"):
        await self.ws.send(json.dumps(self.geometry(phase)))

    async def frame(self, phase="idle"):
        await self.ws.send(json.dumps(self.geometry(phase)))
        await self.pump(FRAME)

    def max_offset(self):
        return max(0.0, self.content_height - self.viewport)

    async def scroll_to(self, target, frames, phase="decelerating", clamp=True):
        start = self.offset_y
        for step in range(1, frames + 1):
            progress = 1 - (1 - step / frames) ** 3  # ease-out, like momentum
            self.offset_y = start + (target - start) * progress
            if clamp:
                self.offset_y = min(self.offset_y, self.max_offset())
            await self.frame(phase)

    async def rest(self, frames, phase="idle"):
        for _ in range(frames):
            await self.frame(phase)

    async def pull(self, distance, frames=12, release=True):
        """Drags past the top with the page's rubber band (raw × 0.5), then releases and springs back."""
        for step in range(1, frames + 1):
            self.offset_y = -distance * step / frames
            await self.frame("interacting")
        if release:
            await self.frame("idle")
            await self.spring_back()

    async def spring_back(self):
        while self.offset_y < -0.5:
            self.offset_y *= 0.6
            await self.frame("animating")
        self.offset_y = 0.0
        await self.frame("idle")


async def fast_fling_to_bottom(page):
    await page.hello("refreshableLegacy", loadLatencyMs=300)
    await page.rest(3)
    await page.scroll_to(page.max_offset(), 14)
    await page.rest(50)


async def short_content(page):
    await page.hello("playground", initialCount=3, pageSize=2, maxItems=12, loadLatencyMs=120)
    await page.rest(90)


async def pull_released_below_threshold(page):
    await page.hello("refreshable", refreshLatencyMs=300)
    await page.rest(3)
    await page.pull(50)
    await page.rest(20)


async def pull_during_page_load(page):
    await page.hello("playground", loadLatencyMs=900, refreshLatencyMs=300)
    await page.rest(3)
    await page.scroll_to(page.max_offset(), 12)
    await page.scroll_to(0, 10, phase="interacting", clamp=False)
    await page.pull(90)
    await page.rest(60)


async def wheel_pull_on_desktop(page):
    await page.hello("playground", refreshLatencyMs=300)
    await page.rest(3)
    # Wheel notches of 40 px at the top, halved by the rubber band; the release is 150 ms without input.
    for _ in range(8):
        page.offset_y -= 20
        await page.frame("interacting")
        await page.rest(2, phase="interacting")
    await page.pump(0.15)
    await page.frame("idle")
    await page.spring_back()
    await page.rest(40)


async def fractional_pixels_from_zoom(page):
    await page.hello("customScrollView", loadLatencyMs=200)
    page.zoom_fraction = 0.4
    page.viewport = 699.7
    await page.rest(3)
    # The browser at 110 % zoom stops 0.4 px short of the exact end.
    await page.scroll_to(page.max_offset() - 0.4, 16, clamp=False)
    await page.rest(30)


async def horizontal_offset_while_scrolling(page):
    await page.hello("refreshOffsetObservable", refreshLatencyMs=300, refreshHoldMs=600)
    await page.rest(3)
    # A trackpad drifts sideways by a fraction of a pixel while the user pulls down.
    for step in range(1, 14):
        page.offset_y = -9.0 * step
        page.offset_x = 0.3 * (step % 3)
        await page.frame("interacting")
    await page.frame("idle")
    while page.offset_y < -0.5:
        page.offset_y *= 0.6
        await page.frame("animating")
    page.offset_y = 0.0
    page.offset_x = 0.3
    await page.rest(50)


async def refresh_while_load_in_flight(page):
    await page.hello("refreshable", loadLatencyMs=800, refreshLatencyMs=200)
    await page.rest(3)
    await page.scroll_to(page.max_offset(), 10)
    await page.rest(5)
    await page.ws.send(json.dumps({"type": "refresh"}))
    await page.rest(60)


async def failure_at_the_bottom(page):
    # A tall window and short pages: the end of the feed stays in view, so the user rests at the bottom
    # (a finger on the screen: a geometry every frame) while half the loads fail.
    page.viewport = 2000.0
    await page.hello(
        "playground", initialCount=3, pageSize=2, maxItems=15, loadLatencyMs=100, failureRate=0.5,
        retryBaseMs=200, retryMaxMs=1000, seed=4)
    frames = 0
    while len(page.items) < 15 and frames < 900:
        await page.frame()
        frames += 1
    await page.rest(30)


async def prepend_during_a_fling(page):
    # A chat opened at its newest messages; a fling up (a velocity that decays, each frame relative to the
    # last, as a browser's momentum after a prepend) reaches the top while older messages land.
    page.anchors = True
    await page.hello("chat", newMessageEveryMs=0, loadLatencyMs=300)
    await page.rest(3)
    velocity = 140.0
    for _ in range(60):
        page.offset_y = max(0.0, page.offset_y - velocity)
        velocity = max(4.0, velocity * 0.95)
        await page.frame("decelerating")
    await page.rest(10)


async def jump_to_an_item(page):
    # A long feed in a window of 100: a jump to item 1500 loads its window and centres it; the bottom rule
    # that the old position would fire is held back until the page reports the jump's window. A jump to an
    # item past the feed's end is refused and changes nothing. Then a scroll up loads back what lies above.
    page.anchors = True
    await page.hello("playground", maxItems=2000, windowSize=100, loadLatencyMs=200)
    await page.scroll_to(page.max_offset(), 20)
    await page.ws.send(json.dumps({"type": "jump", "id": "item-1500", "anchor": "center"}))
    await page.rest(30, phase="decelerating")
    await page.ws.send(json.dumps({"type": "jump", "id": "item-2001"}))
    await page.rest(5)
    await page.scroll_to(0, 30)
    await page.rest(30)


async def bounded_window(page):
    # A window of 40 items over a feed of 200: down to the end, each page trims the top; back to the top,
    # each trimmed page loads back and trims the bottom, with the view kept (anchorKept).
    page.anchors = True
    await page.hello("playground", windowSize=40, maxItems=200, loadLatencyMs=100)
    for _ in range(14):
        await page.scroll_to(page.max_offset(), 12)
        await page.rest(12)
    for _ in range(14):
        await page.scroll_to(0, 12)
        await page.rest(12)


GESTURES = {
    "fast-fling-to-bottom": fast_fling_to_bottom,
    "short-content": short_content,
    "pull-released-below-threshold": pull_released_below_threshold,
    "pull-during-page-load": pull_during_page_load,
    "wheel-pull-on-desktop": wheel_pull_on_desktop,
    "fractional-pixels-from-zoom": fractional_pixels_from_zoom,
    "horizontal-offset-while-scrolling": horizontal_offset_while_scrolling,
    "refresh-while-load-in-flight": refresh_while_load_in_flight,
    "failure-at-the-bottom": failure_at_the_bottom,
    "prepend-during-a-fling": prepend_during_a_fling,
    "jump-to-an-item": jump_to_an_item,
    "bounded-window": bounded_window,
}


async def record(name, gesture):
    with tempfile.TemporaryDirectory() as logs:
        server = subprocess.Popen(
            [str(SERVER), "--port", "0", "--public", str(ROOT / "Public"), "--log-dir", logs, "--log-format", "json"],
            stdout=subprocess.PIPE, text=True)
        try:
            port = int(re.search(r":(\d+)$", server.stdout.readline().strip()).group(1))
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws", subprotocols=["scroll-playground.v1"]) as ws:
                await gesture(Page(ws))
        finally:
            server.terminate()
            server.wait(timeout=10)
        shutil.copy(pathlib.Path(logs) / "traces" / "s1.jsonl", OUT / f"{name}.jsonl")


async def main():
    OUT.mkdir(parents=True, exist_ok=True)
    names = sys.argv[1:] or list(GESTURES)
    for name in names:
        await record(name, GESTURES[name])
        print(f"recorded {name}")


if __name__ == "__main__":
    asyncio.run(main())
