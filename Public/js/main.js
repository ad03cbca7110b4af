// Wires the modules together: the connection feeds the renderer, inspector, log and timeline;
// the geometry reporter and the controls feed the connection. No module decides a trigger.

import { byId } from "./dom.js";
import { Connection, defaultSocketURL } from "./connection.js";
import { GeometryReporter } from "./geometry.js";
import { FeedRenderer } from "./feed.js";
import { Inspector } from "./inspector.js";
import { LogPanel } from "./log-panel.js";
import { Timeline } from "./timeline.js";

const DEFAULT_PULL_THRESHOLD = 68;
const STRIP_HEIGHT_PX = 260;

let config = {};
let state = null;
const events = []; // server event records this page received, newest last (for people and tests)
const MAX_EVENTS = 20000;
let status = "connecting";

const feed = new FeedRenderer({
  phone: byId("phone"),
  scroller: byId("feed"),
  content: byId("feed-content"),
  list: byId("items"),
  insetSpacer: byId("feed-inset"),
  insetHeader: byId("inset-header"),
  topIndicator: byId("top-indicator"),
  topScale: byId("top-scale"),
  topRing: byId("top-ring"),
  bottomIndicator: byId("bottom-indicator"),
  endOfFeed: byId("end-of-feed"),
  endText: byId("end-of-feed-text"),
  newItems: byId("new-items"),
});

const inspector = new Inspector({
  hud: byId("hud"),
  session: byId("hud-session"),
  presets: byId("presets"),
  presetsEmpty: byId("presets-empty"),
  form: byId("controls"),
  brand: byId("brand-preset"),
});

const log = new LogPanel({
  scroll: byId("log-scroll"),
  list: byId("log-list"),
  empty: byId("log-empty"),
  count: byId("log-count"),
  nameFilter: byId("log-name"),
  textFilter: byId("log-text"),
  pause: byId("log-pause"),
  exportButton: byId("log-export"),
  traceButton: byId("log-trace"),
  clear: byId("log-clear"),
  follow: byId("log-follow"),
});

const timeline = new Timeline(byId("timeline"));

const params = new URLSearchParams(location.search);
const connection = new Connection({
  url: defaultSocketURL(),
  helloFields: () => (params.get("preset") ? { preset: params.get("preset") } : {}),
  lastRev: () => feed.rev ?? 0,
});

const reporter = new GeometryReporter({
  scroller: byId("feed"),
  content: byId("feed-content"),
  // No geometry before the first items are on screen: an empty feed is not a measurement of the
  // feed (its padding alone would look like "content shorter than the viewport").
  send: (message) => feed.rev !== null && connection.send(message),
  pullThreshold: () => Number(config.pullThreshold) || DEFAULT_PULL_THRESHOLD,
});

// ---------- server → page ----------

connection.addEventListener("welcome", ({ detail: { msg, resumed } }) => {
  if (!resumed) {
    feed.resetForNewSession();
    timeline.closeOpenSpans(performance.now());
  }
  log.setSession(msg.session);
  inspector.setSession(msg.session);
  applyConfig(msg.config ?? {}, true);
  inspector.setPresets(msg.presets, config.preset);
  reporter.resend();
});

connection.addEventListener("message", ({ detail: msg }) => {
  switch (msg.type) {
    case "items":
      feed.applyItems(msg);
      inspector.setRev(feed.rev ?? 0);
      inspector.setShownCount(feed.list.children.length);
      break;
    case "state":
      state = msg;
      feed.applyState(msg);
      inspector.setState(msg);
      if (msg.preset && msg.preset !== config.preset) config = { ...config, preset: msg.preset };
      break;
    case "event":
      receiveEvent(msg);
      break;
    case "command":
      if (msg.name === "scrollToTop") reporter.scrollToTop();
      break;
    case "error":
      inspector.clearPending();
      log.note("error", { code: msg.code, message: msg.message, ...(msg.ref !== undefined ? { ref: msg.ref } : {}) });
      break;
    default:
  }
});

function receiveEvent(msg) {
  const { type: _type, ...record } = msg;
  events.push(record);
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
  log.add(record);
  timeline.addEvent(record.name, performance.now());
  if (record.name === "configChanged") applyConfig(configFromEvent(record.data), false);
}

/** The config values a `configChanged` event carries, whatever shape its data has. */
function configFromEvent(data) {
  if (!data || typeof data !== "object") return {};
  const found = {};
  for (const source of [data, data.changed, data.changes, data.config]) {
    if (!source || typeof source !== "object" || Array.isArray(source)) continue;
    for (const [key, value] of Object.entries(source)) {
      // Accept {"key": value} and {"key": {"from": old, "to": new}} alike.
      if (value && typeof value === "object" && "to" in value) found[key] = value.to;
      else if (value === null || typeof value !== "object") found[key] = value;
    }
  }
  return found;
}

