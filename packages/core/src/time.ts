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
  return typeof s === "string" && TIMESTAMP.test(s) && formatTimestamp(new Date(s)) === s;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Whether `s` is a lowercase uuid v4, the identity of every entity.
 * @example isUuid("0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11") // true
 */
export function isUuid(s: unknown): s is string {
  return typeof s === "string" && UUID.test(s);
}
