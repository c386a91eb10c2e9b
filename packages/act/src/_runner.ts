/**
 * One trial through forge-ci's runner, as a library: a disposable worktree
 * of a commit (with a patch), the CI steps run there and recorded as a CI
 * run under `.forge/ci/runs/`. The run record is the trial's home: an act
 * result references it by `run_id` and never copies it. The worktree's
 * scratch folder carries this process's pid, written (atomically: a pilot
 * never reads half of it) before the worktree is added, so a pilot that
 * finds it after a SIGKILL knows whose it was.
 */
import { splitCheck, type TrialRef } from "@forge/contract";
import { join } from "node:path";
import { atomicWrite, type Store } from "@forge/core";
import { runStepsIn, withTree, type CiRunJson, type TestsRequest } from "@forge/runner";

/** The file beside an act's worktree that names the process that made it. */
export const OWNER_FILE = "forge-act.pid";

/** What one run needs. */
export interface TrialRequest {
  store: Store;
  top: string;
  headSha: string;
  patch: Buffer | null;
  patchSha256: string | null;
  /** The last step to run (its setup before it), or undefined: every step. */
  until?: string;
  continueOnError: boolean;
  title: string;
  env: NodeJS.ProcessEnv;
  /** The tests of a step to ask for (`FORGE_TESTS`), when the check is a test. */
  tests?: TestsRequest;
}

/** What forge-ci's runner is asked for one trial (a worktree's own setup, or a shared one adds `from`/`setupId`). */
export function stepsRequest(req: TrialRequest) {
  return {
    store: req.store,
    top: req.top,
    headSha: req.headSha,
    patchSha256: req.patchSha256,
    patch: req.patch,
    pr: null,
    title: req.title,
    continueOnError: req.continueOnError,
    until: req.until,
    env: req.env,
    tests: req.tests,
  };
}

/**
 * Run once; a tree that cannot be made (no commit, a patch that does not
 * apply) is returned as an error, not thrown: it is the harness's failure.
 */
export async function runTrial(req: TrialRequest): Promise<{ run: CiRunJson } | { error: string }> {
  try {
    const run = await withTree(req.top, req.headSha, req.patch, (dir) => runStepsIn(dir, stepsRequest(req)), {
      mark: (tmp) => atomicWrite(join(tmp, OWNER_FILE), `${process.pid}\n`),
    });
    return { run };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    if (typeof e.code === "string" && (e.code === "E_PATCH_FAILED" || e.code === "E_WORKTREE"))
      return { error: String(e.message) };
    throw err;
  }
}

/** A trial as the act result references it (the contract's). */
export type { TrialRef };

/**
 * The trial of `step` in a finished run. The steps before it are its setup:
 * a setup step that could not finish (timed out, cancelled, or could not
 * start: exit 126/127) makes the trial `error`, never `fail`, as does a
 * target that did not run. A setup step that finishes with a failing exit
 * code is a check's outcome of its own (forge-ci's steps are checks, run
 * independently with --continue-on-error), not a broken setup.
 */
export function trialOf(run: CiRunJson, check: string, side: TrialRef["side"]): TrialRef {
  const { step, test } = splitCheck(check);
  const i = run.steps.findIndex((x) => x.name === step);
  const s = i < 0 ? undefined : run.steps[i]!;
  const at = run.completedAt ?? run.createdAt;
  const base = {
    run_id: run.id,
    step: check,
    side,
    head_sha: run.headSha,
    patch_sha256: run.patchSha256,
    code_tree: run.codeTree,
    env_sha256: run.envSha256,
    recorded_at: at,
  };
  const broken = run.steps
    .slice(0, Math.max(0, i))
    .find((x) => x.outcome === "timeout" || x.outcome === "cancelled" || x.exitCode === 126 || x.exitCode === 127);
  // The cache's install step restored, not run: no trial of it (a rerun of that step itself always runs it).
  if (s?.cache === "hit")
    return { ...base, outcome: "skipped", duration_ms: 0, signature: null, why: "restored from the cache, not run" };
  if (!s || s.outcome === "skipped" || s.outcome === "cancelled" || broken) {
    const why =
      s?.outcome === "cancelled" || run.verdict === "cancelled"
        ? "cancelled"
        : broken
          ? `setup step ${broken.name} ${broken.outcome}${broken.exitCode !== null ? ` (exit ${broken.exitCode})` : ""}`
          : "did not run";
    return { ...base, outcome: "error", duration_ms: s?.durationMs ?? 0, signature: null, why };
  }
  if (test !== null) return testTrial(base, s, test);
  return { ...base, outcome: s.outcome, duration_ms: s.durationMs, signature: s.signature, why: null };
}

/**
 * The trial of one test of a step that ran (its check is `<step> › <test>`): the test case's outcome in the
 * step's reports (fail and error: `fail`); a test the run did not report, or skipped (a name filter that left
 * it out), is `skipped`: no trial, as forge-export counts it. `(outside tests)` is the step beyond its tests.
 */
function testTrial(
  base: Omit<TrialRef, "outcome" | "duration_ms" | "signature" | "why">,
  s: CiRunJson["steps"][number],
  test: string
): TrialRef {
  const tests = s.tests ?? [];
  if (test === OUTSIDE_TESTS && tests.length > 0) {
    const failed = tests.some((c) => c.outcome === "fail" || c.outcome === "error");
    const bad = s.outcome === "timeout" || (s.outcome === "fail" && !failed);
    const outcome = bad ? (s.outcome as "fail" | "timeout") : "pass";
    return { ...base, outcome, duration_ms: s.durationMs, signature: bad ? s.signature : null, why: null };
  }
  const c = tests.find((x) => x.id === test);
  if (!c || c.outcome === "skip") {
    const why = s.reportError ?? (c ? "skipped by the step" : "not in the step's reports");
    return { ...base, outcome: "skipped", duration_ms: 0, signature: null, why };
  }
  const failed = c.outcome === "fail" || c.outcome === "error";
  return { ...base, outcome: failed ? "fail" : "pass", duration_ms: c.durationMs, signature: c.signature, why: null };
}

/** The check of a step with reports beyond its tests (forge-export's name for it). */
export const OUTSIDE_TESTS = "(outside tests)";

/** The receipts of a run: one per step that ran (argv, exit code, duration, log digest). */
export function receiptsOf(
  run: CiRunJson
): Array<{ run_id: string; argv: string[]; exit_code: number | null; duration_ms: number; log_digest: string | null }> {
  return run.steps
    .filter((s) => s.outcome !== "skipped")
    .map((s) => ({
      run_id: run.id,
      argv: [`.forge/ci/steps/${s.name}`],
      exit_code: s.exitCode,
      duration_ms: s.durationMs,
      log_digest: s.logSha256 ? `sha256:${s.logSha256}` : null,
    }));
}
