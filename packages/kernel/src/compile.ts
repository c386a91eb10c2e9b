/**
 * compile(batch): validate a kernel batch and build its graph. Problems are
 * marked, never repaired: a bad record is dropped with a marker, a relation
 * to a claim the batch does not state is dangling, a support cycle leaves
 * its nodes without a belief. Only what the batch states exists; no joint
 * group is inferred.
 */
import {
  CLAIM_KINDS,
  type ClaimVersion,
  DEFAULT_CONFIG,
  KERNEL_SCHEMA,
  type KernelBatch,
  type KernelConfig,
  type Relation,
  type Trial,
} from "./model.js";
import { classifyTrials } from "./_classify.js";
import { cmp } from "./cmp.js";
import { supportCycles } from "./_cycles.js";
import { uniqueRecords } from "./_unique.js";
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
 * @example compile({schema_version: "forge-kernel/v1", claims: [], trials: [], relations: []}).markers //
 * ["thin_payload:no_claims"]
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
  // A claim version restated later (same id and content, another recorded_at) is the same version, first statement
  // first.
  const claims = uniqueRecords(
    list("claims"),
    validateClaim,
    (c) => c.claim_version_id,
    "claim",
    markers,
    (a, b) => (a.recorded_at <= b.recorded_at ? a : b)
  );
  const trials = uniqueRecords(list("trials"), validateTrial, (t) => t.trial_id, "trial", markers);
  // Likewise a relation restated by a later record (two paired runs of one patch both state "the check supports the
  // effect").
  const rels = uniqueRecords(
    list("relations"),
    validateRelation,
    (r) => r.relation_id,
    "relation",
    markers,
    (a, b) => (a.recorded_at <= b.recorded_at ? a : b)
  );

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
      id: cid,
      kind,
      version: vs[vs.length - 1]!,
      versions: vs.map((v) => v.claim_version_id).sort(cmp),
      trials: [],
      terms: [],
      dependents: [],
      mode: "none",
      cyclic: false,
      superseded_by: [],
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
    n.mode = modeOf(n);
    if (n.mode === "none" && (CLAIM_KINDS as readonly string[]).includes(n.kind))
      markers.add(`missing_semantics:${n.id}`);
  }
  for (const cycle of supportCycles(nodes, index)) {
    for (const id of cycle) index.get(id)!.cyclic = true;
    markers.add(`cycle:${cycle.join(",")}`);
  }
  if (nodes.length === 0) markers.add("thin_payload:no_claims");
  else if (trials.length === 0) markers.add("thin_payload:no_trials");

  const { infraRuns, infraTrials, flaky } = classifyTrials(nodes, cfg);
  return {
    config: cfg,
    nodes,
    index,
    relations,
    markers: [...markers].sort(cmp),
    infra_runs: infraRuns,
    infra_trials: infraTrials,
    flaky_trials: flaky,
  };
}

/**
 * `compile` of a batch with `added` put in, from the batch's compile
 * (`before`, not changed), when `added` holds only trials that are valid
 * and new: no claim, no relation, and no trial id the batch states in any
 * form (kept, dangling or in conflict). Each is put in its claim's node (or
 * marked dangling), and what depends on trials is computed again: the
 * nodes' modes, the infrastructure runs and flaky passes, the markers of
 * missing semantics and of a batch with no trials. The kernel compiles a
 * batch in any order the same, so this is `compile` of both (a property
 * test says so); null for any other `added` (the caller compiles).
 * @example extendCompiled(compile(batch), { ...empty, trials: [rerun] })?.index.get("c")?.trials.length
 */
export function extendCompiled(before: Compiled, added: KernelBatch): Compiled | null {
  if (added.claims.length > 0 || added.relations.length > 0) return null;
  if (added.trials.length === 0) return before;
  const known = trialIdsOf(before);
  const mine = new Set<string>();
  const byNode = new Map<string, Trial[]>();
  const markers = new Set(before.markers);
  for (const raw of added.trials) {
    const t = validateTrial(raw);
    if (
      isInvalid(t) ||
      known.has(t.trial_id) ||
      mine.has(t.trial_id) ||
      markers.has(`dangling_ref:trial:${t.trial_id}`) ||
      markers.has(`duplicate_id:trial:${t.trial_id}`)
    )
      return null;
    mine.add(t.trial_id);
    if (!before.index.has(t.claim_id)) markers.add(`dangling_ref:trial:${t.trial_id}`);
    else {
      const l = byNode.get(t.claim_id);
      if (l) l.push(t);
      else byNode.set(t.claim_id, [t]);
    }
  }
  markers.delete("thin_payload:no_trials");
  const index = new Map(before.index);
  for (const [id, ts] of byNode) {
    const n = before.index.get(id)!;
    const trials = [...n.trials, ...ts].sort(
      (x, y) => cmp(x.recorded_at, y.recorded_at) || cmp(x.trial_id, y.trial_id)
    );
    const mode = modeOf({ ...n, trials });
    if (mode !== "none") markers.delete(`missing_semantics:${id}`);
    index.set(id, { ...n, trials, mode });
  }
  const nodes = before.nodes.map((n) => index.get(n.id)!);
  const { infraRuns, infraTrials, flaky } = classifyTrials(nodes, before.config);
  return {
    config: before.config,
    nodes,
    index,
    relations: before.relations,
    markers: [...markers].sort(cmp),
    infra_runs: infraRuns,
    infra_trials: infraTrials,
    flaky_trials: flaky,
  };
}

/**
 * Where a node's belief comes from: a check's trials; another known kind's supports, else its trials; nowhere for an
 * unknown kind.
 */
function modeOf(n: Pick<CompiledNode, "kind" | "terms" | "trials">): BeliefMode {
  if (n.kind === "check") return "trials";
  if (!(CLAIM_KINDS as readonly string[]).includes(n.kind)) return "none";
  return n.terms.length > 0 ? "supports" : n.trials.length > 0 ? "trials" : "none";
}

/** Each graph's trial ids (those in its nodes), as first listed: a graph is not changed once compiled. */
const TRIAL_IDS = new WeakMap<Compiled, ReadonlySet<string>>();

/**
 * The ids of the trials in a graph's nodes (what `extendCompiled` checks new trials against), listed once per graph.
 * @example trialIdsOf(compile(batch)).has("t1")
 */
export function trialIdsOf(c: Compiled): ReadonlySet<string> {
  let ids = TRIAL_IDS.get(c);
  if (!ids) {
    const s = new Set<string>();
    for (const n of c.nodes) for (const t of n.trials) s.add(t.trial_id);
    TRIAL_IDS.set(c, (ids = s));
  }
  return ids;
}
