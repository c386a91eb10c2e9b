/**
 * The `fixes` verdicts of an act result (forge-act's PairedPatch): a PR's
 * patch fixes an issue only under SWE-bench's rule — some check goes from
 * fail to pass (FAIL_TO_PASS) and nothing that passed fails (PASS_TO_PASS).
 * A verdict that holds states the `fixes` claim, supported by the
 * `patch_effect` claims of its FAIL_TO_PASS checks; one that does not hold
 * states nothing (the typed diff says why).
 */
import { sha256Hex } from "@forge/evidence";
import type { ClaimVersion, Relation } from "@forge/kernel";
import { list, match, RecordError, SHA1_OR_256, SHA256, str, strings } from "./_check.js";
import { patchEffectClaimId, type Tree } from "./claim_ids.js";

/**
 * `fixes:<32 hex>` from (issue id, patch sha256): "patch P fixes issue I".
 * @example fixesClaimId("issue-uuid", "a".repeat(64)).startsWith("fixes:") // true
 */
export function fixesClaimId(issue: string, patchSha256: string): string {
  return "fixes:" + sha256Hex(`fixes\n${issue}\n${patchSha256}`).slice(0, 32);
}

/**
 * The claims and relations of an act result's `fixes` list (absent: none).
 * @param codeTree the base's code tree of the typed diff (null: commit-keyed)
 * @throws RecordError naming the field
 */
export function fixesClaims(v: Record<string, unknown>, at: string, codeTree: string | null): { claims: ClaimVersion[]; relations: Relation[] } {
  const claims: ClaimVersion[] = [];
  const relations: Relation[] = [];
  if (v.fixes === undefined || v.fixes === null) return { claims, relations };
  for (const [i, f] of list(v, "fixes").entries()) {
    const p = `fixes[${i}].`;
    if (typeof f.holds !== "boolean") throw new RecordError(`${p}holds`, "expected a boolean");
    const issue = str(f, "issue", p);
    const patch = match(f, "patch_sha256", SHA256, "64 hex", p);
    const base = match(f, "base_sha", SHA1_OR_256, "a commit", p);
    const f2p = strings(f, "fail_to_pass", p);
    if (!f.holds || f2p.length === 0) continue;
    const pr = (f.pr ?? {}) as Record<string, unknown>;
    const id = fixesClaimId(issue, patch);
    claims.push({
      claim_id: id, claim_version_id: `${id}@1`, kind: "fixes",
      subject: { issue, pr: typeof pr.id === "string" ? pr.id : null, patch_sha256: patch, base_sha: base },
      statement: `patch ${patch.slice(0, 12)} fixes issue ${issue.slice(0, 12)} (FAIL_TO_PASS: ${f2p.join(" ")}; PASS_TO_PASS held)`, recorded_at: at,
      supersedes_claim_version_id: null,
    });
    const tree: Tree = { headSha: base, patchSha256: patch, codeTree };
    for (const step of f2p) {
      const eid = patchEffectClaimId(step, tree);
      relations.push({ relation_id: `${eid}>${id}`, kind: "supports", from: eid, to: id, group: null, recorded_at: at });
    }
  }
  return { claims, relations };
}
