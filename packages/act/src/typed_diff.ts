/**
 * The typed diff of one check between a baseline and a patched tree
 * (loop-anchors §3 Crater `compare`, §6.4), from the outcome of every
 * repetition on each side (SWE-bench's rule over it: @forge/evidence's
 * fixesRuleHolds).
 */
import type { Category, TrialOutcome } from "@forge/contract";

/** One repetition's outcome of a check. */
export interface SideOutcome {
  outcome: TrialOutcome;
  signature: string | null;
}

/**
 * Classify a check from its repetitions on each side.
 * @param minReps fewer counted repetitions on a side than this is `inconclusive` (the budget ran out first)
 * @example classify([{outcome: "fail", signature: "s"}], [{outcome: "pass", signature: null}], 1) // "fixed"
 */
export function classify(baseline: readonly SideOutcome[], patched: readonly SideOutcome[], minReps: number): Category {
  if (baseline.some((o) => o.outcome === "error") || patched.some((o) => o.outcome === "error")) return "error";
  const b = baseline.filter((o) => o.outcome !== "skipped");
  const p = patched.filter((o) => o.outcome !== "skipped");
  if ((b.length === 0 || p.length === 0) && baseline.length > 0 && patched.length > 0) return "skipped";
  if (b.length < minReps || p.length < minReps) return "inconclusive";
  const bs = shape(b);
  const ps = shape(p);
  // A transition that the first pair shows and the reruns take back is spurious, not flaky.
  if (bs === "mixed" || ps === "mixed") {
    const first = b[0]!.outcome === "pass" ? "pass" : "fail";
    const firstP = p[0]!.outcome === "pass" ? "pass" : "fail";
    if (ps === "mixed" && bs !== "mixed" && first !== firstP)
      return first === "fail" ? "spurious_fixed" : "spurious_regressed";
    return bs === "mixed" ? "flaky_baseline" : "flaky_patched";
  }
  if (bs === "pass" && ps === "pass") return "still_passing";
  if (bs === "fail" && ps === "pass") return b.every((o) => o.outcome === "timeout") ? "spurious_fixed" : "fixed";
  if (bs === "pass" && ps === "fail")
    return p.every((o) => o.outcome === "timeout") ? "spurious_regressed" : "regressed";
  return sigs(b) === sigs(p) ? "still_failing" : "failure_changed";
}

function shape(xs: readonly SideOutcome[]): "pass" | "fail" | "mixed" {
  const passes = xs.filter((o) => o.outcome === "pass").length;
  return passes === xs.length ? "pass" : passes === 0 ? "fail" : "mixed";
}

function sigs(xs: readonly SideOutcome[]): string {
  return [...new Set(xs.map((o) => o.signature ?? "-"))].sort().join(",");
}
