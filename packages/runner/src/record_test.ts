import test from "ava";
import { RUN_FIELDS, runTestsOf, runToJson, storedSteps, summaryBody, verdictOf } from "./record.js";
import type { StepResult } from "./step.js";

const pass = (name: string): StepResult => ({ name, outcome: "pass", exitCode: 0, durationMs: 5 });
const fail = (name: string): StepResult => ({
  name,
  outcome: "fail",
  exitCode: 1,
  durationMs: 7,
  signature: "sig-v1:00112233445566778899aabbccddeeff",
  signatureText: ["boom <n>"],
  logSha256: "c".repeat(64),
});
const skip = (name: string): StepResult => ({ name, outcome: "skipped", exitCode: null, durationMs: 0 });

test("verdictOf: cancelled beats fail beats timeout beats pass", (t) => {
  t.deepEqual(verdictOf([pass("a")], false), { verdict: "pass", conclusion: "success" });
  t.deepEqual(verdictOf([], false), { verdict: "pass", conclusion: "success" });
  t.deepEqual(verdictOf([pass("a"), fail("b"), skip("c")], false), { verdict: "fail", conclusion: "failure" });
  t.deepEqual(verdictOf([{ ...pass("a"), outcome: "timeout", exitCode: null }], false), {
    verdict: "fail",
    conclusion: "timed_out",
  });
  t.deepEqual(verdictOf([pass("a")], true), { verdict: "cancelled", conclusion: "cancelled" });
});

test("runToJson has exactly RUN_FIELDS, sorted, with gh's run fields", (t) => {
  const d = {
    id: "3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d",
    status: "completed",
    conclusion: "failure",
    verdict: "fail",
    headSha: "a".repeat(40),
    envSha256: "b".repeat(64),
    runner: "local",
    createdAt: "2026-01-01T00:00:00Z",
    completedAt: "2026-01-01T00:00:09Z",
    steps: storedSteps([pass("10-a"), fail("20-b"), skip("30-c")]),
  };
  const j = runToJson(d, 4, null);
  t.deepEqual(Object.keys(j), [...RUN_FIELDS]);
  t.deepEqual([...RUN_FIELDS].sort(), [...RUN_FIELDS]);
  t.like(j, {
    databaseId: 4,
    number: 4,
    name: "ci",
    displayTitle: "ci",
    event: "manual",
    pr: null,
    patchSha256: null,
    updatedAt: "2026-01-01T00:00:09Z",
  });
  t.deepEqual(j.steps[1], {
    name: "20-b",
    outcome: "fail",
    exitCode: 1,
    durationMs: 7,
    signature: "sig-v1:00112233445566778899aabbccddeeff",
    logSha256: "c".repeat(64),
    tests: [],
    reportError: null,
  });
  t.deepEqual(j.steps[2], {
    name: "30-c",
    outcome: "skipped",
    exitCode: null,
    durationMs: 0,
    signature: null,
    logSha256: null,
    tests: [],
    reportError: null,
  });
  const prId = "9b8a7c6d-5e4f-4a3b-b2c1-d0e9f8a7b6c5";
  const pr = runToJson(
    {
      ...d,
      pr: prId,
      title: "Fix it",
      status: "in_progress",
      completedAt: undefined,
      conclusion: undefined,
    },
    1,
    3
  );
  t.like(pr, {
    event: "pull_request",
    displayTitle: "Fix it",
    pr: { id: prId, number: 3 },
    conclusion: "",
    completedAt: null,
  });
});

test("summaryBody: a table, the verdict with the first failed step, and each signature's masked text", (t) => {
  const body = summaryBody([pass("10-a"), fail("20-b"), skip("30-c")], "fail");
  t.true(body.includes("| 20-b | fail | 1 | 0.0 s |"));
  t.true(body.includes("| 30-c | skipped |  |  |"));
  t.true(body.includes("verdict: fail (20-b)"));
  t.true(body.includes("20-b sig-v1:00112233445566778899aabbccddeeff:\n\n    boom <n>\n"));
});

test("runToJson shows a step's tests and a refused report from tests.json; the summary names failed tests", (t) => {
  const tests = [
    { id: "parser › a", name: "a", outcome: "pass" as const, durationMs: 3, signature: null },
    { id: "parser › b", name: "b", outcome: "fail" as const, durationMs: 4, signature: "sig-v1:" + "1".repeat(32) },
  ];
  const steps: StepResult[] = [
    { ...fail("20-b"), tests },
    { ...pass("30-c"), reportError: "30-c: report x.xml: refused: no" },
  ];
  const d = {
    id: "3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d",
    status: "completed",
    verdict: "fail",
    headSha: "a".repeat(40),
    envSha256: "b".repeat(64),
    runner: "local",
    createdAt: "2026-01-01T00:00:00Z",
    steps: storedSteps(steps),
  };
  t.false("tests" in storedSteps(steps)[0]!, "the summary's frontmatter keeps no test cases");
  const j = runToJson(d, 1, null, runTestsOf(steps));
  t.deepEqual(j.steps[0]!.tests, tests);
  t.is(j.steps[0]!.reportError, null);
  t.deepEqual(j.steps[1]!.tests, []);
  t.is(j.steps[1]!.reportError, "30-c: report x.xml: refused: no");
  const body = summaryBody(steps, "fail");
  t.regex(body, /20-b: 2 tests, 1 failed\n {4}fail parser › b sig-v1:1{32}\n/);
  t.regex(body, /\n30-c: report x\.xml: refused: no\n/);
});
