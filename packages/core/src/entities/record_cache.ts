/**
 * A list's record cache, kept as git keeps its index: an entity's JSON
 * record is reused while its owning file's lstat is unchanged, so a full
 * list stats 100,000 files instead of reading and parsing them.
 *
 * `.forge/.cache/<kind>.records`: a header line (format, the cached
 * fields, and a `context` digest of what records depend on besides their
 * own file: label and milestone definitions), then one line per entity,
 * newest first — the order's key `<createdAt> <id>`, descending, so a
 * newest-first walk of the order reads the file front to back, a chunk at
 * a time, with no map of every id — then the file's lstat (inode, mtime,
 * ctime, size) and the record's payload (the caller's text: no newline),
 * after a U+001F.
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
import { randomBytes } from "node:crypto";
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeFileSync, writeSync, type Stats } from "node:fs";
import { basename, join } from "node:path";
import { pidAlive } from "../store/lock.js";
import { cacheDir, type KindLayout, type Store } from "../store/store.js";

const MAGIC = "forge-records 1";
const SEP = "\x1f";
const KEY = 57; // "2026-01-02T03:04:05Z 0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11"
const CHUNK = 1 << 20;
const STILL_MS = 50;
const STILL_COARSE_MS = 2000;

/** Options of `openRecordCache`. */
export interface RecordCacheOptions {
  /** What the payload holds (the header names it: another layout is another cache). */
  layout: string;
  /** What every record depends on besides its own file (a digest or any text without spaces or newlines). */
  context: string;
  /** Whether this walk may rewrite the cache (it will visit every entity). */
  write: boolean;
  /** The walk's start (ms since the epoch; default now). */
  now?: number;
}

/** The line's identity: the lstat fields that change with every write. */
function statKey(st: Stats): string {
  return `${st.ino}:${st.mtimeMs}:${st.ctimeMs}:${st.size}`;
}

/**
 * Open the cache of a kind for one newest-first walk: `get` each live
 * entity in order, `put` the values of each one it missed, then `close`.
 */
