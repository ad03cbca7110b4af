// Wires the modules together: the connection feeds the renderer, inspector, log and timeline;
// the geometry reporter and the controls feed the connection. No module decides a trigger.

import { byId, num } from "./dom.js";
import { Connection, SESSION_KEY, defaultSocketURL, readStorage, writeStorage } from "./connection.js";
import { GeometryReporter } from "./geometry.js";
import { FeedRenderer } from "./feed.js";
import { Inspector } from "./inspector.js";
import { LogPanel } from "./log-panel.js";
import { Timeline } from "./timeline.js";
import { CompareLanes } from "./lanes.js";
import { FRAME_EDGE_PX, PhoneFrame, railBeside } from "./frame.js";
import { TraceView } from "./trace-view.js";
import { forkPieces, sampleAt } from "./trace-file.js";
import { ExportPanel } from "./export-panel.js";
import { LinkNotice } from "./link-notice.js";
import { SectionBar } from "./section-bar.js";
import { HandTrial } from "./hand-trial.js";
import { installPageHooks } from "./page-hooks.js";

const CLIENT_KEY = "scroll-playground.client"; // page-only settings and the scroll position, this tab
const HISTORY_LIMIT = 10000;

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
let status = "connecting";
// After a reload: the scroll position to restore once the session's items are back. No geometry is
// sent meanwhile, or the server would judge the half-restored list.
let restoring = null;
// Between a resuming welcome and its sessionResumed: the items that arrive are the session's own.
let resuming = false;
// Between pressing Reset and the new list's arrival.
let awaitingReset = false;
let resetTimer = null;
// Between pressing "Continue live from here" and the fork's list landing: where to put the feed.
let forking = null;
// A `scrollToItem` command whose item has not landed yet: the `replace` after it brings it.
let pendingJump = null;
// The reset a preset switch caused, noted in the log with the server's sessionReset.
let resetNote = null;

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
  previousIndicator: byId("previous-indicator"),
  previousFailed: byId("previous-failed"),
  previousFailedText: byId("previous-failed-text"),
  previousRetry: byId("previous-retry"),
  endOfFeed: byId("end-of-feed"),
  endText: byId("end-of-feed-text"),
  newItems: byId("new-items"),
  newMessages: byId("new-messages"),
  loadFailed: byId("load-failed"),
  loadFailedText: byId("load-failed-text"),
  retryButton: byId("load-retry"),
  refreshFailed: byId("refresh-failed"),
  announcer: byId("feed-announcer"),
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
  noMatch: byId("log-nomatch"),
  count: byId("log-count"),
  nameFilter: byId("log-name"),
  textFilter: byId("log-text"),
  pause: byId("log-pause"),
  exportButton: byId("log-export"),
  traceButton: byId("log-trace"),
  traceNote: byId("log-trace-note"),
  clear: byId("log-clear"),
  follow: byId("log-follow"),
  confirm: byId("log-confirm"),
  confirmText: byId("log-confirm-text"),
  confirmClear: byId("log-confirm-clear"),
  confirmCancel: byId("log-confirm-cancel"),
});

const timeline = new Timeline(byId("timeline"));
new SectionBar(byId("section-bar"));
const lanes = new CompareLanes(byId("lanes"), byId("lanes-wrap"));
const traceView = new TraceView({
  panel: byId("trace-panel"),
  openButton: byId("trace-open"),
  fileInput: byId("trace-file"),
  name: byId("trace-name"),
  body: byId("trace-body"),
  canvas: byId("trace-plot"),
  scrub: byId("trace-scrub"),
  readout: byId("trace-readout"),
  decisions: byId("trace-decisions"),
  note: byId("trace-note"),
  preset: byId("trace-preset"),
  forkButton: byId("trace-fork"),
  closeButton: byId("trace-close"),
  error: byId("trace-error"),
});

new HandTrial(
  {
    form: byId("hand-trial"),
    preset: byId("hand-preset"),
    presetSource: byId("trace-preset"),
    settings: byId("hand-settings"),
    run: byId("hand-run"),
    status: byId("hand-status"),
    rows: byId("hand-rows"),
    recorded: byId("hand-recorded"),
    simulated: byId("hand-simulated"),
    summary: byId("hand-summary"),
    exportLink: byId("hand-export"),
    swiftLink: byId("hand-export-swift"),
  },
  () => (traceView.trace ? { trace: traceView.trace, name: traceView.name ?? "trace" } : null),
  defaultSocketURL(),
);

