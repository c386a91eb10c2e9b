/**
 * PairedPatch: the PR's base at its recorded tip (baseline) and that plus
 * the PR's patch (patched), each in its own disposable worktree reused by
 * its k repetitions (reset between them: git checkout, read-tree, clean;
 * `--independent-trials`: a fresh worktree each), the two sides run in
 * parallel (p-limit), inside the deadline.
 * Every check gets a typed diff; each issue the PR closes gets a `fixes`
 * verdict that holds only under SWE-bench's FAIL_TO_PASS and PASS_TO_PASS.
 */
import {
  splitCheck,
  type DiffEntry,
  type FixesVerdict,
  type PairedPatchPart,
  type PairedPatchPlan,
} from "@forge/contract";
import { codeTree, formatTimestamp } from "@forge/core";
import { breaksPassToPass, fixesRuleHolds } from "@forge/evidence";
import pLimit from "p-limit";
import { stopReason } from "./_clock.js";
import type { CiRunJson } from "@forge/runner";
import { hostRuns } from "./_hosts.js";
import { receiptsOf, runTrial, trialOf, type TrialRef } from "./_runner.js";
import { ReusedTree } from "./_setup.js";
import { prPatch } from "./check_rerun.js";
import type { ActContext } from "./context.js";
import { rerunBudget } from "./stopping.js";
import { classify } from "./typed_diff.js";

/** The outcome of a PairedPatch plan (what act.ts adds from the plan aside). */
export type PairedOutcome = Omit<
  PairedPatchPart,
  "stop" | "pr" | "closes" | "flaky_at_base" | "candidate_id" | "version_id"
>;

/**
 * Run a PairedPatch plan.
 * @throws ForgeError when the PR or its patch is gone (nothing ran)
 */
