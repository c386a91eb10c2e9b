/**
 * A walk's lstats, taken ahead of it by a second thread, as git's
 * preload-index lstats the index's files on threads before `git status`
 * compares them. A warm filtered list lstats every issue's file (~2.2 µs
 * each in the kernel here, ~3 in Node), which no cache can spare (an edit
 * in place moves no folder's mtime): at 100,000 issues the thread took
 * 95–98 % of them in 3 runs of `-l bug` (the walk's own work on each
 * record is slower than an lstat).
 *
 * Both go newest first, the thread `GAP` ranks ahead of the walk,
 * publishing each stat as it goes (the ranks done). When the walk reaches
 * an entity the thread has not stat'ed, it lstats it itself, and the thread
 * jumps `GAP` ranks ahead of it again: neither waits for the other. (Taking
 * the oldest first, to meet the walk, left the walk 28,000 of the 95,000
 * lstats of `-l bug` at 100,000 issues, 4,300 this way: 527 → 478 ms.) A
 * stat from the thread is taken after the walk's start (its `now`) and
 * before the walk reads the file, as the walk's own would be: the record
 * cache takes it as its own lstat (`RecordCache.get`). Any failure of the thread (none
 * started, an error) only leaves every lstat to the walk.
 *
 * Once the oldest is stat'ed, the thread stamps the record folders (`activityDirs`)
 * of the ranks just ahead of the walk, as `folderStamp` does: a filter's
 * match is printed from the cache only while its folders' stamp is its
 * line's (2 stats each, which the walk took itself: a quarter of `-S`'s
 * time at 100,000 issues). Caught up by the walk, the thread jumps ahead
 * of it again (`GAP`). At 100,000 issues, its lstats done first, it gives
 * 24,600–28,300 of a search's 43,566 stamps and 1,100–1,800 of `-l bug`'s
 * 12,154.
 */
import { Worker } from "node:worker_threads";
import { sep } from "node:path";
import { isFileMode, rawStat, rawStats } from "../store/raw_stat.js";
import type { StampedStat } from "../store/stamp.js";
import { kindDir, type KindLayout, type Store } from "../store/store.js";
import { ACTIVITY_RECORDS } from "./activity.js";
import type { Order, OrderIds } from "./order.js";
import { orderIds } from "./order.js";

/**
 * When a walk hands the rest of its lstats over: once it has passed over
 * `after` entities and `left` are still ahead of it. A walk that ends
 * sooner (`list`'s 30, `| head -1`) never starts the thread, which takes
 * 20–30 ms to start (~6 of the walk's own) and ~8 MiB: thousands of
 * lstats' worth.
 */
export const PRESTAT_AT: { after: number; left: number; settle?: boolean } = { after: 1024, left: 16_384 };

/**
 * After how many entities a walk starts the thread (`at.after`), or at its first: a filter's walk that no limit cuts
 * short (`-L` past the order: scripts asking for every match) walks every entity anyway, and the thread takes
 * 70–140 ms to start here while the walk runs (at 100,000 issues, `-l bug`'s walk lstat'ed 14,000–28,000 files
 * itself before it was ready). A state's walk (`list | head -1`) keeps `at.after`.
 */
export function handOverAfter(at: { after: number }, filter: boolean, limit: number, length: number): number {
  return filter && limit >= length ? 1 : at.after;
}

/** How many ranks ahead of the walk the thread starts, and takes up its lstats or stamps again when caught up. */
const GAP = 16;

/** How many of the order's lines the thread reads at once when it reads them from the cache file (15 KiB). */
const BLOCK = 256;

