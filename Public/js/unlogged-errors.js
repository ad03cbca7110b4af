// A refusal comes as an `error` reply and then a `protocolError` event saying the same: the event is the
// log's row (in the server's time order). Only an error no event follows gets a row of its own.

const ERROR_EVENT_WAIT_MS = 1000;

export class UnloggedErrors {
  #waiting = [];

  constructor(log) {
    this.log = log;
  }

  /** How many errors still wait for their event. */
  get count() {
    return this.#waiting.length;
  }

  /** An `error` reply: logged on its own unless its `protocolError` event arrives within a second. */
  note(msg) {
    const entry = { code: msg.code, message: msg.message, ...(msg.ref !== undefined ? { ref: msg.ref } : {}), ...(msg.field ? { field: msg.field } : {}) };
    this.#waiting.push(entry);
    entry.timer = setTimeout(() => {
      this.#waiting.splice(this.#waiting.indexOf(entry), 1);
      delete entry.timer;
      this.log.note("error", entry);
    }, ERROR_EVENT_WAIT_MS);
  }

  /** A `protocolError` event: the error it says is logged by it. */
  match(record) {
    const index = this.#waiting.findIndex((e) => e.code === record.data?.code && e.message === record.data?.message);
    if (index === -1) return;
    clearTimeout(this.#waiting[index].timer);
    this.#waiting.splice(index, 1);
  }
}
