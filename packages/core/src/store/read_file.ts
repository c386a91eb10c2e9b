import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from "node:fs";
import { InvalidFileError, NotFoundError } from "../errors.js";
import { MAX_FILE_BYTES } from "../frontmatter/parse.js";
import { displayPath, isInside, type Store } from "./store.js";

/**
 * Read a file of the store as UTF-8, refusing what SEC-01/02 say to refuse:
 * a symlink that resolves outside `.forge/` (its content is never read),
 * anything but a regular file, and files over 256 KiB (checked with fstat,
 * before reading a byte).
 * @param store the store
 * @param abs the absolute path (built by `store.ts`)
 * @returns the text
 * @throws NotFoundError when missing; InvalidFileError when refused
 */
export function readStoreFile(store: Store, abs: string): string {
  return readChecked(store, abs, undefined);
}

/**
 * `readStoreFile`, with the file's stat taken on the open file before a byte
 * is read (the stamp a cache keeps for what was read: no second lookup of
 * the path); `stat` is undefined when the path is a symlink (followed inside
 * the store, as `readStoreFile` does).
 * @throws as `readStoreFile`
 */
export function readStoreFileStat(store: Store, abs: string): { text: string; stat: Stats | undefined } {
  const got: StatWanted = { stat: null };
  const text = readChecked(store, abs, got);
  return { text, stat: got.stat ?? undefined };
}

/** A stat asked of the file opened: null until taken; undefined once the path turned out to be a symlink. */
interface StatWanted {
  stat: Stats | null | undefined;
}

function readChecked(store: Store, abs: string, want: StatWanted | undefined): string {
  // The common case, read as cheaply as the checks allow: open (O_NOFOLLOW, O_NONBLOCK), read into one
  // shared buffer a byte longer than the cap (a file that fills it is too big: nothing past the cap is
  // read, and no fstat or per-file buffer is needed), close. list reads 100,000 files this way.
  const fd = openChecked(store, abs, NONBLOCK, want);
  let n = 0;
  try {
    if (want?.stat === null) want.stat = fstatSync(fd);
    for (;;) {
      const got = readSync(fd, SHARED, n, SHARED.length - n, null);
      if (got === 0 || (n += got) === SHARED.length) break;
    }
    // Nothing read: an empty file, or a FIFO with no writer (O_NONBLOCK): only then is fstat worth its cost.
    if (n === 0 && !fstatSync(fd).isFile()) throw new InvalidFileError(displayPath(store, abs), "not a regular file");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EISDIR" || code === "EAGAIN" || code === "EINVAL")
      throw new InvalidFileError(displayPath(store, abs), "not a regular file");
    throw err;
  } finally {
    closeSync(fd);
  }
  if (n > MAX_FILE_BYTES)
    throw new InvalidFileError(displayPath(store, abs), `larger than ${Math.floor(MAX_FILE_BYTES / 1024)} KiB`);
  return SHARED.toString("utf8", 0, n);
}

const SHARED = Buffer.allocUnsafe(MAX_FILE_BYTES + 1);

/** How a store file is opened: no symlink followed (SEC-02). */
const NOFOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;
/** What `readStoreFile` adds to them: no FIFO waited on. */
const NONBLOCK = constants.O_NONBLOCK;
/** How `readStoreFile` opens a file: another reader reading as it does opens so too. */
export const READ_FLAGS = NOFOLLOW | NONBLOCK;

/** Open a store file for reading: no symlink followed unless it stays in the store (SEC-02). */
function openChecked(store: Store, abs: string, extra = 0, want?: StatWanted): number {
  try {
    return openSync(abs, NOFOLLOW | extra);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new NotFoundError(`${displayPath(store, abs)}: no such file`);
    if (code !== "ELOOP") throw new InvalidFileError(displayPath(store, abs), `cannot read (${code})`);
    // A symlink followed: the stat of its target is not the path's (a cache keys on the path's lstat).
    if (want) want.stat = undefined;
    return openFollowingInside(store, abs, extra);
  }
}

/**
 * `readStoreFile` without the UTF-8 decoding: the file's bytes, exactly
 * (same refusals), with a size cap of the caller's choosing (a patch is not
 * frontmatter: 256 KiB is too small for it).
 * @param maxBytes refuse a larger file, before reading a byte (default 256 KiB)
 * @throws NotFoundError when missing; InvalidFileError when refused
 */
export function readStoreBytes(store: Store, abs: string, maxBytes: number = MAX_FILE_BYTES): Buffer {
  return readOpened(openChecked(store, abs), displayPath(store, abs), maxBytes);
}

/**
 * Read an open file whole and close it: refused (before reading a byte)
 * when it is not a regular file or is over `maxBytes`.
 * @param file the path for messages
 * @throws InvalidFileError naming `file`
 */
export function readOpened(fd: number, file: string, maxBytes: number): Buffer {
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new InvalidFileError(file, "not a regular file");
    if (st.size > maxBytes) throw new InvalidFileError(file, `larger than ${Math.floor(maxBytes / 1024)} KiB`);
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return off === st.size ? buf : buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

/** The final component is a symlink: follow it only if it stays in the store. */
function openFollowingInside(store: Store, abs: string, extra: number): number {
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new InvalidFileError(displayPath(store, abs), "dangling symlink");
  }
  if (!isInside(store, real))
    throw new InvalidFileError(displayPath(store, abs), "symlink points outside .forge/ (refused)");
  return openSync(real, constants.O_RDONLY | extra);
}

/** Whether anything is at `path`, a dangling symlink included (lstat: never followed). */
export function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
