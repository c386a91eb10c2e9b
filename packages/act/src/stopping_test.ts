import test from "ava";
import { flakeRate, rerunBudget, stableAfter } from "./stopping.js";

test("rerunBudget follows Datadog's duration table, 1 past 5 minutes", (t) => {
  t.deepEqual(
    [0, 5_000, 5_001, 10_000, 10_001, 30_000, 30_001, 300_000, 300_001].map(rerunBudget),
    [10, 10, 5, 5, 3, 3, 2, 2, 1]
  );
});

test("flakeRate: a stable outcome is decided by the rule of three (3/n within the precision)", (t) => {
  t.is(stableAfter(300_000), 10);
  t.false(flakeRate(9, 0, 300_000).decided);
  t.true(flakeRate(10, 0, 300_000).decided);
  t.true(flakeRate(0, 10, 300_000).decided, "a stable failure too");
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
