import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { atomicWrite, ForgeError } from "@forge/core";

/** Machine state and caches: never committed (DESIGN §3 data classes). */
export const IGNORED = ["ci/runs/", "releases/out/", "pilot/", ".cache/", "*.tmp", "releases/activations/"];

/**
 * Make `.forge/` in `dir` with its `.gitignore`; safe to run again (adds
 * only missing lines, never removes anything).
 * @returns the store path and whether it already existed
 */
export function initStore(dir: string): { path: string; existed: boolean } {
  const root = resolve(dir);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new ForgeError(`${dir} is not a folder`, "E_NOT_DIR", 1);
  const path = join(root, ".forge");
  const existed = existsSync(path);
  mkdirSync(path, { recursive: true });
  const gi = join(path, ".gitignore");
  const have = existsSync(gi) ? readFileSync(gi, "utf8") : "";
  const lines = have.split("\n");
  const missing = IGNORED.filter((l) => !lines.includes(l));
  if (missing.length) atomicWrite(gi, (have === "" || have.endsWith("\n") ? have : have + "\n") + missing.join("\n") + "\n");
  return { path, existed };
}
