// The notice at the top of the page for the settings of its link (`?preset=chat&bottomThreshold=1500`) that
// the server refused: each refused value once, in the server's words (its "did you mean" included), until
// dismissed. The rest of the link applies; a refused value is left out, never guessed.

import { byId, el } from "./dom.js";

const MAX_SHOWN_CHARS = 100;

export class LinkNotice {
  constructor() {
    this.box = byId("link-notice");
    this.list = byId("link-notice-list");
    this.shown = new Set(); // the settings already listed
    byId("link-notice-dismiss").addEventListener("click", () => {
      this.box.hidden = true;
    });
  }

  /** The server refused the link's `name` (its text `value`, or undefined when the link had no such key). */
  add(name, value, message) {
    if (this.shown.has(name)) return;
    this.shown.add(name);
    const item = el("li");
    const setting = value === undefined ? name : `${name}=${String(value)}`;
    item.append(el("code", "", setting.slice(0, MAX_SHOWN_CHARS)), ` — ${String(message).slice(0, 300)}`);
    this.list.append(item);
    this.box.hidden = false;
  }
}
