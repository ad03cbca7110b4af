// The inspector: a HUD of the live geometry and state, the preset picker and the settings form.
// Settings go to the server as `config` messages; the HUD shows only what was measured or received. The
// settings form is made from `welcome.settings`, the settings as the server describes them (name, kind,
// range, default, unit, meaning): the page keeps no list of its own.

import { el, num } from "./dom.js";

const HUD_FIELDS = [
  ["offset", "contentOffset"],
  ["content", "contentSize"],
  ["container", "containerSize"],
  ["insets", "insets t l b r", "contentInsets top, leading, bottom, trailing"],
  ["phase", "phase", "ScrollPhase sent with the geometry"],
  ["toBottom", "to bottom", "distanceToBottom = contentSize + inset − (offset + container)"],
  ["reachedBottom", "reachedBottom"],
  ["pullDistance", "pull", "pull.distance from the server"],
  ["pullProgress", "progress", "pull.progress from the server"],
  ["armed", "armed", "pull.eligible: a release now starts a refresh"],
  ["refreshing", "refreshing"],
  ["loading", "loading", "loadingNextPage"],
  ["hasMore", "hasMore"],
  ["itemCount", "items", "itemCount from the server / rows shown"],
  ["rev", "rev", "rev of the last items message applied"],
  ["seqAck", "seq / ack", "last geometry seq sent / last seq the server acknowledged"],
  ["rtt", "round trip", "ping → pong"],
  ["origin", "origin", "origin = −contentOffset, published under offsetObserving"],
  ["preset", "preset"],
  ["compare", "compare", "compare mode: every preset's detection runs on the same geometry"],
];

/**
 * Events (EventTarget): `config` (detail: partial config to send), `inset` (detail: px, client-side),
 * `preset` (detail: name).
 */
export class Inspector extends EventTarget {
  constructor({ hud, session, presets, presetsEmpty, form, brand }) {
    super();
    this.hud = hud;
    this.session = session;
    this.presetsBox = presets;
    this.presetsEmpty = presetsEmpty;
    this.form = form;
    this.brand = brand;
    this.cells = new Map();
    this.flags = new Map();
    this.axis = "vertical";
    this.geometry = null;
    this.state = null;
    this.shownCount = 0;
    this.settingNames = []; // the settings the form edits, as `welcome.settings` names them
    this.settingsKey = "";
    this.buildHud();
    this.form.addEventListener("change", (event) => this.onFormChange(event));
    this.compareSlot = document.getElementById("presets-compare");
    this.compareSlot?.addEventListener("change", (event) => this.onFormChange(event));
    this.form.addEventListener("submit", (event) => event.preventDefault());
  }

  buildHud() {
    for (const [key, label, hint] of HUD_FIELDS) {
      const cell = el("div", "hud-cell");
      const value = el("dd", "", "—");
      value.dataset.key = key;
      const term = el("dt", "", label);
      term.title = hint ?? label;
      cell.append(term, value);
      this.hud.append(cell);
      this.cells.set(key, value);
    }
  }

  set(key, text, title) {
    const cell = this.cells.get(key);
    if (!cell) return;
    if (cell.textContent !== text) cell.textContent = text;
    if (title !== undefined) cell.title = title;
  }

  setFlag(key, on, { busy = false, label } = {}) {
    const cell = this.cells.get(key);
    if (!cell) return;
    const stateKey = `${on}|${busy}|${label}`;
    if (this.flags.get(key) === stateKey) return;
    this.flags.set(key, stateKey);
    const flag = el("span", `flag ${on ? (busy ? "flag-busy" : "flag-on") : "flag-off"}`, label ?? (on ? "yes" : "no"));
    cell.replaceChildren(flag);
  }

  /** The geometry just measured (and sent, when connected). */
  setGeometry(geometry, seq) {
    this.geometry = geometry;
    const o = geometry.contentOffset;
    const c = geometry.contentSize;
    const v = geometry.containerSize;
    const i = geometry.contentInsets;
    this.set("offset", `${num(o.x)}, ${num(o.y)}`);
    this.set("content", `${num(c.width)} × ${num(c.height)}`);
    this.set("container", `${num(v.width)} × ${num(v.height)}`);
    this.set("insets", `${num(i.top)} ${num(i.leading)} ${num(i.bottom)} ${num(i.trailing)}`);
    this.set("phase", geometry.phase);
    const horizontal = this.axis === "horizontal";
    const toBottom = horizontal
      ? c.width + i.trailing - (o.x + v.width)
      : c.height + i.bottom - (o.y + v.height);
    this.set("toBottom", `${num(toBottom)} px`);
    this.seq = seq;
    this.updateSeqAck();
    if (this.state?.refreshing) this.updatePull();
  }

