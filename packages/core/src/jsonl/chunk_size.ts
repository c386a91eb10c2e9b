/**
 * How much output a writer of JSON lines gathers before each write: the
 * first line alone (`FIRST_CHUNK`: `| head -1` has its line as soon as it is
 * made), then 4 KiB, then twice as much each time, up to the writer's `max`.
 * A reader that has gone (EPIPE) is found after a few more lines, not after
 * `max` bytes of them; a long list still goes out in large writes.
 */
export const FIRST_CHUNK = 1;

/** The limit after a write made at `limit`. */
export function nextChunk(limit: number, max: number): number {
  return limit < 4096 ? 4096 : Math.min(limit * 2, max);
}
