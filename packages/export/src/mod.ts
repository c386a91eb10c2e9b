/**
 * @module
 * forge-export: JSON lines on stdin (CI run records, merge records, act
 * and loop results, evidence bundles) through the canonical evidence lane,
 * one import-log entry per line on stdout.
 */
export {
  default as exportCommand,
  exportRun,
  type ExportCliOptions,
  FLAGS,
  parseExportOptions,
  VERSION,
} from "./main.js";
export {
  bundleOf,
  type ExportOptions,
  exportRecord,
  exportRecords,
  type LineOutcome,
  type RecordKind,
  recordKind,
} from "./export_records.js";
export { ciRunBundle, type CiRunRecord, isCiRun, parseCiRun, stepTrialOutcome } from "./ci_run.js";
export { isMergeRecord, mergeBundle, type MergeRecord, parseMergeRecord } from "./merge_record.js";
export { actResultBundle } from "./act_result.js";
export { ACT_RESULT_SCHEMA, RecordError } from "@forge/contract";
export { LOOP_RESULT_SCHEMA, loopResultBundle } from "./loop_result.js";
export {
  checkClaim,
  checkClaimId,
  criterionClaimId,
  fixesClaimId,
  patchEffectClaimId,
  subjectOf,
  type Tree,
  treeLabel,
} from "./claim_ids.js";
