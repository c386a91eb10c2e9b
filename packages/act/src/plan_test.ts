import test from "ava";
import { parsePlan, PlanError } from "./plan.js";

const base = { kind: "plan", plan_id: "p1", plan_kind: "CheckRerun", target_key: "fragile:x", params: { step: "10-unit" } };

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
