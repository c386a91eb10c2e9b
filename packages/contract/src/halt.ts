/**
 * Halt reasons (spec/loop.md §2): a closed set in snake_case. forge-plan
 * emits the first four, forge-pilot the rest.
 */

/** The reasons forge-plan halts with. */
export const PLAN_HALT_REASONS = [
  "nothing_worth_investigating",
  "all_targets_exhausted",
  "missing_kernel_payload",
  "thin_export_blocked_execution",
] as const;

/** Every halt reason: forge-plan's, then forge-pilot's. */
export const HALT_REASONS = [
  ...PLAN_HALT_REASONS,
  "max_iterations_reached",
  "time_budget_exhausted",
  "external_halt",
  "parity_violation",
] as const;

/** A halt reason forge-plan gives. */
export type PlanHaltReason = (typeof PLAN_HALT_REASONS)[number];

/** A halt reason. */
export type HaltReason = (typeof HALT_REASONS)[number];

/** A `halt` line (forge-plan's last line when it picks no plan). */
export interface HaltLine {
  kind: "halt";
  reason: PlanHaltReason;
  detail: string;
}

/**
 * Whether a string names a halt reason.
 * @example isHaltReason("external_halt") // true
 */
export function isHaltReason(s: unknown): s is HaltReason {
  return typeof s === "string" && (HALT_REASONS as readonly string[]).includes(s);
}
