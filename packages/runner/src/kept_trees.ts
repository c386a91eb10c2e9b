/**
 * Prepared worktrees kept from one forge-act process to the next: a pool
 * folder (forge-pilot makes one per run and names it in `FORGE_ACT_SETUPS`)
 * holds one JSON file per worktree a forge-act left open, with what ran in
 * it. The next forge-act takes them (each file renamed to its own name
 * first, so two never take the same), uses them as its own, and leaves
 * them again when it ends; the pool's owner removes every worktree the
 * pool names when its run ends (forge-pilot's setups.ts). Each kept worktree's
 * owner file names the pool's owner, so a pick-up after a kill of the
 * owner removes them as it removes an act's.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { atomicWrite } from "@forge/core";
import { adoptTree, type OpenTree } from "./worktree.js";

/** The environment variable naming the pool folder. */
export const SETUPS_ENV = "FORGE_ACT_SETUPS";

/** The owner file of a worktree's scratch folder, and of the pool folder (one pid a line). */
const OWNER = "forge-act.pid";

/** What a kept worktree's file says. */
export interface KeptTree {
  /** What the worktree is of (its tree, the setup steps' digest, the cache's key): only a trial of it may use it. */
  key: string;
  dir: string;
  commit: string;
  tree: string;
  setupId: string;
  /** The index of the last step that ran there (-1: none). */
  ranThrough: number;
}

/** A kept worktree taken over, and the file that said so (removed once it is kept again or closed). */
export interface TakenTree {
  kept: KeptTree;
  open: OpenTree;
  claim: string;
}

/**
 * Take every worktree the pool holds (a file another process is taking, or that is not a kept tree of a worktree
 * that still exists, is passed over).
 */
export function takeKeptTrees(pool: string, top: string): TakenTree[] {
  if (!existsSync(pool)) return [];
  const out: TakenTree[] = [];
  for (const n of readdirSync(pool)) {
    if (!n.endsWith(".json")) continue;
    const claim = join(pool, `${n}.taken-${process.pid}`);
    try {
      renameSync(join(pool, n), claim);
    } catch {
      continue;
    }
    const kept = parseKept(readFileSync(claim, "utf8"));
    if (!kept || !existsSync(join(kept.dir, ".git"))) {
      rmSync(claim, { force: true });
      continue;
    }
    out.push({ kept, open: adoptTree(top, kept.dir, kept.commit, kept.tree), claim });
  }
  return out;
}

/** Leave a worktree in the pool for the next process (its owner file names the pool's owner). */
export function keepTree(pool: string, kept: KeptTree): void {
  const owner = join(pool, OWNER);
  if (existsSync(owner)) atomicWrite(join(dirname(kept.dir), OWNER), readFileSync(owner, "utf8"));
  atomicWrite(join(pool, `${kept.setupId}.json`), JSON.stringify(kept) + "\n");
}

/** A kept tree's file, or undefined when it is not one (or names a folder openTree would not have made). */
function parseKept(text: string): KeptTree | undefined {
  let v: Partial<KeptTree>;
  try {
    v = JSON.parse(text) as Partial<KeptTree>;
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== "object") return undefined;
  const strings = [v.key, v.dir, v.commit, v.tree, v.setupId].every((x) => typeof x === "string" && x !== "");
  if (!strings || typeof v.ranThrough !== "number" || !Number.isSafeInteger(v.ranThrough)) return undefined;
  // openTree's worktree: `<tmp>/forge-XXXX/forge-XXXX`.
  const dir = v.dir!;
  if (!basename(dir).startsWith("forge-") || basename(dirname(dir)) !== basename(dir)) return undefined;
  return v as KeptTree;
}
