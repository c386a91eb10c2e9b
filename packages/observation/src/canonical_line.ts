/**
 * canonicalLine(): the kernel's `canonicalJson`, byte for byte, in one
 * native `JSON.stringify` over the value itself where its keys are already
 * in order, else over a copy of the objects that are not. The
 * kernel's writer concatenates a string per key and per value, which in a
 * one-shot process (cold code) costs ~3× the native call on an
 * observation of 3,000 lines. Where the native call would differ from
 * the kernel's rules — a key that is an array index (objects order those
 * numerically, whatever the insertion order), `__proto__`, a `toJSON`
 * method, a non-finite number, a value that is not JSON data (function,
 * bigint, symbol) — the kernel's writer answers instead, so the output
 * never depends on which path ran.
 *
 * Why two writers: the kernel's `canonicalJson` is the definition (it hashes
 * plan ids and evidence, and answers every value); this is only a faster
 * path to the same bytes for the loop's hot output (forge-observe's lines,
 * forge-plan's target lines), benchmarked on the loop's critical path. Its
 * test checks the bytes against the kernel's on every edge case.
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
  try {
    return JSON.stringify(sorted(value));
  } catch (err) {
    if (err === DIFFERS) return canonicalJson(value);
    throw err;
  }
}

/**
 * `v` with every object's keys in sorted order: `v` itself where it already
 * is (observe's and plan's hot lines are built so: no copy), a copy of just
 * the objects that are not. Throws DIFFERS where the kernel's writer must answer.
 */
function sorted(v: unknown): unknown {
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
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      // An undefined item is written as null either way.
      const y = x === undefined ? x : sorted(x);
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return out ?? v;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.toJSON === "function") throw DIFFERS;
  const keys = Object.keys(o);
  let inOrder = true;
  let vals: unknown[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = o[k];
    if (x === undefined) continue; // left out either way
    if (k === "__proto__" || (k.charCodeAt(0) <= 57 && INDEX.test(k))) throw DIFFERS;
    if (i > 0 && !(keys[i - 1]! < k)) inOrder = false;
    const y = sorted(x);
    if (y !== x) (vals ??= keys.map((key) => o[key]))[i] = y;
  }
  if (inOrder && vals === undefined) return o;
  const at = keys.map((_, i) => i);
  if (!inOrder) at.sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1));
  const out: Record<string, unknown> = {};
  for (const i of at) {
    const y = vals ? vals[i] : o[keys[i]!];
    if (y !== undefined) out[keys[i]!] = y;
  }
  return out;
}
