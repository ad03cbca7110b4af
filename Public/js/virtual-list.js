// The feed's rows as a LazyVStack draws them: only the rows within the viewport and an overscan each way are
// elements; the rest of the list is padding of the height the rows would have. Every row's size is known from
// its item (a row's height follows from its data: an item's `height`, or the one height of a row with or
// without a subtitle, measured from the first such row drawn), so the list is exactly as long as the list of
// every row would be and the geometry the page reports does not change (docs/decisions.md, issue 39).
//
// Under `contentSize: lazyEstimate` the list is as long as a LazyVStack reports (docs/fidelity.md): the rows
// drawn so far from the top down (realized) at their sizes, every row below them at the realized rows' mean.
// Rows above the viewport are always realized, so an estimate corrected never moves what is on screen: only
// the end moves, as the rows below are drawn.
//
// Sizes are along the axis and include a row's margins; `gap` is the list's gap between rows.

// A screen each way: a fling moves a few hundred px a frame at most, so a frame never shows the padding.
const OVERSCAN_SCREENS = 1;
// Rows are drawn again only once the viewport comes within half the overscan of the drawn rows' edge.
const REDRAW_AT = 0.5;
// Layout's unit: Chromium lays out in 1/64 px.
const LAYOUT_UNIT = 64;

export class VirtualList {
  /**
   * @param {object} options
   * @param {HTMLElement} options.scroller the element that scrolls.
   * @param {HTMLElement} options.list the rows' parent (a flex column or row).
   * @param {(item: object) => HTMLElement} options.createRow a row for an item.
   * @param {(row: HTMLElement, index: number) => void} options.placeRow marks a drawn row with its index.
   * @param {(item: object) => string} options.sizeKey rows of one key have one size.
   * @param {() => boolean} options.horizontal whether the list runs along x.
   */
  constructor({ scroller, list, createRow, placeRow, sizeKey, horizontal }) {
    Object.assign(this, { scroller, list, createRow, placeRow, sizeKey, horizontal });
    this.items = [];
    this.keys = []; // each item's size key
    this.sizes = new Float64Array(64);
    this.starts = new Float64Array(65); // starts[i]: where row i begins, the gaps before it included
    this.validStarts = 0; // starts[0…validStarts] are up to date
    this.measured = new Map(); // size key → measured size
    this.gap = null; // the list's gap, read once per layout mode
    this.first = 0; // the drawn rows: [first, end)
    this.end = 0;
    this.rows = new Map(); // id → drawn row
    this.unmeasured = false; // a drawn row could not be measured (the feed was hidden): measure at the next update
    this.lazy = false; // `contentSize: lazyEstimate`
    this.realized = 0; // under `lazy`: rows [0, realized) count at their sizes, the rest at their mean
    this.scroller.addEventListener("scroll", () => this.update(), { passive: true });
  }

  get count() {
    return this.items.length;
  }

  /** The list's new items, replacing all. */
  replace(items) {
    for (const row of this.rows.values()) row.remove();
    this.rows.clear();
    this.items = [];
    this.keys = [];
    this.first = this.end = 0;
    this.validStarts = 0;
    this.realized = 0;
    this.append(items);
  }

  append(items) {
    const start = this.items.length;
    this.insertData(start, items);
    this.update({ force: true });
  }

  /**
   * Items before the first. The drawn rows stay drawn, the same elements, moved down by the new rows' length:
   * the caller puts its anchor back (scrolls), then calls `update()`.
   */
  prepend(items) {
    if (items.length === 0) return;
    this.insertData(0, items);
    // Rows that arrive at the top count as realized (a refresh, older messages), as the lab's model has it.
    if (this.realized > 0) this.realized += items.length;
    this.redraw(this.first + items.length, this.end + items.length);
  }

