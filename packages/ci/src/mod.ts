/**
 * @module
 * forge-ci: CI as scripts. The executables in `.forge/ci/steps/` run in
 * filename order in a disposable worktree; runs are recorded under
 * `.forge/ci/runs/<id>/` (summary.md, logs, the step files and patch that
 * ran). Verb bodies load lazily so `--help` stays cheap; the runner is
 * exported for `forge-merge`.
 */
export { runPaths, runStepsIn, type StepsRequest } from "./run_steps.js";
export { RUN_FIELDS, runToJson, type CiRunJson, type StepJson } from "./record.js";
export { failureSignature, SIGNATURE_VERSION, type Signature } from "./signature.js";
export { envFingerprint, type Posture, type StepFile } from "./posture.js";
export { withTree } from "./tree.js";
export type { Outcome, StepResult } from "./step.js";

export { default, VERSION } from "./noun.js";
// For forge-run (gh's `run` noun over these records).
export { Runs, formatRun } from "./_shared.js";
export { listRuns, type ListRunOptions } from "./list.js";
export { viewRun } from "./view.js";
export { runLogs } from "./log.js";
export { rerunRun } from "./rerun.js";
export { cancelRun } from "./cancel.js";
