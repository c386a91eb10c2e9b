/**
 * HEAD's branch and a branch's tip, read from the repository's files in
 * the plain case (a `.git` folder found walking up, files refs or
 * `packed-refs`, the tip a commit object stored whole), so an observation
 * does not fork git twice before it starts (~30 ms of a one-shot process
 * here). Anything else — a `GIT_*` variable that moves discovery, a `.git`
 * file (a linked worktree, a submodule), another owner, a file-system
 * boundary, reftable, alternates, replaced objects, a symbolic ref, a tip
 * stored as a delta or not found, a SHA-256 repository, a file bigger than
 * git writes it — answers `undefined`: the caller asks git, which stays the
 * authority. Never a guess: a tip is given only once its object is seen to
 * be a commit (what `rev-parse --verify <ref>^{commit}` checks).
 */
import { closeSync, type Stats, lstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { findGitDir } from "./git_dir.js";

/** What `git symbolic-ref --quiet HEAD` and `git rev-parse --verify HEAD^{commit}` would answer. */
export interface HeadRead {
  /** The ref HEAD names (`refs/heads/main`), or null: HEAD is detached. */
  ref: string | null;
  /** HEAD's commit, or null: none (an unborn branch). */
  tip: string | null;
}

/** Variables git reads that change how refs and objects are read (`findGitDir` leaves those that move discovery). */
const MOVES = new RegExp(
  "^GIT_(OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|REPLACE_REF_BASE|NO_REPLACE_OBJECTS|REF_.*|TEST_.*)$"
);
const OID = /^[0-9a-f]{40}$/;

/**
 * HEAD as git would answer it for a process in `cwd`, or undefined when
 * only git can tell (see the module's note).
 * @example readHead(top) // { ref: "refs/heads/main", tip: "3f…" }
 */
export function readHead(cwd: string, env: NodeJS.ProcessEnv = process.env): HeadRead | undefined {
  return gitsOnError(() => headOfFiles(cwd, env));
}

/**
 * A branch's tip (`git rev-parse --verify refs/heads/<name>^{commit}`):
 * the commit, null when there is no such branch, undefined when only git can tell.
 */
export function readBranchTip(
  cwd: string,
  name: string,
  env: NodeJS.ProcessEnv = process.env
): string | null | undefined {
  return gitsOnError(() => {
    const dir = gitDir(cwd, env);
    return dir === undefined ? undefined : refTip(dir, `refs/heads/${name}`);
  });
}

// --- internal ---

/** `read()`, or undefined when a file cannot be read as asked (a name too long, a loop, no access): git tells then. */
function gitsOnError<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function headOfFiles(cwd: string, env: NodeJS.ProcessEnv): HeadRead | undefined {
  const dir = gitDir(cwd, env);
  if (dir === undefined) return undefined;
  const head = readText(join(dir.path, "HEAD"));
  if (head === undefined) return undefined;
  if (OID.test(head)) {
    const tip = commitOrUndefined(dir.path, head);
    return tip === undefined ? undefined : { ref: null, tip };
  }
  const m = /^ref: (refs\/heads\/[^\s]+)$/.exec(head);
  if (!m) return undefined;
  const tip = refTip(dir, m[1]!);
  return tip === undefined ? undefined : { ref: m[1]!, tip };
}

/** A `.git` folder, and its packed-refs (null: none). */
interface GitDir {
  path: string;
  packed: string | null;
}

/** The `.git` folder git would find from `cwd` (`findGitDir`), where its refs and objects are plain files only. */
function gitDir(cwd: string, env: NodeJS.ProcessEnv): GitDir | undefined {
  for (const k of Object.keys(env)) if (MOVES.test(k)) return undefined;
  const found = findGitDir(cwd, env);
  // git's safe.directory: a repository someone else owns is git's to refuse or allow.
  if (found === undefined || !found.owned) return undefined;
  const dir = found.gitDir;
  // A linked worktree's folder, reftable, alternates, replaced objects (git leaves refs/replace/ empty): git's.
  for (const other of ["commondir", "reftable", join("objects", "info", "alternates")])
    if (stat(join(dir, other)) !== undefined) return undefined;
  if (!isEmptyOrAbsent(join(dir, "refs", "replace"))) return undefined;
  const file = join(dir, "packed-refs");
  const packed = readText(file, 64 << 20);
  if (packed === undefined && stat(file) !== undefined) return undefined;
  if (packed?.includes(" refs/replace/")) return undefined;
  return { path: dir, packed: packed ?? null };
}

/** A ref's commit: null when it does not exist, undefined when only git can tell. */
function refTip(dir: GitDir, ref: string): string | null | undefined {
  if (ref.split("/").some((p) => p === "" || p === "." || p === ".." || p.endsWith(".lock"))) return undefined;
  const loose = readText(join(dir.path, ref));
  let oid: string | undefined;
  if (loose !== undefined) {
    if (!OID.test(loose)) return undefined; // a symbolic ref, or a SHA-256 one
    oid = loose;
  } else {
    if (stat(join(dir.path, ref)) !== undefined) return undefined; // there, but not a file git wrote
    for (const line of dir.packed?.split("\n") ?? []) {
      if (line.endsWith(` ${ref}`) && OID.test(line.slice(0, 40)) && line.length === 41 + ref.length) {
        oid = line.slice(0, 40);
        break;
      }
    }
    if (oid === undefined) return null;
  }
  return commitOrUndefined(dir.path, oid);
}

/** `oid` when its object is a commit stored whole (loose, or packed not as a delta), else undefined. */
function commitOrUndefined(dir: string, oid: string): string | undefined {
  const loose = readBytes(join(dir, "objects", oid.slice(0, 2), oid.slice(2)), 1 << 20);
  if (loose !== undefined) {
    try {
      // The header alone: `commit <size>\0`.
      const head = inflateSync(loose, { finishFlush: 2 /* Z_SYNC_FLUSH */, maxOutputLength: 1 << 20 });
      return head.subarray(0, 7).toString("latin1") === "commit " ? oid : undefined;
    } catch {
      return undefined;
    }
  }
  const packs = join(dir, "objects", "pack");
  let names: string[];
  try {
    names = readdirSync(packs).filter((n) => n.endsWith(".idx"));
  } catch {
    return undefined;
  }
  const want = Buffer.from(oid, "hex");
  for (const n of names) {
    const type = packedType(join(packs, n), want);
    if (type === null) continue;
    return type === 1 ? oid : undefined;
  }
  return undefined;
}

/**
 * The type of `want`'s entry in the pack of this index (version 2): 1 commit … 6, 7 deltas; null when the index does
 * not hold it; undefined when the files are not what they should be.
 */
function packedType(idx: string, want: Buffer): number | null | undefined {
  let fd: number | undefined;
  let pack: number | undefined;
  try {
    fd = openSync(idx, "r");
    const b = Buffer.alloc(1032);
    if (readSync(fd, b, 0, 1032, 0) !== 1032 || b.readUInt32BE(0) !== 0xff744f63 || b.readUInt32BE(4) !== 2)
      return undefined;
    const first = want[0]!;
    let lo = first === 0 ? 0 : b.readUInt32BE(8 + (first - 1) * 4);
    let hi = b.readUInt32BE(8 + first * 4);
    const total = b.readUInt32BE(8 + 255 * 4);
    const oid = Buffer.alloc(20);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (readSync(fd, oid, 0, 20, 1032 + mid * 20) !== 20) return undefined;
      const c = oid.compare(want);
      if (c === 0) {
        const at = Buffer.alloc(8);
        if (readSync(fd, at, 0, 4, 1032 + total * 24 + mid * 4) !== 4) return undefined;
        let offset = at.readUInt32BE(0);
        if (offset & 0x80000000) {
          const big = 1032 + total * 28 + (offset & 0x7fffffff) * 8;
          if (readSync(fd, at, 0, 8, big) !== 8) return undefined;
          offset = Number(at.readBigUInt64BE(0));
        }
        pack = openSync(idx.slice(0, -4) + ".pack", "r");
        const h = Buffer.alloc(1);
        if (readSync(pack, h, 0, 1, offset) !== 1) return undefined;
        return (h[0]! >> 4) & 7;
      }
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return null;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (pack !== undefined) closeSync(pack);
  }
}

/** A folder that holds nothing, or nothing there. */
function isEmptyOrAbsent(path: string): boolean {
  const st = stat(path);
  if (st === undefined) return true;
  try {
    return st.isDirectory() && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

function stat(path: string): Stats | undefined {
  return lstatSync(path, { throwIfNoEntry: false });
}

/** A regular file's text without its last newline (HEAD, a loose ref, packed-refs), or undefined. */
function readText(path: string, max = 4096): string | undefined {
  return readBytes(path, max)?.toString("utf8").replace(/\n$/, "");
}

/** A regular file of at most `max` bytes (more: git's to read), or undefined. */
function readBytes(path: string, max: number): Buffer | undefined {
  const st = stat(path);
  if (!st?.isFile() || st.size > max) return undefined;
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
