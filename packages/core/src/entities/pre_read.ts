/**
 * A cold listing's files, read ahead of it by a second thread. A listing
 * with no cache (a fresh clone, after a pull) reads every entity's owning
 * file once, for its order and its record. A record also needs its record
 * folders' stamp and its last activity (`activityDirs`: a stat of
 * `comments/` and `edits/`, and the head of every record in them). On one
 * thread, the reading is ~60 % of that pass's time.
 *
 * The thread goes through the listing in its order, ahead of the reader. For
 * each entity it reads the owning file as `readStoreFileStat` does (its stat
 * taken on the open file, then its bytes), stamps its record folders as
 * `folderStamp` does and reads its activity with `scanRecords`, the code
 * `lastActivity` runs. It publishes them in a ring of `RING` slots, so it is
 * never more than that far ahead and its memory stays flat at any size. An
 * entity the reader reaches unpublished it reads itself, and the thread,
 * caught up (or all but: `NEAR`), jumps `GAP` entities ahead of it: neither
 * waits for the other.
 *
 * What the thread took is judged at the time it took it (`at`, before it
 * opened the file), as the reader judges its own reads. What it cannot read
 * the same way it leaves to the reader: an archived entity (its activity
 * has the live folders too), a symlink, a file that is not regular or over
 * a quarter of the `TEXT` bytes the files' text is kept in, a folder that
 * cannot be stat'ed, an edit record that sets `isDraft`. Any failure of the
 * thread (none started, an error) only leaves every entity to the reader.
 *
 * Measured (interleaved, against the list without it): a cold full list at
 * 10,000 issues 478 vs 549 ms (its read floor 296), at 100,000 2.8–3.2 s vs
 * 4.8 (floor 2.6–2.8), output and record cache byte for byte the same. The
 * thread costs ~10 MiB while it runs (heap_bound.ts).
 */
import { sep } from "node:path";
import { Worker } from "node:worker_threads";
import type { EntityRef } from "../store/entities_dir.js";
import { reboundHeap } from "../store/heap_bound.js";
import { isFileMode, rawStat, rawStats } from "../store/raw_stat.js";
import { READ_FLAGS } from "../store/read_file.js";
import type { StampedStat } from "../store/stamp.js";
import { kindDir, type KindLayout, type Store } from "../store/store.js";
import { ACTIVITY_RECORDS, RECORD_HEAD, SCAN_RE, scanRecords } from "./activity.js";

/**
 * A listing of at least this many entities starts the thread (tests lower it): it takes ~20 ms and ~10 MiB, and a
 * cold list gained nothing from it at 4,500 issues (309 vs 309 ms) or 6,500 (355 vs 359), 13 % at 10,000.
 */
export const PREREAD_AT = { refs: 8192 };

/** How many entities the thread may be ahead of the reader. */
const RING = 512;
/**
 * The bytes of the files read ahead and not yet taken, kept in a ring: a file over a quarter of it is the reader's to
 * read (its folders are still taken).
 */
const TEXT = 512 << 10;
/** How far ahead of the reader the thread takes up again when the reader has caught it up. */
const GAP = 8;
/**
 * How close behind the reader may be before the thread jumps: a rank it would start with the reader this near would
 * most often be reached (and read by the reader too) before it is published. A cold list at 10,000 issues opened
 * 1,490–2,168 issue files twice (under strace); with this, 195–254. At 100,000: 2,489–2,516 vs 2,646–2,894 ms (5
 * interleaved runs each, twice); at 10,000 no change (434.7 vs 437.4 ms, 21 runs).
 */
const NEAR = 2;
/** An id's bytes (a uuid); an id left blank is the reader's. */
const ID = 36;
/** The ids the reader has handed over for the ranks ahead of it, a ring of this many (the listing is not copied). */
const IDS = 4 * RING;

/** The stat of a file read: its stamp's fields, and whether it is a regular file. */
export type ReadStat = StampedStat & { isFile(): boolean };

/** An owning file as the thread read it. */
export interface AheadFile {
  /** Its stat, taken on the open file before the read (a regular file). */
  readonly stat: ReadStat;
  readonly text: string;
}

/** What the thread found of one entity. */
export interface Ahead {
  /** When it began on the entity (ms since the epoch, before the file was opened): what its stamps are judged at. */
  readonly at: number;
  /** The owning file, when the thread read it. */
  readonly file?: AheadFile;
  /** Its record folders, when the thread stamped and read them. */
  readonly folders?: AheadFolders;
}

/** An entity's record folders as the thread found them. */
export interface AheadFolders {
  /** Their stamp, as `folderStamp(dirs).value` (`activityDirs` of the live entity). */
  readonly value: string;
  /** Their newest mtime. */
  readonly mtimeNs: bigint;
  /** The indexes in `dirs` of the folders that were missing. */
  readonly absent: readonly number[];
  /** The latest `createdAt` of their records ("" when none): `lastActivity`. */
  readonly activity: string;
}

