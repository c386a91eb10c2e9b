/**
 * The public queries over the import log — what `forge-observe` uses. No
 * other package reads `.forge/evidence/` directly.
 */
import type { Store } from "@forge/core";
import { assess, type Assessment, compile, type Compiled, type KernelConfig } from "@forge/kernel";
import type { ProjectionClaimVersion, ProjectionRelationVersion } from "./batch.js";
import type { Episode, EvidenceRef } from "./bundle.js";
import { entryOf, type ImportLogEntry, readImportLog } from "./import_log.js";
import { readScope, type ScopeState } from "./scope.js";

/** Scope health counts (forge-pilot §5.3). */
export interface ScopeHealthSummary {
  total_claim_versions: number;
  total_relation_versions: number;
  total_episodes: number;
  fragile_node_count: number;
  syndrome_count: number;
  degradation_count: number;
  /** Claims with no counted trial and no belief from supports. */
  unverified_claim_count: number;
  /** Claim versions that say they supersede another. */
  supersession_candidate_count: number;
  last_import_at: string | null;
}

/**
 * The latest import of a scope, or null when it has none.
 * @example latestImport(store, "default")?.batch_id
 */
export function latestImport(store: Store, scope: string): ImportLogEntry | null {
  const recs = readImportLog(store).filter((r) => r.batch.scope === scope);
  const last = recs[recs.length - 1];
  return last ? entryOf(store, last, "imported") : null;
}

/**
 * Every import of a scope (or of all scopes), in fold order.
 * @example listImports(store).length
 */
export function listImports(store: Store, scope?: string): ImportLogEntry[] {
  return readImportLog(store)
    .filter((r) => scope === undefined || r.batch.scope === scope)
    .map((r) => entryOf(store, r, "imported"));
}

/**
 * A scope's claim versions, sorted by version id.
 * @example claimVersions(store, "default").map((c) => c.claim_id)
 */
export function claimVersions(store: Store, scope: string): ProjectionClaimVersion[] {
  return readScope(store, scope).claim_versions;
}

/**
 * A scope's relation versions, sorted by id.
 * @example relationVersions(store, "default").map((r) => [r.from, r.to])
 */
export function relationVersions(store: Store, scope: string): ProjectionRelationVersion[] {
  return readScope(store, scope).relation_versions;
}

/**
 * A scope's episodes (trials and other events), sorted by id.
 * @example episodes(store, "default").filter((e) => e.kind === "merge")
 */
export function episodes(store: Store, scope: string): Episode[] {
  return readScope(store, scope).episodes;
}

/**
 * A scope's evidence refs, sorted by id.
 * @example evidenceRefs(store, "default").map((r) => r.path)
 */
export function evidenceRefs(store: Store, scope: string): EvidenceRef[] {
  return readScope(store, scope).evidence_refs;
}

/**
 * The folded kernel payload of a scope, compiled.
 * @example assess(compileScope(readScope(store, "default")))
 */
export function compileScope(state: ScopeState, config: Partial<KernelConfig> = {}): Compiled {
  return compile(state.kernel, config);
}

/**
 * Scope health counts from a folded scope.
 * @param assessment the kernel's report (default: compiled and assessed here)
 * @example scopeHealth(readScope(store, "default")).syndrome_count
 */
export function scopeHealth(
  state: ScopeState,
  config: Partial<KernelConfig> = {},
  assessment?: Assessment
): ScopeHealthSummary {
  const a = assessment ?? assess(compileScope(state, config));
  const markers = new Set([...state.markers, ...a.markers]);
  return {
    total_claim_versions: state.claim_versions.length,
    total_relation_versions: state.relation_versions.length,
    total_episodes: state.episode_count,
    fragile_node_count: a.counts.fragile,
    syndrome_count: a.counts.syndromes,
    degradation_count: markers.size,
    unverified_claim_count: a.nodes.filter((n) => n.belief_micros === null || (n.mode === "trials" && n.trials.n === 0))
      .length,
    supersession_candidate_count: state.claim_versions.filter((c) => c.supersedes_claim_version_id !== null).length,
    last_import_at: state.imports.length > 0 ? state.imports[state.imports.length - 1]!.imported_at : null,
  };
}
