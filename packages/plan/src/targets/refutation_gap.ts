/** RefutationGap: a current derived claim verified on a single support (a causal refuter tries to break it). */
import type { NodeLine } from "@forge/contract";
import { BASE_MICROS } from "../config.js";
import type { Found, TargetContext } from "./_context.js";

/** The target of a claim verified on one support, or null. */
export function refutationGap(n: NodeLine, c: TargetContext): Found | null {
  const kind = n.claim_kind;
  if (!n.current || kind === "check" || kind === "patch_effect" || kind === "fixes") return null;
  if (n.verdict !== "verified" || n.support_members !== 1) return null;
  const id = n.claim_id;
  return {
    key: `refutation_gap:${id}`,
    base_micros: BASE_MICROS.RefutationGap,
    refs: [id],
    plan_why: "verified on a single support",
    draft: {
      plan_kind: "OracleCausalRefuter",
      params: { target_node_id: id, max_removed_nodes: c.cfg.max_removed_nodes },
      max_runs: 0,
      description: `causal refuter of ${id}`,
      why: "one support",
    },
  };
}
