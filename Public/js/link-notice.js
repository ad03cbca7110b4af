// The notice at the top of the page about its link (`?preset=chat&bottomThreshold=1500`): the settings the
// server refused, each once in the server's words (its "did you mean" included), and, when the link opened
// a new session in a tab that had one, the way back to that session. Shown until dismissed. The rest of the
// link applies; a refused value is left out, never guessed.

import { byId, el } from "./dom.js";

const MAX_SHOWN_CHARS = 100;

export class LinkNotice {
  constructor() {
    this.box = byId("link-notice");
    this.title = byId("link-notice-title");
    this.list = byId("link-notice-list");
    this.session = byId("link-notice-session");
    this.shown = new Set(); // the settings already listed
    this.title.hidden = true;
    this.list.hidden = true;
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
    this.title.hidden = false;
    this.list.hidden = false;
    this.box.hidden = false;
  }

  /**
   * The link opened a new session with its settings although the tab had `previous` (`{session, preset}`)
   * open: says so, with a button that goes back to it (`back`).
   */
  openedNewSession(session, previous, back) {
    const button = el("button", "btn btn-small", `Back to session ${previous.session}`);
    button.type = "button";
    button.addEventListener("click", back);
    const was = previous.preset ? ` (${previous.preset})` : "";
    this.session.replaceChildren(
      `This link opened session ${session} with its settings. The session this tab had, ${previous.session}${was}, is kept: `,
      button,
    );
    this.session.hidden = false;
    this.box.hidden = false;
  }
}
