/**
 * RFC 3339 UTC at second precision, the only timestamp format in the store.
 * @param d the instant (default: now)
 * @returns e.g. `2026-01-02T03:04:05Z`
 * @example formatTimestamp(new Date(0)) // "1970-01-01T00:00:00Z"
 */
export function formatTimestamp(d: Date = new Date()): string {
  return d.toISOString().slice(0, 19) + "Z";
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * Whether `s` is a store timestamp (RFC 3339, UTC, second precision) that
 * names a real instant.
 * @example isTimestamp("2026-01-02T03:04:05Z") // true
 */
export function isTimestamp(s: unknown): s is string {
  if (typeof s !== "string" || !TIMESTAMP.test(s)) return false;
  // The same answer as formatTimestamp(new Date(s)) === s, without the Date (list checks 20,000 of these).
  // Digits by char code (the regex has checked them): no slices, no closure.
  const two = (i: number): number => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;
  const y = two(0) * 100 + two(2);
  const mo = two(5);
  const d = two(8);
  if (mo < 1 || mo > 12 || d < 1 || two(11) > 23 || two(14) > 59 || two(17) > 59) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Whether `s` is a lowercase uuid v4, the identity of every entity.
 * @example isUuid("0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11") // true
 */
export function isUuid(s: unknown): s is string {
  return typeof s === "string" && UUID.test(s);
}
