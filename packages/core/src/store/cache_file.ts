/**
 * The files of `.forge/.cache/` (the order cache, the record caches,
 * forge-observe's evidence caches): the folder made on first use (and told
 * to ignore itself), a temp name beside the cache, the temp files of dead
 * writers cleared (a cache's temp file is as big as the cache), and
 * whole-file caches written by rename and read back only when their check
 * holds. A cache that cannot be read or written only costs time, so
 * nothing here throws but `cacheTemp`.
 */
import { randomBytes } from "node:crypto";
import {
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, join } from "node:path";
import { crc32 } from "./crc32.js";
import { pidAlive } from "./lock.js";
import { readOpened } from "./read_file.js";

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

/** Write `buf[0, len)` to `fd` whole (a write may take less than it is given). */
export function writeAll(fd: number, buf: Uint8Array, len: number): void {
  for (let at = 0; at < len;) at += writeSync(fd, buf, at, len - at);
}

/**
 * A whole-file cache as `readCacheFile` reads it: a first line `<magic> <crc32 of the rest, 8 hex>`, then the rest,
 * as the UTF-8 bytes written (encoded once, for the checksum and the file).
 * @example checkedCache("forge-imports 1", body) // the bytes of "forge-imports 1 1a2b3c4d\n" + body
 */
export function checkedCache(magic: string, rest: string): Buffer {
  const body = Buffer.from(rest, "utf8");
  return Buffer.concat([Buffer.from(`${magic} ${crc32(body).toString(16).padStart(8, "0")}\n`, "latin1"), body]);
}

/**
 * The rest of a whole-file cache (`checkedCache`), or undefined when the
 * file is missing, not a regular file (no symlink is followed), larger than
 * `maxBytes`, of another magic, or fails its check (torn, edited): a cache
 * that cannot be trusted only costs time.
 */
export function readCacheFile(path: string, magic: string, maxBytes = 256 * 1024 * 1024): string | undefined {
  let buf: Buffer;
  try {
    buf = readOpened(openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW), path, maxBytes);
  } catch {
    return undefined;
  }
  const nl = buf.indexOf(10);
  if (nl !== magic.length + 9 || buf.toString("latin1", 0, magic.length + 1) !== magic + " ") return undefined;
  const rest = buf.subarray(nl + 1);
  return buf.toString("latin1", magic.length + 1, nl) === crc32(rest).toString(16).padStart(8, "0")
    ? rest.toString("utf8")
    : undefined;
}

/**
 * Replace a cache file: renamed into place (never half-written), not
 * fsynced — it is rebuildable, and a damaged one fails its checks.
 * @param encoding a string's (bytes are written as they are)
 * @returns false when it could not be written (only time is lost)
 */
export function writeCacheFile(path: string, data: string | Uint8Array, encoding: "utf8" | "latin1" = "utf8"): boolean {
  let tmp: string | undefined;
  try {
    tmp = cacheTemp(path);
    writeFileSync(tmp, data, { flag: "wx", encoding });
    renameSync(tmp, path);
    return true;
  } catch {
    dropCacheTemp(tmp);
    return false;
  }
}

const later: Array<() => void> = [];
let onFirst: (flush: () => void) => void = () => undefined;

/**
 * Put off a cache write until the process's answer is out: an executable
 * runs it after closing stdout (cli's `exitWith` calls `flushCacheWrites`),
 * so the next command of a pipeline is not kept waiting for a cache; a
 * process that set `setCacheFlush` (the cli kit's `processIo` does: once
 * its event loop is empty), by that. A write that never runs (the process
 * killed first) only costs the next reader time.
 */
export function writeCacheLater(write: () => void): void {
  if (later.length === 0) onFirst(flushCacheWrites);
  later.push(write);
}

/**
 * When put-off cache writes run besides an explicit `flushCacheWrites`:
 * `schedule` is called with the flush each time a first write is put off.
 * Core never touches the process; the cli kit passes
 * `(flush) => process.once("beforeExit", flush)`.
 * @example setCacheFlush((flush) => process.once("beforeExit", flush))
 */
export function setCacheFlush(schedule: (flush: () => void) => void): void {
  onFirst = schedule;
}

/** Run the cache writes put off so far, each once, in order (a failing one is skipped: only time is lost). */
export function flushCacheWrites(): void {
  for (let w = later.shift(); w !== undefined; w = later.shift()) {
    try {
      w();
    } catch {
      // A cache that cannot be written only costs time.
    }
  }
}

declare const __FORGE_BUILD__: string | undefined;

/**
 * The identity of this build of forge (scripts/bundle.mjs: a hash of the
 * sources, the same in every executable), or null when the code runs
 * unbundled: a cache of what code computed is kept under it, and kept not
 * at all without it.
 */
export function buildId(): string | null {
  return typeof __FORGE_BUILD__ === "string" ? __FORGE_BUILD__ : null;
}
