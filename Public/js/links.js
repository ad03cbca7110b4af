// The page's link. Its settings (`?preset=chat&bottomThreshold=1500`, as `export --format url` writes them)
// open the session; one the server refuses is shown at the top of the page and left out of the next hello.
// Which link each session of this tab was opened with (`{session, link, preset}`) is kept: a reload of that
// link resumes the session; another link with settings opens a new session with them, with the way back
// (docs/decisions.md, issue 40).

import { SESSION_KEY, readStorage, writeStorage } from "./connection.js";
import { LinkNotice } from "./link-notice.js";

const LINK_KEY = "scroll-playground.link";

/** A query as a link's identity: its names and values, in order of name (an empty query: ""). */
function canonicalQuery(search) {
  const pairs = [...new URLSearchParams(search)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(pairs).toString();
}

/** A link's text as the command line reads it (ScrollConfig.apply(name:text:)): number, boolean or text. */
function linkValue(text) {
  if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  return text === "true" || text === "false" ? text === "true" : text;
}

export class PageLink {
  settings = {};
  text = {}; // each setting as the link spelled it, for the notice of a refused one
  notice = new LinkNotice();
  query = canonicalQuery(location.search);
  // The session this tab had when a new link replaced it (`{session, resume, link, preset}`), for the way back.
  previous = null;

  constructor() {
    for (const [name, text] of new URLSearchParams(location.search)) {
      this.settings[name] = linkValue(text);
      this.text[name] = text;
    }
  }

  /** The hello's preset and settings: the link's, with `physics` (this tab's choice) unless the link sets it. */
  helloFields(physics) {
    const { preset, ...settings } = this.settings;
    const chosen = settings.physics === undefined && physics ? { physics } : {};
    return { ...(preset !== undefined ? { preset: String(preset) } : {}), config: { ...chosen, ...settings } };
  }

  /** Before the first hello: a link with settings that is not the one this tab's session was opened with opens
   *  a new session with them (a reload of the same link resumes), so the page shows what the address bar says. */
  leaveOtherSession(connection) {
    if (!connection.restored || this.query === "") return;
    const opened = readStorage(LINK_KEY);
    const same = opened?.session === connection.sessionId;
    if (!(same && opened.link === this.query)) {
      this.previous = { ...connection.leaveSession(), link: same ? opened.link : "", preset: same ? opened.preset : undefined };
    }
  }

  /** A new session opened: notes its link. A fork is the trace's session, not the link's: the address bar drops
   *  the link, so a reload resumes it. */
  opened(msg, forked) {
    if (forked && location.search) history.replaceState(null, "", location.pathname);
    writeStorage(LINK_KEY, { session: msg.session, link: forked ? "" : this.query, preset: msg.config?.preset });
  }

  /** When the link replaced this tab's session: says so at the top, and gives the way back ({previous, back}). */
  announce(session) {
    if (!this.previous) return null;
    const back = () => this.#backToPrevious();
    this.notice.openedNewSession(session, this.previous, back);
    return { previous: this.previous, back };
  }

  /** Notes the session's preset beside its link, for the way back to it. */
  presetNow(session, preset) {
    const opened = readStorage(LINK_KEY);
    if (opened?.session === session && opened.preset !== preset) writeStorage(LINK_KEY, { ...opened, preset });
  }

  /** A refused first hello opened no session: the link's settings are what it refused. True when it was one. */
  refused(msg) {
    if (msg.code !== "bad_message" || Object.keys(this.settings).length === 0) return false;
    const field = typeof msg.field === "string" ? msg.field : "setting";
    this.notice.add(field, this.text[field], msg.message ?? "not accepted");
    if (Object.hasOwn(this.settings, field)) delete this.settings[field];
    else for (const name of Object.keys(this.settings)) delete this.settings[name];
    return true;
  }

  /** Goes back to the session a link replaced: its link in the address bar, and a reload resumes it. */
  #backToPrevious() {
    const { session, resume, link, preset } = this.previous;
    writeStorage(SESSION_KEY, { session, resume });
    writeStorage(LINK_KEY, { session, link, preset });
    location.assign(`${location.pathname}${link ? `?${link}` : ""}`);
  }
}
