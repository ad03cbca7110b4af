// Geometry reporter and pull simulation.
//
// Under `physics` `ios` (the default) input drives the iOS scroll model instead (./ios-driver.js): the
// content follows the finger with the rubber band past both ends, coasts and bounces, and the geometry
// reports the rubber band as SwiftUI does (offset below −inset at the top, past the end at the bottom).
// What follows describes `physics` `browser`, the page's scrolling before the model.
//
// Once per animation frame it measures the feed in SwiftUI `ScrollGeometry` terms and sends a
// `geometry` message when anything changed. Browsers never report a negative offset, so at the top a
// touch drag, a pointer drag, or upward wheel input grows a simulated pull (raw × 0.5, capped at
// 3 × pullThreshold) that is reported as a negative contentOffset with phase `interacting`.
// Lifting the finger/pointer, or 150 ms without wheel input, is the release: the phase leaves
// `interacting` in one frame, and the pull springs back to 0 from the next.
//
// The sampler is ../recorder.js's `Sampler`, the one a developer attaches to their own app: the frame loop,
// the phase, the drag slop, the pull and its spring live there, and a recording and a session here measure
// the same way. What is the page's alone stays here: the iOS model, the chat's anchoring to the bottom, the
// frame's scale, sending over the connection and what the page adds to each geometry, and the input the
// page acts on (it scrolls, prevents the browser's scrolling and captures the pointer; the recorder never).
//
// An idle page costs nothing: frames run only after something that can change the geometry (scroll,
// input, a size change of the feed or its content, a command) and keep running while the phase is
// not `idle` or the pull moves; the first unchanged idle frame stops them.

import { prefersReducedMotion } from "./dom.js";
import { Sampler, startsDrag, axisPoint, round, geometryOf } from "../recorder.js";
import { IOSDriver } from "./ios-driver.js";

const SCROLL_TO_TOP_TIMEOUT_MS = 2500;
const RETRY_SEND_MS = 200;

/**
 * Events (EventTarget): `geometry` (detail: {geometry, seq, sent}) for every changed measurement,
 * `pull` (detail: pull px) whenever the simulated pull changes.
 */
export class GeometryReporter extends EventTarget {
  /**
   * @param {object} options
   * @param {HTMLElement} options.scroller the element that scrolls.
   * @param {HTMLElement} options.content the content inside it (its size is `contentSize`).
   * @param {(message: object) => boolean} options.send sends a message; false when not connected.
   * @param {() => number} options.pullThreshold the session's pull threshold (caps the pull).
   * @param {() => number} [options.scale] how much the frame is scaled on screen (a CSS transform).
   */
  constructor({ scroller, content, send, pullThreshold, scale = () => 1, extras = () => ({}), anchoredAtBottom = () => false }) {
    super();
    this.scroller = scroller;
    this.content = content;
    this.send = send;
    this.extras = extras; // what the page adds to each geometry: its anchor and rendered rev
    // `chat`: like SwiftUI's defaultScrollAnchor(.bottom), a view at its end stays there as sizes change.
    this.anchoredAtBottom = anchoredAtBottom;
    this.wasAtEnd = false;
    this.seenPosition = null; // the scroll position the last scroll event or pin to the bottom found
    this.pullThreshold = pullThreshold;
    this.scale = scale;
    this.retryTimer = null;
    this.frames = 0; // frames measured, for the idle-cost test
    this.axis = "vertical";
    this.insetTop = 0;
    // The frame loop and the input that sets the phase and the pull (under `ios` the pull is the model's rubber band).
    this.sampler = new Sampler({
      frame: (now) => {
        this.frames += 1;
        return this.tick(now);
      },
      atStart: () => this.atStart(),
    });
    this.overEnd = 0; // `ios`: how far the content shows past its end (the rubber band at the bottom)
    this.physics = "browser";
    this.ios = new IOSDriver(this);
    this.seq = 0;
    this.lastSentKey = null; // what the server last got
    this.lastMeasuredKey = null;
    this.lastGeometry = null;
    this.animatingSince = null; // scrollToTop in progress
    this.installListeners();
    // Sizes change without a scroll event: items land, the frame is resized, the axis flips.
    this.scroller.addEventListener("scroll", () => this.noteScroll(), { passive: true });
    this.resizeObserver = new ResizeObserver(() => {
      // A scroll made this frame (its event comes with the next) counts before the new size pins the view.
      if (this.seenPosition !== null) this.noteScroll();
      if (this.anchoredAtBottom() && this.wasAtEnd) this.scrollToBottom();
      this.wake();
    });
    this.resizeObserver.observe(this.scroller);
    this.resizeObserver.observe(this.content);
    this.wake();
  }

