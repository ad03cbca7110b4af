// Scroll Playground recorder: attach it to any scroll container of your own web app and it samples the
// container's geometry in the playground's terms (SwiftUI's ScrollGeometry and ScrollPhase), keeping a
// trace (format 1, docs/traces.md) that `scroll-playground replay` runs under every preset, and, given a
// `server`, streaming the same geometry to a running playground as a `record` session.
//
//   import { record } from "./recorder.js";           // a copy of http://127.0.0.1:8080/recorder.js
//   const recording = record(document.querySelector("#list"), { name: "my feed" });
//   …scroll, pull…;  recording.stop();  recording.download();
//
// One file, no dependencies, so it can be copied into any app. It is also the playground's one sampler:
// the frame loop and the input rules (`Sampler`: phase, drag slop, the pull and its spring) live here, and
// the playground's own page (js/geometry.js) is built on them, so a recording of your app and a session in
// the playground measure, time and simulate the pull the same way.
//
// It never changes the page: every listener is passive and none calls preventDefault; it scrolls
// nothing and captures no pointer. Browsers never report a negative offset, so at the top a touch drag
// or mouse drag downward, or upward wheel input, grows a simulated pull (raw × 0.5, capped at
// 3 × pullThreshold), reported as a negative contentOffset with phase `interacting`; lifting the finger
// or 150 ms without wheel input is the release, and the pull springs back over 240 ms.

/** The trace format this file writes. */
export const TRACE_FORMAT = 1;
/** The WebSocket subprotocol of the playground server. */
export const SUBPROTOCOL = "scroll-playground.v1";

/** The sampling rules, shared with the playground's page. */
export const RULES = Object.freeze({
  resistance: 0.5, // simulated pull per pixel of finger, pointer or wheel travel
  pullCapFactor: 3, // the pull stops at this many pull thresholds
  wheelReleaseMs: 150, // wheel input this recent is still `interacting`; then the release
  keyReleaseMs: 150, // the same for scrolling keys
  scrollQuietMs: 120, // scroll events this recent (and no input) are `decelerating`
  springMs: 240, // a released pull springs back to 0 in this long
  dragSlopPx: 3, // a pointer moves this far before it drags
  defaultPullThreshold: 68,
});

/** Keys that scroll a focused scroller. */
export const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End", " "]);

/** Values as the playground sends them: to 1/100 px. */
export const round = (value) => Math.round(value * 100) / 100;

/**
 * The scroll phase from recent input (times in ms on one clock, e.g. performance.now()):
 * `interacting` while a finger or pointer drags, wheel or key input is recent or a key is held;
 * `animating` during a programmatic scroll; `decelerating` while scroll events continue; else `idle`.
 */
export function phaseAt({ dragging, lastWheelAt, keyHeld, lastKeyAt, animating, lastScrollAt }, now) {
  if (dragging) return "interacting";
  if (now - lastWheelAt < RULES.wheelReleaseMs) return "interacting";
  if (keyHeld || now - lastKeyAt < RULES.keyReleaseMs) return "interacting";
  if (animating) return "animating";
  if (now - lastScrollAt < RULES.scrollQuietMs) return "decelerating";
  return "idle";
}

/** Whether this frame is the release of a pull: the phase just left `interacting` with a pull held. */
export function isRelease(previousPhase, phase, pull, springing) {
  return previousPhase === "interacting" && phase !== "interacting" && pull > 0 && !springing;
}

/** The pull after a raw finger/pointer/wheel travel of `rawDelta` px (positive pulls further). */
export function grownPull(pull, rawDelta, pullThreshold) {
  const cap = RULES.pullCapFactor * Math.max(1, Number(pullThreshold) || RULES.defaultPullThreshold);
  return Math.min(cap, Math.max(0, pull + rawDelta * RULES.resistance));
}

