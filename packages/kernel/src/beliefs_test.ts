import test from "ava";
import { batch, claim, supports, trial, trials } from "./_fixture.js";
import { betaMeanMicros, evaluate, mulMicros } from "./beliefs.js";
import { compile } from "./compile.js";
import { schedule } from "./schedule.js";

function beliefs(b: unknown): Record<string, number | null> {
  const c = compile(b);
  return Object.fromEntries(evaluate(c, schedule(c)));
}

test("betaMeanMicros() is the posterior mean (s+1)/(n+2) rounded down", (t) => {
  t.is(betaMeanMicros(0, 0), 500_000);
  t.is(betaMeanMicros(2, 2), 750_000);
  t.is(betaMeanMicros(0, 2), 250_000);
  t.is(betaMeanMicros(8, 8), 900_000);
  t.is(betaMeanMicros(1, 1), 666_666);
});

test("mulMicros() multiplies micros, rounding down", (t) => {
  t.is(mulMicros(500_000, 500_000), 250_000);
  t.is(mulMicros(333_333, 3), 0);
});

test("evaluate() gives a check its trials' posterior mean, without errors or infrastructure runs", (t) => {
  const b = beliefs(
    batch(
      ["a", "b", "c", "d"].map((id) => claim(id)),
      [
        ...trials("a", "pass", 2),
        trial("a", "error"),
        ...["b", "c", "d"].map((id) => trial(id, "fail", { run_id: "R" })),
      ]
    )
  );
  t.is(b.a, 750_000);
  t.is(b.b, 500_000); // its only trial is in an infrastructure run
});

test("evaluate() counts a pass on retry as flaky: in n, never in s", (t) => {
  const b = beliefs(
    batch([claim("a")], [trial("a", "fail", { run_id: "R1" }), trial("a", "pass", { run_id: "R2", retry_of: "R1" })])
  );
  t.is(b.a, betaMeanMicros(0, 2));
});

test("evaluate() combines supports: a joint group is the product, terms combine by noisy-OR", (t) => {
  const b = beliefs(
    batch(
      [claim("a"), claim("b"), claim("x", "fixes"), claim("y", "fixes")],
      [...trials("a", "pass", 2), ...trials("b", "pass", 2)],
      [supports("a", "x", "g"), supports("b", "x", "g"), supports("a", "y"), supports("b", "y")]
    )
  );
  t.is(b.x, 562_500); // 0.75 × 0.75
  t.is(b.y, 937_500); // 1 − 0.25 × 0.25
});

test("evaluate() gives no belief to nodes in or downstream of a cycle, or without semantics", (t) => {
  const b = beliefs(
    batch(
      [claim("a"), claim("x", "fixes"), claim("y", "fixes"), claim("z", "fixes"), claim("m", "criterion")],
      trials("a", "pass", 1),
      [supports("a", "x"), supports("y", "x"), supports("x", "y"), supports("y", "z")]
    )
  );
  t.deepEqual([b.x, b.y, b.z, b.m], [null, null, null, null]);
  t.is(b.a, 666_666);
});

test("evaluate() with removed ids leaves those trials and relations out", (t) => {
  const c = compile(
    batch(
      [claim("a"), claim("b"), claim("x", "fixes")],
      [trial("a", "pass", { trial_id: "ta" }), ...trials("b", "pass", 1)],
      [supports("a", "x"), supports("b", "x")]
    )
  );
  const s = schedule(c);
  t.is(evaluate(c, s, { removed: new Set(["ta"]) }).get("a"), 500_000);
  t.is(evaluate(c, s, { removed: new Set(["a>x", "b>x"]) }).get("x"), null);
});
