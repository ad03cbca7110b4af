// The live event log: newest at the bottom, follows unless the user scrolls away,
// filters by event name and by the text a row shows (`json:` searches the raw records), pauses,
// exports the events as JSON lines. Each row opens to its full record. presetDisagreement rows stand out.
// The event kinds, their categories and meanings are the server's (`welcome.events`): colours and the
// name filter follow that catalog, never a list kept here.

import { clockTime, el } from "./dom.js";

const MAX_ROWS = 1500;
const MAX_KEPT = 20000;
const FOLLOW_SLACK_PX = 24;
const RAW_PREFIX = "json:";
const CATEGORY_PREFIX = "category:";

// How the name filter titles each category of the server's catalog (`welcome.events`); a category the
// page does not know yet shows under its own name.
const CATEGORY_LABELS = {
  load: "Load", refresh: "Refresh", topEdge: "Top edge", window: "Window/jump", chat: "Chat", anchor: "Anchor",
  session: "Session", protocol: "Protocol",
};

export class LogPanel {
  constructor({ scroll, list, empty, noMatch, count, nameFilter, textFilter, pause, exportButton, traceButton, traceNote, clear, follow, confirm, confirmText, confirmClear, confirmCancel }) {
    Object.assign(this, { scroll, list, empty, noMatch, count, nameFilter, textFilter, pause, exportButton, traceButton, traceNote, clear, follow, confirm, confirmText, confirmClear, confirmCancel });
    this.seqs = new Set(); // seq of every record held, so history fetched after a reload is not doubled
    this.notes = new WeakMap(); // record → the page's note for its row
    this.actions = new WeakMap(); // a page note's record → its row's button ({label, run})
    this.events = []; // every record received (for export), oldest first
    this.pending = []; // received while paused
    this.paused = false;
    this.following = true;
    this.unseen = 0;
    this.sessionId = "";
    this.lastTime = 0; // the latest time of a row shown (ms since 1970)
    this.knownNames = new Set();
    // The server's event catalog by name: {category, meaning, failure} (welcome.events).
    this.catalog = new Map();
    this.groups = new Map(); // category → its <optgroup> in the name filter

    this.nameFilter.addEventListener("change", () => this.applyFilters());
    this.textFilter.addEventListener("input", () => this.applyFilters());
    this.pause.addEventListener("click", () => this.setPaused(!this.paused));
    this.exportButton.addEventListener("click", () => this.exportJSONL());
    this.traceButton.addEventListener("click", () => this.downloadTrace());
    this.clear.addEventListener("click", () => this.askToClear());
    this.confirmClear.addEventListener("click", () => {
      this.confirm.hidden = true;
      this.clearAll();
      this.clear.focus();
    });
    this.confirmCancel.addEventListener("click", () => {
      this.confirm.hidden = true;
      this.clear.focus();
    });
    this.list.addEventListener("toggle", (event) => this.onToggle(event), true);
    this.follow.addEventListener("click", () => {
      this.following = true;
      this.scrollToEnd();
    });
    this.scroll.addEventListener("scroll", () => {
      const gap = this.scroll.scrollHeight - this.scroll.scrollTop - this.scroll.clientHeight;
      this.following = gap <= FOLLOW_SLACK_PX;
      if (this.following) this.unseen = 0;
      this.updateFollowButton();
    }, { passive: true });
  }

  setSession(id) {
    this.sessionId = id;
  }

  /**
   * The server's event catalog (`welcome.events`): every kind it logs with its category and meaning. The
   * name filter offers every kind, grouped by category, each category also as a whole.
   */
  setCatalog(events) {
    const list = Array.isArray(events) ? events.filter((e) => e && typeof e.name === "string") : [];
    if (list.length === 0) return;
    this.catalog = new Map(list.map((e) => [e.name, {
      category: typeof e.category === "string" ? e.category : "session",
      meaning: typeof e.meaning === "string" ? e.meaning : "",
      failure: e.failure === true,
    }]));
    const chosen = this.nameFilter.value;
    for (const group of this.groups.values()) group.remove();
    this.groups.clear();
    this.knownNames.clear();
    for (const name of this.catalog.keys()) this.addNameOption(name);
    // Names received that the catalog does not list (an older server's history) keep their option.
    for (const record of this.events) this.addNameOption(String(record.name ?? ""));
    this.nameFilter.value = chosen;
    if (this.nameFilter.value !== chosen) this.nameFilter.value = "";
  }

  /** The category of an event name, from the catalog; `other` for a name it does not list. */
  categoryOf(name) {
    return this.catalog.get(name)?.category ?? "other";
  }

  /** A server event record, with an optional note the page adds to its row (never to the export). */
  add(record, note = null) {
    if (note) this.notes.set(record, note);
    if (typeof record.seq === "number") {
      if (this.seqs.has(record.seq)) return;
      this.seqs.add(record.seq);
    }
    if (record.name) this.addNameOption(String(record.name));
    this.events.push(record);
    if (this.events.length > MAX_KEPT) this.events.splice(0, this.events.length - MAX_KEPT);
    if (this.paused) {
      this.pending.push(record);
      this.updatePauseLabel();
      this.updateCount();
      return;
    }
    this.appendRows([record]);
  }

