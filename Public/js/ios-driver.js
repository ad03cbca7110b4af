// Drives the feed with the iOS scroll model (setting `physics` `ios`): touch, pointer drag and wheel input
// move the model (./ios-scroll.js), and every frame the model's position is put on screen. Within the content
// the position is the scroller's own scroll position, so everything else that scrolls the feed (a jump, a
// prepend's anchoring, keys, a restore) keeps working: what moved the scroller moved the model too. Past
// either end the scroller rests at the end and the content is translated (the rubber band).
//
// Wheel events carry no gesture phase, so a trackpad's momentum looks like a finger. The rule
// (docs/fidelity.md, "The page"): a wheel burst (events under 150 ms apart) that starts at rest at an end
// and goes outward is a pull and follows the rubber band; a burst that reaches an end from inside is
// momentum: the content bounces with the burst's speed and the rest of the burst is dropped.

import { IOSScrollModel, bounds } from "./ios-scroll.js";
import { RULES } from "../recorder.js";

/** Velocity is measured over this much of the latest input (ms). */
const VELOCITY_WINDOW_MS = 100;
/** A finger that lifts this long after it last moved lifts at rest. */
const LIFT_STILL_MS = 60;
/** The fastest wheel momentum carried into a bounce (pt/s): it overshoots by at most v/(ω·e) ≈ 147 pt. */
const MAX_WHEEL_VELOCITY = 4000;
/** One frame at 60 Hz: the shortest span a velocity is measured over (ms). */
const MIN_VELOCITY_SPAN_MS = 1000 / 60;
/** Within this of an end (pt) the content is at that end. */
const AT_EDGE = 0.5;

export class IOSDriver {
  /**
   * @param {object} host what the driver moves (the geometry reporter): `scroller`, `content`, `axis`,
   *   `scrollPosition()`, `setScrollPosition(px)` and `setOverscroll(top, end)`.
   */
  constructor(host) {
    this.host = host;
    this.model = new IOSScrollModel();
    this.applied = null; // the scroll position the driver last set (or found)
    this.lastStepAt = null; // when the model last advanced (or was released), while it moves: the frames' clock
    this.finger = null; // {samples: [{t, point}]} while a finger or pointer drags
    this.wheel = null; // {mode: "drag"|"pull"|"momentum", sign, lastAt, samples: [{t, delta}]} during a burst
    this.momentumSign = 0; // the direction of the last burst that ended as momentum, while its bounce runs
    this.lastRelease = null; // {position, velocity, maxOffset, at}: the latest release, for tests and people
  }

  /** The model's bounds now: the end as the layout has it (a translate, which grows scrollHeight, not counted). */
  bounds() {
    const { scroller, content } = this.host;
    if (this.host.axis === "horizontal") {
      return bounds(content.offsetLeft + content.offsetWidth - scroller.clientWidth, scroller.clientWidth);
    }
    return bounds(content.offsetTop + content.offsetHeight - scroller.clientHeight, scroller.clientHeight);
  }

  /** The phase the model reports, or null at rest (the reporter then asks keys and programmatic scrolls). */
  get phase() {
    const phase = this.model.phase;
    return phase === "idle" ? null : phase;
  }

  /** Whether another frame is needed. */
  get moving() {
    return this.model.phase !== "idle" || this.wheel !== null;
  }

  /**
   * Whatever else moved the scroller (a jump, a prepend's anchoring, keys) moved the content: the model's
   * position follows, and any motion continues from there.
   */
  sync(b) {
    const actual = this.host.scrollPosition();
    if (this.applied === null) {
      this.model.jump(actual);
    } else if (Math.abs(actual - this.applied) > AT_EDGE) {
      this.model.position += actual - this.applied;
      this.model.boundsChanged(b);
    }
    this.applied = actual;
  }

  /** Puts the model's position on screen. */
  apply(b) {
    const position = this.model.position;
    const inside = Math.min(b.maxOffset, Math.max(0, position));
    if (Math.abs(this.host.scrollPosition() - inside) > 0.01) this.host.setScrollPosition(inside);
    this.applied = this.host.scrollPosition();
    this.host.setOverscroll(Math.max(0, -position), Math.max(0, position - b.maxOffset));
  }

  /**
   * A programmatic scroll put the scroller where it is now (UIKit's setContentOffset): any motion stops
   * there. Content the user holds (a finger, a wheel burst) stays under the finger, moved with it.
   */
  settle() {
    const b = this.bounds();
    this.sync(b);
    if (this.finger === null && this.wheel === null) {
      this.model.jump(this.host.scrollPosition());
      this.lastStepAt = null;
    }
    this.apply(b);
  }

  /** A programmatic scroll to the top: content in the rubber band springs back, other motion stops. */
  springBackOrSettle() {
    const b = this.bounds();
    this.sync(b);
    if (this.model.position < 0) {
      this.finger = null;
      this.wheel = null;
      this.model.release(0, b);
      this.lastStepAt = performance.now();
    } else {
      this.settle();
    }
  }

  /** One frame: the wheel burst's end, the model's motion, the result on screen. */
  step(now) {
    const b = this.bounds();
    this.sync(b);
    if (this.wheel !== null && now - this.wheel.lastAt >= RULES.wheelReleaseMs) this.endWheelBurst(b, now);
    if (this.model.phase === "decelerating") {
      const elapsed = this.lastStepAt === null ? 0 : Math.max(0, now - this.lastStepAt);
      this.lastStepAt = now;
      this.model.advance(elapsed, b);
      this.apply(b);
    } else {
      this.lastStepAt = null;
    }
  }

