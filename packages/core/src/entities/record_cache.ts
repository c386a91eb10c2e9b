/**
 * A list's record cache, kept as git keeps its index: an entity's JSON
 * record is reused while its owning file's lstat is unchanged, so a full
 * list stats 100,000 files instead of reading and parsing them.
 *
 * `.forge/.cache/<kind>.records` (list's; `<kind>.observed`: forge-observe's): a header line (format, the cached
 * fields, and a `context`: what records depend on besides their
 * own file: label and milestone definitions), then one line per entity,
 * newest first — the order's key `<createdAt> <id>`, descending, so a
 * newest-first walk of the order reads the file front to back, a chunk at
 * a time, with no map of every id — then the file's lstat (inode, mtime,
 * ctime, size) and the record's payload (the caller's text: no newline),
 * after a U+001F. Lines come in blocks (the first of about 4 KiB, each next
 * twice as big up to 64 KiB: `list | head -1` checks a few records' bytes,
 * not 64 KiB), each closed by a
 * line `U+001E <crc32 of the block's bytes, 8 hex>`: a block is checked
 * before any of its lines is trusted, so a torn or edited cache is never
 * printed (a bad block ends what the cache is trusted for).
 *
 * A line is trusted only when the file's lstat still matches it: every
 * write of the store renames a new inode into place, and an edit in place
 * moves mtime, ctime or size. The stat is taken before the file is read,
 * so a cached record is never older than its stat. Racy clean, as git
 * says: a file changed within 50 ms (2 s on a filesystem with
 * whole-second mtimes) of the walk is not cached. A foreign cache cannot
 * vouch for this clone's files: their inodes and ctimes are this
 * checkout's. Deleting the cache changes no answer.
 *
 * The cache is rewritten only by a walk that saw every entity and found
 * something changed; the lines before the first change are copied as
 * bytes. A cache that cannot be read or written only costs time.
 */
