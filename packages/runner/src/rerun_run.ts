import { existsSync } from "node:fs";
import { ForgeError, gitTopLevel, patchSha256, readStoreBytes } from "@forge/core";
import type { CiRunJson } from "./record.js";
import { runPaths, runStepsIn } from "./run_steps.js";
import { Runs, type RunCtx } from "./runs.js";
import type { StepResult } from "./step.js";
import { withTree } from "./tree.js";

/** The most a kept patch may weigh (as a PR's patch). */
const MAX_PATCH = 64 * 1024 * 1024;

/** Options of a rerun. */
export interface RerunOptions {
  docker: boolean;
  continueOnError: boolean;
  /** Called with each finished step (for a stderr line). */
  progress?: (step: StepResult) => void;
}

/**
 * A new run of the same step files on the same tree: the commit, the patch
 * and the steps are the ones the old run kept, whatever changed since. A
 * different environment than the old run's is said on `ctx.log.warn`.
 * @throws ForgeError when the old run's files are missing or do not match its record
 */
export async function rerunRun(ctx: RunCtx, ref: string, opts: RerunOptions): Promise<CiRunJson> {
  const runs = new Runs(ctx.io);
  const { run, number } = await runs.get(ref);
  const d = run.data;
  const paths = runPaths(runs.store, run.ref.id);
  if (d.status !== "completed") throw new ForgeError(`run ${number} is still ${d.status as string}`, "E_RUNNING", 1);
  let patch: Buffer | null = null;
  if (d.patchSha256) {
    if (!existsSync(paths.patch)) {
      throw new ForgeError(`run ${number} kept no patch.diff: cannot run the same tree`, "E_NO_PATCH", 1);
    }
    patch = readStoreBytes(runs.store, paths.patch, MAX_PATCH);
    if (patchSha256(patch) !== d.patchSha256) {
      throw new ForgeError(`run ${number}: patch.diff does not match its patchSha256`, "E_PATCH_CHANGED", 1);
    }
  }
  const top = await gitTopLevel(ctx.io.cwd, ctx.io.env, "CI runs a commit");
  const rec = await withTree(top, d.headSha as string, patch, (dir) =>
    runStepsIn(dir, {
      store: runs.store,
      top,
      headSha: d.headSha as string,
      patchSha256: (d.patchSha256 as string | undefined) ?? null,
      patch,
      pr: d.pr ? { id: d.pr as string } : null,
      title: d.title as string | undefined,
      stepsFrom: paths.bin,
      rerunOf: run.ref.id,
      docker: opts.docker || d.runner === "docker",
      continueOnError: opts.continueOnError,
      env: ctx.io.env,
      progress: opts.progress && ((_id, s) => opts.progress!(s)),
    })
  );
  if (rec.envSha256 !== d.envSha256) {
    const why = "(ci.env or the runner changed): the runs are not comparable";
    ctx.log.warn(`the environment differs from run ${number}'s ${why}`);
  }
  return rec;
}
