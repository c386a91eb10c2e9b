/**
 * `node` lines: one per claim of the kernel's view, with its verdict
 * against the trees that are current now (the base branch's code tree, open
 * PRs' current patches) and the commit a rerun would check out.
 */
import type { NodeLine } from "@forge/contract";
import type { KernelView } from "@forge/evidence";
import { type FlakeRate, MICROS, type VerdictBound, verdictBound } from "@forge/kernel";
import type { ObserveInputs, PrInput } from "../inputs.js";

/** The node lines and what the other lines take from them. */
export interface NodeLines {
  nodes: NodeLine[];
  /** The ids of current claims. */
  current: Set<string>;
  /** Each claim's verdict. */
  verdictOf: Map<string, string>;
}

/**
 * The node lines, in the view's node order.
 * @param effects the latest typed-diff category per patched check claim
 * @param precisionMicros the widest bound that decides a verdict
 */
export function nodeLines(
  inputs: ObserveInputs,
  view: KernelView,
  effects: ReadonlyMap<string, string>,
  precisionMicros: number
): NodeLines {
  const { base } = inputs;
  const thr = view.fragile_threshold_micros;
  const openByPatch = new Map<string, PrInput>();
  for (const p of inputs.prs) if (p.state === "open") openByPatch.set(p.patchSha256, p);
  const commitAt = latestCommits(inputs.runs);
  const current = new Set<string>();
  const nodes: NodeLine[] = [];
  const verdictOf = new Map<string, string>();
  for (const n of view.nodes) {
    const subj = n.subject;
    const tree = typeof subj.tree === "string" ? subj.tree : null;
    const patch = typeof subj.patch_sha256 === "string" ? subj.patch_sha256 : null;
    const pr = patch !== null ? (openByPatch.get(patch) ?? null) : null;
    const headSha =
      typeof subj.head_sha === "string"
        ? subj.head_sha
        : tree === null
          ? null
          : (commitAt.get(`${tree}\n${patch ?? "-"}`)?.sha ?? (tree === base.tree ? base.sha : null));
    let isCurrent: boolean;
    if (n.kind !== "check" && n.kind !== "patch_effect") isCurrent = true;
    else if (patch !== null) isCurrent = pr !== null;
    else if (tree !== null) isCurrent = base.tree !== null && tree === base.tree;
    else isCurrent = base.sha !== null && subj.head_sha === base.sha; // a commit-keyed claim (an old import)
    if (isCurrent) current.add(n.id);
    let verdict: string;
    let flake: FlakeRate | null = null;
    let bound: VerdictBound | null = null;
    let signatures: string[] = [];
    let envs: string[] = [];
    if (n.check) {
      verdict = n.check.verdict;
      flake = n.check.flake_rate;
      bound = verdictBound(verdict, n.trials, precisionMicros);
      signatures = n.check.signatures;
      envs = n.check.env_fingerprints;
    } else if (n.kind === "patch_effect") {
      verdict =
        effects.get(n.id) ?? (n.belief_micros === null ? "unknown" : n.belief_micros >= thr ? "fixed" : "inconclusive");
    } else {
      verdict = claimVerdict(n.belief_micros, n.mode, n.cyclic, thr);
    }
    verdictOf.set(n.id, verdict);
    // Keys in sorted order, as canonicalLine writes them (then it writes the line without a sorted copy).
    nodes.push({
      belief_micros: n.belief_micros,
      bound,
      caveat: n.caveat,
      claim_id: n.id,
      claim_kind: n.kind,
      claim_version_id: n.claim_version_id,
      current: isCurrent,
      duration_ms: n.duration_ms,
      env_fingerprints: envs,
      errors: n.trials.errors,
      fails: n.trials.f,
      flake_rate: flake,
      flaky: n.trials.flaky,
      fragile_reasons: n.fragile_reasons,
      head_sha: headSha,
      infra: n.trials.infra,
      kind: "node",
      lower_micros: n.lower_micros,
      passes: n.trials.s,
      patch_sha256: patch,
      pr: pr ? { id: pr.id, number: pr.number } : null,
      signatures,
      subject: subj,
      superseded_by: n.superseded_by,
      support_members: n.support_members,
      tree,
      trials: n.trials.n,
      verdict,
    });
  }
  return { nodes, current, verdictOf };
}

/** The latest commit each (code tree, patch) was run at: what a rerun checks out. */
function latestCommits(runs: ObserveInputs["runs"]): Map<string, { at: string; id: string; sha: string }> {
  const commitAt = new Map<string, { at: string; id: string; sha: string }>();
  for (const run of runs) {
    if (run.codeTree === null) continue;
    const k = `${run.codeTree}\n${run.patchSha256 ?? "-"}`;
    const prev = commitAt.get(k);
    if (!prev || run.createdAt > prev.at || (run.createdAt === prev.at && run.id > prev.id)) {
      commitAt.set(k, { at: run.createdAt, id: run.id, sha: run.headSha });
    }
  }
  return commitAt;
}

/** A non-check claim's verdict from its belief. */
function claimVerdict(belief: number | null, mode: string, cyclic: boolean, thr: number): string {
  if (belief === null) return cyclic || mode !== "none" ? "unavailable" : "unverified";
  if (belief >= thr) return "verified";
  if (belief <= MICROS - thr) return "contradicted";
  return "unverified";
}