const frame = new PhoneFrame({
  stage: byId("stage"),
  slot: byId("phone-slot"),
  phone: byId("phone"),
  select: byId("frame-size"),
  customOption: byId("frame-custom"),
  readout: byId("frame-readout"),
  handle: byId("frame-handle"),
  group: byId("frame-group"),
  stageHome: document.querySelector(".stage-top"),
  narrowHome: byId("device-slot"),
  // What must stay on screen with the phone: the bars above, and on a phone the line above the feed and the
  // buttons under it (on a wide screen they are beside it).
  fixedParts: () => {
    const px = (element, property) => parseFloat(getComputedStyle(element)[property]) || 0;
    const stage = byId("stage");
    const layout = document.querySelector(".layout");
    const beside = railBeside(stage);
    const around = beside ? [] : [document.querySelector(".stage-top"), document.querySelector(".stage-bottom")];
    const gaps = around.length > 0 ? 2 * px(stage, "rowGap") : 0;
    const spacing = px(stage, "paddingTop") + px(stage, "paddingBottom") + px(stage, "borderTopWidth") + px(stage, "borderBottomWidth")
      + px(layout, "paddingTop") + px(layout, "paddingBottom") + gaps + 4;
    return [document.querySelector(".topbar"), byId("link-notice"), ...around, { offsetHeight: spacing }];
  },
});

feed.scale = () => frame.scale;
feed.describe = (name) => described(name);

// A link's settings (`?preset=chat&bottomThreshold=1500`, as `export --format url` writes them) open the
// session; one the server refuses is shown at the top of the page and left out of the next hello.
const linkSettings = {};
const linkText = {}; // each setting as the link spelled it, for the notice of a refused one
for (const [name, text] of new URLSearchParams(location.search)) {
  linkSettings[name] = linkValue(text);
  linkText[name] = text;
}
const exportPanel = new ExportPanel();
const linkNotice = new LinkNotice();

// Which link each session of this tab was opened with (`{session, link, preset}`): a reload of that link
// resumes the session; another link with settings opens a new session with them (docs/decisions.md, issue 40).
const LINK_KEY = "scroll-playground.link";
const linkQuery = canonicalQuery(location.search);
// The session this tab had when a new link replaced it (`{session, resume, link, preset}`), for the way back.
let previousSession = null;

