/**
 * Execute one plan and build its act result (spec/evidence.md §6.3 plus
 * spec/loop.md §3): what ran (trial refs to the CI runs, receipts), what it
 * learnt (stats, typed diff, fixes verdicts, the oracle's answer), the
 * outcome signature the pilot's exhaustion rule compares, and how far past
 * its deadline it finished. One executor per plan kind (EXECUTORS): a new
 * kind in the contract's PLAN_KINDS is a compile error here until it has one.
 */
import {
  ACT_RESULT_SCHEMA,
  type ActResult,
  type ActResultBase,
  type ActResultOf,
  type ActResultParts,
  type Plan,
  PlanError,
  type PlanKind,
  type PlanOf,
} from "@forge/contract";
import { formatTimestamp } from "@forge/core";
import { contentSha256 } from "@forge/evidence";
import { overrunMs } from "./_clock.js";
import { checkRerun } from "./check_rerun.js";
import type { ActContext } from "./context.js";
import { ORACLES } from "./oracle_plan.js";
import { pairedPatch } from "./paired_patch.js";

/** Options of one act. */
export interface ActOptions {
  allowAdvisoryOnly: boolean;
}

/** What one plan kind runs: its part of the act result. */
export type Executor<K extends PlanKind> = (
  ctx: ActContext,
  plan: PlanOf<K>
) => ActResultParts[K] | Promise<ActResultParts[K]>;

/** The executor of each plan kind. */
export const EXECUTORS: { [K in PlanKind]: Executor<K> } = {
  CheckRerun: async (ctx, plan) => {
    const o = await checkRerun(ctx, plan);
    const pr = plan.params.pr;
    const version = `${o.stats.head_sha}:${o.stats.patch_sha256 ?? "-"}`;
    return { ...o, stop: o.stats.stop, candidate_id: pr ? `pr:${pr.id}` : null, version_id: version };
  },
  PairedPatch: async (ctx, plan) => {
    const o = await pairedPatch(ctx, plan);
    const p = plan.params;
    const stop = [o.sides.baseline.stop, o.sides.patched.stop].find((s) => s !== "done") ?? "done";
    // `pr`, `closes` and `flaky_at_base` from the plan: forge-export states the fixes claims from them
    // (under the same rule).
    return {
      ...o,
      stop,
      pr: p.pr,
      closes: p.closes,
      flaky_at_base: p.flaky_at_base,
      candidate_id: `pr:${p.pr.id}`,
      version_id: `${p.base_sha}:${p.patch_sha256}`,
    };
  },
  ...ORACLES,
  Advisory: (_ctx, plan) => ({
    advisory: true,
    outcome_signature: "advisory",
    advisory_text: plan.params.text ?? plan.description,
  }),
};

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
 * @throws PlanError (an advisory plan without `--allow-advisory-only`); ForgeError when what it names is gone
 */
export async function executePlan(ctx: ActContext, plan: Plan, opts: ActOptions): Promise<ActResult> {
  if (plan.advisory && !opts.allowAdvisoryOnly) {
    throw new PlanError("advisory", "an advisory plan runs only with --allow-advisory-only");
  }
  return (await execute(ctx, plan)) as ActResult;
}

async function execute<K extends PlanKind>(ctx: ActContext, plan: PlanOf<K>): Promise<ActResultOf<K>> {
  const startedAt = formatTimestamp(new Date(ctx.limits.now()));
  const base: Omit<ActResultBase, "plan_kind"> & { plan_kind: K } = {
    kind: "act_result",
    schema_version: ACT_RESULT_SCHEMA,
    id: ctx.actId,
    plan_id: plan.plan_id,
    target_key: plan.target_key,
    target_kind: plan.target_kind,
    plan_kind: plan.plan_kind,
    scope: plan.scope,
    advisory: plan.advisory,
    started_at: startedAt,
    completed_at: startedAt,
    candidate_id: null,
    version_id: null,
    trace_id: ctx.actId,
    attempt_id: ctx.actId,
    supersedes_claim_version_id: null,
    known_threats: [],
    trials: [],
    trial_refs: [],
    typed_diff: null,
    fixes: [],
    stats: null,
    oracle: null,
    receipts: [],
    outcome_signature: "",
    parity_violation: false,
    deadline_ms: ctx.limits.deadlineMs,
    deadline_overrun_ms: 0,
    stop: "done",
  };
  const part = await EXECUTORS[plan.plan_kind](ctx, plan);
  const end = { completed_at: formatTimestamp(new Date(ctx.limits.now())), deadline_overrun_ms: overrunMs(ctx.limits) };
  return { ...base, ...part, ...end };
}
