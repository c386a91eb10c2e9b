/**
 * @module
 * forge-merge's ritual as a library (`forge-pr merge` reaches it here):
 * the merge of one PR, its outcome and its human line.
 */
export { mergePr, type MergeContext, type MergeOptions, type MergeResult } from "./merge_pr.js";
export { formatMerge, MERGE_FIELDS, mergeJson } from "./pr.js";