  /** Removes `count` items at the top or the bottom. */
  remove(edge, count) {
    const n = Math.min(count, this.items.length);
    if (n === 0) return;
    const from = edge === "top" ? 0 : this.items.length - n;
    for (const item of this.items.slice(from, from + n)) {
      const row = this.rows.get(String(item.id));
      if (row) row.remove();
      this.rows.delete(String(item.id));
    }
    this.items.splice(from, n);
    this.keys.splice(from, n);
    this.realized = edge === "top" ? Math.max(0, this.realized - n) : Math.min(this.realized, this.items.length);
    this.sizes.copyWithin(from, from + n, this.items.length + n);
    // As `prepend`: the rows drawn and kept stay, and the caller updates once it has put its anchor back.
    if (edge === "top") {
      this.validStarts = 0;
      this.redraw(Math.max(0, this.first - n), Math.max(0, this.end - n));
    } else {
      this.validStarts = Math.min(this.validStarts, this.items.length);
      this.redraw(Math.min(this.first, this.items.length), Math.min(this.end, this.items.length));
    }
  }

  /** Draws [first, end) again, or the viewport's rows when that is empty. */
  redraw(first, end) {
    if (end > first) this.draw(first, end);
    else this.update({ force: true });
  }

  insertData(at, items) {
    const n = items.length;
    const total = this.items.length + n;
    if (total > this.sizes.length) {
      const grown = new Float64Array(Math.max(total, this.sizes.length * 2));
      grown.set(this.sizes.subarray(0, this.items.length));
      this.sizes = grown;
      this.starts = new Float64Array(grown.length + 1);
      this.validStarts = 0;
    }
    this.sizes.copyWithin(at + n, at, this.items.length);
    const keys = items.map((item) => this.sizeKey(item));
    this.probe(items, keys);
    for (let i = 0; i < n; i++) this.sizes[at + i] = this.sizeOf(keys[i], items[i]);
    // Not push(...items): a spread of 100,000 arguments overflows the stack.
    this.items = at === 0 ? items.concat(this.items) : this.items.concat(items);
    this.keys = at === 0 ? keys.concat(this.keys) : this.keys.concat(keys);
    this.validStarts = Math.min(this.validStarts, at);
  }

  /** A row's size before one of its key is measured: an item's own height, or the first row's. */
  sizeOf(key, item) {
    const known = this.measured.get(key);
    if (known !== undefined) return known;
    if (!this.horizontal() && typeof item.height === "number" && item.height > 0) return item.height + (this.margins ?? 0);
    return this.measured.values().next().value ?? 56;
  }

  /**
   * Measures one row of each key among `items` not measured yet, before any of them is drawn: each is added at
   * the list's end, all laid out at once, read and removed (in one task: never painted). So a row is never
   * counted at another size than its own, above the viewport either.
   */
  probe(items, keys) {
    const unmeasured = new Map();
    for (let i = 0; i < items.length; i++) {
      if (!this.measured.has(keys[i]) && !unmeasured.has(keys[i])) unmeasured.set(keys[i], items[i]);
    }
    if (unmeasured.size === 0) return;
    const probes = Array.from(unmeasured, ([key, item]) => [key, this.createRow(item)]);
    this.list.append(...probes.map(([, row]) => row));
    for (const [key, row] of probes) {
      const size = this.usedSize(row);
      if (size !== null) this.measured.set(key, size);
      row.remove();
    }
  }

  /**
   * A row's size along the list, its margins included, from its used style (in layout px: the frame's scale on
   * screen changes while the page lays itself out); null while the feed is not laid out (a hidden tab).
   */
  usedSize(row) {
    const style = getComputedStyle(row);
    const horizontal = this.horizontal();
    const used = parseFloat(horizontal ? style.width : style.height);
    if (!(used > 0)) return null;
    const margins = horizontal ? parseFloat(style.marginLeft) + parseFloat(style.marginRight) : parseFloat(style.marginTop) + parseFloat(style.marginBottom);
    this.margins = margins;
    return Math.round(used * LAYOUT_UNIT) / LAYOUT_UNIT + margins;
  }

  /** Forgets every measurement (the axis or the rows' style changed): rows are measured again as drawn. */
  remeasure() {
    this.measured.clear();
    this.gap = null;
    this.margins = null;
    this.keys = this.items.map((item) => this.sizeKey(item));
    this.probe(this.items, this.keys);
    for (let i = 0; i < this.items.length; i++) this.sizes[i] = this.sizeOf(this.keys[i], this.items[i]);
    this.validStarts = 0;
    this.update({ force: true });
  }

