import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { atomicWrite, ForgeError, git, versionFile, writeStoreVersion } from "@forge/core";

/** Machine state and caches: never committed (DESIGN §3 data classes). */
export const IGNORED = [
  "ci/runs/",
  "releases/out/",
  "pilot/",
  ".cache/",
  "*.tmp",
  "*.lock",
  "releases/activations/",
  // A lock set aside while being broken (`<file>.lock.<pid>.<hex>.stale`), left when the breaker died.
  "*.stale",
];

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
  if (missing.length)
    atomicWrite(gi, (have === "" || have.endsWith("\n") ? have : have + "\n") + missing.join("\n") + "\n");
  // A store without a marker gets one: a new store, or one made by hand (`mkdir -p .forge/ci/steps`)
  // or of version 1, whose whole migration (the ignore lines above, then the marker) is what init just did.
  // A store with a marker keeps it (an older one is `forge migrate`'s, a newer one is refused).
  if (!existsSync(versionFile(path))) writeStoreVersion(path);
  return { path, existed };
}

/**
 * A store lives in a git work tree (CI, merges and releases all need one):
 * `forge init` outside one is refused before anything is made.
 * @throws ForgeError (exit 1) with the hint
 */
export async function checkWorkTree(dir: string, env: Record<string, string | undefined>): Promise<void> {
  const root = resolve(dir);
  let cwd = root;
  while (!existsSync(cwd)) cwd = resolve(cwd, "..");
  const r = await git(["rev-parse", "--is-inside-work-tree"], { cwd, env: env as NodeJS.ProcessEnv }).catch(
    () => undefined
  );
  if (r?.code === 0 && r.stdout.trim() === "true") return;
  throw new ForgeError(
    `${dir === "." ? "here" : dir} is not in a git work tree (run 'git init' there first)`,
    "E_NO_GIT",
    1
  );
}
