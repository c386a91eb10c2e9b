import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { formatRun, viewRun } from "@forge/runner";
import { JSON_FLAGS, RUNS_READ, jsonRequest } from "./_shared.js";

export default defineCommand({
  meta: {
    name: "view",
    description: "Show a run: tree, fingerprint, steps",
    help: {
      reads: RUNS_READ,
      examples: ["forge-ci view 3", "forge-ci view 3 --json verdict,steps", "forge-ci view 3 --jq '.steps[].name'"],
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
    const rec = await viewRun(ctx, args.run as string);
    await emit(ctx.io, ctx.out, [rec], {
      json: jsonRequest(args),
      jq: args.jq as string | undefined,
      single: true,
      text: formatRun,
    });
  },
});
