/**
 * Derived numbering: an entity's number is its rank in the total order
 * `(createdAt, id)` over its kind, archived included, so every copy of the
 * store computes the same numbers.
 *
 * Ranking needs every `createdAt`, so a rebuildable cache keeps them:
 * `.forge/.cache/<kind>.order`, a stamp line and then one fixed-width line
 * per entity, sorted (`<createdAt> <L|A> <id>`). Fixed width makes "the n-th
 * entity" one slice, with no parse of the whole file.
 *
 * The header holds two checks. The stamp is the kind folders' inode and
 * mtime (ns), taken *before* they were listed. When both still match,
 * nothing was added, moved or removed since, and the cache is trusted
 * without listing 10,000 folders. A stamp is recorded only once the folders
 * have been still for 50 ms (2 s on a filesystem with whole-second mtimes)
 * — git's "racy clean" rule: a change in the same clock tick as the listing
 * would not move the mtime. The digest is a set hash of the folders' names
 * (per folder, the count and two 32-bit sums of a hash of each name),
 * exactly the names the cached lines were built from: when a plain
 * `readdir` (no file types, no sort) gives the same digest, the cache is
 * trusted too. Being a sum, a create adds its own new name to it without
 * listing (`recordCreated`), so back-to-back creates never walk every
 * entry, and the first reader after them takes the same cheap check; a
 * change by anyone else makes the digest differ and is found. The header
 * also counts the lines after it: a cache torn (or grown) by whole lines
 * is trusted by neither check (one torn mid-line is not whole lines).
 * Otherwise the folders are listed, the cache supplies the createdAt of
 * every id it knows (createdAt never changes), and only new files are
 * read. Deleting the cache changes no answer.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeSync,
} from "node:fs";
import { join, sep } from "node:path";
import { eachFolderName, listEntityRefs, type EntityRef } from "../store/entities_dir.js";
import { parseFrontmatter, parseFrontmatterFast, type Frontmatter } from "../frontmatter/parse.js";
import { readStoreFile, readStoreFileStat } from "../store/read_file.js";
import { folderStamp, isStill, type FolderStamp } from "../store/stamp.js";
import { cacheTemp, dropCacheTemp, writeAll, writeCacheFile } from "../store/cache_file.js";
import { boundHeap, HELD_YOUNG } from "../store/heap_bound.js";
import { holdsKindLock } from "../store/lock.js";
import { ForgeError, InvalidFileError } from "../errors.js";
import { archiveDir, cacheDir, displayPath, entityFile, kindDir, type KindLayout, type Store } from "../store/store.js";
import { isTimestamp } from "../time.js";
import { loadEntity, type LoadedEntity } from "./load.js";
import { PREREAD_AT, PreRead, type Ahead, type ReadStat } from "./pre_read.js";
import type { EntitySchema } from "./schema.js";

/** One entity's place in the order. */
export interface OrderEntry {
  readonly ref: EntityRef;
  readonly createdAt: string;
}

/** An entity left out of the order because its createdAt could not be read. */
export interface Unranked {
  readonly ref: EntityRef;
  readonly error: Error;
}

/** The ranked entities of a kind: number = index + 1. */
export interface Order {
  /** How many are ranked. */
  readonly length: number;
  /** The entity at a 0-based index (negative counts from the end), or undefined. */
  at(i: number): OrderEntry | undefined;
  /** Where an entity with this createdAt and id would rank (0-based), by binary search. */
  rankOf(createdAt: string, id: string): number;
  /** Every entry, oldest first (materialised on first use). */
  readonly entries: OrderEntry[];
  /** One per entity whose createdAt could not be read: the entity and why. */
  readonly errors: Unranked[];
}

/** Options of `entityOrder`. */
export interface OrderOptions {
  /**
   * Told of each file the order reads for its createdAt (an entity the
   * cache lacks), with its frontmatter as parsed and its stat taken on the
   * open file before the read: a cold list makes its records from these instead of opening
   * every file again. Its errors are ignored (the caller reads the file itself). With no cache at all, a long
   * listing is read ahead by another thread (`PreRead`): `ahead` is what it found of the entity.
   */
  onRead?: (
    ref: EntityRef,
    fm: Frontmatter,
    st: ReadStat,
    before: number,
    text: string,
    ahead?: Ahead
  ) => void | Promise<void>;
}

