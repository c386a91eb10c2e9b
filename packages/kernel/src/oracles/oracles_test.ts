import test from "ava";
import { batch, claim, supports, trial, trials } from "../_fixture.js";
import { compile } from "../compile.js";
import { causalRefuter } from "./causal_refuter.js";
import { conservative, wilsonLowerMicros } from "./conservative.js";
import { deltaParity } from "./delta_parity.js";
import { exactBounded } from "./exact_bounded.js";
import { minimalPerturbation } from "./minimal_perturbation.js";
import { temporalReplay } from "./temporal_replay.js";

// x ⇐ (a AND b) OR (a AND c): `a` is shared, so the terms are not independent.
const shared = () =>
  compile(
    batch(
      [claim("a"), claim("b"), claim("c"), claim("x", "fixes")],
      [...trials("a", "pass", 2), ...trials("b", "pass", 2), ...trials("c", "pass", 2)],
      [
        supports("a", "x", "g1", "r1"),
        supports("b", "x", "g1", "r2"),
        supports("a", "x", "g2", "r3"),
        supports("c", "x", "g2", "r4"),
      ]
    )
  );

test("exactBounded() counts a shared supporter once, where propagation assumes independence", (t) => {
  const e = exactBounded(shared(), "x");
  // P(a ∧ (b ∨ c)) = 3/4 × (1 − 1/16) = 45/64
  t.is(e.exact_micros, 703_125);
  t.is(e.propagated_micros, 808_594);
  t.deepEqual(e.leaves, ["a", "b", "c"]);
  t.deepEqual(e.bound, { name: "max_leaves", limit: 12, used: 3 });
  t.false(e.bound_reached);
});

test("exactBounded() refuses, naming the bound, when the cone has more leaves than the bound", (t) => {
  const e = exactBounded(shared(), "x", { max_leaves: 2 });
  t.is(e.refused, "bound");
  t.true(e.bound_reached);
  t.is(e.exact_micros, null);
});

test("exactBounded() refuses an unknown node and a cone without semantics", (t) => {
  t.is(exactBounded(shared(), "nope").refused, "unknown_node");
  t.is(exactBounded(compile(batch([claim("m", "criterion")])), "m").refused, "no_belief");
});

test("wilsonLowerMicros() is the 95% Wilson lower bound", (t) => {
  t.is(wilsonLowerMicros(0, 0), 0);
  t.is(wilsonLowerMicros(10, 10), 722_459);
  t.is(wilsonLowerMicros(0, 10), 0);
});

test("conservative() bounds a joint group by Fréchet and a node by its best term", (t) => {
  const c = conservative(shared());
  const x = c.nodes.find((n) => n.id === "x")!;
  const a = c.nodes.find((n) => n.id === "a")!;
  t.is(a.lower_micros, wilsonLowerMicros(2, 2));
  t.is(x.lower_micros, Math.max(0, 2 * a.lower_micros! - 1_000_000));
  t.false(c.bound_reached);
  t.is(conservative(shared(), { max_nodes: 2 }).refused, "bound");
});

test("causalRefuter() names the supports whose removal alone flips the verdict", (t) => {
  const c = compile(
    batch(
      [claim("a"), claim("b"), claim("x", "fixes")],
      [...trials("a", "pass", 20), ...trials("b", "pass", 1)],
      [supports("a", "x"), supports("b", "x")]
    )
  );
  const r = causalRefuter(c, "x");
  t.true(r.holds);
  t.deepEqual(
    r.flips.map((f) => f.removed),
    ["a>x"]
  );
  t.is(r.examined, 2);
  t.false(r.bound_reached);
  const capped = causalRefuter(c, "x", { max_supports: 1 });
  t.true(capped.bound_reached);
  t.is(capped.examined, 1);
});

test("minimalPerturbation() finds the smallest set of trials that flips a check", (t) => {
  // 9 passes, 1 fail: (9+1)/12 = 0.833, fragile; remove the fail → 10/11 = 0.909, holds.
  const c = compile(batch([claim("a")], [...trials("a", "pass", 9), trial("a", "fail", { trial_id: "bad" })]));
  const m = minimalPerturbation(c, "a");
  t.false(m.holds);
  t.true(m.found && m.minimal);
  t.deepEqual(m.removed, ["bad"]);
  t.is(m.belief_after_micros, 909_090);
});

test("minimalPerturbation() reports a spent evaluation budget and claims no minimality", (t) => {
  const c = compile(batch([claim("a")], trials("a", "pass", 30)));
  const m = minimalPerturbation(c, "a", { max_removed_nodes: 2, max_evaluations: 10 });
  t.false(m.found);
  t.false(m.minimal);
  t.true(m.bound_reached);
  t.is(m.evaluations, 10);
});

test("minimalPerturbation() finds nothing within the bound for a robust node, without hitting the budget", (t) => {
  const c = compile(batch([claim("a")], trials("a", "pass", 30)));
  const m = minimalPerturbation(c, "a", { max_removed_nodes: 2 });
  t.false(m.found);
  t.false(m.bound_reached);
  t.is(m.evaluations, 30 + (30 * 29) / 2);
});

test("temporalReplay() uses only what was recorded before the cutoff", (t) => {
  const b = batch(
    [claim("a")],
    [
      trial("a", "pass", { recorded_at: "2026-01-02T00:00:00Z" }),
      trial("a", "fail", { recorded_at: "2026-01-03T00:00:00Z" }),
    ]
  );
  t.deepEqual(temporalReplay(b, "2026-01-03T00:00:00Z").beliefs, [{ id: "a", belief_micros: 666_666 }]);
  t.deepEqual(temporalReplay(b, null).beliefs, [{ id: "a", belief_micros: 500_000 }]);
});

test("deltaParity() refuses, naming the bound, when the delta dirties more nodes than allowed", (t) => {
  const base = batch([claim("a"), claim("b")], trials("a", "pass", 1));
  const d = deltaParity(base, { trials: [trial("a", "pass"), trial("b", "pass")] }, { max_dirty_nodes: 1 });
  t.is(d.refused, "bound");
  t.true(d.bound_reached);
  t.is(d.parity, null);
});
