/**
 * assess(): the report a consumer reads. Per node: belief, trial counts,
 * fragility (below the threshold, mixed pass/fail at one tree, or a pass
 * on retry), the calibration caveat (fewer than `min_trials` trials).
 * Across the graph: syndromes (two or more failed trials with one
 * signature), infrastructure runs and degradation markers. Plain data in a
 * fixed key order, sorted by id.
 */
import { type Beliefs, evaluate, trialStats, type TrialStats } from "./beliefs.js";
import { cmp } from "./cmp.js";
import type { Compiled, CompiledNode } from "./compile.js";
import { schedule, type Scheduled } from "./schedule.js";

/** One node in the report. */
export interface NodeReport {
  id: string;
  kind: string;
  claim_version_id: string;
  mode: string;
  belief_micros: number | null;
  trials: TrialStats;
  fragile: boolean;
  /** `below_threshold`, `mixed_outcomes`, `flaky_retry`. */
  fragile_reasons: string[];
  /** Fewer trials than `min_trials`: calibration caveat, abstain. */
  caveat: boolean;
  superseded_by: string[];
}

/** Failed trials sharing one signature. */
export interface Syndrome {
  signature: string;
  trials: number;
  claims: string[];
}

/** The whole report. */
export interface Assessment {
  nodes: NodeReport[];
  syndromes: Syndrome[];
  markers: string[];
  infra_runs: string[];
  order: string[];
  blocked: string[];
  counts: { nodes: number; fragile: number; caveats: number; syndromes: number; markers: number };
}

/**
 * One node's report, from its belief.
 * @example nodeReport(node, compiled, beliefs.get(node.id) ?? null).fragile_reasons
 */
export function nodeReport(n: CompiledNode, compiled: Compiled, belief: number | null): NodeReport {
  const st = trialStats(n, compiled);
  const reasons: string[] = [];
  if (belief !== null) {
    if (belief < compiled.config.fragile_threshold_micros) reasons.push("below_threshold");
    if (n.mode === "trials" && st.s > 0 && st.f > 0) reasons.push("mixed_outcomes");
    if (n.mode === "trials" && st.flaky > 0) reasons.push("flaky_retry");
  }
  return {
    id: n.id,
    kind: n.kind,
    claim_version_id: n.version.claim_version_id,
    mode: n.mode,
    belief_micros: belief,
    trials: st,
    fragile: reasons.length > 0,
    fragile_reasons: reasons,
    caveat: n.mode === "trials" && st.n < compiled.config.min_trials,
    superseded_by: n.superseded_by,
  };
}

/**
 * The graph's syndromes: counted failed trials (infrastructure ones left out) sharing a signature, two or more, sorted
 * by signature.
 * @example syndromesOf(compile(batch))[0]?.claims
 */
export function syndromesOf(compiled: Compiled): Syndrome[] {
  const sigs = new Map<string, { trials: number; claims: Set<string> }>();
  for (const n of compiled.nodes) {
    for (const t of n.trials) {
      if (t.outcome !== "fail" || t.signature === null || compiled.infra_trials.has(t.trial_id)) continue;
      let s = sigs.get(t.signature);
      if (!s) sigs.set(t.signature, (s = { trials: 0, claims: new Set() }));
      s.trials++;
      s.claims.add(n.id);
    }
  }
  return [...sigs.entries()]
    .filter(([, s]) => s.trials >= 2)
    .sort(([a], [b]) => cmp(a, b))
    .map(([signature, s]) => ({ signature, trials: s.trials, claims: [...s.claims].sort(cmp) }));
}

/**
 * Report on a compiled graph.
 * @param scheduled defaults to `schedule(compiled)`
 * @param beliefs defaults to `evaluate(compiled, scheduled)`
 * @example assess(compile(batch)).syndromes // [{signature, trials: 2, claims: [...]}]
 */
export function assess(
  compiled: Compiled,
  scheduled: Scheduled = schedule(compiled),
  beliefs: Beliefs = evaluate(compiled, scheduled)
): Assessment {
  const nodes = compiled.nodes.map((n) => nodeReport(n, compiled, beliefs.get(n.id) ?? null));
  const syndromes = syndromesOf(compiled);
  return {
    nodes,
    syndromes,
    markers: compiled.markers,
    infra_runs: compiled.infra_runs,
    order: scheduled.order,
    blocked: scheduled.blocked,
    counts: {
      nodes: nodes.length,
      fragile: nodes.filter((n) => n.fragile).length,
      caveats: nodes.filter((n) => n.caveat).length,
      syndromes: syndromes.length,
      markers: compiled.markers.length,
    },
  };
}