/** A query as a link's identity: its names and values, in order of name (an empty query: ""). */
function canonicalQuery(search) {
  const pairs = [...new URLSearchParams(search)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(pairs).toString();
}

/** Goes back to the session a link replaced: its link in the address bar, and a reload resumes it. */
function backToPreviousSession() {
  if (!previousSession) return;
  const { session, resume, link, preset } = previousSession;
  writeStorage(SESSION_KEY, { session, resume });
  writeStorage(LINK_KEY, { session, link, preset });
  location.assign(`${location.pathname}${link ? `?${link}` : ""}`);
}

/** Notes the session's preset beside its link, for the way back to it. */
function rememberLink() {
  const opened = readStorage(LINK_KEY);
  if (opened?.session === connection.sessionId && opened.preset !== config.preset) writeStorage(LINK_KEY, { ...opened, preset: config.preset });
}

/** A link's text as the command line reads it (ScrollConfig.apply(name:text:)): number, boolean or text. */
function linkValue(text) {
  if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  return text === "true" || text === "false" ? text === "true" : text;
}

const connection = new Connection({
  url: defaultSocketURL(),
  // `physics` as the link or this tab chose it; neither: the server's (`ios` unless `--physics browser`).
  helloFields: () => {
    const { preset, ...settings } = linkSettings;
    const chosen = readStorage(CLIENT_KEY)?.physics;
    const physics = settings.physics === undefined && (chosen === "ios" || chosen === "browser") ? { physics: chosen } : {};
    return { ...(preset !== undefined ? { preset: String(preset) } : {}), config: { ...physics, ...settings } };
  },
  lastRev: () => feed.rev ?? 0,
});

const reporter = new GeometryReporter({
  scroller: byId("feed"),
  content: byId("feed-content"),
  // No geometry before the first items are on screen: an empty feed is not a measurement of the
  // feed (its padding alone would look like "content shorter than the viewport").
  send: (message) =>
    feed.rev !== null && restoring === null && !awaitingReset && forking === null && connection.send(message),
  // `welcome` carries every setting, the preset's effective pull threshold among them, before any geometry.
  pullThreshold: () => Number(config.pullThreshold),
  scale: () => frame.scale,
  anchoredAtBottom: () => described().opensAtBottom === true,
  // What the user sees and which items they see it among: the server checks prepends against it.
  extras: () => {
    const anchor = visibleAnchor();
    const extra = { rev: feed.rev ?? 0 };
    if (anchor) extra.anchor = { id: String(anchor.id).slice(0, 100), offset: Math.round(anchor.offset * 10) / 10 };
    return extra;
  },
});

// ---------- server → page ----------

connection.addEventListener("welcome", ({ detail: { msg, resumed, reloaded, forked } }) => {
  resuming = resumed;
  if (!resumed) {
    feed.resetForNewSession();
    timeline.closeOpenSpans(performance.now());
    // A fork is the trace's session, not the link's: the address bar drops the link, so a reload resumes it.
    if (forked && location.search) history.replaceState(null, "", location.pathname);
    writeStorage(LINK_KEY, { session: msg.session, link: forked ? "" : linkQuery, preset: msg.config?.preset });
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
  if (forked && forking?.geometry) {
    const insets = forking.geometry.contentInsets ?? {};
    const inset = Number(axis === "horizontal" ? insets.leading : insets.top) || 0;
    byId("inset-top").value = String(inset);
    setInset(inset);
  }
  if (reloaded) restoreAfterReload(msg.session);
  reporter.resend();
  exportPanel.refresh(msg.session);
  if (previousSession && !resumed && !forked) {
    linkNotice.openedNewSession(msg.session, previousSession, backToPreviousSession);
    log.note("linkOpened", { session: msg.session, previousSession: previousSession.session, previousPreset: previousSession.preset ?? null },
      "note", null, { label: `Back to session ${previousSession.session}`, run: backToPreviousSession });
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
      if (msg.op === "replace" && forking) {
        placeAtFork();
      } else if (msg.op === "replace" && !resuming) {
        // A feed that opens at the bottom (its `scrollToBottom` command follows): no frame may measure the top.
        if (described().opensAtBottom) reporter.scrollToBottom();
        else reporter.jumpToTop();
        awaitingReset = false;
        clearTimeout(resetTimer);
      }
      inspector.setRev(feed.rev ?? 0);
      inspector.setShownCount(feed.count);
      if (msg.op === "replace") suggestJump();
      if (restoring) restorePosition(false);
      break;
    }
    case "state":
      state = msg;
      // A trace that stopped still downloads (it ends at its last whole input).
      if (typeof msg.recordingStopped === "string" && !byId("log-trace").disabled) log.setTraceNote(msg.recordingStopped, true);
      feed.applyState(msg);
      noteFeedLine(null);
      inspector.setState(msg);
      updateButtons();
      showWindow(msg);
      if (msg.preset && msg.preset !== config.preset) config = { ...config, preset: msg.preset };
      rememberLink();
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
        byId("jump-error").hidden = true;
        if (feed.scrollToItem(pendingJump.id, pendingJump.anchor)) reporter.settle();
        reporter.wake();
      }
      break;
    case "error":
      inspector.clearPending();
      // A refused first hello opened no session: the link's settings are what it refused.
      if (!connection.ready && msg.code === "bad_message" && Object.keys(linkSettings).length > 0) {
        const field = typeof msg.field === "string" ? msg.field : "setting";
        linkNotice.add(field, linkText[field], msg.message ?? "not accepted");
        if (Object.hasOwn(linkSettings, field)) delete linkSettings[field];
        else for (const name of Object.keys(linkSettings)) delete linkSettings[name];
        connection.helloAgain();
      }
      if (msg.code === "unknown_item") {
        byId("jump-error").textContent = msg.message ?? "no such item";
        byId("jump-error").hidden = false;
      }
      if (typeof msg.field === "string") inspector.showFieldError(msg.field, msg.message ?? "not accepted");
      noteError(msg);
      break;
    default:
  }
});