function applyConfig(partial, replace) {
  config = replace ? { ...partial } : { ...config, ...partial };
  inspector.setConfig(config);
  if (partial.axis) setAxis(partial.axis);
  else if (replace) setAxis("vertical");
  timeline.setThresholds({
    pullThreshold: Number(config.pullThreshold),
    bottomThreshold: Number(config.bottomThreshold),
  });
}

connection.addEventListener("status", ({ detail }) => {
  status = detail.status;
  const pill = byId("conn-pill");
  pill.dataset.status = detail.status;
  const labels = { connecting: "Connecting…", open: "Connected", reconnecting: "Reconnecting…", closed: "Offline" };
  pill.textContent = labels[detail.status] ?? detail.status;
  const detailText = byId("conn-detail");
  if (detail.status === "reconnecting" && detail.retryInMs !== null) {
    detailText.textContent = `attempt ${detail.attempt} in ${(detail.retryInMs / 1000).toFixed(1)} s · will resume`;
  } else if (detail.status === "open") {
    detailText.textContent = "";
  }
});

connection.addEventListener("rtt", ({ detail: ms }) => {
  inspector.setRtt(ms);
  byId("conn-detail").textContent = `${ms.toFixed(1)} ms round trip`;
});

// ---------- page → server ----------

reporter.addEventListener("geometry", ({ detail }) => {
  inspector.setGeometry(detail.geometry, detail.seq);
  if (detail.sent) timeline.addSample(detail.at, detail.geometry);
});
reporter.addEventListener("pull", ({ detail: px }) => feed.setPull(px));

inspector.addEventListener("config", ({ detail }) => {
  if (!connection.send({ type: "config", ...detail })) {
    inspector.clearPending();
    return;
  }
  // The layout follows the axis at once; configChanged confirms it.
  if (detail.axis) setAxis(detail.axis);
});

inspector.addEventListener("inset", ({ detail: px }) => {
  reporter.setInsetTop(px);
  feed.setInsetTop(px);
  timeline.setInsetTop(px);
});

byId("btn-refresh").addEventListener("click", () => connection.send({ type: "refresh" }));
byId("btn-load-more").addEventListener("click", () => connection.send({ type: "loadMore" }));
byId("btn-reset").addEventListener("click", () => connection.send({ type: "reset" }));
byId("conn-drop").addEventListener("click", () => connection.drop());

// ---------- the phone frame ----------

const phone = byId("phone");
const frameSelect = byId("frame-size");
let axis = "vertical";

function setAxis(next) {
  const value = next === "horizontal" ? "horizontal" : "vertical";
  if (value === axis && feed.axis === value) return;
  axis = value;
  feed.setAxis(value);
  reporter.setAxis(value);
  timeline.setAxis(value);
  inspector.setAxis(value);
  byId("timeline-axis").textContent = `contentOffset.${value === "horizontal" ? "x" : "y"} · last 30 s`;
  applyFrameSize();
}

function applyFrameSize() {
  const [w, h] = frameSelect.value.split("x").map(Number);
  // The resize handle writes width/height on the element; a chosen size starts from scratch.
  phone.style.width = "";
  phone.style.height = "";
  phone.style.setProperty("--frame-w", `${w}px`);
  phone.style.setProperty("--frame-h", `${axis === "horizontal" ? STRIP_HEIGHT_PX : h}px`);
}
frameSelect.addEventListener("change", applyFrameSize);
applyFrameSize();

const readout = byId("frame-readout");
new ResizeObserver(() => {
  readout.textContent = `${Math.round(phone.offsetWidth)} × ${Math.round(phone.offsetHeight)}`;
}).observe(phone);

// ---------- for people in the console, and for the browser tests ----------

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

window.playground = Object.freeze({
  get config() { return { ...config }; },
  get state() { return state; },
  get geometry() { return reporter.lastGeometry; },
  get rev() { return feed.rev; },
  get status() { return status; },
  get session() { return connection.sessionId; },
  get events() { return events.slice(); },
  itemIds: () => feed.itemIds(),
  eventCount: (name) => events.filter((e) => e.name === name).length,
  /** Resolves once every geometry measured so far has reached the server and it answered a ping. */
  async sync() {
    await nextFrame();
    await nextFrame();
    return connection.ping();
  },
  drop: () => connection.drop(),
});

connection.start();