/** A released pull of `from` px, `elapsed` ms into its spring back (0 once it is over). */
export function springPull(from, elapsed, reducedMotion = false) {
  const t = reducedMotion ? 1 : Math.min(1, elapsed / RULES.springMs);
  return t >= 1 ? 0 : from * Math.pow(1 - t, 3);
}

/** A wheel event's travel in px (line and page modes converted). */
export function wheelPixels(event, pageHeight) {
  const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? pageHeight : 1;
  return { dx: event.deltaX * unit, dy: event.deltaY * unit };
}

/**
 * One measurement in the protocol's terms (the `geometry` message without `type`, `seq` and `t`).
 * `scrollX`/`scrollY` are the scroller's scroll position, `inset` the leading content inset (a sticky
 * header), `pull` the simulated pull: `contentOffset` along the axis is `scroll − inset − pull`.
 */
export function geometryOf({ axis, scrollX, scrollY, contentWidth, contentHeight, containerWidth, containerHeight, inset = 0, insets = null, pull = 0, phase }) {
  const horizontal = axis === "horizontal";
  const edges = insets ?? (horizontal ? { top: 0, leading: inset, bottom: 0, trailing: 0 } : { top: inset, leading: 0, bottom: 0, trailing: 0 });
  const lead = horizontal ? edges.leading : edges.top;
  return {
    contentOffset: {
      x: round(horizontal ? scrollX - lead - pull : scrollX),
      y: round(horizontal ? scrollY : scrollY - lead - pull),
    },
    contentSize: { width: round(contentWidth), height: round(contentHeight) },
    containerSize: { width: containerWidth, height: containerHeight },
    contentInsets: { top: edges.top, leading: edges.leading, bottom: edges.bottom, trailing: edges.trailing },
    phase,
  };
}

/** Whether two measurements are the same (what decides whether a frame sends one). */
export function sameGeometry(a, b) {
  return a !== null && b !== null && a.phase === b.phase
    && a.contentOffset.x === b.contentOffset.x && a.contentOffset.y === b.contentOffset.y
    && a.contentSize.width === b.contentSize.width && a.contentSize.height === b.contentSize.height
    && a.containerSize.width === b.containerSize.width && a.containerSize.height === b.containerSize.height
    && a.contentInsets.top === b.contentInsets.top && a.contentInsets.leading === b.contentInsets.leading
    && a.contentInsets.bottom === b.contentInsets.bottom && a.contentInsets.trailing === b.contentInsets.trailing;
}

const prefersReducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Whether a pointerdown may start a drag: a mouse's or pen's main button (a finger is followed through touch events). */
export function startsDrag(event) {
  return event.pointerType !== "touch" && event.button === 0;
}

/** A pointer's or touch's position along the axis; `scale` converts screen pixels to the scroller's CSS pixels. */
export function axisPoint(point, axis, scale = 1) {
  return (axis === "horizontal" ? point.clientX : point.clientY) / scale;
}

/**
 * The sampling loop and the input rules of one scroller, shared by a `Recording` and the playground's page
 * (js/geometry.js): the frame scheduling, the input that sets the phase (drag, touch, wheel, keys, scroll),
 * the drag slop, and the simulated pull at the start with its release and spring. Its owner installs the
 * listeners (the recorder's are passive; the page's may prevent the browser's scrolling) and hands each
 * event here; each frame it asks for the phase, measures, and moves the spring on.
 *
 * An idle scroller costs nothing: a frame runs only after `wake()`, and again while `frame` returns true.
 */