// A refusal comes as an `error` reply and then a `protocolError` event saying the same: the event is the
// row (in the server's time order). Only an error no event follows gets a row of its own.
const unloggedErrors = [];
const ERROR_EVENT_WAIT_MS = 1000;

function noteError(msg) {
  const entry = { code: msg.code, message: msg.message, ...(msg.ref !== undefined ? { ref: msg.ref } : {}), ...(msg.field ? { field: msg.field } : {}) };
  unloggedErrors.push(entry);
  entry.timer = setTimeout(() => {
    unloggedErrors.splice(unloggedErrors.indexOf(entry), 1);
    delete entry.timer;
    log.note("error", entry);
  }, ERROR_EVENT_WAIT_MS);
}

function matchError(record) {
  const index = unloggedErrors.findIndex((e) => e.code === record.data?.code && e.message === record.data?.message);
  if (index === -1) return;
  clearTimeout(unloggedErrors[index].timer);
  unloggedErrors.splice(index, 1);
}

function receiveEvent(msg) {
  const { type: _type, ...record } = msg;
  if (record.name === "protocolError") matchError(record);
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
    if (restoring) restorePosition(true);
  }
  if (record.name === "feedExhausted" || record.name === "sessionReset") updateButtons();
  noteUnseenLog();
}

// The offsets of recently sent geometries by seq, to tell a leftBottom the user caused from one the
// content caused (a page landed and pushed the end away while the offset stayed put).
const sentOffsets = new Map();
const SENT_OFFSETS_KEPT = 256;

// The last fork asked for: its row says where in the parent it continues, on the viewer's clock.
let lastFork = null;

/** A note for the log row when an event needs one to be read right. */
function explain(record) {
  if (record.name === "sessionForked" && lastFork && record.data?.at === lastFork.at) {
    return `continues ${lastFork.name} from ${((lastFork.at - lastFork.start) / 1000).toFixed(3)} s`;
  }
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
  if ("maxItems" in partial) suggestJump();
  timeline.setThresholds({
    pullThreshold: Number(config.pullThreshold),
    bottomThreshold: Number(config.bottomThreshold),
  });
  if ("preset" in partial) updateButtons();
}

/**
 * The Jump box suggests an item the feed has: three quarters down a synthetic feed of `maxItems`
 * (item-1500 in an endless one), or the last item held when the items come from a file.
 */
function suggestJump() {
  const ids = feed.itemIds();
  if (ids.length === 0) return;
  const synthetic = /^item-\d+$/.test(ids[0]) || /^item-\d+$/.test(ids[ids.length - 1]);
  const max = Number(config.maxItems);
  const suggestion = !synthetic ? ids[ids.length - 1] : `item-${max > 0 ? Math.max(1, Math.round(max * 0.75)) : 1500}`;
  byId("jump-id").placeholder = suggestion.slice(0, 100);
}

/** A bounded window's range under the feed: which of the session's items the page holds. */
function showWindow(msg) {
  const readout = byId("window-readout");
  const range = msg.window ?? null;
  feed.setWindowStart(range?.start ?? 0);
  if (readout.hidden !== (range === null)) {
    readout.hidden = range === null;
    frame.layout();
  }
  if (!range) return;
  const format = (n) => Number(n).toLocaleString("en-US");
  const text = range.count === 0
    ? `Window empty · ${format(msg.itemCount)} items held`
    : `Window: items ${format(range.start + 1)}–${format(range.start + range.count)} of ${format(msg.itemCount)}`
      + (range.limit > 0 ? ` · at most ${format(range.limit)} in the page` : " · unbounded");
  if (readout.textContent !== text) readout.textContent = text;
}

/** Buttons that can do nothing now are disabled (the server would only log why it ignored them). */
const PULL_HINT = byId("pull-hint").textContent;

