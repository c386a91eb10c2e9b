/**
 * ActiveSyndrome: a current check fails with one signature and no pass. At
 * the base: an open PR whose patch passes the failing step is verified as
 * the fix (paired); else a failure not yet bounded (fewer trials than its
 * Clopper–Pearson bound needs) is rerun, as Bazel retries a failure before
 * believing it (a pass makes it flaky); a bounded failure with no PR to try
 * has no executable plan: no oracle can change what its trials say. At a
 * PR's patch only: the diff against the base is typed (paired), then a
 * failure there not yet bounded is rerun at the patch (a regression is said
 * only when bounded).
 */
import type { NodeLine, SyndromeLine } from "@forge/contract";
import { cmp, trialsToBound } from "@forge/kernel";
import { BASE_MICROS } from "../config.js";
import { type Found, pairedDraft, type PlanDraft, rerunDraft, stepOf, type TargetContext } from "./_context.js";

/** The target of an active syndrome with a stable failure, or null. */
export function activeSyndrome(s: SyndromeLine, c: TargetContext): Found | null {
  if (!s.active) return null;
  const stable = s.failing_claim_ids
    .map((id) => c.nodeById.get(id))
    .filter((n): n is NodeLine => !!n && n.signatures.length === 1);
  if (stable.length === 0) return null;
  const atBase = stable.filter((n) => n.patch_sha256 === null);
  const atPr = stable.filter((n) => n.patch_sha256 !== null && n.pr !== null);
  let draft: PlanDraft | null;
  let why: string;
  if (atBase.length > 0) {
    const steps = new Set(atBase.map(stepOf));
    // An open PR whose current patch makes the failing step pass: verify it as the fix (FAIL_TO_PASS, PASS_TO_PASS).
    const fixer = c.o.prs
      .filter((p) => p.state === "open")
      .sort((a, b) => a.number - b.number)
      .find((p) =>
        c.o.nodes.some(
          (n) =>
            n.patch_sha256 === p.patch_sha256 &&
            n.claim_kind === "check" &&
            steps.has(stepOf(n)) &&
            n.passes > 0 &&
            n.fails === 0
        )
      );
    if (fixer) {
      why = `open PR #${fixer.number} passes the failing step at its patch`;
      draft = pairedDraft(c, fixer, why, c.baseSteps);
    } else {
      const bound = trialsToBound(c.precision);
      // Undecided: the node's bound says so (an older line without one: fewer trials than the bound needs).
      const open = atBase
        .filter((n) => !(n.bound?.decided ?? n.trials >= bound))
        .sort((a, b) => a.trials - b.trials || cmp(a.claim_id, b.claim_id));
      const n = open[0];
      if (n) {
        const need = Math.max(1, bound - n.trials);
        why = `${n.trials} failing trials do not bound the failure: rerun it (Bazel's retry of a failure)`;
        draft = rerunDraft(c, n, need, "failure not bounded");
        if (!draft) why = "failure not bounded, and no commit known for its tree";
      } else {
        why = "failure bounded by its trials and no PR passes the failing step: no plan can change what is known";
        draft = null;
      }
    }
  } else if (atPr.length > 0) {
    const pr = c.prById.get(atPr[0]!.pr!.id)!;
    const bound = trialsToBound(c.precision);
    // Typed already (the PR's effects name every failing step): a regression is said only once its failure at the
    // patch is bounded, so the missing trials are rerun there; else the diff against the base is typed (paired).
    const typed = atPr.every((n) => (pr.effects ?? {})[stepOf(n)!] !== undefined);
    const open = atPr
      .filter((n) => !(n.bound?.decided ?? n.trials >= bound))
      .sort((a, b) => a.trials - b.trials || cmp(a.claim_id, b.claim_id));
    if (typed && open[0]) {
      const n = open[0];
      why = `${n.trials} failing trials at PR #${pr.number}'s patch do not bound the failure: rerun it there`;
      draft = rerunDraft(c, n, Math.max(1, bound - n.trials), "failure not bounded");
      if (!draft) why = "failure not bounded, and no commit known for its tree";
    } else if (typed) {
      why = `the failure at PR #${pr.number}'s patch is typed and bounded: no plan can change what is known`;
      draft = null;
    } else {
      why = `the failure is stable at PR #${pr.number}'s patch: type the diff against the base`;
      draft = pairedDraft(c, pr, why, [...new Set([...c.baseSteps, ...atPr.map((n) => stepOf(n)!)])].sort(cmp));
    }
  } else return null;
  return {
    key: `syndrome:${s.signature}`,
    base_micros: BASE_MICROS.ActiveSyndrome,
    refs: stable.map((n) => n.claim_id).sort(cmp),
    plan_why: why,
    draft,
  };
}
