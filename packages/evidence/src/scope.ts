/**
 * A scope's state: the fold of its imports in order. Imports hold only
 * what they add, so the fold concatenates; the kernel payloads of imports
 * whose payload was missing or malformed contribute nothing.
 */
import type { Store } from "@forge/core";
import { canonicalJson, cmp, KERNEL_SCHEMA, type KernelBatch } from "@forge/kernel";
import type { ProjectionClaimVersion, ProjectionRelationVersion } from "./batch.js";
import type { Alias, Episode, EvidenceRef } from "./bundle.js";
import {
  entryOf,
  episodeCount,
  episodesOf,
  type ImportLogEntry,
  type ImportRecord,
  PAYLOAD_MARKERS,
  readImportLog,
} from "./import_log.js";
import { trialEpisode } from "./trial_episode.js";

/** Everything known about a scope. Lists are sorted by id. */
export interface ScopeState {
  scope: string;
  /**
   * Its imports, in fold order (the last is the latest); their `kernel_payload_json` is null here (the payload is
   * folded into `kernel`; `latestImport` gives it); empty when read with `{entries: false}`.
   */
  imports: ImportLogEntry[];
  claim_versions: ProjectionClaimVersion[];
  relation_versions: ProjectionRelationVersion[];
  /** Empty when read with `{episodes: false}`; `episode_count` is always right. */
  episodes: Episode[];
  episode_count: number;
  aliases: Alias[];
  evidence_refs: EvidenceRef[];
  /** The folded kernel payload, for `compile`. */
  kernel: KernelBatch;
  /** Every import's degradation markers, sorted, unique. */
  markers: string[];
}

export { PAYLOAD_MARKERS };

/** Options of `readScope`. */
export interface ReadScopeOptions {
  /** The import log, when the caller has read it already. */
  records?: ImportRecord[];
  /** false: skip materialising the episodes (a fold for beliefs needs only their count). Default true. */
  episodes?: boolean;
  /**
   * Materialise only the episodes with these ids (an import checks its own
   * episodes against the scope's, never all 10,000 trial episodes). The
   * list is then exactly the full list's members with those ids.
   */
  episodeIds?: ReadonlySet<string>;
  /** false: leave `imports` empty (an import, or a compile of the fold, reads no entry). Default true. */
  entries?: boolean;
}

/**
 * Fold a scope's imports.
 * @example compileScope(readScope(store, "default"))
 */
export function readScope(store: Store, scope: string, opts: ReadScopeOptions = {}): ScopeState {
  const records = opts.records ?? readImportLog(store);
  const withEpisodes = opts.episodes ?? true;
  const st: ScopeState = {
    scope,
    imports: [],
    claim_versions: [],
    relation_versions: [],
    episodes: [],
    episode_count: 0,
    aliases: [],
    evidence_refs: [],
    kernel: { schema_version: KERNEL_SCHEMA, claims: [], trials: [], relations: [] },
    markers: [],
  };
  const markers = new Set<string>();
  // The trials whose episodes are wanted, by trial id (most imports want none: no trial is looked at).
  const wantedTrials =
    opts.episodeIds && new Set([...opts.episodeIds].filter((id) => id.startsWith("trial:")).map((id) => id.slice(6)));
  for (const rec of records) {
    const b = rec.batch;
    if (b.scope !== scope) continue;
    if (opts.entries ?? true) st.imports.push(entryOf(store, rec, "imported", false));
    st.episode_count += episodeCount(rec);
    for (const m of rec.markers) markers.add(m);
    push(st.claim_versions, b.claim_versions);
    push(st.relation_versions, b.relation_versions);
    if (withEpisodes && opts.episodeIds) pushWanted(st.episodes, rec, opts.episodeIds, wantedTrials!);
    else if (withEpisodes) push(st.episodes, episodesOf(rec));
    push(st.aliases, b.aliases);
    push(st.evidence_refs, b.evidence_refs);
    if (rec.markers.some((m) => PAYLOAD_MARKERS.includes(m))) continue;
    const k = rec.kernel_payload;
    if (!k) continue;
    push(st.kernel.claims, k.claims);
    push(st.kernel.trials, k.trials);
    push(st.kernel.relations, k.relations);
  }
  // Imports made apart (two clones, two processes) can both hold a row; the fold keeps it once, first in fold order.
  // A claim version restated elsewhere (another bundle, a later time) is the same version.
  st.claim_versions = rows(
    st.claim_versions,
    (c) => c.claim_version_id,
    ({ bundle_id: _b, strength: _s, recorded_at: _r, ...c }) => c
  );
  st.relation_versions = rows(st.relation_versions, (r) => r.relation_id);
  st.episodes = rows(st.episodes, (e) => e.episode_id);
  st.aliases = rows(st.aliases, (a) => `${a.alias}\u0000${a.claim_id}`);
  st.evidence_refs = rows(st.evidence_refs, (r) => r.ref_id);
  st.markers = [...markers].sort(cmp);
  return st;
}

/**
 * A kernel payload's lists, or null when it is not JSON of the kernel schema.
 * @example parsePayload("{not json") // null
 */
export function parsePayload(json: string): KernelBatch | null {
  let k: unknown;
  try {
    k = JSON.parse(json);
  } catch {
    return null;
  }
  const o = k as Record<string, unknown>;
  if (k === null || typeof k !== "object" || Array.isArray(k) || o.schema_version !== KERNEL_SCHEMA) return null;
  const list = (x: unknown): unknown[] | null => (x === undefined ? [] : Array.isArray(x) ? x : null);
  const claims = list(o.claims);
  const trials = list(o.trials);
  const relations = list(o.relations);
  if (!claims || !trials || !relations) return null;
  return { schema_version: KERNEL_SCHEMA, claims, trials, relations } as KernelBatch;
}

/**
 * Sorted by key (stable: fold order among equal keys); a row equal in content to an earlier one of its key is dropped.
 */
function rows<T>(xs: T[], key: (x: T) => string, content: (x: T) => unknown = (x) => x): T[] {
  const keyed = xs.map((x) => ({ k: key(x), x }));
  keyed.sort((a, b) => cmp(a.k, b.k));
  const out: T[] = [];
  let run: Array<{ k: string; x: T }> = [];
  for (const r of keyed) {
    if (run.length > 0 && run[0]!.k !== r.k) run = [];
    // Content is compared only when keys collide (rare), never for every row.
    if (run.some((p) => canonicalJson(content(p.x)) === canonicalJson(content(r.x)))) continue;
    run.push(r);
    out.push(r.x);
  }
  return out;
}

/**
 * `episodesOf(rec)` restricted to `ids`, in the same order, without deriving a trial episode that is not wanted.
 * @param trials the trial ids of the `trial:<id>` episodes among `ids`
 */
function pushWanted(to: Episode[], rec: ImportRecord, ids: ReadonlySet<string>, trials: ReadonlySet<string>): void {
  for (const e of rec.batch.episodes) if (ids.has(e.episode_id)) to.push(e);
  if (rec.trial_episodes !== "derived" || !rec.kernel_payload || trials.size === 0) return;
  for (const t of rec.kernel_payload.trials) if (trials.has(String(t.trial_id))) to.push(trialEpisode(t));
}

function push<T>(to: T[], from: readonly T[] | undefined): void {
  if (from) for (const x of from) to.push(x);
}
