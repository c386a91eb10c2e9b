/**
 * Derived numbering: an entity's number is its rank in the total order
 * `(createdAt, id)` over the kind, archived included, so every copy of the
 * store computes the same numbers. Ranking needs every `createdAt`; a
 * rebuildable cache (`.forge/.cache/<kind>.order`) keeps them so a lookup by
 * number does not read every file. The cache is keyed on the set of entity
 * folders (createdAt never changes), so a stale cache is detected with one
 * readdir, refreshed by reading only the new files, and deleting it changes
 * no answer.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listEntityRefs, type EntityRef } from "../store/entities_dir.js";
import { parseFrontmatter } from "../frontmatter/parse.js";
import { readStoreFile } from "../store/read_file.js";
import { cacheDir, displayPath, entityFile, type KindLayout, type Store } from "../store/store.js";
import { isTimestamp } from "../time.js";
import { loadEntity } from "./load.js";
import type { EntitySchema } from "./schema.js";

/** One entity's place in the order. */
export interface OrderEntry {
  readonly ref: EntityRef;
  readonly createdAt: string;
}

/** The ranked entities of a kind and the files that could not be ranked. */
export interface Order {
  /** Sorted by `(createdAt, id)`; number = index + 1. */
  readonly entries: OrderEntry[];
  /** One per entity whose createdAt could not be read: the entity and why. */
  readonly errors: Unranked[];
}

/** An entity left out of the order because its file could not be read. */
export interface Unranked {
  readonly ref: EntityRef;
  readonly error: Error;
}

/**
 * Compare two entries by `(createdAt, id)`.
 * @example compareOrder({createdAt: "a", ref: {id: "2"}}, {createdAt: "a", ref: {id: "1"}}) // 1
 */
export function compareOrder(a: { createdAt: string; ref: { id: string } }, b: { createdAt: string; ref: { id: string } }): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.ref.id < b.ref.id ? -1 : a.ref.id > b.ref.id ? 1 : 0;
}

/**
 * Rank every entity of a kind, using and refreshing the cache.
 * @param store the store
 * @param kind the layout
 * @param schema used to read files missing from the cache
 */
export async function entityOrder(store: Store, kind: KindLayout, schema: EntitySchema): Promise<Order> {
  const refs = listEntityRefs(store, kind);
  const cache = readCache(store, kind);
  const known: OrderEntry[] = [];
  const fresh: OrderEntry[] = [];
  const errors: Unranked[] = [];
  // The cache is written sorted, so its line numbers place the cached entries in one pass.
  const slots: Array<OrderEntry | undefined> = new Array(cache.sorted ? cache.createdAt.length : 0);
  let placed = cache.sorted;
  for (const ref of refs) {
    const line = cache.line.get(ref.id);
    if (line !== undefined && !ref.escapes) {
      const e = { ref, createdAt: cache.createdAt[line]! };
      known.push(e);
      if (placed) {
        if (slots[line] !== undefined) placed = false; // the same id twice (live and archived)
        slots[line] = e;
      }
      continue;
    }
    try {
      const e = await loadEntity(store, kind, schema, ref);
      fresh.push({ ref, createdAt: e.data.createdAt as string });
    } catch (err) {
      const at = await createdAtOf(store, kind, ref);
      if (at === undefined) errors.push({ ref, error: err as Error });
      else fresh.push({ ref, createdAt: at });
    }
  }
  const sorted = placed ? slots.filter((e) => e !== undefined) : known.sort(compareOrder);
  fresh.sort(compareOrder);
  // The usual `create`: the cache is whole and sorted and the new issues are the newest, so they are appended.
  const newest = sorted.length === 0 || fresh.length === 0 || compareOrder(sorted[sorted.length - 1]!, fresh[0]!) < 0;
  if (newest && cache.clean && cache.line.size === known.length) {
    const entries = fresh.length ? sorted.concat(fresh) : sorted;
    if (fresh.length > 0) appendCache(store, kind, fresh, entries);
    return { entries, errors };
  }
  const entries = merge(sorted, fresh);
  writeCache(store, kind, entries);
  return { entries, errors };
}

