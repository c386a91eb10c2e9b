/**
 * Targets (spec/loop.md §2, seed §6.1): what in an observation most needs
 * verifying. One list of kinds, so a new kind is a compile error in every
 * `Record<TargetKind, …>` that lacks it (forge-plan's urgencies and
 * extractors).
 */
import type { PlanKind } from "./plan_kind.js";

/** Target kinds (seed §6.1), in tie-break priority order (seed §8.3). */
export const TARGET_KINDS = [
  "ActiveSyndrome",
  "FragileNode",
  "ThinExport",
  "UnverifiedClaimVersion",
  "RefutationGap",
  "SupersessionVerification",
  "ComparabilityDrift",
  "CalibrationCaveat",
  "ScopeStale",
] as const;

/** A target kind. */
export type TargetKind = (typeof TARGET_KINDS)[number];

/**
 * A modifier: a named, deterministic change of the base urgency — a delta
 * (`thin_export_active`, `regression_candidate`), or the retry decay's
 * factor (`retry_decay`, always last). Keys in sorted order.
 */
export interface Modifier {
  delta_micros?: number;
  factor_micros?: number;
  name: string;
}

/** Why a target is exhausted: retries, or the last two outcomes the same. */
export type ExhaustedWhy = "max_retries" | "repeated_outcome";

/** A `target` line (forge-plan, in rank order; keys in sorted order). */
export interface TargetLine {
  attempts: number;
  base_micros: number;
  exhausted: boolean;
  exhausted_why: ExhaustedWhy | null;
  /** Stable: `fragile:<claim_id>`, `syndrome:<signature>`, `thin_export:<marker>`, … (spec/loop.md §2). */
  key: string;
  kind: "target";
  modifiers: Modifier[];
  /** null: no executable plan. */
  plan_kind: PlanKind | null;
  rank: number;
  /** What justifies it: claim ids, `ci-run:<id>`, `pr:<id>`, `issue:<id>`. */
  refs: string[];
  target_kind: TargetKind;
  urgency_micros: number;
}