// The layout, in the order below: control words c (c[0] the rank the reader is at, c[1] 1 once the thread runs,
// c[2] 1 when it is to stop, c[3] how many ranks' ids are handed over, c[4] how many there are, -1 until listed); per
// slot s = j % RING of rank j: tag[s] = j + 1 once published, has[s] (1: the file, 2: the folders), off[s] and len[s]
// where its file's bytes are in the text ring, ms[s] the time it began, st[4s…] the file's ino, mtimeMs, ctimeMs and
// size; per folder f, ino[s·F + f] (-1: missing) and mt[s·F + f]; act[20s…] the activity (a zero first byte: none);
// the text ring (TEXT bytes); the ids handed over, rank k's at 36·(k % IDS).
//
// A slot is written only for a rank below the reader's + RING, and its tag last: the reader, at a rank, reads the
// slot whose tag is that rank's, which the thread rewrites only once the reader is past it. A thread far behind
// may read an id the reader is rewriting: it publishes it under a rank the reader has passed, never taken.
function layout(
  F: number
): Record<"tag" | "has" | "off" | "ms" | "st" | "len" | "ino" | "mt" | "act" | "text" | "ids", number> {
  const ms = 32 + 16 * RING;
  const st = ms + 8 * RING;
  const ino = st + 32 * RING;
  const mt = ino + 8 * F * RING;
  const len = mt + 8 * F * RING;
  const act = len + 4 * RING;
  const text = act + 20 * RING;
  return { tag: 32, has: 32 + 4 * RING, off: 32 + 8 * RING, ms, st, len, ino, mt, act, text, ids: text + TEXT };
}

const THREAD = `"use strict";
const { workerData: d } = require("node:worker_threads");
const fs = require("node:fs");
const scan = (${scanRecords.toString()});
const raw = (${rawStats.toString()})(fs, process);
const st = (${rawStat.toString()})();
const isFile = ${isFileMode.toString()};
const F = d.subs.length, L = d.at, R = d.ring, T = d.text;
const c = new Int32Array(d.sab, 0, 8);
const tag = new Int32Array(d.sab, L.tag, R);
const has = new Int32Array(d.sab, L.has, R);
const off = new Int32Array(d.sab, L.off, R);
const ms = new Float64Array(d.sab, L.ms, R);
const st4 = new Float64Array(d.sab, L.st, 4 * R);
const len = new Int32Array(d.sab, L.len, R);
const ino = new Float64Array(d.sab, L.ino, R * F);
const mt = new BigInt64Array(d.sab, L.mt, R * F);
const act = Buffer.from(d.sab, L.act, 20 * R);
const text = Buffer.from(d.sab, L.text, T);
const ids = Buffer.from(d.sab, L.ids, 36 * d.ids);
const sfs = { flags: d.fileFlags, readdirSync: (p) => fs.readdirSync(p), openSync: fs.openSync, readSync: fs.readSync,
  closeSync: fs.closeSync };
const re = { uuid: new RegExp(d.re[0]), created: new RegExp(d.re[1]), draft: new RegExp(d.re[2]) };
const buf = Buffer.allocUnsafe(d.head);
// The text ring: bytes [head…) are free up to the oldest text not yet taken (q: the ranks published with text and
// where their text starts, oldest first; a rank below the reader's is taken).
let head = 0;
const qr = [], qs = [];
let qh = 0;
// Where \`need\` bytes fit now, or -1.
function room(need, pos) {
  while (qh < qr.length && qr[qh] < pos) qh++;
  if (qh > 1024) {
    qr.splice(0, qh);
    qs.splice(0, qh);
    qh = 0;
  }
  if (qh === qr.length) return need <= T ? (head = 0) : -1;
  const tail = qs[qh];
  if (head >= tail) return T - head >= need ? head : need < tail ? 0 : -1;
  return tail - head > need ? head : -1;
}
Atomics.store(c, 1, 1);
for (let j = 0; Atomics.load(c, 2) === 0; ) {
  const pos = Atomics.load(c, 0);
  // Caught up, or all but (once the reader has begun).
  if (j <= (pos < 0 ? pos : pos + d.near)) j = pos + d.gap;
  const n = Atomics.load(c, 4);
  if (n >= 0 && j >= n) break;
  if (j >= pos + R || j >= Atomics.load(c, 3)) {
    Atomics.wait(c, 0, pos, 2);
    continue;
  }
  const rank = j++;
  const k = (rank % d.ids) * 36;
  if (ids[k] === 32) continue;
  const id = ids.toString("latin1", k, k + 36);
  const dir = d.dir + id + "/";
  const s = rank % R;
  let h = 0;
  const at = Date.now();
  // The owning file, as readStoreFileStat reads it: opened with no symlink followed, its stat on the open file, its
  // bytes up to one more than that stat's size (more: it is growing, and left to the reader).
  let fd = -1;
  let wait = false;
  try {
    fd = fs.openSync(dir + d.file, d.fileFlags);
    raw.fstat(fd, st);
    const file = isFile(st.mode);
    const need = st.size + 1;
    const o = file && need <= T / 4 ? room(need, pos) : -1;
    wait = o < 0 && file && need <= T / 4;
    if (o >= 0) {
      let n = 0;
      for (;;) {
        const got = fs.readSync(fd, text, o + n, need - n, null);
        if (got === 0 || (n += got) === need) break;
      }
      if (n < need) {
        st4[4 * s] = st.ino;
        st4[4 * s + 1] = st.mtimeMs;
        st4[4 * s + 2] = st.ctimeMs;
        st4[4 * s + 3] = st.size;
        off[s] = o;
        len[s] = n;
        head = o + n;
        qr.push(rank);
        qs.push(o);
        h |= 1;
      }
    }
  } catch {}
  if (fd >= 0) {
    try {
      fs.closeSync(fd);
    } catch {}
  }
  if (wait) {
    // No room yet: the reader takes some, or reaches this rank and reads it itself.
    j--;
    Atomics.wait(c, 0, pos, 2);
    continue;
  }
  ms[s] = at;
  // The record folders, stamped as folderStamp stamps them, then read as lastActivity reads them.
  const dirs = [];
  const absent = [];
  let ok = true;
  for (let f = 0; f < F && ok; f++) {
    dirs.push(dir + d.subs[f]);
    let fst;
    try {
      fst = raw.folder(dirs[f]);
    } catch {
      ok = false;
      break;
    }
    if (fst === undefined) {
      absent.push(dirs[f]);
      ino[s * F + f] = -1;
      continue;
    }
    if (fst.ino > 9007199254740991n) ok = false;
    ino[s * F + f] = Number(fst.ino);
    mt[s * F + f] = fst.mtimeNs;
  }
  if (ok) {
    const a = scan(dirs, absent, sfs, buf, re);
    if (a.draft === undefined && (a.at === "" || a.at.length === 20)) {
      act[s * 20] = 0;
      if (a.at !== "") act.write(a.at, s * 20, "latin1");
      h |= 2;
    }
  }
  if (h === 0) continue;
  has[s] = h;
  Atomics.store(tag, s, rank + 1);
}
`;

