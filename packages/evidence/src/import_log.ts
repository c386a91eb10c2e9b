/**
 * The import log on disk: one file per import under
 * `.forge/evidence/imports/<batch_id>.json` (canonical JSON). Reading it
 * back in order — (imported_at, batch_id) — is the only way to a scope's
 * state. This file is the only reader of those files.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  displayPath,
  evidenceImportFile,
  evidenceImportsDir,
  InvalidFileError,
  isTimestamp,
  lexists,
  printable,
  readStoreBytes,
  type Store,
} from "@forge/core";
import { canonicalJson, cmp, type KernelBatch } from "@forge/kernel";
import type { Episode } from "./bundle.js";
import { trialEpisode } from "./trial_episode.js";
import { checkBatchShape, InvalidBatchError, type ProjectionImportBatchV3 } from "./batch.js";

/** The schema tag of an import file. */
export const IMPORT_SCHEMA = "forge-evidence-import/v1";

/** What one import file holds. */
export interface ImportRecord {
  schema_version: string;
  batch_id: string;
  imported_at: string;
  degraded: boolean;
  /** Trials in the stored kernel payload (so reading the log never re-parses payloads to count). */
  trials: number;
  /** Degradation markers this import brought (`missing_kernel_payload`, `dangling_ref:relation:<id>`, …). */
  markers: string[];
  /**
   * The kernel records this import added, parsed (stored as an object, not as
   * escaped text, so a fold parses them once); null when the batch had no
   * usable payload (its text, if any, stays in `batch.kernel_payload_json`).
   */
  kernel_payload: KernelBatch | null;
  /** `derived`: the trial episodes are not stored; they are exactly `trialEpisode()` of `kernel_payload.trials`. */
  trial_episodes: "derived" | "stored";
  /** The batch as stored: only what it added to its scope (episodes and payload as above). */
  batch: ProjectionImportBatchV3;
  /**
   * sha256 (hex) of the file's bytes with this field's 64 digits read as `0`s (`sealRecord`): an edit of the
   * file is found on read. Absent in a record written before it existed (read as it always was: N−1).
   */
  record_sha256?: string;
}

/** The entry the lane returns and `forge-export` prints, one per import. */
export interface ImportLogEntry {
  batch_id: string;
  scope: string;
  status: "imported" | "already_imported";
  imported_at: string;
  recorded_at: string;
  file: string;
  degraded: boolean;
  markers: string[];
  bundle_id: string | null;
  claim_strength: string | null;
  counts: {
    claim_versions: number;
    relation_versions: number;
    episodes: number;
    aliases: number;
    evidence_refs: number;
    trials: number;
  };
  kernel_payload_json: string | null;
}

const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/**
 * Every import in the store, in fold order.
 * @param unreadable the degradation law: given, a file that is not an import record (or whose digest does not hold)
 * is left out and `import:<id>` added here for the caller to name as a marker; absent, such a file throws
 * @throws InvalidFileError for a file that is not an import record (never skipped silently)
 * @example readImportLog(store).map((r) => r.batch_id)
 */
export function readImportLog(store: Store, unreadable?: string[]): ImportRecord[] {
  const marked = <T>(id: string, read: () => T): T | undefined => {
    if (!unreadable) return read();
    try {
      return read();
    } catch (err) {
      if (!(err instanceof InvalidFileError)) throw err;
      unreadable.push(`import:${id}`);
      return undefined;
    }
  };
  const loose: ImportRecord[] = [];
  for (const id of importIds(store)) {
    const r = marked(id, () => readLooseOrPacked(() => readImportRecord(store, id)));
    if (r) loose.push(r);
  }
  // Listed after the loose files were read: one a pack took meanwhile (written before its parts go) is in one of them.
  const packed = packNames(store).flatMap(
    (name) => marked(name.slice(0, -5), () => readPackFile(store, name))?.records ?? []
  );
  return withPacked(loose, packed).sort((a, b) => cmp(a.imported_at, b.imported_at) || cmp(a.batch_id, b.batch_id));
}

/**
 * `read()`, or undefined when its loose file is gone since it was listed (packed meanwhile: `packImports` writes the
 * pack before it removes the parts, so the record is in a pack listed after).
 */
export function readLooseOrPacked<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if ((err as { code?: unknown }).code === "E_NOT_FOUND") return undefined;
    throw err;
  }
}

/**
 * `loose` and the packed records none of them has (a pack and its parts both there: a pack interrupted before it
 * removed them).
 */
