// Narrow screens show one part at a time (Feed, State, Log, Settings), chosen by the tabs; the Log tab counts
// the rows that arrived while it was not shown.

import { byId } from "./dom.js";

export class NarrowTabs {
  current = "feed";
  #unseenLog = 0;

  /** `page`: timeline, lanes, frame, reporter (each redraws for the part shown). */
  constructor(page) {
    this.page = page;
    for (const button of document.querySelectorAll(".tab")) button.addEventListener("click", () => this.show(button.dataset.tab));
  }

  /** True when the screen is narrow enough for tabs. */
  get shown() {
    return byId("tabs").offsetParent !== null;
  }

  show(name) {
    const { timeline, lanes, frame } = this.page;
    this.current = name;
    document.body.dataset.tab = name;
    for (const button of document.querySelectorAll(".tab")) button.setAttribute("aria-pressed", String(button.dataset.tab === name));
    if (name === "log") {
      this.#unseenLog = 0;
      this.noteLogRow();
    }
    timeline.invalidate();
    lanes.invalidate();
    frame.layout();
    this.#showHeldGeometry();
  }

  /** A row arrived in the log: counted on the Log tab's badge while another tab is shown. */
  noteLogRow() {
    const badge = byId("tab-log-badge");
    if (this.current !== "log" && this.shown) this.#unseenLog += 1;
    badge.hidden = this.#unseenLog === 0;
    badge.textContent = this.#unseenLog > 99 ? "99+" : String(this.#unseenLog);
  }

  /** The HUD says so when the geometry it shows is the last one measured before the feed was hidden. */
  #showHeldGeometry() {
    const { reporter } = this.page;
    const held = !reporter.shown && reporter.lastGeometry !== null;
    byId("hud-held").hidden = !held;
    byId("hud").classList.toggle("is-held", held);
  }
}
