/**
 * Temp folders made by a test file, removed when the file is done (an ava
 * `test.after.always` hook), so repeated runs do not fill the temp dir.
 */
import { rmSync } from "node:fs";

const dirs: string[] = [];

/** Remember `dir` for removal; returns it. */
export function scratch(dir: string): string {
  dirs.push(dir);
  return dir;
}

/** Remove every remembered folder. */
export function removeScratch(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}