/** A kind folder this big (its own size, in bytes) is listed with the heap bounded (heap_bound.ts)… */
const BIG_FOLDER = 1 << 20;
/** …as is one with this many names, where a folder's size is not its entries' bytes (ZFS gives their count). */
const BIG_NAMES = 16_384;
const LINE = 60; // "2026-01-02T03:04:05Z 0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11 L\n"
const MAGIC = "forge-order 3 ";
/**
 * Rank every entity of a kind, from the cache when its stamp still holds,
 * else by listing the folders and reading only files the cache lacks.
 * @param store the store
 * @param kind the layout
 * @param schema used to read files missing from the cache
 */
export async function entityOrder(
  store: Store,
  kind: KindLayout,
  schema: EntitySchema,
  opts: OrderOptions = {}
): Promise<Order> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const stamp = kindStamp(store, kind);
  const path = cachePath(store, kind);
  // The header first: when the stamp vouches for the cache, its lines are read a block at a time as they are
  // asked for (view and create at 100,000 issues read a few KiB of the 6 MB, not all of it).
  const vouched = <O extends CacheOrder>(o: O): O => {
    o.links = stamp.links;
    return o;
  };
  const windowed = stamp.value !== "" ? WindowOrder.open(path, stamp.value, holdsKindLock(store, kind)) : undefined;
  if (windowed) return vouched(windowed);
  let text = "";
  try {
    text = readFileSync(path, "latin1");
  } catch {
    // no cache yet
  }
  const head = header(text);
  const stampable = isStill(stamp, now);
  if (head && head.digest !== "-") {
    // The cheap check: the same names as the cache was built from.
    const digest = folderDigest(store, kind);
    if (digest === head.digest) {
      if (stampable)
        writeCacheFile(
          path,
          `${MAGIC}${stamp.value} ${digest} ${count(head.lines)}\n${text.slice(head.body)}`,
          "latin1"
        );
      return vouched(new CacheOrder(text, head.body, [], digest));
    }
  }
  // List the folders. Cached lines of ids still there are kept as they are
  // (createdAt never changes; the live/archived flag is refreshed); only new
  // ids are read from their files.
  const seen = newSum();
  // No cache and a big folder (`bigListing`): every file is to be read, a long pass. Its heap is bounded, its young
  // generation at 2 MiB (heap_bound.ts), checked as the names come (they first grow it) and then as the files are read.
  const cold = !text.startsWith(MAGIC);
  const bytes = cold ? folderBytes(kindDir(store, kind)) : 0;
  let big = bigListing(bytes, 0);
  let bounded = !cold;
  let names = 0;
  const refs = listEntityRefs(store, kind, (name, archived) => {
    addName(seen, name, archived);
    if (bounded || (++names & 255) !== 0) return;
    big = bigListing(bytes, names);
    if (big) bounded = boundHeap(HELD_YOUNG);
  });
  // No cache: a long listing's files are read ahead by another thread, for a caller that makes records of them
  // (`PreRead`). (Started before the listing, its set-up slowed the listing as much as it gained: no faster.)
  const pre = cold && opts.onRead && refs.length >= PREREAD_AT.refs ? PreRead.start(store, kind) : undefined;
  pre?.list(refs);
  let reads = 0;
  // Without a cache every ref is new: no map of 100,000 of them.
  const listed = text.startsWith(MAGIC) ? new Map(refs.map((r) => [r.id, r])) : undefined;
  const kept: string[] = [];
  let sorted = true;
  if (listed) {
    for (let o = text.indexOf("\n") + 1; o + LINE <= text.length; o += LINE) {
      const l = text.slice(o, o + LINE);
      if (!wellFormed(l)) break;
      const ref = listed.get(l.slice(21, 57));
      if (!ref || ref.escapes) continue;
      listed.delete(ref.id);
      if (kept.length && l < kept[kept.length - 1]!) sorted = false;
      if (l.charCodeAt(58) === (ref.archived ? 65 : 76)) kept.push(l);
      else kept.push(lineOf({ ref, createdAt: l.slice(0, 20) }));
    }
  }
  const fresh: string[] = [];
  const errors: Unranked[] = [];
  try {
    let rank = 0;
    for (const ref of listed ? listed.values() : refs) {
      if (!bounded && big && (++reads & 255) === 0) bounded = boundHeap(HELD_YOUNG);
      const ahead = pre?.take(rank++);
      // Ranking needs the createdAt of a file whose id is its folder's, nothing else: a file invalid in another field
      // still ranks.
      const c = await (opts.onRead
        ? createdAtRead(store, kind, ref, opts.onRead, ahead)
        : createdAtOf(store, kind, ref));
      if (c !== undefined) fresh.push(flatLine({ ref, createdAt: c }));
      else errors.push({ ref, error: await loadError(store, kind, schema, ref) });
    }
  } finally {
    await pre?.stop();
  }
  // Fixed-width "<createdAt> <id> <flag>" lines sort as (createdAt, id).
  fresh.sort();
  if (!sorted) kept.sort();
  const lines = mergeSorted(kept, fresh);
  // Trust the listing later only if it was complete (the digest: these
  // names, these lines) and the folders were still (the stamp).
  const digest = errors.length === 0 ? digestText(seen) : "-";
  const top = `${MAGIC}${digest !== "-" && stampable ? stamp.value : "unstamped"} ${digest} ${count(lines.length)}\n`;
  if (sameText(text, top, lines)) return vouched(new CacheOrder(text, top.length, errors, digest));
  // Written a block at a time, never joined (at 100,000 entities a 6 MB string and its 6 MB of bytes), and read
  // back through the file as the caller walks it: the 100,000 strings go when this returns.
  const fd = writeLines(path, top, lines);
  return vouched(
    fd === undefined
      ? new CacheOrder(lines, 0, errors, digest)
      : new WindowOrder(fd, top.length, lines.length, digest, errors)
  );
}

