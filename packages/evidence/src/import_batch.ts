/**
 * importProjectionBatch(): the last step of the lane and the only writer of
 * `.forge/evidence/`. Validates the batch, is idempotent by batch id, keeps
 * only what the batch adds to its scope, marks degradation (no kernel
 * payload, a malformed one, dangling relations, anything else the kernel
 * marks that this batch brought in), writes one new file atomically and
 * returns the import-log entry.
 */
import {
  atomicWrite,
  evidenceImportFile,
  evidenceImportsDir,
  formatTimestamp,
  mkdirInside,
  type Store,
} from "@forge/core";
import {
  canonicalJson,
  cmp,
  type Compiled,
  compile,
  extendCompiled,
  KERNEL_SCHEMA,
  type KernelBatch,
  type KernelConfig,
  trialIdsOf,
} from "@forge/kernel";
import { type ProjectionImportBatchV3, validateBatch } from "./batch.js";
import {
  entryOf,
  IMPORT_SCHEMA,
  type ImportLogEntry,
  type ImportRecord,
  readImportLog,
  readImportRecord,
  sealRecord,
} from "./import_log.js";
import { parsePayload, readScope } from "./scope.js";
import type { Episode } from "./bundle.js";
import { trialEpisode } from "./trial_episode.js";

/** Options of `importProjectionBatch`. */
export interface ImportOptions {
  /** The clock (injectable for tests). */
  now?: () => Date;
  /** Kernel config for the degradation check. */
  config?: Partial<KernelConfig>;
  /**
   * The import log as the caller last read it (`readImportLog`), to import
   * many batches without re-reading the log each time. This call keeps it
   * current: a new import is inserted in fold order.
   */
  records?: ImportRecord[];
}

/**
 * Import a batch into the store.
 * @returns the entry; `status: "already_imported"` (and nothing written) when the batch id is in the log
 * @throws InvalidBatchError for a batch that breaks the schema (nothing written)
 * @example importProjectionBatch(store, transformEnvelopeV3(exportBundle(bundle, producer)))
 */
