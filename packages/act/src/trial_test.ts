import test from "ava";
import type { CiRunJson } from "@forge/runner";
import { trialOf } from "./_runner.js";

const SIG = "sig-v1:" + "1".repeat(32);
const STEP_SIG = "sig-v1:" + "2".repeat(32);

function run(step: Partial<CiRunJson["steps"][number]>): CiRunJson {
  return {
    id: "3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d",
    headSha: "a".repeat(40),
    patchSha256: null,
    codeTree: "c".repeat(40),
    envSha256: "e".repeat(64),
    createdAt: "2026-01-01T00:00:00Z",
    completedAt: "2026-01-01T00:00:09Z",
    verdict: "fail",
    steps: [
      {
        name: "10-setup",
        outcome: "pass",
        exitCode: 0,
        durationMs: 5,
        signature: null,
        logSha256: null,
        tests: [],
        reportError: null,
      },
      {
        name: "20-unit",
        outcome: "fail",
        exitCode: 1,
        durationMs: 900,
        signature: STEP_SIG,
        logSha256: null,
        tests: [
          { id: "parser › a", name: "a", outcome: "pass", durationMs: 3, signature: null },
          { id: "parser › b", name: "b", outcome: "fail", durationMs: 4, signature: SIG },
          { id: "parser › c", name: "c", outcome: "skip", durationMs: 0, signature: null },
        ],
        reportError: null,
        ...step,
      },
    ],
  } as unknown as CiRunJson;
}

test("trialOf a test: the test case's outcome in the run, under its check name", (t) => {
  const a = trialOf(run({}), "20-unit › parser › a", null);
  t.like(a, { step: "20-unit › parser › a", outcome: "pass", duration_ms: 3, signature: null, why: null });
  const b = trialOf(run({}), "20-unit › parser › b", null);
  t.like(b, { outcome: "fail", duration_ms: 4, signature: SIG });
});

test("trialOf a test the step skipped or did not report is skipped: no trial, never a pass", (t) => {
  t.like(trialOf(run({}), "20-unit › parser › c", null), { outcome: "skipped", why: "skipped by the step" });
  t.like(trialOf(run({}), "20-unit › parser › zz", null), { outcome: "skipped", why: "not in the step's reports" });
  const refused = run({ tests: [], reportError: "20-unit: report x.xml: refused: too big" });
  t.like(trialOf(refused, "20-unit › parser › a", null), {
    outcome: "skipped",
    why: "20-unit: report x.xml: refused: too big",
  });
});

test("trialOf the step beyond its tests: fails only when no test explains the step's failure", (t) => {
  t.like(trialOf(run({}), "20-unit › (outside tests)", null), { outcome: "pass", signature: null });
  const crash = run({ tests: [{ id: "parser › a", name: "a", outcome: "pass", durationMs: 3, signature: null }] });
  t.like(trialOf(crash, "20-unit › (outside tests)", null), { outcome: "fail", signature: STEP_SIG });
  t.like(trialOf(run({ outcome: "timeout", exitCode: null }), "20-unit › (outside tests)", null), {
    outcome: "timeout",
  });
});

test("trialOf a test whose setup broke is an error, as a step's", (t) => {
  const r = run({});
  (r.steps[0] as { outcome: string }).outcome = "timeout";
  t.like(trialOf(r, "20-unit › parser › a", null), { outcome: "error", why: "setup step 10-setup timeout (exit 0)" });
});
