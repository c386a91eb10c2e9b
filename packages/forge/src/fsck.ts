/**
 * `forge fsck [--json] [--prune-temp]`: check the whole store like `git
 * fsck` (see `_fsck_store.ts`), one line per problem, exit 1 if any. Never
 * repairs; `--prune-temp` removes the strays it reports, older than a
 * minute: temp files of interrupted writes, locks set aside by an
 * interrupted lock break (`.stale`), and locks whose holder is gone (a pid
 * of this host not alive), so a write, a break or a lock in progress keeps
 * its own.
 */
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { displayPath, findStore, pidAlive, STALE_MS, storeAt, UsageError } from "@forge/core";
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
 * Run fsck in the store found from `io` (any version: one this forge cannot read, not N or N−1, is a finding).
 * @returns the exit code: 0 clean, 1 when a problem was found
 */
export async function runFsck(io: Io, o: FsckOptions): Promise<number> {
  const store = storeAt(findStore({ cwd: io.cwd, env: io.env }));
  let pruned = 0;
  if (o.pruneTemp) {
    for (const p of strays(store.dir)) {
      // A temp file or a lock set aside (`.stale`) is nobody's once old; a `.lock` only when its holder is gone too.
      if (Date.now() - statSync(p).mtimeMs < STALE_MS) continue;
      if (p.endsWith(".lock")) {
        if (!removeDeadLock(p)) continue;
      } else rmSync(p, { recursive: true, force: true });
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

/**
 * Remove a lock whose holder is gone: a pid of this host (`<pid> <host> <ms>`, or `<pid>` alone as the loop's and
 * release's locks write it) that is not alive, or an empty lock. Set aside first (a rename: atomic) and read again
 * there, as core's lock breaker does, so a lock taken meanwhile is put back, never removed.
 * @returns whether it was removed
 */
function removeDeadLock(lock: string): boolean {
  const dead = (text: string): boolean => {
    if (text === "") return true;
    const [pid, host] = text.trim().split(" ");
    const n = Number(pid);
    return (host === undefined || host === hostname()) && Number.isSafeInteger(n) && n > 0 && !pidAlive(n);
  };
  let text: string;
  try {
    text = readFileSync(lock, "latin1");
  } catch {
    return false;
  }
  if (!dead(text)) return false;
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString("hex")}.fsck`;
  try {
    renameSync(lock, aside);
  } catch {
    return false;
  }
  let moved = "";
  try {
    moved = readFileSync(aside, "latin1");
  } catch {
    return false;
  }
  if (moved !== text) {
    // Another holder's lock, taken since: put back.
    try {
      linkSync(aside, lock);
    } catch {
      // a third one holds the name now: this one is no longer anybody's lock
    }
    rmSync(aside, { force: true });
    return false;
  }
  rmSync(aside, { force: true });
  return true;
}
