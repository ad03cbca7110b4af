// The page's parts, each built on the elements it drives (their ids are in index.html). They know nothing of
// each other: main.js wires them together.

import { byId } from "./dom.js";
import { defaultSocketURL } from "./connection.js";
import { FeedRenderer } from "./feed.js";
import { Inspector } from "./inspector.js";
import { LogPanel } from "./log-panel.js";
import { Timeline } from "./timeline.js";
import { CompareLanes } from "./lanes.js";
import { PhoneFrame, railBeside } from "./frame.js";
import { TraceView } from "./trace-view.js";
import { SectionBar } from "./section-bar.js";
import { HandTrial } from "./hand-trial.js";

export function buildParts() {
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

  return { feed, inspector, log, timeline, lanes, traceView, frame };
}
