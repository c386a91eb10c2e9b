import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { rerunRun } from "@forge/runner";
import { CI_READS, JSON_FLAGS, RUNS_READ, jsonRequest, runRender, stepLine } from "./_shared.js";

export default defineCommand({
  meta: {
    name: "rerun",
    description: "Run a run's steps again on its tree",
    help: {
      reads: [...CI_READS, ...RUNS_READ],
      examples: ["forge-ci rerun 3", "forge-ci rerun 3 --docker --json verdict"],
      notes: ["Exit 1 when the new run is red."],
    },
  },
  args: {
    run: {
      type: "positional",
      required: true,
      valueHint: "run",
      description: "the run to repeat: its number, or its id or an id prefix",
    },
    docker: {
      type: "boolean",
      description: "run the steps in ci.env's image, whatever runner= says (no engine: an error)",
    },
    "continue-on-error": { type: "boolean", description: "run every step, also after one fails" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const rec = await rerunRun(ctx, args.run as string, {
      docker: args.docker === true,
      continueOnError: args["continue-on-error"] === true,
      progress: (s) => ctx.io.stderr.write(stepLine(ctx.io, "", s)),
    });
    await emit(ctx.io, ctx.out, [rec], runRender(args, jsonRequest(args), true));
    return rec.verdict === "pass" ? 0 : 1;
  },
});
