// The controls around the feed: the buttons under it (each disabled when it can do nothing now), the Jump box,
// the bounded window's range, the line above the feed (the pull hint, then the live readout), the connection
// pill, and the keyboard path past the feed.

import { byId, num } from "./dom.js";

const CONNECTION_LABELS = { connecting: "Connecting…", open: "Connected", reconnecting: "Reconnecting…", closed: "Offline" };

export class Stage {
  status = "connecting";
  #untouched = true;
  #pullHint = byId("pull-hint").textContent;

  /** `page`: feed, frame, reporter, connection, inspector; config(), state(), described() and axis() read the
   *  session's now; reset() asks for a new list. */
  constructor(page) {
    this.page = page;
    const { feed, connection, inspector } = page;
    const send = (type) => () => connection.send({ type });
    byId("btn-refresh").addEventListener("click", send("refresh"));
    byId("btn-load-more").addEventListener("click", send("loadMore"));
    byId("btn-reset").addEventListener("click", () => page.reset());
    byId("load-retry").addEventListener("click", send("loadMore"));
    byId("btn-load-previous").addEventListener("click", send("loadPrevious"));
    byId("previous-retry").addEventListener("click", send("loadPrevious"));
    byId("refresh-retry").addEventListener("click", send("refresh"));
    byId("conn-drop").addEventListener("click", () => connection.drop());
    byId("jump-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const id = byId("jump-id").value.trim();
      if (!id) return;
      this.showJumpError(null);
      connection.send({ type: "jump", id, anchor: byId("jump-anchor").value });
    });
    byId("skip-feed").addEventListener("click", (event) => {
      event.preventDefault();
      this.#focusAfterFeed();
    });
    feed.addEventListener("leave", ({ detail }) => {
      if (detail === "after") this.#focusAfterFeed();
      // Before the feed: the frame's choice, or on a phone (where that is in Settings) the feed's tab.
      else if (byId("frame-size").offsetParent !== null) byId("frame-size").focus();
      else document.querySelector(".tab[data-tab=feed]").focus();
    });
    connection.addEventListener("status", ({ detail }) => this.#showStatus(detail));
    connection.addEventListener("rtt", ({ detail: ms }) => {
      inspector.setRtt(ms);
      byId("conn-detail").textContent = `${ms.toFixed(1)} ms round trip`;
    });
  }

  /** Buttons that can do nothing now are disabled (the server would only log why it ignored them). */
  updateButtons() {
    const state = this.page.state();
    if (!state) return;
    const preset = this.page.config().preset;
    byId("btn-load-more").disabled = state.hasMore === false || Boolean(state.loadingNextPage);
    // A preset without a pull rule has no refresh to offer (the server would run one the design never could).
    const pulls = this.page.described().rules?.includes("pull") !== false;
    const refresh = byId("btn-refresh");
    refresh.disabled = Boolean(state.refreshing) || !pulls;
    refresh.title = pulls ? "" : `${preset} has no pull-to-refresh`;
    // The hint says what this preset does at the top: no pull where there is no refresh to pull for.
    const hint = byId("pull-hint");
    const text = pulls ? this.#pullHint : `${preset} has no pull-to-refresh: scroll to the end to load more`;
    if (hint.textContent !== text) hint.textContent = text;
    const topEdge = state.topEdge ?? null;
    byId("btn-load-previous").hidden = topEdge === null;
    byId("btn-load-previous").disabled = !topEdge?.hasPrevious || Boolean(topEdge?.loadingPreviousPage);
  }

  /**
   * The Jump box suggests an item the feed has: three quarters down a synthetic feed of `maxItems`
   * (item-1500 in an endless one), or the last item held when the items come from a file.
   */
  suggestJump() {
    const ids = this.page.feed.itemIds();
    if (ids.length === 0) return;
    const synthetic = /^item-\d+$/.test(ids[0]) || /^item-\d+$/.test(ids[ids.length - 1]);
    const max = Number(this.page.config().maxItems);
    const suggestion = !synthetic ? ids[ids.length - 1] : `item-${max > 0 ? Math.max(1, Math.round(max * 0.75)) : 1500}`;
    byId("jump-id").placeholder = suggestion.slice(0, 100);
  }

  /** The server's reason a jump went nowhere, under the Jump box; null hides it. */
  showJumpError(message) {
    const error = byId("jump-error");
    if (message !== null) error.textContent = message;
    error.hidden = message === null;
  }

  /** A bounded window's range under the feed: which of the session's items the page holds. */
  showWindow(msg) {
    const { feed, frame } = this.page;
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

  /** Hides the pull hint once the feed has moved; on a narrow screen the line then shows the state in brief. */
  noteFeedLine(geometry) {
    const g = geometry ?? this.page.reporter.lastGeometry;
    if (!g) return;
    const state = this.page.state();
    const horizontal = this.page.axis() === "horizontal";
    const offset = horizontal ? g.contentOffset.x + g.contentInsets.leading : g.contentOffset.y + g.contentInsets.top;
    if (this.#untouched && (offset !== 0 || g.phase !== "idle" || state?.refreshing)) {
      this.#untouched = false;
      byId("pull-hint").hidden = true;
      byId("live-readout").hidden = false;
    }
    if (this.#untouched) return;
    const toBottom = horizontal
      ? g.contentSize.width + g.contentInsets.trailing - (g.contentOffset.x + g.containerSize.width)
      : g.contentSize.height + g.contentInsets.bottom - (g.contentOffset.y + g.containerSize.height);
    const busy = state?.refreshing ? " · refreshing" : state?.loadingNextPage ? " · loading" : "";
    const text = `${horizontal ? "x" : "y"} ${num(horizontal ? g.contentOffset.x : g.contentOffset.y)} · to bottom ${num(toBottom)}`
      + ` · pull ${num(state?.pull?.distance ?? 0)}${busy}`;
    const readout = byId("live-readout");
    if (readout.textContent !== text) readout.textContent = text;
  }

  #showStatus(detail) {
    this.status = detail.status;
    const pill = byId("conn-pill");
    pill.dataset.status = detail.status;
    pill.textContent = CONNECTION_LABELS[detail.status] ?? detail.status;
    const detailText = byId("conn-detail");
    if (detail.status === "reconnecting" && detail.retryInMs !== null) {
      detailText.textContent = `attempt ${detail.attempt} in ${(detail.retryInMs / 1000).toFixed(1)} s · will resume`;
    } else if (detail.status === "open") {
      detailText.textContent = "";
    }
  }

  // A keyboard path past the feed: the skip link and Control+End land on the buttons after it.
  #focusAfterFeed() {
    const target = byId("stage-actions").querySelector("button:not(:disabled)") ?? byId("stage-actions");
    target.focus();
  }
}
