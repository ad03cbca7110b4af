// The timeline plot: contentOffset on the scroll axis over the last 30 seconds, the pull and bottom
// thresholds as lines, and markers for reachedBottom, page loads, refreshes (failed ones in their own
// colour) and disagreements. The vertical axis points down like the feed: a pull shows above the zero
// line (a linear band of fixed height), offsets below it on a log scale past 100 px, so a 19,000 px
// scroll does not squash the last few hundred pixels or the pull band into a line.
// Times are the page's receive times (performance.now()), so samples and events share one clock.
//
// Drawing is on demand: a frame is drawn when a sample or event arrives or the size changes, frames
// follow one another only while something is moving (recent samples, a span in flight), and otherwise
// the plot is redrawn once a second so its time axis keeps sliding.

const WINDOW_MS = 30_000;
const KEEP_MS = 35_000;
const PAD = { left: 52, right: 10, top: 10, bottom: 22 };
const PULL_BAND = 0.28; // share of the plot height for negative offsets (pulls)
const LABEL_SPACING = 18; // px between the middles of two y labels: 11 (or 13) px type and a clear gap
const LOG_KNEE_PX = 40; // offsets up to this are near-linear; beyond, each decade gets about the same height
const LIVE_MS = 600; // after a sample, keep drawing every frame this long
const IDLE_REDRAW_MS = 1000;
const MIN_FRAME_MS = 33;
const MAX_KEPT_SAMPLES = 2400; // what a reload keeps: 30 s of geometry at 60 Hz and then some

/** The positive band's scale: log1p(v / knee), 0 at 0, monotonic, near-linear below the knee. */
export function logScale(value) {
  return Math.log1p(Math.max(0, value) / LOG_KNEE_PX);
}