function updateButtons() {
  if (!state) return;
  byId("btn-load-more").disabled = state.hasMore === false || Boolean(state.loadingNextPage);
  // A preset without a pull rule has no refresh to offer (the server would run one the design never could).
  const pulls = described().rules?.includes("pull") !== false;
  const refresh = byId("btn-refresh");
  refresh.disabled = Boolean(state.refreshing) || !pulls;
  refresh.title = pulls ? "" : `${config.preset} has no pull-to-refresh`;
  // The hint says what this preset does at the top: no pull where there is no refresh to pull for.
  const hint = byId("pull-hint");
  const text = pulls ? PULL_HINT : `${config.preset} has no pull-to-refresh: scroll to the end to load more`;
  if (hint.textContent !== text) hint.textContent = text;
  const topEdge = state.topEdge ?? null;
  byId("btn-load-previous").hidden = topEdge === null;
  byId("btn-load-previous").disabled = !topEdge?.hasPrevious || Boolean(topEdge?.loadingPreviousPage);
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

// ---------- continuing a trace live ----------

// On a narrow screen the trace is on the State tab, under the HUD and the timeline: it is brought into view.
traceView.addEventListener("open", () => {
  if (byId("tabs").offsetParent !== null && tab !== "state") showTab("state");
  byId("trace-panel").scrollIntoView({ block: "nearest" });
});

traceView.addEventListener("fork", ({ detail: { trace, name, at, preset } }) => {
  const sample = sampleAt(trace, at);
  forking = { geometry: sample?.geometry ?? null, seq: sample?.seq ?? 0 };
  // The fork continues in the recording's frame: its position means what it meant only at its containerSize.
  const container = sample?.geometry?.containerSize;
  if (container && Number.isFinite(container.width) && Number.isFinite(container.height)) {
    const edge = 2 * FRAME_EDGE_PX;
    frame.setSize(container.width + edge, axis === "horizontal" ? frame.size.h : container.height + edge, { exact: true });
  }
  lastFork = { name, at, start: trace.start };
  connection.fork({ pieces: forkPieces(trace, at), fork: { parent: name, at }, config: preset ? { preset } : {} });
});

connection.addEventListener("forkfailed", ({ detail }) => {
  forking = null;
  traceView.showError(`The server refused the fork: ${detail.message}`);
  reporter.wake();
});

/** The fork's items have landed: the feed goes to the moment's position, and geometry continues its seq. */
function placeAtFork() {
  const g = forking.geometry;
  const scroller = byId("feed");
  if (g) {
    const horizontal = axis === "horizontal";
    const inset = Number(horizontal ? g.contentInsets?.leading : g.contentInsets?.top) || 0;
    const offset = horizontal ? g.contentOffset.x : g.contentOffset.y;
    // A pull is not a scroll position: a fork in the middle of one starts at the top.
    if (horizontal) scroller.scrollLeft = Math.max(0, offset + inset);
    else scroller.scrollTop = Math.max(0, offset + inset);
  }
  reporter.settle();
  reporter.seq = Math.max(reporter.seq, forking.seq);
  forking = null;
  reporter.resend();
}

// ---------- page → server ----------

reporter.addEventListener("geometry", ({ detail }) => {
  inspector.setGeometry(detail.geometry, detail.seq);
  noteFeedLine(detail.geometry);
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
  // How this tab scrolls is the person's choice: the next session (a reload, a new tab's link aside) keeps it.
  if (detail.physics) writeStorage(CLIENT_KEY, { ...(readStorage(CLIENT_KEY) ?? {}), physics: detail.physics });
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
  saveClientSettings();
});

inspector.addEventListener("shortfall", ({ detail: px }) => {
  setShortfall(px);
  saveClientSettings();
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

byId("btn-refresh").addEventListener("click", () => connection.send({ type: "refresh" }));
byId("btn-load-more").addEventListener("click", () => connection.send({ type: "loadMore" }));
byId("btn-reset").addEventListener("click", () => resetFeed());

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
byId("load-retry").addEventListener("click", () => connection.send({ type: "loadMore" }));
byId("btn-load-previous").addEventListener("click", () => connection.send({ type: "loadPrevious" }));
byId("previous-retry").addEventListener("click", () => connection.send({ type: "loadPrevious" }));
byId("refresh-retry").addEventListener("click", () => connection.send({ type: "refresh" }));
byId("conn-drop").addEventListener("click", () => connection.drop());
byId("jump-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = byId("jump-id").value.trim();
  if (!id) return;
  byId("jump-error").hidden = true;
  connection.send({ type: "jump", id, anchor: byId("jump-anchor").value });
});

// A keyboard path past the feed: the skip link and Control+End land on the buttons after it.
function focusAfterFeed() {
  const target = byId("stage-actions").querySelector("button:not(:disabled)") ?? byId("stage-actions");
  target.focus();
}
byId("skip-feed").addEventListener("click", (event) => {
  event.preventDefault();
  focusAfterFeed();
});
feed.addEventListener("leave", ({ detail }) => {
  if (detail === "after") focusAfterFeed();
  // Before the feed: the frame's choice, or on a phone (where that is in Settings) the feed's tab.
  else if (byId("frame-size").offsetParent !== null) byId("frame-size").focus();
  else document.querySelector(".tab[data-tab=feed]").focus();
});

// ---------- the line above the feed: the pull hint, then the live readout ----------

let untouched = true;

/** Hides the hint once the feed has moved; on a narrow screen the line then shows the state in brief. */
function noteFeedLine(geometry) {
  const g = geometry ?? reporter.lastGeometry;
  if (!g) return;
  const horizontal = axis === "horizontal";
  const offset = horizontal ? g.contentOffset.x + g.contentInsets.leading : g.contentOffset.y + g.contentInsets.top;
  if (untouched && (offset !== 0 || g.phase !== "idle" || state?.refreshing)) {
    untouched = false;
    byId("pull-hint").hidden = true;
    byId("live-readout").hidden = false;
  }
  if (untouched) return;
  const toBottom = horizontal
    ? g.contentSize.width + g.contentInsets.trailing - (g.contentOffset.x + g.containerSize.width)
    : g.contentSize.height + g.contentInsets.bottom - (g.contentOffset.y + g.containerSize.height);
  const busy = state?.refreshing ? " · refreshing" : state?.loadingNextPage ? " · loading" : "";
  const text = `${horizontal ? "x" : "y"} ${num(horizontal ? g.contentOffset.x : g.contentOffset.y)} · to bottom ${num(toBottom)}`
    + ` · pull ${num(state?.pull?.distance ?? 0)}${busy}`;
  const readout = byId("live-readout");
  if (readout.textContent !== text) readout.textContent = text;
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
  saveClientSettings();
});

// ---------- narrow screens: one part at a time ----------

let tab = "feed";
function showTab(name) {
  tab = name;
  document.body.dataset.tab = name;
  for (const button of document.querySelectorAll(".tab")) button.setAttribute("aria-pressed", String(button.dataset.tab === name));
  if (name === "log") {
    unseenLog = 0;
    noteUnseenLog();
  }
  timeline.invalidate();
  lanes.invalidate();
  frame.layout();
  showHeldGeometry();
}

/** The HUD says so when the geometry it shows is the last one measured before the feed was hidden. */
function showHeldGeometry() {
  const held = !reporter.shown && reporter.lastGeometry !== null;
  byId("hud-held").hidden = !held;
  byId("hud").classList.toggle("is-held", held);
}
for (const button of document.querySelectorAll(".tab")) button.addEventListener("click", () => showTab(button.dataset.tab));

let unseenLog = 0;
function noteUnseenLog() {
  const badge = byId("tab-log-badge");
  if (tab !== "log" && byId("tabs").offsetParent !== null) unseenLog += 1;
  badge.hidden = unseenLog === 0;
  badge.textContent = unseenLog > 99 ? "99+" : String(unseenLog);
}

// ---------- surviving a reload ----------

/** The first item at least partly in view and how far its top is from the feed's top (px). */
function visibleAnchor() {
  const scroller = byId("feed");
  const item = feed.firstVisibleItem();
  if (!item) return null;
  return { id: item.dataset.id, offset: feed.offsetInViewport(item) / (frame.scale || 1), scrollTop: scroller.scrollTop, scrollLeft: scroller.scrollLeft };
}

function saveClientSettings() {
  const saved = readStorage(CLIENT_KEY) ?? {};
  writeStorage(CLIENT_KEY, {
    ...saved,
    inset: reporter.insetTop,
    endShortfall: reporter.endShortfall || 0,
    frame: frame.fitsScreen ? { screen: true } : { w: frame.size.w, h: frame.size.h },
  });
}

window.addEventListener("pagehide", () => {
  const saved = readStorage(CLIENT_KEY) ?? {};
  writeStorage(CLIENT_KEY, {
    ...saved, session: connection.sessionId, anchor: visibleAnchor(),
    // The timeline's offset curve (the server keeps no geometry outside a trace): ms before `savedAt`.
    timeline: { savedAt: Date.now(), samples: timeline.samplesBefore(performance.now()) },
  });
});

/** The page clock's time (performance.now()) of a wall-clock time (ms since 1970). */
function pageTimeOf(wallMs) {
  return performance.now() - (Date.now() - wallMs);
}

/** Restores what only the page knew (inset, frame) on every load of this tab. */
function restoreClientSettings() {
  const saved = readStorage(CLIENT_KEY);
  if (!saved) return;
  if (saved.frame?.screen === true) frame.fitScreen();
  else if (saved.frame && Number.isFinite(saved.frame.w) && Number.isFinite(saved.frame.h)) frame.setSize(saved.frame.w, saved.frame.h);
  if (Number.isFinite(saved.endShortfall) && saved.endShortfall > 0) setShortfall(Math.min(5, saved.endShortfall));
  if (Number.isFinite(saved.inset) && saved.inset > 0) {
    byId("inset-top").value = String(saved.inset);
    setInset(saved.inset);
  }
}

function restoreAfterReload(session) {
  const saved = readStorage(CLIENT_KEY);
  restoring = saved && saved.session === session && saved.anchor ? saved.anchor : null;
  if (saved?.session === session && Number.isFinite(saved.timeline?.savedAt)) {
    timeline.restoreSamples(saved.timeline.samples, performance.now(), Date.now() - saved.timeline.savedAt);
  }
  // The session's log from the server's ring, oldest first; what arrives live meanwhile is kept.
  fetch(`/api/events?session=${encodeURIComponent(session)}&limit=${HISTORY_LIMIT}`)
    .then((response) => (response.ok ? response.json() : { events: [] }))
    .then((body) => {
      const history = Array.isArray(body.events) ? body.events : [];
      log.addHistory(history);
      const known = new Set(events.map((e) => e.seq));
      const older = history.filter((e) => !known.has(e.seq));
      // The timeline's loads, refreshes and failures from before the reload, each at its own time.
      timeline.addHistory(older.filter((e) => typeof e.name === "string" && Number.isFinite(Date.parse(e.time)))
        .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)).map((e) => ({ name: e.name, t: pageTimeOf(Date.parse(e.time)) })));
      events.unshift(...older);
      events.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    })
    .catch(() => log.note("historyUnavailable", { reason: "the session's earlier events could not be fetched" }));
}