export class Sampler {
  /**
   * @param {object} options
   * @param {(now: number) => boolean} options.frame one measurement at the frame's time; whether another frame is needed.
   * @param {() => boolean} options.atStart whether the scroller is at its start (where a drag pulls).
   * @param {boolean} [options.afterFrame] measure in the task right after the animation frame (when the app's own
   *   layout is done) rather than in the frame's callback.
   */
  constructor({ frame, atStart, afterFrame = false }) {
    this.frame = frame;
    this.atStart = atStart;
    this.frameRequest = null;
    this.stopped = false;
    this.afterFrame = null;
    if (afterFrame) {
      this.afterFrame = new MessageChannel();
      this.afterFrame.port1.onmessage = (event) => this.run(event.data);
    }
    this.pull = 0;
    this.spring = null; // {from, start} while a released pull springs back
    this.previousPhase = "idle";
    this.lastWheelAt = -Infinity;
    this.lastKeyAt = -Infinity;
    this.keyHeld = false;
    this.lastScrollAt = -Infinity;
    this.touch = null; // {id, last}
    this.drag = null; // mouse/pen drag: {id, last, total, moved}
  }

  // ---------- frames ----------

  /** Measures at the next animation frame (and keeps measuring while `frame` asks for more). */
  wake() {
    if (this.frameRequest !== null || this.stopped) return;
    this.frameRequest = requestAnimationFrame((now) => {
      // The frame's time is the animation frame's either way.
      if (this.afterFrame) this.afterFrame.port2.postMessage(now);
      else this.run(now);
    });
  }

  run(now) {
    this.frameRequest = null;
    if (this.stopped) return;
    // A frame that throws asks for no next one: the next input or size change wakes the loop again.
    let again = false;
    try {
      again = this.frame(now);
    } finally {
      if (again) this.wake();
    }
  }

  /** Ends the loop for good. */
  stop() {
    this.stopped = true;
    if (this.frameRequest !== null) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = null;
    this.afterFrame?.port1.close();
  }

  // ---------- the phase, the release and the spring, once a frame ----------

  /**
   * The phase now; `animating` while a programmatic scroll runs. `dragsAndWheel: false` leaves drags, touches and
   * the wheel out (the page's iOS model has their phase).
   */
  phaseAt(now, { animating = false, dragsAndWheel = true } = {}) {
    return phaseAt({
      dragging: dragsAndWheel && Boolean(this.touch || (this.drag && this.drag.moved)),
      lastWheelAt: dragsAndWheel ? this.lastWheelAt : -Infinity, keyHeld: this.keyHeld,
      lastKeyAt: this.lastKeyAt, animating, lastScrollAt: this.lastScrollAt,
    }, now);
  }

  /**
   * This frame's phase: leaving `interacting` with a pull held is the release (unless `releases` is false). The
   * frame reports the pull as it was, with the new phase; the spring starts the next frame.
   */
  enterPhase(phase, releases = true) {
    if (releases && isRelease(this.previousPhase, phase, this.pull, this.spring !== null)) this.spring = { from: this.pull, start: null };
    this.previousPhase = phase;
  }

  /** Moves a released pull along its spring at the end of a frame; returns whether the pull was set. */
  advanceSpring(now) {
    if (!this.spring) return false;
    if (this.spring.start === null) {
      this.spring.start = now;
      return false;
    }
    this.pull = springPull(this.spring.from, now - this.spring.start, prefersReducedMotion());
    if (this.pull === 0) this.spring = null;
    return true;
  }

  /** Whether the input still moves things after a frame in `phase` (then another frame is needed). */
  moving(phase) {
    return phase !== "idle" || this.spring !== null || this.pull > 0;
  }

  // ---------- the pull ----------

  /** Whether travel of `delta` px toward the start (positive = down / right) moves the pull rather than the scroller. */
  pulls(delta) {
    return this.pull > 0 || (this.atStart() && delta > 0);
  }

  /** Grows (delta > 0) or shrinks the pull by a raw finger, pointer or wheel distance. */
  addPull(rawDelta, pullThreshold) {
    this.spring = null;
    this.pull = grownPull(this.pull, rawDelta, pullThreshold);
    this.wake();
  }

  // ---------- input ----------

  /** The scroller scrolled (recent scroll events are `decelerating`). */
  scrolled() {
    this.lastScrollAt = performance.now();
    this.wake();
  }