  /**
   * Records that happened before this page was loaded (the session's log after a reload): placed
   * before everything received live, in `seq` order, without doubling any.
   */
  addHistory(records) {
    const fresh = records.filter((r) => typeof r.seq === "number" && !this.seqs.has(r.seq)).sort((a, b) => a.seq - b.seq);
    if (fresh.length === 0) return;
    for (const record of fresh) {
      this.seqs.add(record.seq);
      if (record.name) this.addNameOption(String(record.name));
    }
    this.events = [...fresh, ...this.events];
    if (this.events.length > MAX_KEPT) this.events.splice(0, this.events.length - MAX_KEPT);
    const fragment = document.createDocumentFragment();
    for (const record of fresh.slice(-MAX_ROWS)) {
      const row = this.renderRow(record);
      if (!this.matches(row)) row.hidden = true;
      fragment.append(row);
    }
    this.list.prepend(fragment);
    while (this.list.children.length > MAX_ROWS) this.list.firstElementChild.remove();
    this.empty.hidden = this.list.children.length > 0;
    if (this.following) this.scrollToEnd();
    this.updateCount();
  }

  /**
   * Something the page itself noticed (an `error` message, a connection change): shown, not exported.
   * `category` `note` is for what the page did on purpose rather than a problem.
   */
  note(name, data, category = "client", time = null, action = null) {
    // At `time` (a server record's, ISO 8601), else now by the page's clock, which may run behind the
    // server's: never earlier than the row it follows.
    const at = Math.max(Date.parse(time ?? "") || Date.now(), this.lastTime);
    const record = { seq: null, time: new Date(at).toISOString(), name, data, client: true, category };
    // `action` ({label, run}): a button on the row (the way back to a session a link replaced).
    if (action) this.actions.set(record, action);
    if (this.paused) {
      this.pending.push(record);
      return;
    }
    this.appendRows([record]);
  }

  appendRows(records) {
    const fragment = document.createDocumentFragment();
    let visibleAdded = 0;
    for (const record of records) {
      const at = Date.parse(record.time);
      if (at > this.lastTime) this.lastTime = at;
      const row = this.renderRow(record);
      if (!this.matches(row)) row.hidden = true;
      else visibleAdded += 1;
      fragment.append(row);
    }
    this.list.append(fragment);
    while (this.list.children.length > MAX_ROWS) this.list.firstElementChild.remove();
    this.empty.hidden = this.list.children.length > 0;
    if (this.following) this.scrollToEnd();
    else this.unseen += visibleAdded;
    this.updateFollowButton();
    this.updateCount();
  }

  /** A row: a summary that opens (click, Enter or Space) to the full record, pretty-printed. */
  renderRow(record) {
    const name = String(record.name ?? "?");
    const entry = record.client ? null : this.catalog.get(name);
    const category = record.client ? (record.category ?? "client") : this.categoryOf(name);
    const row = el("li", `log-row cat-${category}`);
    if (entry?.failure) row.classList.add("is-failure");
    if (name === "presetDisagreement") row.classList.add("is-disagreement");
    row.dataset.name = name;
    row.dataset.category = category;
    const time = record.time ? new Date(record.time) : new Date();
    const details = el("details");
    const summary = el("summary", "log-summary");
    summary.append(
      el("span", "log-time", Number.isNaN(time.getTime()) ? String(record.time) : clockTime(time)),
      el("span", "log-name", name),
      el("span", "log-data", summarize(record)),
    );
    if (entry?.meaning) summary.children[1].title = entry.meaning;
    const note = this.notes.get(record);
    if (note) summary.lastElementChild.append(el("span", "log-note", ` · ${note}`));
    details.append(summary);
    details.record = record;
    row.append(details);
    const action = this.actions.get(record);
    if (action) {
      const button = el("button", "btn btn-small log-action", action.label);
      button.type = "button";
      button.addEventListener("click", action.run);
      row.append(button);
    }
    // What the row shows is what the filter searches; `json:` reaches the raw record.
    row.dataset.text = summary.textContent.toLowerCase();
    row.dataset.raw = JSON.stringify(record).toLowerCase();
    return row;
  }

