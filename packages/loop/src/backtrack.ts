/** `forge-loop backtrack` (advisory: never changes workspace files). */
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { intFlag, LOOP_ARG, loopContext, loopIdOf, output, outFlags, roundText } from "./_cli.js";
import { backtrackLoop } from "./engine.js";
import { UsageError } from "@forge/core";

export const BACKTRACK_FIELDS = ["kind", "loop_id", "decision", "advisory", "restoreRound", "restoreHeadSha", "restoreCodeTree", "reopened", "checks", "status", "next"];

export default defineCommand({
  meta: { name: "backtrack", description: "Name the round to restore and the checks to run" },
  args: { ...LOOP_ARG, to: { type: "string", description: "the accepted round to restore" }, reason: { type: "string", description: "why" }, ...outFlags(BACKTRACK_FIELDS) },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    if (args.to === undefined) throw new UsageError("missing --to <round>");
    const lc = loopContext(ctx);
    const rec = await backtrackLoop(lc, loopIdOf(lc, args), intFlag(args, "to", 1, 1, 1_000_000), (args.reason as string | undefined) ?? null);
    await output(ctx, args, BACKTRACK_FIELDS, [rec], roundText);
  },
});
