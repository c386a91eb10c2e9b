/**
 * When to stop rerunning a check: sequential, decided by the counts so far
 * (loop-anchors §1, §6.3). A mixed check is decided when the 95 % Wilson
 * interval of its fail rate is within the precision on either side; a
 * stable one when the rule of three bounds the other outcome's rate by
 * twice the precision (the interval [0, 3/n] as wide as a decided one).
 * The rerun budget shrinks with the check's duration as in Datadog's Early
 * Flake Detection table.
 */
import { MICROS, wilsonLowerMicros } from "@forge/kernel";

/** A fail rate with its 95 % interval, in micros. */
export interface FlakeRate {
  rate_micros: number;
  low_micros: number;
  high_micros: number;
  /** The interval is as narrow as the precision asks (or the rule of three bounds a stable outcome). */
  decided: boolean;
}

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
 * The fail rate of `fails` in `passes + fails` counted trials.
 * @param precisionMicros the half-width of interval that decides it
 * @example flakeRate(8, 2, 150_000).decided // false: [0.06, 0.51]
 */
export function flakeRate(passes: number, fails: number, precisionMicros: number): FlakeRate {
  const n = passes + fails;
  if (n === 0) return { rate_micros: 0, low_micros: 0, high_micros: MICROS, decided: false };
  const low = wilsonLowerMicros(fails, n);
  const high = MICROS - wilsonLowerMicros(passes, n);
  const rate = Math.round((fails * MICROS) / n);
  const stable = passes === 0 || fails === 0;
  const decided = stable ? 3 * MICROS <= 2 * precisionMicros * n : high - low <= 2 * precisionMicros;
  return { rate_micros: rate, low_micros: low, high_micros: high, decided };
}

/**
 * The fewest all-same trials the rule of three needs to decide a stable outcome.
 * @example stableAfter(150_000) // 10
 */
export function stableAfter(precisionMicros: number): number {
  return Math.ceil((3 * MICROS) / (2 * precisionMicros));
}
