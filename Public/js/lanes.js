// Compare lanes: in compare mode, one lane per preset under the timeline, on the same 30 s axis. Every
// firing (`presetsFired`) is a dot in its preset's lane, blue for a load, green for a refresh; each
// `presetDisagreement` adds an amber band across all lanes, an amber dot in the lanes of the presets whose
// rule fired ("yes") and a ring in the lanes of those whose rule did not ("no") — the in-page view of
// `scroll-playground replay --compare`. Drawn only when something changed or time moved on.

const WINDOW_MS = 30_000;
const PAD = { left: 52, right: 10, top: 4, bottom: 4 };
const IDLE_REDRAW_MS = 1000;

export class CompareLanes {
  constructor(canvas, wrap) {
    this.canvas = canvas;
    this.wrap = wrap;
    this.ctx = canvas.getContext("2d");
    this.presets = [];
    this.marks = []; // {t, about, yes: [], no: []}
    this.firings = []; // {t, load: [], refresh: []}
    this.enabled = false;
    this.frameRequest = null;
    this.timer = null;
    new ResizeObserver(() => this.invalidate()).observe(canvas);
  }

  /** The presets compare mode runs (`welcome.presets`, less those the server marks `compared: false`). */
  setPresets(presets) {
    this.presets = presets.filter((p) => p && p.compared !== false).map((p) => (typeof p === "string" ? p : p.name)).filter(Boolean);
    this.invalidate();
  }

  setEnabled(on) {
    this.enabled = Boolean(on);
    this.wrap.hidden = !this.enabled;
    for (const item of document.querySelectorAll(".legend-lanes")) item.hidden = !this.enabled;
    this.invalidate();
  }

  /** A `presetDisagreement` record received at `t` (performance.now()). */
  addDisagreement(t, data) {
    this.marks.push({
      t,
      about: String(data?.about ?? ""),
      yes: Array.isArray(data?.yes) ? data.yes.map(String) : [],
      no: Array.isArray(data?.no) ? data.no.map(String) : [],
    });
    this.updateLabel();
    this.invalidate();
  }

  /** A `presetsFired` record received at `t` (performance.now()): every preset whose rule fired. */
  addFiring(t, data) {
    const names = (list) => (Array.isArray(list) ? list.map(String) : []);
    this.firings.push({ t, load: names(data?.load), refresh: names(data?.refresh) });
    this.updateLabel();
    this.invalidate();
  }

  /** The firings within the window, for tests and the console. */
  visibleFirings(now = performance.now()) {
    return this.firings.filter((f) => f.t >= now - WINDOW_MS);
  }

  /** The disagreements within the window, for tests and the console. */
  visibleMarks(now = performance.now()) {
    return this.marks.filter((m) => m.t >= now - WINDOW_MS);
  }

  updateLabel() {
    const recent = this.visibleMarks();
    const last = recent[recent.length - 1];
    const fired = this.visibleFirings();
    const firings = `${fired.length} geometr${fired.length === 1 ? "y" : "ies"} where a rule fired`;
    const text = last
      ? `Compare lanes: ${firings} and ${recent.length} disagreement${recent.length === 1 ? "" : "s"} in the last 30 seconds; latest about ${last.about}: fires for ${last.yes.join(", ") || "none"}, not for ${last.no.join(", ") || "none"}`
      : `Compare lanes: ${firings} and no disagreements in the last 30 seconds`;
    this.canvas.setAttribute("aria-label", text);
  }

  invalidate() {
    if (!this.enabled) return;
    if (this.frameRequest === null) this.frameRequest = requestAnimationFrame((now) => this.draw(now));
  }

  draw(now) {
    this.frameRequest = null;
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.enabled) return;
    this.marks = this.marks.filter((m) => m.t >= now - WINDOW_MS - 5000);
    this.firings = this.firings.filter((f) => f.t >= now - WINDOW_MS - 5000);
    const ratio = window.devicePixelRatio || 1;
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    if (width === 0 || height === 0) return;
    if (this.canvas.width !== Math.round(width * ratio) || this.canvas.height !== Math.round(height * ratio)) {
      this.canvas.width = Math.round(width * ratio);
      this.canvas.height = Math.round(height * ratio);
    }
    const ctx = this.ctx;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const css = getComputedStyle(document.documentElement);
    const color = (name) => css.getPropertyValue(name).trim() || "#888";
    const plot = { x: PAD.left, y: PAD.top, w: width - PAD.left - PAD.right, h: height - PAD.top - PAD.bottom };
    const lanes = this.presets.length || 1;
    const laneH = plot.h / lanes;
    const xOf = (t) => plot.x + ((t - (now - WINDOW_MS)) / WINDOW_MS) * plot.w;

    ctx.font = "10.5px ui-monospace, monospace";
    ctx.textBaseline = "top";
    this.presets.forEach((name, i) => {
      const y = plot.y + i * laneH;
      ctx.fillStyle = i % 2 ? color("--panel") : color("--panel-2");
      ctx.fillRect(plot.x, y, plot.w, laneH);
      ctx.fillStyle = color("--muted");
      ctx.textAlign = "left";
      ctx.fillText(name, plot.x + 4, y + 2);
    });
    const radius = Math.min(4, laneH / 4);
    for (const firing of this.firings) {
      const x = xOf(firing.t);
      if (x < plot.x) continue;
      this.presets.forEach((name, i) => {
        const cy = plot.y + i * laneH + laneH * 0.62;
        const kinds = [[firing.load, "--load"], [firing.refresh, "--refresh"]];
        for (const [list, colour] of kinds) {
          if (!list.includes(name)) continue;
          ctx.beginPath();
          ctx.arc(x, cy, radius, 0, Math.PI * 2);
          ctx.fillStyle = color(colour);
          ctx.fill();
        }
      });
    }
    for (const mark of this.marks) {
      const x = xOf(mark.t);
      if (x < plot.x) continue;
      ctx.globalAlpha = 0.22;
      ctx.fillStyle = color("--disagree");
      ctx.fillRect(x - 2, plot.y, 4, plot.h);
      ctx.globalAlpha = 1;
      this.presets.forEach((name, i) => {
        const cy = plot.y + i * laneH + laneH * 0.62;
        const yes = mark.yes.includes(name);
        const no = mark.no.includes(name);
        if (!yes && !no) return;
        ctx.beginPath();
        ctx.arc(x, cy, Math.min(5, laneH / 3), 0, Math.PI * 2);
        if (yes) {
          ctx.fillStyle = color("--disagree");
          ctx.fill();
        } else {
          ctx.strokeStyle = color("--faint");
          ctx.lineWidth = 2;
          ctx.stroke();
        }
      });
    }
    this.updateLabel();
    if (this.marks.length > 0 || this.firings.length > 0) this.timer = setTimeout(() => this.invalidate(), IDLE_REDRAW_MS);
  }
}
