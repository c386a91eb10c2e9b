import test from "ava";
import { canonicalJson } from "@forge/kernel";
import { exportBundle } from "@forge/evidence";
import { actResultBundle } from "./act_result.js";
import { checkClaimId, patchEffectClaimId } from "./claim_ids.js";
import { recordKind } from "./export_records.js";
import { loopResultBundle } from "./loop_result.js";
import { mergeBundle, parseMergeRecord } from "./merge_record.js";
import { ciRun, HEAD, mergeRec, PATCH, SIG } from "./_records.js";

const P = { name: "test", version: "0" };

test("recordKind() tells CI runs, merges, act and loop results and bundles apart", (t) => {
  t.is(recordKind(ciRun("11111111-1111-4111-8111-111111111111")), "ci_run");
  t.is(recordKind(mergeRec()), "merge");
  t.is(recordKind({ kind: "act_result" }), "act_result");
  t.is(recordKind({ kind: "loop_result" }), "loop_result");
  t.is(recordKind({ schema_version: "forge-evidence-bundle/v1" }), "evidence_bundle");
  t.is(recordKind({ id: "x" }), null);
});

test("mergeBundle() records a merge as an episode and an evidence ref, stating no claim", (t) => {
  const b = mergeBundle(parseMergeRecord(mergeRec({ verdict: "ci-failed", failedStep: "20-test" })), "default");
  t.deepEqual(b.claims, []);
  t.is(b.verification, null);
  t.deepEqual(
    b.episodes.map((e) => [e.kind, e.outcome, e.detail.failed_step]),
    [["merge", "ci-failed", "20-test"]]
  );
  t.deepEqual(
    b.evidence_refs.map((r) => r.path),
    [".forge/merges/33333333-3333-4333-8333-333333333333.md"]
  );
  t.notThrows(() => exportBundle(b, P));
});

function act(over: Record<string, unknown> = {}): Record<string, unknown> {
  const trial = (tree: string | null, outcome: string) => ({
    step: "20-test",
    head_sha: HEAD,
    patch_sha256: tree,
    outcome,
    exit_code: outcome === "pass" ? 0 : 1,
    duration_ms: 9,
    signature: outcome === "fail" ? SIG : null,
    recorded_at: "2026-11-30T04:00:00Z",
    env_sha256: "e".repeat(64),
    argv: [".forge/ci/steps/20-test"],
    log_digest: null,
  });
  return {
    kind: "act_result",
    schema_version: "forge-act-result/v1",
    id: "act-1",
    target_key: "fragile:x",
    plan_kind: "PairedPatch",
    advisory: false,
    started_at: "2026-11-30T03:59:00Z",
    completed_at: "2026-11-30T04:00:00Z",
    trials: [trial(null, "fail"), trial(PATCH, "pass")],
    typed_diff: [
      {
        check: "20-test",
        category: "fixed",
        base_sha: HEAD,
        patch_sha256: PATCH,
        baseline: { pass: 0, fail: 1 },
        patched: { pass: 1, fail: 0 },
      },
    ],
    oracle: null,
    ...over,
  };
}

test(
  "actResultBundle() turns trials into check trials and a fixed diff into a patch_effect claim supported by the " +
    "patched check",
  (t) => {
    const b = actResultBundle(act(), "default");
    const patched = checkClaimId("20-test", { headSha: HEAD, patchSha256: PATCH });
    const base = checkClaimId("20-test", { headSha: HEAD, patchSha256: null });
    const effect = patchEffectClaimId("20-test", { headSha: HEAD, patchSha256: PATCH });
    t.deepEqual(b.claims.map((c) => c.claim_id).sort(), [base, patched, effect].sort());
    t.deepEqual(
      b.relations.map((r) => [r.from, r.to, r.kind]),
      [[patched, effect, "supports"]]
    );
    t.deepEqual(
      b.verification!.trials.map((x) => [x.claim_id, x.outcome]),
      [
        [base, "fail"],
        [patched, "pass"],
      ]
    );
    t.notThrows(() => exportBundle(b, P));
  }
);

test("actResultBundle() keeps an advisory result out of the kernel", (t) => {
  const b = actResultBundle(act({ advisory: true }), "default");
  t.is(b.claim_strength, "advisory");
  t.deepEqual(b.claims, []);
});

test("actResultBundle() makes a regressed diff a refutation artifact", (t) => {
  const b = actResultBundle(
    act({
      typed_diff: [
        {
          check: "20-test",
          category: "regressed",
          base_sha: HEAD,
          patch_sha256: PATCH,
          baseline: { pass: 1, fail: 0 },
          patched: { pass: 0, fail: 1 },
        },
      ],
    }),
    "default"
  );
  t.is(b.claim_strength, "refuted");
  t.deepEqual(
    b.refutation!.artifacts.map((a) => a.kind),
    ["regressed"]
  );
});

test("actResultBundle() trial ids do not depend on the order of the trials", (t) => {
  const a = act();
  const ids = (v: Record<string, unknown>) =>
    actResultBundle(v, "s")
      .verification!.trials.map((x) => x.trial_id)
      .sort();
  t.deepEqual(ids({ ...a, trials: [...(a.trials as unknown[])].reverse() }), ids(a));
});

function loop(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: "loop_result",
    schema_version: "forge-loop-result/v1",
    loop_id: "55555555-5555-4555-8555-555555555555",
    round: 2,
    recorded_at: "2026-11-30T04:10:00Z",
    head_sha: HEAD,
    criteria: [
      {
        criterion_id: "cr-0000000a",
        text: "tests pass",
        status: "verified",
        check: { argv: ["pnpm", "test"], exit_code: 0, duration_ms: 100, log_digest: null },
      },
      { criterion_id: "cr-0000000b", text: "docs updated", status: "unavailable", check: null },
    ],
    ...over,
  };
}

