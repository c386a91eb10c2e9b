/** The knobs of planning and the base urgency of each target kind. */
import type { TargetKind } from "@forge/contract";

/** The knobs of planning. */
export interface PlanConfig {
  /** Pick nothing below this urgency (forge-pilot: 0.25). */
  halt_threshold_micros: number;
  /** A target tried this often is exhausted (3: forge-plan's default and forge-pilot's --max-retries, the same). */
  max_retries_per_target: number;
  /** A scope whose last import is older than this is stale (seconds). */
  stale_after_s: number;
  /** Repetitions per side of a paired patch experiment. */
  paired_repetitions: number;
  /** forge-pilot's minimal_perturbation_budget. */
  max_removed_nodes: number;
  /** forge-pilot's oracle_max_iterations (delta parity). */
  oracle_max_iterations: number;
  /** Emit a visibly advisory plan when nothing executable is left. */
  allow_advisory_only: boolean;
}

/** The defaults (forge-pilot's LoopConfig where it has one). */
export const DEFAULT_PLAN_CONFIG: Readonly<PlanConfig> = Object.freeze({
  halt_threshold_micros: 250_000,
  max_retries_per_target: 3,
  stale_after_s: 7 * 86_400,
  paired_repetitions: 3,
  max_removed_nodes: 2,
  oracle_max_iterations: 4,
  allow_advisory_only: false,
});

/** The base urgencies (seed §8.1; FragileNode corrected, spec/evidence.md §8). */
export const BASE_MICROS: Readonly<Record<TargetKind, number>> = Object.freeze({
  ActiveSyndrome: 950_000,
  FragileNode: 800_000,
  ThinExport: 850_000,
  UnverifiedClaimVersion: 750_000,
  RefutationGap: 720_000,
  SupersessionVerification: 680_000,
  ComparabilityDrift: 600_000,
  CalibrationCaveat: 500_000,
  ScopeStale: 250_000,
});
