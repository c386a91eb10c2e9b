/**
 * observe(): the store's public surfaces → observation lines (spec/loop.md
 * §1). Pure and deterministic: the scope's fold of imports re-compiled,
 * re-scheduled and assessed by the kernel; verdicts, flake rates and
 * syndromes (active or cleared) against the trees that are current now
 * (the base branch's code tree, open PRs' current patches); CI runs, PRs,
 * issues and merge records read as they are. Nothing is invented: a
 * missing or malformed input is a marker, and markers describe the current
 * state (a log deleted from a run that a later run at the same tree
 * re-recorded is no longer thin).
 */
import { cmp, type FlakeRate, MICROS, syndromeStates } from "@forge/kernel";
import { kernelView, type KernelView, PAYLOAD_MARKERS, viewConfig } from "@forge/evidence";
import { canonicalLine } from "./canonical_line.js";
import { DEFAULT_OBSERVE_CONFIG, type ObserveConfig, type ObserveInputs, type PrInput, type RunInput } from "./inputs.js";

/** The schema tag of the header line. */
export const OBSERVATION_SCHEMA = "forge-observation/v1";

/** One line of an observation (compact JSON with a `kind`). */
export type ObservationLine = Record<string, unknown> & { kind: string };

/** An observation as data, besides its lines: what forge-plan reads. */
export interface Observation {
  header: ObservationLine;
  nodes: ObservationLine[];
  syndromes: ObservationLine[];
  prs: ObservationLine[];
  issues: ObservationLine[];
  degradations: ObservationLine[];
  unverified: ObservationLine[];
}

/**
 * Observe.
 * @returns the observation, its lines in order by `observationLines`
 * @example observationLines(observe(inputs)).map(canonicalJson)
 */
