// The feed renderer: items exactly as the server sends them, and the indicators drawn from `state`.
// It never adds an item or decides a trigger on its own. The list follows the ARIA feed
// pattern: `role="feed"`, busy while a page or refresh is in flight, items as `article`s with their
// position in the whole feed, and polite announcements of what landed or failed. Only the rows near the
// viewport are elements (./virtual-list.js), as in a LazyVStack.

import { el, prefersReducedMotion } from "./dom.js";
import { VirtualList } from "./virtual-list.js";

const MIN_SPINNER_PX = 44; // room for the spinner while refreshing when the server's height is smaller
const NEW_ITEM_HIGHLIGHT_MS = 1600;
const REFRESH_FAILED_MS = 6000;
const COUNTDOWN_TICK_MS = 100;

/** Events (EventTarget): `items` (detail: {op, rev, count}) after an items message is applied. */
export class FeedRenderer extends EventTarget {
  /** @param {Record<string, HTMLElement>} parts the elements of the phone frame (see main.js). */
  constructor(parts) {
    super();
    Object.assign(this, parts);
    this.rev = null; // rev of the last items message applied; null before the first
    this.hasMore = true;
    this.total = 0;
    this.axis = "vertical";
    this.insetTop = 0;
    this.pull = 0;
    this.refreshShift = 0;
    this.state = null;
    this.failedPage = null; // the page whose load failed, while its row shows
    this.loadFailure = null; // state.loadFailure as last shown
    this.retryDeadline = null; // performance.now() when the scheduled retry starts
    this.countdownTimer = null;
    this.refreshFailedTimer = null;
    this.describe = () => ({}); // a preset's description (`welcome.presets`) by name, set by main.js
    this.unseenMessages = 0; // messages that arrived below while the reader was scrolled up
    this.firstVisibleHint = 0; // the index firstVisibleItem() last found: where its next search starts
    this.windowStart = 0; // a bounded window: the session's index of the first item the page holds
    this.fresh = new Set(); // ids of items just refreshed in, highlighted for a moment
    this.parts = null; // an items message arriving in parts: {rev, next}
    this.virtual = new VirtualList({
      scroller: this.scroller,
      list: this.list,
      createRow: (item) => this.renderItem(item),
      placeRow: (row, index) => this.placeRow(row, index),
      sizeKey: (item) => this.sizeKey(item),
      horizontal: () => this.axis === "horizontal",
    });
    this.scroller.addEventListener("scroll", () => this.hideNewItemsIfSeen(), { passive: true });
    this.scroller.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.newItems.addEventListener("click", () => {
      const behavior = prefersReducedMotion() ? "auto" : "smooth";
      if (this.axis === "horizontal") this.scroller.scrollTo({ left: 0, behavior });
      else this.scroller.scrollTo({ top: 0, behavior });
      this.newItems.hidden = true;
    });
    // At once, not smoothly: messages keep arriving below, and a smooth scroll would end above the end it
    // aimed at, where the view no longer follows them.
    this.newMessages.addEventListener("click", () => {
      if (this.axis === "horizontal") this.scroller.scrollTo({ left: this.scroller.scrollWidth });
      else this.scroller.scrollTo({ top: this.scroller.scrollHeight });
      this.clearUnseenMessages();
    });
  }

  /** Item ids in display order: every item the page holds, drawn or not. */
  itemIds() {
    return this.virtual.ids();
  }

  /** How many items the page holds. */
  get count() {
    return this.virtual.count;
  }

