// "Continue live from here": a trace's moment becomes a live session (a fork). The frame takes the recording's
// size, the feed its position once the fork's items land, and the geometry continues the recording's seq.

import { byId } from "./dom.js";
import { FRAME_EDGE_PX } from "./frame.js";
import { forkPieces, sampleAt } from "./trace-file.js";

export class LiveFork {
  // Between pressing "Continue live from here" and the fork's list landing: where to put the feed.
  pending = null;
  // The last fork asked for: its row says where in the parent it continues, on the viewer's clock.
  #last = null;

  /** `page`: traceView, connection, frame, reporter, and axis() (the feed's). */
  constructor(page) {
    this.page = page;
    const { traceView, connection, frame, reporter } = page;
    traceView.addEventListener("fork", ({ detail: { trace, name, at, preset } }) => {
      const sample = sampleAt(trace, at);
      this.pending = { geometry: sample?.geometry ?? null, seq: sample?.seq ?? 0 };
      // The fork continues in the recording's frame: its position means what it meant only at its containerSize.
      const container = sample?.geometry?.containerSize;
      if (container && Number.isFinite(container.width) && Number.isFinite(container.height)) {
        const edge = 2 * FRAME_EDGE_PX;
        frame.setSize(container.width + edge, page.axis() === "horizontal" ? frame.size.h : container.height + edge, { exact: true });
      }
      this.#last = { name, at, start: trace.start };
      connection.fork({ pieces: forkPieces(trace, at), fork: { parent: name, at }, config: preset ? { preset } : {} });
    });
    connection.addEventListener("forkfailed", ({ detail }) => {
      this.pending = null;
      traceView.showError(`The server refused the fork: ${detail.message}`);
      reporter.wake();
    });
  }

  /** The inset the recording had at the fork's moment, or null (no fork under way, or no geometry there). */
  get inset() {
    const insets = this.pending?.geometry?.contentInsets;
    if (!this.pending?.geometry) return null;
    return Number(this.page.axis() === "horizontal" ? insets?.leading : insets?.top) || 0;
  }

  /** The fork's items have landed: the feed goes to the moment's position, and geometry continues its seq. */
  place() {
    const { reporter } = this.page;
    const g = this.pending.geometry;
    const scroller = byId("feed");
    if (g) {
      const horizontal = this.page.axis() === "horizontal";
      const inset = Number(horizontal ? g.contentInsets?.leading : g.contentInsets?.top) || 0;
      const offset = horizontal ? g.contentOffset.x : g.contentOffset.y;
      // A pull is not a scroll position: a fork in the middle of one starts at the top.
      if (horizontal) scroller.scrollLeft = Math.max(0, offset + inset);
      else scroller.scrollTop = Math.max(0, offset + inset);
    }
    reporter.settle();
    reporter.seq = Math.max(reporter.seq, this.pending.seq);
    this.pending = null;
    reporter.resend();
  }

  /** The log's note for the fork's `sessionForked` row: where in the parent it continues. */
  explain(record) {
    const last = this.#last;
    if (record.name !== "sessionForked" || !last || record.data?.at !== last.at) return null;
    return `continues ${last.name} from ${((last.at - last.start) / 1000).toFixed(3)} s`;
  }
}
