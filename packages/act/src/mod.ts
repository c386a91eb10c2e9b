/**
 * @module
 * forge-act: executes plans (spec/loop.md §3). CheckRerun and PairedPatch
 * run checks through forge-ci's runner in disposable worktrees (each trial
 * a CI run, referenced and never copied); oracle plans call the kernel over
 * the scope's fold. One act result per plan, the record forge-export takes
 * (its types and the plan's: @forge/contract).
 */
export {
  default as actCommand,
  actRun,
  type ActCliOptions,
  FLAGS,
  formatResult,
  parseActOptions,
  VERSION,
} from "./main.js";
export { actId, type ActOptions, executePlan, EXECUTORS, type Executor } from "./act.js";
export { type ActContext } from "./context.js";
export { type Limits, overrunMs, stopReason } from "./_clock.js";
export { checkRerun, DEFAULT_PRECISION_MICROS, DEFAULT_REPETITIONS, type RerunOutcome } from "./check_rerun.js";
export { type PairedOutcome, pairedPatch } from "./paired_patch.js";
export { DEFAULT_PARITY_ITERATIONS, type Oracle, ORACLES, type OracleKind } from "./oracle_plan.js";
export { flakeRate, type FlakeRate, rerunBudget, stableAfter } from "./stopping.js";
export { classify, type SideOutcome } from "./typed_diff.js";
export { OWNER_FILE } from "./_runner.js";
