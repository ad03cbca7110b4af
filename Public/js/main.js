// Wires the page's parts together (parts.js builds them): the connection feeds the renderer, inspector, log
// and timeline; the geometry reporter and the controls feed the connection. No module decides a trigger.

import { byId } from "./dom.js";
import { Connection, defaultSocketURL } from "./connection.js";
import { GeometryReporter } from "./geometry.js";
import { buildParts } from "./parts.js";
import { ExportPanel } from "./export-panel.js";
import { PageLink } from "./links.js";
import { TabMemory } from "./tab-memory.js";
import { LiveFork } from "./live-fork.js";
import { UnloggedErrors } from "./unlogged-errors.js";
import { NarrowTabs } from "./narrow-tabs.js";
import { Stage } from "./stage.js";
import { installPageHooks } from "./page-hooks.js";

let config = {};
let state = null;
// What each preset has and does, by name (`welcome.presets`): the page decides from these, never from a
// preset's name.
let presets = new Map();
/** The description of a preset (the session's by default); `{}` before the welcome. */
function described(name = config.preset) {
  return presets.get(name) ?? {};
}
const events = []; // server event records this page received, newest last (for people and tests)
const MAX_EVENTS = 20000;
// Between a resuming welcome and its sessionResumed: the items that arrive are the session's own.
let resuming = false;
// Between pressing Reset and the new list's arrival.
let awaitingReset = false;
let resetTimer = null;
// A `scrollToItem` command whose item has not landed yet: the `replace` after it brings it.
let pendingJump = null;
// The reset a preset switch caused, noted in the log with the server's sessionReset.
let resetNote = null;

const { feed, inspector, log, timeline, lanes, traceView, frame } = buildParts();

feed.scale = () => frame.scale;
feed.describe = (name) => described(name);

const exportPanel = new ExportPanel();
const link = new PageLink();

const connection = new Connection({
  url: defaultSocketURL(),
  // `physics` as the link or this tab chose it; neither: the server's (`ios` unless `--physics browser`).
  helloFields: () => link.helloFields(memory.physics),
  lastRev: () => feed.rev ?? 0,
});

const reporter = new GeometryReporter({
  scroller: byId("feed"),
  content: byId("feed-content"),
  // No geometry before the first items are on screen: an empty feed is not a measurement of the
  // feed (its padding alone would look like "content shorter than the viewport").
  send: (message) =>
    feed.rev !== null && memory.restoring === null && !awaitingReset && fork.pending === null && connection.send(message),
  // `welcome` carries every setting, the preset's effective pull threshold among them, before any geometry.
  pullThreshold: () => Number(config.pullThreshold),
  scale: () => frame.scale,
  anchoredAtBottom: () => described().opensAtBottom === true,
  // What the user sees and which items they see it among: the server checks prepends against it.
  extras: () => {
    const anchor = memory.visibleAnchor();
    const extra = { rev: feed.rev ?? 0 };
    if (anchor) extra.anchor = { id: String(anchor.id).slice(0, 100), offset: Math.round(anchor.offset * 10) / 10 };
    return extra;
  },
});

const errors = new UnloggedErrors(log);
const tabs = new NarrowTabs({ timeline, lanes, frame, reporter });
const stage = new Stage({
  feed, frame, reporter, connection, inspector, config: () => config, state: () => state, described: () => described(),
  axis: () => axis, reset: () => resetFeed(),
});
const memory = new TabMemory({
  feed, frame, reporter, timeline, log, connection, events, axis: () => axis,
  setShortfall: (px) => setShortfall(px), setInset: (px) => setInset(px),
});

// ---------- server → page ----------

