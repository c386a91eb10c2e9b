/**
 * lstat, stat and fstat as numbers, without `fs.Stats`. On Node 20 each
 * `fs.Stats` is built with four `Date`s (`BigIntStats` with BigInt
 * arithmetic as well): ~3 µs of a ~11 µs lstat here, and most of a walk's
 * garbage. Node's own binding fills one shared array per call. Where the
 * running Node's `fs.lstatSync`, `fs.statSync` and `fs.fstatSync` call it
 * exactly as this module does (read from their source), and both ways
 * agree on the running `node` binary itself, the numbers are read from
 * that array. Anywhere else (another Node, the permission model,
 * `--pending-deprecation`, a patched `fs`, a path with a NUL) the same
 * answers come from `fs`.
 *
 * `rawStats` is self-contained (no name from outside its body but its two
 * parameters and globals), so the walk's threads run its source as well.
 */
import * as fs from "node:fs";

/** The numbers of a stat that the caches stamp with; `mtimeMs` and `ctimeMs` exactly as `fs.Stats` gives them. */
export interface RawStat {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  mode: number;
  nlink: number;
}

/** A RawStat to read into (all zeros). */
export const rawStat = (): RawStat => ({ ino: 0, size: 0, mtimeMs: 0, ctimeMs: 0, mode: 0, nlink: 0 });

/** A folder's stamp fields, exact (as `{ bigint: true }` gives them). */
export interface RawFolderStat {
  ino: bigint;
  mtimeNs: bigint;
  nlink: number;
}

/** The functions `rawStats` gives. */
export interface RawStats {
  /** lstat of `path` into `into`: false when it does not exist (ENOENT); other errors throw as `fs.lstatSync`'s. */
  lstat(path: string, into: RawStat): boolean;
  /** fstat of `fd` into `into`; errors throw as `fs.fstatSync`'s. */
  fstat(fd: number, into: RawStat): void;
  /** stat (symlinks followed) of a folder: undefined when it does not exist; other errors throw as `fs.statSync`'s. */
  folder(path: string): RawFolderStat | undefined;
  /** Whether the binding is used (false: `fs`). */
  readonly fast: boolean;
}

/**
 * The stat functions for this Node (see the module comment).
 * @param nodeFs `node:fs`
 * @param proc `process`
 */
