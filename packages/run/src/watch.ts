import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { Runs, viewRun } from "@forge/runner";
import { RunShaper, type RunJson } from "./_shared.js";

/**
 * Wait for a run to complete, polling every `interval` seconds.
 * @returns the completed run and whether it had already completed
 */
export async function watchRun(ctx: Ctx, ref: string, interval: number): Promise<{ run: RunJson; already: boolean }> {
  const shaper = new RunShaper(new Runs(ctx.io).store);
  let run = await shaper.shape(await viewRun(ctx, ref));
  if (run.status === "completed") return { run, already: true };
  while (run.status !== "completed") {
    await new Promise((r) => setTimeout(r, interval * 1000));
    run = await shaper.shape(await viewRun(ctx, run.id));
  }
  return { run, already: false };
}

export default defineCommand({
  meta: {
    name: "watch",
    description: "Wait for a run to finish",
    help: {
      reads: [[".forge/ci/runs/<id>/", "run records and step logs (machine state, gitignored)"]],
      examples: ["forge-run watch 7", "forge-run watch 7 --exit-status -i 1"],
    },
  },
  args: {
    run: { type: "positional", required: true, valueHint: "run-id", description: "the run's number, id or prefix" },
    "exit-status": { type: "boolean", description: "exit 1 unless the run succeeded" },
    interval: { type: "string", alias: "i", description: "seconds between polls (3)" },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const raw = (args.interval as string | undefined) ?? "3";
    if (!/^[0-9]+$/.test(raw)) throw new UsageError(`invalid interval '${raw.slice(0, 20)}' (seconds)`);
    const { run, already } = await watchRun(ctx, args.run as string, Number(raw));
    ctx.io.stderr.write(
      already
        ? `Run ${run.displayTitle} (${run.databaseId}) has already completed with '${run.conclusion}'\n`
        : `✓ Run ${run.displayTitle} (${run.databaseId}) completed with '${run.conclusion}'\n`
    );
    return args["exit-status"] === true && run.conclusion !== "success" ? 1 : 0;
  },
});
