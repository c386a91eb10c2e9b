/**
 * SWE-bench's rule for a `fixes` claim over a paired experiment's typed
 * diff (spec/evidence.md §6.3), in one place for forge-act (its verdict)
 * and forge-export (the claim it states): some check went fail → pass
 * (FAIL_TO_PASS), and nothing that passed broke or was left unknown
 * (PASS_TO_PASS).
 *
 * A check already flaky at the base is not a PASS_TO_PASS check — SWE-bench
 * keeps only tests that pass reliably before the patch — so its flakes on
 * the patched side (`flaky_patched`, `spurious_regressed`) break nothing;
 * a `regressed` (fails on every patched run) still does.
 */

/** Categories that break PASS_TO_PASS or leave it unknown. */
export const BREAKS_PASS_TO_PASS: readonly string[] = [
  "regressed",
  "spurious_regressed",
  "flaky_patched",
  "inconclusive",
  "error",
  "skipped",
];

/** The ones a check flaky at the base may show without breaking anything. */
const BASE_FLAKES: readonly string[] = ["flaky_patched", "spurious_regressed"];

/**
 * Whether this entry breaks PASS_TO_PASS (or leaves it unknown).
 * @param flakyAtBase checks whose base verdict was `flaky` when the experiment was planned
 * @example breaksPassToPass({ check: "30-net", category: "flaky_patched" }, ["30-net"]) // false
 */
export function breaksPassToPass(d: { check: string; category: string }, flakyAtBase: readonly string[] = []): boolean {
  return (
    BREAKS_PASS_TO_PASS.includes(d.category) && !(BASE_FLAKES.includes(d.category) && flakyAtBase.includes(d.check))
  );
}

/** FAIL_TO_PASS and PASS_TO_PASS over a typed diff. */
export function fixesRuleHolds(
  diff: ReadonlyArray<{ check: string; category: string }>,
  flakyAtBase: readonly string[] = []
): boolean {
  return diff.some((d) => d.category === "fixed") && !diff.some((d) => breaksPassToPass(d, flakyAtBase));
}
