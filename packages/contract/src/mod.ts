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
