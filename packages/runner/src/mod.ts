/**
 * @module
 * The CI runner and its run records (used by forge-ci, forge-run, forge-act, forge-merge): the steps of
 * `.forge/ci/steps/` run in a disposable worktree and recorded under `.forge/ci/runs/<id>/`, and the data
 * side of the run verbs (list, view, log, rerun, cancel), which never print: warnings go to the caller's log.
 */
export {
  checkedPosture,
  checkUntil,
  headCommit,
  runPaths,
  runStepsIn,
  setPrVerdict,
  type StepsRequest,
} from "./run_steps.js";
export { RUN_FIELDS, runToJson, type CiRunJson, type RunTests, type StepJson } from "./record.js";
export {
  MAX_FILE_BYTES,
  readReports,
  TEST_SEPARATOR,
  testsPattern,
  type StepReports,
  type TestCase,
  type TestOutcome,
} from "./reports.js";
export { readRunTests, testNameOf, TESTS_FILE, type TestsRequest } from "./run_tests.js";
export { failureSignature, SIGNATURE_VERSION, type Signature } from "./signature.js";
export { envFingerprint, notStepWarning, type Posture, type StepFile } from "./posture.js";
export { KEEP_RUNS, pruneRuns } from "./retention.js";
export { cacheRoot, KEEP_CACHES, pruneCaches } from "./cache.js";
export { withTree } from "./tree.js";
export { openTree, type OpenTree } from "./worktree.js";
export { keepTree, SETUPS_ENV, takeKeptTrees, type KeptTree, type TakenTree } from "./kept_trees.js";
export { initSubmodules } from "./submodules.js";
export type { Outcome, StepResult } from "./step.js";

export { formatRun, Runs, seconds, stepLine, type RunCtx, type RunIo } from "./runs.js";
export { listRuns, STATUSES, type ListRunOptions } from "./list_runs.js";
export { viewRun } from "./view_run.js";
export { runLogs } from "./run_logs.js";
export { rerunRun, type RerunOptions } from "./rerun_run.js";
export { CANCEL_WAIT_MS, cancelRun } from "./cancel_run.js";
export {
  checkParallel,
  chunksOf,
  DEFAULT_CHUNK,
  hostEnvSha256,
  localFingerprint,
  readHosts,
  recordAdapterRun,
  runOnHosts,
  stageBatch,
  type AttemptLine,
  type HostArm,
  type Hosts,
  type HostsRequest,
  type HostsResult,
} from "./hosts.js";
export { hostWorker, INFRA_EXIT, MODS, untar, workerScript, type JobFile, type RecordLine } from "./hosts_worker.js";
export { ADAPTER_STEP, parseTrigger, runAdapter, triggerLine, type AdapterResult, type Trigger } from "./adapter.js";
export { k8sJob, nomadDispatch, nomadJob, nomadPayload, NOMAD_PAYLOAD_MAX, type ManifestBatch } from "./manifests.js";
