// What this tab keeps across a reload (sessionStorage): the page-only settings (inset, end shortfall, frame,
// physics), and on leaving, the item in view, the timeline's curve, so the reload lands where the person was.

import { byId } from "./dom.js";
import { readStorage, writeStorage } from "./connection.js";

const CLIENT_KEY = "scroll-playground.client";
const HISTORY_LIMIT = 10000;

/** The page clock's time (performance.now()) of a wall-clock time (ms since 1970). */
function pageTimeOf(wallMs) {
  return performance.now() - (Date.now() - wallMs);
}

export class TabMemory {
  // After a reload: the scroll position to restore once the session's items are back. No geometry is
  // sent meanwhile, or the server would judge the half-restored list.
  restoring = null;

  /** `page` gives the parts and setters main.js wires: feed, frame, reporter, timeline, log, connection,
   *  events (the event records kept), axis(), setShortfall(px), setInset(px). */
  constructor(page) {
    this.page = page;
    window.addEventListener("pagehide", () => {
      this.#save({
        session: page.connection.sessionId, anchor: this.visibleAnchor(),
        // The timeline's offset curve (the server keeps no geometry outside a trace): ms before `savedAt`.
        timeline: { savedAt: Date.now(), samples: page.timeline.samplesBefore(performance.now()) },
      });
    });
  }

  #save(fields) {
    writeStorage(CLIENT_KEY, { ...(readStorage(CLIENT_KEY) ?? {}), ...fields });
  }

  /** How this tab last chose to scroll (`ios` | `browser`), or undefined. */
  get physics() {
    const chosen = readStorage(CLIENT_KEY)?.physics;
    return chosen === "ios" || chosen === "browser" ? chosen : undefined;
  }

  /** How this tab scrolls is the person's choice: the next session (a reload, a new tab's link aside) keeps it. */
  set physics(value) {
    this.#save({ physics: value });
  }

  /** The first item at least partly in view and how far its top is from the feed's top (px). */
  visibleAnchor() {
    const { feed, frame } = this.page;
    const scroller = byId("feed");
    const item = feed.firstVisibleItem();
    if (!item) return null;
    return { id: item.dataset.id, offset: feed.offsetInViewport(item) / (frame.scale || 1), scrollTop: scroller.scrollTop, scrollLeft: scroller.scrollLeft };
  }

  saveSettings() {
    const { reporter, frame } = this.page;
    this.#save({
      inset: reporter.insetTop,
      endShortfall: reporter.endShortfall || 0,
      frame: frame.fitsScreen ? { screen: true } : { w: frame.size.w, h: frame.size.h },
    });
  }

  /** Restores what only the page knew (inset, frame) on every load of this tab. */
  restoreSettings() {
    const { frame, setShortfall, setInset } = this.page;
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

  /** A reload resumed `session`: its position to restore, its timeline and its log from before. */
  restoreAfterReload(session) {
    const { timeline, log, events } = this.page;
    const saved = readStorage(CLIENT_KEY);
    this.restoring = saved && saved.session === session && saved.anchor ? saved.anchor : null;
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

  /** Puts the anchor item back where it was (while restoring); `done` once the resume has delivered every item. */
  restorePosition(done) {
    const anchor = this.restoring;
    if (!anchor) return;
    const { feed, frame, reporter } = this.page;
    const scroller = byId("feed");
    const item = feed.reveal(anchor.id);
    if (item) {
      const shift = feed.offsetInViewport(item) / (frame.scale || 1) - anchor.offset;
      if (this.page.axis() === "horizontal") scroller.scrollLeft += shift;
      else scroller.scrollTop += shift;
    } else if (done) {
      scroller.scrollTop = anchor.scrollTop ?? 0;
      scroller.scrollLeft = anchor.scrollLeft ?? 0;
    }
    if (done) {
      this.restoring = null;
      reporter.settle();
    }
  }
}
