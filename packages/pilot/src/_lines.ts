/**
 * The lines forge-pilot reads from the stages, as the minimal shapes it
 * reads of them: observation lines (forge-observe), targets, plans and
 * halts (forge-plan), act results (forge-act), CI run records (forge-ci)
 * and import-log answers (forge-export).
 *
 * TO BE REPLACED by @forge/contract's types (observation.ts, target.ts,
 * plan.ts, act_result.ts) once they exist: every file of the pilot imports
 * these shapes from here, so the swap is made in this one place. Fields are
 * optional where the pilot reads them defensively (`?? …`), as it must of
 * another process's output.
 */
import type { ACT_RESULT_SCHEMA, HaltReason, PlanKind } from "@forge/contract";

/** forge-observe's header line. */
export interface ObservationHead {
  kind: "observation";
  scope?: string;
  base_sha?: string;
  base_tree?: string | null;
  markers?: string[];
}

/** A check's flake rate, in micros. */
export interface FlakeRate {
  rate_micros: number;
  low_micros: number;
  high_micros: number;
  decided?: boolean;
}

/** A claim's node: a check's verdict at a tree (and a PR's patch). */
export interface NodeLine {
  kind: "node";
  claim_id?: string;
  claim_kind?: string;
  subject?: { step?: string; patch_sha256?: string | null };
  tree?: string | null;
  pr?: { number: number } | null;
  verdict?: string;
  trials: number;
  flake_rate?: FlakeRate | null;
  signatures?: unknown[];
}

/** A pull request as the observation shows it. */
export interface PrLine {
  kind: "pr";
  id: string;
  number: number;
}

/** An issue as the observation shows it. */
export interface IssueLine {
  kind: "issue";
  id: string;
  number: number;
  state?: string;
  fix_evidence?: unknown[];
  closed_by?: string | null;
}

/** Any other observation line (syndrome, degradation, unverified …): only its kind is read. */
export interface OtherLine {
  kind: "syndrome" | "degradation" | "unverified";
}

/** One line of forge-observe's output. */
export type ObservationLine = ObservationHead | NodeLine | PrLine | IssueLine | OtherLine;

/** A ranked target (forge-plan). */
export interface Target {
  kind: "target";
  key: string;
  target_kind: string;
  urgency_micros: number;
  plan_kind?: PlanKind | null;
  exhausted?: boolean;
  exhausted_why?: string | null;
  attempts?: number;
  refs?: string[];
}

/** A plan line (forge-plan), handed on to forge-act whole: its other fields pass through. */
export interface Plan {
  kind: "plan";
  plan_id: string;
  plan_kind: PlanKind;
  target_key: string;
  params?: Record<string, unknown>;
  budget?: Record<string, unknown>;
  description?: string;
  rationale?: string;
  check_hints?: string[];
  advisory?: boolean;
  [field: string]: unknown;
}

/** forge-plan's halt line, or the pilot's own when forge-plan printed neither. */
export interface Halt {
  kind: "halt";
  reason: HaltReason | string;
  detail?: string;
}

/** What forge-plan decided: one plan, or a halt. */
export type Decision = Plan | Halt;

/** One check's typed-diff entry of a paired experiment. */
export interface DiffEntry {
  check: string;
  category: string;
}

/** A `fixes` claim of a paired experiment. */
export interface FixClaim {
  issue: string;
  holds?: boolean;
  flaky_at_base?: string[];
  broken?: string[];
}

/** forge-act's result line. */
export interface ActResult {
  kind: "act_result";
  schema_version?: typeof ACT_RESULT_SCHEMA;
  id: string;
  plan_kind?: PlanKind;
  target_key?: string;
  advisory?: boolean;
  completed_at?: string;
  outcome_signature?: string;
  stop?: string;
  deadline_overrun_ms?: number;
  parity_violation?: boolean;
  stats?: { step?: string; patch_sha256?: string | null } | null;
  typed_diff?: DiffEntry[] | null;
  version_id?: string;
  candidate_id?: string;
  sides?: { baseline?: { reps?: number }; patched?: { reps?: number } };
  fixes?: FixClaim[];
}

/** A CI run record as `forge-ci list --json` prints it (what the pilot reads of it). */
export interface CiRun {
  id: string;
  displayTitle?: string;
  createdAt?: string;
  status?: string;
}

/** One import-log answer of forge-export. */
export interface ExportAnswer {
  status?: string;
}
