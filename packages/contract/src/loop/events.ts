/**
 * `events.jsonl`: the loop's append-only timeline. Every line is one JSON
 * object with `event_sequence` (1, 2, 3… with no gap) and `hash`, the
 * sha256 of the previous line's hash and this event's canonical JSON, so a
 * truncated, gapped, reordered, duplicated or edited line is found and
 * named. Damage is reported (`storage_corruption`), never repaired,
 * re-sorted or skipped.
 */
import { canonicalJson } from "@forge/kernel";
import { sha256 } from "./_util.js";

/** One event as stored. */
export interface LoopEvent {
  event_sequence: number;
  type: string;
  at: string;
  hash: string;
  [key: string]: unknown;
}

/** The hash of an event (its `hash` field left out) after `prev`. */
export function eventHash(prev: string, ev: Record<string, unknown>): string {
  const { hash: _h, ...rest } = ev;
  return sha256(`${prev}\n${canonicalJson(rest)}`);
}

/** A verified timeline, or the first damaged line. */
export type ParsedEvents = { events: LoopEvent[]; error?: undefined } | { error: string; events?: undefined };

/**
 * Parse and verify events.jsonl's text.
 * @returns the events, or `error` naming the damaged line
 */
export function parseEvents(text: string): ParsedEvents {
  if (text === "") return { error: "empty (no loop_started event)" };
  const lines = text.split("\n");
  if (lines[lines.length - 1] !== "") return { error: `line ${lines.length}: truncated (no final newline)` };
  lines.pop();
  const events: LoopEvent[] = [];
  let prev = "";
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return { error: `line ${n}: not JSON` };
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) return { error: `line ${n}: not a JSON object` };
    const ev = v as LoopEvent;
    if (typeof ev.event_sequence !== "number") return { error: `line ${n}: no event_sequence` };
    if (ev.event_sequence !== n) {
      const why = ev.event_sequence <= events.length ? "duplicate or out of order" : "gap";
      return { error: `line ${n}: event_sequence ${ev.event_sequence} where ${n} was expected (${why})` };
    }
    if (typeof ev.type !== "string" || typeof ev.at !== "string") return { error: `line ${n}: no type or at` };
    if (n === 1 && ev.type !== "loop_started") return { error: "line 1: not a loop_started event" };
    if (typeof ev.hash !== "string" || ev.hash !== eventHash(prev, ev))
      return { error: `line ${n}: hash does not match (edited)` };
    prev = ev.hash;
    events.push(ev);
  }
  return { events };
}

/**
 * New events after `last` as JSON lines (sequence and hash filled in).
 * @returns the text to append and the new head
 */
export function chainEvents(
  last: { sequence: number; hash: string },
  evs: Array<Record<string, unknown>>
): { text: string; sequence: number; hash: string; events: LoopEvent[] } {
  let seq = last.sequence;
  let prev = last.hash;
  let text = "";
  const out: LoopEvent[] = [];
  for (const e of evs) {
    const ev: Record<string, unknown> = { event_sequence: ++seq, ...e };
    delete ev.hash;
    ev.hash = eventHash(prev, ev);
    prev = ev.hash as string;
    text += JSON.stringify(ev) + "\n";
    out.push(ev as LoopEvent);
  }
  return { text, sequence: seq, hash: prev, events: out };
}
