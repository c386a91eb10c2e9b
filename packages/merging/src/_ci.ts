/**
 * The one place the merge ritual runs CI: `@forge/runner` over the live
 * store's `.forge/ci/steps/`, in the disposable worktree where the patch
 * was applied and committed. The run is recorded as a PR run (base tip +
 * the PR's patch, which is exactly the merge commit's tree), so it shows in
 * `forge-ci list` and sets the PR's `ci`. Red CI is a verdict, not an error.
 */
import type { Store } from "@forge/core";

/** What forge-merge needs to know about a CI run. */
export interface CiOutcome {
  verdict: "pass" | "fail" | "cancelled" | "running";
  /** The first step whose outcome was fail or timeout (null on pass). */
  failedStep: string | null;
  /** The run's id. */
  run: string | null;
}

/** What a CI run is asked to do. */
export interface CiRequest {
  store: Store;
  /** The live checkout's top level. */
  top: string;
  /** The base tip the patch was applied on. */
  baseSha: string;
  patch: Uint8Array;
  patchSha256: string;
  pr: { id: string; title: string };
  env: NodeJS.ProcessEnv;
}

/** Runs CI in a prepared folder (injectable for tests). */
export type RunCi = (dir: string, req: CiRequest) => Promise<CiOutcome>;

/**
 * Run CI with `@forge/runner` (no steps: an error, never a pass).
 * @throws ForgeError before any step runs: no steps, a bad `ci.env`, no Docker engine for a docker runner
 */
export async function runCi(dir: string, req: CiRequest): Promise<CiOutcome> {
  // Loaded here, not at the top: `forge-merge pr -h` and `forge-pr merge -h` do not need the runner.
  const { runStepsIn } = await import("@forge/runner");
  const run = await runStepsIn(dir, {
    store: req.store,
    top: req.top,
    headSha: req.baseSha,
    patch: req.patch,
    patchSha256: req.patchSha256,
    pr: { id: req.pr.id },
    title: req.pr.title,
    env: req.env,
  });
  const failed = run.steps.find((s) => s.outcome === "fail" || s.outcome === "timeout");
  const stopped =
    run.verdict === "pass" ? null : run.steps.find((s) => s.outcome !== "pass" && s.outcome !== "skipped");
  const failedStep = failed?.name ?? stopped?.name ?? null;
  return { verdict: run.verdict as CiOutcome["verdict"], failedStep, run: run.id };
}