export function rawStats(nodeFs: typeof fs, proc: NodeJS.Process): RawStats {
  const viaFs: RawStats = {
    fast: false,
    lstat(path, into) {
      const s = nodeFs.lstatSync(path, { throwIfNoEntry: false });
      if (s === undefined) return false;
      copy(s, into);
      return true;
    },
    fstat(fd, into) {
      copy(nodeFs.fstatSync(fd), into);
    },
    folder(path) {
      const s = nodeFs.statSync(path, { bigint: true, throwIfNoEntry: false });
      return s === undefined ? undefined : { ino: s.ino, mtimeNs: s.mtimeNs, nlink: Number(s.nlink) };
    },
  };
  function copy(s: fs.Stats, into: RawStat): void {
    into.ino = s.ino;
    into.size = s.size;
    into.mtimeMs = s.mtimeMs;
    into.ctimeMs = s.ctimeMs;
    into.mode = s.mode;
    into.nlink = s.nlink;
  }
  // fs.Stats' own arithmetic (msFromTimeSpec): the same operations give the same number.
  function fill(v: Float64Array, into: RawStat): void {
    into.ino = v[7]!;
    into.size = v[8]!;
    into.mtimeMs = v[12]! * 1000 + v[13]! / 1_000_000;
    into.ctimeMs = v[14]! * 1000 + v[15]! / 1_000_000;
    into.mode = v[1]!;
    into.nlink = v[2]!;
  }
  // BigIntStats' (nsFromTimeSpecBigInt).
  const folderOf = (v: BigInt64Array): RawFolderStat => ({
    ino: v[7]!,
    mtimeNs: v[12]! * 1_000_000_000n + v[13]!,
    nlink: Number(v[2]),
  });
  type Binding = {
    lstat(path: string, bigint: boolean, req: undefined, throwIfNoEntry: boolean): Float64Array | undefined;
    stat(path: string, bigint: true, req: undefined, throwIfNoEntry: boolean): BigInt64Array | undefined;
    fstat(fd: number, bigint: boolean, req: undefined, shouldNotThrow: boolean): Float64Array | undefined;
  };
  const calls = (name: string, first: string, last: string): RegExp =>
    new RegExp(`binding\\.${name}\\(\\s*${first},\\s*options\\.bigint,\\s*undefined,\\s*${last},?\\s*\\)`);
  let b: Binding | undefined;
  try {
    const p = proc as NodeJS.Process & { permission?: unknown; binding?: (name: string) => unknown };
    const flags = `${p.execArgv.join(" ")} ${p.env.NODE_OPTIONS ?? ""}`;
    if (
      p.permission === undefined &&
      // Node takes its flags' dashes as underscores too.
      !/--pending[-_]deprecation/.test(flags) &&
      p.env.NODE_PENDING_DEPRECATION !== "1" &&
      typeof p.binding === "function" &&
      calls("lstat", "pathModule\\.toNamespacedPath\\(path\\)", "options\\.throwIfNoEntry").test(
        String(nodeFs.lstatSync)
      ) &&
      calls("stat", "pathModule\\.toNamespacedPath\\(path\\)", "options\\.throwIfNoEntry").test(
        String(nodeFs.statSync)
      ) &&
      calls("fstat", "fd", "false").test(String(nodeFs.fstatSync))
    ) {
      const got = p.binding("fs") as Partial<Binding> | undefined;
      if (typeof got?.lstat === "function" && typeof got.stat === "function" && typeof got.fstat === "function") {
        b = got as Binding;
      }
    }
  } catch {
    b = undefined;
  }
  if (b === undefined) return viaFs;
  const bound = b;
  // Before the first answer, both ways stat the running node itself: any difference, and `fs` answers from then on.
  const agrees = (): boolean => {
    try {
      const path = proc.execPath;
      // Each binding's array read before the next call: fs's own calls fill the same (shared) arrays.
      const got = {} as RawStat; // not rawStat(): this function's source must stand alone
      const v = bound.lstat(path, false, undefined, true);
      if (v === undefined) return false;
      fill(v, got);
      const w = bound.stat(path, true, undefined, true);
      if (w === undefined) return false;
      const gotFolder = folderOf(w);
      const want = {} as RawStat;
      const wantFolder = viaFs.folder(path);
      return (
        viaFs.lstat(path, want) &&
        (Object.keys(want) as (keyof RawStat)[]).every((k) => got[k] === want[k]) &&
        (Object.keys(gotFolder) as (keyof RawFolderStat)[]).every((k) => gotFolder[k] === wantFolder?.[k])
      );
    } catch {
      return false;
    }
  };
  const fast: RawStats = {
    fast: true,
    lstat(path, into) {
      if (path.includes("\0")) return viaFs.lstat(path, into);
      const v = bound.lstat(path, false, undefined, false);
      if (v === undefined) return false;
      fill(v, into);
      return true;
    },
    fstat(fd, into) {
      const v = bound.fstat(fd, false, undefined, false);
      if (v === undefined) return viaFs.fstat(fd, into);
      fill(v, into);
    },
    folder(path) {
      if (path.includes("\0")) return viaFs.folder(path);
      const v = bound.stat(path, true, undefined, false);
      return v === undefined ? undefined : folderOf(v);
    },
  };
  let use: RawStats | undefined;
  const pick = (): RawStats => (use = agrees() ? fast : viaFs);
  return {
    get fast() {
      return (use ?? pick()).fast;
    },
    lstat: (path, into) => (use ?? pick()).lstat(path, into),
    fstat: (fd, into) => (use ?? pick()).fstat(fd, into),
    folder: (path) => (use ?? pick()).folder(path),
  };
}

/** This thread's stat functions. */
export const raw: RawStats = rawStats(fs, process);

/** Whether a stat's mode is a regular file's. */
export const isFileMode = (mode: number): boolean => (mode & 0o170000) === 0o100000;

/** Whether a stat's mode is a folder's. */
export const isFolderMode = (mode: number): boolean => (mode & 0o170000) === 0o040000;
