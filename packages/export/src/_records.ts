/** Test support: records shaped like forge-ci, forge-merge, forge-act and forge-loop output (not a test file). */

export const HEAD = "a".repeat(40);
export const ENV = "e".repeat(64);
export const PATCH = "b".repeat(64);
export const SIG = "sig-v1:0123456789abcdef0123456789abcdef";

/** A completed CI run with a passing and a failing step. */
export function ciRun(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    databaseId: 1,
    number: 1,
    id,
    status: "completed",
    conclusion: "failure",
    verdict: "fail",
    name: "ci",
    displayTitle: "ci",
    event: "manual",
    headSha: HEAD,
    patchSha256: null,
    envSha256: ENV,
    runner: "local",
    pr: null,
    createdAt: "2026-11-30T03:00:00Z",
    startedAt: "2026-11-30T03:00:00Z",
    updatedAt: "2026-11-30T03:00:02Z",
    completedAt: "2026-11-30T03:00:02Z",
    rerunOf: null,
    steps: [
      { name: "10-ok", outcome: "pass", exitCode: 0, durationMs: 5, signature: null },
      { name: "20-bad", outcome: "fail", exitCode: 1, durationMs: 7, signature: SIG },
    ],
    ...over,
  };
}

/** A merge record. */
export function mergeRec(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "33333333-3333-4333-8333-333333333333",
    pr: "44444444-4444-4444-8444-444444444444",
    patchSha256: PATCH,
    patchId: "f".repeat(40),
    commit: "c".repeat(40),
    baseRefName: "main",
    verdict: "merged",
    failedStep: null,
    createdAt: "2026-11-30T03:10:00Z",
    conflicts: [],
    resolved: [],
    ...over,
  };
}