export function withPacked<T extends { batch_id: string }>(loose: T[], packed: readonly T[]): T[] {
  if (packed.length === 0) return loose;
  const seen = new Set(loose.map((r) => r.batch_id));
  for (const r of packed) if (!seen.has(r.batch_id)) (seen.add(r.batch_id), loose.push(r));
  return loose;
}

/**
 * A loose import's record as its file holds it (not degraded, as read by readers), when the file is a whole record
 * and nothing is wrong with it; undefined otherwise (a damaged file stays loose, for fsck to name).
 */
export function packableRecord(store: Store, batchId: string): ImportRecord | undefined {
  let bytes: Buffer;
  try {
    const r = readImportFile(store, batchId);
    if (r.damage) return undefined;
    bytes = r.bytes;
  } catch {
    return undefined;
  }
  return JSON.parse(bytes.toString("utf8")) as ImportRecord;
}

/** The schema tag of a pack of import records (`packImports`). */
export const PACK_SCHEMA = "forge-evidence-pack/v1";
const PACK_NAME = /^pack-[0-9a-f]{64}\.json$/;
const PACK_HEAD = Buffer.from('{"pack_sha256":"');
const MAX_PACK_BYTES = 1024 * 1024 * 1024;

/**
 * The pack files of the store (`pack-<pack_sha256>.json`), sorted; none when there is no imports folder.
 * @example packNames(store) // ["pack-3f….json"]
 */
