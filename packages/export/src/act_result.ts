/**
 * An act result record (what `forge-act` emits, spec/evidence.md §act) as
 * an evidence bundle. Trials become trials of `check` claims at their tree,
 * exactly as CI steps do. A `fixed` entry of the typed diff states a
 * `patch_effect` claim supported by the patched check; a `regressed` entry
 * is a refutation artifact against the patched check. Every entry is also a
 * `typed_diff` episode on the patched check (the lane keeps the category).
 * A result that names the PR's `closes` gets a `fixes` claim per issue only
 * when SWE-bench's rule holds: some check went fail → pass (FAIL_TO_PASS)
 * and nothing that passed broke (PASS_TO_PASS: @forge/evidence's
 * breaksPassToPass, which leaves out the flakes of a check named in
 * `flaky_at_base`); the claim is supported jointly by the patch_effect
 * claims. An advisory result
 * states nothing the kernel counts (claim_strength `advisory`).
 */
import { type ActResultRecord, optStr, parseActResult, type Rec } from "@forge/contract";
import {
  breaksPassToPass,
  BUNDLE_SCHEMA,
  contentSha256,
  type Episode,
  type EvidenceBundle,
  type Receipt,
  type RefutationArtifact,
  type TypedDiffEntry,
} from "@forge/evidence";
import type { ClaimVersion, Relation, Trial } from "@forge/kernel";
import { checkClaim, fixesClaimId, patchEffectClaimId, subjectOf, type Tree } from "./claim_ids.js";

/**
 * The bundle of an act result record.
 * @throws RecordError naming the field
 */
export function actResultBundle(v: Rec, scope: string): EvidenceBundle {
  return bundleOfActResult(parseActResult(v), v, scope);
}

/**
 * The bundle of a checked act result.
 * @param line the line it was read from: trial ids and the evidence ref's digest hash what the line says
 * @throws RecordError for the PR's id, when a fixes claim names it
 */
