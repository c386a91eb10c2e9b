import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { cancelRun } from "@forge/runner";
import { JSON_FLAGS, RUNS_READ, jsonRequest, note, runRender } from "./_shared.js";

export default defineCommand({
  meta: {
    name: "cancel",
    description: "Cancel a running run",
    help: {
      reads: RUNS_READ,
      examples: ["forge-ci cancel 3", "forge-ci cancel 3 --json verdict,status"],
      notes: [
        "The running step's whole process group is killed; a run whose runner died is finished too. A completed run: " +
          "a note, exit 0.",
      ],
    },
  },
  args: {
    run: {
      type: "positional",
      required: true,
      valueHint: "run",
      description: "a run: its number, or its id or an id prefix",
    },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const { rec, already } = await cancelRun(ctx, args.run as string);
    if (already) note(ctx, `run ${rec.databaseId} already completed (${rec.verdict})`);
    else ctx.io.stderr.write(`✓ Cancelled run ${rec.databaseId}\n`);
    await emit(ctx.io, ctx.out, [rec], runRender(args, jsonRequest(args), true));
  },
});
