import { ForgeError } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { cancelRun, Runs } from "@forge/runner";
import { JSON_FLAGS, jsonRequest, runRender, RunShaper } from "./_shared.js";

export default defineCommand({
  meta: {
    name: "cancel",
    description: "Cancel a running run",
    help: {
      reads: [[".forge/ci/runs/<id>/", "run records and step logs (machine state, gitignored)"]],
      examples: ["forge-run cancel 7", "forge-run cancel 7 --json status,conclusion"],
    },
  },
  args: {
    run: { type: "positional", required: true, valueHint: "run-id", description: "the run's number, id or prefix" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const { rec, already } = await cancelRun(ctx, args.run as string);
    if (already) throw new ForgeError("Cannot cancel a workflow run that is completed", "E_COMPLETED", 1);
    ctx.io.stderr.write(`✓ Request to cancel workflow ${rec.databaseId} submitted.\n`);
    const shaped = await new RunShaper(new Runs(ctx.io).store).shape(rec);
    await emit(ctx.io, ctx.out, req ? [shaped] : [], runRender(args, req, true));
  },
});