  /** Where row `index` begins along the list (its margin included), in the list's px. */
  startOf(index) {
    this.computeStarts(index);
    return this.starts[index];
  }

  /** The list's length: every row and the gaps between them. */
  get length() {
    const n = this.items.length;
    return n === 0 ? 0 : this.laidOutStart(n) - this.gapSize();
  }

  /**
   * Where the list lays out row `index`'s start: `startOf(index)`, or under `lazy` for a row past the realized
   * ones, the realized rows' length and the mean realized row for each row between.
   */
  laidOutStart(index) {
    if (!this.lazy || index <= this.realized) return this.startOf(index);
    const realized = this.realized;
    const gap = this.gapSize();
    const realizedStart = this.startOf(realized);
    const mean = realized === 0 ? this.sizes[0] : (realizedStart - realized * gap) / realized;
    return realizedStart + (index - realized) * (mean + gap);
  }

  /** `contentSize: lazyEstimate` on or off: the rows drawn so far count as realized. */
  setLazy(on) {
    if (this.lazy === on) return;
    this.lazy = on;
    this.realized = on ? this.end : 0;
    this.update({ force: true });
  }

  /** Under `lazy`: counts rows [0, end) as realized (their sizes replace the estimate) and lays the list out. */
  realize(end) {
    if (!this.lazy || end <= this.realized) return;
    this.realized = Math.min(end, this.items.length);
    this.setPadding(this.startOf(this.first), this.laidOutStart(this.items.length) - this.startOf(this.end));
  }

  computeStarts(upTo) {
    if (upTo <= this.validStarts) return;
    const gap = this.gapSize();
    const starts = this.starts;
    for (let i = this.validStarts; i < upTo; i++) starts[i + 1] = starts[i] + this.sizes[i] + gap;
    this.validStarts = upTo;
  }

  gapSize() {
    if (this.gap === null) {
      const style = getComputedStyle(this.list);
      this.gap = parseFloat(this.horizontal() ? style.columnGap : style.rowGap) || 0;
    }
    return this.gap;
  }

