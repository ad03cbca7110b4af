// The trace panel: open a trace (file picker or drop it anywhere on the page), see its whole offset
// curve with its decisions, scrub to any moment, and continue live from there under any preset.
// It draws and reports; main.js carries out the fork.

import { parseTrace, sampleAt } from "./trace-file.js";
import { logScale } from "./timeline.js";

const PAD = { left: 44, right: 10, top: 10, bottom: 20 };
const SHOWN_DECISIONS = 6;
const MARKED = new Set(["reachedBottom", "loadMoreStarted", "refreshStarted", "pullStarted", "refreshEligible", "scrollToTop", "loadMoreFailed", "refreshFailed"]);

const seconds = (ms) => `${(ms / 1000).toFixed(3)} s`;

/**
 * Events (EventTarget): `fork` (detail: {trace, name, at, preset}) when "Continue live from here" is pressed,
 * `open` once a trace is shown.
 */
export class TraceView extends EventTarget {
  constructor({ panel, openButton, fileInput, name, body, canvas, scrub, readout, decisions, note, preset, forkButton, closeButton, error }) {
    super();
    Object.assign(this, { panel, openButton, fileInput, nameLabel: name, body, canvas, scrub, readout, decisionList: decisions, note, preset, forkButton, closeButton, error });
    this.ctx = canvas.getContext("2d");
    this.trace = null;
    this.name = null;
    this.at = 0;
    openButton.addEventListener("click", () => fileInput.click());
    fileInput.addEventListener("change", () => {
      const file = fileInput.files?.[0];
      if (file) this.openFile(file);
      fileInput.value = "";
    });
    scrub.addEventListener("input", () => this.scrubTo(Number(scrub.value)));
    forkButton.addEventListener("click", () => {
      if (!this.trace) return;
      this.error.hidden = true;
      this.dispatchEvent(new CustomEvent("fork", { detail: { trace: this.trace, name: this.name, at: this.at, preset: preset.value } }));
    });
    closeButton.addEventListener("click", () => this.close());
    canvas.addEventListener("pointerdown", (event) => this.scrubFromPointer(event));
    canvas.addEventListener("pointermove", (event) => {
      if (event.buttons === 1) this.scrubFromPointer(event);
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
    this.installDrop();
  }

  /** Dropping a file anywhere on the page opens it. */
  installDrop() {
    let depth = 0;
    const hasFiles = (event) => Array.from(event.dataTransfer?.types ?? []).includes("Files");
    document.addEventListener("dragenter", (event) => {
      if (!hasFiles(event)) return;
      depth += 1;
      document.body.classList.add("is-dropping");
    });
    document.addEventListener("dragleave", () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) document.body.classList.remove("is-dropping");
    });
    document.addEventListener("dragover", (event) => {
      if (hasFiles(event)) event.preventDefault();
    });
    document.addEventListener("drop", (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      document.body.classList.remove("is-dropping");
      const file = event.dataTransfer.files[0];
      if (file) this.openFile(file);
    });
  }

  /** Sets the presets the server offers (from `welcome`). */
  setPresets(names, current) {
    const chosen = this.preset.value || current;
    this.preset.replaceChildren(...names.map((name) => new Option(name, name)));
    if (names.includes(chosen)) this.preset.value = chosen;
  }

  async openFile(file) {
    this.open(await file.text(), file.name);
  }

