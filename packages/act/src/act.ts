/**
 * Execute one plan and build its act result (spec/evidence.md §6.3 plus
 * spec/loop.md §3): what ran (trial refs to the CI runs, receipts), what it
 * learnt (stats, typed diff, fixes verdicts, the oracle's answer), the
 * outcome signature the pilot's exhaustion rule compares, and how far past
 * its deadline it finished.
 */
import { formatTimestamp } from "@forge/core";
import { contentSha256 } from "@forge/evidence";
import { overrunMs } from "./_clock.js";
import { checkRerun } from "./check_rerun.js";
import type { ActContext } from "./context.js";
import { runOracle } from "./oracle_plan.js";
import { pairedPatch } from "./paired_patch.js";
import { PlanError, type Plan } from "./plan.js";

/** The act result schema tag (the record forge-export takes). */
export const ACT_RESULT_SCHEMA = "forge-act-result/v1";

/** Options of one act. */
export interface ActOptions {
  allowAdvisoryOnly: boolean;
}

/**
 * The id of an act: the plan and the moment it started, hashed.
 * @example actId("ab12", 0).length // 24
 */
export function actId(planId: string, startedMs: number, pid = process.pid): string {
  return contentSha256({ plan_id: planId, started_ms: startedMs, pid }).slice(0, 24);
}

/**
 * Run a plan.
 * @param ctx the world, with the act's id already chosen
 * @throws PlanError (a bad parameter, or an advisory plan without `--allow-advisory-only`); ForgeError when what it names is gone
 */
export async function executePlan(ctx: ActContext, plan: Plan, opts: ActOptions): Promise<Record<string, unknown>> {
  if (plan.advisory && !opts.allowAdvisoryOnly) throw new PlanError("advisory", "an advisory plan runs only with --allow-advisory-only");
  const startedAt = formatTimestamp(new Date(ctx.limits.now()));
  const base: Record<string, unknown> = {
    kind: "act_result", schema_version: ACT_RESULT_SCHEMA, id: ctx.actId, plan_id: plan.plan_id, target_key: plan.target_key, target_kind: plan.target_kind,
    plan_kind: plan.plan_kind, scope: plan.scope, advisory: plan.advisory, started_at: startedAt, completed_at: startedAt,
    candidate_id: null, version_id: null, trace_id: ctx.actId, attempt_id: ctx.actId, supersedes_claim_version_id: null, known_threats: [],
    trials: [], trial_refs: [], typed_diff: null, fixes: [], stats: null, oracle: null, receipts: [], outcome_signature: "", parity_violation: false,
    deadline_ms: ctx.limits.deadlineMs, deadline_overrun_ms: 0, stop: "done",
  };
  let r: Record<string, unknown>;
  switch (plan.plan_kind) {
    case "Advisory":
      r = { advisory: true, outcome_signature: "advisory", advisory_text: typeof plan.params.text === "string" ? plan.params.text : plan.description };
      break;
    case "CheckRerun": {
      const o = await checkRerun(ctx, plan);
      const pr = plan.params.pr as { id?: string } | null | undefined;
      r = {
        ...o, stop: o.stats.stop, candidate_id: pr?.id ? `pr:${pr.id}` : null, version_id: `${o.stats.head_sha}:${o.stats.patch_sha256 ?? "-"}`,
      };
      break;
    }
    case "PairedPatch": {
      const o = await pairedPatch(ctx, plan);
      const pr = plan.params.pr as { id: string };
      const stop = [o.sides.baseline.stop, o.sides.patched.stop].find((s) => s !== "done") ?? "done";
      // `pr`, `closes` and `flaky_at_base` from the plan: forge-export states the fixes claims from them (under the same rule).
      r = {
        ...o, stop, pr: plan.params.pr, closes: plan.params.closes ?? [], flaky_at_base: plan.params.flaky_at_base ?? [], candidate_id: `pr:${pr.id}`,
        version_id: `${plan.params.base_sha as string}:${plan.params.patch_sha256 as string}`,
      };
      break;
    }
    default: {
      const o = runOracle(ctx, plan);
      r = { ...o };
    }
  }
  return { ...base, ...r, completed_at: formatTimestamp(new Date(ctx.limits.now())), deadline_overrun_ms: overrunMs(ctx.limits) };
}
