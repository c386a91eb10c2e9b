/**
 * @module
 * forge-act: executes plans (spec/loop.md §3). CheckRerun and PairedPatch
 * run checks through forge-ci's runner in disposable worktrees (each trial
 * a CI run, referenced and never copied); oracle plans call the kernel over
 * the scope's fold. One act result per plan, the record forge-export takes.
 */
export { default as actCommand, actRun, type ActCliOptions, FLAGS, formatResult, parseActOptions, VERSION } from "./main.js";
export { ACT_RESULT_SCHEMA, actId, type ActOptions, executePlan } from "./act.js";
export { type ActContext } from "./context.js";
export { type Limits, overrunMs, stopReason } from "./_clock.js";
export { checkRerun, DEFAULT_PRECISION_MICROS, type RerunOutcome, type RerunStats } from "./check_rerun.js";
export { type DiffEntry, type FixesVerdict, type PairedOutcome, pairedPatch } from "./paired_patch.js";
export { type OracleOutcome, runOracle } from "./oracle_plan.js";
export { type Plan, PLAN_KINDS, type PlanKind, PlanError, parsePlan } from "./plan.js";
export { flakeRate, type FlakeRate, rerunBudget, stableAfter } from "./stopping.js";
export { CATEGORIES, type Category, classify, type SideOutcome } from "./typed_diff.js";
export { OWNER_FILE, type TrialRef } from "./_runner.js";