export function packNames(store: Store): string[] {
  let names: string[];
  try {
    names = readdirSync(evidenceImportsDir(store));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return names.filter((n) => PACK_NAME.test(n)).sort(cmp);
}

/**
 * The batch ids this store's packs hold: what a check of whether a batch is here already (forge-merge import's
 * dedupe, `batchesHere`) compares with. A pack that does not read is never skipped silently: a batch it holds can be
 * told neither here nor new.
 * @param damaged the degradation law: given, each pack that does not read is left out and named here (`file`, and
 * `line` as fsck names it: `<file>: <why>`); the caller must then take a batch found nowhere else as possibly in it.
 * Absent, such a pack throws
 * @throws InvalidFileError naming the first pack that does not read (when `damaged` is not given)
 * @example packedBatchIds(store).has(batchId) // the batch is imported already, packed
 */
export function packedBatchIds(store: Store, damaged?: Array<{ file: string; line: string }>): Set<string> {
  const ids = new Set<string>();
  for (const name of packNames(store)) {
    try {
      for (const r of readPackFile(store, name).records) ids.add(r.batch_id);
    } catch (err) {
      if (!damaged || !(err instanceof InvalidFileError)) throw err;
      damaged.push({
        file: displayPath(store, join(evidenceImportsDir(store), name)),
        line: printable(err.message, 300),
      });
    }
  }
  return ids;
}

/** Whether a batch is in this store already (`batchesHere`). */
export type BatchHere = { state: "here" } | { state: "new" } | { state: "unknown"; why: string };

/**
 * Whether each of `batchIds` is in this store already, against its loose files and its packs (forge-merge import's
 * dedupe). A damaged file is never read around: a batch whose loose file does not read (or whose payload is damaged),
 * or that is found nowhere while a pack here does not read (it may hold it), is `unknown` with the line that says why
 * — neither new (a copy would be a duplicate of what the damaged file holds) nor here (what the damaged file says is
 * not taken as known).
 * @returns one state per id, in order, and one line per damaged file met (fsck's `<file>: <why>`), sorted
 * @example batchesHere(store, [id]).states[0].state // "here"
 */
export function batchesHere(store: Store, batchIds: readonly string[]): { states: BatchHere[]; damaged: string[] } {
  const damaged = new Set<string>();
  const loose = batchIds.map((id): BatchHere | undefined => {
    const file = evidenceImportFile(store, id);
    if (!lexists(file)) return undefined;
    try {
      const r = readLooseOrPacked(() => readImportFile(store, id));
      // Gone since it was listed: packed meanwhile, so in a pack read below.
      if (!r) return undefined;
      if (!r.damage) return { state: "here" };
      damaged.add(`${displayPath(store, file)}: ${r.damage}`);
    } catch (err) {
      if (!(err instanceof InvalidFileError)) throw err;
      damaged.add(printable(err.message, 300));
    }
    return { state: "unknown", why: `its file here is damaged: ${displayPath(store, file)}` };
  });
  // Read after the loose files (a pack is written before its parts go: one packed meanwhile is in a pack listed now).
  const bad: Array<{ file: string; line: string }> = [];
  const packed = packedBatchIds(store, bad);
  for (const b of bad) damaged.add(b.line);
  const maybe = bad.length ? `a damaged pack here may hold it: ${bad.map((b) => b.file).join(", ")}` : "";
  const states = loose.map(
    (l, i): BatchHere =>
      l ??
      (packed.has(batchIds[i]!) ? { state: "here" } : bad.length ? { state: "unknown", why: maybe } : { state: "new" })
  );
  return { states, damaged: [...damaged].sort(cmp) };
}

/**
 * The text of a pack of records (in fold order), sealed: canonical JSON whose first field, `pack_sha256`, is the
 * sha256 of the text with its own 64 digits read as `0`s; the file's name is `pack-<pack_sha256>.json`.
 */
export function sealPack(records: readonly ImportRecord[]): { text: string; sha: string } {
  const text = Buffer.from(canonicalJson({ pack_sha256: ZERO, records, schema_version: PACK_SCHEMA }) + "\n");
  const sha = createHash("sha256").update(text).digest("hex");
  text.write(sha, PACK_HEAD.length, "latin1");
  return { text: text.toString("utf8"), sha };
}

/**
 * One pack file, checked: its digest (an edit anywhere in it is found), its schema and each record as a loose
 * file's is (with the degradation law for a record's payload, `damage` naming each record for fsck).
 * @throws InvalidFileError naming the file (and the record, `records[i]`) when it is not a pack
 */
export function readPackFile(store: Store, name: string): { records: ImportRecord[]; damage: string[]; sha: string } {
  const file = join(evidenceImportsDir(store), name);
  const shown = displayPath(store, file);
  const bytes = readStoreBytes(store, file, MAX_PACK_BYTES);
  const damage: string[] = [];
  const records = packRecords(bytes, shown, name).map((rec, i) => {
    const at = `${shown} records[${i}]`;
    const d = degradePayload(rec);
    if (d) damage.push(`records[${i}]: ${d}`);
    return checkRecord(rec, at, rec.batch_id);
  });
  return { records, damage, sha: name.slice(5, 69) };
}

/**
 * A pack of another store (a clone's `.forge/evidence/imports/pack-<sha>.json`, brought in by `forge-merge import`):
 * its digest and schema checked as `readPackFile` checks this store's, and each record as `checkImportRecord` checks a
 * loose one (no degradation law: a record this store would not have written is refused).
 * @param file the file for messages (`<label>/evidence/imports/<name>`)
 * @param name the file's name, `pack-<pack_sha256>.json`
 * @throws InvalidFileError naming `file` (and the record, `records[i]`) and the field
 * @example checkImportPack(bytes, "there/evidence/imports/pack-3f….json", "pack-3f….json").length // its records
 */
export function checkImportPack(bytes: Buffer, file: string, name: string): ImportRecord[] {
  if (!PACK_NAME.test(name)) throw new InvalidFileError(file, "expected pack-<64 hex>.json", "name");
  return packRecords(bytes, file, name).map((rec, i) => checkImportRecord(rec, `${file} records[${i}]`, rec.batch_id));
}

/**
 * The records of a pack's bytes, its digest (an edit anywhere in it is found) and schema checked, each record an
 * object with a batch id (the rest is the caller's to check).
 * @throws InvalidFileError naming `shown` (and the record, `records[i]`)
 */
function packRecords(bytes: Buffer, shown: string, name: string): ImportRecord[] {
  const sha = name.slice(5, 69);
  const copy = Buffer.from(bytes);
  if (
    copy.subarray(0, PACK_HEAD.length).compare(PACK_HEAD) !== 0 ||
    copy.toString("latin1", PACK_HEAD.length, PACK_HEAD.length + 64) !== sha ||
    copy.write(ZERO, PACK_HEAD.length, "latin1") !== 64 ||
    createHash("sha256").update(copy).digest("hex") !== sha
  )
    throw new InvalidFileError(
      shown,
      "does not match the file's bytes or name (edited after it was written)",
      "pack_sha256"
    );
  let v: { schema_version?: unknown; records?: unknown };
  try {
    v = JSON.parse(bytes.toString("utf8")) as typeof v;
  } catch {
    throw new InvalidFileError(shown, "not JSON");
  }
  if (v?.schema_version !== PACK_SCHEMA) throw new InvalidFileError(shown, "expected " + PACK_SCHEMA, "schema_version");
  if (!Array.isArray(v.records)) throw new InvalidFileError(shown, "expected a list", "records");
  return (v.records as ImportRecord[]).map((rec, i) => {
    const at = `${shown} records[${i}]`;
    if (rec === null || typeof rec !== "object" || Array.isArray(rec))
      throw new InvalidFileError(at, "not a JSON object");
    if (typeof rec.batch_id !== "string" || !/^[0-9a-f]{64}$/.test(rec.batch_id))
      throw new InvalidFileError(at, "expected 64 hex", "batch_id");
    return rec;
  });
}

/**
 * The batch ids of the import files (`<64 hex>.json`), in no order; none when there is no imports folder.
 * @example importIds(store).length // the number of imports
 */
export function importIds(store: Store): string[] {
  let names: string[];
  try {
    names = readdirSync(evidenceImportsDir(store));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const out: string[] = [];
  for (const name of names) if (/^[0-9a-f]{64}\.json$/.test(name)) out.push(name.slice(0, 64));
  return out;
}

/**
 * One import file, checked (size capped before reading, a symlink out of the store refused: `readStoreBytes`).
 * @throws NotFoundError when there is no such import; InvalidFileError for a file that is not an import record
 * @example readImportRecord(store, entry.batch_id).kernel_payload
 */
export function readImportRecord(store: Store, batchId: string): ImportRecord {
  return readImportFile(store, batchId).record;
}

/**
 * One import file, checked as `readImportRecord`, with the bytes its record was parsed from.
 * @throws as readImportRecord
 */
export function readImportFile(
  store: Store,
  batchId: string
): { record: ImportRecord; bytes: Buffer; damage?: string } {
  const file = evidenceImportFile(store, batchId);
  const shown = displayPath(store, file);
  const bytes = readStoreBytes(store, file, MAX_IMPORT_BYTES);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new InvalidFileError(shown, "not UTF-8");
  }
  let rec: ImportRecord;
  try {
    rec = JSON.parse(text) as ImportRecord;
  } catch {
    throw new InvalidFileError(shown, "not JSON");
  }
  if (rec === null || typeof rec !== "object" || Array.isArray(rec))
    throw new InvalidFileError(shown, "not a JSON object");
  checkDigest(bytes, rec, shown);
  const damage = degradePayload(rec);
  const record = checkRecord(rec, shown, batchId);
  return damage ? { record, bytes, damage } : { record, bytes };
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The fields of an import record, as every writer since schema v1 wrote them. */
const RECORD_KEYS = new Set([
  "schema_version",
  "batch_id",
  "imported_at",
  "degraded",
  "trials",
  "markers",
  "kernel_payload",
  "trial_episodes",
  "batch",
  "record_sha256",
]);

/**
 * A field no writer wrote is damage (a flipped byte in `record_sha256`'s name would otherwise read as a record of
 * before digests, its edit unseen).
 * @throws InvalidFileError naming the field
 */
function checkKeys(rec: object, shown: string): void {
  const unknown = Object.keys(rec).find((k) => !RECORD_KEYS.has(k));
  if (unknown !== undefined) throw new InvalidFileError(shown, "not a field of an import record", unknown);
}

const DIGEST_KEY = Buffer.from('"record_sha256":"');
const ZERO = "0".repeat(64);

/**
 * The text of an import record as stored, sealed: canonical JSON with
 * `record_sha256`, the sha256 of that text with the digest's 64 digits read
 * as `0`s. Sets `rec.record_sha256`, so `canonicalJson(rec) + "\n"` is the
 * text returned.
 * @example sealRecord(rec) === canonicalJson(rec) + "\n" // true
 */
export function sealRecord(rec: ImportRecord): string {
  const text = Buffer.from(canonicalJson({ ...rec, record_sha256: ZERO }) + "\n");
  const at = text.lastIndexOf(DIGEST_KEY) + DIGEST_KEY.length;
  const digest = createHash("sha256").update(text).digest("hex");
  rec.record_sha256 = digest;
  text.write(digest, at, "latin1");
  return text.toString("utf8");
}

/**
 * A record's digest against the bytes it was parsed from (none: a record of before digests, read as it was).
 * @throws InvalidFileError naming `record_sha256` when the bytes are not the ones sealed
 */
function checkDigest(bytes: Buffer, rec: ImportRecord, shown: string): void {
  const d = rec.record_sha256 as unknown;
  if (d === undefined) return;
  if (typeof d !== "string" || !/^[0-9a-f]{64}$/.test(d))
    throw new InvalidFileError(shown, "expected 64 hex", "record_sha256");
  const i = bytes.lastIndexOf(DIGEST_KEY);
  const at = i + DIGEST_KEY.length;
  const copy = Buffer.from(bytes);
  if (
    i < 0 ||
    copy.toString("latin1", at, at + 64) !== d ||
    copy.write(ZERO, at, "latin1") !== 64 ||
    createHash("sha256").update(copy).digest("hex") !== d
  )
    throw new InvalidFileError(shown, "does not match the file's bytes (edited after it was written)", "record_sha256");
}

/**
 * `checkDigest` for a record given as a value (another store's, `checkImportRecord`): its canonical text is what the
 * writer sealed.
 */
function checkValueDigest(rec: ImportRecord, shown: string): void {
  if (rec.record_sha256 === undefined) return;
  checkDigest(Buffer.from(canonicalJson(rec) + "\n"), rec, shown);
}

/**
 * The degradation law for a stored import's kernel payload (spec/evidence.md,
 * "Reading the log"): garbage where the payload should be, or a null payload
 * its markers do not account for, is read as an import without a payload
 * that carries the marker saying so (`malformed_kernel_payload`,
 * `missing_kernel_payload`; forge-observe names it with the batch), so its
 * trials are never folded as something they are not, never vanish silently,
 * and the rest of the log is read. Changes `rec` in place (as read, never
 * written back).
 * @returns what is wrong with the file (for fsck), or undefined when nothing is
 */
function degradePayload(rec: ImportRecord): string | undefined {
  const k = rec.kernel_payload as unknown;
  let marker: string;
  let damage: string;
  if (k === null || k === undefined) {
    if (Array.isArray(rec.markers) && rec.markers.some((m) => PAYLOAD_MARKERS.includes(m))) return undefined;
    marker = "missing_kernel_payload";
    damage = "field 'kernel_payload': null, and no marker says the import had no payload (its trials are lost)";
  } else if (!isPayload(k)) {
    marker = "malformed_kernel_payload";
    damage = "field 'kernel_payload': expected {claims, trials, relations} of objects or null";
  } else return undefined;
  const markers = Array.isArray(rec.markers) ? rec.markers.filter((m) => typeof m === "string") : [];
  rec.markers = [...new Set([...markers, marker])].sort(cmp);
  rec.degraded = true;
  rec.kernel_payload = null;
  rec.trials = 0;
  return damage;
}

/** Markers that mean an import's kernel payload is unusable. */
export const PAYLOAD_MARKERS = ["missing_kernel_payload", "malformed_kernel_payload"];

const isRecordList = (v: unknown): boolean =>
  Array.isArray(v) && v.every((x) => x !== null && typeof x === "object" && !Array.isArray(x));

function isPayload(k: unknown): boolean {
  if (k === null || typeof k !== "object" || Array.isArray(k)) return false;
  const p = k as Record<string, unknown>;
  return isRecordList(p.claims) && isRecordList(p.trials) && isRecordList(p.relations);
}

/**
 * An import record of another store (a clone's
 * `.forge/evidence/imports/<name>`, brought in by `forge-merge import`),
 * checked as this store's own are when read, and more: the record's
 * fields as the importer writes them, and its batch's shape as the
 * importer checks a batch (`validateBatch`, all but the content hash: the
 * record keeps only what the batch added to its scope there).
 * @param value the file's parsed JSON
 * @param file the file for messages (`<label>/evidence/imports/<name>`)
 * @param name the file's name, which must be `<batch_id>.json`
 * @throws InvalidFileError naming `file` and the field
 * @example checkImportRecord(JSON.parse(text), "there/evidence/imports/3f….json", "3f….json")
 */
export function checkImportRecord(value: unknown, file: string, name: string): ImportRecord {
  const rec = value as ImportRecord;
  if (rec === null || typeof rec !== "object" || Array.isArray(rec))
    throw new InvalidFileError(file, "not a JSON object");
  checkRecord(rec, file, name.replace(/\.json$/, ""));
  // The lane reads no other name (importIds): a record it would never see is refused, not stored.
  if (!/^[0-9a-f]{64}$/.test(rec.batch_id)) throw new InvalidFileError(file, "expected 64 hex", "batch_id");
  if (!isTimestamp(rec.imported_at))
    throw new InvalidFileError(file, "expected an RFC 3339 UTC timestamp", "imported_at");
  if (!Array.isArray(rec.markers) || rec.markers.some((m) => typeof m !== "string")) {
    throw new InvalidFileError(file, "expected a list of strings", "markers");
  }
  const degraded = rec.markers.length > 0;
  if (rec.degraded !== degraded) {
    throw new InvalidFileError(file, `expected ${degraded}: the import's markers say so`, "degraded");
  }
  const trials = rec.kernel_payload ? rec.kernel_payload.trials.length : 0;
  if (rec.trials !== trials)
    throw new InvalidFileError(file, `expected ${trials}: the trials of kernel_payload`, "trials");
  try {
    checkBatchShape(rec.batch);
  } catch (err) {
    if (!(err instanceof InvalidBatchError)) throw err;
    throw new InvalidFileError(file, err.why, err.field === "(batch)" ? "batch" : `batch.${err.field}`);
  }
  if (rec.batch.batch_id !== rec.batch_id) {
    throw new InvalidFileError(file, "does not match the record's batch_id", "batch.batch_id");
  }
  // Last: a field the checks above name is named; any other edit is the digest's.
  checkValueDigest(rec, file);
  return rec;
}

/** What every import file must be to be read at all. */
function checkRecord(rec: ImportRecord, shown: string, batchId: string): ImportRecord {
  checkKeys(rec, shown);
  if (rec?.schema_version !== IMPORT_SCHEMA)
    throw new InvalidFileError(shown, "expected " + IMPORT_SCHEMA, "schema_version");
  if (rec.batch_id !== batchId) throw new InvalidFileError(shown, "does not match the file name", "batch_id");
  if (typeof rec.batch?.scope !== "string") throw new InvalidFileError(shown, "missing", "batch.scope");
  const k = rec.kernel_payload as unknown as Record<string, unknown> | null;
  if (
    k !== null &&
    (typeof k !== "object" || !Array.isArray(k.claims) || !Array.isArray(k.trials) || !Array.isArray(k.relations))
  ) {
    throw new InvalidFileError(shown, "expected {claims, trials, relations} or null", "kernel_payload");
  }
  if (rec.trial_episodes !== "derived" && rec.trial_episodes !== "stored")
    throw new InvalidFileError(shown, "expected derived|stored", "trial_episodes");
  return rec;
}

/**
 * The episodes an import holds: the stored ones and, when derived, one per stored trial.
 * @example episodesOf(record).length // stored episodes + one per stored trial
 */
export function episodesOf(rec: ImportRecord): Episode[] {
  if (rec.trial_episodes !== "derived" || !rec.kernel_payload) return rec.batch.episodes;
  return [...rec.batch.episodes, ...rec.kernel_payload.trials.map(trialEpisode)];
}

/** How many episodes an import holds: those stored, and one per trial when its trial episodes are derived. */
export function episodeCount(rec: ImportRecord): number {
  return (
    rec.batch.episodes.length + (rec.trial_episodes === "derived" && typeof rec.trials === "number" ? rec.trials : 0)
  );
}

/**
 * The log entry of a stored import.
 * @param withPayload false: leave `kernel_payload_json` null (a fold has the payload already)
 * @example entryOf(store, record, "imported").file // ".forge/evidence/imports/<batch_id>.json"
 */
export function entryOf(
  store: Store,
  rec: ImportRecord,
  status: ImportLogEntry["status"],
  withPayload = true
): ImportLogEntry {
  const b = rec.batch;
  const trials = typeof rec.trials === "number" ? rec.trials : 0;
  const payload = !withPayload
    ? null
    : rec.kernel_payload
      ? canonicalJson(rec.kernel_payload)
      : (b.kernel_payload_json ?? null);
  return {
    batch_id: rec.batch_id,
    scope: b.scope,
    status,
    imported_at: rec.imported_at,
    recorded_at: b.recorded_at,
    file: displayPath(store, evidenceImportFile(store, rec.batch_id)),
    degraded: rec.degraded,
    markers: rec.markers,
    bundle_id: b.source?.bundle_id ?? null,
    claim_strength: b.source?.claim_strength ?? null,
    counts: {
      claim_versions: b.claim_versions.length,
      relation_versions: b.relation_versions.length,
      episodes: episodeCount(rec),
      aliases: b.aliases.length,
      evidence_refs: b.evidence_refs.length,
      trials,
    },
    kernel_payload_json: payload,
  };
}
