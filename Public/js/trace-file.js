// Reading a trace (format 1, docs/traces.md) in the page: its header, the geometry it recorded and the
// decisions, on the trace's own clock; and cutting it into `forkTrace` messages for a fork.

import { TRACE_FORMAT } from "../recorder.js";

/** The most bytes of one `forkTrace` message (the server takes 64 KiB by default). */
const MAX_PIECE_BYTES = 60_000;
/** UTF-16 units per slice of a line larger than a message: at most 6 bytes each once escaped, under the limit. */
const SLICE_UNITS = 8000;

const isHighSurrogate = (unit) => unit >= 0xd800 && unit <= 0xdbff;

/**
 * Parses a trace's text. Throws an Error naming the line ("line 3: not JSON") like `replay` does.
 * @returns {{header, lines, samples: {t, seq, geometry}[], decisions: {t, name, geometrySeq, data}[], start, end}}
 */
export function parseTrace(text) {
  const raw = text.split("\n");
  if (raw[raw.length - 1] === "") raw.pop();
  if (raw.length === 0) throw new Error("line 1: empty file: expected a header line");
  const lines = [];
  raw.forEach((lineText, index) => {
    let value;
    try {
      value = JSON.parse(lineText);
    } catch {
      // A last line cut off mid-write is left out, as replay does.
      if (index === raw.length - 1 && index > 0 && !text.endsWith("\n")) return;
      throw new Error(`line ${index + 1}: not JSON`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error(`line ${index + 1}: expected a JSON object`);
    lines.push(value);
  });
  const header = lines[0];
  if (header.kind !== "header") throw new Error('line 1: expected the header ("kind":"header")');
  if (typeof header.format !== "number") throw new Error('line 1: "format" must be a number');
  if (header.format > TRACE_FORMAT) {
    throw new Error(`line 1: made by a newer version: trace format ${header.format}, and this page reads format ${TRACE_FORMAT}`);
  }
  if (header.format !== TRACE_FORMAT) throw new Error(`line 1: unsupported trace format ${header.format}`);
  const samples = [];
  const decisions = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!Number.isSafeInteger(line.t) || line.t < 0) {
      throw new Error(`line ${i + 1}: "t" must be a non-negative integer (milliseconds)`);
    }
    // The reader's rule, as replay's: every time shown is counted from an earlier line's.
    if (i > 1 && line.t < lines[i - 1].t) {
      throw new Error(`line ${i + 1}: "t" ${line.t} goes back (line ${i} has ${lines[i - 1].t}): t never goes back`);
    }
    if (line.kind === "input" && line.message?.type === "geometry") {
      samples.push({ t: line.t, seq: line.message.seq, geometry: line.message });
    } else if (line.kind === "decision" && line.event && typeof line.event.name === "string") {
      decisions.push({ t: line.t, name: line.event.name, geometrySeq: line.event.geometrySeq, data: line.event.data ?? {} });
    }
  }
  // `t` never goes back: the first line after the header starts the trace, the last ends it.
  const start = lines.length < 2 ? 0 : lines[1].t;
  const end = lines.length < 2 ? 0 : lines[lines.length - 1].t;
  return { header, lines, samples, decisions, start, end };
}

/** The last geometry at or before `t`, or null. */
export function sampleAt(trace, t) {
  let found = null;
  for (const sample of trace.samples) {
    if (sample.t > t) break;
    found = sample;
  }
  return found;
}

/**
 * The `forkTrace` messages that carry what a fork at `t` needs: the header and every line up to `t`
 * except decisions (the server makes those again), each message under the server's size limit.
 */
export function forkPieces(trace, t) {
  return linePieces([trace.lines[0], ...trace.lines.slice(1).filter((line) => line.kind !== "decision" && line.t <= t)]);
}

/** The whole trace, decisions included, in `forkTrace` pieces: what "Try this hand under…" sends. */
export function tracePieces(trace) {
  return linePieces(trace.lines);
}

function linePieces(kept) {
  const encoder = new TextEncoder();
  const size = (piece) => encoder.encode(JSON.stringify({ type: "forkTrace", text: piece })).length;
  const pieces = [];
  let current = "";
  for (const line of kept) {
    const text = JSON.stringify(line) + "\n";
    if (current && size(current + text) > MAX_PIECE_BYTES) {
      pieces.push(current);
      current = "";
    }
    if (size(text) <= MAX_PIECE_BYTES) {
      current += text;
      continue;
    }
    // One line larger than a message (a header with a long item list): in slices, each ending on a code
    // point boundary (a slice ending inside a surrogate pair would not be valid text for the server).
    for (let i = 0; i < text.length;) {
      let end = Math.min(text.length, i + SLICE_UNITS);
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
      pieces.push(text.slice(i, end));
      i = end;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}
