/**
 * UnverifiedClaimVersion: an issue closed as fixed with no evidence that a
 * patch fixed it (the PR that closes it — the merged one first — is run
 * paired: FAIL_TO_PASS and PASS_TO_PASS on its patch), or a claim with no
 * support and no trial (nothing to verify it with).
 */
import type { PrLine, UnverifiedLine } from "@forge/contract";
import { BASE_MICROS } from "../config.js";
import { type Found, pairedDraft, type TargetContext } from "./_context.js";

/** The target of an unverified line, or null (a claim below threshold is FragileNode's). */
export function unverifiedClaimVersion(u: UnverifiedLine, c: TargetContext): Found | null {
  const cid = u.claim_id;
  if (cid.startsWith("issue:")) {
    const issue = c.issueByClaim.get(cid);
    const closing = (issue?.closing_prs ?? [])
      .map((p) => c.prById.get(p.id))
      .filter((p): p is PrLine => p !== undefined);
    const merged = closing.find((p) => p.state === "merged") ?? closing[0];
    const why = merged
      ? `PR #${merged.number} closes it: FAIL_TO_PASS and PASS_TO_PASS on its patch`
      : "closed with no PR, merge or check to verify it by";
    return {
      key: `unverified:${cid}`,
      base_micros: BASE_MICROS.UnverifiedClaimVersion,
      refs: [cid, ...(merged ? [`pr:${merged.id}`] : [])],
      plan_why: why,
      draft: merged ? pairedDraft(c, merged, why, c.baseSteps) : null,
    };
  }
  if (u.why !== "no_belief") return null;
  return {
    key: `unverified:${cid}`,
    base_micros: BASE_MICROS.UnverifiedClaimVersion,
    refs: [cid],
    plan_why: "no support and no trial: nothing to verify it with",
    draft: null,
  };
}