// The thread: entity j's lstat (inode, mtime, ctime, size; size -1: not a file) at v[4j…], taken newest first just
// ahead of the walk (c[2]: the rank it asked last), the ranks [c[0], c[1]] done. Caught up by the walk, it jumps `gap`
// ranks ahead of it (c[1] moved first, then c[0]: a walk that reads the new c[0] reads the new c[1]). Then, below the
// walk, each entity's record folders' stamp (as `folderStamp` makes it) as text in the arena, its offset + 1 at a[j],
// until the walk is over (c[3]) or the oldest is stamped.
const THREAD = `"use strict";
const { workerData: d } = require("node:worker_threads");
const fs = require("node:fs");
const raw = (${rawStats.toString()})(fs, process);
const c = new Int32Array(d.sab, 0, 4);
const v = new Float64Array(d.sab, 16, 4 * d.n);
const a = new Int32Array(d.sab, d.atAt, d.n);
const t = Buffer.from(d.sab, d.arenaAt, d.arena);
const r = (${rawStat.toString()})();
const isFile = ${isFileMode.toString()};
// The order's lines: copied in by the walk, or read here from its cache file a block at a time (a short read leaves
// blanks, which name no entity: left to the walk).
const b = d.lines ? Buffer.alloc(${BLOCK} * d.stride) : Buffer.from(d.sab, 16 + 32 * d.n, d.bytes);
let block = -1;
const lineAt = (j) => {
  if (!d.lines) return j * d.stride;
  const k = Math.floor(j / ${BLOCK});
  if (k !== block) {
    block = k;
    const want = Math.min(${BLOCK}, d.n - k * ${BLOCK}) * d.stride;
    const at = d.lines.at + k * ${BLOCK} * d.stride;
    let got = 0;
    try {
      for (let n = 1; got < want && n > 0; got += n) n = fs.readSync(d.lines.fd, b, got, want - got, at + got);
    } catch {}
    b.fill(32, got);
  }
  return (j - k * ${BLOCK}) * d.stride;
};
const idOf = (o) => b.toString("latin1", o + d.idAt, o + d.idAt + 36);
let j = d.n;
for (; Atomics.load(c, 3) === 0; j--) {
  if (j >= Atomics.load(c, 2)) {
    j = Atomics.load(c, 2) - 1 - d.gap;
    Atomics.store(c, 1, j);
    Atomics.store(c, 0, j + 1);
  }
  if (j < 0) break;
  const o = lineAt(j);
  const id = idOf(o);
  let file = false;
  try {
    // Archived (not walked), or not a plain name (the walk's own path would be normalised): left to the walk.
    if (b[o + d.flagAt] !== 65 && /^[0-9A-Za-z_-]+$/.test(id)) {
      file = raw.lstat(d.dir + id + d.file, r) && isFile(r.mode);
    }
  } catch {}
  if (file) {
    v[4 * j] = r.ino;
    v[4 * j + 1] = r.mtimeMs;
    v[4 * j + 2] = r.ctimeMs;
    v[4 * j + 3] = r.size;
  } else v[4 * j + 3] = -1;
  Atomics.store(c, 0, j);
}
let end = 0;
for (j = j < 0 ? Atomics.load(c, 1) : -1; d.subs.length > 0 && j >= 0 && Atomics.load(c, 3) === 0; j--) {
  // A few ranks ahead of the walk: one it reaches first it stamps itself.
  const pos = Atomics.load(c, 2);
  if (j >= pos - 1) j = pos - 1 - d.gap;
  if (j < 0) break;
  if (v[4 * j + 3] < 0) continue;
  // Read again (blank if cut since): the walk's own WindowOrder reads the same fd.
  const id = idOf(lineAt(j));
  if (!/^[0-9A-Za-z_-]+$/.test(id)) continue;
  let value = "";
  try {
    for (const sub of d.subs) {
      const st = raw.folder(d.dir + id + "/" + sub);
      value += st === undefined ? "-;" : st.ino + "." + st.mtimeNs + ";";
    }
  } catch {
    continue;
  }
  if (end + 1 + value.length > d.arena || value.length > 255) break;
  t[end] = value.length;
  t.write(value, end + 1, "latin1");
  Atomics.store(a, j, end + 1);
  end += 1 + value.length;
}
`;

/** The lstats of a kind's owning files, in the order's ranks, taken by another thread (see the module comment). */
export class PreStat {
  readonly #ctl: Int32Array;
  readonly #v: Float64Array;
  readonly #at: Int32Array;
  readonly #arena: Buffer;
  // The stat `known` gives (reused).
  readonly #st: StampedStat = { ino: 0, mtimeMs: 0, ctimeMs: 0, size: 0 };
  readonly #worker: Worker;
  readonly #exit: Promise<void>;
  #ended = false;
  readonly #n: number;

  /**
   * Start the thread over the files of `order`'s ranks `[0, end)` of `kind` (the oldest first), for a walk that
   * goes on from `end` down; undefined when the order is not kept as lines or no thread starts. Its lstats are
   * taken from now on: after the walk's start, as the walk's own would be.
   * @param folders whether the thread then stamps record folders (`folders`): only a walk that stamps them after its
   *   filter (`fileOnly`) asks; another stamps them with each lookup
   */
  static start(store: Store, kind: KindLayout, order: Order, end: number, folders = true): PreStat | undefined {
    const ids = orderIds(order);
    if (!ids || end <= 0) return undefined;
    try {
      return new PreStat(store, kind, Math.min(end, order.length), ids, folders);
    } catch {
      return undefined;
    }
  }

