/**
 * @module
 * forge-plan: deterministic targeting over an observation — stable keys,
 * base urgencies, modifiers, retry decay and exhaustion from the
 * loop-local history — and exactly one plan or halt (spec/loop.md §2).
 */
export { default as planCommand, FLAGS, type PlanCliOptions, parsePlanOptions, planRun, planText, VERSION } from "./main.js";
export { type HaltReason, plan, PLAN_SCHEMA, type Planned, targetLine } from "./decide.js";
export { explainRecord, explainText } from "./explain.js";
export { type HistoryEntry, parseHistory, readHistory } from "./history.js";
export { type Line, observationData, type ObservationData, ObservationReader, readObservation } from "./read.js";
export {
  BASE_MICROS, DEFAULT_PLAN_CONFIG, extractTargets, maxRepetitions, type Modifier, type PlanConfig, type PlanDraft, type PlanKind, type Target,
  TARGET_KINDS, type TargetKind,
} from "./targets.js";
