/**
 * Bounded machine state: `releases/out/` keeps the build output of the
 * newest `keep_runs` releases (`ci.env`, default 200), by the time each
 * folder was last written; older output folders are removed after each
 * build. The release files themselves (`releases/<tag>.md`, with every
 * asset's size and sha256) are authored truth and never touched.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  ciEnvFile,
  ciSettings,
  displayPath,
  parseCiEnv,
  readStoreBytes,
  releaseOutRoot,
  type Store,
} from "@forge/core";

/**
 * Remove the oldest output folders beyond `keep`.
 * @returns the tags whose output was removed
 */
export function pruneReleaseOut(store: Store, keep: number = keepRuns(store)): string[] {
  const root = releaseOutRoot(store);
  let dirs: Array<{ tag: string; at: number }>;
  try {
    dirs = readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => ({ tag: e.name, at: statSync(join(root, e.name)).mtimeMs }));
  } catch {
    return [];
  }
  if (dirs.length <= keep) return [];
  dirs.sort((a, b) => b.at - a.at || (a.tag < b.tag ? 1 : -1));
  const gone = dirs.slice(keep).map((d) => d.tag);
  for (const tag of gone) rmSync(join(root, tag), { recursive: true, force: true });
  return gone;
}

function keepRuns(store: Store): number {
  try {
    const f = ciEnvFile(store);
    return ciSettings(parseCiEnv(readStoreBytes(store, f).toString("utf8"), displayPath(store, f))).keepRuns ?? 200;
  } catch {
    return 200;
  }
}
