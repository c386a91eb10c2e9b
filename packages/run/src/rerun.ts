import { ForgeError } from "@forge/core";
import { defineCommand, emit, useColor, type Ctx, type Parsed } from "@forge/cli";
import { rerunRun, Runs, stepLine, viewRun } from "@forge/runner";
import { isFailure, JSON_FLAGS, jsonRequest, runRender, RunShaper, type RunJson } from "./_shared.js";

/**
 * A new run of a run's steps on its tree (forge-ci's rerun). With `failed`
 * only a run that failed is rerun (forge's run is one job: its failed jobs
 * are all of it).
 * @throws ForgeError for --failed on a run with nothing failed
 */
export async function rerunGhRun(ctx: Ctx, ref: string, failed: boolean): Promise<RunJson> {
  const old = await viewRun(ctx, ref);
  if (failed && !isFailure(old.conclusion) && old.conclusion !== "cancelled") {
    throw new ForgeError(`run ${old.databaseId} cannot be rerun; it has no failed jobs`, "E_NO_FAILED", 1);
  }
  const rec = await rerunRun(ctx, old.id, {
    docker: false,
    continueOnError: false,
    progress: (s) => ctx.io.stderr.write(stepLine("", s, useColor(ctx.io))),
  });
  const shaped = await new RunShaper(new Runs(ctx.io).store).shape(rec);
  ctx.io.stderr.write(`✓ Requested rerun ${failed ? "(failed jobs) " : ""}of run ${old.databaseId}\n`);
  return shaped;
}

export default defineCommand({
  meta: {
    name: "rerun",
    description: "Run a run's steps again on the same tree",
    help: {
      reads: [
        [".forge/ci/runs/<id>/", "run records and step logs (machine state, gitignored)"],
        [".forge/ci/ci.env, .forge/ci/steps/", "the posture and the steps (see forge-ci run --help)"],
      ],
      examples: ["forge-run rerun 7", "forge-run rerun 7 --failed"],
    },
  },
  args: {
    run: { type: "positional", required: true, valueHint: "run-id", description: "the run's number, id or prefix" },
    failed: { type: "boolean", description: "only if it failed (its failed jobs: the whole run)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const rec = await rerunGhRun(ctx, args.run as string, args.failed === true);
    await emit(ctx.io, ctx.out, req ? [rec] : [], runRender(args, req, true));
    return rec.verdict === "pass" ? 0 : 1;
  },
});
