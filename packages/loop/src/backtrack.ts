/** `forge-loop backtrack` (advisory: never changes workspace files). */
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import {
  ENV_NOW,
  intFlag,
  LOOP_ARG,
  loopContext,
  loopIdOf,
  output,
  outFlags,
  READS_EVENTS,
  READS_LOOP_MD,
  roundText,
} from "./_cli.js";
import { backtrackLoop } from "./engine.js";
import { UsageError } from "@forge/core";

export const BACKTRACK_FIELDS = [
  "kind",
  "loop_id",
  "decision",
  "advisory",
  "restoreRound",
  "restoreHeadSha",
  "restoreCodeTree",
  "reopened",
  "checks",
  "status",
  "next",
];

export default defineCommand({
  meta: {
    name: "backtrack",
    description: "Name the round to restore and the checks to run",
    help: {
      reads: [READS_LOOP_MD, READS_EVENTS],
      env: [ENV_NOW],
      examples: [
        "forge-loop backtrack 3f2a --to 2",
        'forge-loop backtrack 3f2a --to 2 --reason "round 3 broke the build" --json restoreHeadSha,checks,reopened',
      ],
      notes: [
        "Advisory: never touches workspace files. Prints the commit and code tree recorded at round N, every " +
          "declared check to run after restoring,",
        "the criteria reopened (verified after N), and opens a new L2 round whose prompt it prints.",
        "The accepted rounds after N are abandoned: --max-rounds counts only the accepted rounds still in effect.",
      ],
    },
  },
  args: {
    ...LOOP_ARG,
    to: { type: "string", valueHint: "round", description: "the accepted round to go back to (required, no default)" },
    reason: { type: "string", valueHint: "text", description: "why, kept in the backtracked event (default: none)" },
    ...outFlags(BACKTRACK_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    if (args.to === undefined) throw new UsageError("missing --to <round>");
    const lc = loopContext(ctx);
    const rec = await backtrackLoop(
      lc,
      loopIdOf(lc, args),
      intFlag(args, "to", 1, 1, 1_000_000),
      (args.reason as string | undefined) ?? null
    );
    await output(ctx, args, BACKTRACK_FIELDS, [rec], roundText);
  },
});
