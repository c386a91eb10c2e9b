/** Validated, de-duplicated records for compile(). */
import { canonicalJson } from "./canonical_json.js";
import { isInvalid } from "./validate.js";

/**
 * Validate records and drop duplicates: identical copies merge, conflicting
 * ones are all dropped with a `duplicate_id` marker; with `restated`, two
 * copies that differ only in `recorded_at` merge into `restated(a, b)`.
 */
export function uniqueRecords<T>(
  raw: unknown[],
  check: (v: unknown) => T | { invalid: string },
  key: (t: T) => string,
  what: string,
  markers: Set<string>,
  restated?: (a: T, b: T) => T
): T[] {
  const seen = new Map<string, T>();
  const conflicted = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    const r = check(v);
    if ((r as { invalid?: unknown }).invalid !== undefined && isInvalid(r as object)) {
      const rid = (v as Record<string, unknown> | null)?.[`${what}_id`];
      markers.add(
        `malformed_${what}:${typeof rid === "string" ? rid.slice(0, 80) : "(no id)"}:` +
          `${(r as { invalid: string }).invalid}`
      );
      continue;
    }
    const t = r as T;
    const k = key(t);
    const prev = seen.get(k);
    if (prev === undefined) {
      seen.set(k, t);
    } else if (prev !== t && !conflicted.has(k) && canonicalJson(prev) !== canonicalJson(t)) {
      if (restated && canonicalJson({ ...prev, recorded_at: "" }) === canonicalJson({ ...t, recorded_at: "" })) {
        seen.set(k, restated(prev, t));
      } else {
        conflicted.add(k);
        markers.add(`duplicate_id:${what}:${k}`);
      }
    }
  }
  const out: T[] = [];
  for (const [k, t] of seen) if (!conflicted.has(k)) out.push(t);
  return out;
}
