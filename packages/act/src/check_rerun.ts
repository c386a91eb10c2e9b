/**
 * CheckRerun: one check at the node's code tree (its commit, plus the PR's
 * patch when there is one), k times through forge-ci's runner in disposable
 * worktrees, the steps before it as its setup (_runner.ts `trialOf`). Sequential: it stops as soon
 * as the question is decided (stopping.ts), never past the plan's
 * repetitions nor the budget of the check's duration (Datadog's table,
 * measured on the first trial), nor past the deadline. After the first
 * trial, two run at once (RERUN_JOBS); the decision is taken after each pair.
 */
import { checkName, type ActReceipt, type CheckRerunPlan, type RerunStats, type TrialRef } from "@forge/contract";
import { entityOrder, ForgeError, formatTimestamp, loadEntity, PR, PRS, readPatch, resolveRef } from "@forge/core";
import { testNameOf } from "@forge/runner";
import { stopReason, type Limits } from "./_clock.js";
import { OUTSIDE_TESTS, receiptsOf, runTrial, trialOf } from "./_runner.js";
import { hostRuns } from "./_hosts.js";
import type { ActContext } from "./context.js";
import { flakeRate, rerunBudget } from "./stopping.js";

/** Reruns at once after the first (steps that share a resource already run side by side in forge-ci's batches). */
export const RERUN_JOBS = 2;

/** The default precision: a fail rate pinned to an interval 0.30 wide. */
export const DEFAULT_PRECISION_MICROS = 300_000;

/** The default most trials. */
export const DEFAULT_REPETITIONS = 10;

/** The outcome of a CheckRerun plan. */
export interface RerunOutcome {
  stats: RerunStats;
  trial_refs: TrialRef[];
  receipts: ActReceipt[];
  known_threats: string[];
  outcome_signature: string;
}

/**
 * Run a CheckRerun plan.
 * @throws ForgeError when the PR or its patch is gone (nothing ran)
 */
