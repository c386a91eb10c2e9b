/**
 * The import log read through a cache, `.forge/.cache/imports.observed`
 * (forge-observe's): each import file's record as it was read, without its
 * kernel payload when that holds records — the payload is nearly all of an
 * import's bytes, and a reader that already has what the payloads compile
 * to (observe's kernel view) never needs it. An entry is used only while
 * its file's lstat (inode, mtime, ctime, size) is unchanged, as the record
 * caches do: an import file is created once, and an edit in place moves
 * one of them. A file changed within the racy window is not kept. The
 * cache is one checked JSON document, rewritten whole when a read no
 * longer found a file it held, or read whole files it did not hold worth
 * an eighth of its size (each counted as at least 4 KiB): a new import or
 * two is read again by the next readers rather than the whole cache
 * rewritten after each (forge-pilot imports one or two per iteration). Deleting it changes
 * no answer; a foreign one cannot vouch for this clone's inodes.
 */
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import { join } from "node:path";
import {
  cacheDir,
  checkedCache,
  evidenceImportFile,
  fileStamp,
  InvalidFileError,
  readCacheFile,
  writeCacheFile,
  writeCacheLater,
  type Store,
} from "@forge/core";
import { cmp } from "@forge/kernel";
import {
  importIds,
  type ImportRecord,
  packNames,
  readImportFile,
  readLooseOrPacked,
  readPackFile,
} from "./import_log.js";
import { canonicalJson } from "@forge/kernel";

const MAGIC = "forge-imports 1";

/** One import as the cached log gives it. */
export interface LoggedImport {
  /** The record; its `kernel_payload` is null when `elided`. */
  record: ImportRecord;
  /** The payload (which has records) was left out: `withPayloads` reads it. */
  elided: boolean;
  /**
   * The file's lstat identity, taken before it was read; null when it changed too recently to vouch for (nothing is
   * kept of it).
   */
  stamp: string | null;
  /**
   * What vouches for the record when its stamp cannot: `sha256:<hex>` of the
   * bytes it was parsed from (taken for a file read within the racy window,
   * or given by the writer of those bytes).
   */
  digest?: string;
}

/** Options of `readImportLogCached`. */
export interface CachedLogOptions {
  /** Whether this read may rewrite the cache. */
  write: boolean;
  /** The read's start (ms since the epoch; default now). */
  now?: number;
  /**
   * The degradation law: given, a file that is not an import record (or whose digest does not hold) is left out of
   * the log and `import:<batch_id>` added here (a reader names it as a marker), instead of the read stopping.
   */
  unreadable?: string[];
}

/**
 * Every import in the store, in fold order; what the cache holds of a file whose lstat it still matches is not read.
 * @throws InvalidFileError for a file read that is not an import record (as `readImportLog`)
 * @example readImportLogCached(store, { write: true }).filter((l) => l.elided).length // payloads not read
 */
export function readImportLogCached(store: Store, opts: CachedLogOptions): LoggedImport[] {
  const ids = importIds(store);
  if (ids.length === 0 && packNames(store).length === 0) return [];
  const now = opts.now ?? Date.now();
  const path = cachePath(store);
  const { rows: cached, bytes } = loadCache(path) ?? {};
  const out: LoggedImport[] = [];
  const fresh = { bytes: 0 };
  let used = 0;
  for (const id of ids) {
    const l = readOrMark(opts.unreadable, id, () => readLooseOrPacked(() => readLogged(store, id, now, cached, fresh)));
    if (!l) continue;
    out.push(l);
    if (l.stamp !== null && cached?.get(l.record.batch_id) === l) used++;
  }
  addPacked(store, out, opts.unreadable);
  out.sort(foldOrder);
  // Once the caller's answer is out (the log as read now: later changes to it are not kept).
  if (opts.write && (used !== (cached?.size ?? 0) || (fresh.bytes > 0 && fresh.bytes * 8 >= (bytes ?? 0)))) {
    const log = [...out];
    writeCacheLater(() => writeCache(path, log));
  }
  return out;
}

/**
 * The log with the payloads of the elided imports `wanted` picks read from their files.
 * A file whose lstat moved since is read whole again (its record replaces the cached one).
 * @throws InvalidFileError as `readImportRecord`
 */
export function withPayloads(
  store: Store,
  log: readonly LoggedImport[],
  wanted: (l: LoggedImport) => boolean,
  now = Date.now(),
  unreadable?: string[]
): LoggedImport[] {
  const out: LoggedImport[] = [];
  let gone = false;
  for (const l of log) {
    const id = l.record.batch_id;
    const r =
      l.elided && wanted(l) ? readOrMark(unreadable, id, () => readLooseOrPacked(() => readLogged(store, id, now))) : l;
    if (r) out.push(r);
    // Its file went since the log was read: packed meanwhile (`packImports` writes the pack first), read from there.
    else if (l.elided && wanted(l) && !unreadable?.includes(`import:${id}`)) gone = true;
  }
  if (gone) addPacked(store, out, unreadable);
  return out.sort(foldOrder);
}

/**
 * Every import in the store, in fold order, each file read whole after its
 * lstat was taken: `readImportLog`'s records, with what vouches for each
 * (a kernel view's key names them). No cache is read or written.
 * @throws InvalidFileError as `readImportLog`
 */
export function readImportLogStamped(store: Store, now = Date.now()): LoggedImport[] {
  const out: LoggedImport[] = [];
  for (const id of importIds(store)) {
    const l = readLooseOrPacked(() => readLogged(store, id, now));
    if (l) out.push(l);
  }
  addPacked(store, out);
  return out.sort(foldOrder);
}

