/**
 * One pilot per repository: the run holds `.forge/pilot/lock` (core's lock:
 * created exclusively with its holder's pid, host and time in it) from
 * before the lane opens to after the report is written. A second pilot
 * fails at once; a lock whose process is gone is broken, never one for its
 * age (a run takes minutes).
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ForgeError, isForgeError, lockHolder, pidAlive, takeLockFile } from "@forge/core";

/**
 * Take the pilot's lock in `dir` (`.forge/pilot/`).
 * @returns its release
 * @throws ForgeError "another forge-pilot (pid N) runs in this repository"
 */
export function takePilotLock(dir: string): () => void {
  const file = join(dir, "lock");
  mkdirSync(dir, { recursive: true });
  dropLegacy(file);
  for (let tries = 0; ; tries++) {
    try {
      const held = takeLockFile(file, { waitMs: 0, staleMs: Infinity });
      return () => held.release();
    } catch (err) {
      if (!isForgeError(err) || err.code !== "E_CONFLICT") throw err;
      const pid = lockHolder(file);
      // Released between the two reads: try again.
      if (pid === undefined && tries < 3) continue;
      throw new ForgeError(`another forge-pilot (pid ${pid ?? "?"}) runs in this repository`);
    }
  }
}

/**
 * A lock written by a forge-pilot before this one (its pid alone, no host)
 * whose process is gone: removed, as that pilot would have overwritten it.
 */
function dropLegacy(file: string): void {
  let text: string;
  try {
    text = readFileSync(file, "latin1");
  } catch {
    return;
  }
  const m = /^([1-9][0-9]*)\n$/.exec(text);
  if (m && !pidAlive(Number(m[1]))) rmSync(file, { force: true });
}