  /** A key went down (`held`) or up; returns whether it scrolls (then it is recent input). */
  key(event, held) {
    if (!SCROLL_KEYS.has(event.key)) return false;
    this.keyHeld = held;
    this.lastKeyAt = performance.now();
    this.wake();
    return true;
  }

  /**
   * A wheel event: its travel along the axis, recent input unless it is none or a pinch (then null).
   * `acrossStrip`: a vertical wheel on a horizontal strip, whose travel is taken along the strip.
   */
  wheel(event, axis, pageHeight) {
    if (event.ctrlKey) return null; // pinch-zoom, not a scroll
    const { dx, dy } = wheelPixels(event, pageHeight);
    const acrossStrip = axis === "horizontal" && Math.abs(dy) > Math.abs(dx);
    const delta = axis === "horizontal" ? (acrossStrip ? dy : dx) : dy;
    if (delta === 0) return null;
    this.lastWheelAt = performance.now();
    this.wake();
    return { delta, acrossStrip };
  }

  /** A pointer went down at `point` along the axis; call only when `startsDrag(event)`. */
  press(event, point) {
    this.drag = { id: event.pointerId, last: point, total: 0, moved: false };
  }

  /**
   * The pressed pointer moved to `point`: its travel since the last move once it has moved `RULES.dragSlopPx` in all
   * (`started` on the move that crossed it), else null (not yet, or another pointer).
   */
  pointerMove(event, point) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return null;
    const delta = point - drag.last;
    drag.last = point;
    drag.total += Math.abs(delta);
    let started = false;
    if (!drag.moved) {
      if (drag.total < RULES.dragSlopPx) return null;
      drag.moved = started = true;
    }
    return { delta, started };
  }

  /** A pointer went up or was cancelled; returns whether it was the pressed one. */
  pointerEnd(event) {
    if (!this.drag || event.pointerId !== this.drag.id) return false;
    this.drag = null;
    this.wake();
    return true;
  }

  /** A touch began; only a single finger is followed (returns whether it is). `pointOf` gives its place along the axis. */
  touchStart(event, pointOf) {
    if (event.touches.length !== 1) return false;
    const touch = event.touches[0];
    this.touch = { id: touch.identifier, last: pointOf(touch) };
    this.spring = null;
    this.wake();
    return true;
  }

  /** The followed finger moved: {point, delta} along the axis, or null (no finger followed, or another one). */
  touchMove(event, pointOf) {
    if (!this.touch) return null;
    const touch = Array.from(event.touches).find((candidate) => candidate.identifier === this.touch.id);
    if (!touch) return null;
    const point = pointOf(touch);
    const delta = point - this.touch.last;
    this.touch.last = point;
    return { point, delta };
  }

  /** A touch ended; returns whether the followed finger lifted. */
  touchEnd(event) {
    if (!this.touch) return false;
    const lifted = !Array.from(event.touches).some((touch) => touch.identifier === this.touch.id);
    if (lifted) this.touch = null;
    this.wake();
    return lifted;
  }
}

/** The WebSocket URL for a `server` option: `ws(s)://…/ws` as given, or derived from an http(s) origin. */
function socketURL(server) {
  const url = new URL(server, location.href);
  if (url.protocol === "http:" || url.protocol === "https:") {
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (url.pathname === "/" || url.pathname === "") url.pathname = "/ws";
  }
  return url.href;
}