/** A listing's files, read ahead of its reader by another thread (see the module comment). */
export class PreRead {
  readonly #ctl: Int32Array;
  readonly #tag: Int32Array;
  readonly #has: Int32Array;
  readonly #ms: Float64Array;
  readonly #st: Float64Array;
  readonly #len: Int32Array;
  readonly #off: Int32Array;
  readonly #ino: Float64Array;
  readonly #mt: BigInt64Array;
  readonly #act: Buffer;
  readonly #text: Buffer;
  readonly #ids: Buffer;
  #refs: readonly EntityRef[] = [];
  #handed = 0;
  #rebound = false;
  readonly #folders: number;
  readonly #worker: Worker;
  readonly #exit: Promise<void>;

  /**
   * Start the thread over the entities of `kind` (handed over by `list`); undefined when no thread starts.
   */
  static start(store: Store, kind: KindLayout): PreRead | undefined {
    try {
      return new PreRead(store, kind);
    } catch {
      return undefined;
    }
  }

  private constructor(store: Store, kind: KindLayout) {
    const subs = ACTIVITY_RECORDS[kind.plural] ?? [];
    const F = subs.length;
    const at = layout(F);
    const sab = new SharedArrayBuffer(at.ids + IDS * ID);
    this.#ctl = new Int32Array(sab, 0, 8);
    this.#tag = new Int32Array(sab, at.tag, RING);
    this.#has = new Int32Array(sab, at.has, RING);
    this.#ms = new Float64Array(sab, at.ms, RING);
    this.#st = new Float64Array(sab, at.st, 4 * RING);
    this.#len = new Int32Array(sab, at.len, RING);
    this.#off = new Int32Array(sab, at.off, RING);
    this.#ino = new Float64Array(sab, at.ino, RING * F);
    this.#mt = new BigInt64Array(sab, at.mt, RING * F);
    this.#act = Buffer.from(sab, at.act, 20 * RING);
    this.#text = Buffer.from(sab, at.text, TEXT);
    this.#ids = Buffer.from(sab, at.ids, ID * IDS);
    this.#folders = F;
    Atomics.store(this.#ctl, 0, -1);
    Atomics.store(this.#ctl, 4, -1);
    const data = {
      sab,
      at,
      ring: RING,
      ids: IDS,
      text: TEXT,
      gap: GAP,
      near: NEAR,
      dir: kindDir(store, kind) + sep,
      file: kind.file,
      fileFlags: READ_FLAGS,
      subs,
      re: [SCAN_RE.uuid.source, SCAN_RE.created.source, SCAN_RE.draft.source],
      head: RECORD_HEAD,
    };
    // Its heap held small: its garbage is a few strings and stat objects per entity.
    const resourceLimits = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 };
    const opts = { eval: true, workerData: data, stdout: true, stderr: true, resourceLimits, execArgv: [] };
    const w = new Worker(THREAD, opts);
    this.#exit = new Promise((resolve) => w.once("exit", () => resolve()));
    w.on("error", () => {});
    // The reader never waits for it (nothing awaits it): the process ends without it.
    w.unref();
    this.#worker = w;
  }

  /** Hand the listing over (in the order the reader goes through it), once: the thread starts on it. */
  list(refs: readonly EntityRef[]): void {
    this.#refs = refs;
    Atomics.store(this.#ctl, 4, refs.length);
    this.#hand(3 * RING);
  }

  /** Settled when the thread has ended (for tests: the reader never waits for it); the process waits for it too. */
  get exited(): Promise<void> {
    this.#worker.ref();
    return this.#exit;
  }

  /** Whether the thread has begun (its set-up is over). */
  get running(): boolean {
    return Atomics.load(this.#ctl, 1) === 1;
  }

  /**
   * What the thread found of the entity at `rank` in the listing, or undefined when it has not published it (the
   * caller reads it itself). Ask in ascending order: a rank asked for is the caller's, and the thread goes on after it.
   */
  take(rank: number): Ahead | undefined {
    Atomics.store(this.#ctl, 0, rank);
    // Its isolate's set-up undoes a bounded heap's growth factor (heap_bound.ts): bounded again until it runs.
    if (!this.#rebound && (rank & 15) === 0) {
      const ran = this.running;
      reboundHeap();
      this.#rebound = ran;
    }
    if (rank + 2 * RING > this.#handed) this.#hand(rank + 3 * RING);
    const s = rank % RING;
    if (Atomics.load(this.#tag, s) !== rank + 1) return undefined;
    const has = this.#has[s]!;
    return {
      at: this.#ms[s]!,
      file: has & 1 ? this.#file(s) : undefined,
      folders: has & 2 ? this.#stamp(s) : undefined,
    };
  }

  /**
   * Stop the thread (the listing is read): settled once it has ended and its memory is given back, so a long pass
   * goes on without it (the process waits for it meanwhile).
   */
  async stop(): Promise<void> {
    Atomics.store(this.#ctl, 2, 1);
    this.#worker.ref();
    await this.#worker.terminate().catch(() => {});
  }

  /**
   * Hand the ids of the ranks up to `end` over (the ring's oldest are the ranks the reader has passed); blank for
   * those left to the reader: archived, or a symlinked folder that leaves the store.
   */
  #hand(end: number): void {
    const refs = this.#refs;
    let k = this.#handed;
    for (const stop = Math.min(end, refs.length); k < stop; k++) {
      const r = refs[k]!;
      const at = (k % IDS) * ID;
      if (!r.archived && !r.escapes && r.id.length === ID) this.#ids.write(r.id, at, "latin1");
      else this.#ids.fill(32, at, at + ID);
    }
    this.#handed = k;
    Atomics.store(this.#ctl, 3, k);
  }

  #file(s: number): AheadFile {
    const v = this.#st;
    const stat = { ino: v[4 * s]!, mtimeMs: v[4 * s + 1]!, ctimeMs: v[4 * s + 2]!, size: v[4 * s + 3]!, isFile };
    const o = this.#off[s]!;
    return { stat, text: this.#text.toString("utf8", o, o + this.#len[s]!) };
  }

  /**
   * The folders' stamp in `folderStamp`'s text (pre_read_test compares the two), made here from the thread's numbers:
   * made by the thread with folderStamp's own code, the text cost it enough that the reader read more issues itself
   * (a cold list at 10,000: 488 vs 468 ms, 21 interleaved runs).
   */
  #stamp(s: number): AheadFolders {
    const F = this.#folders;
    let value = "";
    let mtimeNs = 0n;
    const absent: number[] = [];
    for (let f = 0; f < F; f++) {
      const ino = this.#ino[s * F + f]!;
      if (ino < 0) {
        value += "-;";
        absent.push(f);
        continue;
      }
      const m = this.#mt[s * F + f]!;
      value += `${ino}.${m};`;
      if (m > mtimeNs) mtimeNs = m;
    }
    const activity = this.#act[s * 20] === 0 ? "" : this.#act.toString("latin1", s * 20, s * 20 + 20);
    return { value, mtimeNs, absent, activity };
  }
}

/** A stat the thread took was of a regular file. */
function isFile(): boolean {
  return true;
}
