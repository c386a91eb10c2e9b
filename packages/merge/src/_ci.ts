/**
 * The one place forge-merge runs CI: the steps of the live store's
 * `.forge/ci/steps/` in the disposable worktree where the patch was
 * committed. Red CI is a verdict, not an error.
 */
import { readdirSync } from "node:fs";
import { ciStepOrder, ciStepsDir, ForgeError, type Store } from "@forge/core";

/** What forge-merge needs to know about a CI run. */
export interface CiOutcome {
  verdict: "pass" | "fail" | "cancelled" | "running";
  /** The first step whose outcome was fail or timeout (null on pass). */
  failedStep: string | null;
  /** The run's id, when a run was recorded. */
  run: string | null;
}

/** What a CI run is asked to do. */
export interface CiRequest {
  store: Store;
  /** The live checkout's top level. */
  top: string;
  /** The merge commit, made in `dir`, that CI tests. */
  headSha: string;
  patchSha256: string;
  pr: { id: string };
}

/** Runs CI in a prepared folder (injectable for tests). */
export type RunCi = (dir: string, req: CiRequest) => Promise<CiOutcome>;

/**
 * Run CI. Until `@forge/ci` is part of this build: with no steps the
 * verdict is `pass` (nothing to fail); with steps it refuses.
 * @throws ForgeError when steps exist and no runner is built in
 */
export async function runCi(_dir: string, req: CiRequest): Promise<CiOutcome> {
  let names: string[] = [];
  try {
    names = ciStepOrder(readdirSync(ciStepsDir(req.store)));
  } catch {
    names = [];
  }
  if (names.length === 0) return { verdict: "pass", failedStep: null, run: null };
  throw new ForgeError("CI steps exist but this forge-merge has no CI runner (@forge/ci) built in; nothing was merged", "E_NO_CI", 1);
}
