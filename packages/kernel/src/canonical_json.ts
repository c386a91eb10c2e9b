/**
 * Canonical JSON: object keys sorted (UTF-16 order), no whitespace,
 * `undefined` members dropped. The same value gives the same bytes on every
 * machine, so hashes and files are reproducible.
 * @param value any JSON value
 * @returns compact text
 * @throws TypeError for a non-finite number
 * @example canonicalJson({b: 1, a: [true, null]}) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return write(value);
}

// --- internal ---

function write(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    default:
      return "null";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    let s = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) s += ",";
      const v: unknown = value[i];
      s += v === undefined ? "null" : write(v);
    }
    return s + "]";
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  // Sorted by UTF-16 code units, as Array.prototype.sort compares strings.
  keys.sort();
  let s = "{";
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    if (!first) s += ",";
    first = false;
    s += JSON.stringify(k) + ":" + write(v);
  }
  return s + "}";
}