/**
 * Whether a listing with no cache is a pass long enough to bound its heap
 * (heap_bound.ts): its kind folder's own size is over 1 MiB (~16,000
 * entries on ext4), or `names` entries have come so far (16,384): on a
 * filesystem whose folder size counts entries (ZFS), the size alone would
 * never tell.
 * @param bytes the kind folder's size (stat)
 */
export function bigListing(bytes: number, names: number): boolean {
  return bytes > BIG_FOLDER || names >= BIG_NAMES;
}

/**
 * Set the kind's order cache aside for a reader that found it wrong: a
 * ranked entity whose file is gone, or whose `createdAt` is not the one it
 * was ranked by (edited by hand, or by a checkout: the cache trusts both
 * from its folders' stamp, and a listing keeps each known id's line). The
 * next reader ranks every file again, as with no cache.
 */
export function dropOrder(store: Store, kind: KindLayout): void {
  writeCacheFile(cachePath(store, kind), "", "latin1");
}

/**
 * A ranked entity's file against the line it was ranked by, for a reader
 * that loaded it anyway: undefined when they agree; else, its `createdAt`
 * changed since, the order cache is dropped (`dropOrder`) and this is the
 * error to tell. (A ranked file that is gone drops it too: the caller's
 * load fails with NotFoundError.)
 * @param rankedBy the `createdAt` of its line in the order
 * @param number the number it was resolved by, if any (for the message)
 */
export function staleRank(
  store: Store,
  kind: KindLayout,
  e: LoadedEntity,
  rankedBy: string | undefined,
  number?: number
): ForgeError | undefined {
  if (e.data.createdAt === rankedBy) return undefined;
  dropOrder(store, kind);
  return new ForgeError(
    `${e.file}: createdAt is not the one ${number === undefined ? "it" : `#${number}`} was numbered by (changed ` +
      "since): numbers are made again; run the command again",
    "E_UNCERTAIN_NUMBERS",
    1
  );
}

