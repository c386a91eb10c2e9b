/**
 * compile(batch): validate a kernel batch and build its graph. Problems are
 * marked, never repaired: a bad record is dropped with a marker, a relation
 * to a claim the batch does not state is dangling, a support cycle leaves
 * its nodes without a belief. Only what the batch states exists; no joint
 * group is inferred.
 */
import { canonicalJson } from "./canonical_json.js";
import { CLAIM_KINDS, type ClaimVersion, DEFAULT_CONFIG, KERNEL_SCHEMA, type KernelConfig, type Relation, type Trial } from "./model.js";
import { supportCycles } from "./_cycles.js";
import { isInvalid, validateClaim, validateRelation, validateTrial } from "./validate.js";

/** One support of a node: the relation and the claim it comes from. */
export interface SupportMember {
  relation_id: string;
  from: string;
}

/** A term of a node's support: one ungrouped support, or a joint group ("all of these"). */
export interface Term {
  /** `rel:<relation_id>` or `group:<group>`. */
  id: string;
  group: string | null;
  members: SupportMember[];
}

/** Where a node's belief comes from. `none`: nowhere (missing semantics, unknown kind). */
export type BeliefMode = "trials" | "supports" | "none";

/** A claim in the compiled graph. */
export interface CompiledNode {
  id: string;
  kind: string;
  /** The current version (latest `recorded_at`, then version id). */
  version: ClaimVersion;
  /** Every version id stated, sorted. */
  versions: string[];
  /** Its trials, sorted by (recorded_at, trial_id). */
  trials: Trial[];
  /** Support terms, sorted by term id. */
  terms: Term[];
  /** Claims this node supports, sorted. */
  dependents: string[];
  mode: BeliefMode;
  /** In a support cycle: no belief. */
  cyclic: boolean;
  /** Claims stated to supersede this one, sorted. */
  superseded_by: string[];
}

/** The compiled graph. Arrays are sorted by id; the same batch in any order compiles the same. */
export interface Compiled {
  config: KernelConfig;
  nodes: CompiledNode[];
  index: Map<string, CompiledNode>;
  /** The valid, non-dangling relations, sorted by id. */
  relations: Relation[];
  /** Degradation markers (`kind:ref`), sorted, unique. */
  markers: string[];
  /** Runs where most trials failed at once: infrastructure, not evidence. */
  infra_runs: string[];
  /** Trials of infrastructure runs (not counted). */
  infra_trials: Set<string>;
  /** Passes on a retry of a run that failed this claim: flaky, never a pass. */
  flaky_trials: Set<string>;
}

/**
 * Validate `batch` and build the graph.
 * @param batch a parsed kernel payload (untrusted)
 * @param config overrides of DEFAULT_CONFIG
 * @returns the graph with its degradation markers
 * @example compile({schema_version: "forge-kernel/v1", claims: [], trials: [], relations: []}).markers // ["thin_payload:no_claims"]
 */
export function compile(batch: unknown, config: Partial<KernelConfig> = {}): Compiled {
  const cfg: KernelConfig = { ...DEFAULT_CONFIG, ...config };
  const markers = new Set<string>();
  const b = (batch ?? {}) as Record<string, unknown>;
  if (batch === null || typeof batch !== "object" || Array.isArray(batch)) {
    markers.add("malformed_payload:not_an_object");
  } else if (b.schema_version !== KERNEL_SCHEMA) {
    markers.add("malformed_payload:schema_version");
  }
  const list = (k: string): unknown[] => {
    if (b[k] === undefined) return [];
    if (Array.isArray(b[k])) return b[k] as unknown[];
    markers.add(`malformed_payload:${k}`);
    return [];
  };
  // A claim version restated later (same id and content, another recorded_at) is the same version, first statement first.
  const claims = unique(list("claims"), validateClaim, (c) => c.claim_version_id, "claim", markers, (a, b) => (a.recorded_at <= b.recorded_at ? a : b));
  const trials = unique(list("trials"), validateTrial, (t) => t.trial_id, "trial", markers);
  const rels = unique(list("relations"), validateRelation, (r) => r.relation_id, "relation", markers);

  // Claims: one node per claim id; versions must agree on the kind.
  const byClaim = new Map<string, ClaimVersion[]>();
  for (const c of claims) {
    const vs = byClaim.get(c.claim_id);
    if (vs) vs.push(c);
    else byClaim.set(c.claim_id, [c]);
  }
  const index = new Map<string, CompiledNode>();
  for (const [cid, vs] of byClaim) {
    if (vs.some((v) => v.kind !== vs[0]!.kind)) {
      markers.add(`kind_conflict:${cid}`);
      continue;
    }
    vs.sort((x, y) => cmp(x.recorded_at, y.recorded_at) || cmp(x.claim_version_id, y.claim_version_id));
    const kind = vs[0]!.kind;
    if (!(CLAIM_KINDS as readonly string[]).includes(kind)) markers.add(`unknown_kind:${cid}`);
    index.set(cid, {
      id: cid, kind, version: vs[vs.length - 1]!, versions: vs.map((v) => v.claim_version_id).sort(cmp), trials: [], terms: [],
      dependents: [], mode: "none", cyclic: false, superseded_by: [],
    });
  }
  for (const t of trials) {
    const n = index.get(t.claim_id);
    if (n) n.trials.push(t);
    else markers.add(`dangling_ref:trial:${t.trial_id}`);
  }
  const relations: Relation[] = [];
  const groups = new Map<string, Term>();
  for (const r of rels) {
    const from = index.get(r.from);
    const to = index.get(r.to);
    if (!from || !to) {
      markers.add(`dangling_ref:relation:${r.relation_id}`);
      continue;
    }
    relations.push(r);
    if (r.kind === "supersedes") to.superseded_by.push(from.id);
    if (r.kind !== "supports") continue;
    if (to.kind === "check") {
      markers.add(`ignored_relation:${r.relation_id}`);
      continue;
    }
    const m = { relation_id: r.relation_id, from: r.from };
    if (r.group === null) {
      to.terms.push({ id: `rel:${r.relation_id}`, group: null, members: [m] });
    } else {
      const key = `${to.id}\u0000${r.group}`;
      let term = groups.get(key);
      if (!term) {
        term = { id: `group:${r.group}`, group: r.group, members: [] };
        groups.set(key, term);
        to.terms.push(term);
      }
      term.members.push(m);
    }
    from.dependents.push(to.id);
  }
  relations.sort((x, y) => cmp(x.relation_id, y.relation_id));

  const nodes = [...index.values()].sort((x, y) => cmp(x.id, y.id));
  for (const n of nodes) {
    n.trials.sort((x, y) => cmp(x.recorded_at, y.recorded_at) || cmp(x.trial_id, y.trial_id));
    n.terms.sort((x, y) => cmp(x.id, y.id));
    for (const t of n.terms) t.members.sort((x, y) => cmp(x.from, y.from) || cmp(x.relation_id, y.relation_id));
    n.dependents = [...new Set(n.dependents)].sort(cmp);
    n.superseded_by = [...new Set(n.superseded_by)].sort(cmp);
    n.mode = n.kind === "check" ? "trials" : !(CLAIM_KINDS as readonly string[]).includes(n.kind) ? "none"
      : n.terms.length > 0 ? "supports" : n.trials.length > 0 ? "trials" : "none";
    if (n.mode === "none" && (CLAIM_KINDS as readonly string[]).includes(n.kind)) markers.add(`missing_semantics:${n.id}`);
  }
  for (const cycle of supportCycles(nodes, index)) {
    for (const id of cycle) index.get(id)!.cyclic = true;
    markers.add(`cycle:${cycle.join(",")}`);
  }
  if (nodes.length === 0) markers.add("thin_payload:no_claims");
  else if (trials.length === 0) markers.add("thin_payload:no_trials");

  const { infraRuns, infraTrials, flaky } = classifyTrials(nodes, cfg);
  return {
    config: cfg, nodes, index, relations, markers: [...markers].sort(cmp), infra_runs: infraRuns, infra_trials: infraTrials, flaky_trials: flaky,
  };
}

