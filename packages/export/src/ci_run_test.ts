import test from "ava";
import { ciRunBundle, parseCiRun, stepTrialOutcome } from "./ci_run.js";
import { checkClaimId } from "./claim_ids.js";
import { ciRun, ENV, HEAD, PATCH, SIG } from "./_records.js";

const A = "11111111-1111-4111-8111-111111111111";

test("ciRunBundle() makes one check claim per step at the run's tree, and one trial each", (t) => {
  const b = ciRunBundle(parseCiRun(ciRun(A)), "default");
  if ("skip" in b) return t.fail();
  const ok = checkClaimId("10-ok", { headSha: HEAD, patchSha256: null });
  const bad = checkClaimId("20-bad", { headSha: HEAD, patchSha256: null });
  t.deepEqual(
    b.claims.map((c) => [c.claim_id, c.kind, c.subject]),
    [
      [ok, "check", { step: "10-ok", head_sha: HEAD, patch_sha256: null }],
      [bad, "check", { step: "20-bad", head_sha: HEAD, patch_sha256: null }],
    ]
  );
  t.deepEqual(
    b.verification!.trials.map((x) => [
      x.trial_id,
      x.claim_id,
      x.outcome,
      x.duration_ms,
      x.signature,
      x.env_fingerprint,
      x.run_id,
    ]),
    [
      [`${A}:10-ok`, ok, "pass", 5, null, ENV, A],
      [`${A}:20-bad`, bad, "fail", 7, SIG, ENV, A],
    ]
  );
  t.deepEqual(
    b.receipts.map((r) => [r.argv, r.exit_code]),
    [
      [[".forge/ci/steps/10-ok"], 0],
      [[".forge/ci/steps/20-bad"], 1],
    ]
  );
  t.is(b.bundle_id, `ci-run:${A}`);
  t.is(b.promotion_state, null);
  t.deepEqual(b.known_threats, ["unisolated_runner"]);
});

test("checkClaimId() is the same for the same step and tree, and differs with the patch", (t) => {
  const a = checkClaimId("10-ok", { headSha: HEAD, patchSha256: null });
  t.is(a, checkClaimId("10-ok", { headSha: HEAD, patchSha256: null }));
  t.not(a, checkClaimId("10-ok", { headSha: HEAD, patchSha256: PATCH }));
  t.not(a, checkClaimId("20-ok", { headSha: HEAD, patchSha256: null }));
  t.regex(a, /^check:[0-9a-f]{32}$/);
});

test("stepTrialOutcome() maps timeout to fail, cancelled to error and skipped to no trial", (t) => {
  t.deepEqual((["pass", "fail", "timeout", "cancelled", "skipped"] as const).map(stepTrialOutcome), [
    "pass",
    "fail",
    "fail",
    "error",
    null,
  ]);
});

test("ciRunBundle() skips a run that has not completed: it is not evidence", (t) => {
  const b = ciRunBundle(
    parseCiRun(ciRun(A, { status: "in_progress", conclusion: null, verdict: "running", completedAt: null })),
    "default"
  );
  t.deepEqual(b, { skip: `run ${A} is in_progress: skipped, not evidence` });
});

test("ciRunBundle() marks a rerun's trials as retries of the original run", (t) => {
  const b = ciRunBundle(parseCiRun(ciRun(A, { rerunOf: "22222222-2222-4222-8222-222222222222" })), "default");
  if ("skip" in b) return t.fail();
  t.true(b.verification!.trials.every((x) => x.retry_of === "22222222-2222-4222-8222-222222222222"));
});

