/** SupersessionVerification: an open PR whose patch was replaced and has no evidence at its new patch yet. */
import type { PrLine } from "@forge/contract";
import { BASE_MICROS } from "../config.js";
import { type Found, pairedDraft, type TargetContext } from "./_context.js";

/** The target of a PR's replaced patch, or null. */
export function supersessionVerification(p: PrLine, c: TargetContext): Found | null {
  const prev = p.previous_patch_sha256;
  if (p.state !== "open" || prev.length === 0 || p.checks.length > 0) return null;
  const why = "its new patch has no evidence: run it against the base";
  return {
    key: `supersession:${p.patch_sha256}:${prev[prev.length - 1]!}`,
    base_micros: BASE_MICROS.SupersessionVerification,
    refs: [`pr:${p.id}`],
    plan_why: why,
    draft: pairedDraft(c, p, why, c.baseSteps),
  };
}
