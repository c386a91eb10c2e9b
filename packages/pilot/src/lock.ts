/**
 * One pilot per repository: the run holds `.forge/pilot/lock` (core's lock,
 * created exclusively with its holder's pid in it, the form forge-pilot's
 * lock always had) from before the lane opens to after the report is
 * written. A second pilot fails at once; a lock whose process is gone is
 * broken, never one for its age (a run takes minutes).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { holdLock } from "@forge/core";

/**
 * Take the pilot's lock in `dir` (`.forge/pilot/`).
 * @returns its release
 * @throws ConflictError "another forge-pilot (pid N) runs in this repository"
 */
export function takePilotLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const held = holdLock(join(dir, "lock"), {
    waitMs: 0,
    staleMs: Infinity,
    pidOnly: true,
    busy: (pid) => `another forge-pilot (pid ${pid ?? "?"}) runs in this repository`,
  });
  return () => held.release();
}