  /** Measures at the next animation frame (and keeps measuring while anything moves). */
  wake() {
    this.sampler.wake();
  }

  /** The pull past the start: the simulated pull under `browser`, the rubber band at the top under `ios`. */
  get pull() {
    return this.sampler.pull;
  }

  /** Switches the scroll axis (config `axis`). */
  setAxis(axis) {
    this.axis = axis === "horizontal" ? "horizontal" : "vertical";
    this.sampler.pull = 0;
    this.overEnd = 0;
    this.sampler.spring = null;
    this.emitPull();
    if (this.iosPhysics) this.ios.settle();
    this.wake();
  }

  /** Switches how input moves the feed (setting `physics`): `ios` drives the iOS model, `browser` scrolls natively. */
  setPhysics(physics) {
    const next = physics === "browser" ? "browser" : "ios";
    if (next === this.physics) return;
    this.physics = next;
    this.scroller.classList.toggle("is-ios", next === "ios");
    this.sampler.pull = 0;
    this.overEnd = 0;
    this.sampler.spring = null;
    this.sampler.touch = null;
    this.sampler.drag = null;
    this.emitPull();
    if (next === "ios") this.ios.settle();
    this.wake();
  }

  get iosPhysics() {
    return this.physics === "ios";
  }

  /** The simulated `contentInsets.top` (leading on the horizontal axis), e.g. a sticky header. */
  setInsetTop(px) {
    this.insetTop = Math.max(0, Number(px) || 0);
    this.wake();
  }

  /** Forgets what was last sent, so the next frame sends the geometry again (after a (re)connect). */
  resend() {
    this.lastSentKey = null;
    this.wake();
  }

  /**
   * Sends the geometry now, changed or not, outside the frame loop: around a prepend the page reports the
   * moment just before and just after it, in one task, so no scroll comes between (docs/protocol.md,
   * "Anchoring").
   */
  reportNow({ ifChanged = false } = {}) {
    if (!this.shown) return;
    const now = performance.now();
    const geometry = this.measure(this.phaseAt(now));
    if (ifChanged && JSON.stringify(geometry) === this.lastSentKey) return;
    const sent = this.send({ type: "geometry", seq: this.seq + 1, t: round(now), ...geometry, ...this.extras() });
    if (!sent) return;
    this.seq += 1;
    this.lastSentKey = JSON.stringify(geometry);
    this.dispatchEvent(new CustomEvent("geometry", { detail: { geometry, seq: this.seq, sent, at: now } }));
  }

  /** Carries out the server's `scrollToBottom` command: to the end at once (a chat opening or following). */
  scrollToBottom() {
    if (this.axis === "horizontal") this.scroller.scrollLeft = this.scroller.scrollWidth;
    else this.scroller.scrollTop = this.scroller.scrollHeight;
    this.wasAtEnd = true;
    if (this.iosPhysics) this.ios.settle();
    this.seenPosition = this.scrollPosition();
    this.wake();
  }