function bundleOfActResult(a: ActResultRecord, line: Rec, scope: string): EvidenceBundle {
  const id = a.id;
  const completedAt = a.completed_at;
  const claims = new Map<string, ClaimVersion>();
  const trials: Trial[] = [];
  const receipts: Receipt[] = [];
  const relations: Relation[] = [];
  const artifacts: RefutationArtifact[] = [];
  const addCheck = (step: string, tree: Tree, at: string): string => {
    const c = checkClaim(step, tree, at);
    claims.set(c.claim_id, c);
    return c.claim_id;
  };
  const lineTrials = line.trials as Rec[];
  for (const [i, t] of a.trials.entries()) {
    const tree = { headSha: t.head_sha, patchSha256: t.patch_sha256, codeTree: t.code_tree };
    receipts.push({ argv: t.argv, exit_code: t.exit_code, duration_ms: t.duration_ms, log_digest: t.log_digest });
    if (t.outcome === "skipped") continue;
    const cid = addCheck(t.step, tree, t.recorded_at);
    const k = t.outcome === "timeout" ? "fail" : t.outcome;
    trials.push({
      trial_id: `act:${id}:${contentSha256(lineTrials[i]).slice(0, 16)}`,
      claim_id: cid,
      outcome: k,
      duration_ms: t.duration_ms,
      signature: k === "fail" ? t.signature : null,
      recorded_at: t.recorded_at,
      env_fingerprint: t.env_sha256,
      receipt_ref: `act:${id}`,
      run_id: t.run_id,
      retry_of: t.retry_of,
    });
  }
  const diff: TypedDiffEntry[] = [];
  const diffEpisodes: Episode[] = [];
  const effectIds: string[] = [];
  let patchOf: string | null = null;
  for (const d of a.typed_diff ?? []) {
    const step = d.check;
    diff.push({ check: step, category: d.category, baseline: d.baseline, patched: d.patched });
    const tree = { headSha: d.base_sha, patchSha256: d.patch_sha256, codeTree: d.code_tree };
    const patched = addCheck(step, tree, completedAt);
    patchOf ??= tree.patchSha256;
    diffEpisodes.push({
      episode_id: `act:${id}:diff:${step}`,
      kind: "typed_diff",
      claim_id: patched,
      outcome: d.category,
      recorded_at: completedAt,
      detail: {
        check: step,
        base_sha: tree.headSha,
        patch_sha256: tree.patchSha256,
        baseline_pass: d.baseline.pass,
        baseline_fail: d.baseline.fail,
        patched_pass: d.patched.pass,
        patched_fail: d.patched.fail,
      },
    });
    if (d.category === "fixed") {
      const eid = patchEffectClaimId(step, tree);
      claims.set(eid, {
        claim_id: eid,
        claim_version_id: `${eid}@1`,
        kind: "patch_effect",
        subject: subjectOf(step, tree),
        statement:
          `patch ${tree.patchSha256.slice(0, 12)} turns step ${step} from fail to pass on ` +
          `${tree.headSha.slice(0, 12)}`,
        recorded_at: completedAt,
        supersedes_claim_version_id: null,
      });
      relations.push({
        relation_id: `${patched}>${eid}`,
        kind: "supports",
        from: patched,
        to: eid,
        group: null,
        recorded_at: completedAt,
      });
      effectIds.push(eid);
    } else if (d.category === "regressed") {
      artifacts.push({ claim_id: patched, kind: "regressed", ref: `act:${id}` });
    }
  }
  // FAIL_TO_PASS and PASS_TO_PASS: a fixes claim per issue the PR closes.
  const breaks = diff.some((d) => breaksPassToPass(d, a.flaky_at_base));
  if (a.closes.length > 0 && effectIds.length > 0 && !breaks && patchOf !== null) {
    const pr = a.pr ? optStr(a.pr, "id", "pr.") : null;
    for (const issue of [...new Set(a.closes)].sort()) {
      const fid = fixesClaimId(issue, patchOf);
      claims.set(fid, {
        claim_id: fid,
        claim_version_id: `${fid}@1`,
        kind: "fixes",
        subject: { issue, pr, patch_sha256: patchOf },
        statement: `patch ${patchOf.slice(0, 12)} fixes issue ${issue}`,
        recorded_at: completedAt,
        supersedes_claim_version_id: null,
      });
      for (const e of [...effectIds].sort()) {
        relations.push({
          relation_id: `${e}>${fid}`,
          kind: "supports",
          from: e,
          to: fid,
          group: "fail_to_pass",
          recorded_at: completedAt,
        });
      }
    }
  }
  const advisory = a.advisory;
  return {
    schema_version: BUNDLE_SCHEMA,
    bundle_id: `act:${id}`,
    candidate_id: a.candidate_id ?? `target:${a.target_key!}`,
    eval_id: `act:${a.plan_kind}`,
    version_id: a.version_id ?? id,
    trace_id: a.trace_id ?? id,
    attempt_id: a.attempt_id,
    bundle_scope: scope,
    created_at: completedAt,
    claims: advisory ? [] : [...claims.values()],
    relations: advisory ? [] : relations,
    verification: { trials, typed_diff: diff },
    refutation: artifacts.length > 0 ? { artifacts } : null,
    claim_strength: advisory ? "advisory" : artifacts.length > 0 ? "refuted" : "observed",
    known_threats: a.known_threats,
    promotion_state: null,
    receipts,
    supersedes_claim_version_id: a.supersedes_claim_version_id,
    episodes: [
      ...diffEpisodes,
      ...(a.oracle
        ? [
            {
              episode_id: `act:${id}:oracle`,
              kind: "oracle",
              claim_id: null,
              outcome: String(a.oracle.oracle ?? "unknown"),
              recorded_at: completedAt,
              detail: { bound_reached: a.oracle.bound_reached === true, target_key: a.target_key! },
            },
          ]
        : []),
    ],
    aliases: [],
    evidence_refs: [{ ref_id: `act:${id}`, kind: "act-result", path: null, digest: contentSha256(line) }],
  };
}