  /** Something the server decided about the feed, shown in the feed (failures) and announced. */
  applyEvent(record) {
    const data = record.data ?? {};
    switch (record.name) {
      case "loadPreviousFinished":
        this.announce(`${data.added ?? 0} older items loaded`);
        break;
      case "messageArrived":
        if (data.added !== false && !data.held) this.announce("New message");
        // Shown below a reader scrolled up (the view did not follow it): the pill counts it.
        if (data.follow === false && data.added !== false && !data.held && data.shown !== false) this.noteUnseenMessage();
        break;
      case "scrollToBottom":
        this.clearUnseenMessages();
        break;
      case "loadMoreFinished":
        this.announce(`${data.added ?? 0} items loaded${data.hasMore === false ? ", end of feed" : ""}`);
        break;
      case "loadMoreFailed":
        this.announce(`Couldn't load page ${data.page ?? ""}`.trim());
        break;
      case "loadMoreGaveUp":
        this.announce(`Gave up on page ${data.page ?? ""}`.trim());
        break;
      case "refreshStarted":
        this.showRefreshFailed(false);
        break;
      case "refreshFinished":
        this.announce(`Refreshed, ${data.added ?? 0} new items`);
        break;
      case "refreshFailed":
        this.showRefreshFailed(true);
        this.announce("Couldn't refresh");
        break;
      case "sessionReset":
        this.showRefreshFailed(false);
        break;
      default:
    }
  }

  /**
   * A failed page is a row at the end of the feed, drawn from `state.loadFailure`: what the server's
   * retry policy decided. `manual`: Retry. `none`: no Retry. `scheduled`: a countdown to the automatic
   * retry, and Retry now. `gaveUp`: the retries are used up, Retry.
   */
  showLoadFailure(failure) {
    const next = failure && typeof failure === "object" ? failure : null;
    this.loadFailure = next;
    this.failedPage = next ? next.page ?? null : null;
    this.loadFailed.hidden = next === null;
    this.loadFailed.dataset.next = next?.next ?? "";
    clearInterval(this.countdownTimer);
    this.countdownTimer = null;
    this.retryDeadline = null;
    if (!next) return;
    this.retryButton.hidden = next.next === "none";
    this.retryButton.textContent = next.next === "scheduled" ? "Retry now" : "Retry";
    if (next.next === "scheduled" && Number.isFinite(next.retryInMs)) {
      this.retryDeadline = performance.now() + next.retryInMs;
      this.countdownTimer = setInterval(() => this.drawLoadFailure(), COUNTDOWN_TICK_MS);
    }
    this.drawLoadFailure();
  }

  drawLoadFailure() {
    const failure = this.loadFailure;
    if (!failure) return;
    let text = `Couldn't load page ${failure.page}`;
    if (failure.next === "scheduled") {
      const left = Math.max(0, this.retryDeadline === null ? 0 : this.retryDeadline - performance.now());
      text += ` · retry ${failure.retry} of ${failure.retryMax} in ${(left / 1000).toFixed(1)} s`;
      if (left === 0) {
        clearInterval(this.countdownTimer);
        this.countdownTimer = null;
      }
    } else if (failure.next === "gaveUp") {
      text += ` · gave up after ${failure.failures} ${failure.failures === 1 ? "try" : "tries"}`;
    }
    if (this.loadFailedText.textContent !== text) this.loadFailedText.textContent = text;
  }

  /** A failed previous page: a row above the items, from `state.topEdge.loadFailure`. */
  showPreviousFailure(failure) {
    this.previousFailed.hidden = failure === null;
    if (!failure) return;
    let text = `Couldn't load older items (page ${failure.page})`;
    if (failure.next === "scheduled") text += ` · retry ${failure.retry} of ${failure.retryMax} coming`;
    else if (failure.next === "gaveUp") text += " · gave up";
    this.previousRetry.hidden = failure.next === "none";
    if (this.previousFailedText.textContent !== text) this.previousFailedText.textContent = text;
  }

  /** A failed refresh: a short message at the top, gone after a few seconds or the next refresh. */
  showRefreshFailed(show) {
    clearTimeout(this.refreshFailedTimer);
    this.refreshFailed.hidden = !show;
    if (show) this.refreshFailedTimer = setTimeout(() => { this.refreshFailed.hidden = true; }, REFRESH_FAILED_MS);
  }

  announce(text) {
    // Replacing the text is what makes a polite live region speak again.
    this.announcer.textContent = text;
  }

