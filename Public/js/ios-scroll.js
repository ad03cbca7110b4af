// The iOS scroll model, the same as Sources/ScrollCore/Physics/IOSScrollModel.swift line for line (a test runs both
// on the same inputs in chromium and requires the same trajectory within 0.01 pt a frame).
//
// A finger drags the content (with the rubber band past either end), a release coasts with momentum that
// decays by the deceleration rate every millisecond, and content past an end springs back with a critically
// damped spring. Pure: time is what the caller passes to advance(). `position` is contentOffset along the
// axis from the content's top: 0 at the top, bounds.maxOffset at the end, beyond either in the rubber band.
// docs/fidelity.md gives every constant's source.

/** UIScrollView's decelerationRate `.normal`: velocity kept per millisecond. */
export const NORMAL_DECELERATION_RATE = 0.998;
/** UIScrollView's decelerationRate `.fast`. */
export const FAST_DECELERATION_RATE = 0.99;
/** The rubber band's constant c in (1 − 1/(x·c/L + 1))·L. */
export const RUBBER_BAND_COEFFICIENT = 0.55;
/** The bounce spring's natural frequency ω (1/s): critically damped, time constant 1/ω = 100 ms. */
export const BOUNCE_FREQUENCY = 10;
/** Motion smaller than this (pt) is over. */
export const RESTING_TRAVEL = 0.5;

/** How far content shows past an edge for finger travel x past it. */
export function rubberBand(x, dimension) {
  return (1 - 1 / ((x * RUBBER_BAND_COEFFICIENT) / dimension + 1)) * dimension;
}

/** The finger travel past an edge that shows `offset` past it. */
export function rubberBandInverse(offset, dimension) {
  const shown = Math.min(offset, dimension * (1 - 1e-9));
  return (shown * dimension) / ((dimension - shown) * RUBBER_BAND_COEFFICIENT);
}

/** How far momentum at `velocity` pt/s travels: v/1000 · d/(1 − d). */
export function projectedTravel(velocity, rate) {
  return (velocity / 1000) * (rate / (1 - rate));
}

/** The slowest momentum that still moves: the velocity whose remaining travel is RESTING_TRAVEL. */
export function minimumVelocity(rate) {
  return (RESTING_TRAVEL * 1000 * (1 - rate)) / rate;
}

/** @param {number} maxOffset @param {number} dimension */
export function bounds(maxOffset, dimension) {
  return { maxOffset: Math.max(0, maxOffset), dimension: Math.max(1, dimension) };
}

function shown(raw, b) {
  if (raw < 0) return -rubberBand(-raw, b.dimension);
  if (raw > b.maxOffset) return b.maxOffset + rubberBand(raw - b.maxOffset, b.dimension);
  return raw;
}

function rawFor(position, b) {
  if (position < 0) return -rubberBandInverse(-position, b.dimension);
  if (position > b.maxOffset) return b.maxOffset + rubberBandInverse(position - b.maxOffset, b.dimension);
  return position;
}

/**
 * One scroll view's axis. `motion` is {kind: "idle"|"tracking"|"dragging"|"decelerating"|"bouncing", raw?,
 * velocity?, edge?: "top"|"bottom"}.
 */
export class IOSScrollModel {
  constructor(position = 0, decelerationRate = NORMAL_DECELERATION_RATE) {
    this.position = position;
    this.decelerationRate = decelerationRate;
    this.motion = { kind: "idle" };
  }

  /** The phase SwiftUI reports. */
  get phase() {
    switch (this.motion.kind) {
      case "tracking": return "tracking";
      case "dragging": return "interacting";
      case "decelerating": case "bouncing": return "decelerating";
      default: return "idle";
    }
  }

  get velocity() {
    return this.motion.kind === "decelerating" || this.motion.kind === "bouncing" ? this.motion.velocity : 0;
  }

  touchDown(b) {
    this.motion = { kind: "tracking", raw: rawFor(this.position, b) };
  }

  drag(delta, b) {
    let start = this.motion.kind === "tracking" || this.motion.kind === "dragging"
      ? this.motion.raw : rawFor(this.position, b);
    start += delta;
    this.motion = { kind: "dragging", raw: start };
    this.position = shown(start, b);
  }

  release(velocity, b) {
    if (this.position < 0) this.motion = { kind: "bouncing", edge: "top", velocity };
    else if (this.position > b.maxOffset) this.motion = { kind: "bouncing", edge: "bottom", velocity };
    else if (Math.abs(velocity) < minimumVelocity(this.decelerationRate)) this.motion = { kind: "idle" };
    else this.motion = { kind: "decelerating", velocity };
  }

  jump(target) {
    this.position = target;
    this.motion = { kind: "idle" };
  }

  boundsChanged(b) {
    if (this.motion.kind === "tracking" || this.motion.kind === "dragging") {
      this.motion = { kind: this.motion.kind, raw: rawFor(this.position, b) };
    }
  }

  advance(ms, b) {
    let left = ms;
    for (let step = 0; step < 4 && left > 0; step += 1) {
      if (this.motion.kind === "decelerating") left = this.#coast(this.motion.velocity, left, b);
      else if (this.motion.kind === "bouncing") left = this.#spring(this.motion.edge, this.motion.velocity, left, b);
      else return;
    }
  }

  #coast(v0, ms, b) {
    const d = this.decelerationRate;
    if (this.position < 0 || this.position > b.maxOffset) {
      this.motion = { kind: "bouncing", edge: this.position < 0 ? "top" : "bottom", velocity: v0 };
      return ms;
    }
    const travel = ((v0 / 1000) * d * (1 - d ** ms)) / (1 - d);
    const edge = v0 > 0 ? b.maxOffset : 0;
    const toEdge = edge - this.position;
    if ((v0 > 0 && travel > toEdge) || (v0 < 0 && travel < toEdge)) {
      const t = Math.log(1 - (toEdge * 1000 * (1 - d)) / (v0 * d)) / Math.log(d);
      const crossing = Math.min(ms, Math.max(0, t));
      this.position = edge;
      this.motion = { kind: "bouncing", edge: v0 > 0 ? "bottom" : "top", velocity: v0 * d ** crossing };
      return ms - crossing;
    }
    this.position += travel;
    const velocity = v0 * d ** ms;
    this.motion = Math.abs(velocity) < minimumVelocity(d) ? { kind: "idle" } : { kind: "decelerating", velocity };
    return 0;
  }

  #spring(edge, v0, ms, b) {
    const target = edge === "top" ? 0 : b.maxOffset;
    if (edge === "bottom" && this.position < b.maxOffset && this.position >= 0) {
      this.motion = { kind: "decelerating", velocity: v0 };
      return ms;
    }
    const omega = BOUNCE_FREQUENCY;
    const x0 = this.position - target;
    const t = ms / 1000;
    const k = v0 + omega * x0;
    const decay = Math.exp(-omega * t);
    const x = (x0 + k * t) * decay;
    const velocity = (v0 - omega * k * t) * decay;
    if (Math.abs(x) < RESTING_TRAVEL && x * velocity <= 0) {
      this.position = target;
      this.motion = { kind: "idle" };
    } else {
      this.position = target + x;
      this.motion = { kind: "bouncing", edge, velocity };
    }
    return 0;
  }
}
