/**
 * @module
 * The loop's lines as types and parsers: observation kinds, targets, plans,
 * act results, halts (spec/loop.md). forge-observe, forge-plan, forge-act,
 * forge-export and forge-pilot all stand on it, so a new plan or target kind
 * is a compile error wherever it is not handled. Pure: no I/O, no printing.
 */
export { isPlanKind, PLAN_KINDS, type PlanKind } from "./plan_kind.js";
export {
  HALT_REASONS, type HaltLine, type HaltReason, isHaltReason, PLAN_HALT_REASONS, type PlanHaltReason,
} from "./halt.js";
export { ACT_RESULT_SCHEMA, OBSERVATION_SCHEMA, PLAN_SCHEMA, REPORT_SCHEMA } from "./schema.js";
export {
  type ClaimUnverifiedWhy, type DegradationDetail, type DegradationLine, type FlakeRateLine, type IssueLine,
  type IssueUnverifiedWhy, type NodeLine, type Observation, type ObservationCounts, OBSERVATION_GROUPS,
  type ObservationHeader, type ObservationHealth, type ObservationLine, type PrLine, type PrRef, type SyndromeLine,
  type UnverifiedLine,
} from "./observation.js";
export { ObservationReader, readObservation } from "./observation_reader.js";
export { type ExhaustedWhy, type Modifier, TARGET_KINDS, type TargetKind, type TargetLine } from "./target.js";