  /** The feed pattern's keys: Page Down / Page Up move between items, Control+End / Home leave the feed. */
  onKeyDown(event) {
    if ((event.ctrlKey || event.metaKey) && (event.key === "End" || event.key === "Home")) {
      event.preventDefault();
      this.dispatchEvent(new CustomEvent("leave", { detail: event.key === "End" ? "after" : "before" }));
      return;
    }
    if (event.key !== "PageDown" && event.key !== "PageUp") return;
    const count = this.virtual.count;
    if (count === 0) return;
    const focused = document.activeElement;
    const current = focused?.parentElement === this.list ? this.virtual.indexOf(focused.dataset.id) : -1;
    if (current === -1 && focused !== this.scroller) return;
    event.preventDefault();
    const visible = this.firstVisibleItem();
    const from = current !== -1 ? current : (visible ? this.virtual.indexOf(visible.dataset.id) : 0) - (event.key === "PageDown" ? 1 : 0);
    const next = this.virtual.rowAt(Math.max(0, Math.min(count - 1, from + (event.key === "PageDown" ? 1 : -1))));
    next.focus({ preventScroll: false });
    next.scrollIntoView({ block: "nearest" });
  }

  /**
   * A welcome that is not a resume: whatever items message comes next applies (a new session starts
   * with a `replace`). The rows stay until then, so nothing flashes empty.
   */
  resetForNewSession() {
    this.rev = null;
    this.newItems.hidden = true;
    this.clearUnseenMessages();
  }

  /** One more message below the view: "↓ N new messages" until the reader reaches the end. */
  noteUnseenMessage() {
    this.unseenMessages += 1;
    const n = this.unseenMessages;
    this.newMessages.textContent = `↓ ${n} new message${n === 1 ? "" : "s"}`;
    this.newMessages.hidden = false;
  }

  clearUnseenMessages() {
    this.unseenMessages = 0;
    this.newMessages.hidden = true;
  }

  /**
   * Applies an `items` message; returns false when its rev was already applied. A `replace` always
   * applies: it is the whole list, and it starts the rev count afresh (a new session).
   */
  applyItems(message) {
    // A long list arrives in parts (`part` 1, 2, …, one `rev`, `more` on all but the last): the rev counts as
    // applied with the last, so the server judges no geometry of a half-arrived list as the page's.
    const part = Number.isInteger(message.part) ? message.part : null;
    if (part !== null && part > 1) {
      if (this.parts?.rev !== message.rev || this.parts.next !== part) return false;
    } else {
      const stale = typeof message.rev === "number" && this.rev !== null && message.rev <= this.rev;
      if (stale && message.op !== "replace") return false;
    }
    const items = Array.isArray(message.items) ? message.items : [];
    switch (message.op) {
      case "replace":
        this.virtual.replace(items);
        this.newItems.hidden = true;
        this.clearUnseenMessages();
        break;
      case "prepend":
        this.prepend(items, message.older === true);
        break;
      case "trim":
        this.trim(message.edge === "top" ? "top" : "bottom", Number(message.count) || 0);
        break;
      default:
        this.virtual.append(items);
    }
    const last = message.more !== true;
    this.parts = last ? null : { rev: message.rev, next: message.part + 1 };
    if (last) this.rev = typeof message.rev === "number" ? message.rev : (this.rev ?? 0);
    if (typeof message.total === "number") this.total = message.total;
    if (typeof message.hasMore === "boolean") this.hasMore = message.hasMore;
    this.updatePositions();
    this.updateEndOfFeed();
    this.dispatchEvent(new CustomEvent("items", { detail: { op: message.op, rev: this.rev, count: this.count, last } }));
    return true;
  }