  /**
   * The pull cells. During a refresh the rules ignore (and so freeze) the pull, and the server's
   * `pull` still holds the gesture that started it: the HUD then shows the pull the page measures now.
   */
  updatePull() {
    const state = this.state;
    if (!state) return;
    if (state.refreshing) {
      const g = this.geometry;
      const horizontal = this.axis === "horizontal";
      const live = g ? Math.max(0, -(horizontal ? g.contentOffset.x + g.contentInsets.leading : g.contentOffset.y + g.contentInsets.top)) : 0;
      this.set("pullDistance", `${num(live)} px`, "the pull measured now; the rules ignore it while refreshing");
      this.set("pullProgress", "—", "no pull counts while refreshing");
      this.setFlag("armed", false, { label: "no · refreshing" });
      return;
    }
    const pull = state.pull ?? {};
    this.set("pullDistance", `${num(pull.distance)} px`, "pull.distance from the server");
    this.set("pullProgress", `${num((Number(pull.progress) || 0) * 100, 0)} %`, "pull.progress from the server");
    this.setFlag("armed", Boolean(pull.eligible));
  }

  /** A `state` message from the server. */
  setState(state) {
    this.state = state;
    this.setFlag("reachedBottom", Boolean(state.reachedBottom));
    this.updatePull();
    this.setFlag("refreshing", Boolean(state.refreshing), { busy: true });
    this.setFlag("loading", Boolean(state.loadingNextPage), { busy: true });
    this.setFlag("hasMore", state.hasMore !== false);
    this.updateCount();
    this.set("origin", state.origin ? `${num(state.origin.x)}, ${num(state.origin.y)}` : "—");
    if (state.preset) this.set("preset", state.preset);
    this.updateSeqAck();
    if (state.preset) this.selectPreset(state.preset);
  }

  setShownCount(count) {
    this.shownCount = count;
    this.updateCount();
  }

  updateCount() {
    const server = this.state?.itemCount;
    this.set("itemCount", `${server ?? "—"} / ${this.shownCount}`);
  }

  updateSeqAck() {
    this.set("seqAck", `${this.seq ?? 0} / ${this.state?.ack ?? "—"}`);
  }

  setRev(rev) {
    this.set("rev", String(rev));
  }

  setRtt(ms) {
    this.set("rtt", ms === null ? "—" : `${num(ms, 1)} ms`);
  }

  setSession(id) {
    this.session.textContent = id ? `session ${id}` : "";
  }

  setAxis(axis) {
    this.axis = axis;
  }

  // ---------- presets ----------

  /** Renders the presets `welcome` describes: `name`, `design` and `rule` of each (main.js reads the rest). */
  setPresets(presets, current) {
    const list = presets ?? [];
    this.presetsEmpty.hidden = list.length > 0;
    for (const node of this.presetsBox.querySelectorAll(".preset-option")) node.remove();
    for (const preset of list) {
      const option = el("label", "preset-option");
      option.dataset.preset = preset.name;
      const input = el("input");
      input.type = "radio";
      input.name = "preset";
      input.value = preset.name;
      input.addEventListener("change", () => {
        if (input.checked) this.dispatchEvent(new CustomEvent("config", { detail: { preset: preset.name } }));
      });
      const { design, rule } = preset;
      // One line: which design it reproduces, then its rule (the chosen preset shows it whole).
      const line = el("span", "preset-line");
      if (design) line.append(el("span", "preset-design", design));
      if (design && rule) line.append(" — ");
      if (rule) line.append(rule);
      option.append(input, el("span", "preset-name", preset.name), line);
      option.title = [design, rule].filter(Boolean).join(" — ");
      this.presetsBox.append(option);
    }
    if (current) this.selectPreset(current);
  }

  selectPreset(name) {
    this.brand.textContent = name;
    this.set("preset", name);
    for (const input of this.presetsBox.querySelectorAll("input[name=preset]")) {
      input.checked = input.value === name;
    }
  }

  // ---------- settings ----------

  /**
   * Builds the settings form from `welcome.settings`: one field per setting, in the server's order, in the
   * fieldset of its role (`rule`, `feed`, `page`); the preset has its own panel. Built again only when the
   * list changes, so a reconnect keeps what is being edited.
   */
  setSettings(settings) {
    const list = (Array.isArray(settings) ? settings : [])
      .filter((s) => s && typeof s === "object" && typeof s.name === "string" && s.name !== "preset");
    const key = JSON.stringify(list);
    if (key === this.settingsKey) return;
    this.settingsKey = key;
    for (const node of this.form.querySelectorAll(".setting-field")) node.remove();
    this.compareSlot?.replaceChildren();
    this.settingNames = [];
    for (const setting of list) {
      const field = settingField(setting);
      this.settingNames.push(setting.name);
      // Compare mode is about the presets, not a setting of this one: its switch sits under them, still
      // one of the form's fields (`form=`), its changes handled as theirs.
      if (setting.name === "compare" && this.compareSlot) {
        field.querySelector("input").setAttribute("form", this.form.id);
        this.compareSlot.replaceChildren(field);
        continue;
      }
      const box = this.form.querySelector(`#settings-${setting.role}`) ?? this.form.querySelector("#settings-page");
      box.hidden = false;
      box.append(field);
    }
    const empty = this.form.querySelector("#controls-empty");
    if (empty) empty.hidden = list.length > 0;
  }