/**
 * The records of the store's packs that `out` does not hold, added to it: never cached (a pack is read whole, checked
 * by its digest), each vouched for by its record's digest. Listed after the loose files were read (see readImportLog).
 * @param unreadable as `CachedLogOptions.unreadable` (a pack that is not one: `import:pack-<sha>`)
 */
function addPacked(store: Store, out: LoggedImport[], unreadable?: string[]): void {
  const names = packNames(store);
  if (names.length === 0) return;
  const seen = new Set(out.map((l) => l.record.batch_id));
  for (const name of names) {
    let records: ImportRecord[];
    try {
      records = readPackFile(store, name).records;
    } catch (err) {
      if (!unreadable || !(err instanceof InvalidFileError)) throw err;
      unreadable.push(`import:${name.slice(0, -5)}`);
      continue;
    }
    for (const record of records) {
      if (seen.has(record.batch_id)) continue;
      seen.add(record.batch_id);
      const digest = record.record_sha256 ? `sha256:${record.record_sha256}` : digestOf(canonicalJson(record) + "\n");
      out.push({ record, elided: false, stamp: null, digest });
    }
  }
}

/**
 * The digest (`digestOf`) of the bytes a logged import was parsed from: the
 * one it has, else its file read again while the file's lstat is still the
 * stamp taken before the first read (so the same bytes); undefined when
 * neither can tell, or the file cannot be read.
 */
export function importDigest(store: Store, l: LoggedImport, now = Date.now()): string | undefined {
  if (l.digest !== undefined) return l.digest;
  if (l.stamp === null) return undefined;
  const file = evidenceImportFile(store, l.record.batch_id);
  const same = (): boolean => {
    const st = lstatSync(file, { throwIfNoEntry: false });
    return st?.isFile() === true && fileStamp(st, now) === l.stamp;
  };
  if (!same()) return undefined;
  let bytes: Buffer;
  try {
    bytes = readImportFile(store, l.record.batch_id).bytes;
  } catch {
    return undefined;
  }
  // Unchanged while it was read, too.
  return same() ? digestOf(bytes) : undefined;
}

/** `sha256:<hex>` of a file's bytes: what vouches for a file whose lstat cannot. */
export function digestOf(bytes: Buffer | string): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Whether a payload holds any record (an empty one is kept in the cache as it is). */
export function hasRecords(payload: ImportRecord["kernel_payload"]): boolean {
  return payload !== null && payload.claims.length + payload.trials.length + payload.relations.length > 0;
}

// --- internal ---

/** `read()`, or with `unreadable` given, undefined and the import named there when its file is not a record. */
function readOrMark(
  unreadable: string[] | undefined,
  id: string,
  read: () => LoggedImport | undefined
): LoggedImport | undefined {
  if (!unreadable) return read();
  try {
    return read();
  } catch (err) {
    if (!(err instanceof InvalidFileError)) throw err;
    unreadable.push(`import:${id}`);
    return undefined;
  }
}

function cachePath(store: Store): string {
  return join(cacheDir(store), "imports.observed");
}

/**
 * One import: from the cache while its file's lstat matches, else read.
 * @param fresh counts the bytes of files read that the cache could keep (at least 4 KiB each)
 */
function readLogged(
  store: Store,
  id: string,
  now: number,
  cached?: ReadonlyMap<string, LoggedImport>,
  fresh?: { bytes: number }
): LoggedImport {
  const st = lstatSync(evidenceImportFile(store, id), { throwIfNoEntry: false });
  // Anything but a regular file (a symlink, say) is never cached: readImportRecord decides what it is.
  const stamp = st?.isFile() ? fileStamp(st, now) : null;
  const hit = stamp === null ? undefined : cached?.get(id);
  if (hit && hit.stamp === stamp) return hit;
  const { record, bytes } = readImportFile(store, id);
  if (stamp === null) return { record, elided: false, stamp, digest: digestOf(bytes) };
  if (fresh) fresh.bytes += Math.max(bytes.length, 4096);
  return { record, elided: false, stamp };
}

function foldOrder(a: LoggedImport, b: LoggedImport): number {
  return cmp(a.record.imported_at, b.record.imported_at) || cmp(a.record.batch_id, b.record.batch_id);
}

/** The cache's entries by batch id, and its size; undefined when there is no cache this read can trust. */
function loadCache(path: string): { rows: Map<string, LoggedImport>; bytes: number } | undefined {
  const text = readCacheFile(path, MAGIC);
  if (text === undefined) return undefined;
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(rows)) return undefined;
  const out = new Map<string, LoggedImport>();
  for (const r of rows as unknown[]) {
    if (
      !Array.isArray(r) ||
      r.length !== 4 ||
      typeof r[0] !== "string" ||
      typeof r[1] !== "string" ||
      (r[2] !== 0 && r[2] !== 1)
    )
      return undefined;
    const rec = r[3] as ImportRecord | null;
    if (rec === null || typeof rec !== "object" || rec.batch_id !== r[0] || (r[2] === 1 && rec.kernel_payload !== null))
      return undefined;
    out.set(r[0], { record: rec, elided: r[2] === 1, stamp: r[1] });
  }
  return { rows: out, bytes: text.length };
}

/** Rewrite the cache with every import whose file could vouch for it, payloads with records left out. */
function writeCache(path: string, log: readonly LoggedImport[]): void {
  const rows: unknown[] = [];
  for (const l of log) {
    if (l.stamp === null) continue;
    const elide = l.elided || hasRecords(l.record.kernel_payload);
    rows.push([l.record.batch_id, l.stamp, elide ? 1 : 0, elide ? { ...l.record, kernel_payload: null } : l.record]);
  }
  writeCacheFile(path, checkedCache(MAGIC, JSON.stringify(rows)));
}
