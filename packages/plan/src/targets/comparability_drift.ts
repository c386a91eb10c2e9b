/**
 * ComparabilityDrift: a current check whose trials come from more than one
 * environment (its outcomes are not comparable): rerun it in one. A
 * fragile check is FragileNode's (the extractor table takes the first kind).
 */
import type { NodeLine } from "@forge/contract";
import { BASE_MICROS } from "../config.js";
import { type Found, rerunDraft, type TargetContext } from "./_context.js";

/** The target of a check seen in several environments, or null. */
export function comparabilityDrift(n: NodeLine, c: TargetContext): Found | null {
  if (!n.current || n.claim_kind !== "check" || n.env_fingerprints.length <= 1) return null;
  const draft = rerunDraft(c, n, c.minTrials, "comparability drift");
  return {
    key: `drift:${n.claim_id}`,
    base_micros: BASE_MICROS.ComparabilityDrift,
    refs: [n.claim_id],
    plan_why: draft ? "rerun in one environment" : "no commit known for its tree",
    draft,
  };
}