  private constructor(store: Store, kind: KindLayout, n: number, ids: OrderIds, folders: boolean) {
    // The thread's control words, its stats, the order's lines (copied in, not cloned as a string), the folder
    // stamps' offsets and their arena (a rank's stamp at most 42 bytes a folder; pages are only taken as written).
    const subs = folders ? (ACTIVITY_RECORDS[kind.plural] ?? []) : [];
    // An order kept as its cache file: the thread reads the lines itself, through the order's fd, which stays open
    // while the walk holds the order (at 100,000 issues, copying their 6 MB in took this thread ~20 ms).
    const bytes = ids.file ? 0 : ids.bytes;
    const atAt = 16 + n * 32 + bytes + ((4 - (bytes % 4)) % 4);
    const arenaAt = atAt + 4 * n;
    const arena = subs.length > 0 ? n * (1 + 42 * subs.length) : 0;
    const sab = new SharedArrayBuffer(arenaAt + arena);
    if (!ids.file) ids.write(Buffer.from(sab, 16 + n * 32, bytes));
    this.#ctl = new Int32Array(sab, 0, 4);
    this.#v = new Float64Array(sab, 16, 4 * n);
    this.#at = new Int32Array(sab, atAt, n);
    this.#arena = Buffer.from(sab, arenaAt, arena);
    this.#n = n;
    // None done ([n + 1, n]); the walk at n.
    Atomics.store(this.#ctl, 0, n + 1);
    Atomics.store(this.#ctl, 1, n);
    Atomics.store(this.#ctl, 2, n);
    const { stride, idAt, flagAt, file } = ids;
    const dir = kindDir(store, kind) + sep;
    const data = {
      sab,
      n,
      bytes,
      stride,
      idAt,
      flagAt,
      lines: file,
      dir,
      file: sep + kind.file,
      subs,
      atAt,
      arenaAt,
      arena,
      gap: GAP,
    };
    // Its heap held small: its garbage is a path string per file (with fs.Stats, unheld, its young generation grew to
    // 16 MiB).
    const resourceLimits = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 };
    // No flag of this process's (`--input-type=module` would make the script a module, without require).
    const opts = { eval: true, workerData: data, stdout: true, stderr: true, resourceLimits, execArgv: [] };
    const w = new Worker(THREAD, opts);
    // Its end, or its failure, only leaves the rest to the walk; the process never waits for it.
    this.#exit = new Promise((resolve) =>
      w.once("exit", () => {
        this.#ended = true;
        resolve();
      })
    );
    w.on("error", () => {});
    w.unref();
    this.#worker = w;
  }

  /** Settled when the thread has ended (for tests: the walk never waits for it); the process waits for it too. */
  get exited(): Promise<void> {
    this.#worker.ref();
    return this.#exit;
  }

  /**
   * The file's lstat at rank `i` as the thread took it (its inode, mtime, ctime and size: `RecordCache.get` takes it
   * as its own), or undefined when it has not
   * stat'ed it (the caller lstats it, and the thread goes on `GAP` ranks below it: ask in descending order), or
   * found no regular file there. The object is reused: valid until the next call.
   */
  known(i: number): StampedStat | undefined {
    Atomics.store(this.#ctl, 2, i);
    // The range done, its low end first (moved after its top when the thread jumps).
    if (i < 0 || i >= this.#n || i < Atomics.load(this.#ctl, 0) || i > Atomics.load(this.#ctl, 1)) return undefined;
    const o = 4 * i;
    const st = this.#st;
    st.size = this.#v[o + 3]!;
    if (st.size < 0) return undefined;
    st.ino = this.#v[o]!;
    st.mtimeMs = this.#v[o + 1]!;
    st.ctimeMs = this.#v[o + 2]!;
    return st;
  }

  /**
   * The stamp of the record folders (`activityDirs`) of the entity at rank `i` as `folderStamp(…).value` has it,
   * taken by the thread ahead of the walk (after its start), or undefined when it has none (the caller stamps them).
   */
  folders(i: number): string | undefined {
    if (i < 0 || i >= this.#at.length) return undefined;
    const at = Atomics.load(this.#at, i);
    return at === 0 ? undefined : this.#arena.toString("latin1", at, at + this.#arena[at - 1]!);
  }

  /** Whether the thread has begun its stats (its set-up is over) or ended. */
  get running(): boolean {
    return this.#ended || Atomics.load(this.#ctl, 1) < this.#n;
  }

  /** Stop the thread (the walk is over). */
  stop(): void {
    Atomics.store(this.#ctl, 3, 1);
    this.#worker.terminate().catch(() => {});
  }
}