export function observe(inputs: ObserveInputs, config: Partial<ObserveConfig> = {}): Observation {
  const cfg: ObserveConfig = { ...DEFAULT_OBSERVE_CONFIG, ...config, kernel: { ...DEFAULT_OBSERVE_CONFIG.kernel, ...config.kernel } };
  const { state, base } = inputs;
  const made = viewConfig(cfg.precision_micros, cfg.kernel);
  const view = inputs.kernel ?? kernelView(state.kernel, cfg.precision_micros, cfg.kernel);
  if (view.made_with !== made) throw new Error(`observe: a kernel view made with ${view.made_with}, not ${made}`);
  const thr = view.fragile_threshold_micros;

  const openByPatch = new Map<string, PrInput>();
  for (const p of inputs.prs) if (p.state === "open") openByPatch.set(p.patchSha256, p);
  const prById = new Map(inputs.prs.map((p) => [p.id, p]));

  // Typed-diff categories exported by act results (episodes `typed_diff`), latest first wins per claim.
  const effects = typedDiffs(state.episodes);

  // The latest commit each (code tree, patch) was run at: what a rerun checks out.
  const commitAt = new Map<string, { at: string; id: string; sha: string }>();
  for (const run of inputs.runs) {
    if (run.codeTree === null) continue;
    const k = `${run.codeTree}\n${run.patchSha256 ?? "-"}`;
    const prev = commitAt.get(k);
    if (!prev || run.createdAt > prev.at || (run.createdAt === prev.at && run.id > prev.id)) commitAt.set(k, { at: run.createdAt, id: run.id, sha: run.headSha });
  }

  // --- nodes ---
  const current = new Set<string>();
  const nodes: ObservationLine[] = [];
  const verdictOf = new Map<string, string>();
  for (const n of view.nodes) {
    const subj = n.subject;
    const tree = typeof subj.tree === "string" ? subj.tree : null;
    const patch = typeof subj.patch_sha256 === "string" ? subj.patch_sha256 : null;
    const pr = patch !== null ? (openByPatch.get(patch) ?? null) : null;
    const headSha = typeof subj.head_sha === "string" ? subj.head_sha
      : tree === null ? null : (commitAt.get(`${tree}\n${patch ?? "-"}`)?.sha ?? (tree === base.tree ? base.sha : null));
    let isCurrent: boolean;
    if (n.kind !== "check" && n.kind !== "patch_effect") isCurrent = true;
    else if (patch !== null) isCurrent = pr !== null;
    else if (tree !== null) isCurrent = base.tree !== null && tree === base.tree;
    else isCurrent = base.sha !== null && subj.head_sha === base.sha; // a commit-keyed claim (an old import)
    if (isCurrent) current.add(n.id);
    let verdict: string;
    let flake: FlakeRate | null = null;
    let signatures: string[] = [];
    let envs: string[] = [];
    if (n.check) {
      verdict = n.check.verdict;
      flake = n.check.flake_rate;
      signatures = n.check.signatures;
      envs = n.check.env_fingerprints;
    } else if (n.kind === "patch_effect") {
      verdict = effects.get(n.id) ?? (n.belief_micros === null ? "unknown" : n.belief_micros >= thr ? "fixed" : "inconclusive");
    } else {
      verdict = claimVerdict(n.belief_micros, n.mode, n.cyclic, thr);
    }
    verdictOf.set(n.id, verdict);
    // Keys in sorted order, as canonicalLine writes them (then it writes the line without a sorted copy).
    nodes.push({
      belief_micros: n.belief_micros, caveat: n.caveat, claim_id: n.id, claim_kind: n.kind, claim_version_id: n.claim_version_id, current: isCurrent,
      duration_ms: n.duration_ms, env_fingerprints: envs, errors: n.trials.errors, fails: n.trials.f, flake_rate: flake, flaky: n.trials.flaky,
      fragile_reasons: n.fragile_reasons, head_sha: headSha, infra: n.trials.infra, kind: "node", lower_micros: n.lower_micros, passes: n.trials.s,
      patch_sha256: patch, pr: pr ? { id: pr.id, number: pr.number } : null, signatures, subject: subj, superseded_by: n.superseded_by,
      support_members: n.support_members, tree, trials: n.trials.n, verdict,
    });
  }

  // --- syndromes: active while a current claim fails with the signature ---
  const nodeById = new Map(nodes.map((x) => [x.claim_id as string, x]));
  const syndromes: ObservationLine[] = syndromeStates(view.syndromes, current).map((s) => {
    const stable = s.active_claims.filter((id) => verdictOf.get(id) === "failing").sort(cmp);
    const first = s.active_claims[0];
    const fn = first ? nodeById.get(first) : undefined;
    return {
      // Keys in sorted order, as canonicalLine writes them.
      active: s.active, active_claim_ids: s.active_claims, claim_ids: s.claims, failing_claim_ids: stable, kind: "syndrome", signature: s.signature,
      tree: fn ? (fn.tree as string | null) : null, trials: s.trials,
    };
  });

  // --- markers of the current state ---
  const markers = new Map<string, string[]>();
  const details = new Map<string, Record<string, unknown>>();
  const mark = (m: string, refs: string[], detail?: Record<string, unknown>): void => {
    const prev = markers.get(m) ?? [];
    markers.set(m, [...new Set([...prev, ...refs])].sort(cmp));
    if (detail) details.set(m, detail);
  };
  if (state.imports.length === 0) mark("no_imports", []);
  for (const imp of state.imports) for (const m of imp.markers) if (PAYLOAD_MARKERS.includes(m)) mark(`${m}:${imp.batch_id}`, [`import:${imp.batch_id}`]);
  if (state.imports.length > 0) for (const m of view.markers) mark(m, markerRefs(m));
  for (const u of inputs.unreadable) mark(`unreadable:${u}`, []);
  let exported: Set<string> | undefined; // every trial's run: gathered only when a completed run asks
  for (const run of inputs.runs) {
    if (run.status !== "completed") continue;
    exported ??= exportedRuns(state, view);
    const pr = run.pr ? prById.get(run.pr) : undefined;
    const at = { run_id: run.id, head_sha: run.headSha, tree: run.codeTree, patch_sha256: run.patchSha256, pr: pr ? { id: pr.id, number: pr.number } : null };
    if (!exported.has(run.id)) mark(`unexported_run:${run.id}`, [`ci-run:${run.id}`], at);
    for (const s of run.steps) {
      if (!ran(s.outcome) || s.log) continue;
      if (rerecorded(inputs.runs, run, s.name)) continue;
      mark(`missing_log:${run.id}:${s.name}`, [`ci-run:${run.id}`], { ...at, step: s.name });
    }
  }
  const degradations: ObservationLine[] = [...markers.keys()].sort(cmp).map((m) => ({ kind: "degradation", marker: m, refs: markers.get(m)!, detail: details.get(m) ?? null }));

  // --- PRs ---
  const runsAt = new Map<string, string[]>();
  for (const run of inputs.runs) if (run.patchSha256) runsAt.set(run.patchSha256, [...(runsAt.get(run.patchSha256) ?? []), run.id]);
  const nodesByPatch = new Map<string, ObservationLine[]>();
  for (const nd of nodes) {
    const p = nd.patch_sha256 as string | null;
    if (p) nodesByPatch.set(p, [...(nodesByPatch.get(p) ?? []), nd]);
  }
  const prs: ObservationLine[] = [...inputs.prs].sort((x, y) => x.number - y.number).map((p) => {
    const at = nodesByPatch.get(p.patchSha256) ?? [];
    const eff: Record<string, string> = {};
    for (const nd of at) {
      const step = (nd.subject as Record<string, unknown>).step;
      if (typeof step !== "string") continue;
      if (nd.claim_kind === "patch_effect") eff[step] = nd.verdict as string;
      else if (nd.claim_kind === "check" && effects.has(nd.claim_id as string) && !(step in eff)) eff[step] = effects.get(nd.claim_id as string)!;
    }
    const checks = [...new Set(at.filter((nd) => nd.claim_kind === "check").map((nd) => (nd.subject as Record<string, string>).step!))].sort(cmp);
    // Keys in sorted order (see the node lines).
    return {
      base_ref: p.baseRefName, base_sha: p.baseSha, checks, ci: p.ci, closes: [...p.closes].sort(cmp), effects: sortedObject(eff), head_sha: p.headSha, id: p.id,
      kind: "pr", number: p.number, patch_sha256: p.patchSha256, previous_patch_sha256: p.previousPatchSha256, runs: [...(runsAt.get(p.patchSha256) ?? [])].sort(cmp),
      state: p.state,
    };
  });

  // --- closed issues: how, by what, with what evidence ---
  const mergedBy = new Map<string, string>();
  for (const m of [...inputs.merges].sort((x, y) => cmp(x.createdAt, y.createdAt) || cmp(x.id, y.id))) {
    if (m.verdict !== "merged") continue;
    const pr = prById.get(m.pr);
    for (const i of pr?.closes ?? []) if (!mergedBy.has(i)) mergedBy.set(i, m.id);
  }
  const fixesFor = new Map<string, string[]>();
  for (const nd of nodes) {
    if (nd.claim_kind !== "fixes") continue;
    const issue = (nd.subject as Record<string, unknown>).issue;
    if (typeof issue === "string") fixesFor.set(issue, [...(fixesFor.get(issue) ?? []), nd.claim_id as string]);
  }
  const closingPrs = new Map<string, PrInput[]>();
  for (const p of [...inputs.prs].sort((x, y) => x.number - y.number)) for (const i of p.closes) closingPrs.set(i, [...(closingPrs.get(i) ?? []), p]);
  const issues: ObservationLine[] = [];
  const unverified: ObservationLine[] = [];
  for (const i of [...inputs.issues].sort((x, y) => x.number - y.number)) {
    if (i.state !== "closed") continue;
    const closing = closingPrs.get(i.id) ?? [];
    // Closed as fixed: a fix label, or a PR that closes it. Other closed issues claim no fix.
    if (closing.length === 0 && !i.labels.some((l) => cfg.fixed_labels.includes(l))) continue;
    const merge = mergedBy.get(i.id);
    const fix = (fixesFor.get(i.id) ?? []).sort(cmp);
    const verified = fix.some((id) => verdictOf.get(id) === "verified");
    // Keys in sorted order (see the node lines).
    issues.push({
      closed_at: i.closedAt, closed_by: merge ? `merge:${merge}` : null, closing_prs: closing.map((p) => ({ id: p.id, number: p.number, state: p.state })),
      fix_evidence: fix, id: i.id, kind: "issue", labels: [...i.labels].sort(cmp), number: i.number, state: i.state, state_reason: null,
    });
    if (!verified) {
      const why = fix.length > 0 ? "fix_evidence_unverified" : merge ? "merged_without_fix_evidence" : "closed_without_evidence";
      unverified.push({ claim_id: `issue:${i.id}`, claim_kind: "fixes", fix_evidence: fix, issue: { id: i.id, number: i.number }, kind: "unverified", why });
    }
  }
  for (const nd of nodes) {
    // Checks have verdicts of their own; patch effects their typed-diff category; fixes claims are questioned through their issue.
    if (nd.claim_kind === "check" || nd.claim_kind === "patch_effect" || nd.claim_kind === "fixes") continue;
    if (nd.verdict === "unverified" || nd.verdict === "unavailable") {
      unverified.push({ claim_id: nd.claim_id, claim_kind: nd.claim_kind, kind: "unverified", why: nd.belief_micros === null ? "no_belief" : "below_threshold" });
    }
  }
  unverified.sort((x, y) => cmp(x.claim_id as string, y.claim_id as string));

  // --- the header ---
  const activeSyndromes = syndromes.filter((s) => s.active).length;
  const fragile = nodes.filter((nd) => nd.current && (nd.verdict === "flaky" && !(nd.flake_rate as FlakeRate).decided)).length;
  const lastImport = state.imports.reduce<string | null>((m, imp) => (m === null || imp.imported_at > m ? imp.imported_at : m), null);
  const header: ObservationLine = {
    kind: "observation", schema_version: OBSERVATION_SCHEMA, scope: inputs.scope, base_ref: base.ref, base_sha: base.sha, base_tree: base.tree,
    health: {
      total_claim_versions: state.claim_versions.length, total_relation_versions: state.relation_versions.length, total_episodes: state.episode_count,
      fragile_node_count: fragile, syndrome_count: activeSyndromes, degradation_count: degradations.length, unverified_claim_count: unverified.length,
      supersession_candidate_count: inputs.prs.filter((p) => p.state === "open" && p.previousPatchSha256.length > 0).length
        + state.claim_versions.filter((c) => c.supersedes_claim_version_id !== null).length,
      last_import_at: lastImport,
    },
    markers: degradations.map((d) => d.marker),
    counts: {
      imports: state.imports.length, claims: nodes.length, current_claims: current.size, trials: view.trials, syndromes: syndromes.length,
      active_syndromes: activeSyndromes, runs: inputs.runs.length, unexported_runs: [...markers.keys()].filter((m) => m.startsWith("unexported_run:")).length,
      prs: inputs.prs.length, open_prs: inputs.prs.filter((p) => p.state === "open").length, closed_issues: issues.length, merges: inputs.merges.length,
    },
    config: { precision_micros: cfg.precision_micros, fragile_threshold_micros: thr, min_trials: view.min_trials, fixed_labels: [...cfg.fixed_labels].sort(cmp) },
    oracles: { conservative: { bound_reached: view.conservative.bound_reached, refused: view.conservative.refused } },
  };
  return { header, nodes, syndromes, prs, issues, degradations, unverified };
}

