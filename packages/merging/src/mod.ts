/**
 * @module
 * The merge ritual (used by forge-merge and forge-pr merge): the merge of
 * one PR (checked paths, a disposable worktree, hooks off, CI through
 * `@forge/runner`, loaded only when a merge runs it, a fast-forward of the
 * base, a record in `.forge/merges/`), its outcome and its human line.
 */
export { mergePr, type MergeContext, type MergeOptions, type MergeResult } from "./merge_pr.js";
export { formatMerge, MERGE_FIELDS, mergeJson } from "./format.js";
export type { CiOutcome, CiRequest, RunCi } from "./_ci.js";
