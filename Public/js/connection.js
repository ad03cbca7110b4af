// The WebSocket to the server: hello, resume after a drop with backoff, ping/pong.
// It knows nothing about items or geometry; it hands every parsed message to its listeners.
// The session id and resume token live in sessionStorage (this tab only), so a reload resumes the
// session instead of opening a new one.

export const SUBPROTOCOL = "scroll-playground.v1";

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_EVERY_MS = 2000;
const PONG_TIMEOUT_MS = 8000;
export const SESSION_KEY = "scroll-playground.session";

/**
 * One logical connection that survives drops.
 *
 * Events (EventTarget): `status` (detail: {status, attempt, retryInMs}), `message` (detail: msg),
 * `rtt` (detail: ms), `welcome` (detail: {msg, resumed}).
 */
export class Connection extends EventTarget {
  /**
   * @param {object} options
   * @param {string} options.url WebSocket URL.
   * @param {() => object} options.helloFields extra fields for a first hello (preset, config).
   * @param {() => number} options.lastRev the newest items rev the page has applied.
   */
  constructor({ url, helloFields, lastRev }) {
    super();
    this.url = url;
    this.helloFields = helloFields;
    this.lastRev = lastRev;
    this.socket = null;
    this.status = "connecting";
    this.sessionId = null;
    this.resumeToken = null;
    this.sentResumeToken = null;
    this.attempt = 0;
    this.ready = false; // true between welcome and close
    this.nextPingId = 1;
    this.pendingPings = new Map(); // id -> {sentAt, resolve}
    this.rttMs = null;
    this.retryTimer = null;
    this.pingTimer = null;
    this.restored = false; // the token came from an earlier load of this page (a reload)
    this.pendingFork = null; // {pieces, hello, previous: {session, resume}} until the fork's welcome
    const saved = readStorage(SESSION_KEY);
    if (saved && typeof saved.session === "string" && typeof saved.resume === "string") {
      this.sessionId = saved.session;
      this.resumeToken = saved.resume;
      this.restored = true;
    }
  }

  /**
   * Before `start`: the first hello opens a new session instead of resuming the one this tab had, which
   * the server keeps for a while (`{session, resume}` is returned, to go back to it).
   */
  leaveSession() {
    const previous = { session: this.sessionId, resume: this.resumeToken };
    this.sessionId = null;
    this.resumeToken = null;
    this.restored = false;
    return previous;
  }

  /** Opens the first socket. */
  start() {
    this.open();
  }