/**
 * The lines in stream order: the header, nodes, syndromes, PRs, issues,
 * degradation markers, unverified claims.
 */
export function observationLines(o: Observation): ObservationLine[] {
  return [o.header, ...o.nodes, ...o.syndromes, ...o.prs, ...o.issues, ...o.degradations, ...o.unverified];
}

/** The observation as JSON-lines text (canonical JSON: the same store gives the same bytes). */
export function observationText(o: Observation): string {
  return observationLines(o).map((l) => canonicalLine(l) + "\n").join("");
}

// --- internal ---

/** A non-check claim's verdict from its belief. */
function claimVerdict(belief: number | null, mode: string, cyclic: boolean, thr: number): string {
  if (belief === null) return cyclic || mode !== "none" ? "unavailable" : "unverified";
  if (belief >= thr) return "verified";
  if (belief <= MICROS - thr) return "contradicted";
  return "unverified";
}

/** Step outcomes that produce a log. */
function ran(outcome: string): boolean {
  return outcome === "pass" || outcome === "fail" || outcome === "timeout";
}

/** A later completed run (in the order runs rank: createdAt, id) at the same tree (and patch) ran the step and kept its log. */
function rerecorded(runs: readonly RunInput[], run: RunInput, step: string): boolean {
  return runs.some((r) => r.status === "completed" && (r.createdAt > run.createdAt || (r.createdAt === run.createdAt && r.id > run.id)) && sameTree(r, run)
    && r.steps.some((s) => s.name === step && ran(s.outcome) && s.log));
}