export class Timeline {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.samples = []; // {t, offset, contentLength, containerLength, insetEnd}
    this.spans = []; // {kind: "load"|"refresh", start, end|null}
    this.marks = []; // {kind: "reached"|"disagree", t}
    this.pullThreshold = 68;
    this.bottomThreshold = 50;
    this.insetTop = 0;
    this.axis = "vertical";
    this.colors = null;
    this.lastDraw = -Infinity;
    this.lastSampleAt = -Infinity;
    this.frameRequest = null;
    this.idleTimer = null;
    this.draws = 0; // frames drawn, for the idle-cost test
    this.mapping = null; // the last drawn value → y mapping, for tests and people in the console
    this.labels = []; // the y-axis labels last drawn: {text, y}
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
      this.colors = null;
      this.invalidate();
    });
    new ResizeObserver(() => {
      this.colors = null; // the type size follows the layout (13 px on a phone)
      this.invalidate();
    }).observe(canvas);
    document.addEventListener("visibilitychange", () => this.invalidate());
    this.invalidate();
  }

  /** Something to draw changed: draw at the next frame. */
  invalidate() {
    if (this.frameRequest === null) this.frameRequest = requestAnimationFrame((now) => this.frame(now));
  }

  /** The y (CSS px in the canvas) of an offset value in the last drawn frame. */
  yOf(value) {
    return this.mapping ? this.mapping(value) : null;
  }

  setThresholds({ pullThreshold, bottomThreshold }) {
    if (Number.isFinite(pullThreshold)) this.pullThreshold = pullThreshold;
    if (Number.isFinite(bottomThreshold)) this.bottomThreshold = bottomThreshold;
    this.invalidate();
  }

  setInsetTop(px) {
    this.insetTop = px;
    this.invalidate();
  }

  setAxis(axis) {
    this.axis = axis === "horizontal" ? "horizontal" : "vertical";
    this.invalidate();
  }

  /** A measured geometry at time `t` (ms, performance.now()). */
  addSample(t, geometry) {
    const horizontal = this.axis === "horizontal";
    this.samples.push({
      t,
      offset: horizontal ? geometry.contentOffset.x : geometry.contentOffset.y,
      contentLength: horizontal ? geometry.contentSize.width : geometry.contentSize.height,
      containerLength: horizontal ? geometry.containerSize.width : geometry.containerSize.height,
      insetEnd: horizontal ? geometry.contentInsets.trailing : geometry.contentInsets.bottom,
    });
    this.lastSampleAt = t;
    this.invalidate();
  }

  /**
   * What the server's catalog says each event draws (`welcome.events[].plot`): the timeline keeps no list of
   * event names.
   */
  setCatalog(events) {
    const list = Array.isArray(events) ? events : [];
    this.plots = new Map(list.filter((e) => e && typeof e.name === "string" && typeof e.plot === "string").map((e) => [e.name, e.plot]));
  }

  /** A server event received at time `t`. */
  addEvent(name, t) {
    switch (this.plots?.get(name)) {
      case "loadBegins":
        this.spans.push({ kind: "load", start: t, end: null });
        break;
      case "loadEnds":
        this.closeSpan("load", t);
        break;
      case "loadFails":
        this.closeSpan("load", t, true);
        break;
      case "refreshBegins":
        this.spans.push({ kind: "refresh", start: t, end: null });
        break;
      case "refreshEnds":
        this.closeSpan("refresh", t);
        break;
      case "refreshFails":
        this.closeSpan("refresh", t, true);
        break;
      case "bottomReached":
        this.marks.push({ kind: "reached", t });
        break;
      case "presetsDisagree":
        this.marks.push({ kind: "disagree", t });
        break;
      default:
        return; // drawn as nothing (an older server's catalog has no `plot`)
    }
    this.invalidate();
  }

  /** A new session: open spans can never close. */
  closeOpenSpans(t) {
    for (const span of this.spans) if (span.end === null) span.end = t;
    this.invalidate();
  }

  closeSpan(kind, t, failed = false) {
    for (let i = this.spans.length - 1; i >= 0; i--) {
      if (this.spans[i].kind === kind && this.spans[i].end === null) {
        this.spans[i].end = t;
        this.spans[i].failed = failed;
        return;
      }
    }
  }

  /** The offset curve of the window, each sample's time as ms before `now` (kept over a reload). */
  samplesBefore(now) {
    return this.samples.filter((s) => s.t >= now - KEEP_MS).slice(-MAX_KEPT_SAMPLES)
      .map(({ t, offset, contentLength, containerLength, insetEnd }) => ({ ago: now - t, offset, contentLength, containerLength, insetEnd }));
  }

  /** Samples from `samplesBefore`, `shift` ms older (the time the page was away), before any received since. */
  restoreSamples(saved, now, shift) {
    const number = (v) => (Number.isFinite(v) ? v : 0);
    const restored = (Array.isArray(saved) ? saved : []).filter((s) => s && Number.isFinite(s.ago)).map((s) => ({
      t: now - shift - s.ago, offset: number(s.offset), contentLength: number(s.contentLength),
      containerLength: number(s.containerLength), insetEnd: number(s.insetEnd),
    })).filter((s) => s.t >= now - KEEP_MS);
    const first = this.samples[0]?.t ?? Infinity;
    this.samples = [...restored.filter((s) => s.t < first), ...this.samples];
    this.invalidate();
  }

  /**
   * The session's events from before this page (a reload: `/api/events`), each at its own time: the spans,
   * failures and marks they make, placed before those of the events received since.
   */
  addHistory(records) {
    const live = { spans: this.spans, marks: this.marks };
    this.spans = [];
    this.marks = [];
    for (const { name, t } of records) this.addEvent(name, t);
    // A span still open in the history ended while the page was away, or is closed by a live event.
    this.spans = [...this.spans, ...live.spans];
    this.marks = [...this.marks, ...live.marks];
    this.invalidate();
  }

  /** Failed spans in the window, for tests: [{kind, start, end}]. */
  failedSpans() {
    return this.spans.filter((s) => s.failed).map(({ kind, start, end }) => ({ kind, start, end }));
  }

  frame(now) {
    this.frameRequest = null;
    clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (document.hidden) return; // visibilitychange draws again
    if (now - this.lastDraw >= MIN_FRAME_MS) {
      this.lastDraw = now;
      this.prune(now);
      this.draw(now);
      this.draws += 1;
    }
    const moving = now - this.lastSampleAt < LIVE_MS || this.spans.some((s) => s.end === null);
    if (moving) this.invalidate();
    else this.idleTimer = setTimeout(() => this.invalidate(), IDLE_REDRAW_MS);
  }

  prune(now) {
    const cutoff = now - KEEP_MS;
    // Keep the last sample before the window: the line starts at the window's left edge.
    let firstKept = this.samples.findIndex((s) => s.t >= cutoff);
    if (firstKept === -1) firstKept = this.samples.length;
    if (firstKept > 1) this.samples.splice(0, firstKept - 1);
    this.spans = this.spans.filter((s) => s.end === null || s.end >= cutoff);
    this.marks = this.marks.filter((m) => m.t >= cutoff);
  }

  readColors() {
    const css = getComputedStyle(document.documentElement);
    const get = (name) => css.getPropertyValue(name).trim() || "#888";
    return {
      text: get("--muted"), faint: get("--faint"), grid: get("--line"), offset: get("--accent"),
      pull: get("--refresh"), bottom: get("--load"), reached: get("--violet"), load: get("--load"),
      refresh: get("--refresh"), disagree: get("--disagree"), panel: get("--panel"), failed: get("--fail"),
      fontSize: parseFloat(getComputedStyle(this.canvas).fontSize) || 11,
    };
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    const w = Math.round(width * ratio);
    const h = Math.round(height * ratio);
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return { width, height };
  }

  draw(now) {
    const { width, height } = this.resize();
    if (width === 0 || height === 0) return;
    if (!this.colors) this.colors = this.readColors();
    const c = this.colors;
    const ctx = this.ctx;
    ctx.clearRect(0, 0, width, height);
    const plot = { x: PAD.left, y: PAD.top, w: width - PAD.left - PAD.right, h: height - PAD.top - PAD.bottom };
    const start = now - WINDOW_MS;
    const xOf = (t) => plot.x + ((t - start) / WINDOW_MS) * plot.w;

    const pullLine = -(this.pullThreshold + this.insetTop);
    const bottomLineOf = (s) => s.contentLength + s.insetEnd - s.containerLength - this.bottomThreshold;
    const visible = this.samples.filter((s, i) => s.t >= start || (this.samples[i + 1]?.t ?? now) >= start);
    // Two bands on one axis: the pull (negative offsets, where the refresh rules live) gets a fixed
    // share of the height, so a 68 px pull stays visible next to thousands of pixels of scrolling.
    let min = Math.min(pullLine * 1.5, -this.insetTop - 10);
    let max = 100;
    for (const s of visible) {
      min = Math.min(min, s.offset);
      max = Math.max(max, s.offset, bottomLineOf(s));
    }
    max *= 1.04;
    const zeroAt = plot.y + plot.h * PULL_BAND;
    const span = logScale(max);
    const yOf = (v) => (v < 0
      ? zeroAt - (v / min) * (zeroAt - plot.y)
      : zeroAt + (logScale(v) / span) * (plot.y + plot.h - zeroAt));
    this.mapping = yOf;
    ctx.fillStyle = c.pull;
    ctx.globalAlpha = 0.05;
    ctx.fillRect(plot.x, plot.y, plot.w, zeroAt - plot.y);
    ctx.globalAlpha = 1;

    ctx.font = `${c.fontSize}px system-ui, sans-serif`;
    ctx.textBaseline = "middle";

    // spans (behind everything)
    for (const s of this.spans) {
      const x0 = Math.max(plot.x, xOf(s.start));
      const x1 = Math.min(plot.x + plot.w, xOf(s.end ?? now));
      if (x1 <= x0) continue;
      const color = s.failed ? c.failed : s.kind === "load" ? c.load : c.refresh;
      ctx.globalAlpha = 0.13;
      ctx.fillStyle = color;
      ctx.fillRect(x0, plot.y, Math.max(1, x1 - x0), plot.h);
      ctx.globalAlpha = 1;
      ctx.fillRect(x0, s.kind === "load" ? plot.y + plot.h - 3 : plot.y, Math.max(2, x1 - x0), 3);
    }

    // grid: every 5 s, and the zero line
    ctx.strokeStyle = c.grid;
    ctx.lineWidth = 1;
    ctx.fillStyle = c.faint;
    ctx.textAlign = "center";
    const labelEvery = plot.w < 360 ? 10 : 5;
    for (let s = 0; s <= 30; s += 5) {
      const x = plot.x + plot.w - (s / 30) * plot.w;
      ctx.beginPath();
      ctx.moveTo(Math.round(x) + 0.5, plot.y);
      ctx.lineTo(Math.round(x) + 0.5, plot.y + plot.h);
      ctx.stroke();
      if (s % labelEvery === 0) ctx.fillText(s === 0 ? "now" : `−${s}s`, Math.min(Math.max(x, plot.x + 12), plot.x + plot.w - 12), plot.y + plot.h + 12);
    }
    ctx.textAlign = "right";
    const zeroY = yOf(0);
    ctx.strokeStyle = c.faint;
    ctx.beginPath();
    ctx.moveTo(plot.x, Math.round(zeroY) + 0.5);
    ctx.lineTo(plot.x + plot.w, Math.round(zeroY) + 0.5);
    ctx.stroke();
    const maxY = plot.y + plot.h - 4;
    const labels = [{ text: "0", y: zeroY }, { text: axisNumber(min), y: plot.y + 5 }];
    // Log ticks: 100, 1k, 10k… while they keep clear of zero and of the bottom edge's label.
    let lastY = zeroY;
    for (let tick = 100; tick < max; tick *= 10) {
      const y = yOf(tick);
      if (y - lastY < LABEL_SPACING || maxY - y < LABEL_SPACING) continue;
      ctx.strokeStyle = c.grid;
      ctx.beginPath();
      ctx.moveTo(plot.x, Math.round(y) + 0.5);
      ctx.lineTo(plot.x + plot.w, Math.round(y) + 0.5);
      ctx.stroke();
      labels.push({ text: tick >= 1000 ? `${tick / 1000}k` : `${tick}`, y });
      lastY = y;
    }
    labels.push({ text: axisNumber(max), y: maxY });
    for (const label of labels) ctx.fillText(label.text, plot.x - 6, label.y);
    this.labels = labels.map((label) => ({ ...label, width: ctx.measureText(label.text).width, room: plot.x - 6 }));

    // thresholds
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = c.pull;
    ctx.beginPath();
    ctx.moveTo(plot.x, yOf(pullLine));
    ctx.lineTo(plot.x + plot.w, yOf(pullLine));
    ctx.stroke();
    if (visible.length > 0) {
      ctx.strokeStyle = c.bottom;
      ctx.beginPath();
      visible.forEach((s, i) => {
        const x0 = Math.max(plot.x, xOf(s.t));
        const x1 = Math.min(plot.x + plot.w, xOf(visible[i + 1]?.t ?? now));
        const y = yOf(bottomLineOf(s));
        if (i === 0) ctx.moveTo(x0, y);
        else ctx.lineTo(x0, y);
        ctx.lineTo(x1, y);
      });
      ctx.stroke();
    }
    ctx.setLineDash([]);

    // the offset, held between samples
    if (visible.length > 0) {
      ctx.strokeStyle = c.offset;
      ctx.lineWidth = 2;
      ctx.lineJoin = "round";
      ctx.beginPath();
      visible.forEach((s, i) => {
        const x0 = Math.max(plot.x, xOf(s.t));
        const x1 = Math.min(plot.x + plot.w, xOf(visible[i + 1]?.t ?? now));
        const y = yOf(s.offset);
        if (i === 0) ctx.moveTo(x0, y);
        else ctx.lineTo(x0, y);
        ctx.lineTo(x1, y);
      });
      ctx.stroke();
    }

    // markers
    for (const m of this.marks) {
      if (m.t < start) continue;
      const x = xOf(m.t);
      if (m.kind === "disagree") {
        ctx.strokeStyle = c.disagree;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(x, plot.y + 6);
        ctx.lineTo(x, plot.y + plot.h);
        ctx.stroke();
        ctx.fillStyle = c.disagree;
        ctx.beginPath();
        ctx.moveTo(x - 5, plot.y);
        ctx.lineTo(x + 5, plot.y);
        ctx.lineTo(x, plot.y + 7);
        ctx.closePath();
        ctx.fill();
      } else {
        const value = this.offsetAt(m.t);
        ctx.fillStyle = c.reached;
        ctx.strokeStyle = c.panel;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(x, value === null ? plot.y + plot.h - 8 : yOf(value), 4.5, 0, Math.PI * 2);
        ctx.fill();
        ctx.stroke();
      }
    }
  }

  offsetAt(t) {
    let value = null;
    for (const s of this.samples) {
      if (s.t > t) break;
      value = s.offset;
    }
    return value;
  }
}

/** An axis end in the room left of the plot: 1234, 43.8k, 8.80M (a feed of 100,000 rows is 9 million px long). */
function axisNumber(value) {
  const size = Math.abs(value);
  if (size < 10_000) return `${Math.round(value)}`;
  if (size < 1_000_000) return `${(value / 1000).toFixed(size < 100_000 ? 1 : 0)}k`;
  return `${(value / 1_000_000).toFixed(size < 10_000_000 ? 2 : 1)}M`;
}