  /**
   * Inserts at the top. Scrolled into the feed, the item under the user's eye stays where it was (no
   * jump) and a pill offers the new items. At the very top (where a pull-to-refresh ends) the new
   * items simply appear on top, which is what the pull asked for.
   */
  prepend(items, older = false) {
    if (items.length === 0) return;
    const position = this.axis === "horizontal" ? this.scroller.scrollLeft : this.scroller.scrollTop;
    // Older items (load previous) never move what the user sees, even at the very top.
    const anchor = position > 0.5 || older ? this.firstVisibleItem() : null;
    const ids = items.map((item) => String(item.id));
    if (!older) for (const id of ids) this.fresh.add(id);
    if (!anchor) this.virtual.prepend(items);
    else {
      this.keepingAnchor(anchor, older, () => this.virtual.prepend(items));
      if (!older) {
        this.newItems.textContent = `↑ ${items.length} new`;
        this.newItems.hidden = false;
      }
    }
    this.virtual.update();
    if (older) return;
    setTimeout(() => {
      for (const id of ids) {
        this.fresh.delete(id);
        this.virtual.rows.get(id)?.classList.remove("is-new");
      }
    }, NEW_ITEM_HIGHLIGHT_MS);
  }

  /**
   * Changes the list above `anchor` without moving it on screen. With `native`, the browser's own scroll
   * anchoring (overflow-anchor) is on for the change: it also adjusts a smooth scroll already under way
   * (a wheel fling animates to an absolute target, which would undo a shift made by hand; that was the
   * intermittent anchorDrift). Whatever the browser has not restored by the time the change is laid out
   * (at the very top Chromium does not anchor) is shifted by hand.
   */
  keepingAnchor(anchor, native, change) {
    const before = this.offsetInViewport(anchor);
    if (native) this.startAnchoring();
    change();
    // Screen pixels to the feed's own: the frame may be scaled to fit the window.
    const shift = (this.offsetInViewport(anchor) - before) / (this.scale?.() || 1);
    if (Math.abs(shift) < 0.5) return;
    if (this.axis === "horizontal") this.scroller.scrollLeft += shift;
    else this.scroller.scrollTop += shift;
  }

  /** Native scroll anchoring for the next two frames: the browser's adjustment lands with the layout. */
  startAnchoring() {
    this.scroller.classList.add("is-anchoring");
    cancelAnimationFrame(this.anchoringFrame);
    this.anchoringFrame = requestAnimationFrame(() => {
      this.anchoringFrame = requestAnimationFrame(() => this.scroller.classList.remove("is-anchoring"));
    });
  }

  /**
   * A bounded window trims `count` rows far from the viewport. At the bottom nothing moves; at the top
   * the first visible row stays where it is, as through an older prepend.
   */
  trim(edge, count) {
    const n = Math.min(count, this.virtual.count);
    if (n === 0) return;
    const remove = () => this.virtual.remove(edge, n);
    if (edge !== "top") {
      remove();
      this.virtual.update();
      return;
    }
    const anchor = this.firstVisibleItem();
    if (anchor && this.virtual.indexOf(anchor.dataset.id) >= n) this.keepingAnchor(anchor, true, remove);
    else remove();
    this.virtual.update();
  }

  /**
   * The server's `scrollToItem`: puts the item's top at the top of the visible area (below a sticky
   * header), its centre at the centre, or its bottom at the bottom, from the rows as measured now. False
   * when the list does not hold the item yet (the items message that follows brings it).
   */
  scrollToItem(id, anchor) {
    const node = this.reveal(id);
    if (!node) return false;
    const k = this.scale?.() || 1;
    const horizontal = this.axis === "horizontal";
    const box = node.getBoundingClientRect();
    const start = this.offsetInViewport(node) / k;
    const length = (horizontal ? box.width : box.height) / k;
    const visible = horizontal ? this.scroller.clientWidth : this.scroller.clientHeight;
    const inset = this.insetTop;
    let delta;
    if (anchor === "center") delta = start + length / 2 - (inset + (visible - inset) / 2);
    else if (anchor === "bottom") delta = start + length - visible;
    else delta = start - inset;
    if (horizontal) this.scroller.scrollLeft += delta;
    else this.scroller.scrollTop += delta;
    return true;
  }

