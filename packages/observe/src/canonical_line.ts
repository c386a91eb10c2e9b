/**
 * canonicalLine(): the kernel's `canonicalJson`, byte for byte, in one
 * native `JSON.stringify` over a copy whose keys are inserted sorted. The
 * kernel's writer concatenates a string per key and per value, which in a
 * one-shot process (cold code) costs ~3× the native call on an
 * observation of 3,000 lines. Where the native call would differ from
 * the kernel's rules — a key that is an array index (objects order those
 * numerically, whatever the insertion order), `__proto__`, a `toJSON`
 * method, a non-finite number, a value that is not JSON data (function,
 * bigint, symbol) — the kernel's writer answers instead, so the output
 * never depends on which path ran.
 */
import { canonicalJson } from "@forge/kernel";

/** Thrown (one shared instance) when a value needs the kernel's writer. */
const DIFFERS = new Error("canonicalLine: not plain JSON data");
const INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The canonical JSON of `value` (same bytes as `canonicalJson(value)`).
 * @example canonicalLine({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalLine(value: unknown): string {
  // A line built with its keys in order (observe's and plan's hot lines are) is written as it is: no copy.
  if (inOrder(value)) return JSON.stringify(value);
  try {
    return JSON.stringify(sortedCopy(value));
  } catch (err) {
    if (err === DIFFERS) return canonicalJson(value);
    throw err;
  }
}

function sortedCopy(v: unknown): unknown {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      if (!Number.isFinite(v)) throw DIFFERS;
      return v;
    case "object":
      break;
    default:
      throw DIFFERS;
  }
  if (v === null) return null;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined ? null : sortedCopy(x);
    }
    return out;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.toJSON === "function") throw DIFFERS;
  const keys = Object.keys(o);
  keys.sort();
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const x = o[k];
    if (x === undefined) continue;
    if (k === "__proto__" || INDEX.test(k)) throw DIFFERS;
    out[k] = sortedCopy(x);
  }
  return out;
}

/**
 * Whether `JSON.stringify(v)` already gives the canonical bytes: every
 * object's keys are in sorted order, and nothing needs the copy's care
 * (exactly the values `sortedCopy` accepts).
 */
function inOrder(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v);
    case "object":
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== undefined && !inOrder(x)) return false;
    }
    return true;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.toJSON === "function") return false;
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if ((i > 0 && !(keys[i - 1]! < k)) || k === "__proto__" || (k.charCodeAt(0) <= 57 && INDEX.test(k))) return false;
    const x = o[k];
    if (x !== undefined && !inOrder(x)) return false;
  }
  return true;
}