export function openRecordCache(store: Store, kind: KindLayout, opts: RecordCacheOptions): RecordCache {
  return new RecordCache(join(cacheDir(store), `${kind.plural}.records`), `${MAGIC} ${opts.layout} ${opts.context}`, opts);
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
  readonly #racyBefore: number;
  // The old file, read forward a chunk at a time.
  #fd: number | undefined;
  #buf = Buffer.alloc(0);
  #len = 0;
  #pos = 0;
  #base = 0; // file offset of #buf[0]
  #eof = true;
  #bodyAt = 0;
  // The current old line, not yet consumed (#key undefined: none, or no more reading).
  #key: string | undefined;
  #stat = "";
  #payloadAt = 0;
  #payloadEnd = 0;
  #lineAt = 0;
  #lineEnd = 0;
  #lastLine: string | undefined;
  // The walk.
  #lastKey: string | undefined;
  #disorder = false;
  #pendingHit = false;
  readonly #hit: RecordHit = { buf: Buffer.alloc(0), start: 0, end: 0 };
  #missStat: Stats | undefined;
  // The new file, started at the first change.
  #changed = false;
  #keptEnd = 0; // end of the old lines kept before any change
  #tmp: string | undefined;
  #out: number | undefined;
  #outBuf = Buffer.alloc(0);
  #outLen = 0;

  constructor(path: string, header: string, opts: RecordCacheOptions) {
    this.#path = path;
    this.#header = header;
    this.#write = opts.write;
    this.#racyBefore = (opts.now ?? Date.now()) - STILL_MS;
    try {
      this.#fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      this.#buf = Buffer.allocUnsafe(CHUNK);
      this.#eof = false;
      const nl = this.#fill();
      if (nl >= 0 && this.#buf.toString("utf8", 0, nl) === header) {
        this.#pos = this.#bodyAt = this.#keptEnd = nl + 1;
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
   */
  get(key: string, file: string): RecordHit | undefined {
    this.#missStat = undefined;
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
    let st: Stats | undefined;
    try {
      st = lstatSync(file, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (st === undefined || !st.isFile()) return undefined;
    this.#missStat = st;
    if (this.#key !== key) return undefined;
    if (this.#stat !== statKey(st)) {
      this.#consume(false);
      return undefined;
    }
    this.#missStat = undefined;
    // Kept as it is: the next line is loaded on the next call (the payload's bytes stay where they are until then).
    this.#pendingHit = true;
    this.#hit.buf = this.#buf;
    this.#hit.start = this.#payloadAt;
    this.#hit.end = this.#payloadEnd;
    return this.#hit;
  }

  /**
   * Keep the payload read for the entity `get` just missed: when its file
   * was still when stat'ed, and `ok` (no warnings that a hit would not repeat).
   * @param payload the record's text (no newline)
   */
  put(key: string, payload: string, ok = true): void {
    const st = this.#missStat;
    this.#missStat = undefined;
    if (!ok || st === undefined || this.#disorder || key.length !== KEY || payload.includes("\n")) return;
    const still = st.mtimeMs % 1000 === 0 ? this.#racyBefore + STILL_MS - STILL_COARSE_MS : this.#racyBefore;
    if (!(st.mtimeMs < still && st.ctimeMs < still)) return;
    this.#change();
    this.#appendText(`${key} ${statKey(st)}${SEP}${payload}\n`);
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
          this.#flush();
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

  /** Read more of the old file; the offset of the next newline from #pos, or -1 at its end. */
  #fill(): number {
    for (;;) {
      const nl = this.#buf.indexOf(10, this.#pos);
      if (nl >= 0 && nl < this.#len) return nl;
      if (this.#eof) return -1;
      const rest = this.#len - this.#pos;
      const buf = rest * 2 > this.#buf.length ? Buffer.allocUnsafe(this.#buf.length * 2) : this.#buf;
      this.#buf.copy(buf, 0, this.#pos, this.#len);
      this.#buf = buf;
      this.#base += this.#pos;
      this.#len = rest;
      this.#pos = 0;
      const n = readSync(this.#fd!, this.#buf, this.#len, this.#buf.length - this.#len, this.#base + this.#len);
      if (n === 0) this.#eof = true;
      this.#len += n;
    }
  }

  /** Load the next old line; a malformed or out-of-order line ends the old file (and is a change). */
  #next(): void {
    this.#key = undefined;
    let nl = -1;
    try {
      nl = this.#fill();
    } catch {
      // unreadable from here: the end
    }
    if (nl < 0) return;
    const at = this.#pos;
    const sep = this.#buf.indexOf(0x1f, at);
    const key = nl - at > KEY + 1 && this.#buf[at + KEY] === 0x20 && sep > at + KEY && sep < nl ? this.#buf.toString("latin1", at, at + KEY) : undefined;
    if (key === undefined || (this.#lastLine !== undefined && key >= this.#lastLine)) return this.#change();
    this.#key = this.#lastLine = key;
    this.#stat = this.#buf.toString("latin1", at + KEY + 1, sep);
    this.#payloadAt = sep + 1;
    this.#payloadEnd = nl;
    this.#lineAt = this.#base + at;
    this.#lineEnd = this.#base + nl + 1;
    this.#pos = nl + 1;
  }

  /** Move past the current old line: kept (a hit) or dropped. */
  #consume(kept: boolean): void {
    if (!kept) this.#change();
    else if (this.#out !== undefined) this.#appendBytes(this.#buf, this.#pos - (this.#lineEnd - this.#lineAt), this.#pos);
    else if (!this.#changed) this.#keptEnd = this.#lineEnd;
    this.#next();
  }

  /** Something differs from the old file: start the new one with the old lines kept so far (a walk that may write). */
  #change(): void {
    if (this.#changed) return;
    this.#changed = true;
    if (!this.#write) return;
    try {
      const dir = join(this.#path, "..");
      if (!existsSync(dir)) {
        mkdirSync(dir, { recursive: true });
        // The cache ignores itself, whether or not `forge init` wrote .gitignore.
        writeFileSync(join(dir, ".gitignore"), "*\n");
      }
      removeDeadTemps(this.#path);
      this.#tmp = `${this.#path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      this.#out = openSync(this.#tmp, "wx");
      this.#outBuf = Buffer.allocUnsafe(CHUNK);
      writeSync(this.#out, `${this.#header}\n`);
      const copy = Buffer.allocUnsafe(CHUNK);
      for (let at = this.#bodyAt; at < this.#keptEnd;) {
        const n = readSync(this.#fd!, copy, 0, Math.min(CHUNK, this.#keptEnd - at), at);
        if (n === 0) throw new Error("short read");
        writeSync(this.#out, copy, 0, n);
        at += n;
      }
    } catch {
      this.#discard();
    }
  }

  #appendText(line: string): void {
    if (this.#out === undefined) return;
    if (this.#outLen + line.length * 3 > this.#outBuf.length) this.#flush();
    if (line.length * 3 > this.#outBuf.length) this.#outBuf = Buffer.allocUnsafe(line.length * 3);
    this.#outLen += this.#outBuf.write(line, this.#outLen, "utf8");
  }

  #appendBytes(b: Buffer, from: number, to: number): void {
    if (this.#out === undefined) return;
    if (this.#outLen + (to - from) > this.#outBuf.length) this.#flush();
    if (to - from > this.#outBuf.length) this.#outBuf = Buffer.allocUnsafe(to - from);
    this.#outLen += b.copy(this.#outBuf, this.#outLen, from, to);
  }

  #flush(): void {
    if (this.#out === undefined || this.#outLen === 0) return;
    try {
      for (let at = 0; at < this.#outLen;) at += writeSync(this.#out, this.#outBuf, at, this.#outLen - at);
    } catch {
      this.#discard();
    }
    this.#outLen = 0;
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
    try {
      if (this.#tmp !== undefined) rmSync(this.#tmp, { force: true });
    } catch {
      // ENOTDIR: .cache is not a folder
    }
    this.#tmp = undefined;
  }
}

/**
 * Remove this cache's temp files left by processes that are gone (a list
 * killed while rewriting it): a cache's temp file is as big as the cache.
 * Only `<name>.<pid>.<hex>.tmp` of a pid that is not alive; never anything else.
 */
function removeDeadTemps(path: string): void {
  const dir = join(path, "..");
  const name = basename(path);
  for (const n of readdirSync(dir)) {
    const m = n.startsWith(`${name}.`) ? /^\.([1-9][0-9]{0,9})\.[0-9a-f]{8}\.tmp$/.exec(n.slice(name.length)) : null;
    if (m && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]))) rmSync(join(dir, n), { force: true });
  }
}
