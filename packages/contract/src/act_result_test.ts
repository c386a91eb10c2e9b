import test from "ava";
import { type ActResultRecord, parseActResult } from "./act_result.js";
import { RecordError } from "./fields.js";

const HEAD = "a".repeat(40);
const PATCH = "b".repeat(64);
const TREE = "c".repeat(40);
const ENV = "e".repeat(64);
const SIG = "sig-v1:0123456789abcdef0123456789abcdef";

const trial = (outcome: string, over: Record<string, unknown> = {}) => ({
  step: "20-test",
  head_sha: HEAD,
  patch_sha256: null,
  code_tree: TREE,
  outcome,
  exit_code: 1,
  duration_ms: 9,
  signature: SIG,
  recorded_at: "2026-11-30T04:00:00Z",
  env_sha256: ENV,
  argv: [".forge/ci/steps/20-test"],
  log_digest: null,
  run_id: "r1",
  retry_of: null,
  ...over,
});
const entry = (over: Record<string, unknown> = {}) => ({
  check: "20-test",
  category: "fixed",
  base_sha: HEAD,
  patch_sha256: PATCH,
  code_tree: TREE,
  baseline: { pass: 0, fail: 3, error: 0 },
  patched: { pass: 3, fail: 0, error: 0 },
  ...over,
});
const line = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  kind: "act_result",
  schema_version: "forge-act-result/v1",
  id: "act-1",
  plan_id: "p1",
  target_key: "fragile:x",
  plan_kind: "PairedPatch",
  advisory: false,
  started_at: "2026-11-30T03:59:00Z",
  completed_at: "2026-11-30T04:00:00Z",
  candidate_id: "pr:p",
  version_id: "v",
  trace_id: "t",
  attempt_id: "a",
  supersedes_claim_version_id: null,
  known_threats: ["unisolated_runner"],
  trials: [trial("fail"), trial("pass", { signature: "not read" }), trial("skipped", { env_sha256: "not read" })],
  typed_diff: [entry()],
  closes: ["i1"],
  flaky_at_base: ["20-test"],
  pr: { id: "p", number: 1 },
  oracle: null,
  ...over,
});

test("parseActResult: a valid line parses to what forge-export reads", (t) => {
  const r: ActResultRecord = parseActResult(line());
  const read = {
    step: "20-test",
    head_sha: HEAD,
    patch_sha256: null,
    code_tree: TREE,
    recorded_at: "2026-11-30T04:00:00Z",
    argv: [".forge/ci/steps/20-test"],
    duration_ms: 9,
    exit_code: 1,
    log_digest: null,
  };
  t.deepEqual(r, {
    id: "act-1",
    advisory: false,
    completed_at: "2026-11-30T04:00:00Z",
    trials: [
      { ...read, outcome: "fail", signature: SIG, env_sha256: ENV, run_id: "r1", retry_of: null },
      { ...read, outcome: "pass", signature: null, env_sha256: ENV, run_id: "r1", retry_of: null },
      { ...read, outcome: "skipped", signature: null, env_sha256: null, run_id: null, retry_of: null },
    ],
    typed_diff: [
      {
        check: "20-test",
        category: "fixed",
        base_sha: HEAD,
        patch_sha256: PATCH,
        code_tree: TREE,
        baseline: { pass: 0, fail: 3 },
        patched: { pass: 3, fail: 0 },
      },
    ],
    closes: ["i1"],
    flaky_at_base: ["20-test"],
    pr: { id: "p", number: 1 },
    supersedes_claim_version_id: null,
    candidate_id: "pr:p",
    target_key: null,
    plan_kind: "PairedPatch",
    version_id: "v",
    trace_id: "t",
    attempt_id: "a",
    known_threats: ["unisolated_runner"],
    oracle: null,
  });
});

test("parseActResult: what a hand-made record may leave out", (t) => {
  const r = parseActResult({
    schema_version: "forge-act-result/v1",
    id: "x",
    completed_at: "2026-11-30T04:00:00Z",
    trials: [],
    target_key: "k",
    plan_kind: "Advisory",
  });
  t.like(r, {
    typed_diff: null,
    closes: [],
    flaky_at_base: [],
    pr: null,
    candidate_id: null,
    target_key: "k",
    known_threats: [],
    oracle: null,
  });
  // flaky_at_base is read only beside a typed diff; the target key only without a candidate or with an oracle.
  t.notThrows(() => parseActResult(line({ typed_diff: null, flaky_at_base: 5 })));
  t.notThrows(() => parseActResult(line({ target_key: undefined })));
  t.is(parseActResult(line({ oracle: { oracle: "conservative" } })).target_key, "fragile:x");
});