connection.addEventListener("welcome", ({ detail: { msg, resumed, reloaded, forked } }) => {
  resuming = resumed;
  if (!resumed) {
    feed.resetForNewSession();
    timeline.closeOpenSpans(performance.now());
    link.opened(msg, forked);
  }
  log.setSession(msg.session);
  log.setCatalog(msg.events);
  timeline.setCatalog(msg.events);
  // A welcome names a reason only when the session has no trace at all (docs/protocol.md).
  log.setTraceNote(typeof msg.recordingStopped === "string" ? msg.recordingStopped : null, msg.recordingStopped === undefined);
  inspector.setSession(msg.session);
  presets = new Map((Array.isArray(msg.presets) ? msg.presets : [])
    .filter((p) => p && typeof p === "object" && typeof p.name === "string").map((p) => [p.name, p]));
  inspector.setSettings(msg.settings);
  applyConfig(msg.config ?? {}, true);
  inspector.setPresets(msg.presets, config.preset);
  lanes.setPresets([...presets.values()]);
  traceView.setPresets((msg.presets ?? []).map((p) => (typeof p === "string" ? p : p?.name)), config.preset);
  const forkInset = forked ? fork.inset : null;
  if (forkInset !== null) {
    byId("inset-top").value = String(forkInset);
    setInset(forkInset);
  }
  if (reloaded) memory.restoreAfterReload(msg.session);
  reporter.resend();
  exportPanel.refresh(msg.session);
  const replaced = !resumed && !forked ? link.announce(msg.session) : null;
  if (replaced) {
    const { previous, back } = replaced;
    log.note("linkOpened", { session: msg.session, previousSession: previous.session, previousPreset: previous.preset ?? null },
      "note", null, { label: `Back to session ${previous.session}`, run: back });
  }
});

connection.addEventListener("message", ({ detail: msg }) => {
  switch (msg.type) {
    case "items": {
      // A prepend (or a trim at the top) is measured just before and just after, in this task: the server
      // checks the anchor held.
      const anchored = msg.op === "prepend" || (msg.op === "trim" && msg.edge === "top");
      if (anchored) reporter.reportNow();
      feed.applyItems(msg);
      if (anchored) reporter.reportNow();
      // A jump's window: the item goes to its anchor in the same task as it lands, before any frame.
      if (pendingJump && feed.scrollToItem(pendingJump.id, pendingJump.anchor)) {
        pendingJump = null;
        reporter.settle();
        if (msg.op === "replace") {
          awaitingReset = false;
          inspector.setRev(feed.rev ?? 0);
          inspector.setShownCount(feed.count);
          reporter.wake();
          break;
        }
      }
      // A new list in a running session (a reset) starts at the top, in the same task as it lands: no
      // frame may measure the old position against the new, shorter list. A resume's replace is the
      // same list again and keeps its place.
      if (msg.op === "replace" && fork.pending) {
        fork.place();
      } else if (msg.op === "replace" && !resuming) {
        // A feed that opens at the bottom (its `scrollToBottom` command follows): no frame may measure the top.
        if (described().opensAtBottom) reporter.scrollToBottom();
        else reporter.jumpToTop();
        awaitingReset = false;
        clearTimeout(resetTimer);
      }
      inspector.setRev(feed.rev ?? 0);
      inspector.setShownCount(feed.count);
      if (msg.op === "replace") stage.suggestJump();
      memory.restorePosition(false);
      break;
    }
    case "state":
      state = msg;
      // A trace that stopped still downloads (it ends at its last whole input).
      if (typeof msg.recordingStopped === "string" && !byId("log-trace").disabled) log.setTraceNote(msg.recordingStopped, true);
      feed.applyState(msg);
      stage.noteFeedLine(null);
      inspector.setState(msg);
      stage.updateButtons();
      stage.showWindow(msg);
      if (msg.preset && msg.preset !== config.preset) config = { ...config, preset: msg.preset };
      link.presetNow(connection.sessionId, config.preset);
      break;
    case "event":
      receiveEvent(msg);
      break;
    case "command":
      if (msg.name === "scrollToTop") reporter.scrollToTop();
      else if (msg.name === "scrollToBottom") reporter.scrollToBottom();
      else if (msg.name === "scrollToItem") {
        // Placed now when the list holds the item; the `replace` that follows places it again, measured.
        pendingJump = { id: String(msg.id), anchor: msg.anchor };
        stage.showJumpError(null);
        if (feed.scrollToItem(pendingJump.id, pendingJump.anchor)) reporter.settle();
        reporter.wake();
      }
      break;
    case "error":
      inspector.clearPending();
      if (!connection.ready && link.refused(msg)) connection.helloAgain();
      if (msg.code === "unknown_item") stage.showJumpError(msg.message ?? "no such item");
      if (typeof msg.field === "string") inspector.showFieldError(msg.field, msg.message ?? "not accepted");
      errors.note(msg);
      break;
    default:
  }
});