  /**
   * The drawn row of an item, or null when the list does not hold it. A row far from the drawn ones is
   * brought into the viewport first (at its top, below the inset), so that the rows around it are drawn.
   */
  reveal(id) {
    const index = this.virtual.indexOf(id);
    if (index === -1) return null;
    if (index < this.virtual.first || index >= this.virtual.end) {
      // Under `lazyEstimate` the rows down to it are realized first: it is then where the list lays it out.
      this.virtual.realize(index + 1);
      const { start } = this.virtual.viewport();
      const delta = this.virtual.startOf(index) - start - this.insetTop;
      if (this.axis === "horizontal") this.scroller.scrollLeft += delta;
      else this.scroller.scrollTop += delta;
      this.virtual.update({ force: true });
    }
    return this.virtual.rowAt(index);
  }

  /**
   * The first item in view, in layout terms: the content's translate (a pull, the refresh indicator) is
   * not scrolling, so the gap it opens above the first row does not count. (Measured with the translate,
   * an older prepend during a pull at the top showed its rows in that gap, and the page reported another
   * item first in view although nothing had moved: the fling test's anchorDrift.)
   */
  firstVisibleItem() {
    this.virtual.update();
    const rows = this.list.children;
    const count = rows.length;
    if (count === 0) return null;
    const viewport = this.scroller.getBoundingClientRect();
    const shift = this.contentShift() * (this.scale?.() || 1);
    const horizontal = this.axis === "horizontal";
    const start = horizontal ? viewport.left : viewport.top;
    const inView = (index) => {
      const box = rows[index].getBoundingClientRect();
      return (horizontal ? box.right : box.bottom) - shift > start;
    };
    // The rows are laid out in order along the axis, so "ends past the viewport's start" is false up to the
    // first visible row and true from it on. Searched outward from the last answer (doubling the step, then
    // halving): a frame reads the layout of a few rows, however many the page holds (reading every row above
    // the view cost 9 ms a frame at 2,000 rows). The hint is only where to start: any gives the same answer.
    const hint = Math.min(this.firstVisibleHint, count - 1);
    let before = hint - 1; // the answer is in (before, after]: before is -1 or a row above the view,
    let after = hint; // after is `count` or a row in view
    let step = 1;
    if (inView(hint)) {
      while (before >= 0 && inView(before)) {
        after = before;
        step *= 2;
        before = Math.max(-1, after - step);
      }
    } else {
      before = hint;
      after = Math.min(count, hint + step);
      while (after < count && !inView(after)) {
        before = after;
        step *= 2;
        after = Math.min(count, before + step);
      }
    }
    while (after - before > 1) {
      const middle = (before + after) >> 1;
      if (inView(middle)) after = middle;
      else before = middle;
    }
    this.firstVisibleHint = after;
    return after < count ? rows[after] : null;
  }

  /** A row's distance from the viewport's start in screen px, without the content's translate. */
  offsetInViewport(node) {
    const viewport = this.scroller.getBoundingClientRect();
    const box = node.getBoundingClientRect();
    const shift = this.contentShift() * (this.scale?.() || 1);
    return (this.axis === "horizontal" ? box.left - viewport.left : box.top - viewport.top) - shift;
  }

  /**
   * How far the content is translated (feed px): the simulated pull or the refresh indicator's room, or
   * (negative) the rubber band past the end under `physics` `ios`.
   */
  contentShift() {
    return this.pull >= 0 ? Math.max(this.pull, this.refreshShift) : this.refreshShift + this.pull;
  }

  hideNewItemsIfSeen() {
    const horizontal = this.axis === "horizontal";
    const position = horizontal ? this.scroller.scrollLeft : this.scroller.scrollTop;
    if (!this.newItems.hidden && position <= 1) this.newItems.hidden = true;
    if (this.newMessages.hidden) return;
    const end = horizontal ? this.scroller.scrollWidth - this.scroller.clientWidth : this.scroller.scrollHeight - this.scroller.clientHeight;
    if (position >= end - 2) this.clearUnseenMessages();
  }

  /** The drawn rows' positions again (the count, the window or hasMore changed). */
  updatePositions() {
    const { first, end, items, rows } = this.virtual;
    for (let i = first; i < end; i++) this.placeRow(rows.get(String(items[i].id)), i);
  }

