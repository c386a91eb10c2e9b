import test from "ava";
import { PLAN_KINDS } from "./plan_kind.js";
import { type Plan, PlanError, type PlanParams, parsePlan } from "./plan.js";

// The kind's params are checked with the line: a CheckRerun needs its commit.
const base = {
  kind: "plan",
  plan_id: "p1",
  plan_kind: "CheckRerun",
  target_key: "fragile:x",
  params: { step: "10-unit", head_sha: "a".repeat(40) },
};

test("parsePlan: defaults for the optional fields; an Advisory plan is always advisory", (t) => {
  const p = parsePlan(base);
  t.is(p.scope, "default");
  t.deepEqual(p.budget, { max_runs: null, deadline_ms: null });
  t.false(p.advisory);
  t.true(parsePlan({ ...base, plan_kind: "Advisory", advisory: false }).advisory);
});

test("parsePlan names the bad field", (t) => {
  const e = t.throws(() => parsePlan({ ...base, plan_kind: "RunEverything" }), { instanceOf: PlanError });
  t.regex(e.message, /field 'plan_kind'/);
  t.regex(t.throws(() => parsePlan({ ...base, budget: { deadline_ms: -1 } }))!.message, /budget\.deadline_ms/);
  t.regex(t.throws(() => parsePlan({ ...base, check_hints: [1] }))!.message, /check_hints/);
  t.regex(t.throws(() => parsePlan({ ...base, plan_id: "" }))!.message, /plan_id/);
});

const HEAD = "a".repeat(40);
const PATCH = "b".repeat(64);
const PR = { id: "44444444-4444-4444-8444-444444444444", number: 7 };

/** A valid line's params of each kind: what the line gives is what it parses to. */
const VALID: { [K in keyof PlanParams]: PlanParams[K] } = {
  CheckRerun: {
    step: "20-test",
    head_sha: HEAD,
    tree: "c".repeat(40),
    patch_sha256: PATCH,
    pr: PR,
    repetitions: 5,
    precision_micros: 200_000,
    why: "w",
  },
  PairedPatch: {
    pr: PR,
    patch_sha256: PATCH,
    base_ref: "main",
    base_sha: HEAD,
    checks: ["10-a", "20-b"],
    repetitions: 3,
    closes: ["i1"],
    flaky_at_base: [],
  },
  OracleExactBounded: { target_node_id: "check:1" },
  OracleConservative: {},
  OracleDeltaParity: { changed_node_ids: ["check:1"], max_iterations: 4 },
  OracleTemporalReplay: { cutoff_recorded_at: "2026-11-30T00:00:00Z" },
  OracleCausalRefuter: { target_node_id: "check:1", max_removed_nodes: 2 },
  OracleMinimalPerturbation: { target_node_id: "check:1", max_removed_nodes: 2 },
  Advisory: { text: "look" },
};

const DEADLINE = 1_767_225_600_000;
const line = (kind: string, params: unknown, over: Record<string, unknown> = {}) => ({
  kind: "plan",
  schema_version: "forge-plan/v1",
  plan_id: "p1",
  plan_kind: kind,
  target_key: "t:1",
  target_kind: "FragileNode",
  scope: "s",
  params,
  budget: { max_runs: 3, deadline_ms: DEADLINE },
  advisory: false,
  description: "d",
  rationale: "r",
  check_hints: ["h"],
  ...over,
});

test("parsePlan: a valid line of every kind parses to its typed params and the common fields", (t) => {
  t.deepEqual(Object.keys(VALID).sort(), [...PLAN_KINDS].sort());
  for (const kind of PLAN_KINDS) {
    const p: Plan = parsePlan(line(kind, structuredClone(VALID[kind])));
    t.deepEqual(
      p,
      {
        plan_id: "p1",
        plan_kind: kind,
        target_key: "t:1",
        target_kind: "FragileNode",
        scope: "s",
        params: VALID[kind],
        budget: { max_runs: 3, deadline_ms: DEADLINE },
        advisory: kind === "Advisory",
        description: "d",
        rationale: "r",
        check_hints: ["h"],
      } as Plan,
      kind
    );
  }
});

test("parsePlan: absent optional params are null (the executor's default) or empty lists", (t) => {
  t.deepEqual(parsePlan(line("CheckRerun", { step: "s", head_sha: HEAD })).params, {
    step: "s",
    head_sha: HEAD,
    tree: null,
    patch_sha256: null,
    pr: null,
    repetitions: null,
    precision_micros: null,
  });
  t.deepEqual(parsePlan(line("PairedPatch", { pr: { id: "x" }, patch_sha256: PATCH, base_sha: HEAD })).params, {
    pr: { id: "x", number: null },
    patch_sha256: PATCH,
    base_sha: HEAD,
    checks: [],
    repetitions: null,
    closes: [],
    flaky_at_base: [],
  });
  t.deepEqual(parsePlan(line("OracleDeltaParity", {})).params, { changed_node_ids: [], max_iterations: null });
  t.deepEqual(parsePlan(line("OracleCausalRefuter", { target_node_id: "n" })).params, {
    target_node_id: "n",
    max_removed_nodes: null,
  });
  t.deepEqual(parsePlan(line("OracleTemporalReplay", { cutoff_recorded_at: 5 })).params, { cutoff_recorded_at: null });
  t.deepEqual(parsePlan(line("Advisory", { text: 5 })).params, { text: null });
  t.deepEqual(parsePlan(line("OracleConservative", undefined)).params, {});
});

