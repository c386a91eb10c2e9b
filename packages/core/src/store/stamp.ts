/**
 * Folder stamps, as git's index uses file stamps: the inode and mtime (ns)
 * of some folders, which move whenever an entry is added, removed or
 * renamed in them; and file stamps, the lstat of one file, for caches of
 * what a file holds. A stamp vouches for a listing only once the folders have
 * been still for a while — git's "racy clean" rule: a change in the same
 * clock tick as the last one would not move the mtime.
 */
import type { Stats } from "node:fs";
import { raw } from "./raw_stat.js";

/**
 * The folders' inode and mtime, `<ino>.<mtimeNs>;` each (`-;` for a missing one); value "" when one cannot be stat'ed.
 */
export interface FolderStamp {
  readonly value: string;
  /** The newest mtime of the folders. */
  readonly mtimeNs: bigint;
  /** The folders that were missing (`-;`). */
  readonly absent?: readonly string[];
}

// Nanosecond filesystems tick every few ms (the kernel's coarse clock);
// whole-second mtimes mean a filesystem with 1–2 s granularity.
const STILL_NS = 50_000_000n;
const STILL_COARSE_NS = 2_000_000_000n;
/** The same in ms, for a file's lstat (a number: a walk asks for each file's). */
const STILL_MS = Number(STILL_NS / 1_000_000n);
const STILL_COARSE_MS = Number(STILL_COARSE_NS / 1_000_000n);

/**
 * The stamp of `dirs`, in order.
 * @param links when given, each folder's link count is pushed to it (0: missing), from the same stat
 */
export function folderStamp(dirs: readonly string[], links?: number[]): FolderStamp {
  let value = "";
  let newest = 0n;
  let absent: string[] | undefined;
  for (const dir of dirs) {
    let st;
    try {
      // A missing folder is common (most items have no edits/): no exception made for it.
      st = raw.folder(dir);
    } catch {
      return { value: "", mtimeNs: 0n };
    }
    links?.push(st === undefined ? 0 : st.nlink);
    if (st === undefined) {
      value += "-;";
      (absent ??= []).push(dir);
      continue;
    }
    value += `${st.ino}.${st.mtimeNs};`;
    if (st.mtimeNs > newest) newest = st.mtimeNs;
  }
  return { value, mtimeNs: newest, absent };
}

/**
 * Whether a stamp taken at `nowNs` can vouch for what was listed after it:
 * it is known, and the folders had been still for 50 ms (2 s on a
 * filesystem with whole-second mtimes).
 */
export function isStill(stamp: FolderStamp, nowNs: bigint = BigInt(Date.now()) * 1_000_000n): boolean {
  return stamp.value !== "" && stamp.mtimeNs < nowNs - stillFor(stamp);
}

/** When a stamp can first vouch: ms since the epoch at which its folders will have been still long enough. */
export function stillFromMs(stamp: FolderStamp): number {
  return Number((stamp.mtimeNs + stillFor(stamp)) / 1_000_000n) + 1;
}

/** The lstat fields a file's stamp is made of. */
export type StampedStat = Pick<Stats, "ino" | "mtimeMs" | "ctimeMs" | "size">;

/** A file's identity as caches key it: the lstat fields that change with every write (inode, mtime, ctime, size). */
export function fileKey(st: StampedStat): string {
  return `${st.ino}:${st.mtimeMs}:${st.ctimeMs}:${st.size}`;
}

/**
 * Where the file part of a line's stamp (`stat`, up to its `+`) ends, when
 * it is `fileKey(st)`, else -1. Compared as numbers, not as text: a line's
 * fields are `fileKey`'s, each a number's shortest text, which reads back
 * as that number, so the same numbers are the same text (a field must not
 * be empty: `Number("")` is 0).
 */
export function fileKeyEnd(stat: string, st: StampedStat): number {
  const a = stat.indexOf(":");
  const b = stat.indexOf(":", a + 1);
  const c = stat.indexOf(":", b + 1);
  let e = stat.indexOf("+", c + 1);
  if (e < 0) e = stat.length;
  if (a <= 0 || b <= a + 1 || c <= b + 1 || e <= c + 1) return -1;
  return +stat.slice(a + 1, b) === st.mtimeMs &&
    +stat.slice(b + 1, c) === st.ctimeMs &&
    +stat.slice(c + 1, e) === st.size &&
    +stat.slice(0, a) === st.ino
    ? e
    : -1;
}

/**
 * A file's identity for a cache (`fileKey`), or null while it cannot vouch:
 * the file changed within 50 ms of `now` (2 s on a filesystem with
 * whole-second mtimes), and a change in the same clock tick would not move
 * its mtime (racy clean, as for folder stamps).
 * @param now ms since the epoch, taken before the lstat
 */
export function fileStamp(st: StampedStat, now: number): string | null {
  return fileStill(st, now) ? fileKey(st) : null;
}

/** Whether `fileStamp` vouches (without making the key). */
export function fileStill(st: StampedStat, now: number): boolean {
  const still = now - (st.mtimeMs % 1000 === 0 ? STILL_COARSE_MS : STILL_MS);
  return st.mtimeMs < still && st.ctimeMs < still;
}

/** How long the folders must have been still (their mtimes' granularity decides). */
function stillFor(stamp: FolderStamp): bigint {
  return stamp.mtimeNs % 1_000_000_000n === 0n ? STILL_COARSE_NS : STILL_NS;
}