/**
 * Tell the cache about an entity just created, after its folder is in
 * place: the order it was ranked in (read just before) plus the new line,
 * under the order's digest plus the new name. Anything else that changed
 * meanwhile makes the next reader's digest differ, so it is found; nothing
 * here can make a wrong answer trusted. Under the kind lock (every create
 * command) nothing is listed; without it, the names are listed now and the
 * cache is updated only if they are the order's plus the new one.
 * @param order what `entityOrder` gave just before the create
 */
export function recordCreated(store: Store, kind: KindLayout, order: Order, entry: OrderEntry): void {
  if (!(order instanceof CacheOrder) || order.errors.length) return;
  if (holdsKindLock(store, kind)) {
    // Under the kind lock, from an order just vouched for (stamp, digest or listing): the folders now hold those
    // entities plus
    // this one, so no listing is needed — the new line goes in, the digest gains the new name, and the stamp
    // of the folders as they are now is kept marked `r` (racy: a change by anything but a create in these few
    // ms would hide behind it). Only the next create trusts the stamp; any other reader checks the digest.
    const now = kindStamp(store, kind);
    if (now.value === "") return;
    // A folder someone else added (or moved) since the order was vouched for, even in the same mtime tick as this
    // one, would hide behind the stamp: where the link counts tell, the cache is left as it was (the next reader
    // lists).
    if (!addedAlone(order.links, now.links, entry.ref.archived)) return;
    const digest = order.digest === "-" ? "-" : withName(order.digest, entry.ref.archived, entry.ref.id);
    const head = `${MAGIC}r${now.value} ${digest} ${count(order.length + 1)}\n`;
    const rank = order.rankOf(entry.createdAt, entry.ref.id);
    // The usual case, the newest entity: the line is appended and the header, of the same length, rewritten
    // in place — no 6 MB rewrite at 100,000 entities. A reader that sees it half-way never trusts it
    // (the stamp is racy, or stale), and lists.
    if (
      rank === order.length &&
      order instanceof CacheOrder &&
      order.headerLength === head.length &&
      appendInPlace(cachePath(store, kind), head, lineOf(entry), order.headerLength + order.length * LINE)
    )
      return;
    const body = order.bodyText();
    writeCacheFile(
      cachePath(store, kind),
      `${head}${body.slice(0, rank * LINE)}${lineOf(entry)}${body.slice(rank * LINE)}`,
      "latin1"
    );
    return;
  }
  if (order.digest === "-") return;
  const digest = withName(order.digest, entry.ref.archived, entry.ref.id);
  // No lock: list the names now, and go on only if they are the names the lines were built from plus the new one.
  if (folderDigest(store, kind) !== digest) return;
  const body = order.bodyText();
  const at = order.rankOf(entry.createdAt, entry.ref.id) * LINE;
  writeCacheFile(
    cachePath(store, kind),
    `${MAGIC}unstamped ${digest} ${count(order.length + 1)}\n${body.slice(0, at)}${lineOf(entry)}${body.slice(at)}`,
    "latin1"
  );
}

/**
 * The createdAt of an entity, which is all ranking needs: read even from a
 * file invalid for another reason (a missing title, a bad label), so one
 * broken field does not shift every later number. `undefined` when the
 * file cannot be parsed, names another id, or has no timestamp there.
 */
export async function createdAtOf(store: Store, kind: KindLayout, ref: EntityRef): Promise<string | undefined> {
  if (ref.escapes) return undefined;
  try {
    const path = entityFile(store, kind, ref.id, ref.archived);
    const text = readStoreFile(store, path);
    // The fast, synchronous parser first (a fresh clone's first listing asks this of every file); the general one when
    // it cannot say.
    const fm =
      parseFrontmatterFast(text, displayPath(store, path)) ?? (await parseFrontmatter(text, displayPath(store, path)));
    const at = fm.data.createdAt;
    return fm.data.id === ref.id && isTimestamp(at) ? at : undefined;
  } catch {
    return undefined;
  }
}

// --- internal ---