  /**
   * A drawn row's place: aria-posinset / aria-setsize in the whole feed (a bounded window's rows count from
   * the session's first item; the size is unknown, −1, while the feed has more), and a chat bubble's side.
   */
  placeRow(row, index) {
    const position = String(this.windowStart + index + 1);
    const size = this.hasMore === false ? String(Math.max(this.total, this.windowStart + this.virtual.count)) : "-1";
    if (row.getAttribute("aria-posinset") !== position) row.setAttribute("aria-posinset", position);
    if (row.getAttribute("aria-setsize") !== size) row.setAttribute("aria-setsize", size);
    row.classList.toggle("is-left", index % 3 === 0);
  }

  /** A bounded window's first item (`state.window.range.start`): the rows' positions count from it. */
  setWindowStart(start) {
    const next = Number.isInteger(start) && start >= 0 ? start : 0;
    if (next === this.windowStart) return;
    this.windowStart = next;
    this.updatePositions();
  }

  /** Rows with and without a subtitle, or of a given height, have one size each; a strip's cards one width. */
  sizeKey(item) {
    if (this.axis === "horizontal") return "card";
    if (typeof item.height === "number" && item.height > 0) return `h${item.height}`;
    return item.subtitle ? "two lines" : "one line";
  }

  renderItem(item) {
    const id = String(item.id);
    const row = el("article", "item");
    row.dataset.id = id;
    row.tabIndex = -1;
    const titleId = `item-title-${this.nextTitleId = (this.nextTitleId ?? 0) + 1}`;
    row.setAttribute("aria-labelledby", titleId);
    const badge = initials(item.title ?? id);
    const avatar = el("span", `item-avatar hue-${hash(id) % 6}${/^\d{4,}$/.test(badge) ? ` digits-${badge.length}` : ""}`, badge);
    avatar.setAttribute("aria-hidden", "true");
    const text = el("div", "item-text");
    const title = el("h3", "item-title", item.title ?? id);
    title.id = titleId;
    text.append(title);
    if (item.subtitle) text.append(el("div", "item-subtitle", item.subtitle));
    row.append(avatar, text, el("span", "item-id", `#${id}`));
    if (this.fresh.has(id)) row.classList.add("is-new");
    if (typeof item.height === "number" && item.height > 0) {
      row.dataset.height = String(item.height);
      this.sizeRow(row);
    }
    return row;
  }

  /**
   * An item's `height` is its row height in the vertical list (CSSOM: allowed by the CSP, a style
   * attribute in markup would not be). The horizontal strip uses cards of one width instead: a
   * height says nothing about how wide a card should be.
   */
  sizeRow(row) {
    const height = Number(row.dataset.height);
    if (!height) return;
    const vertical = this.axis !== "horizontal";
    row.style.height = vertical ? `${height}px` : "";
    row.style.minHeight = vertical ? "0" : "";
  }

  /** Applies a `state` message: indicators, end-of-feed. */
  applyState(state) {
    this.state = state;
    const top = state.indicator?.top ?? {};
    const refreshing = Boolean(state.refreshing);
    let size = top.visible ? Math.max(0, Number(top.height) || 0) : 0;
    if (refreshing) size = Math.max(size, MIN_SPINNER_PX);
    const opacity = refreshing ? 1 : top.visible ? clamp01(Number(top.opacity) || 0) : 0;
    const scale = Number.isFinite(top.scale) ? top.scale : 1;
    const progress = clamp01(Number(state.pull?.progress) || 0);

    const indicator = this.topIndicator;
    indicator.classList.toggle("is-refreshing", refreshing);
    indicator.classList.toggle("is-armed", Boolean(state.pull?.eligible) && !refreshing);
    indicator.classList.toggle("is-visible", size > 0);
    if (this.axis === "horizontal") {
      indicator.style.width = `${size}px`;
      indicator.style.height = "";
    } else {
      indicator.style.height = `${size}px`;
      indicator.style.width = "";
    }
    indicator.style.opacity = String(opacity);
    this.topScale.style.transform = `scale(${scale})`;
    this.topRing.style.strokeDasharray = refreshing ? "" : `${progress * 100} 100`;

    this.refreshShift = refreshing ? size : 0;
    this.applyShift();

    this.bottomIndicator.hidden = !state.indicator?.bottom?.visible;
    const topEdge = state.topEdge ?? null;
    this.previousIndicator.hidden = !topEdge?.loadingPreviousPage;
    this.showPreviousFailure(topEdge?.loadFailure ?? null);
    const chat = this.describe(state.preset).opensAtBottom === true;
    if (chat !== this.phone.classList.contains("is-chat")) {
      this.phone.classList.toggle("is-chat", chat);
      this.virtual.remeasure(); // bubbles have margins and gaps a list's rows have not
    }
    if (JSON.stringify(state.loadFailure ?? null) !== JSON.stringify(this.loadFailure)) this.showLoadFailure(state.loadFailure ?? null);
    const busy = String(Boolean(state.loadingNextPage || refreshing));
    if (this.list.getAttribute("aria-busy") !== busy) this.list.setAttribute("aria-busy", busy);
    if (typeof state.hasMore === "boolean" && state.hasMore !== this.hasMore) {
      this.hasMore = state.hasMore;
      this.updatePositions();
    }
    this.updateEndOfFeed();
  }

