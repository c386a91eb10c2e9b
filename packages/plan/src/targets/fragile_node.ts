/**
 * FragileNode: a current check with mixed outcomes whose flake rate is not
 * decided yet (urgent, ≥ 0.80, until it is: then it is resolved as
 * flaky(rate, interval)); or a derived claim below the verification
 * threshold (the smallest support set that flips its verdict).
 */
import type { NodeLine } from "@forge/contract";
import { MICROS, trialsToDecide } from "@forge/kernel";
import { BASE_MICROS } from "../config.js";
import { type Found, rerunDraft, type TargetContext } from "./_context.js";

/** The target of a fragile node, or null. */
export function fragileNode(n: NodeLine, c: TargetContext): Found | null {
  if (!n.current) return null;
  const id = n.claim_id;
  if (n.claim_kind === "check") {
    const fr = n.flake_rate;
    if (n.verdict !== "flaky" || !fr || fr.decided) return null;
    const need = trialsToDecide(n.fails, n.trials, c.precision) - n.trials;
    const draft = rerunDraft(c, n, need, "flake rate undecided");
    return {
      key: `fragile:${id}`,
      base_micros: Math.max(BASE_MICROS.FragileNode, MICROS - (n.belief_micros ?? 0)),
      refs: [id],
      plan_why: draft
        ? `${need} more trials pin the flake rate to ${c.precision / 10_000}%`
        : "no commit known for its tree",
      draft,
    };
  }
  if (n.claim_kind === "patch_effect" || n.claim_kind === "fixes") return null;
  if (n.belief_micros === null || n.verdict === "verified" || n.verdict === "contradicted") return null;
  return {
    key: `fragile:${id}`,
    base_micros: MICROS - n.belief_micros,
    refs: [id],
    plan_why: "smallest support set that flips the verdict",
    draft: {
      plan_kind: "OracleMinimalPerturbation",
      params: { target_node_id: id, max_removed_nodes: c.cfg.max_removed_nodes },
      max_runs: 0,
      description: `minimal perturbation of ${id}`,
      why: "below threshold",
    },
  };
}
