/**
 * Verdicts a node carries (DESIGN §8), as pure functions of its compiled
 * trials: checks `passing | failing | flaky | unknown`, a flake rate with
 * its 95 % interval and whether it is decided, and which syndromes are
 * active (fail at a tree that is current now) or cleared.
 */
import { trialStats, type TrialStats } from "./beliefs.js";
import { cmp } from "./cmp.js";
import type { Compiled, CompiledNode } from "./compile.js";
import { MICROS } from "./model.js";
import type { Syndrome } from "./assess.js";

/** A check's verdict. */
export type CheckVerdict = "passing" | "failing" | "flaky" | "unknown";

/** A flake rate: the share of counted trials that failed, with the Wilson 95 % interval. */
export interface FlakeRate {
  rate_micros: number;
  low_micros: number;
  high_micros: number;
  /** The interval is no wider than the precision: the rate is known well enough to stop rerunning. */
  decided: boolean;
}

/** What `checkVerdict` says about one node. */
export interface VerdictReport {
  verdict: CheckVerdict;
  /** The verdict's bound (`verdictBound`). */
  bound: VerdictBound;
  /** Set when the verdict is flaky (mixed outcomes), else null. */
  flake_rate: FlakeRate | null;
  /** Distinct failure signatures of counted failed trials, sorted (null signatures left out). */
  signatures: string[];
  /** Distinct environment fingerprints of counted trials, sorted (null left out). */
  env_fingerprints: string[];
  /** Mixed outcomes only across environments, each environment itself consistent. */
  drift: boolean;
  stats: TrialStats;
}

const Z = 1.96;

/**
 * The Wilson score interval (95 %) of k in n, in micros: [low, high].
 * @example wilsonIntervalMicros(0, 0) // [0, 1000000]
 */
export function wilsonIntervalMicros(k: number, n: number): [number, number] {
  if (n === 0) return [0, MICROS];
  const p = k / n;
  const z2 = Z * Z;
  const mid = p + z2 / (2 * n);
  const half = Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const d = 1 + z2 / n;
  return [
    Math.max(0, Math.floor(((mid - half) / d) * MICROS)),
    Math.min(MICROS, Math.ceil(((mid + half) / d) * MICROS)),
  ];
}

/**
 * The flake rate of `fails` failures in `n` counted trials.
 * @param precisionMicros the widest interval that counts as decided
 * @example flakeRate(1, 6, 300_000).decided // false
 */
export function flakeRate(fails: number, n: number, precisionMicros: number): FlakeRate {
  const [low, high] = wilsonIntervalMicros(fails, n);
  // Keys in sorted order: a line holding it is written without a sorted copy (observe's canonicalLine).
  return {
    decided: n > 0 && high - low <= precisionMicros,
    high_micros: high,
    low_micros: low,
    rate_micros: n === 0 ? 0 : Math.floor((fails * MICROS) / n),
  };
}

/** How a verdict's bound was computed (one method each, spec/loop.md §6). */
export type BoundMethod = "clopper-pearson" | "wilson";

/**
 * The bound every check verdict carries: `passing` bounds the fail rate
 * above (`rate: "fail"`), `failing` the pass rate (`rate: "pass"`), each the
 * one-sided 95 % Clopper–Pearson bound of 0 in n (exact: 1 − 0.05^(1/n), the
 * rule of three's exact form) and decided when it is at most the precision;
 * `flaky` and `unknown` carry the fail rate's Wilson 95 % interval, decided
 * (flaky only) when no wider than the precision. An undecided bound's verdict
 * is said "— unresolved", never as a bare word.
 */
export interface VerdictBound {
  decided: boolean;
  low_micros: number;
  method: BoundMethod;
  rate: "fail" | "pass";
  upper_micros: number;
}

/**
 * The one-sided 95 % Clopper–Pearson upper bound of a rate seen 0 times in n
 * trials, in micros, rounded up: 1 − 0.05^(1/n) (n = 0: 1).
 * @example clopperPearsonZeroMicros(10) // 258866
 */
export function clopperPearsonZeroMicros(n: number): number {
  if (n <= 0) return MICROS;
  return Math.min(MICROS, Math.ceil((1 - Math.pow(0.05, 1 / n)) * MICROS));
}

/**
 * The fewest all-same trials whose Clopper–Pearson bound decides a stable
 * verdict (`clopperPearsonZeroMicros(n) ≤ precisionMicros`).
 * @example trialsToBound(300_000) // 9
 */
export function trialsToBound(precisionMicros: number): number {
  if (precisionMicros <= 0) return Infinity;
  if (precisionMicros >= MICROS) return 1;
  let n = Math.max(1, Math.floor(Math.log(0.05) / Math.log(1 - precisionMicros / MICROS)));
  while (clopperPearsonZeroMicros(n) > precisionMicros) n++;
  while (n > 1 && clopperPearsonZeroMicros(n - 1) <= precisionMicros) n--;
  return n;
}

/**
 * A check verdict's bound from its counted trials (`s + flaky` passed, `f` failed of `n`).
 * @example verdictBound("passing", { n: 10, f: 0 }, 300_000) // {decided: true, upper_micros: 258866, ...}
 */