  /** The full record is rendered when a row is first opened (most rows never are). */
  onToggle(event) {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.open || details.querySelector(".log-json")) return;
    details.append(el("pre", "log-json", JSON.stringify(details.record, null, 2)));
  }

  addNameOption(name) {
    if (!name || this.knownNames.has(name)) return;
    this.knownNames.add(name);
    const option = el("option", "", name);
    option.value = name;
    const entry = this.catalog.get(name);
    if (entry?.meaning) option.title = entry.meaning;
    this.groupFor(entry?.category ?? "other").append(option);
  }

  /** The filter's group of a category, made on first use with an option for the whole category. */
  groupFor(category) {
    let group = this.groups.get(category);
    if (group) return group;
    group = el("optgroup");
    group.label = CATEGORY_LABELS[category] ?? category;
    group.dataset.category = category;
    const all = el("option", "", `All ${group.label.toLowerCase()}`);
    all.value = `${CATEGORY_PREFIX}${category}`;
    group.append(all);
    this.groups.set(category, group);
    this.nameFilter.append(group);
    return group;
  }

  matches(row) {
    const name = this.nameFilter.value;
    const text = this.textFilter.value.trim().toLowerCase();
    if (name.startsWith(CATEGORY_PREFIX)) {
      if (row.dataset.category !== name.slice(CATEGORY_PREFIX.length)) return false;
    } else if (name && row.dataset.name !== name) return false;
    if (!text) return true;
    if (text.startsWith(RAW_PREFIX)) return row.dataset.raw.includes(text.slice(RAW_PREFIX.length).trim());
    return row.dataset.text.includes(text);
  }

  applyFilters() {
    for (const row of this.list.children) row.hidden = !this.matches(row);
    this.following = true;
    this.scrollToEnd();
    this.updateCount();
  }

  setPaused(paused) {
    this.paused = paused;
    this.pause.setAttribute("aria-pressed", String(paused));
    if (!paused && this.pending.length > 0) {
      const records = this.pending;
      this.pending = [];
      this.appendRows(records);
    }
    this.updatePauseLabel();
  }

  updatePauseLabel() {
    this.pause.textContent = this.paused ? `Resume${this.pending.length ? ` (${this.pending.length})` : ""}` : "Pause";
  }

  scrollToEnd() {
    this.scroll.scrollTop = this.scroll.scrollHeight;
    this.unseen = 0;
    this.updateFollowButton();
  }

  updateFollowButton() {
    this.follow.hidden = this.following;
    this.follow.textContent = this.unseen > 0 ? `↓ ${this.unseen} new` : "↓ Follow latest";
  }

  updateCount() {
    const total = this.events.length;
    const shown = Array.from(this.list.children).filter((row) => !row.hidden).length;
    const filtered = this.nameFilter.value || this.textFilter.value.trim();
    this.count.textContent = `${total} event${total === 1 ? "" : "s"}${filtered ? ` · ${shown} shown` : ""}${this.paused ? " · paused" : ""}`;
    this.noMatch.hidden = !(filtered && shown === 0 && this.list.children.length > 0);
  }

  /** Clearing also empties Export events: ask first, in the panel (a dialog would block the page). */
  askToClear() {
    if (this.events.length === 0 && this.list.children.length === 0) return;
    const n = this.events.length;
    this.confirmText.textContent = `Clear ${n} event${n === 1 ? "" : "s"}? Export events will be empty too (the trace keeps everything).`;
    this.confirm.hidden = false;
    this.confirmCancel.focus();
  }

  clearAll() {
    this.events = [];
    this.pending = [];
    this.list.replaceChildren();
    this.empty.hidden = false;
    this.updatePauseLabel();
    this.updateCount();
  }

  /** Downloads every received event record as JSON lines. */
  exportJSONL() {
    const text = this.events.map((record) => JSON.stringify(record)).join("\n") + (this.events.length ? "\n" : "");
    saveFile(new Blob([text], { type: "application/x-ndjson" }), `scroll-playground-${this.sessionId || "session"}-events.jsonl`);
  }

  /**
   * Why the session's trace is missing or incomplete, beside Download trace (the server's words); null: it
   * records. Without a trace (`available` false: no --log-dir, a full log folder) the button is off.
   */
  setTraceNote(reason, available) {
    this.traceNote.textContent = reason ?? "";
    this.traceNote.hidden = !reason;
    this.traceButton.disabled = !available;
  }

  /** Downloads the session's trace from the server (recorded with --log-dir), ready for `replay`. */
  async downloadTrace() {
    if (!this.sessionId) return;
    try {
      const response = await fetch(`/api/sessions/${encodeURIComponent(this.sessionId)}/trace`);
      if (!response.ok) {
        const problem = await response.json().catch(() => ({}));
        this.note("traceUnavailable", { reason: problem.error || `HTTP ${response.status}` });
        return;
      }
      saveFile(await response.blob(), `scroll-playground-${this.sessionId}.jsonl`);
    } catch (error) {
      this.note("traceUnavailable", { reason: String(error) });
    }
  }
}

/** A number as a row shows it: two decimals at most (the record keeps the exact value). */
function rounded(value) {
  return typeof value === "number" && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value;
}

function summarize(record) {
  const parts = [];
  if (record.geometrySeq !== undefined && record.geometrySeq !== null) parts.push(`g#${record.geometrySeq}`);
  const data = record.data;
  if (data && typeof data === "object") {
    for (const [key, value] of Object.entries(data)) {
      parts.push(`${key}=${typeof value === "object" && value !== null ? JSON.stringify(value, (_, v) => rounded(v)) : rounded(value)}`);
    }
  } else if (data !== undefined) {
    parts.push(String(data));
  }
  return parts.join("  ");
}

function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}