export async function pairedPatch(ctx: ActContext, plan: PairedPatchPlan): Promise<PairedOutcome> {
  const { pr, patch_sha256: patchSha, base_sha: baseSha, checks, closes } = plan.params;
  // Checks the plan saw flaky at the base: not PASS_TO_PASS checks (their flakes on the patched side break nothing).
  const flakyAtBase = plan.params.flaky_at_base;
  const k = Math.min(plan.params.repetitions ?? 3, plan.budget.max_runs ?? Number.MAX_SAFE_INTEGER);
  const patch = await prPatch(ctx, pr.id, patchSha);
  const tree = await codeTree(ctx.top, baseSha, ctx.env);
  const t0 = ctx.limits.now();
  const threats = new Set<string>();
  const receipts: PairedOutcome["receipts"] = [];
  // --hosts: both sides' k replicates at once over the hosts (the duration budget is one machine's; not applied).
  const hosts = ctx.hosts
    ? await hostRuns(
        { ...ctx, hosts: ctx.hosts },
        [
          { headSha: baseSha, patch: null, patchSha256: null, title: `forge-act ${ctx.actId} baseline` },
          { headSha: baseSha, patch, patchSha256: patchSha, title: `forge-act ${ctx.actId} patched` },
        ],
        k
      )
    : undefined;
  const side = async (name: "baseline" | "patched") => {
    // One worktree a side, reset between its trials; --independent-trials: a fresh one each.
    const reused = ctx.setups ? new ReusedTree() : null;
    try {
      return await runSide(name, reused);
    } finally {
      await reused?.close();
    }
  };
  const runSide = async (name: "baseline" | "patched", reused: ReusedTree | null) => {
    const s0 = ctx.limits.now();
    const refs: TrialRef[] = [];
    if (hosts) {
      const arm = hosts.arms[name === "baseline" ? 0 : 1]!;
      for (const run of arm.runs) {
        threats.add("unisolated_runner");
        receipts.push(...receiptsOf(run));
        for (const c of checks) refs.push(sideTrial(run, c, name));
      }
      const at = formatTimestamp(new Date(ctx.limits.now()));
      if (arm.error)
        for (const c of checks)
          refs.push(errorRef(c, name, baseSha, name === "patched" ? patchSha : null, tree, at, arm.error));
      const reps = new Set(refs.map((t) => t.run_id)).size;
      return { refs, reps, stop: arm.error ? "error" : "done", wall: ctx.limits.now() - t0 };
    }
    let max = k;
    let stop = "done";
    for (let i = 0; i < max; i++) {
      const why = stopReason(ctx.limits);
      if (why) {
        stop = why;
        break;
      }
      const req = {
        store: ctx.store,
        top: ctx.top,
        headSha: baseSha,
        patch: name === "patched" ? patch : null,
        patchSha256: name === "patched" ? patchSha : null,
        continueOnError: true,
        title: `forge-act ${ctx.actId} ${name}`,
        env: ctx.env,
      };
      const r = reused ? await reused.trial(req) : await runTrial(req);
      if ("error" in r) {
        const at = formatTimestamp(new Date(ctx.limits.now()));
        for (const c of checks)
          refs.push(errorRef(c, name, baseSha, name === "patched" ? patchSha : null, tree, at, r.error));
        stop = "error";
        break;
      }
      if (r.run.runner !== "docker") threats.add("unisolated_runner");
      receipts.push(...receiptsOf(r.run));
      for (const c of checks) refs.push(sideTrial(r.run, c, name));
      if (i === 0) max = Math.min(max, rerunBudget(r.run.steps.reduce((n, s) => n + s.durationMs, 0)));
      if (r.run.verdict === "cancelled") {
        stop = "interrupted";
        break;
      }
    }
    return { refs, reps: new Set(refs.map((t) => t.run_id)).size, stop, wall: ctx.limits.now() - s0 };
  };
  const limit = pLimit(2);
  const [b, p] = await Promise.all([limit(() => side("baseline")), limit(() => side("patched"))]);
  const total = ctx.limits.now() - t0;
  // A side that stopped early for the deadline gets no decision from fewer than two runs; otherwise one is enough.
  const minReps =
    b.stop === "deadline" || p.stop === "deadline" || b.stop === "interrupted" || p.stop === "interrupted"
      ? Math.min(2, k)
      : 1;
  const typed_diff = checks.map((c): DiffEntry => {
    const bs = b.refs.filter((t) => t.step === c);
    const ps = p.refs.filter((t) => t.step === c);
    return {
      check: c,
      category: classify(bs, ps, minReps),
      base_sha: baseSha,
      patch_sha256: patchSha,
      code_tree: tree,
      baseline: tally(bs),
      patched: tally(ps),
    };
  });
  const holds = fixesRuleHolds(typed_diff, flakyAtBase);
  const fixes = closes.map((issue): FixesVerdict => ({
    issue,
    pr,
    patch_sha256: patchSha,
    base_sha: baseSha,
    holds,
    fail_to_pass: typed_diff.filter((d) => d.category === "fixed").map((d) => d.check),
    pass_to_pass: typed_diff.filter((d) => d.category === "still_passing").map((d) => d.check),
    broken: typed_diff.filter((d) => breaksPassToPass(d, flakyAtBase)).map((d) => d.check),
    flaky_at_base: flakyAtBase.filter((c) => checks.includes(c)),
  }));
  return {
    typed_diff,
    fixes,
    trial_refs: [...b.refs, ...p.refs],
    receipts,
    known_threats: [...threats].sort(),
    outcome_signature: typed_diff.map((d) => d.category).join(",") || "no_checks",
    sides: { baseline: { reps: b.reps, stop: b.stop }, patched: { reps: p.reps, stop: p.stop } },
    wall_ms: { baseline: b.wall, patched: p.wall, total },
  };
}

/** A side's trial of a check whose tree could not be made (a patch that does not apply): the harness's error. */
function errorRef(
  step: string,
  side: "baseline" | "patched",
  headSha: string,
  patchSha: string | null,
  tree: string,
  at: string,
  why: string
): TrialRef {
  return {
    run_id: null,
    step,
    side,
    outcome: "error",
    head_sha: headSha,
    patch_sha256: patchSha,
    code_tree: tree,
    duration_ms: 0,
    signature: null,
    env_sha256: null,
    recorded_at: at,
    why,
  };
}

function sideTrial(run: CiRunJson, step: string, side: "baseline" | "patched"): TrialRef {
  // A check is a step or a test of one (`<step> › <test>`): its typed diff is per test then.
  if (run.steps.some((x) => x.name === splitCheck(step).step)) return trialOf(run, step, side);
  const at = run.completedAt ?? run.createdAt;
  return {
    run_id: run.id,
    step,
    side,
    head_sha: run.headSha,
    patch_sha256: run.patchSha256,
    code_tree: run.codeTree,
    env_sha256: run.envSha256,
    recorded_at: at,
    outcome: "skipped",
    duration_ms: 0,
    signature: null,
    why: "no such step",
  };
}

function tally(xs: readonly TrialRef[]): { pass: number; fail: number; error: number } {
  return {
    pass: xs.filter((t) => t.outcome === "pass").length,
    fail: xs.filter((t) => t.outcome === "fail" || t.outcome === "timeout").length,
    error: xs.filter((t) => t.outcome === "error").length,
  };
}