  /** Shows a trace's text; a trace that cannot be read shows why, by line, and nothing else changes. */
  open(text, name) {
    let trace;
    try {
      trace = parseTrace(text);
    } catch (error) {
      this.showError(`${name}: ${error.message}`);
      return false;
    }
    this.error.hidden = true;
    this.panel.hidden = false;
    this.trace = trace;
    this.name = name;
    const from = trace.header.recorder ? ` · recorded on ${trace.header.recorder.page}` : "";
    const fork = trace.header.fork ? ` · a fork of ${trace.header.fork.parent} at ${seconds(trace.header.fork.at - trace.start)}` : "";
    this.nameLabel.textContent = `${name} · ${trace.samples.length} geometries · ${trace.decisions.length} decisions${from}${fork}`;
    this.note.textContent = trace.decisions.length === 0
      ? "This trace holds no decisions (a recorder runs no logic): continue live, or run scroll-playground replay on it, to see them."
      : "";
    this.note.hidden = trace.decisions.length > 0;
    const preset = trace.header.config?.preset ?? trace.header.preset;
    const hello = trace.lines.find((line) => line.kind === "input" && line.message?.type === "hello");
    const helloPreset = hello?.message?.preset ?? hello?.message?.config?.preset;
    if (helloPreset || preset) this.preset.value = helloPreset ?? preset;
    this.scrub.min = String(trace.start);
    this.scrub.max = String(trace.end);
    this.scrub.step = "1";
    this.body.hidden = false;
    this.panel.classList.add("has-trace");
    this.scrubTo(trace.end);
    this.dispatchEvent(new CustomEvent("open"));
    return true;
  }

  /** Shows a message in the panel (a refused fork). */
  showError(text) {
    this.error.textContent = text;
    this.error.hidden = false;
    this.panel.hidden = false;
    if (!this.trace) this.nameLabel.textContent = "";
  }

  close() {
    this.trace = null;
    this.body.hidden = true;
    this.error.hidden = true;
    this.panel.hidden = true;
    this.panel.classList.remove("has-trace");
    this.openButton.focus();
  }

  scrubFromPointer(event) {
    if (!this.trace) return;
    const rect = this.canvas.getBoundingClientRect();
    const width = rect.width - PAD.left - PAD.right;
    const share = Math.min(1, Math.max(0, (event.clientX - rect.left - PAD.left) / width));
    this.scrubTo(Math.round(this.trace.start + share * (this.trace.end - this.trace.start)));
  }

  /** Moves the cursor to moment `t` (the trace's clock). */
  scrubTo(t) {
    const trace = this.trace;
    if (!trace) return;
    this.at = Math.min(trace.end, Math.max(trace.start, Math.round(t)));
    this.scrub.value = String(this.at);
    const sample = sampleAt(trace, this.at);
    const shown = trace.decisions.filter((d) => d.t <= this.at);
    const axis = trace.header.config?.axis === "horizontal" ? "x" : "y";
    const offset = sample ? `contentOffset.${axis} ${Math.round(sample.geometry.contentOffset[axis] * 10) / 10} · ${sample.geometry.phase}` : "before the first geometry";
    this.readout.textContent = `${seconds(this.at - trace.start)} of ${seconds(trace.end - trace.start)} · ${offset} · ${shown.length} of ${trace.decisions.length} decisions`;
    this.scrub.setAttribute("aria-valuetext", this.readout.textContent);
    this.decisionList.replaceChildren(...shown.slice(-SHOWN_DECISIONS).map((d) => {
      const item = document.createElement("li");
      const time = document.createElement("span");
      time.className = "trace-time";
      time.textContent = seconds(d.t - trace.start);
      const label = document.createElement("span");
      label.textContent = d.name + (d.geometrySeq !== undefined ? ` #${d.geometrySeq}` : "");
      item.append(time, label);
      return item;
    }));
    this.forkButton.disabled = !trace.lines.some((line) => line.kind === "input" && line.t <= this.at && line.message?.type === "hello");
    this.draw();
  }