/**
 * Starts recording a scroll container.
 *
 * @param {HTMLElement} element the element that scrolls (its scroll position is the offset, its client
 *   size the container, its scroll size the content).
 * @param {object} [options]
 * @param {string} [options.name] what to call the recording (the trace header's `recorder.name`).
 * @param {"vertical"|"horizontal"} [options.axis] the scroll axis (default vertical).
 * @param {{top?, leading?, bottom?, trailing?}} [options.insets] the content insets, e.g. a sticky
 *   header's height as `top`: the offset at rest is then −top, as in SwiftUI.
 * @param {string} [options.server] a playground server (`http://127.0.0.1:8080` or its `ws://…/ws`) to
 *   stream to as a `record` session; the page's origin must be the server's or allowed with
 *   `--allow-origin`.
 * @param {string} [options.preset] the preset the server runs on the stream (default `playground`).
 * @param {object} [options.config] more session settings (camelCase, e.g. `{pullThreshold: 80}`).
 * @param {boolean} [options.anchor] report the first visible child with an `id` or `data-id` (default true).
 * @returns {Recording}
 */
export function record(element, options = {}) {
  return new Recording(element, options);
}

/** A recording in progress; `stop()` ends it and returns the trace. */
export class Recording {
  constructor(element, { name, axis = "vertical", insets = {}, server = null, preset = "playground", config = {}, anchor = true } = {}) {
    if (!(element instanceof Element)) throw new TypeError("record(element): element must be a DOM element");
    this.element = element;
    this.name = String(name ?? (document.title || "recording"));
    this.axis = axis === "horizontal" ? "horizontal" : "vertical";
    this.insets = { top: +insets.top || 0, leading: +insets.leading || 0, bottom: +insets.bottom || 0, trailing: +insets.trailing || 0 };
    this.config = { ...config, axis: this.axis };
    this.preset = String(preset);
    this.reportsAnchor = anchor !== false;
    // Offline there is no server to ask: refreshOffsetObservable's 100 is the one preset default that differs.
    this.pullThreshold = Number(this.config.pullThreshold) || (this.preset === "refreshOffsetObservable" ? 100 : RULES.defaultPullThreshold);
    this.lines = [];
    this.seq = 0;
    this.last = null;
    this.stopped = false;
    // The frame loop and the input, as the playground's page keeps them. The measuring runs in the task right after
    // each animation frame, when the app's own layout is done, so reading the scroller's sizes forces no layout early
    // (a rAF callback that reads after the app appended rows would); the frame's time is the animation frame's.
    this.sampler = new Sampler({ frame: (now) => this.measureFrame(now), atStart: () => this.atStart(), afterFrame: true });
    // Cost: main-thread time of each frame's work (ms).
    this.costs = [];
    // Streaming.
    this.socket = null;
    this.session = null;
    this.ready = false;
    this.queue = [];
    this.decisions = []; // event records the server sent back (its preset's decisions, live)
    this.error = null;

    // A foreign app is measured as the browser scrolls it.
    const hello = { type: "hello", version: 1, preset: this.preset, config: { physics: "browser", ...this.config }, record: { page: location.href, name: this.name } };
    this.lines.push({
      kind: "header", format: TRACE_FORMAT, server: "recorder.js", session: "recorded", preset: this.preset, config: {},
      seed: 1, source: "synthetic", maxMessageBytes: 65536, recorder: { page: location.href, name: this.name },
      time: new Date().toISOString(),
    });
    this.lines.push({ kind: "input", t: this.traceTime(performance.now()), message: hello });
    if (server) this.connect(socketURL(server), hello);

    this.listeners = [];
    const on = (target, type, handler) => {
      target.addEventListener(type, handler, { passive: true });
      this.listeners.push([target, type, handler]);
    };
    on(element, "scroll", () => this.sampler.scrolled());
    on(element, "wheel", (event) => this.onWheel(event));
    on(element, "pointerdown", (event) => this.onPointerDown(event));
    on(window, "pointermove", (event) => this.onPointerMove(event));
    on(window, "pointerup", (event) => this.onPointerEnd(event));
    on(window, "pointercancel", (event) => this.onPointerEnd(event));
    on(element, "touchstart", (event) => this.onTouchStart(event));
    on(element, "touchmove", (event) => this.onTouchMove(event));
    on(element, "touchend", (event) => this.onTouchEnd(event));
    on(element, "touchcancel", (event) => this.onTouchEnd(event));
    on(element, "keydown", (event) => this.sampler.key(event, true));
    on(element, "keyup", (event) => this.sampler.key(event, false));
    // The content grows without a scroll event when the app appends items.
    this.resizeObserver = new ResizeObserver(() => this.wake());
    this.resizeObserver.observe(element);
    this.mutationObserver = new MutationObserver(() => this.wake());
    this.mutationObserver.observe(element, { childList: true, subtree: true });
    this.wake();
  }

