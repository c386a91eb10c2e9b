/**
 * A foreign store, read whole into memory under caps: a folder holding
 * `.forge/` (or being one), or a zip of either. Symlinks, devices and
 * FIFOs are refused; machine state (`ci/runs/`, `releases/out/`, `pilot/`,
 * `.cache/`) and temp files are never read.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync } from "node:fs";
import { basename, join } from "node:path";
import { ForgeError, printable, UsageError } from "@forge/core";
import { readZip, ZIP_LIMITS } from "./_zip.js";

/** A foreign store's files: path relative to its `.forge/` (`/`-separated) → bytes. */
export interface Foreign {
  /** The source's base name, for messages and the import record (never an absolute path). */
  label: string;
  files: Map<string, Buffer>;
}

/** Machine state and scratch: never imported, never read. */
const SKIP_DIRS = new Set(["ci/runs", "ci/cache", "releases/out", "pilot", ".cache"]);
/** What marks a folder as a store's own contents. */
const STORE_ENTRIES = [
  "issues",
  "prs",
  "tasks",
  "labels.md",
  "milestones.md",
  "wiki",
  "releases",
  "merges",
  "archive",
  "evidence",
  "ci",
];

const MAX_FILES = 100_000;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_TOTAL = 256 * 1024 * 1024;

/**
 * Read a foreign store from a folder or a `.zip` file.
 * @param path the folder or zip (absolute, or relative to `cwd`)
 * @throws UsageError when it is neither; ForgeError for a symlink, a bad zip, or a cap passed
 */
export function readForeign(path: string): Foreign {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw new UsageError(`cannot read '${printable(basename(path), 80)}': no such file or folder`);
  }
  const label = basename(path).slice(0, 100) || "store";
  if (st.isSymbolicLink()) throw new ForgeError(`'${printable(label, 80)}' is a symlink (refused)`, "E_SYMLINK", 1);
  if (st.isDirectory()) return { label, files: readDir(storeRootOf(path)) };
  if (st.isFile()) return { label, files: fromZip(readFileCapped(path, MAX_TOTAL, label)) };
  throw new UsageError(`'${printable(label, 80)}' is neither a folder nor a zip`);
}

// --- internal ---

/** `<dir>/.forge` when there is one, else the folder itself when it looks like a store. */
function storeRootOf(dir: string): string {
  const inner = join(dir, ".forge");
  let st;
  try {
    st = lstatSync(inner);
  } catch {
    st = undefined;
  }
  if (st?.isSymbolicLink()) throw new ForgeError("the foreign .forge is a symlink (refused)", "E_SYMLINK", 1);
  if (st?.isDirectory()) return inner;
  const names = readdirSync(dir);
  if (basename(dir) === ".forge" || names.some((n) => STORE_ENTRIES.includes(n))) return dir;
  throw new UsageError(`'${printable(basename(dir), 80)}' holds no .forge/ store`);
}

function readDir(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let total = 0;
  const walk = (abs: string, rel: string): void => {
    for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      if (SKIP_DIRS.has(r) || isTemp(e.name)) continue;
      const p = join(abs, e.name);
      if (e.isSymbolicLink())
        throw new ForgeError(`foreign store: '${printable(r, 80)}' is a symlink (refused)`, "E_SYMLINK", 1);
      if (e.isDirectory()) walk(p, r);
      else if (e.isFile()) {
        if (files.size >= MAX_FILES)
          throw new ForgeError(`foreign store: more than ${MAX_FILES} files`, "E_TOO_BIG", 1);
        const b = readFileCapped(p, MAX_FILE_BYTES, r);
        total += b.length;
        if (total > MAX_TOTAL) throw new ForgeError(`foreign store: more than ${MAX_TOTAL >> 20} MiB`, "E_TOO_BIG", 1);
        files.set(r, b);
      } else
        throw new ForgeError(`foreign store: '${printable(r, 80)}' is not a regular file (refused)`, "E_NOT_FILE", 1);
    }
  };
  walk(root, "");
  return files;
}

/** The zip's store files, relative to its `.forge/` (found at the root, under one folder, or as the root itself). */
function fromZip(zip: Buffer): Map<string, Buffer> {
  const entries = readZip(zip, { ...ZIP_LIMITS, maxTotalBytes: MAX_TOTAL });
  const names = entries.map((e) => e.name);
  let prefix = "";
  // The shallowest `.forge/` folder (a zipped repository holds it below its top folder).
  const at = (n: string): number => (n.startsWith(".forge/") ? 0 : n.indexOf("/.forge/") + 1);
  const depth = (n: string): number => n.slice(0, at(n)).split("/").length;
  const inner = names.filter((n) => at(n) > 0 || n.startsWith(".forge/")).sort((a, b) => depth(a) - depth(b))[0];
  if (inner !== undefined) prefix = inner.slice(0, at(inner) + ".forge/".length);
  else if (!names.some((n) => STORE_ENTRIES.includes(n.split("/")[0]!)))
    throw new UsageError("the zip holds no .forge/ store");
  const files = new Map<string, Buffer>();
  for (const e of entries) {
    if (!e.name.startsWith(prefix)) continue;
    const r = e.name.slice(prefix.length);
    const parts = r.split("/");
    if (parts.some((_, i) => SKIP_DIRS.has(parts.slice(0, i + 1).join("/"))) || isTemp(parts.at(-1)!)) continue;
    files.set(r, e.data);
  }
  return files;
}

function isTemp(name: string): boolean {
  return name.startsWith(".") && name.endsWith(".tmp");
}

/** A regular file's bytes, refusing symlinks (O_NOFOLLOW) and anything over `max` before reading. */
function readFileCapped(path: string, max: number, shownName: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ForgeError(
      `cannot read '${printable(shownName, 80)}' (${code === "ELOOP" ? "a symlink, refused" : code})`,
      "E_READ",
      1
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new ForgeError(`'${printable(shownName, 80)}' is not a regular file (refused)`, "E_NOT_FILE", 1);
    if (st.size > max)
      throw new ForgeError(`'${printable(shownName, 80)}' is larger than ${max >> 20} MiB`, "E_TOO_BIG", 1);
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}
