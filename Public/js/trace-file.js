// Reading a trace (format 1, docs/traces.md) in the page: its header, the geometry it recorded and the
// decisions, on the trace's own clock; and cutting it into `forkTrace` messages for a fork.

import { TRACE_FORMAT } from "../recorder.js";

/** The most bytes of one `forkTrace` message (the server takes 64 KiB by default). */
const MAX_PIECE_BYTES = 60_000;

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
    if (!Number.isFinite(line.t)) throw new Error(`line ${i + 1}: "t" must be a non-negative integer (milliseconds)`);
    if (line.kind === "input" && line.message?.type === "geometry") {
      samples.push({ t: line.t, seq: line.message.seq, geometry: line.message });
    } else if (line.kind === "decision" && line.event && typeof line.event.name === "string") {
      decisions.push({ t: line.t, name: line.event.name, geometrySeq: line.event.geometrySeq, data: line.event.data ?? {} });
    }
  }
  const times = lines.slice(1).map((line) => line.t);
  const start = times.length ? Math.min(...times) : 0;
  const end = times.length ? Math.max(...times) : 0;
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
  const kept = [trace.lines[0], ...trace.lines.slice(1).filter((line) => line.kind !== "decision" && line.t <= t)];
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
    // One line larger than a message (a header with a long item list): in slices.
    for (let i = 0; i < text.length; i += 8000) pieces.push(text.slice(i, i + 8000));
  }
  if (current) pieces.push(current);
  return pieces;
}