  /** Ends the recording: listeners go, the stream closes (1000), and the trace is returned (JSON lines). */
  stop() {
    if (!this.stopped) {
      this.stopped = true;
      this.sampler.stop();
      for (const [target, type, handler] of this.listeners) target.removeEventListener(type, handler, { passive: true });
      this.resizeObserver.disconnect();
      this.mutationObserver.disconnect();
      this.lines.push({ kind: "closed", t: this.traceTime(performance.now()), code: 1000, resumable: false });
      if (this.socket) {
        const socket = this.socket;
        const close = () => socket.close(1000, "recording stopped");
        // Geometry still queued for the server goes first.
        if (socket.readyState === WebSocket.OPEN) close();
        else if (socket.readyState === WebSocket.CONNECTING) socket.addEventListener("open", close);
      }
    }
    return this.trace();
  }

  /** The trace so far (format 1 JSON lines). */
  trace() {
    return this.lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
  }

  /** Saves the trace as a file (`NAME.jsonl`). */
  download(filename = `${this.name.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "") || "recording"}.jsonl`) {
    const url = URL.createObjectURL(new Blob([this.trace()], { type: "application/x-ndjson" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /** Main-thread time of the recorder's frame work so far: {frames, meanMs, p95Ms, maxMs}. */
  cost() {
    const sorted = this.costs.slice().sort((a, b) => a - b);
    const sum = sorted.reduce((total, value) => total + value, 0);
    return {
      frames: sorted.length,
      meanMs: sorted.length ? sum / sorted.length : 0,
      p95Ms: sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] : 0,
      maxMs: sorted.length ? sorted[sorted.length - 1] : 0,
    };
  }

  // ---------- streaming ----------

  /**
   * A line's `t`: milliseconds, never below the line before's (docs/traces.md). A frame's time is when the frame
   * began, which can be before a line written since (the hello), so it is held at the last line's.
   */
  traceTime(ms) {
    this.lastTraceTime = Math.max(Math.round(ms), this.lastTraceTime ?? 0);
    return this.lastTraceTime;
  }

  connect(url, hello) {
    let socket;
    try {
      socket = new WebSocket(url, SUBPROTOCOL);
    } catch (error) {
      this.fail(`cannot open ${url}: ${error.message}`);
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => socket.send(JSON.stringify(hello)));
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "welcome") {
        this.session = message.session;
        // The server's pull threshold in force (the preset's unless set) replaces the offline guess.
        const pull = Number(message.config?.pullThreshold);
        if (pull > 0 && this.config.pullThreshold === undefined) this.pullThreshold = pull;
        this.ready = true;
        for (const queued of this.queue) socket.send(queued);
        this.queue = [];
      } else if (message.type === "event") {
        const { type: _type, ...event } = message;
        this.decisions.push(event);
      } else if (message.type === "error" && !this.ready) {
        this.fail(`the server refused the recording: ${message.message}`);
      }
    });
    socket.addEventListener("close", (event) => {
      if (!this.ready && !this.error) {
        // A refused upgrade looks like this too: the browser does not say why.
        this.fail(`the server closed the connection (${event.code}); is this page's origin allowed with --allow-origin ${location.origin}?`);
      }
      this.ready = false;
    });
  }

  fail(reason) {
    this.error = reason;
    console.warn(`recorder: ${reason}; recording locally only`);
  }

