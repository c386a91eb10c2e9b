/**
 * Field checks for the records a stage reads (act results, CI runs, merge
 * records, loop results): each returns the field's value or throws a
 * RecordError naming it (with `prefix`, e.g. `trials[0].`).
 */
import { ForgeError, isTimestamp } from "@forge/core";

/**
 * An input record that breaks its schema (`E_INVALID_RECORD`; exit 1 for
 * the batch; the line is named by the caller).
 */
export class RecordError extends ForgeError {
  readonly field: string;
  constructor(field: string, why: string) {
    super(`field '${field}': ${why}`, "E_INVALID_RECORD", 1);
    this.name = "RecordError";
    this.field = field;
  }
}

/** A record as read from a JSON line. */
export type Rec = Record<string, unknown>;

/** A string check: a pattern, or a predicate such as core's `isUuid`. */
export type StringTest = RegExp | ((s: string) => boolean);

/** A non-empty string. */
export function str(o: Rec, k: string, prefix = ""): string {
  const v = o[k];
  if (typeof v !== "string" || v === "") throw new RecordError(prefix + k, "expected a non-empty string");
  return v;
}

/** A string, or null when absent. */
export function optStr(o: Rec, k: string, prefix = ""): string | null {
  const v = o[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw new RecordError(prefix + k, "expected a string or null");
  return v;
}

/** A string that passes `re` (`what` says what was expected). */
export function match(o: Rec, k: string, re: StringTest, what: string, prefix = ""): string {
  const v = o[k];
  if (typeof v !== "string" || !(typeof re === "function" ? re(v) : re.test(v))) {
    throw new RecordError(prefix + k, `expected ${what}`);
  }
  return v;
}

/** A string that passes `re`, or null when absent. */
export function optMatch(o: Rec, k: string, re: StringTest, what: string, prefix = ""): string | null {
  return o[k] === undefined || o[k] === null ? null : match(o, k, re, what, prefix);
}

/** An RFC 3339 UTC timestamp. */
export function ts(o: Rec, k: string, prefix = ""): string {
  return match(o, k, isTimestamp, "an RFC 3339 UTC timestamp", prefix);
}

/** An RFC 3339 UTC timestamp, or null when absent. */
export function optTs(o: Rec, k: string, prefix = ""): string | null {
  return optMatch(o, k, isTimestamp, "an RFC 3339 UTC timestamp or null", prefix);
}

/** A safe integer ≥ `min`. */
export function int(o: Rec, k: string, prefix = "", min = 0): number {
  const v = o[k];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) {
    throw new RecordError(prefix + k, `expected an integer ≥ ${min}`);
  }
  return v;
}

/** A safe integer, or null when absent. */
export function optInt(o: Rec, k: string, prefix = ""): number | null {
  const v = o[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) {
    throw new RecordError(prefix + k, "expected an integer or null");
  }
  return v;
}

/** One of `values`. */
export function oneOf<T extends string>(o: Rec, k: string, values: readonly T[], prefix = ""): T {
  const v = o[k];
  if (!values.includes(v as T)) throw new RecordError(prefix + k, `expected ${values.join("|")}`);
  return v as T;
}

/** A list of objects. */
export function list(o: Rec, k: string, prefix = ""): Rec[] {
  const v = o[k];
  if (!Array.isArray(v)) throw new RecordError(prefix + k, "expected a list");
  for (const [i, x] of v.entries()) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) {
      throw new RecordError(`${prefix}${k}[${i}]`, "expected an object");
    }
  }
  return v as Rec[];
}

/** A list of strings ([] when absent). */
export function strings(o: Rec, k: string, prefix = ""): string[] {
  const v = o[k];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
    throw new RecordError(prefix + k, "expected a list of strings");
  }
  return v as string[];
}

/** A commit or tree id: 40 hex (SHA-1) or 64 hex (SHA-256). */
export const SHA1_OR_256 = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** A sha256 digest: 64 hex. */
export const SHA256 = /^[0-9a-f]{64}$/;
/** A failure signature (`sig-v1:<32 hex>`; later versions keep the shape). */
export const SIGNATURE = /^sig-v\d+:[0-9a-f]{32}$/;