test("parseCiRun() names the bad field", (t) => {
  t.throws(() => parseCiRun(ciRun(A, { headSha: "xyz" })), { message: "field 'headSha': expected a 40-hex commit" });
  t.throws(() => parseCiRun(ciRun(A, { steps: [{ name: "10-s", outcome: "weird", durationMs: 1 }] })), {
    message: "field 'steps[0].outcome': expected pass|fail|timeout|cancelled|skipped",
  });
  t.throws(() => parseCiRun(ciRun(A, { steps: [{ name: "../../../x", outcome: "pass", durationMs: 1 }] })), {
    message: "field 'steps[0].name': '../../../x' is not a step name (NN-name, like 10-test)",
  });
  t.throws(() => parseCiRun(ciRun(A, { envSha256: undefined })), { message: "field 'envSha256': expected 64 hex" });
  t.throws(() => parseCiRun(ciRun(A, { completedAt: "2026-02-30T00:00:00Z" })), {
    message: "field 'completedAt': expected an RFC 3339 UTC timestamp or null",
  });
  t.throws(() => parseCiRun(ciRun(A, { rerunOf: "AAAAAAAA-1111-4111-8111-111111111111" })), {
    message: "field 'rerunOf': expected a uuid or null",
  });
  const err = t.throws(() => parseCiRun(ciRun(A, { id: "x" })));
  t.like(err, { code: "E_INVALID_RECORD", exitCode: 1, field: "id" }, "a forge error, classified by its code");
});

test("ciRunBundle() carries each step's log digest into its receipt, and null for a record without one", (t) => {
  const run = ciRun(A) as unknown as { steps: Array<Record<string, unknown>> };
  run.steps[0]!.logSha256 = "d".repeat(64);
  const b = ciRunBundle(parseCiRun(run as unknown as Record<string, unknown>), "default");
  if ("skip" in b) return t.fail();
  t.deepEqual(
    b.receipts.map((r) => r.log_digest),
    [`sha256:${"d".repeat(64)}`, null]
  );
  run.steps[0]!.logSha256 = "not hex";
  t.throws(() => parseCiRun(run as unknown as Record<string, unknown>), { message: /logSha256/ });
});

test(
  "a run with a codeTree keys its claims by the tree: two commits of one code tree share them, and an old record " +
    "stays a separate claim",
  (t) => {
    const TREE = "d".repeat(40);
    const b1 = ciRunBundle(parseCiRun(ciRun(A, { codeTree: TREE })), "default");
    const b2 = ciRunBundle(
      parseCiRun(ciRun("22222222-2222-4222-8222-222222222222", { codeTree: TREE, headSha: "c".repeat(40) })),
      "default"
    );
    const old = ciRunBundle(parseCiRun(ciRun("33333333-3333-4333-8333-333333333333")), "default");
    if ("skip" in b1 || "skip" in b2 || "skip" in old) return t.fail();
    t.deepEqual(
      b1.claims.map((c) => c.claim_id),
      b2.claims.map((c) => c.claim_id)
    );
    t.deepEqual(b1.claims[0]!.subject, { step: "10-ok", tree: TREE, patch_sha256: null });
    t.deepEqual(
      b1.claims,
      b2.claims.map((c) => ({ ...c, recorded_at: b1.claims[0]!.recorded_at }))
    );
    t.is(b1.claims[0]!.claim_id, checkClaimId("10-ok", { headSha: "f".repeat(40), patchSha256: null, codeTree: TREE }));
    t.not(old.claims[0]!.claim_id, b1.claims[0]!.claim_id);
    t.is(old.claims[0]!.claim_id, checkClaimId("10-ok", { headSha: HEAD, patchSha256: null }));
    t.not(checkClaimId("10-ok", { headSha: HEAD, patchSha256: PATCH, codeTree: TREE }), b1.claims[0]!.claim_id);
    t.throws(() => parseCiRun(ciRun(A, { codeTree: "nope" })), { message: /field 'codeTree'/ });
  }
);

