import test from "ava";
import { CATEGORIES } from "@forge/contract";
import { classify, type SideOutcome } from "./typed_diff.js";

const P: SideOutcome = { outcome: "pass", signature: null };
const F = (s = "sig-v1:a"): SideOutcome => ({ outcome: "fail", signature: s });
const T: SideOutcome = { outcome: "timeout", signature: "sig-v1:t" };
const E: SideOutcome = { outcome: "error", signature: null };
const S: SideOutcome = { outcome: "skipped", signature: null };

test("classify reaches every one of the twelve categories", (t) => {
  const cases: Array<[string, SideOutcome[], SideOutcome[], number]> = [
    ["fixed", [F(), F(), F()], [P, P, P], 1],
    ["regressed", [P, P, P], [F(), F(), F()], 1],
    ["still_passing", [P, P], [P, P], 1],
    ["still_failing", [F(), F()], [F(), F()], 1],
    ["failure_changed", [F("sig-v1:a")], [F("sig-v1:b")], 1],
    ["flaky_baseline", [P, F(), P], [P, P, P], 1],
    ["flaky_patched", [P, P, P], [P, F(), P], 1],
    ["spurious_fixed", [T, T], [P, P], 1],
    ["spurious_regressed", [P, P, P], [F(), P, P], 1],
    ["inconclusive", [F()], [P], 2],
    ["skipped", [S, S], [P, P], 1],
    ["error", [F()], [E], 1],
  ];
  for (const [want, b, p, min] of cases) t.is(classify(b, p, min) as string, want, want);
  t.deepEqual([...new Set(cases.map((c) => c[0]))].sort(), [...CATEGORIES].sort());
});

test("a timeout on the patched side is spurious_regressed until it reproduces as a failure", (t) => {
  t.is(classify([P, P], [T, T], 1), "spurious_regressed");
  t.is(classify([P, P], [F(), F()], 1), "regressed");
});
