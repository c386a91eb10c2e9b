/**
 * @module
 * forge-plan: deterministic targeting over an observation — stable keys,
 * base urgencies, modifiers, retry decay and exhaustion from the
 * loop-local history — and exactly one plan or halt (spec/loop.md §2).
 * The lines it reads and writes are @forge/contract's; each target kind is
 * found in its own file under targets/.
 */
export {
  default as planCommand,
  FLAGS,
  type PlanCliOptions,
  parsePlanOptions,
  planRun,
  planText,
  VERSION,
} from "./main.js";
export { BASE_MICROS, DEFAULT_PLAN_CONFIG, type PlanConfig } from "./config.js";
export { type Line, plan, type Planned, targetLine } from "./decide.js";
export { explainRecord, explainText } from "./explain.js";
export { type HistoryEntry, parseHistory, readHistory } from "./history.js";
export { extractTargets, type Target } from "./targets.js";
export { maxRepetitions, type PlanDraft } from "./targets/_context.js";
