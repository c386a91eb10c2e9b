/**
 * A lock as git takes them: `<file>.lock` created with O_EXCL, holding the
 * owner's pid. A second process that finds it gets a clear error (one
 * wins, nothing interleaves); a lock whose process is gone is broken, with
 * a note for the caller to print.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { ConflictError, pidAlive } from "@forge/core";

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
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(path, "wx", 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        note,
        release: () => {
          if (released) return;
          released = true;
          try {
            unlinkSync(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || tries > 0) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new ConflictError(`${what} is locked by another process; try again`);
        throw err;
      }
      const pid = ownerOf(path);
      if (pid !== null && pidAlive(pid)) throw new ConflictError(`${what} is being changed by another process (pid ${pid}); try again when it is done`);
      // The owner is gone (or the file is unreadable garbage): break it once, then retry.
      try {
        unlinkSync(path);
      } catch {
        // Someone else broke it first; the retry decides.
      }
      note = `broke the stale lock of ${what}${pid !== null ? ` (pid ${pid} is gone)` : ""}`;
    }
  }
}

function ownerOf(path: string): number | null {
  try {
    const n = Number(readFileSync(path, "utf8").trim());
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}
