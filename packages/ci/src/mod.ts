/**
 * @module
 * forge-ci: CI as scripts. The executables in `.forge/ci/steps/` run in
 * filename order in a disposable worktree; runs are recorded under
 * `.forge/ci/runs/<id>/` (summary.md, logs, the step files and patch that
 * ran). Verb bodies load lazily so `--help` stays cheap; the runner itself
 * is the `@forge/runner` library.
 */
export { default, VERSION } from "./noun.js";