  /** Fills the form from a (partial) config the server reported; fields being edited are left alone. */
  setConfig(config) {
    if (!config) return;
    for (const key of this.settingNames) {
      if (!(key in config)) continue;
      const input = this.form.elements.namedItem(key);
      if (!input) continue;
      input.closest(".field")?.classList.remove("is-pending");
      this.clearFieldError(key);
      if (document.activeElement === input) continue;
      if (input.type === "checkbox") input.checked = Boolean(config[key]);
      else input.value = String(config[key]);
    }
    if (config.axis) this.axis = config.axis;
    if (config.preset) this.selectPreset(config.preset);
    if ("compare" in config) this.setFlag("compare", Boolean(config.compare), { label: config.compare ? "on" : "off" });
  }

  /** A config the server refused or an error arrived: nothing is pending any more. */
  clearPending() {
    for (const field of this.form.querySelectorAll(".is-pending")) field.classList.remove("is-pending");
  }

  /** The server refused a setting: its message beside the field, which is marked invalid. */
  showFieldError(name, message) {
    const input = this.form.elements.namedItem(name);
    if (!input || !(input instanceof HTMLElement)) return false;
    const field = input.closest(".field") ?? input.parentElement;
    let note = field.querySelector(".field-error");
    if (!note) {
      note = el("span", "field-error");
      note.id = `error-${name}`;
      field.append(note);
    }
    note.textContent = message;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", note.id);
    return true;
  }

  clearFieldError(name) {
    const input = this.form.elements.namedItem(name);
    if (!input || !(input instanceof HTMLElement) || input.getAttribute("aria-invalid") !== "true") return;
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    input.closest(".field")?.querySelector(".field-error")?.remove();
  }

  onFormChange(event) {
    const input = event.target;
    if (!input.name || input.name === "preset") return;
    if (input.name === "contentInsetTop") {
      this.dispatchEvent(new CustomEvent("inset", { detail: Math.max(0, Number(input.value) || 0) }));
      return;
    }
    if (input.name === "endShortfall") {
      this.dispatchEvent(new CustomEvent("shortfall", { detail: Math.min(5, Math.max(0, Number(input.value) || 0)) }));
      return;
    }
    let value;
    // Whatever was typed goes to the server, which is the one that validates: its refusal shows
    // beside the field instead of the field silently keeping a value nobody applied.
    if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") {
      if (input.value.trim() === "") {
        this.showFieldError(input.name, "enter a number");
        return;
      }
      value = Number(input.value);
    } else value = input.value;
    this.clearFieldError(input.name);
    input.closest(".field")?.classList.add("is-pending");
    this.dispatchEvent(new CustomEvent("config", { detail: { [input.name]: value } }));
  }
}

/** "bottomThreshold" → "Bottom threshold"; a trailing unit word (Ms) is left to the unit. */
function settingLabel(name) {
  const words = name.replace(/Ms$/, "").replace(/([A-Z])/g, " $1").toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One setting's field, from its description: a number input, a select or a checkbox. */
function settingField(setting) {
  const meaning = typeof setting.meaning === "string" ? setting.meaning : "";
  if (setting.kind === "toggle") {
    const label = el("label", "toggle setting-field");
    const input = el("input");
    input.type = "checkbox";
    input.name = setting.name;
    label.append(input, el("span", "", `${settingLabel(setting.name)} — ${meaning}`));
    return label;
  }
  const label = el("label", "field setting-field");
  label.title = meaning;
  const caption = el("span", "", settingLabel(setting.name));
  const notes = [setting.unit, setting.default === null ? "preset's by default" : ""].filter(Boolean).join(", ");
  if (notes) caption.append(" ", el("small", "", notes));
  let input;
  if (setting.kind === "choice") {
    input = el("select");
    for (const name of Array.isArray(setting.choices) ? setting.choices : []) input.append(new Option(String(name), String(name)));
  } else {
    input = el("input");
    input.type = "number";
    if (Number.isFinite(setting.min)) input.min = String(setting.min);
    if (Number.isFinite(setting.max)) input.max = String(setting.max);
    input.step = setting.kind === "integer" ? "1" : "any";
  }
  input.name = setting.name;
  label.append(caption, input);
  return label;
}
