import test from "ava";
import { ciStepOrder, isCiStepName } from "./ci_step.js";

test("isCiStepName() accepts 10-test", (t) => {
  t.true(isCiStepName("10-test"));
  t.true(isCiStepName("00-audit-deps"));
});

test("isCiStepName() rejects names outside NN-name", (t) => {
  for (const n of [
    "test.sh",
    "1-test",
    "100-test",
    "10_test",
    "10-Test",
    "10-test.sh",
    "10-",
    "10-test~",
    ".10-test",
  ]) {
    t.false(isCiStepName(n), n);
  }
});

test("ciStepOrder() keeps steps only, in code-unit order", (t) => {
  t.deepEqual(ciStepOrder(["20-lint", "README.md", "10-build", "10-a", "09-z"]), [
    "09-z",
    "10-a",
    "10-build",
    "20-lint",
  ]);
});

test("ciStepOrder() sorts by code unit, not by locale (a dash before a digit)", (t) => {
  t.deepEqual(ciStepOrder(["10-a1", "10-a-b"]), ["10-a-b", "10-a1"]);
});
