/**
 * @module
 * The loop's lines as types and parsers: observation kinds, targets, plans,
 * act results, halts (spec/loop.md). forge-observe, forge-plan, forge-act,
 * forge-export and forge-pilot all stand on it, so a new plan or target kind
 * is a compile error wherever it is not handled. Pure: no I/O, no printing.
 */
export { isPlanKind, PLAN_KINDS, type PlanKind } from "./plan_kind.js";
export {
  HALT_REASONS,
  type HaltLine,
  type HaltReason,
  isHaltReason,
  PLAN_HALT_REASONS,
  type PlanHaltReason,
} from "./halt.js";
export { ACT_RESULT_SCHEMA, OBSERVATION_SCHEMA, PLAN_SCHEMA, REPORT_SCHEMA } from "./schema.js";
export {
  int,
  list,
  match,
  oneOf,
  optInt,
  optMatch,
  optStr,
  optTs,
  type Rec,
  RecordError,
  SHA1_OR_256,
  SHA256,
  SIGNATURE,
  str,
  type StringTest,
  strings,
  ts,
} from "./fields.js";
export {
  type AdvisoryParams,
  type AdvisoryPlan,
  type CheckRerunParams,
  type CheckRerunPlan,
  type DeltaParityParams,
  type PairedPatchParams,
  type PairedPatchPlan,
  type Plan,
  type PlanBase,
  type PlanBudget,
  PlanError,
  type PlanLine,
  type PlanOf,
  type PlanParams,
  parsePlan,
  type PrRef,
  type RemovalParams,
  type TargetNodeParams,
  type TemporalReplayParams,
} from "./plan.js";
export {
  type ActReceipt,
  type ActResult,
  type ActResultBase,
  type ActResultOf,
  type ActResultParts,
  type ActResultRecord,
  type ActTrial,
  type AdvisoryPart,
  CATEGORIES,
  type Category,
  type CheckRerunPart,
  type DiffEntry,
  type FixesVerdict,
  type OraclePart,
  type PairedPatchPart,
  parseActResult,
  type RerunStats,
  type SideCounts,
  TRIAL_OUTCOMES,
  type TrialOutcome,
  type TrialRef,
  type TypedDiffRecord,
} from "./act_result.js";
export {
  type ClaimUnverifiedWhy,
  type DegradationDetail,
  type DegradationLine,
  type FlakeRateLine,
  type VerdictBoundLine,
  type IssueLine,
  type IssueUnverifiedWhy,
  type NodeLine,
  type Observation,
  type ObservationCounts,
  OBSERVATION_GROUPS,
  type ObservationHeader,
  type ObservationHealth,
  type ObservationLine,
  type PrLine,
  type NumberedRef,
  type SyndromeLine,
  type UnverifiedLine,
} from "./observation.js";
export { ObservationReader, readObservation } from "./observation_reader.js";
export { type ExhaustedWhy, type Modifier, TARGET_KINDS, type TargetKind, type TargetLine } from "./target.js";
export { CHECK_SEPARATOR, checkName, splitCheck, subjectCheck } from "./check_name.js";
