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
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) return "[" + value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",") + "]";
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalJson(obj[k])).join(",") + "}";
}
