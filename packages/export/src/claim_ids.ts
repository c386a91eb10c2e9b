/**
 * Stable claim ids, derived from what a claim is about, so the same step
 * at the same tree in two runs is the same claim whichever record states it.
 */
import { sha256Hex } from "@forge/evidence";
import type { ClaimVersion } from "@forge/kernel";

/** The tree a check ran on: a base commit plus the sha256 of the patch applied on it (null: none). */
export interface Tree {
  headSha: string;
  patchSha256: string | null;
}

/**
 * `check:<32 hex>` from (step, headSha, patchSha256).
 * @example checkClaimId("10-test", {headSha: "a".repeat(40), patchSha256: null})
 */
export function checkClaimId(step: string, tree: Tree): string {
  return "check:" + sha256Hex(`check\n${step}\n${tree.headSha}\n${tree.patchSha256 ?? "-"}`).slice(0, 32);
}

/** `patch_effect:<32 hex>`: "patch P turns step S from fail to pass on base B". */
export function patchEffectClaimId(step: string, tree: Tree): string {
  return "patch_effect:" + sha256Hex(`patch_effect\n${step}\n${tree.headSha}\n${tree.patchSha256 ?? "-"}`).slice(0, 32);
}

/** `criterion:<loop>:<criterion>`. */
export function criterionClaimId(loopId: string, criterionId: string): string {
  return `criterion:${loopId}:${criterionId}`;
}

/** A short human label of a tree: `<sha12>` or `<sha12>+<patch12>`. */
export function treeLabel(tree: Tree): string {
  return tree.headSha.slice(0, 12) + (tree.patchSha256 ? "+" + tree.patchSha256.slice(0, 12) : "");
}

/**
 * The `check` claim "step S passes at tree T", as CI runs and act results both state it.
 * @param at when it was stated
 * @example checkClaim("10-test", {headSha: "a".repeat(40), patchSha256: null}, at).claim_id === checkClaimId("10-test", tree) // true
 */
export function checkClaim(step: string, tree: Tree, at: string): ClaimVersion {
  const id = checkClaimId(step, tree);
  return {
    claim_id: id, claim_version_id: `${id}@1`, kind: "check", subject: { step, head_sha: tree.headSha, patch_sha256: tree.patchSha256 },
    statement: `step ${step} passes at ${treeLabel(tree)}`, recorded_at: at, supersedes_claim_version_id: null,
  };
}