export function importProjectionBatch(store: Store, batch: unknown, opts: ImportOptions = {}): ImportLogEntry {
  const b = validateBatch(batch);
  const log = opts.records ?? readImportLog(store);
  const prior = log.find((r) => r.batch_id === b.batch_id);
  if (prior) return entryOf(store, prior, "already_imported");
  const markers = new Set<string>();
  let payload: KernelBatch | null = null;
  if (b.kernel_payload_json === null || b.kernel_payload_json === undefined || b.kernel_payload_json === "")
    markers.add("missing_kernel_payload");
  else if (!(payload = parsePayload(b.kernel_payload_json))) markers.add("malformed_kernel_payload");
  // The scope's episodes are compared only with the batch's own and with the payload's trials (fresh, derivable): only
  // those ids are read.
  const episodeIds = new Set(b.episodes.map((e) => e.episode_id));
  for (const t of payload?.trials ?? []) episodeIds.add(`trial:${String((t as { trial_id?: unknown }).trial_id)}`);
  const state = readScope(store, b.scope, { records: log, episodeIds, entries: false });
  // The scope's kernel records by id; with the caller's log, kept for its next import (a pipe of runs lists them once).
  const index = (opts.records && kept(opts.records, b.scope)?.index) ?? indexOf(state.kernel);
  const added = payload ? newKernel(index, payload) : null;
  let after: Compiled | null = null;
  // Nothing new for the kernel (an act result without trials, a restated payload): the scope compiles as before, so no
  // marker is new.
  if (added && added.claims.length + added.trials.length + added.relations.length > 0) {
    // Markers the kernel gives the scope with `added` that it did not give without it. Only new trials (a rerun's):
    // the fold compiled before, with them put in; anything else is compiled whole.
    const prior = lastFold(opts, b.scope) ?? compile(state.kernel, opts.config);
    const before = new Set(prior.markers);
    after =
      extendCompiled(prior, added) ??
      compile(
        {
          ...state.kernel,
          claims: [...state.kernel.claims, ...added.claims],
          trials: [...state.kernel.trials, ...added.trials],
          relations: [...state.kernel.relations, ...added.relations],
        },
        opts.config
      );
    for (const m of after.markers) if (!before.has(m)) markers.add(m);
  }
  const known = new Set([...state.claim_versions.map((c) => c.claim_id), ...b.claim_versions.map((c) => c.claim_id)]);
  for (const r of b.relation_versions)
    if (!known.has(r.from) || !known.has(r.to)) markers.add(`dangling_ref:relation_version:${r.relation_id}`);
  // Trial episodes that are exactly the projection of the added trials are derived on read, not stored.
  const episodes = fresh(state.episodes, b.episodes, (e) => e.episode_id);
  const derived = added !== null && derivable(added, episodes, state.episodes);
  const derivedIds = new Set(derived ? added!.trials.map((t) => `trial:${t.trial_id}`) : []);
  const storedEpisodes = episodes.filter((e) => !derivedIds.has(e.episode_id));
  const stored: ProjectionImportBatchV3 = {
    ...b,
    // A claim version already stated is not added again: when and by which bundle it was restated is provenance, not
    // content.
    claim_versions: fresh(
      state.claim_versions,
      b.claim_versions,
      (c) => c.claim_version_id,
      ({ bundle_id: _b, strength: _s, recorded_at: _r, ...c }) => c
    ),
    relation_versions: fresh(state.relation_versions, b.relation_versions, (r) => r.relation_id),
    episodes: storedEpisodes,
    aliases: fresh(state.aliases, b.aliases, (a) => `${a.alias}\u0000${a.claim_id}`),
    evidence_refs: fresh(state.evidence_refs, b.evidence_refs, (r) => r.ref_id),
    kernel_payload_json: added ? null : (b.kernel_payload_json ?? null),
  };
  const rec: ImportRecord = {
    schema_version: IMPORT_SCHEMA,
    batch_id: b.batch_id,
    imported_at: formatTimestamp(opts.now?.() ?? new Date()),
    degraded: markers.size > 0,
    trials: added ? added.trials.length : 0,
    markers: [...markers].sort(cmp),
    kernel_payload: added,
    trial_episodes: derived ? "derived" : "stored",
    batch: stored,
  };
  // SEC-02: the imports folder must resolve inside the store (a symlinked evidence/ pointing elsewhere is refused).
  mkdirInside(store, evidenceImportsDir(store));
  try {
    atomicWrite(evidenceImportFile(store, b.batch_id), sealRecord(rec), { exclusive: true });
  } catch (err) {
    // Another process imported the same batch since `log` was read: that import's entry, from its one file.
    if ((err as NodeJS.ErrnoException).code === "EEXIST")
      return entryOf(store, readImportRecord(store, b.batch_id), "already_imported");
    throw err;
  }
  if (opts.records) {
    // The scope's kernel is now what was compiled as `after` (unchanged when nothing was added): the next import's
    // "before".
    // Wherever the import goes in fold order: the kernel compiles a batch in any order the same.
    const fold = after ?? lastFold(opts, b.scope);
    insertInOrder(opts.records, rec);
    if (added) addTo(index, added);
    if (fold)
      FOLDS.set(opts.records, {
        scope: b.scope,
        size: opts.records.length,
        config: opts.config,
        compiled: fold,
        index,
      });
    else FOLDS.delete(opts.records);
  }
  return entryOf(store, rec, "imported");
}

/**
 * Bring in an import of another store (a clone's, by `forge-merge
 * import`), checked first by `checkImportRecord`: idempotent by batch id
 * (a batch imported here already: that import's entry, nothing written);
 * else the record is written as this lane writes its own — canonical JSON,
 * an exclusive create inside the store — and keeps its own `imported_at`:
 * the log is the union of the clones' logs.
 * @returns the entry, `status: "already_imported"` when nothing was written
 * @throws InvalidFileError when the imports folder is refused (SEC-02), or the one here for this batch is not a record
 * @example importForeignRecord(store, checkImportRecord(JSON.parse(text), file, name)).status // "imported"
 */
