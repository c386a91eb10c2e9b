/**
 * When to stop rerunning a check: sequential, decided by the counts so far
 * (loop-anchors §1, §6.3), with the kernel's flake rate (the same Wilson
 * interval and precision forge-observe reports): a mixed check is decided
 * when its 95 % interval is no wider than the precision; a stable one when
 * the rule of three bounds the other outcome's rate by the precision
 * ([0, 3/n] no wider than a decided interval). The rerun budget shrinks
 * with the check's duration as in Datadog's Early Flake Detection table.
 */
import { flakeRate as kernelFlakeRate, type FlakeRate, MICROS } from "@forge/kernel";

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
 * the interval (mixed) or the rule of three (stable).
 * @param precisionMicros the widest interval that decides it
 * @example flakeRate(8, 2, 300_000).decided // false
 */
export function flakeRate(passes: number, fails: number, precisionMicros: number): FlakeRate {
  const n = passes + fails;
  const r = kernelFlakeRate(fails, n, precisionMicros);
  const stable = n > 0 && (passes === 0 || fails === 0);
  return stable ? { ...r, decided: 3 * MICROS <= precisionMicros * n } : r;
}

/**
 * The fewest all-same trials the rule of three needs to decide a stable outcome.
 * @example stableAfter(300_000) // 10
 */
export function stableAfter(precisionMicros: number): number {
  return Math.ceil((3 * MICROS) / precisionMicros);
}
