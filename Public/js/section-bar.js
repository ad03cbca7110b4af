// The inspector's section bar: a link to each section of its column (State, Preset, Settings, "Use in your
// app", and the timeline and log where they share the column), so everything is a click away from the first
// screen. The links are plain anchors (the column scrolls to the section); the section in view is marked.

/** How far below the bar a section's top may be and still count as the one in view (px). */
const IN_VIEW_SLACK_PX = 24;

export class SectionBar {
  constructor(bar) {
    this.bar = bar;
    this.links = Array.from(bar.querySelectorAll("a[data-section]"));
    this.frameRequest = null;
    // Scroll events do not bubble: caught on the way down from whichever column scrolls.
    document.addEventListener("scroll", () => this.schedule(), { capture: true, passive: true });
    window.addEventListener("resize", () => this.schedule());
    this.schedule();
  }

  schedule() {
    if (this.frameRequest !== null) return;
    this.frameRequest = requestAnimationFrame(() => {
      this.frameRequest = null;
      this.update();
    });
  }

  /**
   * Marks the last section whose top has reached the bar (the first, before any has); with the column
   * scrolled to its end, the last section whose top is in view (it can go no higher).
   */
  update() {
    if (this.bar.offsetParent === null) return; // a phone: the tabs do this
    const line = this.bar.getBoundingClientRect().bottom + IN_VIEW_SLACK_PX;
    const column = scrollingAncestor(this.bar);
    const atEnd = column !== null && column.scrollTop + column.clientHeight >= column.scrollHeight - 2;
    const bottom = column === null ? innerHeight : column.getBoundingClientRect().bottom;
    let current = null;
    for (const link of this.links) {
      const section = document.getElementById(link.dataset.section);
      if (link.offsetParent === null || !section || section.offsetParent === null) continue;
      const top = section.getBoundingClientRect().top;
      if (current === null || top <= line || (atEnd && top < bottom)) current = link;
    }
    for (const link of this.links) {
      if (link === current) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    }
  }
}

/** The element that scrolls `element` (its column on a wide screen), or null when the page does. */
function scrollingAncestor(element) {
  for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && node.scrollHeight > node.clientHeight) return node;
  }
  return null;
}
