import test from "ava";
import { fixesRuleHolds } from "./fixes_rule.js";

const d = (check: string, category: string) => ({ check, category });

test("fixesRuleHolds is SWE-bench's rule: FAIL_TO_PASS and nothing that passed broken or unknown", (t) => {
  t.true(fixesRuleHolds([d("a", "fixed"), d("b", "still_passing"), d("c", "flaky_baseline")]));
  t.false(fixesRuleHolds([d("b", "still_passing")]), "nothing went from fail to pass");
  for (const bad of ["regressed", "spurious_regressed", "flaky_patched", "inconclusive", "error", "skipped"]) {
    t.false(fixesRuleHolds([d("a", "fixed"), d("c", bad)]), bad);
  }
});

test(
  "a check flaky at the base is no PASS_TO_PASS check: its flakes on the patched side break nothing, a regression " +
    "or an unknown still does",
  (t) => {
    for (const flake of ["flaky_patched", "spurious_regressed"])
      t.true(fixesRuleHolds([d("a", "fixed"), d("c", flake)], ["c"]), flake);
    for (const bad of ["regressed", "inconclusive", "error", "skipped"])
      t.false(fixesRuleHolds([d("a", "fixed"), d("c", bad)], ["c"]), bad);
    t.false(fixesRuleHolds([d("a", "fixed"), d("c", "flaky_patched")], ["b"]), "only the checks named");
  }
);