  /** The simulated pull from the geometry reporter (px; negative: past the end). */
  setPull(px) {
    this.pull = px;
    this.applyShift();
  }

  applyShift() {
    const shift = this.contentShift();
    this.content.style.transform = shift !== 0 ? (this.axis === "horizontal" ? `translateX(${shift}px)` : `translateY(${shift}px)`) : "";
  }

  updateEndOfFeed() {
    // A chat's end is the live end, where new messages arrive: no "End of feed".
    const exhausted = this.hasMore === false && this.rev !== null && !this.phone.classList.contains("is-chat");
    this.endOfFeed.hidden = !exhausted;
    // A bounded window holds fewer rows than the feed has: the count is the session's (`total`).
    if (exhausted) this.endText.textContent = `End of feed · ${Math.max(this.total, this.virtual.count)} items`;
  }

  /** Vertical list or horizontal strip (config `axis`). */
  setAxis(axis) {
    this.axis = axis === "horizontal" ? "horizontal" : "vertical";
    const horizontal = this.axis === "horizontal";
    this.scroller.classList.toggle("is-horizontal", horizontal);
    this.topIndicator.classList.toggle("is-horizontal", horizontal);
    this.phone.classList.toggle("is-strip", horizontal);
    for (const row of this.list.children) this.sizeRow(row);
    this.virtual.remeasure();
    this.setInsetTop(this.insetTop);
    if (this.state) this.applyState(this.state);
  }

  /** Shows a sticky header of `px` over the top (leading edge) and insets the content by it. */
  setInsetTop(px) {
    this.insetTop = Math.max(0, Number(px) || 0);
    const horizontal = this.axis === "horizontal";
    this.insetSpacer.style.height = horizontal ? "" : `${this.insetTop}px`;
    this.insetSpacer.style.width = horizontal ? `${this.insetTop}px` : "";
    this.insetHeader.hidden = this.insetTop === 0;
    this.insetHeader.classList.toggle("is-horizontal", horizontal);
    this.insetHeader.style.height = horizontal ? "" : `${this.insetTop}px`;
    this.insetHeader.style.width = horizontal ? `${this.insetTop}px` : "";
    this.insetHeader.textContent = this.insetTop >= 24 ? `Sticky header · ${this.insetTop} px inset` : "";
    // The indicator sits just below the header, where the content's top edge is.
    this.topIndicator.style.top = horizontal ? "" : `${6 + this.insetTop}px`;
    this.topIndicator.style.left = horizontal ? `${6 + this.insetTop}px` : "";
  }
}

function clamp01(value) {
  return Math.min(1, Math.max(0, value));
}

function hash(text) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

function initials(title) {
  const digits = String(title).match(/\d+/);
  if (digits) return digits[0].slice(-6);
  const words = String(title).trim().split(/\s+/).filter(Boolean);
  return words.slice(0, 2).map((w) => w[0].toUpperCase()).join("") || "•";
}
