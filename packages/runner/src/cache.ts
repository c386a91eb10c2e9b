/**
 * The dependency cache, as CI services have it (`ci.env`: `cache=`,
 * `cache_key=`, `cache_step=`, `keep_caches=`). Before the install step
 * (`cache_step`) runs in a tree, the key is computed from that tree: the
 * runner and image, `ci.env`, the step files up to the install step, the
 * cached paths and the bytes of each key file (the lockfiles) as the tree
 * has them, so a PR that changes its lockfile gets its own key. A hit copies
 * the saved folders into the tree (`cp -a`: a copy, never a symlink into
 * the live checkout nor a hard link a step could write through) and the
 * install step does not run; a miss runs it, and when it passes its folders
 * are copied into `.forge/ci/cache/<key>/` (made whole in one rename). The
 * cache is machine state: gitignored (its own `.gitignore`), bounded
 * (`keep_caches`, least recently used out first), and deletable at any time
 * without changing an answer (a missing entry is a miss).
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { atomicWrite, ciEnvFile, DEFAULT_CACHE_KEY, displayPath, ForgeError, type Store } from "@forge/core";
import type { Posture } from "./posture.js";

/** The default of `keep_caches`. */
export const KEEP_CACHES = 4;

/** The cache of one tree: its key and what it holds. */
export interface CacheUse {
  key: string;
  step: string;
  paths: string[];
  /** The entry's folder (`.forge/ci/cache/<key>`). */
  entry: string;
}

/** `.forge/ci/cache/`. */
export function cacheRoot(store: Store): string {
  return join(store.dir, "ci", "cache");
}

/**
 * Check the cache settings against the steps.
 * @throws ForgeError naming `ci.env` and the field: `cache` without `cache_step` (or the reverse), a `cache_step`
 *   that is not a step
 */
export function checkCache(store: Store, p: Posture): void {
  const s = p.settings;
  if (!s.cache && !s.cacheStep && !s.cacheKey) return;
  const file = displayPath(store, ciEnvFile(store));
  if (!s.cache) throw new ForgeError(`${file}: field 'cache': missing (what cache_step installs)`, "E_CI_ENV", 1);
  if (!s.cacheStep)
    throw new ForgeError(
      `${file}: field 'cache_step': missing (the step that installs what cache= keeps, e.g. cache_step=05-install)`,
      "E_CI_ENV",
      1
    );
  if (!p.steps.some((x) => x.name === s.cacheStep)) {
    const have = p.steps.map((x) => x.name).join(" ");
    throw new ForgeError(`${file}: field 'cache_step': no step '${s.cacheStep}' (have: ${have})`, "E_CI_ENV", 1);
  }
}

/**
 * The cache key of the tree `dir` (its key files as they are now).
 * @returns undefined when `ci.env` names no cache
 */
export function cacheUse(store: Store, p: Posture, dir: string): CacheUse | undefined {
  const s = p.settings;
  if (!s.cache || !s.cacheStep) return undefined;
  const h = createHash("sha256");
  h.update(`forge-ci-cache v1\nrunner ${p.runner}\nimage ${s.image ?? ""}\nci.env ${sha256(p.envBytes)}\n`);
  for (const step of p.steps) {
    h.update(`step ${step.name} ${step.mode & 0o111 ? "x" : "-"} ${sha256(step.bytes)}\n`);
    if (step.name === s.cacheStep) break;
  }
  for (const path of s.cache) h.update(`cache ${path}\n`);
  for (const f of s.cacheKey ?? DEFAULT_CACHE_KEY) {
    const file = join(dir, f);
    h.update(`key ${f} ${isFile(file) ? sha256(readFileSync(file)) : "absent"}\n`);
  }
  const key = h.digest("hex");
  return { key, step: s.cacheStep, paths: s.cache, entry: join(cacheRoot(store), key) };
}

/**
 * Copy the cached folders of `use` into `dir`.
 * @returns true on a hit (every folder copied); false on a miss (no entry, a folder already in the tree, a copy that
 *   failed: what it copied is removed again and the install step runs)
 */
export async function restoreCache(use: CacheUse, dir: string): Promise<boolean> {
  if (!existsSync(join(use.entry, "tree"))) return false;
  if (use.paths.some((p) => present(join(dir, p)) || !realFolders(dir, p))) return false;
  const done: string[] = [];
  for (const p of use.paths) {
    const from = join(use.entry, "tree", p);
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    if (!(await cp(from, join(dir, p)))) {
      for (const d of [...done, p]) rmSync(join(dir, d), { recursive: true, force: true });
      return false;
    }
    done.push(p);
  }
  // Least recently used goes first: a hit is a use.
  const now = new Date();
  utimesSync(use.entry, now, now);
  return true;
}

/**
 * Save the folders of `use` from `dir` as the entry of its key (an entry already there is kept).
 * @returns true when this call saved it
 */
export async function saveCache(store: Store, use: CacheUse, dir: string, keep: number): Promise<boolean> {
  if (existsSync(use.entry)) return false;
  const root = cacheRoot(store);
  mkdirSync(root, { recursive: true });
  // Machine state: ignored by git whatever the store's own .gitignore says.
  const ignore = join(root, ".gitignore");
  if (!existsSync(ignore)) atomicWrite(ignore, "*\n");
  const tmp = join(root, `.new-${randomBytes(6).toString("hex")}`);
  try {
    mkdirSync(join(tmp, "tree"), { recursive: true });
    for (const p of use.paths) {
      if (!present(join(dir, p))) continue;
      if (!realFolders(dir, p)) return false;
      mkdirSync(dirname(join(tmp, "tree", p)), { recursive: true });
      if (!(await cp(join(dir, p), join(tmp, "tree", p)))) return false;
    }
    writeFileSync(join(tmp, "key"), `${use.key}\n`);
    try {
      renameSync(tmp, use.entry);
    } catch {
      return false; // another tree saved the same key meanwhile
    }
    pruneCaches(store, keep);
    return true;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Keep the newest `keep` entries (by last use); remove the others and any half-made entry older than an hour.
 * @returns the keys removed
 */
export function pruneCaches(store: Store, keep: number): string[] {
  const root = cacheRoot(store);
  if (!existsSync(root)) return [];
  const entries = readdirSync(root)
    .filter((n) => /^[0-9a-f]{64}$/.test(n))
    .map((n) => ({ n, t: statSync(join(root, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  const gone = entries.slice(keep).map((e) => e.n);
  for (const n of gone) rmSync(join(root, n), { recursive: true, force: true });
  const hourAgo = Date.now() - 3600_000;
  for (const n of readdirSync(root))
    if (n.startsWith(".new-") && statSync(join(root, n)).mtimeMs < hourAgo)
      rmSync(join(root, n), { recursive: true, force: true });
  return gone;
}

/** `cp -a from to` (argv, no shell): modes, times and symlinks kept as they are. */
function cp(from: string, to: string): Promise<boolean> {
  return new Promise((resolve) => execFile("cp", ["-a", "--", from, to], (err) => resolve(!err)));
}

/** Whether `path` is there (a dangling symlink too). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether every folder on the way to `rel` in `dir` that exists is a real folder (no symlink out of the tree). */
function realFolders(dir: string, rel: string): boolean {
  const parts = rel.replace(/\/+$/, "").split("/");
  let at = dir;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    if (!present(at)) return true;
    if (!lstatSync(at).isDirectory()) return false;
  }
  return true;
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function sha256(b: Uint8Array): string {
  return createHash("sha256").update(b).digest("hex");
}
