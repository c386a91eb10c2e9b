/** `syndrome` lines: one per failure signature, active while a current claim fails with it. */
import type { NodeLine, SyndromeLine } from "@forge/contract";
import type { KernelView } from "@forge/evidence";
import { cmp, syndromeStates } from "@forge/kernel";

/**
 * The syndrome lines, in the view's order.
 * @param current the ids of current claims
 * @param verdictOf each claim's verdict
 */
export function syndromeLines(
  view: KernelView,
  nodes: readonly NodeLine[],
  current: ReadonlySet<string>,
  verdictOf: ReadonlyMap<string, string>
): SyndromeLine[] {
  const nodeById = new Map(nodes.map((x) => [x.claim_id, x]));
  return syndromeStates(view.syndromes, current).map((s) => {
    const stable = s.active_claims.filter((id) => verdictOf.get(id) === "failing").sort(cmp);
    const first = s.active_claims[0];
    const fn = first ? nodeById.get(first) : undefined;
    return {
      // Keys in sorted order, as canonicalLine writes them.
      active: s.active,
      active_claim_ids: s.active_claims,
      claim_ids: s.claims,
      failing_claim_ids: stable,
      kind: "syndrome",
      signature: s.signature,
      tree: fn ? fn.tree : null,
      trials: s.trials,
    };
  });
}