function sameTree(a: RunInput, b: RunInput): boolean {
  return (a.patchSha256 ?? "") === (b.patchSha256 ?? "") && (a.codeTree !== null && b.codeTree !== null ? a.codeTree === b.codeTree : a.headSha === b.headSha);
}

/** Runs the scope's evidence holds: a `ci-run:<id>` ref or a trial of the run. */
function exportedRuns(state: ObserveInputs["state"], view: KernelView): Set<string> {
  const out = new Set<string>(view.run_ids);
  for (const r of state.evidence_refs) if (r.ref_id.startsWith("ci-run:")) out.add(r.ref_id.slice(7));
  return out;
}

/** What a kernel marker points at. */
function markerRefs(m: string): string[] {
  const i = m.indexOf(":");
  if (i < 0) return [];
  const rest = m.slice(i + 1);
  if (m.startsWith("cycle:")) return rest.split(",").sort(cmp);
  if (m.startsWith("thin_payload:") || m.startsWith("malformed_payload:")) return [];
  return [rest];
}

/** `typed_diff` episodes: the latest category per patched check claim. */
function typedDiffs(episodes: ObserveInputs["state"]["episodes"]): Map<string, string> {
  const out = new Map<string, { at: string; id: string; category: string }>();
  for (const e of episodes) {
    if (e.kind !== "typed_diff" || e.claim_id === null) continue;
    const prev = out.get(e.claim_id);
    if (!prev || e.recorded_at > prev.at || (e.recorded_at === prev.at && e.episode_id > prev.id)) out.set(e.claim_id, { at: e.recorded_at, id: e.episode_id, category: e.outcome });
  }
  return new Map([...out].map(([k, v]) => [k, v.category]));
}

function sortedObject(o: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(o).sort(cmp)) out[k] = o[k]!;
  return out;
}