  /** The first row whose end is past `offset` (list px): a binary search over the starts. */
  indexAt(offset) {
    const n = this.items.length;
    this.computeStarts(n);
    let low = 0;
    let high = n;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.starts[middle + 1] <= offset) low = middle + 1;
      else high = middle;
    }
    return Math.min(low, Math.max(0, n - 1));
  }

  /** The viewport along the list: [start, end) in the list's px. */
  viewport() {
    const horizontal = this.horizontal();
    const s = this.scroller;
    const listOffset = horizontal ? this.list.offsetLeft + this.list.offsetParent.offsetLeft : this.list.offsetTop + this.list.offsetParent.offsetTop;
    const position = horizontal ? s.scrollLeft : s.scrollTop;
    const size = horizontal ? s.clientWidth : s.clientHeight;
    return { start: position - listOffset, end: position - listOffset + size, size };
  }

  /** Draws the rows the viewport needs, when they are not drawn already (or always, with `force`). */
  update({ force = false } = {}) {
    const n = this.items.length;
    if (n === 0) {
      this.setPadding(0, 0);
      return;
    }
    let view = this.viewport();
    if (this.lazy && this.realized < n && view.end >= this.length - 1) {
      // At the estimated end (a scroll to the bottom, the scroll bar dragged down): a LazyVStack scrolled to
      // its end has realized every row, and the view stays at the end it was sent to.
      this.realize(n);
      this.scrollToEnd();
      view = this.viewport();
    }
    const overscan = view.size * OVERSCAN_SCREENS;
    const margin = overscan * REDRAW_AT;
    const needFirst = this.indexAt(view.start - margin);
    const needEnd = this.indexAt(view.end + margin) + 1;
    if (!force && !this.unmeasured && needFirst >= this.first && needEnd <= this.end) return;
    this.draw(this.indexAt(view.start - overscan), this.indexAt(view.end + overscan) + 1);
  }

  /** Makes the rows [first, end) the drawn ones, keeping the elements of rows drawn before. */
  draw(first, end) {
    for (let pass = 0; pass < 3; pass++) {
      const keep = new Map();
      for (let i = first; i < end; i++) {
        const id = String(this.items[i].id);
        const row = this.rows.get(id);
        if (row) keep.set(id, row);
      }
      for (const [id, row] of this.rows) if (!keep.has(id)) row.remove();
      // The kept rows are one run, in order: new rows go before and after it.
      const before = document.createDocumentFragment();
      const after = document.createDocumentFragment();
      let seenKept = false;
      for (let i = first; i < end; i++) {
        const item = this.items[i];
        const id = String(item.id);
        let row = keep.get(id);
        if (row) seenKept = true;
        else {
          row = this.createRow(item);
          keep.set(id, row);
          (seenKept ? after : before).append(row);
        }
        this.placeRow(row, i);
      }
      this.list.prepend(before);
      this.list.append(after);
      this.rows = keep;
      this.first = first;
      this.end = end;
      if (this.lazy) this.realized = Math.max(this.realized, end);
      this.setPadding(this.startOf(first), this.laidOutStart(this.items.length) - this.startOf(end));
      if (!this.measure(first, end)) return;
    }
  }

  /**
   * Measures a drawn row of each key that has no size yet: every row of that key takes the size. True when a
   * size changed, and the rows must be drawn again.
   */
  measure(first, end) {
    this.unmeasured = false;
    let changed = false;
    for (let i = first; i < end; i++) {
      const key = this.keys[i];
      if (this.measured.has(key)) continue;
      const size = this.usedSize(this.rows.get(String(this.items[i].id)));
      if (size === null) {
        this.unmeasured = true;
        continue;
      }
      this.measured.set(key, size);
      for (let j = 0; j < this.items.length; j++) {
        if (this.keys[j] !== key || this.sizes[j] === size) continue;
        this.sizes[j] = size;
        this.validStarts = Math.min(this.validStarts, j);
        changed = true;
      }
    }
    return changed;
  }

  setPadding(before, after) {
    const horizontal = this.horizontal();
    const style = this.list.style;
    const [start, end] = horizontal ? ["paddingLeft", "paddingRight"] : ["paddingTop", "paddingBottom"];
    const [otherStart, otherEnd] = horizontal ? ["paddingTop", "paddingBottom"] : ["paddingLeft", "paddingRight"];
    const a = `${before}px`;
    const b = `${after}px`;
    if (style[start] !== a) style[start] = a;
    if (style[end] !== b) style[end] = b;
    if (style[otherStart]) style[otherStart] = "";
    if (style[otherEnd]) style[otherEnd] = "";
  }

  /** The drawn row of an item, drawing it (without scrolling) when its index is known. */
  rowAt(index) {
    if (index < 0 || index >= this.items.length) return null;
    if (index < this.first || index >= this.end) {
      const first = Math.min(index, this.first);
      const end = Math.max(index + 1, this.end);
      // Far from the drawn rows: the rows around the item alone.
      if (end - first > 200) this.draw(index, index + 1);
      else this.draw(first, end);
    }
    return this.rows.get(String(this.items[index].id)) ?? null;
  }

  /** `measure()` with every row drawn (as a list of every row lays out), the drawn window restored after. */
  withEveryRow(measure) {
    const { first, end, lazy, realized } = this;
    this.lazy = false;
    this.draw(0, this.items.length);
    try {
      return measure();
    } finally {
      Object.assign(this, { lazy, realized });
      this.draw(first, end);
    }
  }

  scrollToEnd() {
    const s = this.scroller;
    if (this.horizontal()) s.scrollLeft = s.scrollWidth;
    else s.scrollTop = s.scrollHeight;
  }

  indexOf(id) {
    const row = this.rows.get(id);
    if (row) {
      for (let i = this.first; i < this.end; i++) if (String(this.items[i].id) === id) return i;
    }
    return this.items.findIndex((item) => String(item.id) === id);
  }

  ids() {
    return this.items.map((item) => String(item.id));
  }
}