test("parsePlan: a CheckRerun without a patch takes its pr as a name only (never refused)", (t) => {
  const pr = (v: unknown) => {
    const p = parsePlan(line("CheckRerun", { step: "s", head_sha: HEAD, pr: v }));
    return p.plan_kind === "CheckRerun" ? p.params.pr : undefined;
  };
  t.deepEqual(pr({ id: "x", number: 2 }), { id: "x", number: 2 });
  t.deepEqual(pr({ id: 5 }), { id: "5", number: null });
  t.is(pr("x"), null);
  t.is(pr({ id: "" }), null);
});

/** Each bad field of each kind, and its exact message. */
const BAD: Array<[string, Record<string, unknown>, string]> = [
  ["CheckRerun", { step: "" }, "field 'params.step': expected a non-empty string"],
  ["CheckRerun", { head_sha: "abc" }, "field 'params.head_sha': expected a full commit id"],
  ["CheckRerun", { patch_sha256: "abc" }, "field 'params.patch_sha256': expected 64 hex or null"],
  ["CheckRerun", { precision_micros: 0 }, "field 'params.precision_micros': expected an integer ≥ 1"],
  ["CheckRerun", { repetitions: 1.5 }, "field 'params.repetitions': expected an integer ≥ 1"],
  ["CheckRerun", { pr: null }, "field 'params.pr': expected {id, number}"],
  ["CheckRerun", { pr: { id: 5 } }, "field 'params.pr': expected {id, number}"],
  ["CheckRerun", { tree: 5 }, "field 'params.tree': expected a string or null"],
  ["CheckRerun", { step: 5, head_sha: 5 }, "field 'params.step': expected a non-empty string"],
  ["PairedPatch", { pr: undefined }, "field 'params.pr': expected {id, number}"],
  ["PairedPatch", { patch_sha256: null }, "field 'params.patch_sha256': expected 64 hex"],
  ["PairedPatch", { base_sha: "main" }, "field 'params.base_sha': expected a full commit id"],
  ["PairedPatch", { checks: "10-a" }, "field 'params.checks': expected a list of strings"],
  ["PairedPatch", { closes: [1] }, "field 'params.closes': expected a list of strings"],
  ["PairedPatch", { flaky_at_base: {} }, "field 'params.flaky_at_base': expected a list of strings"],
  ["PairedPatch", { repetitions: -1 }, "field 'params.repetitions': expected an integer ≥ 1"],
  ["PairedPatch", { repetitions: -1, pr: 5 }, "field 'params.pr': expected {id, number}"],
  ["OracleExactBounded", { target_node_id: "" }, "field 'params.target_node_id': expected a non-empty string"],
  ["OracleDeltaParity", { changed_node_ids: [1] }, "field 'params.changed_node_ids': expected a list of strings"],
  [
    "OracleDeltaParity",
    { max_iterations: 0, changed_node_ids: [1] },
    "field 'params.max_iterations': expected an integer ≥ 1",
  ],
  ["OracleCausalRefuter", { target_node_id: 5 }, "field 'params.target_node_id': expected a non-empty string"],
  ["OracleCausalRefuter", { max_removed_nodes: "2" }, "field 'params.max_removed_nodes': expected an integer ≥ 1"],
  [
    "OracleMinimalPerturbation",
    { target_node_id: undefined },
    "field 'params.target_node_id': expected a non-empty string",
  ],
  ["OracleMinimalPerturbation", { max_removed_nodes: 0 }, "field 'params.max_removed_nodes': expected an integer ≥ 1"],
];

test("parsePlan: each bad parameter is one PlanError (E_INVALID_PLAN, exit 1) naming it", (t) => {
  for (const [kind, over, message] of BAD) {
    const params: Record<string, unknown> = { ...VALID[kind as keyof PlanParams], ...over };
    for (const [k, v] of Object.entries(over)) if (v === undefined) delete params[k];
    const what = `${kind} ${JSON.stringify(over)}`;
    const e = t.throws(() => parsePlan(line(kind, params)), { instanceOf: PlanError, message }, what);
    t.like(e, { code: "E_INVALID_PLAN", exitCode: 1 });
  }
});

test("parsePlan: the common fields are checked before the params, in a fixed order", (t) => {
  const bad = { step: 5 };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ plan_kind: 5 }, "field 'plan_kind': expected a non-empty string"],
    [{ plan_kind: "Nope" }, `field 'plan_kind': expected ${PLAN_KINDS.join("|")}`],
    [{ params: [] }, "field 'params': expected an object"],
    [{ check_hints: "h", plan_id: "" }, "field 'check_hints': expected a list of strings"],
    [{ plan_id: "", target_key: "" }, "field 'plan_id': expected a non-empty string"],
    [{ target_key: 5 }, "field 'target_key': expected a non-empty string"],
    [{ budget: { max_runs: -1 } }, "field 'budget.max_runs': expected an integer ≥ 0 or null"],
    [{ budget: { deadline_ms: 1.5 } }, "field 'budget.deadline_ms': expected an integer ≥ 0 or null"],
  ];
  for (const [over, message] of cases) {
    t.throws(() => parsePlan(line("CheckRerun", bad, over)), { instanceOf: PlanError, message });
  }
  t.throws(() => parsePlan(null), { instanceOf: PlanError, message: "field 'kind': expected a plan object" });
});

test("parsePlan: a CheckRerun of a test keeps params.test; an empty one is refused by name", (t) => {
  const p = parsePlan({ ...base, params: { ...base.params, test: "parser › handles --" } });
  t.like(p.params, { step: "10-unit", test: "parser › handles --" });
  t.false("test" in parsePlan(base).params, "a step's rerun has no test");
  t.regex(t.throws(() => parsePlan({ ...base, params: { ...base.params, test: "" } }))!.message, /params\.test/);
});