  /**
   * Whether the view sits at its end is what someone did (a scroll), not what content growth did to it. The
   * scroll event a pin causes arrives a frame later, measured against a layout that may have grown since: at
   * the position the pin left, the view stays pinned. Any other position is a scroll someone made (the
   * reader, however soon after the pin) and says whether the view is at its end.
   */
  noteScroll() {
    const position = this.scrollPosition();
    if (position === this.seenPosition) return;
    this.seenPosition = position;
    const s = this.scroller;
    this.wasAtEnd = this.axis === "horizontal"
      ? s.scrollLeft + s.clientWidth >= s.scrollWidth - 1
      : s.scrollTop + s.clientHeight >= s.scrollHeight - 1;
  }

  /** Jumps to the top at once: a scroll to the top that a new, shorter list overtook. */
  jumpToTop() {
    if (this.axis === "horizontal") this.scroller.scrollLeft = 0;
    else this.scroller.scrollTop = 0;
    if (this.iosPhysics) this.ios.settle();
    this.wake();
  }

  /** A programmatic scroll (a jump to an item) stopped any motion where it put the feed. */
  settle() {
    if (this.iosPhysics) this.ios.settle();
    this.wake();
  }

  /** Carries out the server's `scrollToTop` command: a smooth scroll with phase `animating`. */
  scrollToTop() {
    if (this.atStart() && this.pull === 0) return;
    if (this.iosPhysics) this.ios.springBackOrSettle();
    else this.sampler.spring = this.pull > 0 ? { from: this.pull, start: null } : null;
    this.animatingSince = performance.now();
    const behavior = prefersReducedMotion() ? "auto" : "smooth";
    if (this.axis === "horizontal") this.scroller.scrollTo({ left: 0, behavior });
    else this.scroller.scrollTo({ top: 0, behavior });
    this.wake();
  }

  /** Whether a scroll to the top is under way. */
  get scrollingToTop() {
    return this.animatingSince !== null;
  }

  // ---------- measuring ----------

  scrollPosition() {
    return this.axis === "horizontal" ? this.scroller.scrollLeft : this.scroller.scrollTop;
  }

  setScrollPosition(px) {
    if (this.axis === "horizontal") this.scroller.scrollLeft = px;
    else this.scroller.scrollTop = px;
  }

  /** `ios`: the rubber band past the top (`top`) or past the end (`end`), shown as a translate of the content. */
  setOverscroll(top, end) {
    if (top === this.pull && end === this.overEnd) return;
    this.sampler.pull = top;
    this.overEnd = end;
    this.emitPull();
  }

  atStart() {
    return this.scrollPosition() <= 0.5;
  }

  phaseAt(now) {
    const animating = this.animatingSince !== null;
    // Under `ios` the model's phase; at rest, keys and programmatic scrolls as under `browser` (drags and the wheel are the model's).
    if (this.iosPhysics) return this.ios.phase ?? this.sampler.phaseAt(now, { animating, dragsAndWheel: false });
    return this.sampler.phaseAt(now, { animating });
  }

  measure(phase) {
    const s = this.scroller;
    // The frame may be scaled on screen: the client rect is in screen pixels, the geometry in CSS pixels.
    const k = this.scale() || 1;
    const rect = this.content.getBoundingClientRect();
    // `endShortfall`: a browser at a fractional zoom stops that far short of the content's end (README step 2).
    const short = this.endShortfall || 0;
    const horizontal = this.axis === "horizontal";
    return geometryOf({
      axis: this.axis, scrollX: s.scrollLeft, scrollY: s.scrollTop,
      contentWidth: rect.width / k + (horizontal ? short : 0), contentHeight: rect.height / k + (horizontal ? 0 : short),
      containerWidth: s.clientWidth, containerHeight: s.clientHeight, inset: this.insetTop, pull: this.pull - this.overEnd, phase,
    });
  }

  /**
   * Whether the feed is laid out: a hidden feed (another tab on a narrow screen) measures 0 × 0 at 0, 0,
   * which is no geometry of the feed. Nothing is measured or sent then; showing it again resizes it, and
   * the resize observer measures anew.
   */
  get shown() {
    return this.scroller.getClientRects().length > 0;
  }