/** Merge two sorted lists. */
function merge(a: OrderEntry[], b: OrderEntry[]): OrderEntry[] {
  if (b.length === 0) return a;
  const out: OrderEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compareOrder(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/**
 * The createdAt of an entity whose file is invalid for another reason (a
 * missing title, a bad label): enough to rank it, so one broken field does
 * not shift every later number. `undefined` when even that cannot be read.
 */
export async function createdAtOf(store: Store, kind: KindLayout, ref: EntityRef): Promise<string | undefined> {
  if (ref.escapes) return undefined;
  try {
    const path = entityFile(store, kind, ref.id, ref.archived);
    const fm = await parseFrontmatter(readStoreFile(store, path), displayPath(store, path));
    const at = fm.data.createdAt;
    return fm.data.id === ref.id && isTimestamp(at) ? at : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Record a known order (e.g. after `list` read every file) in the cache.
 */
export function writeCache(store: Store, kind: KindLayout, entries: readonly OrderEntry[]): void {
  let tmp: string | undefined;
  try {
    const dir = cacheDir(store);
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      // The cache ignores itself, whether or not `forge init` wrote .gitignore.
      writeFileSync(join(dir, ".gitignore"), "*\n");
    }
    // Renamed into place, so never half-written, but not fsynced: the cache is
    // rebuildable, createdAt never changes, and readCache() takes only
    // well-formed lines, so after a crash it is at worst incomplete. The two
    // fsyncs of atomicWrite() cost a `create` at 10,000 issues more than the rest of the write.
    const path = join(dir, `${kind.plural}.order`);
    tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(tmp, cacheText(entries), { flag: "wx" });
    renameSync(tmp, path);
  } catch {
    // A cache that cannot be written only costs time.
    if (tmp !== undefined) rmSync(tmp, { force: true });
  }
}

/** Add `fresh` (all newer than the cache's last line) to the cache, else write `all`. */
function appendCache(store: Store, kind: KindLayout, fresh: readonly OrderEntry[], all: readonly OrderEntry[]): void {
  try {
    // A short append; a torn or interleaved line is malformed and ignored by readCache().
    appendFileSync(join(cacheDir(store), `${kind.plural}.order`), cacheText(fresh));
  } catch {
    writeCache(store, kind, all);
  }
}

/**
 * The cache as read: id → line, createdAt by line; `sorted` when every line
 * sorts after the one before; `clean` when sorted and every line is well formed
 * (so more lines may be appended).
 */
interface Cache {
  readonly line: Map<string, number>;
  readonly createdAt: string[];
  readonly sorted: boolean;
  readonly clean: boolean;
}

function readCache(store: Store, kind: KindLayout): Cache {
  const cache: Cache = { line: new Map(), createdAt: [], sorted: true, clean: true };
  let text: string;
  try {
    text = readFileSync(join(cacheDir(store), `${kind.plural}.order`), "utf8");
  } catch {
    return cache;
  }
  // Lines are fixed-width "<createdAt> <id>", so comparing lines compares (createdAt, id).
  let prev = "";
  let sorted = true;
  let malformed = 0;
  const lines = text.split("\n");
  if (lines.pop() !== "") malformed++; // a torn last line
  for (const line of lines) {
    if (line.indexOf(" ") !== 20 || line.length !== 57) {
      malformed++;
      continue;
    }
    if (line <= prev) sorted = false;
    prev = line;
    cache.line.set(line.slice(21), cache.createdAt.length);
    cache.createdAt.push(line.slice(0, 20));
  }
  return { ...cache, sorted, clean: sorted && malformed === 0 };
}

/**
 * Write the cache only when it differs from `entries` (used by readers that
 * ranked every file anyway); this also puts an unsorted cache back in order.
 */
export function refreshCache(store: Store, kind: KindLayout, entries: readonly OrderEntry[]): void {
  let old = "";
  try {
    old = readFileSync(join(cacheDir(store), `${kind.plural}.order`), "utf8");
  } catch {
    // none yet
  }
  if (old !== cacheText(entries)) writeCache(store, kind, entries);
}

function cacheText(entries: readonly OrderEntry[]): string {
  return entries.map((e) => `${e.createdAt} ${e.ref.id}\n`).join("");
}
