/**
 * `forge-loop report-template`: a round report ready to fill for the open
 * round of a loop: the format, its roundId, and one claim per open
 * criterion with a declared check (its evidence: that check, which
 * `next` runs again). Filled with a real summary it is a valid report.
 */
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { LOOP_ARG, loopContext, loopIdOf, READS_LOOP_MD } from "./_cli.js";
import { checkName } from "./argv.js";
import { REPORT_FORMAT } from "./report.js";
import { liveCriteria, type LoopState } from "./state.js";
import { loadLoop } from "./store.js";

/** The smallest report `next` accepts (README and `next --help` show it). */
export const MINIMAL_REPORT =
  '{"format":"loopforge.round-report","outcome":"success","continuation":"continue",' +
  '"summary":"what this round did","violations":[]}';

/**
 * The report template of a loop's open round.
 * @example reportTemplate(state).format // "loopforge.round-report"
 */
export function reportTemplate(s: LoopState): Record<string, unknown> {
  const claims = liveCriteria(s)
    .filter((c) => c.status === "open" && c.argv)
    .map((c) => ({ id: `claim-${c.id}`, targetId: c.id, evidenceRefs: [`command:${checkName(c.argv!)}`] }));
  return {
    format: REPORT_FORMAT,
    roundId: s.roundId,
    outcome: "success",
    continuation: "continue",
    disposition: "continue",
    summary: "what this round did",
    violations: [],
    evidence: { files: [], checks: [], claims },
  };
}

export default defineCommand({
  meta: {
    name: "report-template",
    description: "Print a round report to fill for the open round",
    help: {
      reads: [READS_LOOP_MD],
      examples: [
        "forge-loop report-template 3f2a > report.json",
        "forge-loop report-template 3f2a | jq '.summary = \"Fixed the parser\"' | forge-loop next 3f2a -F -",
      ],
      notes: [
        "One claim per open criterion with a declared check (next runs the check again): delete the claims you did " +
          "not meet; outcome success|partial|failed|blocked (blocked needs blocker.reason); disposition " +
          "continue|wait|wait_for_user|goal_complete.",
        `The smallest valid report: ${MINIMAL_REPORT}`,
      ],
    },
  },
  args: { ...LOOP_ARG },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    const l = await loadLoop(lc.store, loopIdOf(lc, args));
    ctx.io.stdout.write(JSON.stringify(reportTemplate(l.state), null, 2) + "\n");
  },
});