  /** One measurement; returns whether another frame is needed. */
  tick(now) {
    if (!this.shown) return false;
    if (this.animatingSince !== null && ((this.atStart() && this.pull === 0) || now - this.animatingSince > SCROLL_TO_TOP_TIMEOUT_MS)) {
      this.animatingSince = null;
    }
    if (this.iosPhysics) this.ios.step(now);
    const phase = this.phaseAt(now);
    // Under `ios` the model releases its own rubber band.
    this.sampler.enterPhase(phase, !this.iosPhysics);

    const geometry = this.measure(phase);
    const key = JSON.stringify(geometry);
    const changed = key !== this.lastMeasuredKey;
    if (changed) {
      this.lastMeasuredKey = key;
      this.lastGeometry = geometry;
    }
    let sent = false;
    if (key !== this.lastSentKey) {
      sent = this.send({ type: "geometry", seq: this.seq + 1, t: round(now), ...geometry, ...this.extras() });
      if (sent) {
        this.seq += 1;
        this.lastSentKey = key;
      }
    }
    if (changed || sent) {
      this.dispatchEvent(new CustomEvent("geometry", { detail: { geometry, seq: this.seq, sent, at: now } }));
    }
    if (this.sampler.advanceSpring(now)) this.emitPull();
    if (key !== this.lastSentKey && this.retryTimer === null) {
      // Not connected (or not ready): try again soon rather than spin every frame.
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.wake();
      }, RETRY_SEND_MS);
    }
    return changed || this.sampler.moving(phase) || this.animatingSince !== null || this.ios.moving;
  }

  // ---------- the pull ----------

  /** Grows (delta > 0) or shrinks the pull by a raw finger/wheel distance. */
  addPull(rawDelta) {
    this.animatingSince = null;
    this.sampler.addPull(rawDelta, this.pullThreshold());
    this.emitPull();
  }

  /** The content's translate: the pull at the top (positive), or under `ios` the rubber band at the end (negative). */
  emitPull() {
    this.dispatchEvent(new CustomEvent("pull", { detail: this.pull - this.overEnd }));
  }

  installListeners() {
    const s = this.scroller;
    s.addEventListener("scroll", () => {
      // Under `ios` the scrolls the model makes are its own phase's; only others (keys, the scrollbar) count.
      if (!this.iosPhysics || Math.abs(this.scrollPosition() - (this.ios.applied ?? -1)) > 0.5) this.sampler.scrolled();
      else this.wake();
    }, { passive: true });

    s.addEventListener("wheel", (event) => this.onWheel(event), { passive: false });

    s.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    s.addEventListener("pointermove", (event) => this.onPointerMove(event));
    s.addEventListener("pointerup", (event) => this.onPointerEnd(event));
    s.addEventListener("pointercancel", (event) => this.onPointerEnd(event));

    s.addEventListener("touchstart", (event) => this.onTouchStart(event), { passive: true });
    s.addEventListener("touchmove", (event) => this.onTouchMove(event), { passive: false });
    s.addEventListener("touchend", (event) => this.onTouchEnd(event));
    s.addEventListener("touchcancel", (event) => this.onTouchEnd(event));

    s.addEventListener("keydown", (event) => {
      if (this.sampler.key(event, true)) this.animatingSince = null;
    });
    s.addEventListener("keyup", (event) => this.sampler.key(event, false));
    s.addEventListener("blur", () => {
      this.sampler.keyHeld = false;
    });
  }

  onWheel(event) {
    const wheel = this.sampler.wheel(event, this.axis, this.scroller.clientHeight);
    if (!wheel) return;
    const { delta, acrossStrip } = wheel;
    this.animatingSince = null;
    if (this.iosPhysics) {
      if (event.cancelable) event.preventDefault();
      this.ios.wheelBy(delta, event.timeStamp);
      return;
    }
    if (this.sampler.pulls(-delta)) {
      if (event.cancelable) event.preventDefault();
      this.addPull(-delta);
      return;
    }
    // On a horizontal strip a plain vertical wheel scrolls along the strip.
    if (acrossStrip) {
      if (event.cancelable) event.preventDefault();
      this.scroller.scrollLeft += delta;
    }
  }

  /** The pointer's position along the axis, in the frame's CSS pixels (the frame may be scaled). */
  mainAxisPoint(event) {
    return axisPoint(event, this.axis, this.scale() || 1);
  }

  onPointerDown(event) {
    if (!startsDrag(event)) return;
    // A button in the feed (Retry) gets its click: capturing the pointer would take it away.
    if (event.target instanceof Element && event.target.closest("button, a, input, select")) return;
    const rect = this.scroller.getBoundingClientRect();
    const k = this.scale() || 1;
    // Leave the scrollbar to the browser.
    if ((event.clientX - rect.left) / k >= this.scroller.clientWidth || (event.clientY - rect.top) / k >= this.scroller.clientHeight) return;
    const point = this.mainAxisPoint(event);
    this.sampler.press(event, point);
    this.scroller.setPointerCapture(event.pointerId);
    // Under `ios` a press catches content in motion, as a finger does.
    if (this.iosPhysics && this.ios.moving) this.ios.down(point, event.timeStamp);
    this.wake();
  }

  onPointerMove(event) {
    const point = this.mainAxisPoint(event);
    const move = this.sampler.pointerMove(event, point);
    if (!move) return;
    const { delta, started } = move;
    if (started) {
      this.scroller.classList.add("is-dragging");
      if (this.iosPhysics && !this.ios.finger) this.ios.down(point - delta, event.timeStamp);
    }
    if (this.iosPhysics) {
      this.ios.move(point, event.timeStamp);
      this.wake();
      return;
    }
    this.dragBy(delta);
  }

  onPointerEnd(event) {
    if (!this.sampler.pointerEnd(event)) return;
    if (this.iosPhysics) this.releaseFinger(event.timeStamp);
    this.scroller.classList.remove("is-dragging");
    if (this.scroller.hasPointerCapture(event.pointerId)) this.scroller.releasePointerCapture(event.pointerId);
    this.wake();
  }

  /**
   * A pointer dragged by `delta` px along the axis (positive = down / right, pulling the content
   * away from its start). At the start that grows the pull; elsewhere it scrolls, like a finger.
   */
  dragBy(delta) {
    this.animatingSince = null;
    if (this.sampler.pulls(delta)) {
      this.addPull(delta);
      return;
    }
    if (this.axis === "horizontal") this.scroller.scrollLeft -= delta;
    else this.scroller.scrollTop -= delta;
  }

  /**
   * `ios`: the finger lifts. Moves faster than frames end in a release no frame saw dragging: the last
   * position under the finger is sent first, so the server sees `interacting` and then the release.
   */
  releaseFinger(t) {
    if (this.ios.finger && this.ios.model.phase === "interacting") this.reportNow({ ifChanged: true });
    this.ios.up(t);
    this.wake();
  }

  onTouchStart(event) {
    if (!this.sampler.touchStart(event, (touch) => this.mainAxisPoint(touch))) return;
    this.animatingSince = null;
    if (this.iosPhysics) this.ios.down(this.sampler.touch.last, event.timeStamp);
  }

  onTouchMove(event) {
    const move = this.sampler.touchMove(event, (touch) => this.mainAxisPoint(touch));
    if (!move) return;
    if (this.iosPhysics) {
      if (event.cancelable) event.preventDefault();
      this.ios.move(move.point, event.timeStamp);
      this.wake();
      return;
    }
    // Native scrolling handles everything except the pull past the top.
    if (this.sampler.pulls(move.delta)) {
      if (event.cancelable) event.preventDefault();
      this.addPull(move.delta);
    }
  }

  onTouchEnd(event) {
    if (this.sampler.touchEnd(event) && this.iosPhysics) this.releaseFinger(event.timeStamp);
  }
}