  draw() {
    const trace = this.trace;
    const ratio = window.devicePixelRatio || 1;
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    if (!trace || width === 0 || height === 0) return;
    if (this.canvas.width !== Math.round(width * ratio)) this.canvas.width = Math.round(width * ratio);
    if (this.canvas.height !== Math.round(height * ratio)) this.canvas.height = Math.round(height * ratio);
    const ctx = this.ctx;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const css = getComputedStyle(document.documentElement);
    const color = (name) => css.getPropertyValue(name).trim() || "#888";
    const plot = { x: PAD.left, y: PAD.top, w: width - PAD.left - PAD.right, h: height - PAD.top - PAD.bottom };
    const duration = Math.max(1, trace.end - trace.start);
    const xOf = (t) => plot.x + ((t - trace.start) / duration) * plot.w;
    const horizontal = trace.header.config?.axis === "horizontal";
    const offsetOf = (s) => (horizontal ? s.geometry.contentOffset.x : s.geometry.contentOffset.y);
    let min = -80;
    let max = 100;
    for (const s of trace.samples) {
      min = Math.min(min, offsetOf(s));
      max = Math.max(max, offsetOf(s));
    }
    const zeroAt = plot.y + plot.h * 0.28;
    const span = logScale(max * 1.04);
    const yOf = (v) => (v < 0 ? zeroAt - (v / min) * (zeroAt - plot.y) : zeroAt + (logScale(v) / span) * (plot.y + plot.h - zeroAt));

    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    ctx.fillStyle = color("--faint");
    ctx.textAlign = "right";
    ctx.fillText("0", plot.x - 6, zeroAt);
    ctx.fillText(`${Math.round(min)}`, plot.x - 6, plot.y + 4);
    ctx.fillText(`${Math.round(max)}`, plot.x - 6, plot.y + plot.h - 4);
    ctx.textAlign = "center";
    ctx.fillText("0 s", plot.x + 10, plot.y + plot.h + 12);
    ctx.fillText(seconds(duration), plot.x + plot.w - 24, plot.y + plot.h + 12);
    ctx.strokeStyle = color("--line");
    ctx.beginPath();
    ctx.moveTo(plot.x, Math.round(zeroAt) + 0.5);
    ctx.lineTo(plot.x + plot.w, Math.round(zeroAt) + 0.5);
    ctx.stroke();

    // Loads and refreshes as spans, other decisions as ticks at the top.
    const open = {};
    for (const d of trace.decisions) {
      const kind = d.name.startsWith("loadMore") ? "load" : d.name.startsWith("refresh") ? "refresh" : null;
      if (d.name === "loadMoreStarted" || d.name === "refreshStarted") open[kind] = d.t;
      else if (kind && open[kind] !== undefined && /Finished|Failed|Cancelled/.test(d.name)) {
        ctx.globalAlpha = 0.14;
        ctx.fillStyle = color(d.name.endsWith("Failed") ? "--fail" : kind === "load" ? "--load" : "--refresh");
        ctx.fillRect(xOf(open[kind]), plot.y, Math.max(2, xOf(d.t) - xOf(open[kind])), plot.h);
        ctx.globalAlpha = 1;
        delete open[kind];
      }
      if (MARKED.has(d.name)) {
        ctx.fillStyle = color(d.name.startsWith("refresh") || d.name === "pullStarted" ? "--refresh" : d.name === "reachedBottom" ? "--violet" : "--load");
        ctx.fillRect(Math.round(xOf(d.t)) - 1, plot.y, 2, 8);
      }
    }

    ctx.strokeStyle = color("--accent");
    ctx.lineWidth = 2;
    ctx.beginPath();
    trace.samples.forEach((s, i) => {
      const x = xOf(s.t);
      const y = yOf(offsetOf(s));
      if (i === 0) ctx.moveTo(x, y);
      else {
        ctx.lineTo(x, yOf(offsetOf(trace.samples[i - 1])));
        ctx.lineTo(x, y);
      }
    });
    ctx.stroke();
    ctx.lineWidth = 1;

    // The cursor.
    const x = Math.round(xOf(this.at)) + 0.5;
    ctx.strokeStyle = color("--text");
    ctx.beginPath();
    ctx.moveTo(x, plot.y);
    ctx.lineTo(x, plot.y + plot.h);
    ctx.stroke();
  }
}
