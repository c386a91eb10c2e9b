/**
 * When to stop rerunning a check: sequential, decided by the counts so far
 * (loop-anchors §1, §6.3), by the kernel's one rule (`countsDecided`, the
 * same bounds forge-observe's verdicts carry): a mixed check is decided
 * when its Wilson 95 % interval is no wider than the precision; a stable one
 * when the one-sided Clopper–Pearson bound of the other outcome's rate is at
 * most the precision. The rerun budget shrinks with the check's duration as
 * in Datadog's Early Flake Detection table.
 */
import { countsDecided, flakeRate as kernelFlakeRate, type FlakeRate, trialsToBound } from "@forge/kernel";

export type { FlakeRate };

/**
 * Datadog EFD's retries by duration: ≤ 5 s: 10, ≤ 10 s: 5, ≤ 30 s: 3,
 * ≤ 5 min: 2; longer: 1 (the trial that measured it).
 * @example rerunBudget(1200) // 10
 */
export function rerunBudget(durationMs: number): number {
  if (durationMs <= 5_000) return 10;
  if (durationMs <= 10_000) return 5;
  if (durationMs <= 30_000) return 3;
  if (durationMs <= 300_000) return 2;
  return 1;
}

/**
 * The fail rate of `fails` in `passes + fails` counted trials, decided by
 * the kernel's stopping rule (the verdict's bound).
 * @param precisionMicros the widest bound that decides it
 * @example flakeRate(8, 2, 300_000).decided // false
 */
export function flakeRate(passes: number, fails: number, precisionMicros: number): FlakeRate {
  const n = passes + fails;
  return { ...kernelFlakeRate(fails, n, precisionMicros), decided: countsDecided(fails, n, precisionMicros) };
}

/**
 * The fewest all-same trials that decide a stable outcome (Clopper–Pearson, the kernel's `trialsToBound`).
 * @example stableAfter(300_000) // 9
 */
export function stableAfter(precisionMicros: number): number {
  return trialsToBound(precisionMicros);
}
