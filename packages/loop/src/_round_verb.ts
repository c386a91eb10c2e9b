/** `next` and `retry`: one verb shape, two guards (retry only after a rejection; next cannot bypass one). */
import { defineCommand, type Ctx, type ForgeCommand, type HelpMeta, type Parsed } from "@forge/cli";
import {
  ENV_NOW,
  LOOP_ARG,
  loopContext,
  loopIdOf,
  output,
  outFlags,
  READS_CI_RUNS,
  READS_EVENTS,
  READS_EXPERIENCE,
  READS_LOOP_MD,
  readInput,
  roundText,
} from "./_cli.js";
import { submitReport } from "./engine.js";

/** Fields of a round's result (a `loop_result` record forge-export imports, plus the decision and the next round). */
export const RESULT_FIELDS = [
  "kind",
  "schema_version",
  "loop_id",
  "round",
  "attempt",
  "recorded_at",
  "head_sha",
  "code_tree",
  "criteria",
  "decision",
  "reason",
  "disposition",
  "status",
  "stopReason",
  "completion",
  "findings",
  "changes",
  "stateHash",
  "next",
];

/** The verb for `mode`. */
export function roundVerb(
  mode: "next" | "retry",
  description: string,
  help: Pick<HelpMeta, "examples" | "notes">
): ForgeCommand {
  return defineCommand({
    meta: {
      name: mode,
      description,
      help: {
        reads: [
          [
            "-F <file>, stdin (-F -)",
            'the round report: JSON {format:"loopforge.round-report", outcome, continuation, summary, violations, ' +
              "evidence, …} (spec/loop-rounds.md §2)",
          ],
          READS_LOOP_MD,
          READS_EVENTS,
          READS_CI_RUNS,
          [READS_EXPERIENCE[0], "the loop's --domain experience, recalled into the next round's prompt"],
        ],
        env: [ENV_NOW],
        ...help,
      },
    },
    args: {
      ...LOOP_ARG,
      report: {
        type: "string",
        alias: "F",
        valueHint: "file|-",
        description: "the round report, a JSON file, or - to read it on stdin (required, no default)",
      },
      ...outFlags(RESULT_FIELDS),
    },
    async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
      const lc = loopContext(ctx);
      const id = loopIdOf(lc, args);
      const raw = await readInput(ctx, args.report, "report");
      const rec = await submitReport(lc, id, raw, mode, args.report === "-" ? "stdin" : String(args.report));
      ctx.io.stderr.write(
        `${ctx.prog}: round ${String(rec.round)} attempt ${String(rec.attempt)}: ${String(rec.decision)}` +
          `${rec.reason ? ` (${String(rec.reason)})` : ""}; loop ${String(rec.status)}\n`
      );
      await output(ctx, args, RESULT_FIELDS, [rec], roundText);
    },
  });
}
