/** The `observation` header line: the base, the scope's health, the current markers, counts and configuration. */
import {
  type DegradationLine,
  type IssueLine,
  type NodeLine,
  OBSERVATION_SCHEMA,
  type ObservationHeader,
  type SyndromeLine,
  type UnverifiedLine,
} from "@forge/contract";
import type { KernelView } from "@forge/evidence";
import { cmp } from "@forge/kernel";
import type { ObserveConfig, ObserveInputs } from "../inputs.js";

/** The lines the header counts. */
export interface HeaderOf {
  nodes: readonly NodeLine[];
  /** The ids of current claims. */
  current: ReadonlySet<string>;
  syndromes: readonly SyndromeLine[];
  issues: readonly IssueLine[];
  degradations: readonly DegradationLine[];
  unverified: readonly UnverifiedLine[];
}

/** The header line. */
export function headerLine(
  inputs: ObserveInputs,
  view: KernelView,
  cfg: ObserveConfig,
  of: HeaderOf
): ObservationHeader {
  const { state, base } = inputs;
  const { nodes, syndromes, degradations } = of;
  const activeSyndromes = syndromes.filter((s) => s.active).length;
  const fragile = nodes.filter((nd) => nd.current && nd.verdict === "flaky" && !nd.flake_rate!.decided).length;
  const lastImport = state.imports.reduce<string | null>(
    (m, imp) => (m === null || imp.imported_at > m ? imp.imported_at : m),
    null
  );
  return {
    kind: "observation",
    schema_version: OBSERVATION_SCHEMA,
    scope: inputs.scope,
    base_ref: base.ref,
    base_sha: base.sha,
    base_tree: base.tree,
    health: {
      total_claim_versions: state.claim_versions.length,
      total_relation_versions: state.relation_versions.length,
      total_episodes: state.episode_count,
      fragile_node_count: fragile,
      syndrome_count: activeSyndromes,
      degradation_count: degradations.length,
      unverified_claim_count: of.unverified.length,
      supersession_candidate_count:
        inputs.prs.filter((p) => p.state === "open" && p.previousPatchSha256.length > 0).length +
        state.claim_versions.filter((c) => c.supersedes_claim_version_id !== null).length,
      last_import_at: lastImport,
    },
    markers: degradations.map((d) => d.marker),
    counts: {
      imports: state.imports.length,
      claims: nodes.length,
      current_claims: of.current.size,
      trials: view.trials,
      syndromes: syndromes.length,
      active_syndromes: activeSyndromes,
      runs: inputs.runs.length,
      unexported_runs: degradations.filter((d) => d.marker.startsWith("unexported_run:")).length,
      prs: inputs.prs.length,
      open_prs: inputs.prs.filter((p) => p.state === "open").length,
      closed_issues: of.issues.length,
      merges: inputs.merges.length,
    },
    config: {
      precision_micros: cfg.precision_micros,
      fragile_threshold_micros: view.fragile_threshold_micros,
      min_trials: view.min_trials,
      fixed_labels: [...cfg.fixed_labels].sort(cmp),
    },
    oracles: { conservative: { bound_reached: view.conservative.bound_reached, refused: view.conservative.refused } },
  };
}