  // ---------- a finger or a pointer ----------

  /** A finger touches down (or a pointer starts to drag): the content stops and follows it. */
  down(point, t) {
    const b = this.bounds();
    this.sync(b);
    this.wheel = null;
    this.momentumSign = 0;
    this.model.touchDown(b);
    this.finger = { samples: [{ t, point }] };
  }

  /** The finger moved to `point` (px along the axis, in the frame's CSS px). */
  move(point, t) {
    if (!this.finger) return;
    const samples = this.finger.samples;
    const delta = point - samples[samples.length - 1].point;
    samples.push({ t, point });
    while (samples.length > 2 && t - samples[0].t > VELOCITY_WINDOW_MS) samples.shift();
    if (delta === 0) return;
    const b = this.bounds();
    this.sync(b);
    // The content follows the finger: moving the finger down moves the content down, toward its start.
    this.model.drag(-delta, b);
    this.apply(b);
  }

  /** The finger lifts: the content coasts with the finger's velocity, or springs back from the rubber band. */
  up(t) {
    if (!this.finger) return;
    const samples = this.finger.samples;
    this.finger = null;
    const last = samples[samples.length - 1];
    const first = samples.find((sample) => last.t - sample.t <= VELOCITY_WINDOW_MS) ?? last;
    const span = last.t - first.t;
    const still = t - last.t > LIFT_STILL_MS;
    const velocity = still || span <= 0 ? 0 : (-(last.point - first.point) / span) * 1000;
    this.release(velocity, t);
  }

  /**
   * Lets the content go at `velocity` at `t`, the releasing event's own time. Its clock is the frames' (an
   * event's timeStamp and requestAnimationFrame's are both from the page's time origin), so the first frame
   * after lift-off advances by the time since the lift. (Started from performance.now(), which is later than
   * the timestamp of the frame that follows, the first step's time was clipped to 0: a still frame, then a
   * jump, on every fling.)
   */
  release(velocity, t) {
    const b = this.bounds();
    this.sync(b);
    this.model.release(velocity, b);
    this.lastStepAt = t;
    this.lastRelease = { position: this.model.position, velocity, maxOffset: b.maxOffset, at: t };
  }

  // ---------- the wheel ----------

  /** A wheel event's travel along the axis (px, positive toward the end). */
  wheelBy(delta, t) {
    const b = this.bounds();
    this.sync(b);
    const sign = Math.sign(delta);
    const burst = this.wheel;
    const continues = burst !== null && t - burst.lastAt < RULES.wheelReleaseMs && !(burst.mode === "momentum" && burst.sign !== sign);
    if (!continues) this.startWheelBurst(sign, b);
    const wheel = this.wheel;
    wheel.lastAt = t;
    wheel.sign = sign;
    wheel.samples.push({ t, delta });
    while (wheel.samples.length > 1 && t - wheel.samples[0].t > VELOCITY_WINDOW_MS) wheel.samples.shift();
    if (wheel.mode === "momentum") return;
    const position = this.model.position;
    const target = position + delta;
    const inside = position >= 0 && position <= b.maxOffset;
    if (wheel.mode === "drag" && inside && (target < 0 || target > b.maxOffset)) {
      // Reached an end while moving: momentum, which bounces with the burst's speed and pulls nothing.
      const edge = target < 0 ? 0 : b.maxOffset;
      this.model.jump(edge);
      wheel.mode = "momentum";
      this.release(this.wheelVelocity(sign), t);
      this.apply(b);
      return;
    }
    this.model.drag(delta, b);
    this.apply(b);
  }

  startWheelBurst(sign, b) {
    // More wheel the same way while momentum bounces is that momentum's tail (a busy machine spaces its events).
    if (this.model.phase === "decelerating" && this.momentumSign === sign) {
      this.wheel = { mode: "momentum", sign, lastAt: -Infinity, samples: [] };
      return;
    }
    this.momentumSign = 0;
    const position = this.model.position;
    const atRest = this.model.phase === "idle";
    const outward = (sign < 0 && position <= AT_EDGE) || (sign > 0 && position >= b.maxOffset - AT_EDGE);
    this.finger = null;
    this.model.touchDown(b);
    this.wheel = { mode: atRest && outward ? "pull" : "drag", sign, lastAt: -Infinity, samples: [] };
  }

  /** The burst's speed (pt/s, along `sign`), capped: one large event says nothing about how fast it moved. */
  wheelVelocity(sign) {
    const samples = this.wheel.samples;
    const travel = samples.reduce((sum, sample) => sum + sample.delta, 0);
    const span = Math.max(MIN_VELOCITY_SPAN_MS, samples[samples.length - 1].t - samples[0].t);
    const speed = Math.min(MAX_WHEEL_VELOCITY, Math.abs(travel / span) * 1000);
    return sign * speed;
  }

  /** No wheel input for the release time: a drag or a pull is let go at rest (the wheel carried its own momentum). */
  endWheelBurst(b, now) {
    const { mode, sign } = this.wheel;
    this.wheel = null;
    if (mode === "momentum") {
      this.momentumSign = sign;
      return;
    }
    this.model.release(0, b);
    this.lastStepAt = now;
  }
}
