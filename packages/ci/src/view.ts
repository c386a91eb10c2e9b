import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import type { CiRunJson } from "./record.js";
import { formatRun, JSON_FLAGS, jsonRequest, Runs } from "./_shared.js";

/** One run, by number, id or prefix. */
export async function viewRun(ctx: Ctx, ref: string): Promise<CiRunJson> {
  const runs = new Runs(ctx.io);
  const { run, number } = await runs.get(ref);
  for (const w of run.warnings) ctx.log.warn(w);
  return runs.json(run, number);
}

export default defineCommand({
  meta: { name: "view", description: "Show a run: tree, fingerprint, steps" },
  args: {
    run: { type: "positional", required: true, valueHint: "run" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const rec = await viewRun(ctx, args.run as string);
    await emit(ctx.io, ctx.out, [rec], { json: jsonRequest(args), jq: args.jq as string | undefined, single: true, text: formatRun });
  },
});