/** `createdAtOf`, telling `onRead` of the file it read (its stat, taken on the open file: the caller's cache key). */
async function createdAtRead(
  store: Store,
  kind: KindLayout,
  ref: EntityRef,
  onRead: NonNullable<OrderOptions["onRead"]>,
  ahead: Ahead | undefined
): Promise<string | undefined> {
  if (ref.escapes) return undefined;
  try {
    const path = entityFile(store, kind, ref.id, ref.archived);
    // The stat of the file read (fstat of the open file): a symlink has none, and is read by the walk itself. Read by
    // the thread ahead, as of when it began on it.
    const before = ahead?.file ? ahead.at : Date.now();
    const { text, stat: st } = ahead?.file ?? readStoreFileStat(store, path);
    const fm =
      parseFrontmatterFast(text, displayPath(store, path)) ?? (await parseFrontmatter(text, displayPath(store, path)));
    const at = fm.data.createdAt;
    if (fm.data.id !== ref.id || !isTimestamp(at)) return undefined;
    if (st?.isFile()) {
      try {
        await onRead(ref, fm, st, before, text, ahead);
      } catch {
        // the caller reads the file itself
      }
    }
    return at;
  } catch {
    return undefined;
  }
}

/** An order's lines as its cache holds them, for a reader that takes them apart itself (another thread). */
export interface OrderIds {
  /** The lines' size in bytes (latin1). */
  readonly bytes: number;
  /** Write the lines into `into` (at least `bytes` long): line i at `i * stride`, its id at `[idAt, idAt + 36)`, and
   * `A` at `flagAt` when the entity is archived. */
  write(into: Buffer): void;
  readonly stride: number;
  readonly idAt: number;
  readonly flagAt: number;
  /** Where a reader of its own finds the lines: the cache file's fd (open while the order is held), their offset. */
  readonly file?: { readonly fd: number; readonly at: number };
}

/** The lines of an order kept as its cache's (`OrderIds`; every order `entityOrder` gives), else undefined. */
export function orderIds(order: Order): OrderIds | undefined {
  if (!(order instanceof CacheOrder)) return undefined;
  const file = order instanceof WindowOrder ? order.file : undefined;
  return {
    bytes: order.length * LINE,
    write: (into) => order.writeBody(into),
    stride: LINE,
    idAt: 21,
    flagAt: 58,
    file,
  };
}

