/** `next` and `retry`: one verb shape, two guards (retry only after a rejection; next cannot bypass one). */
import { defineCommand, type Ctx, type ForgeCommand, type Parsed } from "@forge/cli";
import { LOOP_ARG, loopContext, loopIdOf, output, outFlags, readInput, roundText } from "./_cli.js";
import { submitReport } from "./engine.js";

/** Fields of a round's result (a `loop_result` record forge-export imports, plus the decision and the next round). */
export const RESULT_FIELDS = [
  "kind", "schema_version", "loop_id", "round", "attempt", "recorded_at", "head_sha", "code_tree", "criteria", "decision", "reason", "disposition",
  "status", "stopReason", "completion", "findings", "changes", "stateHash", "next",
];

/** The verb for `mode`. */
export function roundVerb(mode: "next" | "retry", description: string): ForgeCommand {
  return defineCommand({
    meta: { name: mode, description },
    args: {
      ...LOOP_ARG,
      report: { type: "string", alias: "F", description: "round report JSON file, - for stdin" },
      ...outFlags(RESULT_FIELDS),
    },
    async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
      const lc = loopContext(ctx);
      const id = loopIdOf(lc, args);
      const raw = await readInput(ctx, args.report, "report");
      const rec = await submitReport(lc, id, raw, mode, args.report === "-" ? "stdin" : String(args.report));
      ctx.io.stderr.write(`${ctx.prog}: round ${String(rec.round)} attempt ${String(rec.attempt)}: ${String(rec.decision)}${rec.reason ? ` (${String(rec.reason)})` : ""}; loop ${String(rec.status)}\n`);
      await output(ctx, args, RESULT_FIELDS, [rec], roundText);
    },
  });
}