test("a step with test reports is its tests: one check per test case, and the step beyond its tests", (t) => {
  const T = "2".repeat(40);
  const S2 = "sig-v1:" + "2".repeat(32);
  const tests = [
    { id: "parser › a", name: "a", outcome: "pass", durationMs: 3, signature: null },
    { id: "parser › b", name: "b", outcome: "fail", durationMs: 4, signature: S2 },
    { id: "parser › c", name: "c", outcome: "skip", durationMs: 0, signature: null },
    { id: "parser › d", name: "d", outcome: "error", durationMs: 1, signature: SIG },
  ];
  const steps = [{ name: "20-unit", outcome: "fail", exitCode: 1, durationMs: 9, signature: SIG, tests }];
  const b = ciRunBundle(parseCiRun(ciRun(A, { codeTree: T, steps })), "default");
  if ("skip" in b) return t.fail();
  const tree = { headSha: HEAD, patchSha256: null, codeTree: T };
  const id = (check: string) => checkClaimId(check, tree);
  t.deepEqual(
    b.claims.map((c) => [c.claim_id, c.subject, c.statement]),
    [
      [
        id("20-unit › parser › a"),
        { step: "20-unit", tree: T, patch_sha256: null, test: "parser › a" },
        `test parser › a of step 20-unit passes at tree:${T.slice(0, 12)}`,
      ],
      [
        id("20-unit › parser › b"),
        { step: "20-unit", tree: T, patch_sha256: null, test: "parser › b" },
        `test parser › b of step 20-unit passes at tree:${T.slice(0, 12)}`,
      ],
      [
        id("20-unit › parser › d"),
        { step: "20-unit", tree: T, patch_sha256: null, test: "parser › d" },
        `test parser › d of step 20-unit passes at tree:${T.slice(0, 12)}`,
      ],
      [
        id("20-unit › (outside tests)"),
        { step: "20-unit", tree: T, patch_sha256: null, test: "(outside tests)" },
        `test (outside tests) of step 20-unit passes at tree:${T.slice(0, 12)}`,
      ],
    ]
  );
  t.not(id("20-unit › parser › a"), id("20-unit"), "a test's claim is not its step's");
  t.deepEqual(
    b.verification!.trials.map((x) => [x.trial_id, x.outcome, x.duration_ms, x.signature]),
    [
      [`${A}:20-unit › parser › a`, "pass", 3, null],
      [`${A}:20-unit › parser › b`, "fail", 4, S2],
      [`${A}:20-unit › parser › d`, "fail", 1, SIG],
      // The step failed because its tests did: nothing beyond them failed.
      [`${A}:20-unit › (outside tests)`, "pass", 9, null],
    ]
  );
  t.is(b.receipts.length, 1, "one receipt per step that ran");
  // A step that failed with every test passing (a crash after them) fails beyond its tests; a timeout too.
  const crash = [{ ...steps[0], tests: [tests[0]] }];
  const c = ciRunBundle(parseCiRun(ciRun(A, { codeTree: T, steps: crash })), "default");
  if ("skip" in c) return t.fail();
  t.deepEqual(
    c.verification!.trials.map((x) => [x.trial_id, x.outcome, x.signature]),
    [
      [`${A}:20-unit › parser › a`, "pass", null],
      [`${A}:20-unit › (outside tests)`, "fail", SIG],
    ]
  );
  // A cancelled step is not evidence about its tests: the step's error trial, as before.
  const cancelled = [{ ...steps[0], outcome: "cancelled", exitCode: null, signature: null }];
  const d = ciRunBundle(parseCiRun(ciRun(A, { codeTree: T, steps: cancelled })), "default");
  if ("skip" in d) return t.fail();
  t.deepEqual(
    d.verification!.trials.map((x) => [x.trial_id, x.outcome]),
    [[`${A}:20-unit`, "error"]]
  );
});

test("parseCiRun names a bad test case's field", (t) => {
  const steps = [{ name: "20-unit", outcome: "pass", exitCode: 0, durationMs: 9, tests: [{ id: "x", outcome: "ok" }] }];
  const e = t.throws(() => parseCiRun(ciRun(A, { steps })));
  t.regex(e!.message, /steps\[0\]\.tests\[0\]\.outcome/);
});
