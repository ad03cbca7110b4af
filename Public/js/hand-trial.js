// "Try this hand under…": the opened trace's hand on the server's simulated page under another preset or
// settings, its loads and refreshes beside the recorded ones, and the settings to take away.
// The server runs it (a `tryHand` message after the trace in `forkTrace` pieces, on a connection of its own).

import { SUBPROTOCOL } from "./connection.js";
import { tracePieces } from "./trace-file.js";

/** How long a trial may take before the page gives up, ms. */
const TIMEOUT_MS = 20_000;

export class HandTrial {
  /**
   * @param {object} parts The panel's elements: `form`, `preset`, `settings`, `run`, `status`, `rows`,
   *   `recorded`, `simulated`, `summary`, `exportLink`, `swiftLink`, and `presetSource` (the trace's own preset list).
   * @param {() => {trace, name} | null} current The opened trace.
   * @param {string} url The WebSocket URL.
   */
  constructor(parts, current, url) {
    Object.assign(this, parts);
    this.current = current;
    this.url = url;
    this.socket = null;
    new MutationObserver(() => this.copyPresets()).observe(this.presetSource, { childList: true });
    this.copyPresets();
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.start();
    });
  }

  /** The presets the trace panel offers, with "as recorded" first. */
  copyPresets() {
    const chosen = this.preset.value;
    this.preset.replaceChildren(new Option("as recorded", ""));
    for (const option of this.presetSource.options) {
      if (option.value) this.preset.append(new Option(option.textContent, option.value));
    }
    this.preset.value = [...this.preset.options].some((o) => o.value === chosen) ? chosen : "";
  }

  /** `KEY=VALUE` pairs separated by spaces or commas. */
  static settings(text) {
    const settings = {};
    for (const pair of text.split(/[\s,]+/).filter(Boolean)) {
      const at = pair.indexOf("=");
      if (at <= 0) throw new Error(`"${pair}" is not KEY=VALUE`);
      settings[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return settings;
  }

  start() {
    const opened = this.current();
    if (!opened) return;
    let settings;
    try {
      settings = HandTrial.settings(this.settings.value);
    } catch (error) {
      this.show(error.message, true);
      return;
    }
    this.socket?.close();
    const request = { type: "tryHand", settings };
    if (this.preset.value) request.preset = this.preset.value;
    this.show("Simulating…");
    this.run.disabled = true;
    const socket = new WebSocket(this.url, SUBPROTOCOL);
    this.socket = socket;
    const timer = setTimeout(() => finish("The server took too long."), TIMEOUT_MS);
    const finish = (message) => {
      clearTimeout(timer);
      if (this.socket === socket) this.socket = null;
      this.run.disabled = false;
      socket.close();
      if (message) this.show(message, true);
    };
    socket.addEventListener("open", () => {
      for (const text of tracePieces(opened.trace)) socket.send(JSON.stringify({ type: "forkTrace", text }));
      socket.send(JSON.stringify(request));
    });
    socket.addEventListener("message", ({ data }) => {
      let message;
      try {
        message = JSON.parse(data);
      } catch {
        return;
      }
      if (message.type === "handResult") {
        finish(null);
        this.render(message, opened);
      } else if (message.type === "error") {
        finish(`The server refused it: ${message.message}`);
      }
    });
    socket.addEventListener("error", () => finish("No connection to the server."));
  }

  show(text, isError = false) {
    this.status.textContent = text;
    this.status.classList.toggle("hand-error", isError);
    this.status.hidden = !text;
  }

  render(result, opened) {
    const row = (list, into) => {
      into.replaceChildren(
        ...list.map((d) => {
          const item = document.createElement("li");
          const what = d.name === "refreshStarted" ? "refresh" : d.name === "loadPreviousStarted" ? "previous" : "load";
          item.textContent = `${what}${d.page !== undefined ? ` ${d.page}` : ""} · ${(d.t / 1000).toFixed(2)} s`;
          item.dataset.name = d.name;
          return item;
        }),
      );
      if (list.length === 0) into.append(Object.assign(document.createElement("li"), { textContent: "none", className: "muted" }));
    };
    row(result.recorded, this.recorded);
    row(result.simulated, this.simulated);
    this.rows.hidden = false;
    const r = result.report;
    // Only what differs from the recording, each `name=value` as a link or `--set` spells it.
    const changed = Object.keys(result.settings ?? {}).filter((k) => k !== "preset");
    const preset = result.preset === result.recordedPreset ? `${result.preset} (as recorded)` : result.preset;
    this.summary.textContent =
      `${preset}${changed.length ? ` with ${changed.map((k) => `${k}=${String(result.settings[k])}`).join(" ")}` : ""}: ` +
      `${result.same ? "the same loads and refreshes as recorded" : "other loads or refreshes than recorded"} · ` +
      `stall ${r.stallTotalMs} ms (p95 ${r.stallP95Ms} ms) · ${r.started} load(s) · ${r.pulls} pull(s)`;
    const name = opened.name.replace(/\.jsonl?$/, "");
    // The same settings the Swift has (the preset and all that differ from its defaults, the recording's
    // own latencies included), as data.
    const settings = result.export && typeof result.export === "object" ? result.export : { preset: result.preset, ...result.settings };
    offer(this.exportLink, JSON.stringify(settings, null, 2) + "\n", "application/json", `${name}-settings.json`);
    // The same settings as the app takes them: the `FeedSettings` that `scroll-playground export` writes.
    if (typeof result.swift === "string") offer(this.swiftLink, result.swift, "text/x-swift", `${name}-settings.swift`);
    this.show("");
  }
}

/** Makes `link` download `text` as `file`, freeing what it offered before. */
function offer(link, text, type, file) {
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = file;
  link.hidden = false;
}
