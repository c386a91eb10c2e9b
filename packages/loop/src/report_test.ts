import test from "ava";
import { parseReport } from "./report.js";

const ok = {
  format: "loopforge.round-report",
  outcome: "partial",
  continuation: "continue",
  summary: "did things",
  violations: [],
};

test("parseReport() takes a minimal report and fills the optional lists", (t) => {
  const r = parseReport(JSON.stringify(ok));
  t.is(r.outcome, "partial");
  t.is(r.disposition, null);
  t.deepEqual(r.evidence, { files: [], checks: [], claims: [] });
  t.deepEqual(r.subGoalEvents, []);
});

test("parseReport() takes evidence, events and a disposition", (t) => {
  const r = parseReport(
    JSON.stringify({
      ...ok,
      disposition: "goal_complete",
      roundId: "rd-00000000",
      evidence: {
        files: ["a.ts", { path: "b.ts", sha256: "a".repeat(64) }],
        checks: [{ name: "node t.js", status: "passed", counts: { passed: 8 } }],
        claims: [{ id: "c1", targetId: "cr-00000001", evidenceRefs: ["command:node t.js"] }],
      },
      subGoalEvents: [
        { event: "added", text: "parser" },
        { event: "completed", id: "sg-00000001" },
      ],
      constraintEvents: [{ id: "c-00000001", event: "retire", reason: "obsolete", evidenceRefs: ["file:a.ts"] }],
      criterionRevisions: [{ from: "cr-00000001", to: "tests pass on node 20", reason: "scope" }],
    })
  );
  t.is(r.disposition, "goal_complete");
  t.deepEqual(r.evidence.files, [
    { path: "a.ts", sha256: null },
    { path: "b.ts", sha256: "a".repeat(64) },
  ]);
  t.is(r.evidence.claims[0]!.targetId, "cr-00000001");
});

const bad: Array<[string, unknown, string]> = [
  ["not JSON", "{", "(report)"],
  ["a wrong format", { ...ok, format: "other" }, "format"],
  ["a missing outcome", { ...ok, outcome: undefined }, "outcome"],
  ["a bad outcome", { ...ok, outcome: "great" }, "outcome"],
  ["blocked without a blocker", { ...ok, outcome: "blocked" }, "blocker"],
  ["a bad continuation", { ...ok, continuation: "maybe" }, "continuation"],
  ["a bad disposition", { ...ok, disposition: "done" }, "disposition"],
  ["an empty summary", { ...ok, summary: " " }, "summary"],
  ["missing violations", { ...ok, violations: undefined }, "violations"],
  ["an unknown field", { ...ok, extra: 1 }, "extra"],
  ["a derived view", { ...ok, progress: 0.9 }, "progress"],
  [
    "a bad check status",
    { ...ok, evidence: { checks: [{ name: "x", status: "green" }] } },
    "evidence.checks[0].status",
  ],
  [
    "a claim without refs",
    { ...ok, evidence: { claims: [{ id: "c", targetId: "cr-1" }] } },
    "evidence.claims[0].evidenceRefs",
  ],
  ["a bad file sha256", { ...ok, evidence: { files: [{ path: "a", sha256: "zz" }] } }, "evidence.files[0].sha256"],
  [
    "a retire without evidence",
    { ...ok, constraintEvents: [{ id: "c-1", event: "retire", reason: "r", evidenceRefs: [] }] },
    "constraintEvents[0].evidenceRefs",
  ],
  ["a sub-goal event without an id", { ...ok, subGoalEvents: [{ event: "completed" }] }, "subGoalEvents[0].id"],
  [
    "a revision without a reason",
    { ...ok, criterionRevisions: [{ from: "cr-1", to: "x" }] },
    "criterionRevisions[0].reason",
  ],
];
for (const [name, report, field] of bad) {
  test(`parseReport() refuses ${name}, naming '${field}'`, (t) => {
    const raw = typeof report === "string" ? report : JSON.stringify(report);
    const err = t.throws(() => parseReport(raw), { code: "E_INVALID_ROUND_REPORT" });
    t.is((err as unknown as { field: string }).field, field);
    t.true(err!.message.startsWith("invalid_round_report: "));
  });
}

test("SEC-10: an unknown field's name is quoted with its control characters shown as '?'", (t) => {
  for (const report of [
    { ...ok, "hunter2\u001b[2J": 1 },
    { ...ok, evidence: { files: [], "x\u0007\r\ny": [] } },
  ]) {
    const err = t.throws(() => parseReport(JSON.stringify(report)));
    t.false(/[\x00-\x1f\x7f]/.test(err.message), err.message);
  }
  t.throws(() => parseReport(JSON.stringify({ ...ok, "hunter2\u001b[2J": 1 })), {
    message: "invalid_round_report: field 'hunter2?[2J': unknown field",
  });
});
