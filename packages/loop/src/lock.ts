/**
 * The loop's locks (a loop's `loop.lock`, an experience record's `.lock`):
 * core's lock, held as long as the process lives (a round runs checks),
 * never waited for, holding the owner's pid. A second process that finds
 * it gets a clear error (one wins, nothing interleaves); a lock whose
 * process is gone is broken, with a note for the caller to print.
 */
import { holdLock } from "@forge/core";

/** A held lock. */
export interface Held {
  release(): void;
  /** Set when a dead process's lock was broken to take this one. */
  note: string | null;
}

/**
 * Take `path` (e.g. `.forge/loops/<id>/loop.lock`).
 * @param what the thing locked, for the error (`loop 1a2b3c4d`)
 * @throws ConflictError when a live process holds it
 */
export function takeLock(path: string, what: string): Held {
  let note: string | null = null;
  const held = holdLock(path, {
    waitMs: 0,
    staleMs: Infinity,
    pidOnly: true,
    busy: (pid) =>
      pid === undefined
        ? `${what} is locked by another process; try again`
        : `${what} is being changed by another process (pid ${pid}); try again when it is done`,
    onBreak: ({ pid }) => {
      note = `broke the stale lock of ${what}${pid !== undefined ? ` (pid ${pid} is gone)` : ""}`;
    },
  });
  return { note, release: () => held.release() };
}
