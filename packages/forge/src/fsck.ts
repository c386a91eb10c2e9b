/**
 * `forge fsck [--json] [--prune-temp]`: check the whole store like `git
 * fsck` (see `_fsck_store.ts`), one line per problem, exit 1 if any. Never
 * repairs; `--prune-temp` removes only stray temp files of interrupted
 * writes and locks set aside by an interrupted lock break (`.stale`), older
 * than a minute, so a write or a break in progress keeps its own.
 */
import { rmSync, statSync } from "node:fs";
import { displayPath, findStore, STALE_MS, storeAt, UsageError } from "@forge/core";
import { type Io, Out } from "@forge/cli";
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
      // A `.lock` may be held by a live writer; a temp file or a lock set aside (`.stale`) is nobody's once old.
      if (!p.endsWith(".tmp") && !p.endsWith(".stale")) continue;
      if (Date.now() - statSync(p).mtimeMs < STALE_MS) continue;
      rmSync(p, { recursive: true, force: true });
      pruned++;
      io.stderr.write(`forge fsck: removed ${displayPath(store, p)}\n`);
    }
  }
  let n = 0;
  // Written with back-pressure, and a reader that goes away (`| head -1`) ends the output quietly.
  const out = new Out(io.stdout);
  for await (const p of fsckStore(store)) {
    n++;
    await out.write(o.json ? JSON.stringify(p satisfies Problem) + "\n" : `${p.file}: ${p.problem}\n`);
  }
  await out.flush();
  if (pruned === 0 && n === 0 && io.stdout.isTTY) io.stderr.write("forge fsck: no problems\n");
  return n ? 1 : 0;
}