export function importForeignRecord(store: Store, rec: ImportRecord): ImportLogEntry {
  mkdirInside(store, evidenceImportsDir(store));
  try {
    atomicWrite(evidenceImportFile(store, rec.batch_id), canonicalJson(rec) + "\n", { exclusive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Imported here since the caller looked: this store's import of the batch.
    return entryOf(store, readImportRecord(store, rec.batch_id), "already_imported");
  }
  return entryOf(store, rec, "imported");
}

/**
 * Give the imports made with `records` the fold of `scope` as `records`
 * hold it now, compiled with `config` (a lane compiles it while it waits
 * for its first record): the first import does not compile it, and one of
 * new trials only puts them in (`extendCompiled`). With `kernel`, the
 * fold's kernel records (readScope's), they are listed by id too: an
 * import finds what its payload restates among them by id, not by a pass
 * over all of them.
 */
export function primeFold(
  records: ImportRecord[],
  scope: string,
  compiled: Compiled,
  config?: Partial<KernelConfig>,
  kernel?: KernelBatch
): void {
  FOLDS.set(records, { scope, size: records.length, config, compiled, index: kernel && indexOf(kernel) });
  // What extendCompiled checks new trials against, listed now (the caller is waiting).
  trialIdsOf(compiled);
}

/**
 * The scope's fold as `records` hold it, compiled with `config`, when the
 * last import made with `records` compiled it (it added kernel records, or
 * added none after one that did, or after `primeFold`); else null.
 */
export function foldCompiled(records: ImportRecord[], scope: string, config?: Partial<KernelConfig>): Compiled | null {
  const m = kept(records, scope);
  return m && m.config === config ? m.compiled : null;
}

// --- internal ---

/**
 * Per caller's log (`opts.records`): a scope's fold as that log holds it,
 * compiled, after the last import made with it. A pipe of imports then
 * compiles the scope once, not twice per import. Valid only while the log
 * is exactly as that import left it (same length: this module is the only
 * one that inserts).
 */
const FOLDS = new WeakMap<
  ImportRecord[],
  { scope: string; size: number; config: Partial<KernelConfig> | undefined; compiled: Compiled; index?: KernelIndex }
>();

function lastFold(opts: ImportOptions, scope: string): Compiled | null {
  return opts.records ? foldCompiled(opts.records, scope, opts.config) : null;
}

/** What the last import made with `records` (or `primeFold`) kept of `scope`, while the log is as it left it. */
function kept(
  records: ImportRecord[],
  scope: string
): { compiled: Compiled; config: Partial<KernelConfig> | undefined; index?: KernelIndex } | undefined {
  const m = FOLDS.get(records);
  return m && m.scope === scope && m.size === records.length ? m : undefined;
}

/** A fold's kernel records by id (claims by version id). */
interface KernelIndex {
  claims: Map<string, KernelBatch["claims"]>;
  trials: Map<string, KernelBatch["trials"]>;
  relations: Map<string, KernelBatch["relations"]>;
}

const claimKey = (c: unknown): string => String((c as { claim_version_id?: unknown }).claim_version_id);
const trialKey = (t: unknown): string => String((t as { trial_id?: unknown }).trial_id);
const relationKey = (r: unknown): string => String((r as { relation_id?: unknown }).relation_id);

function indexOf(k: KernelBatch): KernelIndex {
  const ix: KernelIndex = { claims: new Map(), trials: new Map(), relations: new Map() };
  addTo(ix, k);
  return ix;
}

function addTo(ix: KernelIndex, k: KernelBatch): void {
  const put = <T>(m: Map<string, T[]>, xs: readonly T[], key: (x: T) => string): void => {
    for (const x of xs) {
      const l = m.get(key(x));
      if (l) l.push(x);
      else m.set(key(x), [x]);
    }
  };
  put(ix.claims, k.claims, claimKey);
  put(ix.trials, k.trials, trialKey);
  put(ix.relations, k.relations, relationKey);
}

/** Insert `rec` into a log sorted by (imported_at, batch_id). */
function insertInOrder(log: ImportRecord[], rec: ImportRecord): void {
  let i = log.length;
  while (i > 0 && (cmp(log[i - 1]!.imported_at, rec.imported_at) || cmp(log[i - 1]!.batch_id, rec.batch_id)) > 0) i--;
  log.splice(i, 0, rec);
}

/**
 * Whether every added trial's episode is in `episodes` exactly as `trialEpisode()` gives it, and none is in the scope
 * yet.
 */
function derivable(added: KernelBatch, episodes: readonly Episode[], scope: readonly Episode[]): boolean {
  if (added.trials.length === 0) return false;
  const have = new Map(episodes.map((e) => [e.episode_id, e]));
  const inScope = new Set(scope.map((e) => e.episode_id));
  return added.trials.every((t) => {
    const e = trialEpisode(t);
    const h = have.get(e.episode_id);
    return !inScope.has(e.episode_id) && h !== undefined && sameEpisode(h, e);
  });
}

/** Field-by-field equality of two episodes (what canonicalJson equality would say, without serialising). */
function sameEpisode(a: Episode, b: Episode): boolean {
  if (
    a.episode_id !== b.episode_id ||
    a.kind !== b.kind ||
    a.claim_id !== b.claim_id ||
    a.outcome !== b.outcome ||
    a.recorded_at !== b.recorded_at
  )
    return false;
  const ka = Object.keys(a.detail ?? {}).filter((k) => a.detail[k] !== undefined);
  const kb = Object.keys(b.detail ?? {}).filter((k) => b.detail[k] !== undefined);
  if (ka.length !== kb.length || Object.keys(a).length !== Object.keys(b).length) return false;
  return ka.every((k) => a.detail[k] === b.detail[k]);
}

/** The records of `payload` that the scope (its kernel records by id) does not already hold (same id and content). */
function newKernel(scope: KernelIndex, payload: KernelBatch): KernelBatch {
  return {
    schema_version: KERNEL_SCHEMA,
    claims: freshById(scope.claims, payload.claims, claimKey, withoutRecordedAt),
    trials: freshById(scope.trials, payload.trials, trialKey),
    relations: freshById(scope.relations, payload.relations, relationKey),
  };
}

/** `xs` without the ones `have` (by key) already holds with the same content (or the same `content(x)`). */
function freshById<T>(
  have: ReadonlyMap<string, readonly T[]>,
  xs: readonly T[],
  key: (x: T) => string,
  content: (x: T) => unknown = (x) => x
): T[] {
  return xs.filter((x) => {
    const same = have.get(key(x));
    if (!same) return true;
    const c = canonicalJson(content(x));
    return !same.some((h) => canonicalJson(content(h)) === c);
  });
}

/** A claim version's content without the time it was (re)stated. */
function withoutRecordedAt(c: unknown): unknown {
  if (c === null || typeof c !== "object") return c;
  const { recorded_at: _r, ...rest } = c as Record<string, unknown>;
  return rest;
}

/** `xs` without the ones `have` already holds with the same content (or the same `content(x)`). */
function fresh<T>(
  have: readonly T[],
  xs: readonly T[],
  key: (x: T) => string,
  content: (x: T) => unknown = (x) => x
): T[] {
  if (have.length === 0 || xs.length === 0) return [...xs];
  const wanted = new Set(xs.map(key));
  const byKey = new Map<string, T[]>();
  for (const h of have) {
    const k = key(h);
    if (!wanted.has(k)) continue;
    const l = byKey.get(k);
    if (l) l.push(h);
    else byKey.set(k, [h]);
  }
  return freshById(byKey, xs, key, content);
}