  send(message) {
    const text = JSON.stringify(message);
    if (!this.socket) return;
    if (this.ready && this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
    else if (!this.error && this.queue.length < 10000) this.queue.push(text);
  }

  // ---------- frames ----------

  wake() {
    this.sampler.wake();
  }

  /** The simulated pull past the start (px). */
  get pull() {
    return this.sampler.pull;
  }

  measureFrame(now) {
    const started = performance.now();
    try {
      return this.tick(now);
    } finally {
      this.costs.push(performance.now() - started);
      if (this.costs.length > 100000) this.costs.splice(0, 50000);
    }
  }

  scrollPosition() {
    return this.axis === "horizontal" ? this.element.scrollLeft : this.element.scrollTop;
  }

  atStart() {
    return this.scrollPosition() <= 0.5;
  }

  tick(now) {
    const sampler = this.sampler;
    const phase = sampler.phaseAt(now);
    sampler.enterPhase(phase);
    const e = this.element;
    const geometry = geometryOf({
      axis: this.axis, scrollX: e.scrollLeft, scrollY: e.scrollTop, contentWidth: e.scrollWidth, contentHeight: e.scrollHeight,
      containerWidth: e.clientWidth, containerHeight: e.clientHeight, insets: this.insets, pull: sampler.pull, phase,
    });
    const changed = !sameGeometry(geometry, this.last);
    if (changed) {
      this.last = geometry;
      this.seq += 1;
      const message = { type: "geometry", seq: this.seq, t: round(now), ...geometry };
      if (this.reportsAnchor) {
        const anchor = this.anchorItem();
        if (anchor) message.anchor = anchor;
      }
      this.lines.push({ kind: "input", t: this.traceTime(now), message });
      this.send(message);
    }
    sampler.advanceSpring(now);
    return changed || sampler.moving(phase);
  }

  /** The first child (with an `id` or `data-id`) at the top of the viewport and its distance from it. */
  anchorItem() {
    const box = this.element.getBoundingClientRect();
    const x = box.left + Math.min(box.width / 2, 40);
    const y = box.top + this.insets.top + 1;
    let node = typeof document.elementFromPoint === "function" ? document.elementFromPoint(x, y) : null;
    while (node && node !== this.element) {
      const id = node.id || node.dataset?.id;
      if (id) {
        const top = node.getBoundingClientRect().top - box.top;
        return { id: String(id).slice(0, 100), offset: round(top) };
      }
      node = node.parentElement;
    }
    return null;
  }

  // ---------- input: the pull, simulated, never prevented ----------

  onWheel(event) {
    const wheel = this.sampler.wheel(event, this.axis, this.element.clientHeight);
    if (wheel && this.sampler.pulls(-wheel.delta)) this.sampler.addPull(-wheel.delta, this.pullThreshold);
  }

  mainAxisPoint(point) {
    return axisPoint(point, this.axis);
  }

  onPointerDown(event) {
    // Touch is followed through touch events; a mouse drag scrolls nothing here, it only pulls at the top.
    if (startsDrag(event)) this.sampler.press(event, this.mainAxisPoint(event));
  }

  onPointerMove(event) {
    const move = this.sampler.pointerMove(event, this.mainAxisPoint(event));
    if (!move) return;
    this.wake();
    if (this.sampler.pulls(move.delta)) this.sampler.addPull(move.delta, this.pullThreshold);
  }

  onPointerEnd(event) {
    this.sampler.pointerEnd(event);
  }

  onTouchStart(event) {
    this.sampler.touchStart(event, (touch) => this.mainAxisPoint(touch));
  }

  onTouchMove(event) {
    const move = this.sampler.touchMove(event, (touch) => this.mainAxisPoint(touch));
    if (move && this.sampler.pulls(move.delta)) this.sampler.addPull(move.delta, this.pullThreshold);
  }

  onTouchEnd(event) {
    this.sampler.touchEnd(event);
  }
}
