/**
 * `forge-loop audit` (read-only): criteria coverage, contradictions,
 * evidence availability, open user gates, sequence completeness.
 */
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { LOOP_ARG, loopContext, loopIdOf, output, outFlags, READS_EVENTS, READS_LOOP_MD } from "./_cli.js";
import type { LoadedLoop } from "./store.js";
import { liveCriteria, openGates, type Finding } from "./state.js";
import { loadLoop } from "./store.js";

export const AUDIT_FIELDS = [
  "kind",
  "loop_id",
  "status",
  "stopReason",
  "criteria",
  "coverage",
  "contradictions",
  "evidence",
  "openGates",
  "regressionObligations",
  "sequenceComplete",
  "events",
  "complete",
];

/** The audit record of a loop (its files already verified by loadLoop). */
export function auditLoop(l: LoadedLoop): Record<string, unknown> {
  const s = l.state;
  const live = liveCriteria(s);
  const evidence = { verified: 0, contradicted: 0, unavailable: 0 };
  const contradictions: Array<Record<string, unknown>> = [];
  for (const e of l.events) {
    if (e.type !== "round_decided") continue;
    for (const f of (e.findings as Finding[]) ?? []) {
      evidence[f.status]++;
      if (f.status === "contradicted")
        contradictions.push({
          round: e.round,
          attempt: e.attempt,
          ref: f.ref,
          target: f.target,
          claimed: f.claimed,
          observed: f.observed,
          detail: f.detail,
        });
    }
  }
  const verified = live.filter((c) => c.status === "verified").length;
  return {
    kind: "loop_audit",
    loop_id: s.id,
    status: s.status,
    stopReason: s.stopReason,
    criteria: live.map((c) => ({
      id: c.id,
      text: c.text,
      status: c.status,
      verifiedRound: c.verifiedRound,
      check: c.argv,
    })),
    coverage: { verified, total: live.length, withoutCheck: live.filter((c) => !c.argv).map((c) => c.id) },
    contradictions,
    evidence,
    openGates: openGates(s).map((g) => ({
      actionHash: g.actionHash,
      description: g.description,
      risks: g.risks ? g.risks.split(",") : [],
    })),
    // Verified criteria with a declared check: they must keep passing (completion reruns them).
    regressionObligations: live
      .filter((c) => c.status === "verified" && c.argv)
      .map((c) => ({ criterion_id: c.id, argv: c.argv, verifiedRound: c.verifiedRound })),
    sequenceComplete: true,
    events: l.events.length,
    complete: s.status === "complete",
  };
}

function formatAudit(r: Record<string, unknown>): string {
  const c = r.coverage as { verified: number; total: number };
  const ev = r.evidence as Record<string, number>;
  return (
    [
      `loop:\t${String(r.loop_id)}`,
      `status:\t${String(r.status)}`,
      `coverage:\t${c.verified}/${c.total} criteria verified`,
      `contradictions:\t${(r.contradictions as unknown[]).length}`,
      `evidence:\t${ev.verified} verified, ${ev.contradicted} contradicted, ${ev.unavailable} unavailable`,
      `open gates:\t${(r.openGates as unknown[]).length}`,
      `events:\t${String(r.events)} (sequence complete)`,
    ].join("\n") + "\n"
  );
}

export default defineCommand({
  meta: {
    name: "audit",
    description: "Audit coverage, contradictions, gates, sequence",
    help: {
      reads: [READS_LOOP_MD, READS_EVENTS],
      examples: [
        "forge-loop audit 3f2a",
        "forge-loop audit 3f2a --json coverage,contradictions,openGates",
        "forge-loop audit 3f2a --jq .regressionObligations",
      ],
      notes: [
        "Read-only: criteria coverage (verified/total, those without a check), every contradiction of every attempt, " +
          "evidence counts by status,",
        "open user gates, regression obligations (verified criteria with a check: they must keep passing), and " +
          "whether the loop is complete.",
        "The files are verified first: a damaged timeline is storage_corruption (exit 1), so sequenceComplete is " +
          "always true.",
      ],
    },
  },
  args: { ...LOOP_ARG, ...outFlags(AUDIT_FIELDS) },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    await output(ctx, args, AUDIT_FIELDS, [auditLoop(await loadLoop(lc.store, loopIdOf(lc, args)))], formatAudit);
  },
});
