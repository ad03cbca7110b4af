// "Use in your app": the live session's settings as `scroll-playground export` writes them (Swift, flags,
// a link). The server renders all three (GET /api/export); the page only shows and copies them.

import { byId } from "./dom.js";

const FORMATS = ["swift", "flags", "url"];

export class ExportPanel {
  constructor() {
    this.session = null;
    this.asked = 0; // the latest request; an older answer arriving late is dropped
    for (const format of FORMATS) {
      byId(`export-copy-${format}`).addEventListener("click", () => this.copy(format));
    }
  }

  /** Asks the server again: after a welcome and after every configChanged. */
  async refresh(session) {
    if (typeof session === "string") this.session = session;
    if (!this.session) return;
    const asked = ++this.asked;
    const base = `${location.origin}${location.pathname}`;
    const query = new URLSearchParams({ session: this.session, base });
    let answer;
    try {
      const response = await fetch(`/api/export?${query}`);
      answer = await response.json();
      if (!response.ok) throw new Error(answer?.error ?? `HTTP ${response.status}`);
    } catch (error) {
      if (asked === this.asked) byId("export-status").textContent = `Export unavailable: ${error.message}`;
      return;
    }
    if (asked !== this.asked) return;
    for (const format of FORMATS) {
      byId(`export-${format}`).textContent = typeof answer[format] === "string" ? answer[format] : "";
    }
    byId("export-status").textContent = "";
  }

  async copy(format) {
    const text = byId(`export-${format}`).textContent;
    const button = byId(`export-copy-${format}`);
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      // No clipboard (an http page on another host): select the text so ⌘C takes it.
      getSelection()?.selectAllChildren(byId(`export-${format}`));
      button.textContent = "Selected";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  }
}