/** An Order read straight out of the cache text: line i is one slice. */
class CacheOrder implements Order {
  readonly length: number;
  #text: string;
  #body: number;
  #lines: string[] | undefined;
  #entries: OrderEntry[] | undefined;
  readonly errors: Unranked[];
  /** The digest of the names the lines were built from ("-" when unknown). */
  readonly digest: string;
  /** The kind folders' link counts as `entityOrder` stamped them, before it vouched for the lines (`addedAlone`). */
  links?: readonly number[];
  /** Over the cache text (from `body` on), an array of lines, or `src` lines a subclass reads (`line`). */
  constructor(src: string | string[] | number, body: number, errors: Unranked[], digest: string) {
    this.digest = digest;
    if (typeof src === "number") {
      this.#text = "";
      this.#body = body;
      this.length = src;
    } else if (typeof src === "string") {
      this.#text = src;
      this.#body = body;
      this.length = (src.length - body) / LINE;
    } else {
      this.#text = "";
      this.#body = 0;
      this.#lines = src;
      this.length = src.length;
    }
    this.errors = errors;
  }
  /** The length of the cache text's header when this order was read from it whole; -1 otherwise. */
  get headerLength(): number {
    return this.#lines ? -1 : this.#body;
  }
  /** Every line, as the cache's body holds them, into `into` as latin1 (one read, not a string, for a window). */
  writeBody(into: Buffer): void {
    if (this.#lines) {
      let o = 0;
      for (const l of this.#lines) o += into.write(l, o, "latin1");
    } else into.write(this.#text.slice(this.#body), 0, "latin1");
  }
  /** Every line, as the cache's body holds them. */
  bodyText(): string {
    return this.#lines ? this.#lines.join("") : this.#text.slice(this.#body);
  }
  /** Line i (0 ≤ i < length), newline included. */
  line(i: number): string {
    const o = this.#body + i * LINE;
    return this.#lines ? this.#lines[i]! : this.#text.slice(o, o + LINE);
  }
  at(i: number): OrderEntry | undefined {
    if (i < 0) i += this.length;
    if (i < 0 || i >= this.length) return undefined;
    const l = this.line(i);
    return { createdAt: l.slice(0, 20), ref: { id: l.slice(21, 57), archived: l.charCodeAt(58) === 65 /* A */ } };
  }
  rankOf(createdAt: string, id: string): number {
    const key = `${createdAt} ${id}`;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.line(mid).slice(0, 57) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  get entries(): OrderEntry[] {
    if (!this.#entries) {
      this.#entries = [];
      for (let i = 0; i < this.length; i++) this.#entries.push(this.at(i)!);
    }
    return this.#entries;
  }
}

/** Lines per block a windowed order reads at once (15 KiB). */
const WINDOW = 256;
/** Blocks a windowed order keeps (a binary search touches ~9 at 100,000 lines; a walk one at a time). */
const KEEP = 16;

/**
 * An Order over the cache file itself, kept open and read a block of lines
 * at a time as they are asked for: the file the stamp vouched for (its
 * inode stays readable while the fd is open, whatever is renamed over the
 * path; `recordCreated`'s in-place append writes past the size read here
 * and a header of the same length). Trusted as the whole-text order is:
 * by its stamp. The fd is closed with the order (a finaliser) or at exit.
 */
class WindowOrder extends CacheOrder {
  readonly #fd: number;
  readonly #bodyAt: number;
  readonly #blocks = new Map<number, string>();

  /**
   * The cache at `path` when its header's stamp is `stamp` (or `r` + `stamp`, trusted under the kind lock only);
   * else undefined.
   */
  static open(path: string, stamp: string, locked: boolean): WindowOrder | undefined {
    let fd: number | undefined;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      const size = fstatSync(fd).size;
      const buf = Buffer.allocUnsafe(Math.min(size, 512));
      const n = readSync(fd, buf, 0, buf.length, 0);
      const nl = buf.indexOf(10);
      const head = nl > 0 && nl < n ? header(buf.toString("latin1", 0, nl + 1), size) : undefined;
      if (head && (head.stamp === stamp || (locked && head.stamp === "r" + stamp))) {
        const o = new WindowOrder(fd, head.body, (size - head.body) / LINE, head.digest);
        fd = undefined;
        return o;
      }
    } catch {
      // no cache, or not one: the caller reads what there is
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    return undefined;
  }

  constructor(fd: number, body: number, length: number, digest: string, errors: Unranked[] = []) {
    super(length, body, errors, digest);
    this.#fd = fd;
    this.#bodyAt = body;
    FDS.register(this, fd);
  }
  /** The cache file's fd and where its lines start (`OrderIds.file`). */
  get file(): { fd: number; at: number } {
    return { fd: this.#fd, at: this.#bodyAt };
  }
  override writeBody(into: Buffer): void {
    const n = this.length * LINE;
    let got = 0;
    while (got < n) {
      const k = readSync(this.#fd, into, got, n - got, this.#bodyAt + got);
      if (k === 0) break;
      got += k;
    }
    // Truncated in place under the fd: blank, as `#block` reads it.
    into.fill(0x20, got, n);
  }
  override bodyText(): string {
    const body = Buffer.allocUnsafe(this.length * LINE);
    this.writeBody(body);
    return body.toString("latin1");
  }
  override line(i: number): string {
    const b = Math.floor(i / WINDOW);
    const o = (i - b * WINDOW) * LINE;
    return this.#block(b).slice(o, o + LINE);
  }
  #block(b: number): string {
    let t = this.#blocks.get(b);
    if (t === undefined) {
      const n = Math.min(WINDOW, this.length - b * WINDOW) * LINE;
      const buf = Buffer.allocUnsafe(n);
      let got = 0;
      while (got < n) {
        const k = readSync(this.#fd, buf, got, n - got, this.#bodyAt + b * WINDOW * LINE + got);
        if (k === 0) break;
        got += k;
      }
      // Truncated in place under the fd (nothing forge does): the order reads the rest of its lines as blank.
      t = buf.toString("latin1", 0, got).padEnd(n, " ");
      if (this.#blocks.size >= KEEP) this.#blocks.delete(this.#blocks.keys().next().value!);
      this.#blocks.set(b, t);
    }
    return t;
  }
}

const FDS = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // closed already
  }
});

/**
 * The cache's header: stamp (or `unstamped`), digest (or `-`), where the lines start and how many there are;
 * undefined when the cache of `size` bytes is not a whole one: its header's count of lines is the number of whole
 * lines after it (one torn, or grown, by whole lines is not whole).
 */
function header(
  text: string,
  size = text.length
): { stamp: string; digest: string; body: number; lines: number } | undefined {
  if (!text.startsWith(MAGIC)) return undefined;
  const body = text.indexOf("\n") + 1;
  if (body === 0 || (size - body) % LINE !== 0) return undefined;
  const [stamp, digest, lines, extra] = text.slice(MAGIC.length, body - 1).split(" ");
  const n = (size - body) / LINE;
  return stamp && digest && lines === count(n) && extra === undefined ? { stamp, digest, body, lines: n } : undefined;
}

/** A header's count of lines: fixed width, so a create's header keeps its length. */
function count(n: number): string {
  return String(n).padStart(10, "0");
}

/**
 * The names' digest, `<live>/<archive>`, each `<count>.<sum1>.<sum2>`: the
 * number of names and two 32-bit sums of two hashes of each name (FNV-1a
 * and a multiply-xorshift, each finished with murmur3's mix). A set hash:
 * the same names give the same digest in any order, and a name is added
 * to it without the others (`withName`). Fixed width, so a create's header
 * keeps its length. It guards a rebuildable cache against accidental
 * change (two sets agree by chance with odds of 2^-64), not against a
 * forger: whoever can rename the folders can write the cache too. This is
 * it for the names in the folders now, read as a stream.
 */
function folderDigest(store: Store, kind: KindLayout): string {
  const sum = newSum();
  eachFolderName(store, kind, (x, archived) => addName(sum, x, archived));
  return digestText(sum);
}

/** Count, sum1, sum2 of the live names, then of the archived ones. */
function newSum(): number[] {
  return [0, 0, 0, 0, 0, 0];
}

function addName(sum: number[], x: string, archived: boolean): void {
  const o = archived ? 3 : 0;
  const [h1, h2] = nameHash(x);
  sum[o]++;
  sum[o + 1] = (sum[o + 1]! + h1) >>> 0;
  sum[o + 2] = (sum[o + 2]! + h2) >>> 0;
}

function digestText(s: number[]): string {
  return `${part(s[0]!, s[1]!, s[2]!)}/${part(s[3]!, s[4]!, s[5]!)}`;
}

/** `digest` with one more name in the live or archive folder; "-" when it is not a digest. */
function withName(digest: string, archived: boolean, name: string): string {
  const m = /^([0-9]{10})\.([0-9a-f]{8})\.([0-9a-f]{8})\/([0-9]{10})\.([0-9a-f]{8})\.([0-9a-f]{8})$/.exec(digest);
  if (!m) return "-";
  const sum = m.slice(1).map((v, i) => (i % 3 === 0 ? Number(v) : parseInt(v, 16)));
  addName(sum, name, archived);
  return digestText(sum);
}

function part(count: number, s1: number, s2: number): string {
  return `${String(count).padStart(10, "0")}.${s1.toString(16).padStart(8, "0")}.${s2.toString(16).padStart(8, "0")}`;
}

function nameHash(x: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < x.length; i++) {
    const k = x.charCodeAt(i);
    h1 = Math.imul(h1 ^ k, 0x01000193);
    h2 = Math.imul(h2 ^ k, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return [mix(h1), mix(h2)];
}

/** murmur3's 32-bit finaliser. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function lineOf(e: OrderEntry): string {
  return `${e.createdAt} ${e.ref.id} ${e.ref.archived ? "A" : "L"}\n`;
}

/** Why an entity cannot be ranked: the error reading it gives. */
async function loadError(store: Store, kind: KindLayout, schema: EntitySchema, ref: EntityRef): Promise<Error> {
  try {
    await loadEntity(store, kind, schema, ref);
  } catch (err) {
    return err as Error;
  }
  return new InvalidFileError(
    displayPath(store, entityFile(store, kind, ref.id, ref.archived)),
    "no readable createdAt",
    "createdAt"
  );
}

/**
 * `lineOf`, copied into a string of its own: a createdAt parsed out of a
 * file is a slice that keeps the whole file's text alive, and a fresh
 * clone's first listing holds 100,000 of these lines until it sorts them.
 */
function flatLine(e: OrderEntry): string {
  return Buffer.from(lineOf(e), "latin1").toString("latin1");
}

/** A folder's own size (its entries' space), 0 when it cannot be stat'ed. */
function folderBytes(dir: string): number {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    return 0;
  }
}

/** Whether `text` is the header `head` and then `lines`. */
function sameText(text: string, head: string, lines: readonly string[]): boolean {
  if (text.length !== head.length + lines.length * LINE || !text.startsWith(head)) return false;
  for (let i = 0; i < lines.length; i++) if (!text.startsWith(lines[i]!, head.length + i * LINE)) return false;
  return true;
}

/**
 * Write the cache (`head`, then `lines`) by rename, 64 KiB at a time; the
 * written file's fd, open for reading (whatever is renamed over the path
 * later), or undefined when it cannot be written.
 */
function writeLines(path: string, head: string, lines: readonly string[]): number | undefined {
  let tmp: string | undefined;
  let fd: number | undefined;
  try {
    tmp = cacheTemp(path);
    fd = openSync(tmp, "wx+");
    const buf = Buffer.allocUnsafe(Math.max(1 << 16, head.length));
    let len = buf.write(head, 0, "latin1");
    for (const l of lines) {
      if (len + LINE > buf.length) {
        writeAll(fd, buf, len);
        len = 0;
      }
      len += buf.write(l, len, "latin1");
    }
    writeAll(fd, buf, len);
    renameSync(tmp, path);
    const out = fd;
    fd = undefined;
    return out;
  } catch {
    dropCacheTemp(tmp);
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A cache line's separators and flag are where they belong (cheap; a damaged line ends the walk). */
function wellFormed(l: string): boolean {
  const f = l.charCodeAt(58);
  return (
    l.charCodeAt(19) === 90 &&
    l.charCodeAt(20) === 32 &&
    l.charCodeAt(29) === 45 &&
    l.charCodeAt(57) === 32 &&
    (f === 65 || f === 76) &&
    l.charCodeAt(59) === 10
  );
}

function mergeSorted(a: string[], b: string[]): string[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]! <= b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

function cachePath(store: Store, kind: KindLayout): string {
  return join(cacheDir(store), `${kind.plural.replaceAll(sep, "-")}.order`);
}

/** The stamp of the kind's live and archive folders. */
function kindStamp(store: Store, kind: KindLayout): FolderStamp & { links: number[] } {
  const links: number[] = [];
  return { ...folderStamp([kindDir(store, kind), archiveDir(store, kind)], links), links };
}

/**
 * Whether the kind folders' link counts say that one folder, and no other, was added to them since the order was
 * vouched for (`before`): a folder's link count is 2 plus its subfolders where the filesystem counts them (ext4 below
 * 65,000, XFS, tmpfs; 1 on btrfs, 0 when missing). Where either count cannot tell, true: the stamp is the check.
 */
function addedAlone(before: readonly number[] | undefined, after: readonly number[], archived: boolean): boolean {
  if (!before) return true;
  const into = archived ? 1 : 0;
  return before.every((n, i) => n < 2 || after[i] === n + (i === into ? 1 : 0));
}

/**
 * Append one line to the cache file and rewrite its header in place (same
 * length), when the file is still exactly `size` bytes. Not fsynced, like
 * every cache write. false when anything is off (the caller rewrites).
 */
function appendInPlace(path: string, head: string, line: string, size: number): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r+");
    if (fstatSync(fd).size !== size) return false;
    writeSync(fd, line, size, "latin1");
    writeSync(fd, head, 0, "latin1");
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
