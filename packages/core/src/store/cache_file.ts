/**
 * The temp files of `.forge/.cache/` (the order cache, the record cache):
 * the folder made on first use (and told to ignore itself), a temp name
 * beside the cache, and the temp files of dead writers cleared, since a
 * cache's temp file is as big as the cache. A cache that cannot be written
 * only costs time, so nothing here throws but the caller's own write.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pidAlive } from "./lock.js";

/**
 * A fresh temp path for rewriting the cache file `path` (`<path>.<pid>.<hex>.tmp`),
 * after making its folder if needed and removing the temp files of this cache left by processes that are gone.
 * @throws when the folder cannot be made or read (the caller gives up its write)
 */
export function cacheTemp(path: string): string {
  const dir = join(path, "..");
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    // The cache ignores itself, whether or not `forge init` wrote .gitignore.
    writeFileSync(join(dir, ".gitignore"), "*\n");
  }
  const name = basename(path);
  for (const n of readdirSync(dir)) {
    const m = n.startsWith(`${name}.`) ? /^\.([1-9][0-9]{0,9})\.[0-9a-f]{8}\.tmp$/.exec(n.slice(name.length)) : null;
    if (m && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]))) rmSync(join(dir, n), { force: true });
  }
  return `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/** Remove a temp file of a write given up (ENOTDIR and the like are ignored: where it cannot be, there is none). */
export function dropCacheTemp(tmp: string | undefined): void {
  try {
    if (tmp !== undefined) rmSync(tmp, { force: true });
  } catch {
    // .cache is not a folder
  }
}