  /** Sends a message if the session is ready; returns whether it went out. */
  send(message) {
    if (!this.ready || !this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /**
   * Leaves this session for a fork of a trace: a new socket sends the parent trace in `forkTrace`
   * messages, then `hello` with `fork`. If the server refuses the fork, the page resumes the session it
   * left (the `forkfailed` event says why).
   */
  fork({ pieces, fork, config }) {
    this.pendingFork = {
      pieces, hello: { type: "hello", version: 1, fork, config },
      previous: { session: this.sessionId, resume: this.resumeToken },
    };
    this.resumeToken = null;
    this.restored = false;
    const old = this.socket;
    this.socket = null;
    this.ready = false;
    clearInterval(this.pingTimer);
    if (old) old.close(1000, "forking a trace");
    this.attempt = 0;
    this.open();
  }

  /** Closes the socket as a network drop would, keeping the resume token: the page reconnects. */
  drop() {
    if (this.socket) this.socket.close(4000, "dropped from the page");
  }

  /** Round trip through the server: resolves with the RTT once the pong for a fresh ping arrives. */
  ping() {
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject(new Error("not connected"));
        return;
      }
      const id = this.nextPingId++;
      this.pendingPings.set(id, { sentAt: performance.now(), resolve });
      this.socket.send(JSON.stringify({ type: "ping", id }));
    });
  }

  open() {
    clearTimeout(this.retryTimer);
    this.setStatus(this.attempt === 0 && !this.resumeToken ? "connecting" : "reconnecting");
    let socket;
    try {
      socket = new WebSocket(this.url, SUBPROTOCOL);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.pendingFork) {
        for (const text of this.pendingFork.pieces) socket.send(JSON.stringify({ type: "forkTrace", text }));
        socket.send(JSON.stringify(this.pendingFork.hello));
        this.sentResumeToken = null;
        return;
      }
      const hello = { type: "hello", version: 1 };
      this.sentResumeToken = this.resumeToken;
      if (this.resumeToken) {
        // After a reload the token may be stale (the server restarted): the fields then open the new session.
        if (this.restored) Object.assign(hello, this.helloFields());
        hello.resume = this.resumeToken;
        hello.lastRev = this.lastRev();
      } else {
        Object.assign(hello, this.helloFields());
      }
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // the server only sends JSON; ignore anything else rather than crash the page
      }
      this.receive(message);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.ready = false;
      clearInterval(this.pingTimer);
      for (const ping of this.pendingPings.values()) ping.resolve(null);
      this.pendingPings.clear();
      this.scheduleRetry();
    });
  }

  /** A first `hello` again on the open socket, after the server refused one (no session was opened). */
  helloAgain() {
    if (this.ready || this.pendingFork || this.socket?.readyState !== WebSocket.OPEN) return;
    this.sentResumeToken = null;
    this.socket.send(JSON.stringify({ type: "hello", version: 1, ...this.helloFields() }));
  }

  receive(message) {
    if (message.type === "pong") {
      const ping = this.pendingPings.get(message.id);
      if (ping) {
        this.pendingPings.delete(message.id);
        this.rttMs = performance.now() - ping.sentAt;
        this.dispatchEvent(new CustomEvent("rtt", { detail: this.rttMs }));
        ping.resolve(this.rttMs);
      }
      return;
    }
    if (message.type === "error" && this.pendingFork && !this.ready) {
      // The fork was refused (before any session): back to the session the page left.
      const { previous } = this.pendingFork;
      this.pendingFork = null;
      this.sessionId = previous.session;
      this.resumeToken = previous.resume;
      this.dispatchEvent(new CustomEvent("forkfailed", { detail: message }));
      const hello = { type: "hello", version: 1, ...this.helloFields() };
      if (this.resumeToken) Object.assign(hello, { resume: this.resumeToken, lastRev: this.lastRev() });
      this.sentResumeToken = this.resumeToken;
      this.socket?.send(JSON.stringify(hello));
      return;
    }
    if (message.type === "welcome") {
      const forked = this.pendingFork !== null;
      this.pendingFork = null;
      // Session ids may repeat across server restarts; the token is what proves a resume.
      const resumed = Boolean(this.sentResumeToken) && message.session === this.sessionId
        && (message.resume ?? this.sentResumeToken) === this.sentResumeToken;
      const reloaded = resumed && this.restored;
      this.restored = false;
      this.sessionId = message.session;
      this.resumeToken = message.resume ?? this.resumeToken;
      writeStorage(SESSION_KEY, { session: this.sessionId, resume: this.resumeToken });
      this.attempt = 0;
      this.ready = true;
      this.setStatus("open");
      this.startPinging();
      this.dispatchEvent(new CustomEvent("welcome", { detail: { msg: message, resumed, reloaded, forked } }));
      return;
    }
    this.dispatchEvent(new CustomEvent("message", { detail: message }));
  }

  startPinging() {
    clearInterval(this.pingTimer);
    const beat = () => {
      const socket = this.socket;
      // A ping that stays unanswered means a dead peer: close so the retry loop takes over.
      for (const ping of this.pendingPings.values()) {
        if (performance.now() - ping.sentAt > PONG_TIMEOUT_MS && socket) {
          socket.close(4001, "pong timeout");
          return;
        }
      }
      this.ping().catch(() => {});
    };
    beat();
    this.pingTimer = setInterval(beat, PING_EVERY_MS);
  }

  scheduleRetry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.setStatus("reconnecting", delay);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  setStatus(status, retryInMs = null) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status, attempt: this.attempt, retryInMs } }));
  }
}

/** A JSON value from sessionStorage, or null (storage may be unavailable or hold junk). */
export function readStorage(key) {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** Stores a JSON value in sessionStorage; a full or unavailable storage only costs the reload feature. */
export function writeStorage(key, value) {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // nothing to do: the page works without it
  }
}

/** The WebSocket URL of the server that served this page. */
export function defaultSocketURL() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}