/** Each bad field, and its exact message. */
const BAD: Array<[Record<string, unknown>, string]> = [
  [{ schema_version: "forge-act-result/v2" }, "field 'schema_version': expected forge-act-result/v1"],
  [{ id: "" }, "field 'id': expected a non-empty string"],
  [{ completed_at: "2026-02-30T00:00:00Z" }, "field 'completed_at': expected an RFC 3339 UTC timestamp"],
  [{ trials: null }, "field 'trials': expected a list"],
  [{ trials: [5] }, "field 'trials[0]': expected an object"],
  [{ trials: [trial("flaked")] }, "field 'trials[0].outcome': expected pass|fail|timeout|error|skipped"],
  [{ trials: [trial("pass", { head_sha: "main" })] }, "field 'trials[0].head_sha': expected a commit"],
  [{ trials: [trial("pass", { patch_sha256: "x" })] }, "field 'trials[0].patch_sha256': expected 64 hex or null"],
  [{ trials: [trial("pass", { code_tree: "x" })] }, "field 'trials[0].code_tree': expected a 40-hex tree or null"],
  [
    { trials: [trial("pass", { recorded_at: "now" })] },
    "field 'trials[0].recorded_at': expected an RFC 3339 UTC timestamp",
  ],
  [{ trials: [trial("pass", { step: "" })] }, "field 'trials[0].step': expected a non-empty string"],
  [{ trials: [trial("pass", { argv: "x" })] }, "field 'trials[0].argv': expected a list of strings"],
  [{ trials: [trial("pass", { duration_ms: -1 })] }, "field 'trials[0].duration_ms': expected an integer ≥ 0"],
  [{ trials: [trial("pass", { exit_code: "0" })] }, "field 'trials[0].exit_code': expected an integer or null"],
  [{ trials: [trial("pass", { log_digest: 5 })] }, "field 'trials[0].log_digest': expected a string or null"],
  [{ trials: [trial("timeout", { signature: "x" })] }, "field 'trials[0].signature': expected sig-v1:<32 hex> or null"],
  [{ trials: [trial("error", { env_sha256: "x" })] }, "field 'trials[0].env_sha256': expected 64 hex or null"],
  [{ trials: [trial("pass", { run_id: 5 })] }, "field 'trials[0].run_id': expected a string or null"],
  [
    { trials: [trial("pass"), trial("pass", { retry_of: 5 })] },
    "field 'trials[1].retry_of': expected a string or null",
  ],
  [{ typed_diff: {} }, "field 'typed_diff': expected a list"],
  [{ typed_diff: [entry({ check: 5 })] }, "field 'typed_diff[0].check': expected a non-empty string"],
  [{ typed_diff: [entry({ category: "" })] }, "field 'typed_diff[0].category': expected a non-empty string"],
  [{ typed_diff: [entry({ baseline: null })] }, "field 'typed_diff[0].baseline.pass': expected an integer ≥ 0"],
  [{ typed_diff: [entry({ patched: { pass: 1 } })] }, "field 'typed_diff[0].patched.fail': expected an integer ≥ 0"],
  [{ typed_diff: [entry({ base_sha: "x" })] }, "field 'typed_diff[0].base_sha': expected a commit"],
  [{ typed_diff: [entry({ patch_sha256: null })] }, "field 'typed_diff[0].patch_sha256': expected 64 hex"],
  [{ typed_diff: [entry({ code_tree: 5 })] }, "field 'typed_diff[0].code_tree': expected a 40-hex tree or null"],
  [{ closes: "i1" }, "field 'closes': expected a list of strings"],
  [{ flaky_at_base: [5] }, "field 'flaky_at_base': expected a list of strings"],
  [{ supersedes_claim_version_id: 5 }, "field 'supersedes_claim_version_id': expected a string or null"],
  [{ candidate_id: 5 }, "field 'candidate_id': expected a string or null"],
  [{ candidate_id: null, target_key: "" }, "field 'target_key': expected a non-empty string"],
  [{ plan_kind: 5 }, "field 'plan_kind': expected a non-empty string"],
  [{ version_id: 5 }, "field 'version_id': expected a string or null"],
  [{ trace_id: 5 }, "field 'trace_id': expected a string or null"],
  [{ attempt_id: 5 }, "field 'attempt_id': expected a string or null"],
  [{ known_threats: [5] }, "field 'known_threats': expected a list of strings"],
  [{ oracle: { oracle: "x" }, target_key: 5 }, "field 'target_key': expected a non-empty string"],
  // The first bad field is the error.
  [{ id: "", trials: null }, "field 'id': expected a non-empty string"],
  [{ plan_kind: 5, known_threats: 5, closes: 5 }, "field 'closes': expected a list of strings"],
];

test("parseActResult: each bad field is one RecordError (E_INVALID_RECORD, exit 1) naming it", (t) => {
  for (const [over, message] of BAD) {
    const e = t.throws(() => parseActResult(line(over)), { instanceOf: RecordError, message }, JSON.stringify(over));
    t.like(e, { code: "E_INVALID_RECORD", exitCode: 1 });
  }
});
