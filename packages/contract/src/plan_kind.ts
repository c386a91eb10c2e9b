/**
 * The plan kinds (spec/loop.md §2): one list, so a new kind is a compile
 * error in every `Record<PlanKind, …>` and exhaustive switch that lacks it.
 */

/** The plan kinds, in spec order. */
export const PLAN_KINDS = [
  "CheckRerun",
  "PairedPatch",
  "OracleExactBounded",
  "OracleConservative",
  "OracleDeltaParity",
  "OracleTemporalReplay",
  "OracleCausalRefuter",
  "OracleMinimalPerturbation",
  "Advisory",
] as const;

/** A plan kind. */
export type PlanKind = (typeof PLAN_KINDS)[number];

/**
 * Whether a string names a plan kind.
 * @example isPlanKind("CheckRerun") // true
 */
export function isPlanKind(s: unknown): s is PlanKind {
  return typeof s === "string" && (PLAN_KINDS as readonly string[]).includes(s);
}
