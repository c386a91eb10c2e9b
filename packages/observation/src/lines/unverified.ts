/**
 * `unverified` lines, by claim id: issues closed as fixed with no verified
 * `fixes` claim, and derived claims with no verification. Checks have
 * verdicts of their own, patch effects their typed-diff category, and
 * `fixes` claims are questioned through their issue.
 */
import type { IssueLine, NodeLine, UnverifiedLine } from "@forge/contract";
import { cmp } from "@forge/kernel";

/**
 * The unverified lines.
 * @param verdictOf each claim's verdict
 */
export function unverifiedLines(
  issues: readonly IssueLine[],
  nodes: readonly NodeLine[],
  verdictOf: ReadonlyMap<string, string>
): UnverifiedLine[] {
  const unverified: UnverifiedLine[] = [];
  for (const i of issues) {
    const fix = i.fix_evidence;
    if (fix.some((id) => verdictOf.get(id) === "verified")) continue;
    const why =
      fix.length > 0
        ? "fix_evidence_unverified"
        : i.closed_by !== null
          ? "merged_without_fix_evidence"
          : "closed_without_evidence";
    unverified.push({
      claim_id: `issue:${i.id}`,
      claim_kind: "fixes",
      fix_evidence: fix,
      issue: { id: i.id, number: i.number },
      kind: "unverified",
      why,
    });
  }
  for (const nd of nodes) {
    if (nd.claim_kind === "check" || nd.claim_kind === "patch_effect" || nd.claim_kind === "fixes") continue;
    if (nd.verdict === "unverified" || nd.verdict === "unavailable") {
      unverified.push({
        claim_id: nd.claim_id,
        claim_kind: nd.claim_kind,
        kind: "unverified",
        why: nd.belief_micros === null ? "no_belief" : "below_threshold",
      });
    }
  }
  return unverified.sort((x, y) => cmp(x.claim_id, y.claim_id));
}
