/**
 * CalibrationCaveat: a current check with fewer than min_trials counted
 * trials (verdict unknown); a regression candidate when it failed at a PR's
 * patch where the base passes. A fragile or drifting check is those
 * kinds' (the extractor table takes the first kind).
 */
import type { Modifier, NodeLine } from "@forge/contract";
import { BASE_MICROS } from "../config.js";
import { type Found, rerunDraft, stepOf, type TargetContext } from "./_context.js";

/** The target of an undercounted check, or null. */
export function calibrationCaveat(n: NodeLine, c: TargetContext): Found | null {
  if (!n.current || n.claim_kind !== "check" || n.verdict !== "unknown" || n.trials >= c.minTrials) return null;
  const id = n.claim_id;
  const mods: Modifier[] = [];
  const s = stepOf(n);
  const atBase = s !== null && n.patch_sha256 !== null ? c.baseByStep.get(s) : undefined;
  if (atBase && atBase.verdict === "passing" && n.fails > 0) {
    mods.push({ delta_micros: 100_000, name: "regression_candidate" });
  }
  const draft = rerunDraft(c, n, c.minTrials - n.trials, "calibration caveat");
  return {
    key: `caveat:${id}`,
    base_micros: BASE_MICROS.CalibrationCaveat,
    modifiers: mods,
    refs: atBase ? [id, atBase.claim_id] : [id],
    plan_why: draft ? `${c.minTrials - n.trials} more trials reach min_trials` : "no commit known for its tree",
    draft,
  };
}