import { closeSync, constants, openSync, readSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { cacheTemp, dropCacheTemp, writeAll } from "../store/cache_file.js";
import { crc32 } from "../store/crc32.js";
import { isFileMode, raw, rawStat } from "../store/raw_stat.js";
import {
  fileKey,
  fileKeyEnd,
  fileStamp,
  fileStill,
  folderStamp,
  isStill,
  type FolderStamp,
  type StampedStat,
} from "../store/stamp.js";
import { cacheDir, type KindLayout, type Store } from "../store/store.js";
import type { Ahead, AheadFolders } from "./pre_read.js";

const MAGIC = "forge-records 2";
const SEP = "\x1f";
const KEY = 57; // "2026-01-02T03:04:05Z 0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11"
const CHUNK = 1 << 20;
const BLOCK = 1 << 16;
const FIRST_BLOCK = 1 << 12;
const TRAILER = 10; // "\x1e" + 8 hex + "\n", after the block's last newline

/** Options of `openRecordCache`. */
export interface RecordCacheOptions {
  /** What the payload holds (the header names it: another layout is another cache). */
  layout: string;
  /** What every record depends on besides its own file (any text without spaces or newlines). */
  context: string;
  /** Whether this walk may rewrite the cache (it will visit every entity). */
  write: boolean;
  /** The walk's start (ms since the epoch; default now). */
  now?: number;
  /** The file's name after `<kind>.` (default `records`: list's; another reader keeps its own). */
  name?: string;
}

/**
 * A `context` for openRecordCache: what records depend on, as it is (its
 * JSON, base64url: one header word), compared, not hashed: no collision,
 * and no hash to set up at start-up.
 */
export function recordContext(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/**
 * Open the cache of a kind for one newest-first walk: `get` each live
 * entity in order, `put` the values of each one it missed, then `close`.
 */
export function openRecordCache(store: Store, kind: KindLayout, opts: RecordCacheOptions): RecordCache {
  return new RecordCache(recordCacheFile(store, kind, opts.name), `${MAGIC} ${opts.layout} ${opts.context}`, opts);
}

/** The cache file of a kind: `.forge/.cache/<kind>.records`, or `.<name>` (forge-observe's: `observed`). */
export function recordCacheFile(store: Store, kind: KindLayout, name = "records"): string {
  return join(cacheDir(store), `${kind.plural}.${name}`);
}

/**
 * What a caller already knows of an entity's file, read before the walk
 * (a cold list's order pass): `fileKey` of the lstat taken before the read,
 * and `fileStamp` of it (null: too recent to vouch for the bytes read).
 */
export interface KnownFile {
  key: string;
  stamp: string | null;
  /** Those of `knownFile`'s folders its stamp found missing (the caller need not list them: see `knownFile`). */
  absent?: readonly string[];
}

/**
 * What a caller that reads a file itself (before the walk) knows of it, as
 * `get` and `put` stamp a line: `st` taken before the read, `dirs`' stamps
 * taken before they are read; it vouches only when all were still at `now`.
 * @param ahead what another thread found (`PreRead`): its stamp of `dirs`, when it took one, is used, not taken now
 */
export function knownFile(st: StampedStat, now: number, dirs: readonly string[], ahead?: Ahead): KnownFile {
  const f = ahead?.folders;
  const ds = f ? aheadStamp(f, dirs) : dirs.length > 0 ? folderStamp(dirs) : undefined;
  const key = lineStamp(fileKey(st), ds);
  // The folders judged still as of when they were stamped: by another thread (`ahead`), at its own time.
  const at = f ? ahead!.at : now;
  const still = fileStill(st, now) && (!ds || isStill(ds, BigInt(at) * 1_000_000n));
  // A folder missing when stamped is one a record made now need not list: made without it, the line says it was
  // missing, and a folder made since moves the stamp.
  return { key, stamp: still ? key : null, absent: ds?.absent };
}

/** The stamp of `dirs` another thread took (`PreRead`), as `folderStamp` gives it. */
function aheadStamp(f: AheadFolders, dirs: readonly string[]): FolderStamp {
  const absent = f.absent.length > 0 ? f.absent.map((i) => dirs[i]!) : undefined;
  return { value: f.value, mtimeNs: f.mtimeNs, absent };
}

/** A line's stamp: the file's, and the folders' when the record depends on some. */
function lineStamp(file: string, ds: FolderStamp | undefined): string {
  return ds ? `${file}+${ds.value}` : file;
}

/** Where a hit's payload is: bytes `[start, end)` of `buf`. */
export interface RecordHit {
  buf: Buffer;
  start: number;
  end: number;
}

/** One walk over the record cache (see the module comment). */
export class RecordCache {
  readonly #path: string;
  readonly #header: string;
  readonly #write: boolean;
  readonly #now: number;
  // The old file, read forward a chunk at a time.
  #fd: number | undefined;
  #buf = Buffer.alloc(0);
  #len = 0;
  #pos = 0;
  #base = 0; // file offset of #buf[0]
  #eof = true;
  #bodyAt = 0;
  // The block being read: its start (file offset), where its lines end in #buf, and where the next one starts.
  #blockAt = 0;
  #blockEnd = 0;
  #blockNext = 0;
  // The current old line, not yet consumed (#key undefined: none, or no more reading).
  #key: string | undefined;
  #stat = "";
  #payloadAt = 0;
  #payloadEnd = 0;
  #lineStart = 0; // in #buf
  #lineEnd = 0; // file offset
  #lastLine: string | undefined;
  // The walk.
  #lastKey: string | undefined;
  #disorder = false;
  #pendingHit = false;
  readonly #hit: RecordHit = { buf: Buffer.alloc(0), start: 0, end: 0 };
  #missStat: StampedStat | undefined;
  #hitStat: StampedStat | undefined;
  // A stat the caller took (`get`'s `known`), copied: its object is reused, this one until the next `get`.
  readonly #ahead: StampedStat = { ino: 0, mtimeMs: 0, ctimeMs: 0, size: 0 };
  // The stamp `put` keeps when the caller told it the file (`get`'s `known`): undefined when it did not.
  #missKnown: string | null | undefined;
  #hitKnown: string | null | undefined;
  #missDirs: FolderStamp | undefined;
  #hitDirs: FolderStamp | undefined;
  // The new file, started at the first change.
  #changed = false;
  #keptEnd = 0; // end of the old lines kept before any change
  #tmp: string | undefined;
  #out: number | undefined;
  #outBuf = Buffer.alloc(0);
  #outLen = 0;
  #blockSize = FIRST_BLOCK; // where the block being written ends
  // How much the next read asks for (`#more`).
  #want = BLOCK;

  constructor(path: string, header: string, opts: RecordCacheOptions) {
    this.#path = path;
    this.#header = header;
    this.#write = opts.write;
    this.#now = opts.now ?? Date.now();
    try {
      this.#fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      this.#buf = Buffer.allocUnsafe(CHUNK);
      this.#eof = false;
      const nl = this.#fill();
      if (nl >= 0 && this.#buf.toString("utf8", 0, nl) === header) {
        this.#pos = this.#bodyAt = this.#keptEnd = this.#blockAt = this.#blockEnd = this.#blockNext = nl + 1;
        this.#next();
      }
    } catch {
      this.#key = undefined;
    }
  }

  /**
   * The cached payload of the entity at `key` — UTF-8 bytes
   * `[hit.start, hit.end)` of `hit.buf`, an object reused and valid until
   * the next call — or undefined when the cache has none its file's lstat
   * still vouches for.
   * @param key `<createdAt> <id>` as the order has it; keys come in descending order
   * @param file the owning file
   * @param known its lstat as the caller took it before reading it (none is taken here): its stamps (`KnownFile`),
   *   or the stat itself, taken after this walk's `now` (another thread's: `PreStat`)
   * @param dirs folders the record also depends on (an entity's record folders: `activityDirs`); their
   *   stamps join the file's on its line, so a record added to one (or pulled into it) is a miss. `false`: the
   *   caller reads only what the owning file says (a reader, not the writer, of lines made with folders)
   */
  get(
    key: string,
    file: string,
    known?: KnownFile | StampedStat,
    dirs?: readonly string[] | false
  ): RecordHit | undefined {
    this.#missStat = undefined;
    this.#missKnown = undefined;
    this.#missDirs = undefined;
    if (this.#pendingHit) {
      this.#pendingHit = false;
      this.#consume(true);
    }
    if (this.#lastKey !== undefined && key >= this.#lastKey) {
      // Not the order the cache is kept in: no more hits, and nothing written.
      this.#disorder = true;
      this.#key = undefined;
    }
    this.#lastKey = key;
    // Nothing cached from here on, and nothing to keep: no lstat.
    if (this.#disorder || (this.#key === undefined && !this.#write)) return undefined;
    // Lines of entities that are gone (or archived) are dropped.
    while (this.#key !== undefined && this.#key > key) this.#consume(false);
    let st: StampedStat | undefined;
    let stamps: KnownFile | undefined;
    if (known && "ino" in known) {
      // Field by field: Object.assign allocated ~60 bytes a call (5.6 MiB of `-l bug`'s garbage at 100,000 issues).
      const a = this.#ahead;
      a.ino = known.ino;
      a.mtimeMs = known.mtimeMs;
      a.ctimeMs = known.ctimeMs;
      a.size = known.size;
      st = this.#missStat = a;
    } else if (known) this.#missKnown = (stamps = known).stamp;
    else {
      const own = rawStat();
      try {
        if (!raw.lstat(file, own) || !isFileMode(own.mode)) return undefined;
      } catch {
        return undefined;
      }
      st = this.#missStat = own;
    }
    const ds = dirs && dirs.length > 0 ? folderStamp(dirs) : undefined;
    this.#missDirs = ds;
    if (this.#key !== key) return undefined;
    let same: boolean;
    if (st) {
      // The line's file part is `fileKey(st)`, compared as numbers (making the text costs ~1 µs a file); then its
      // folders' part.
      const e = fileKeyEnd(this.#stat, st);
      same =
        e >= 0 &&
        (dirs === false ||
          (ds
            ? this.#stat.length === e + 1 + ds.value.length && this.#stat.startsWith(ds.value, e + 1)
            : e === this.#stat.length));
    } else {
      const fk = stamps!.key;
      same =
        dirs === false
          ? this.#stat.startsWith(fk) && (this.#stat.length === fk.length || this.#stat[fk.length] === "+")
          : this.#stat === lineStamp(fk, ds);
    }
    if (!same) {
      this.#consume(false);
      return undefined;
    }
    this.#missStat = undefined;
    this.#hitStat = st;
    this.#hitKnown = this.#missKnown;
    this.#missKnown = undefined;
    this.#hitDirs = ds;
    this.#missDirs = undefined;
    // Kept as it is: the next line is loaded on the next call (the payload's bytes stay where they are until then).
    this.#pendingHit = true;
    this.#hit.buf = this.#buf;
    this.#hit.start = this.#payloadAt;
    this.#hit.end = this.#payloadEnd;
    return this.#hit;
  }

  /** Where the payload of the hit `get` just gave starts in the cache file (a byte offset). */
  get hitOffset(): number {
    return this.#base + this.#payloadAt;
  }

  /**
   * The record folders' stamp on the line of the hit `get` just gave (with `dirs` false: unchecked), "" when
   * the line has none: a caller that vouches for the record itself later checks it against `folderStamp(dirs).value`.
   */
  get hitFolders(): string {
    const plus = this.#stat.indexOf("+");
    return plus < 0 ? "" : this.#stat.slice(plus + 1);
  }

  /**
   * After a miss of `get` with `dirs` false: stamp the record folders now, before the caller reads them, so the
   * line `put` keeps carries their stamps as a `get` with `dirs` would have.
   */
  stampFolders(dirs: readonly string[]): void {
    if (this.#missStat !== undefined || this.#missKnown !== undefined)
      this.#missDirs = dirs.length > 0 ? folderStamp(dirs) : undefined;
  }

  /**
   * The hit `get` just gave is of no use to the reader (a payload it does
   * not keep, or no longer keeps for this entity): its line is dropped, and
   * `put` may keep what the reader makes from the file instead, as after a miss.
   */
  refuse(): void {
    if (!this.#pendingHit) return;
    this.#pendingHit = false;
    this.#missStat = this.#hitStat;
    this.#missKnown = this.#hitKnown;
    this.#missDirs = this.#hitDirs;
    this.#consume(false);
  }

  /**
   * Keep the payload read for the entity `get` just missed (or refused): when its file
   * was still when stat'ed, and `ok` (no warnings that a hit would not repeat).
   * @param payload the record's text (no newline)
   */
  put(key: string, payload: string, ok = true): void {
    const stamp = this.#putStamp(ok, key);
    if (stamp === undefined || payload.includes("\n")) return;
    this.#change();
    this.#appendText(`${key} ${stamp}${SEP}${payload}\n`);
  }

  /** `put` of a payload's UTF-8 bytes, `b[start, end)`. */
  putBytes(key: string, b: Buffer, start: number, end: number, ok = true): void {
    const stamp = this.#putStamp(ok, key);
    if (stamp === undefined || b.subarray(start, end).includes(10)) return;
    this.#change();
    if (this.#out === undefined) return;
    // One line, whole: a block ends only after a newline.
    const head = `${key} ${stamp}${SEP}`;
    this.#room(head.length * 3 + end - start + 1);
    this.#outLen += this.#outBuf.write(head, this.#outLen, "utf8");
    this.#outLen += b.copy(this.#outBuf, this.#outLen, start, end);
    this.#outBuf[this.#outLen++] = 10;
    if (this.#outLen >= this.#blockSize) this.#endBlock();
  }

  /** The stamp a `put` of the entity `get` just missed keeps, or undefined when it keeps nothing. */
  #putStamp(ok: boolean, key: string): string | undefined {
    const st = this.#missStat;
    const known = this.#missKnown;
    const ds = this.#missDirs;
    this.#missStat = undefined;
    this.#missKnown = undefined;
    this.#missDirs = undefined;
    if (!ok || this.#disorder || key.length !== KEY) return undefined;
    const stamp = known !== undefined ? known : st !== undefined ? fileStamp(st, this.#now) : null;
    if (stamp === null) return undefined;
    if (!ds) return stamp;
    // The folders vouch only once still (racy clean), and only when each could be stat'ed.
    return isStill(ds, BigInt(this.#now) * 1_000_000n) ? lineStamp(stamp, ds) : undefined;
  }

  /**
   * End the walk: a complete walk (in order) that changed something
   * replaces the cache atomically; anything else leaves it as it was.
   * @param complete the walk visited every entity
   */
  close(complete: boolean): void {
    if (this.#pendingHit) {
      this.#pendingHit = false;
      this.#consume(true);
    }
    try {
      if (complete && !this.#disorder) {
        if (this.#key !== undefined) this.#change(); // lines of entities older than any there is: dropped
        if (this.#out !== undefined) {
          this.#endBlock();
          const out = this.#out;
          this.#out = undefined;
          closeSync(out);
          renameSync(this.#tmp!, this.#path);
          this.#tmp = undefined;
        }
      }
    } catch {
      // A cache that cannot be written only costs time.
    } finally {
      this.#discard();
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#fd = undefined;
      this.#key = undefined;
    }
  }

  /**
   * Read more of the old file (keeping #buf[#pos - 1..]: a block's search starts at the newline before it); false at
   * its end.
   */
  #more(): boolean {
    if (this.#eof) return false;
    const from = Math.max(0, this.#pos - 1);
    const rest = this.#len - from;
    const buf = rest * 2 > this.#buf.length ? Buffer.allocUnsafe(this.#buf.length * 2) : this.#buf;
    this.#buf.copy(buf, 0, from, this.#len);
    this.#buf = buf;
    this.#base += from;
    this.#blockEnd -= from;
    this.#blockNext -= from;
    this.#len = rest;
    this.#pos -= from;
    // A block first, then twice as much each time: `list | head -1` faults in 64 KiB of the buffer, not 1 MiB.
    const n = readSync(
      this.#fd!,
      this.#buf,
      this.#len,
      Math.min(this.#buf.length - this.#len, this.#want),
      this.#base + this.#len
    );
    this.#want *= 2;
    if (n === 0) this.#eof = true;
    this.#len += n;
    return n > 0;
  }

  /** The offset of the next newline from #pos (the header's), or -1 at the file's end. */
  #fill(): number {
    for (;;) {
      // Only the bytes read: a search past #len would touch (and fault in) every page of a fresh buffer.
      const nl = this.#buf.subarray(0, this.#len).indexOf(10, this.#pos);
      if (nl >= 0) return nl;
      if (!this.#more()) return -1;
    }
  }

  /** Load the block at #pos whole and check it; false at the end, or when it is torn or does not match its checksum. */
  #loadBlock(): boolean {
    for (;;) {
      // The trailer: a line starting U+001E (the byte before #pos is a newline: the header's, or the last trailer's).
      const t = this.#pos > 0 ? this.#trailerAt() : -1;
      if (t >= 0 && t + TRAILER < this.#len) {
        const end = t + 1;
        const sum = this.#buf.toString("latin1", end + 1, end + 9);
        if (
          this.#buf[end + 9] !== 10 ||
          end === this.#pos ||
          crc32(this.#buf.subarray(this.#pos, end)).toString(16).padStart(8, "0") !== sum
        )
          return false;
        this.#blockAt = this.#base + this.#pos;
        this.#blockEnd = end;
        this.#blockNext = end + TRAILER;
        return true;
      }
      if (!this.#more()) return false;
    }
  }

  /**
   * Where the next trailer's line starts after #pos (the newline before its U+001E), or -1 in the bytes read. A
   * payload never holds a newline, but may a U+001E: one is a trailer only after a newline. Searched for one byte,
   * not two: 10 of `-l bug`'s 476 ms at 100,000 issues.
   */
  #trailerAt(): number {
    const read = this.#buf.subarray(0, this.#len);
    for (let x = read.indexOf(0x1e, this.#pos); x >= 0; x = read.indexOf(0x1e, x + 1))
      if (read[x - 1] === 10) return x - 1;
    return -1;
  }

  /** Load the next old line; a malformed, out-of-order or unchecked line ends the old file (and is a change). */
  #next(): void {
    this.#key = undefined;
    if (this.#fd === undefined) return;
    try {
      if (this.#pos >= this.#blockEnd) {
        this.#pos = this.#blockNext;
        this.#blockAt = this.#base + this.#pos; // every block before this one was read whole
        if (this.#pos >= this.#len && !this.#more()) return; // the end, after a whole block
        if (!this.#loadBlock()) return this.#change();
      }
    } catch {
      return this.#change(); // unreadable from here: the end
    }
    // Searched in the bytes: a block is never copied into a string (8 MB of them per walk at 10k issues).
    const b = this.#buf;
    const at = this.#pos;
    const nl = b.indexOf(10, at);
    if (nl < 0 || nl >= this.#blockEnd) return this.#change();
    const sep = b.indexOf(0x1f, at);
    const key =
      nl - at > KEY + 1 && b[at + KEY] === 0x20 && sep > at + KEY && sep < nl
        ? b.toString("latin1", at, at + KEY)
        : undefined;
    if (key === undefined || (this.#lastLine !== undefined && key >= this.#lastLine)) return this.#change();
    this.#key = this.#lastLine = key;
    this.#stat = b.toString("latin1", at + KEY + 1, sep);
    this.#payloadAt = sep + 1;
    this.#payloadEnd = nl;
    this.#lineStart = at;
    this.#lineEnd = this.#base + nl + 1;
    this.#pos = nl + 1;
  }

  /** Move past the current old line: kept (a hit) or dropped. */
  #consume(kept: boolean): void {
    if (!kept) this.#change();
    else if (this.#out !== undefined) this.#appendBytes(this.#buf, this.#lineStart, this.#pos);
    else if (!this.#changed) this.#keptEnd = this.#lineEnd;
    this.#next();
  }

  /** Something differs from the old file: start the new one with the old lines kept so far (a walk that may write). */
  #change(): void {
    if (this.#changed) return;
    this.#changed = true;
    if (!this.#write) return;
    try {
      this.#tmp = cacheTemp(this.#path);
      this.#out = openSync(this.#tmp, "wx");
      this.#outBuf = Buffer.allocUnsafe(CHUNK);
      writeSync(this.#out, `${this.#header}\n`);
      // The blocks before the current one were kept whole: copied as they are, checksums and all.
      const copy = Buffer.allocUnsafe(CHUNK);
      for (let at = this.#bodyAt; at < this.#blockAt;) {
        const n = readSync(this.#fd!, copy, 0, Math.min(CHUNK, this.#blockAt - at), at);
        if (n === 0) throw new Error("short read");
        writeAll(this.#out, copy, n);
        at += n;
      }
      // The current block's lines kept so far are in the read buffer: they open the new file's next block.
      if (this.#keptEnd > this.#blockAt)
        this.#appendBytes(this.#buf, this.#blockAt - this.#base, this.#keptEnd - this.#base);
    } catch {
      this.#discard();
    }
  }

  /** Room for `n` more bytes and a trailer in the block being written (ending it first when it is full). */
  #room(n: number): void {
    if (this.#outLen + n + TRAILER > this.#outBuf.length) this.#endBlock();
    if (n + TRAILER > this.#outBuf.length) this.#outBuf = Buffer.allocUnsafe(n + TRAILER);
  }

  #appendText(line: string): void {
    if (this.#out === undefined) return;
    this.#room(line.length * 3);
    this.#outLen += this.#outBuf.write(line, this.#outLen, "utf8");
    if (this.#outLen >= this.#blockSize) this.#endBlock();
  }

  #appendBytes(b: Buffer, from: number, to: number): void {
    if (this.#out === undefined) return;
    this.#room(to - from);
    this.#outLen += b.copy(this.#outBuf, this.#outLen, from, to);
    if (this.#outLen >= this.#blockSize) this.#endBlock();
  }

  /** Close the block being written with its checksum line, and write it. */
  #endBlock(): void {
    if (this.#out === undefined || this.#outLen === 0) return;
    const sum = crc32(this.#outBuf.subarray(0, this.#outLen)).toString(16).padStart(8, "0");
    this.#outLen += this.#outBuf.write(`\x1e${sum}\n`, this.#outLen, "latin1");
    try {
      writeAll(this.#out, this.#outBuf, this.#outLen);
    } catch {
      this.#discard();
    }
    this.#outLen = 0;
    this.#blockSize = Math.min(BLOCK, this.#blockSize * 2);
  }

  /** Give up the new file (the old one stays). */
  #discard(): void {
    if (this.#out !== undefined) {
      try {
        closeSync(this.#out);
      } catch {
        // closed already
      }
    }
    this.#out = undefined;
    this.#outLen = 0;
    dropCacheTemp(this.#tmp);
    this.#tmp = undefined;
  }
}
