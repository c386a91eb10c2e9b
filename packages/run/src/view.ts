import { ForgeError, UsageError } from "@forge/core";
import { defineCommand, emit, jsonFlags, jsonRequestOf, type Ctx, type Parsed } from "@forge/cli";
import { formatRun, Runs, runLogs, viewRun } from "@forge/runner";
import { isFailure, jobsOf, RunShaper, VIEW_FIELDS, type RunJson } from "./_shared.js";

/** One run in gh's shape. */
export async function viewGhRun(ctx: Ctx, ref: string): Promise<RunJson> {
  return new RunShaper(new Runs(ctx.io).store).shape(await viewRun(ctx, ref));
}

/**
 * gh's `--log` lines, `JOB\tSTEP\tLINE` (forge's one job is `ci`); with
 * `failedOnly` only the steps that failed.
 * @throws ForgeError while the run is in progress (gh's message)
 */
export async function* ghLogLines(ctx: Ctx, run: RunJson, failedOnly: boolean): AsyncGenerator<string> {
  if (run.status !== "completed")
    throw new ForgeError(
      `run ${run.databaseId} is still in progress; logs will be available when it is complete`,
      "E_RUNNING",
      1
    );
  const failed = new Set(run.steps.filter((s) => s.outcome === "fail" || s.outcome === "timeout").map((s) => s.name));
  for await (const chunk of runLogs(ctx, run.id)) {
    for (const l of (chunk as string).split("\n")) {
      if (l === "") continue;
      const step = l.slice(0, l.indexOf("\t"));
      if (failedOnly && !failed.has(step)) continue;
      yield `ci\t${l}\n`;
    }
  }
}

export default defineCommand({
  meta: {
    name: "view",
    description: "Show a run; --log prints its logs",
    help: {
      reads: [[".forge/ci/runs/<id>/", "run records and step logs (machine state, gitignored)"]],
      examples: [
        "forge-run view 7",
        "forge-run view 7 --log-failed",
        "forge-run view 7 --exit-status --json conclusion",
      ],
    },
  },
  args: {
    run: { type: "positional", required: true, valueHint: "run-id", description: "the run's number, id or prefix" },
    "exit-status": { type: "boolean", description: "exit 1 if the run failed" },
    log: { type: "boolean", description: "print the full log (JOB\\tSTEP\\tLINE)" },
    "log-failed": { type: "boolean", description: "print the logs of failed steps only" },
    ...jsonFlags(VIEW_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    if (args.log === true && args["log-failed"] === true)
      throw new UsageError("specify only one of --log or --log-failed");
    const req = jsonRequestOf(args, VIEW_FIELDS);
    const run = await viewGhRun(ctx, args.run as string);
    if (args.log === true || args["log-failed"] === true) {
      for await (const l of ghLogLines(ctx, run, args["log-failed"] === true)) {
        await ctx.out.write(l);
        if (ctx.out.closed) break;
      }
      return 0;
    }
    const ci = await viewRun(ctx, run.id);
    // `jobs` only when asked for (gh fetches them only then): forge's one job, `ci`, and its steps.
    const asked = req !== null && (req.fields === null || req.fields.includes("jobs"));
    const rec: RunJson & { jobs?: ReturnType<typeof jobsOf> } = asked ? { ...run, jobs: jobsOf(run) } : run;
    await emit(ctx.io, ctx.out, [rec], {
      json: req,
      jq: args.jq as string | undefined,
      single: true,
      text: () => formatRun(ci),
    });
    // gh: --exit-status is not applied with --json or --log.
    return !req && args["exit-status"] === true && isFailure(run.conclusion) ? 1 : 0;
  },
});