function receiveEvent(msg) {
  const { type: _type, ...record } = msg;
  if (record.name === "protocolError") errors.match(record);
  events.push(record);
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
  log.add(record, explain(record));
  const now = performance.now();
  timeline.addEvent(record.name, now);
  feed.applyEvent(record);
  if (record.name === "presetDisagreement") lanes.addDisagreement(now, record.data);
  if (record.name === "presetsFired") lanes.addFiring(now, record.data);
  if (record.name === "configChanged") {
    applyConfig(configFromEvent(record.data), false);
    exportPanel.refresh();
  }
  // Stamped with the reset's own time: the rows stay in the server's time order.
  if (record.name === "sessionReset" && resetNote) {
    if (resetNote.preset === config.preset) log.note("presetReset", resetNote, "note", record.time);
    resetNote = null;
  }
  if (record.name === "sessionResumed") {
    resuming = false;
    memory.restorePosition(true);
  }
  if (record.name === "feedExhausted" || record.name === "sessionReset") stage.updateButtons();
  tabs.noteLogRow();
}

// The offsets of recently sent geometries by seq, to tell a leftBottom the user caused from one the
// content caused (a page landed and pushed the end away while the offset stayed put).
const sentOffsets = new Map();
const SENT_OFFSETS_KEPT = 256;

/** A note for the log row when an event needs one to be read right. */
function explain(record) {
  const forkNote = fork.explain(record);
  if (forkNote) return forkNote;
  if (record.name !== "leftBottom" || typeof record.geometrySeq !== "number") return null;
  const now = sentOffsets.get(record.geometrySeq);
  const before = sentOffsets.get(record.geometrySeq - 1);
  if (now === undefined || before === undefined || now.offset !== before.offset || now.size === before.size) return null;
  return "content grew, the offset did not move";
}

/** The settings a `configChanged` event carries: `data.changed`, each key with its new value. */
function configFromEvent(data) {
  return data?.changed ?? {};
}

function applyConfig(partial, replace) {
  config = replace ? { ...partial } : { ...config, ...partial };
  // Before any item lands, so the chat's layout does not change under its first scroll to the bottom.
  byId("phone").classList.toggle("is-chat", described().opensAtBottom === true);
  inspector.setConfig(config);
  if (partial.axis) setAxis(partial.axis);
  else if (replace) setAxis("vertical");
  if ("physics" in partial || replace) {
    reporter.setPhysics(config.physics);
    frame.setPhysics(reporter.physics);
  }
  if ("contentSize" in partial || replace) feed.virtual.setLazy(config.contentSize === "lazyEstimate");
  if ("compare" in partial) lanes.setEnabled(Boolean(partial.compare));
  if ("maxItems" in partial) stage.suggestJump();
  timeline.setThresholds({
    pullThreshold: Number(config.pullThreshold),
    bottomThreshold: Number(config.bottomThreshold),
  });
  if ("preset" in partial) stage.updateButtons();
}

// ---------- continuing a trace live ----------

const fork = new LiveFork({ traceView, connection, frame, reporter, axis: () => axis });

// On a narrow screen the trace is on the State tab, under the HUD and the timeline: it is brought into view.
traceView.addEventListener("open", () => {
  if (tabs.shown && tabs.current !== "state") tabs.show("state");
  byId("trace-panel").scrollIntoView({ block: "nearest" });
});