export function verdictBound(
  verdict: string,
  stats: { readonly n: number; readonly f: number },
  precisionMicros: number
): VerdictBound {
  if ((verdict === "passing" && stats.f === 0) || (verdict === "failing" && stats.f === stats.n)) {
    const upper = clopperPearsonZeroMicros(stats.n);
    return {
      decided: stats.n > 0 && upper <= precisionMicros,
      low_micros: 0,
      method: "clopper-pearson",
      rate: verdict === "passing" ? "fail" : "pass",
      upper_micros: upper,
    };
  }
  const [low, high] = wilsonIntervalMicros(stats.f, stats.n);
  return {
    decided: verdict === "flaky" && stats.n > 0 && high - low <= precisionMicros,
    low_micros: low,
    method: "wilson",
    rate: "fail",
    upper_micros: high,
  };
}

/**
 * The one stopping rule (spec/loop.md §6, §7): whether `fails` failures in
 * `n` counted trials decide the verdict they make, by that verdict's bound
 * (`verdictBound`): all passing or all failing by the one-sided
 * Clopper–Pearson bound, mixed by the Wilson interval's width. forge-act
 * stops rerunning by it; forge-observe's verdicts are decided by it; forge-plan
 * asks for trials until it holds.
 * @example countsDecided(0, 9, 300_000) // true: 1 − 0.05^(1/9) ≤ 0.30
 */
export function countsDecided(fails: number, n: number, precisionMicros: number): boolean {
  if (n <= 0) return false;
  const verdict = fails === 0 ? "passing" : fails === n ? "failing" : "flaky";
  return verdictBound(verdict, { n, f: fails }, precisionMicros).decided;
}

/**
 * How many counted trials a flake rate near `fails / n` needs before its
 * interval is at most `precisionMicros` wide (the normal approximation,
 * n ≥ (2z)²·p(1−p)/w², p smoothed as (f+1)/(n+2)), never fewer than `n + 1`.
 * @example trialsToDecide(1, 6, 300_000) // 33
 */
export function trialsToDecide(fails: number, n: number, precisionMicros: number): number {
  const p = (fails + 1) / (n + 2);
  const w = precisionMicros / MICROS;
  return Math.max(n + 1, Math.ceil((4 * Z * Z * p * (1 - p)) / (w * w)));
}

/**
 * A check's verdict from its counted trials (errors and infrastructure
 * trials left out): `unknown` below `min_trials`; `flaky` for mixed
 * outcomes within one environment, or any pass on retry; `failing` when
 * every counted trial failed; `passing` when none did. Mixed outcomes only
 * across environments are `unknown` with `drift` (not comparable).
 * @param precisionMicros for the flake rate's `decided`
 * @example checkVerdict(compiled.index.get(id)!, compiled, 300_000).verdict
 */
export function checkVerdict(node: CompiledNode, compiled: Compiled, precisionMicros: number): VerdictReport {
  const stats = trialStats(node, compiled);
  const sigs = new Set<string>();
  const envs = new Map<string, { pass: number; fail: number }>();
  for (const t of node.trials) {
    if (t.outcome === "error" || compiled.infra_trials.has(t.trial_id)) continue;
    if (t.outcome === "fail" && t.signature !== null) sigs.add(t.signature);
    const key = t.env_fingerprint ?? "";
    let e = envs.get(key);
    if (!e) envs.set(key, (e = { pass: 0, fail: 0 }));
    if (t.outcome === "fail") e.fail++;
    else e.pass++;
  }
  const mixedInOne = [...envs.values()].some((e) => e.pass > 0 && e.fail > 0);
  const mixed = stats.f > 0 && stats.s + stats.flaky > 0;
  const drift = mixed && !mixedInOne && stats.flaky === 0;
  let verdict: CheckVerdict;
  if (stats.n < compiled.config.min_trials && stats.flaky === 0) verdict = "unknown";
  else if (stats.flaky > 0 || (mixed && mixedInOne)) verdict = "flaky";
  else if (drift) verdict = "unknown";
  else verdict = stats.f === stats.n ? "failing" : "passing";
  return {
    verdict,
    bound: verdictBound(verdict, stats, precisionMicros),
    flake_rate: verdict === "flaky" ? flakeRate(stats.f, stats.n, precisionMicros) : null,
    signatures: [...sigs].sort(cmp),
    env_fingerprints: [...envs.keys()].filter((k) => k !== "").sort(cmp),
    drift,
    stats,
  };
}

/** A syndrome and whether it is failing now. */
export interface SyndromeState extends Syndrome {
  /** A claim at a current tree has a counted failure with this signature. */
  active: boolean;
  /** Those current claims, sorted. */
  active_claims: string[];
}

/**
 * Which syndromes are active: failing at a tree that is current (the base
 * branch's code tree, an open PR's current patch). A syndrome whose
 * failures are all at trees that are gone is cleared: history, not a target.
 * @param current the claim ids at current trees
 * @example syndromeStates(assess(c).syndromes, new Set([baseClaim]))
 */
export function syndromeStates(syndromes: readonly Syndrome[], current: ReadonlySet<string>): SyndromeState[] {
  return syndromes.map((s) => {
    const active = s.claims.filter((c) => current.has(c));
    return { ...s, active: active.length > 0, active_claims: active };
  });
}
