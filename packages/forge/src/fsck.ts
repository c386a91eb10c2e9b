/**
 * `forge fsck [--json] [--prune-temp]`: check the whole store like `git
 * fsck` (see `_fsck_store.ts`), one line per problem, exit 1 if any. Never
 * repairs; `--prune-temp` removes only stray temp files of interrupted
 * writes (older than a minute, so a write in progress keeps its own).
 */
import { rmSync, statSync } from "node:fs";
import { displayPath, findStore, STALE_MS, storeAt, UsageError } from "@forge/core";
import type { Io } from "@forge/cli";
import { fsckStore, strays, type Problem } from "./_fsck_store.js";

/** Options of `forge fsck`. */
export interface FsckOptions {
  json: boolean;
  pruneTemp: boolean;
}

/** The short help (`-h`). */
export const FSCK_HELP =
  "usage: forge fsck [--json] [--prune-temp]\nCheck every file of the store; one line per problem, exit 1 if any\n";

/**
 * argv → options.
 * @throws UsageError for an unknown flag or an argument
 */
export function parseFsckOptions(argv: string[]): FsckOptions {
  const o: FsckOptions = { json: false, pruneTemp: false };
  for (const a of argv) {
    if (a === "--json") o.json = true;
    else if (a === "--prune-temp") o.pruneTemp = true;
    else if (a.startsWith("-")) throw new UsageError(`unknown flag '${a.slice(0, 40)}'`);
    else throw new UsageError(`unexpected argument '${a.slice(0, 40)}'`);
  }
  return o;
}

/**
 * Run fsck in the store found from `io` (any version: a wrong one is a finding).
 * @returns the exit code: 0 clean, 1 when a problem was found
 */
export async function runFsck(io: Io, o: FsckOptions): Promise<number> {
  const store = storeAt(findStore({ cwd: io.cwd, env: io.env }));
  let pruned = 0;
  if (o.pruneTemp) {
    for (const p of strays(store.dir)) {
      if (!p.endsWith(".tmp")) continue;
      if (Date.now() - statSync(p).mtimeMs < STALE_MS) continue;
      rmSync(p, { recursive: true, force: true });
      pruned++;
      io.stderr.write(`forge fsck: removed ${displayPath(store, p)}\n`);
    }
  }
  let n = 0;
  for await (const p of fsckStore(store)) {
    n++;
    io.stdout.write(o.json ? JSON.stringify(p satisfies Problem) + "\n" : `${p.file}: ${p.problem}\n`);
  }
  if (pruned === 0 && n === 0 && io.stdout.isTTY) io.stderr.write("forge fsck: no problems\n");
  return n ? 1 : 0;
}