test(
  "loopResultBundle() supports a verified criterion by " + "its re-run check and leaves an unchecked one unsupported",
  (t) => {
    const b = loopResultBundle(loop(), "default");
    t.deepEqual(
      b.claims.map((c) => c.kind),
      ["criterion", "check", "criterion"]
    );
    t.is(b.relations.length, 1);
    t.deepEqual(
      b.verification!.trials.map((x) => x.outcome),
      ["pass"]
    );
    t.is(b.claim_strength, "claimed");
    t.notThrows(() => exportBundle(b, P));
  }
);

test("loopResultBundle() refuses a bad criterion id naming the field", (t) => {
  t.throws(() => loopResultBundle(loop({ criteria: [{ criterion_id: "x", status: "verified" }] }), "s"), {
    message: "field 'criteria[0].criterion_id': expected cr-<8 hex>",
  });
});

test(
  "mergeBundle() gives the same bundle bytes for a merge " + "read from its record file or from forge-merge --json",
  (t) => {
    const file = mergeRec();
    // forge-merge --json names the PR as {number, id}, carries fields the file has not, and orders keys its own way.
    const json = Object.fromEntries(
      Object.entries({ ...mergeRec({ pr: { number: 7, id: file.pr } }), url: null }).reverse()
    );
    const bytes = (v: Record<string, unknown>): string =>
      canonicalJson(exportBundle(mergeBundle(parseMergeRecord(v), "s"), P));
    t.is(bytes(json), bytes(file));
    t.not(bytes(mergeRec({ verdict: "conflict" })), bytes(file));
  }
);

test(
  "actResultBundle(): every typed-diff entry is a typed_diff episode; closes + FAIL_TO_PASS + PASS_TO_PASS state " +
    "a fixes claim per issue, a regression states none",
  (t) => {
    const issue = "55555555-5555-4555-8555-555555555555";
    const ok = {
      check: "10-ok",
      category: "still_passing",
      base_sha: HEAD,
      patch_sha256: PATCH,
      baseline: { pass: 1, fail: 0 },
      patched: { pass: 1, fail: 0 },
    };
    const fixed = {
      check: "20-test",
      category: "fixed",
      base_sha: HEAD,
      patch_sha256: PATCH,
      baseline: { pass: 0, fail: 1 },
      patched: { pass: 1, fail: 0 },
    };
    const b = actResultBundle(
      act({ closes: [issue], pr: { id: "44444444-4444-4444-8444-444444444444", number: 1 }, typed_diff: [fixed, ok] }),
      "default"
    );
    t.deepEqual(
      b.episodes.map((e) => [e.kind, e.outcome, e.claim_id]),
      [
        ["typed_diff", "fixed", checkClaimId("20-test", { headSha: HEAD, patchSha256: PATCH })],
        ["typed_diff", "still_passing", checkClaimId("10-ok", { headSha: HEAD, patchSha256: PATCH })],
      ]
    );
    const fixes = b.claims.filter((c) => c.kind === "fixes");
    t.deepEqual(
      fixes.map((c) => c.subject),
      [{ issue, pr: "44444444-4444-4444-8444-444444444444", patch_sha256: PATCH }]
    );
    t.deepEqual(
      b.relations.filter((r) => r.to === fixes[0]!.claim_id).map((r) => [r.from, r.group]),
      [[patchEffectClaimId("20-test", { headSha: HEAD, patchSha256: PATCH }), "fail_to_pass"]]
    );
    t.notThrows(() => exportBundle(b, P));
    const broke = actResultBundle(
      act({ closes: [issue], typed_diff: [fixed, { ...ok, category: "regressed" }] }),
      "default"
    );
    t.deepEqual(
      broke.claims.filter((c) => c.kind === "fixes"),
      []
    );
    t.deepEqual(
      actResultBundle(act({ typed_diff: [fixed] }), "default").claims.filter((c) => c.kind === "fixes"),
      []
    );
  }
);

test(
  "actResultBundle(): the fixes rule is act's own (a skipped check breaks it), and a check named flaky at the " +
    "base may flake on the patched side",
  (t) => {
    const issue = "55555555-5555-4555-8555-555555555555";
    const fixed = {
      check: "20-test",
      category: "fixed",
      base_sha: HEAD,
      patch_sha256: PATCH,
      baseline: { pass: 0, fail: 1 },
      patched: { pass: 1, fail: 0 },
    };
    const net = (category: string) => ({
      check: "30-net",
      category,
      base_sha: HEAD,
      patch_sha256: PATCH,
      baseline: { pass: 3, fail: 0 },
      patched: { pass: 2, fail: 1 },
    });
    const fixes = (over: Record<string, unknown>) =>
      actResultBundle(act({ closes: [issue], ...over }), "default").claims.filter((c) => c.kind === "fixes").length;
    t.is(fixes({ typed_diff: [fixed, net("skipped")] }), 0, "skipped leaves PASS_TO_PASS unknown");
    t.is(fixes({ typed_diff: [fixed, net("flaky_patched")] }), 0, "a flake of a check not known flaky breaks it");
    t.is(fixes({ typed_diff: [fixed, net("flaky_patched")], flaky_at_base: ["30-net"] }), 1);
    t.is(
      fixes({ typed_diff: [fixed, net("regressed")], flaky_at_base: ["30-net"] }),
      0,
      "a regression still breaks it"
    );
  }
);