// ---------- page → server ----------

reporter.addEventListener("geometry", ({ detail }) => {
  inspector.setGeometry(detail.geometry, detail.seq);
  stage.noteFeedLine(detail.geometry);
  if (detail.sent) {
    timeline.addSample(detail.at, detail.geometry);
    const g = detail.geometry;
    sentOffsets.set(detail.seq, {
      offset: `${g.contentOffset.x},${g.contentOffset.y}`,
      size: `${g.contentSize.width},${g.contentSize.height}`,
    });
    if (sentOffsets.size > SENT_OFFSETS_KEPT) sentOffsets.delete(sentOffsets.keys().next().value);
  }
});
reporter.addEventListener("pull", ({ detail: px }) => feed.setPull(px));

inspector.addEventListener("config", ({ detail }) => {
  if (!connection.send({ type: "config", ...detail })) {
    inspector.clearPending();
    return;
  }
  // The layout follows the axis at once; configChanged confirms it.
  if (detail.axis) setAxis(detail.axis);
  if (detail.physics) memory.physics = detail.physics;
  // A preset looks and behaves like itself only from its own opening (a chat at its newest items, a feed at
  // its first): switching between presets that open at different ends resets the feed, as Reset would, and
  // the log says why beside the server's sessionReset.
  const opensAtBottom = described(detail.preset).opensAtBottom === true;
  if (detail.preset && detail.preset !== config.preset && opensAtBottom !== (described().opensAtBottom === true) && resetFeed()) {
    resetNote = {
      preset: detail.preset,
      reason: opensAtBottom ? "opens at the bottom: the feed was reset to its newest items"
        : "opens at the top: the feed was reset to its first items",
    };
  }
});

inspector.addEventListener("inset", ({ detail: px }) => {
  setInset(px);
  memory.saveSettings();
});

inspector.addEventListener("shortfall", ({ detail: px }) => {
  setShortfall(px);
  memory.saveSettings();
});

/** The page stops `px` short of the content's end (the geometry's content is that much longer than it scrolls). */
function setShortfall(px) {
  reporter.endShortfall = px;
  byId("end-shortfall").value = String(px);
  reporter.wake();
}

function setInset(px) {
  reporter.setInsetTop(px);
  feed.setInsetTop(px);
  timeline.setInsetTop(px);
}

/** Asks the server for a new list; false when there is no connection to ask on. */
function resetFeed() {
  // Until the new list lands, a geometry would describe the list being replaced: the server, its rules
  // already reset, would judge the old bottom as a fresh reachedBottom. None is sent meanwhile.
  if (!connection.send({ type: "reset" })) return false;
  clearTimeout(resetTimer);
  awaitingReset = true;
  resetTimer = setTimeout(() => { awaitingReset = false; reporter.wake(); }, 3000);
  return true;
}

// ---------- the phone frame ----------

let axis = "vertical";

function setAxis(next) {
  const value = next === "horizontal" ? "horizontal" : "vertical";
  if (value === axis && feed.axis === value) return;
  axis = value;
  feed.setAxis(value);
  reporter.setAxis(value);
  timeline.setAxis(value);
  inspector.setAxis(value);
  frame.setAxis(value);
  byId("timeline-axis").textContent = `contentOffset.${value === "horizontal" ? "x" : "y"} · last 30 s`;
}

frame.addEventListener("change", () => {
  reporter.wake();
  memory.saveSettings();
});

memory.restoreSettings();

link.leaveOtherSession(connection);

// ---------- for people in the console, and for the browser tests ----------

installPageHooks({
  live: {
    get config() { return config; },
    described: () => described(),
    get state() { return state; },
    get status() { return stage.status; },
    get presets() { return presets; },
    get unloggedErrors() { return errors.count; },
    events,
    visibleAnchor: () => memory.visibleAnchor(),
    get restoring() { return memory.restoring; },
  },
  reporter, feed, log, connection, frame, timeline, lanes, traceView,
});

connection.start();
