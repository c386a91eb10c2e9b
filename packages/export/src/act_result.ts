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
import { breaksPassToPass, BUNDLE_SCHEMA, contentSha256, type Episode, type EvidenceBundle, type Receipt, type RefutationArtifact, type TypedDiffEntry } from "@forge/evidence";
import type { ClaimVersion, Relation, Trial } from "@forge/kernel";
import { int, list, match, oneOf, optInt, optMatch, optStr, RecordError, SHA1_OR_256, SHA256, SIGNATURE, str, strings, ts } from "./_check.js";
import { checkClaim, fixesClaimId, patchEffectClaimId, subjectOf, type Tree } from "./claim_ids.js";

const OUTCOMES = ["pass", "fail", "timeout", "error", "skipped"] as const;


/** The act result schema tag. */
export const ACT_RESULT_SCHEMA = "forge-act-result/v1";

/**
 * The bundle of an act result record.
 * @throws RecordError naming the field
 */
export function actResultBundle(v: Record<string, unknown>, scope: string): EvidenceBundle {
  if (v.schema_version !== ACT_RESULT_SCHEMA) throw new RecordError("schema_version", `expected ${ACT_RESULT_SCHEMA}`);
  const id = str(v, "id");
  const advisory = v.advisory === true;
  const completedAt = ts(v, "completed_at");
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
  for (const [i, t] of list(v, "trials").entries()) {
    const p = `trials[${i}].`;
    const outcome = oneOf(t, "outcome", OUTCOMES, p);
    const tree = {
      headSha: match(t, "head_sha", SHA1_OR_256, "a commit", p), patchSha256: optMatch(t, "patch_sha256", SHA256, "64 hex or null", p),
      codeTree: optMatch(t, "code_tree", SHA1_OR_256, "a 40-hex tree or null", p),
    };
    const at = ts(t, "recorded_at", p);
    const step = str(t, "step", p);
    const argv = strings(t, "argv", p);
    const duration = int(t, "duration_ms", p);
    receipts.push({ argv, exit_code: optInt(t, "exit_code", p), duration_ms: duration, log_digest: optStr(t, "log_digest", p) });
    if (outcome === "skipped") continue;
    const cid = addCheck(step, tree, at);
    const k = outcome === "timeout" ? "fail" : outcome;
    trials.push({
      trial_id: `act:${id}:${contentSha256(t).slice(0, 16)}`, claim_id: cid, outcome: k, duration_ms: duration,
      signature: k === "fail" ? optMatch(t, "signature", SIGNATURE, "sig-v1:<32 hex> or null", p) : null, recorded_at: at,
      env_fingerprint: optMatch(t, "env_sha256", SHA256, "64 hex or null", p), receipt_ref: `act:${id}`, run_id: optStr(t, "run_id", p), retry_of: optStr(t, "retry_of", p),
    });
  }
  const diff: TypedDiffEntry[] = [];
  const diffEpisodes: Episode[] = [];
  const effectIds: string[] = [];
  let patchOf: string | null = null;
  if (v.typed_diff !== null && v.typed_diff !== undefined) {
    for (const [i, d] of list(v, "typed_diff").entries()) {
      const p = `typed_diff[${i}].`;
      const step = str(d, "check", p);
      const category = str(d, "category", p);
      const counts = (k: string) => {
        const c = (d[k] ?? {}) as Record<string, unknown>;
        return { pass: int(c, "pass", `${p}${k}.`), fail: int(c, "fail", `${p}${k}.`) };
      };
      diff.push({ check: step, category, baseline: counts("baseline"), patched: counts("patched") });
      const tree = {
        headSha: match(d, "base_sha", SHA1_OR_256, "a commit", p), patchSha256: match(d, "patch_sha256", SHA256, "64 hex", p),
        codeTree: optMatch(d, "code_tree", SHA1_OR_256, "a 40-hex tree or null", p),
      };
      const patched = addCheck(step, tree, completedAt);
      patchOf ??= tree.patchSha256;
      diffEpisodes.push({
        episode_id: `act:${id}:diff:${step}`, kind: "typed_diff", claim_id: patched, outcome: category, recorded_at: completedAt,
        detail: { check: step, base_sha: tree.headSha, patch_sha256: tree.patchSha256, baseline_pass: counts("baseline").pass, baseline_fail: counts("baseline").fail, patched_pass: counts("patched").pass, patched_fail: counts("patched").fail },
      });
      if (category === "fixed") {
        const eid = patchEffectClaimId(step, tree);
        claims.set(eid, {
          claim_id: eid, claim_version_id: `${eid}@1`, kind: "patch_effect", subject: subjectOf(step, tree),
          statement: `patch ${tree.patchSha256.slice(0, 12)} turns step ${step} from fail to pass on ${tree.headSha.slice(0, 12)}`, recorded_at: completedAt,
          supersedes_claim_version_id: null,
        });
        relations.push({ relation_id: `${patched}>${eid}`, kind: "supports", from: patched, to: eid, group: null, recorded_at: completedAt });
        effectIds.push(eid);
      } else if (category === "regressed") {
        artifacts.push({ claim_id: patched, kind: "regressed", ref: `act:${id}` });
      }
    }
  }
  // FAIL_TO_PASS and PASS_TO_PASS: a fixes claim per issue the PR closes.
  const closes = strings(v, "closes");
  const breaks = diff.some((d) => breaksPassToPass(d, strings(v, "flaky_at_base")));
  if (closes.length > 0 && effectIds.length > 0 && !breaks && patchOf !== null) {
    const pr = v.pr && typeof v.pr === "object" ? optStr(v.pr as Record<string, unknown>, "id", "pr.") : null;
    for (const issue of [...new Set(closes)].sort()) {
      const fid = fixesClaimId(issue, patchOf);
      claims.set(fid, {
        claim_id: fid, claim_version_id: `${fid}@1`, kind: "fixes", subject: { issue, pr, patch_sha256: patchOf },
        statement: `patch ${patchOf.slice(0, 12)} fixes issue ${issue}`, recorded_at: completedAt, supersedes_claim_version_id: null,
      });
      for (const e of [...effectIds].sort()) relations.push({ relation_id: `${e}>${fid}`, kind: "supports", from: e, to: fid, group: "fail_to_pass", recorded_at: completedAt });
    }
  }
  const supersedes = optStr(v, "supersedes_claim_version_id");
  return {
    schema_version: BUNDLE_SCHEMA, bundle_id: `act:${id}`, candidate_id: optStr(v, "candidate_id") ?? `target:${str(v, "target_key")}`,
    eval_id: `act:${str(v, "plan_kind")}`, version_id: optStr(v, "version_id") ?? id, trace_id: optStr(v, "trace_id") ?? id, attempt_id: optStr(v, "attempt_id"),
    bundle_scope: scope, created_at: completedAt, claims: advisory ? [] : [...claims.values()], relations: advisory ? [] : relations,
    verification: { trials, typed_diff: diff }, refutation: artifacts.length > 0 ? { artifacts } : null,
    claim_strength: advisory ? "advisory" : artifacts.length > 0 ? "refuted" : "observed", known_threats: strings(v, "known_threats"), promotion_state: null,
    receipts, supersedes_claim_version_id: supersedes,
    episodes: [...diffEpisodes, ...(v.oracle && typeof v.oracle === "object" ? [{
      episode_id: `act:${id}:oracle`, kind: "oracle", claim_id: null, outcome: String((v.oracle as Record<string, unknown>).oracle ?? "unknown"), recorded_at: completedAt,
      detail: { bound_reached: (v.oracle as Record<string, unknown>).bound_reached === true, target_key: str(v, "target_key") },
    }] : [])],
    aliases: [], evidence_refs: [{ ref_id: `act:${id}`, kind: "act-result", path: null, digest: contentSha256(v) }],
  };
}