/** Plain string order (UTF-16 code units): every machine agrees. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// --- internal ---

/** Validate records and drop duplicates: identical copies merge, conflicting ones are all dropped. */
function unique<T>(
  raw: unknown[], check: (v: unknown) => T | { invalid: string }, key: (t: T) => string, what: string, markers: Set<string>,
  restated?: (a: T, b: T) => T,
): T[] {
  const seen = new Map<string, T>();
  const conflicted = new Set<string>();
  for (const v of raw) {
    const r = check(v);
    if (isInvalid(r as object)) {
      const rid = (v as Record<string, unknown> | null)?.[`${what}_id`];
      markers.add(`malformed_${what}:${typeof rid === "string" ? rid.slice(0, 80) : "(no id)"}:${(r as { invalid: string }).invalid}`);
      continue;
    }
    const t = r as T;
    const k = key(t);
    const prev = seen.get(k);
    if (prev === undefined) {
      seen.set(k, t);
    } else if (prev !== t && !conflicted.has(k) && canonicalJson(prev) !== canonicalJson(t)) {
      if (restated && canonicalJson({ ...prev, recorded_at: "" }) === canonicalJson({ ...t, recorded_at: "" })) {
        seen.set(k, restated(prev, t));
      } else {
        conflicted.add(k);
        markers.add(`duplicate_id:${what}:${k}`);
      }
    }
  }
  const out: T[] = [];
  for (const [k, t] of seen) if (!conflicted.has(k)) out.push(t);
  return out;
}

/** Infrastructure runs (most trials failing at once) and flaky passes (a pass on a retry of a run that failed the claim). */
function classifyTrials(nodes: CompiledNode[], cfg: KernelConfig): { infraRuns: string[]; infraTrials: Set<string>; flaky: Set<string> } {
  const runs = new Map<string, { total: number; failed: number; trials: string[] }>();
  const flaky = new Set<string>();
  for (const n of nodes) {
    const failedRuns = new Set<string>();
    for (const t of n.trials) {
      if (t.run_id === null) continue;
      if (t.outcome === "fail") failedRuns.add(t.run_id);
      if (t.outcome === "error") continue;
      let r = runs.get(t.run_id);
      if (!r) runs.set(t.run_id, (r = { total: 0, failed: 0, trials: [] }));
      r.total++;
      if (t.outcome === "fail") r.failed++;
      r.trials.push(t.trial_id);
    }
    for (const t of n.trials) if (t.outcome === "pass" && t.retry_of !== null && failedRuns.has(t.retry_of)) flaky.add(t.trial_id);
  }
  const infraRuns: string[] = [];
  const infraTrials = new Set<string>();
  for (const [id, r] of runs) {
    if (r.total >= cfg.infra_min_trials && r.failed * 1_000_000 >= cfg.infra_fail_micros * r.total) {
      infraRuns.push(id);
      for (const t of r.trials) infraTrials.add(t);
    }
  }
  return { infraRuns: infraRuns.sort(cmp), infraTrials, flaky };
}
