/**
 * Locks as git takes them: a read-modify-write of `<file>` holds
 * `<file>.lock`, created exclusively (only one process can) with its
 * holder's pid already in it, re-reads the
 * file under it, writes, renames, and removes the lock. A lock whose process
 * is gone (same host, pid not alive) or that is older than `STALE_MS` is
 * broken, with a note, by one process at a time (it holds `<lock>.break.lock`
 * meanwhile), and a lock taken while a break runs counts only once the break
 * is over and the lock is still its taker's: no two processes hold one lock
 * at once. Contention waits a bounded time, then fails with one
 * line naming the file. A lock held as long as its process lives (a loop
 * round, a release activation) sets `staleMs: Infinity` and its own
 * messages: it is the same lock.
 */
import { existsSync, linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";
import { ConflictError } from "../errors.js";
import { mkdirInside } from "./mkdir_inside.js";
import { displayPath, kindDir, type KindLayout, type Store } from "./store.js";

/** A lock older than this is broken even when its pid looks alive (pids are reused). */
export const STALE_MS = 60_000;

/** Options of `withLock`. */
export interface LockOptions {
  /** The path for messages (relative to the repo, never absolute: SEC-10). */
  file?: string;
  /** How long to wait for a held lock, in ms (default `FORGE_LOCK_WAIT_MS` or 10 s; 0: fail at once). */
  waitMs?: number;
  /**
   * How old a lock whose holder looks alive must be to be broken (default
   * `STALE_MS`). `Infinity` for a lock held as long as its process lives:
   * only a dead holder's is broken.
   */
  staleMs?: number;
  /** The message of the ConflictError when the lock stays held (default: names `file` and the holder's pid). */
  busy?: (pid: number | undefined) => string;
  /** Told when a stale lock was broken to take this one, instead of the note sink. */
  onBreak?: (stale: StaleLock) => void;
  /**
   * The lock file holds its holder's pid alone (`<pid>\n`), the form the
   * loop's and release's locks always had, and a holder is taken to be of
   * this host: one with no pid in it (not empty) is broken at once.
   */
  pidOnly?: boolean;
}

/** A stale lock that was broken. */
export interface StaleLock {
  /** Its holder's pid, when it named one. */
  pid: number | undefined;
  /** Whether its holder is gone (else it was older than `staleMs`). */
  dead: boolean;
  ageMs: number;
}

type NoteSink = (note: string) => void;
let sink: NoteSink = () => undefined;

/**
 * Where core's notes go (a broken stale lock). Core never prints: the CLI
 * kit points this at stderr.
 * @param fn receives one line, without a trailing newline
 */
export function setNoteSink(fn: NoteSink): void {
  sink = fn;
}

/**
 * Run `fn` holding `<path>.lock`. `fn` should re-read `path` before
 * changing it: what was read before the lock may be stale.
 * @param path the file to be rewritten
 * @param fn the read-modify-write
 * @returns what `fn` returns
 * @throws ConflictError when the lock is still held after the wait
 * @example withLock("/r/.forge/issues/x/issue.md", () => rewrite())
 */
export function withLock<T>(path: string, fn: () => T, opts: LockOptions = {}): T {
  const lock = lockFile(path, opts);
  try {
    return fn();
  } finally {
    lock.release();
  }
}

/**
 * `withLock` for async work (the lock is taken and released the same way;
 * the wait is synchronous, as git's is).
 */
export async function withLockAsync<T>(path: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lock = lockFile(path, opts);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/**
 * Run a create holding its kind's lock (`.forge/<kind>.lock`), from reading
 * the order to recording the new entity in it: the id and time that decide
 * the number are fixed while no other create of this clone can slip in, so
 * the number printed is the number kept. (Across clones, creates can still
 * renumber after a merge: numbers are ranks; the id never changes.)
 * @example await withKindLock(store, ISSUES, async () => { … })
 */
export async function withKindLock<T>(store: Store, kind: KindLayout, fn: () => Promise<T>): Promise<T> {
  const key = kindDir(store, kind);
  // The lock file is made beside the kind's folder: that folder's parent must exist (a store's first CI run has no ci/
  // yet).
  mkdirInside(store, dirname(key));
  // Creates of one process queue here first: the file lock's wait is synchronous, so a second create
  // of the same process waiting on it would block the first one's awaits (as an act's parallel reruns would).
  const prev = QUEUED.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = prev.then(() => mine);
  QUEUED.set(key, tail);
  await prev;
  try {
    return await withLockAsync(
      key,
      async () => {
        HELD.add(key);
        try {
          return await fn();
        } finally {
          HELD.delete(key);
        }
      },
      { file: displayPath(store, key) }
    );
  } finally {
    done();
    if (QUEUED.get(key) === tail) QUEUED.delete(key);
  }
}

const HELD = new Set<string>();
const QUEUED = new Map<string, Promise<void>>();

/**
 * Whether this process holds the kind's create lock now (`withKindLock`):
 * then no other create of this clone can change the kind's folders, and
 * the order cache may trust a stamp a create wrote (see `entityOrder`).
 */
export function holdsKindLock(store: Store, kind: KindLayout): boolean {
  return HELD.has(kindDir(store, kind));
}

/** A held lock. */
export interface HeldLock {
  /**
   * Remove the lock file.
   * @param movedTo the locked file's new path, when its folder was renamed while held
   */
  release(movedTo?: string): void;
}

/**
 * Take `<path>.lock` (waiting a bounded time), for a caller that cannot
 * wrap its work in one function (`withLock` is the usual form).
 * @throws ConflictError when the lock stays held
 */
export function lockFile(path: string, opts: LockOptions = {}): HeldLock {
  return take(path + ".lock", opts, (movedTo) => movedTo + ".lock");
}

/**
 * `lockFile` for a lock file named otherwise than `<file>.lock`
 * (`.forge/loops/<id>/loop.lock`, `DIR/.forge-release.lock`).
 * @param lock the lock file's own path
 * @throws ConflictError when the lock stays held
 * @example holdLock(join(dir, "loop.lock"), { waitMs: 0, staleMs: Infinity, pidOnly: true })
 */
export function holdLock(lock: string, opts: LockOptions = {}): HeldLock {
  return take(lock, opts, (movedTo) => movedTo);
}

// --- internal ---

function take(path: string, opts: LockOptions, lockOf: (movedTo: string) => string): HeldLock {
  const line = acquire(path, opts);
  let released = false;
  return {
    release(movedTo?: string): void {
      if (released) return;
      released = true;
      const lock = movedTo === undefined ? path : lockOf(movedTo);
      try {
        // Only this process's lock: one broken as stale meanwhile may be another's now.
        if (readFileSync(lock, "latin1") === line) unlinkSync(lock);
      } catch {
        // Already gone (broken as stale by another process after STALE_MS): nothing to release.
      }
    },
  };
}

const HOST = hostname();

/** Take the lock; its line (pid, host, time), which the lock file holds while it is this process's. */
function acquire(lock: string, opts: LockOptions): string {
  const env = Number(process.env.FORGE_LOCK_WAIT_MS);
  const wait = opts.waitMs ?? (Number.isFinite(env) && env >= 0 ? env : 10_000);
  const deadline = Date.now() + wait;
  let pause = 1;
  for (;;) {
    const line = tryCreate(lock, opts.pidOnly === true);
    if (line !== undefined) {
      if (stillMine(lock, line)) return line;
    } else if (breakIfStale(lock, opts)) continue;
    if (Date.now() >= deadline) {
      const by = holder(lock);
      if (opts.busy) throw new ConflictError(opts.busy(by && validPid(by.pid) ? by.pid : undefined));
      throw new ConflictError(
        `${opts.file ?? "file"} is locked${by ? ` by pid ${by.pid}` : ""} (another forge process is writing it); ` +
          `try again, or remove ${opts.file ?? "its"}.lock if none is running`
      );
    }
    sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
    pause = Math.min(pause * 2, 50);
  }
}

/**
 * Create the lock with its line already in it: written to a temp file, then
 * hard-linked to the lock's name (link fails if the name exists, as O_EXCL
 * does). A lock file is never seen empty, so none is broken while its
 * writer is between creating it and writing its pid.
 * @returns the line, or undefined when the lock is held
 */
function tryCreate(lock: string, pidOnly: boolean): string | undefined {
  const line = pidOnly ? `${process.pid}\n` : `${process.pid} ${HOST} ${Date.now()}\n`;
  // One per process: a process takes a lock one attempt at a time (a left-over of a dead process of the same pid is
  // overwritten).
  const tmp = `${lock}.${process.pid}.tmp`;
  writeFileSync(tmp, line, { mode: 0o644 });
  try {
    linkSync(tmp, lock);
    return line;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw err;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // gone already
    }
  }
}

interface Holder {
  pid: number;
  host: string;
  text: string;
}

function holder(lock: string): Holder | undefined {
  let text: string;
  try {
    text = readFileSync(lock, "latin1");
  } catch {
    return undefined;
  }
  const [pid, host] = text.trim().split(" ");
  return { pid: Number(pid), host: host ?? "", text };
}

/** What a lock's breaker holds while it breaks it (`<lock>.break.lock`): one break at a time. */
const BREAK = ".break.lock";

/**
 * A break token older than this is a stopped or dead breaker's (a break takes
 * well under a second). A breaker stopped longer than this and then resumed
 * could still move a lock aside unguarded: not handled.
 */
const BREAK_STALE_MS = 10_000;

/**
 * Whether a lock just taken is its taker's. A break that judged the lock's
 * former holder may have moved it aside meanwhile, and put it back or not
 * (another took the name in between): wait the break out, then read it.
 * (A break that starts later judges this lock itself, and its holder lives.)
 */
function stillMine(lock: string, line: string): boolean {
  const token = lock + BREAK;
  while (existsSync(token) && !clearStaleToken(token)) sleep(1);
  try {
    return readFileSync(lock, "latin1") === line;
  } catch {
    return false;
  }
}

/**
 * Remove a break token whose breaker is gone or too old (moved aside and
 * checked, as a lock is).
 * @returns whether no token of a live breaker stands
 */
function clearStaleToken(token: string): boolean {
  const h = holder(token);
  let age: number;
  try {
    age = Date.now() - statSync(token).mtimeMs;
  } catch {
    return true;
  }
  if (!h) return true;
  const dead = h.host === HOST && validPid(h.pid) && !pidAlive(h.pid);
  if (!dead && age < BREAK_STALE_MS) return false;
  moveAside(token, h.text);
  return true;
}

/**
 * Break the lock when its holder is dead or it is too old, holding the break
 * token (one breaker at a time, so none moves aside a lock another put back).
 * @returns whether to try again at once
 */
function breakIfStale(lock: string, opts: LockOptions): boolean {
  const token = lock + BREAK;
  const mine = tryCreate(token, false);
  if (mine === undefined) return clearStaleToken(token);
  try {
    return breakHeld(lock, opts);
  } finally {
    try {
      if (readFileSync(token, "latin1") === mine) unlinkSync(token);
    } catch {
      // cleared as stale by another process
    }
  }
}

/**
 * Break the lock, the break token held: it is first renamed aside (atomic),
 * and checked again there, so a lock taken meanwhile by a live process is put
 * back (and its taker waits for the token before it counts it: `stillMine`).
 */
function breakHeld(lock: string, opts: LockOptions): boolean {
  const h = holder(lock);
  let age: number;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return true; // released meanwhile: try again at once
  }
  if (!h) return true;
  // A lock is created with its line in it (tryCreate); an empty one is a crashed writer's of an older forge, once it is
  // a second old.
  let dead: boolean;
  if (h.text === "") dead = age >= 1000;
  else if (opts.pidOnly) dead = !validPid(h.pid) || !pidAlive(h.pid);
  else dead = h.host === HOST && validPid(h.pid) && !pidAlive(h.pid);
  if (!dead && age < (opts.staleMs ?? STALE_MS)) return false;
  if (!moveAside(lock, h.text)) return true;
  if (opts.onBreak) {
    opts.onBreak({ pid: validPid(h.pid) ? h.pid : undefined, dead, ageMs: age });
  } else {
    const why = dead ? " is gone" : `, ${Math.round(age / 1000)} s old`;
    sink(`broke a stale lock on ${opts.file ?? "a file"} (pid ${h.pid}${why})`);
  }
  return true;
}

/**
 * Remove `path` if it still holds `text`: renamed aside first (atomic: only
 * one remover wins), read there, and put back when it is another one (link
 * fails if a newer one holds the name already).
 * @returns whether the file judged was removed
 */
function moveAside(path: string, text: string): boolean {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // another process broke or released it
  }
  let moved = "";
  try {
    moved = readFileSync(aside, "latin1");
  } catch {
    // vanished: nothing to restore
  }
  if (moved !== text) {
    try {
      linkSync(aside, path);
    } catch {
      // a newer one holds the name
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone already
  }
  return moved === text;
}

function validPid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid > 0;
}

/**
 * Whether a process of this host is alive (`kill(pid, 0)`; EPERM: alive,
 * someone else's). A zombie (killed, not yet reaped by its parent, which a
 * container's init may never do) is not.
 * @example pidAlive(process.pid) // true
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc (not Linux), or gone this instant: kill() said it runs
  }
}

const CELL = new Int32Array(new SharedArrayBuffer(4));

/** A synchronous sleep (the write path is synchronous). */
function sleep(ms: number): void {
  Atomics.wait(CELL, 0, 0, ms);
}