/** Puts the anchor item back where it was; `done` once the resume has delivered every item. */
function restorePosition(done) {
  const anchor = restoring;
  const scroller = byId("feed");
  const item = feed.reveal(anchor.id);
  if (item) {
    const shift = feed.offsetInViewport(item) / (frame.scale || 1) - anchor.offset;
    if (axis === "horizontal") scroller.scrollLeft += shift;
    else scroller.scrollTop += shift;
  } else if (done) {
    scroller.scrollTop = anchor.scrollTop ?? 0;
    scroller.scrollLeft = anchor.scrollLeft ?? 0;
  }
  if (done) {
    restoring = null;
    reporter.settle();
  }
}

restoreClientSettings();

// A link with settings that is not the one this tab's session was opened with opens a new session with
// them (a reload of the same link resumes): the page then shows what the address bar says.
if (connection.restored && linkQuery !== "") {
  const opened = readStorage(LINK_KEY);
  const same = opened?.session === connection.sessionId;
  if (!(same && opened.link === linkQuery)) {
    previousSession = { ...connection.leaveSession(), link: same ? opened.link : "", preset: same ? opened.preset : undefined };
  }
}

// ---------- for people in the console, and for the browser tests ----------

installPageHooks({
  live: {
    get config() { return config; },
    described: () => described(),
    get state() { return state; },
    get status() { return status; },
    get presets() { return presets; },
    unloggedErrors,
    events,
    visibleAnchor: () => visibleAnchor(),
    get restoring() { return restoring; },
  },
  reporter, feed, log, connection, frame, timeline, lanes, traceView,
});

connection.start();
