import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

/**
 * Write a file atomically: a temp file in the same folder, fsync, rename,
 * then fsync the folder. A reader sees the old bytes or the new bytes, never
 * a mix; a crash leaves at worst a stray `.*.tmp` file beside an intact
 * original (SEC-03).
 *
 * `FORGE_TEST_FAULT=kill-before-rename` makes the process kill itself after
 * the temp file is synced and before the rename, so tests can prove that.
 * @param path the destination
 * @param data the new contents
 * @param opts `exclusive`: fail with EEXIST if the destination exists (for append-only records)
 * @example atomicWrite("/r/.forge/issues/x/issue.md", "---\n…")
 */
export function atomicWrite(
  path: string,
  data: string | Uint8Array,
  opts: { exclusive?: boolean; mode?: number } = {}
): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", opts.mode ?? 0o644);
  try {
    const buf = typeof data === "string" ? Buffer.from(data) : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  if (process.env.FORGE_TEST_FAULT === "kill-before-rename") process.kill(process.pid, "SIGKILL");
  if (opts.exclusive) {
    // link() fails if the destination exists, unlike rename().
    try {
      linkSync(tmp, path);
    } finally {
      unlinkSync(tmp);
    }
  } else {
    renameSync(tmp, path);
  }
  syncDir(dir);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a folder; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
