/**
 * The run's setup pool: a scratch folder forge-pilot names to every
 * forge-act it starts (`FORGE_ACT_SETUPS`), where an act leaves its
 * prepared worktrees for the next (runner's kept_trees.ts: one JSON file a
 * worktree), so the steps before a target run once per tree for the whole
 * run, not once per act. Its owner file, and each kept worktree's, names
 * the pilot, so a pick-up after a kill removes them (recover.ts); the
 * run's end removes them itself.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { atomicWrite } from "@forge/core";
import type { Tools } from "./tools.js";

/** forge-act's variable naming the pool (@forge/runner's SETUPS_ENV). */
export const SETUPS_ENV = "FORGE_ACT_SETUPS";

/**
 * Make the pool and hand it to the forge-act the tools start.
 * @returns what removes the worktrees kept there and the pool (the count removed)
 */
export function openSetupPool(tools: Tools): () => Promise<number> {
  const pool = mkdtempSync(join(tmpdir(), "forge-setups-"));
  atomicWrite(join(pool, "forge-act.pid"), `${process.pid}\n`);
  tools.setEnv(SETUPS_ENV, pool);
  return async () => {
    tools.setEnv(SETUPS_ENV, undefined);
    let n = 0;
    for (const f of existsSync(pool) ? readdirSync(pool) : []) {
      if (!/\.json(\.taken-\d+)?$/.test(f)) continue;
      const dir = keptDir(readFileSync(join(pool, f), "utf8"));
      if (!dir || !existsSync(dir)) continue;
      await tools.run("git", ["worktree", "remove", "--force", "--force", dir]);
      rmSync(dirname(dir), { recursive: true, force: true });
      n++;
    }
    rmSync(pool, { recursive: true, force: true });
    if (n > 0) await tools.run("git", ["worktree", "prune"]);
    return n;
  };
}

/** The worktree a kept tree's file names, when it is one forge-act made (`<tmp>/forge-X/forge-X`). */
function keptDir(text: string): string | undefined {
  let v: { dir?: unknown };
  try {
    v = JSON.parse(text) as { dir?: unknown };
  } catch {
    return undefined;
  }
  const dir = v?.dir;
  if (typeof dir !== "string" || dirname(dirname(dir)) !== tmpdir()) return undefined;
  return basename(dir).startsWith("forge-") && basename(dirname(dir)) === basename(dir) ? dir : undefined;
}