export async function checkRerun(ctx: ActContext, plan: CheckRerunPlan): Promise<RerunOutcome> {
  const { step, test, head_sha: headSha, patch_sha256: patchSha } = plan.params;
  // A test's check: the step runs with FORGE_TESTS naming it (a step that ignores it runs whole, every test a trial).
  const check = checkName(step, test);
  const tests =
    test !== undefined && test !== OUTSIDE_TESTS
      ? { step, ids: [test], names: [await testNameOf(ctx.store, step, test)] }
      : undefined;
  const precision = plan.params.precision_micros ?? DEFAULT_PRECISION_MICROS;
  let max = Math.min(plan.params.repetitions ?? DEFAULT_REPETITIONS, plan.budget.max_runs ?? Number.MAX_SAFE_INTEGER);
  // A plan with a patch names its PR (parsePlan checks it).
  const patch = patchSha ? await prPatch(ctx, plan.params.pr!.id, patchSha) : null;
  const refs: TrialRef[] = [];
  const receipts: RerunOutcome["receipts"] = [];
  const threats = new Set<string>();
  let stop = "budget";
  let errorsInARow = 0;
  const req = {
    store: ctx.store,
    top: ctx.top,
    headSha,
    patch,
    patchSha256: patchSha,
    until: step,
    continueOnError: true,
    title: `forge-act ${ctx.actId}`,
    env: ctx.env,
    tests,
  };
  // One worktree's setup shared by the trials (one after another), or each its own (RERUN_JOBS at a time).
  const one = () => (ctx.setups ? ctx.setups.trial(req) : runTrial(req));
  const jobs = ctx.setups ? 1 : RERUN_JOBS;
  // --hosts (a check of a whole step): every trial at once over the hosts, then decided; a test's rerun
  // (FORGE_TESTS) stays local.
  if (ctx.hosts && !tests) {
    const r = await hostRuns(
      { ...ctx, hosts: ctx.hosts },
      [{ headSha, patch, patchSha256: patchSha, title: req.title }],
      max,
      step
    );
    const arm = r.arms[0]!;
    for (const run of arm.runs) {
      threats.add("unisolated_runner");
      refs.push(trialOf(run, check, null));
      receipts.push(...receiptsOf(run));
    }
    const c0 = counts(refs);
    if (arm.error) stop = "setup_error";
    else if (flakeRate(c0.passes, c0.fails, precision).decided) stop = "decided";
    max = 0;
  }
  // The first trial alone (its duration sets the budget), then up to RERUN_JOBS at a time, decided after each batch.
  for (let done = 0; done < max;) {
    const why = stopReason(ctx.limits);
    if (why) {
      stop = why;
      break;
    }
    const batch = done === 0 ? 1 : Math.min(jobs, max - done);
    const rs = await Promise.all(Array.from({ length: batch }, one));
    done += batch;
    // Every trial of the batch is kept, also those beside one whose tree could not be made: each finished run is a
    // trial.
    let treeError = false;
    for (const r of rs) {
      if ("error" in r) {
        refs.push({
          run_id: null,
          step: check,
          side: null,
          outcome: "error",
          head_sha: headSha,
          patch_sha256: patchSha,
          code_tree: null,
          duration_ms: 0,
          signature: null,
          env_sha256: null,
          recorded_at: formatTimestamp(new Date(ctx.limits.now())),
          why: r.error,
        });
        treeError = true;
        continue;
      }
      if (r.run.runner !== "docker") threats.add("unisolated_runner");
      const t = trialOf(r.run, check, null);
      refs.push(t);
      receipts.push(...receiptsOf(r.run));
      if (refs.length === 1 && t.outcome !== "error") max = Math.min(max, rerunBudget(t.duration_ms));
      errorsInARow = t.outcome === "error" ? errorsInARow + 1 : 0;
      if (t.why === "cancelled") stop = "interrupted";
    }
    if (treeError) {
      stop = "setup_error";
      break;
    }
    if (stop === "interrupted") break;
    if (errorsInARow >= 2) {
      stop = "setup_error";
      break;
    }
    const c = counts(refs);
    if (flakeRate(c.passes, c.fails, precision).decided) {
      stop = "decided";
      break;
    }
  }
  const c = counts(refs);
  const rate = flakeRate(c.passes, c.fails, precision);
  const n = c.passes + c.fails;
  const verdict = n === 0 ? "unknown" : c.fails === 0 ? "passing" : c.passes === 0 ? "failing" : "flaky";
  const stats: RerunStats = {
    step,
    ...(test !== undefined ? { test } : {}),
    head_sha: headSha,
    patch_sha256: patchSha,
    tree: plan.params.tree,
    trials: n,
    passes: c.passes,
    fails: c.fails,
    errors: c.errors,
    flake_rate: rate,
    verdict,
    stop,
    budget: ctx.hosts && !tests ? refs.length : max,
  };
  return {
    stats,
    trial_refs: refs,
    receipts,
    known_threats: [...threats].sort(),
    outcome_signature: `${verdict}:${c.fails}/${n}${rate.decided ? "" : ":undecided"}`,
  };
}

function counts(refs: readonly TrialRef[]): { passes: number; fails: number; errors: number } {
  let passes = 0,
    fails = 0,
    errors = 0;
  for (const t of refs) {
    if (t.outcome === "pass") passes++;
    else if (t.outcome === "fail" || t.outcome === "timeout") fails++;
    else if (t.outcome === "error") errors++;
  }
  return { passes, fails, errors };
}

/**
 * A PR's patch, checked against the sha256 the plan names.
 * @throws ForgeError when the PR is gone or its patch is another
 */
export async function prPatch(ctx: ActContext, prId: string, sha: string): Promise<Buffer> {
  const order = await entityOrder(ctx.store, PRS, PR);
  const r = resolveRef(order, prId, "pull request", order.errors);
  const pr = await loadEntity(ctx.store, PRS, PR, r.ref);
  const bytes = readPatch(ctx.store, pr);
  if (pr.data.patchSha256 !== sha)
    throw new ForgeError(
      `pull request ${prId.slice(0, 12)}: its patch is now ${String(pr.data.patchSha256).slice(0, 12)}, the plan ` +
        `names ${sha.slice(0, 12)} (updated PR: plan again)`,
      "E_PATCH_CHANGED",
      1
    );
  return bytes;
}

export type { Limits };
