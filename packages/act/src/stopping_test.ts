import test from "ava";
import { verdictBound } from "@forge/kernel";
import { flakeRate, rerunBudget, stableAfter } from "./stopping.js";

test("rerunBudget follows Datadog's duration table, 1 past 5 minutes", (t) => {
  t.deepEqual(
    [0, 5_000, 5_001, 10_000, 10_001, 30_000, 30_001, 300_000, 300_001].map(rerunBudget),
    [10, 10, 5, 5, 3, 3, 2, 2, 1]
  );
});

test("flakeRate: a stable outcome is decided by Clopper–Pearson (1 − 0.05^(1/n) within the precision)", (t) => {
  t.is(stableAfter(300_000), 9);
  t.false(flakeRate(8, 0, 300_000).decided);
  t.true(flakeRate(9, 0, 300_000).decided);
  t.true(flakeRate(0, 9, 300_000).decided, "a stable failure too");
  t.false(flakeRate(0, 0, 300_000).decided, "nothing counted decides nothing");
});

test("flakeRate: a mixed outcome is decided only when its Wilson interval is narrow enough", (t) => {
  const early = flakeRate(8, 2, 300_000);
  t.false(early.decided);
  t.is(early.rate_micros, 200_000);
  t.true(early.low_micros < 200_000 && early.high_micros > 200_000);
  const late = flakeRate(32, 8, 300_000);
  t.true(late.decided, `${late.low_micros}..${late.high_micros}`);
  t.true(late.high_micros - late.low_micros <= 300_000);
});

test("one rule: forge-act stops exactly when the kernel's verdict bound is decided (every count up to 60)", (t) => {
  for (let n = 0; n <= 60; n++) {
    for (let f = 0; f <= n; f++) {
      const v = n === 0 ? "unknown" : f === 0 ? "passing" : f === n ? "failing" : "flaky";
      const want = verdictBound(v, { n, f }, 300_000).decided;
      t.is(flakeRate(n - f, f, 300_000).decided, want, `${f}/${n}`);
    }
  }
});
