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
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite } from "../store/atomic_write.js";
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
  const cached = readCache(store, kind);
  const entries: OrderEntry[] = [];
  const errors: Unranked[] = [];
  let fresh = 0;
  for (const ref of refs) {
    const at = cached.get(ref.id);
    if (at !== undefined && !ref.escapes) {
      entries.push({ ref, createdAt: at });
      continue;
    }
    try {
      const e = await loadEntity(store, kind, schema, ref);
      entries.push({ ref, createdAt: e.data.createdAt as string });
      fresh++;
    } catch (err) {
      const at = await createdAtOf(store, kind, ref);
      if (at === undefined) errors.push({ ref, error: err as Error });
      else {
        entries.push({ ref, createdAt: at });
        fresh++;
      }
    }
  }
  entries.sort(compareOrder);
  if (fresh > 0 || cached.size !== entries.length) writeCache(store, kind, entries);
  return { entries, errors };
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
  try {
    const dir = cacheDir(store);
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      // The cache ignores itself, whether or not `forge init` wrote .gitignore.
      writeFileSync(join(dir, ".gitignore"), "*\n");
    }
    atomicWrite(join(dir, `${kind.plural}.order`), entries.map((e) => `${e.createdAt} ${e.ref.id}\n`).join(""));
  } catch {
    // A cache that cannot be written only costs time.
  }
}

function readCache(store: Store, kind: KindLayout): Map<string, string> {
  const m = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(join(cacheDir(store), `${kind.plural}.order`), "utf8");
  } catch {
    return m;
  }
  for (const line of text.split("\n")) {
    const sp = line.indexOf(" ");
    if (sp === 20 && line.length === 57) m.set(line.slice(21), line.slice(0, 20));
  }
  return m;
}

/**
 * Write the cache only when it differs from `entries` (used by readers that
 * ranked every file anyway).
 */
export function refreshCache(store: Store, kind: KindLayout, entries: readonly OrderEntry[]): void {
  const cached = readCache(store, kind);
  if (cached.size === entries.length && entries.every((e) => cached.get(e.ref.id) === e.createdAt)) return;
  writeCache(store, kind, entries);
}
