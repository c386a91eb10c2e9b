/**
 * The `--json` fields of a merge outcome: a module of its own, with no imports, so
 * `forge-pr merge` lists them in its help without loading the ritual.
 */

/** Every `--json` field of a merge outcome. */
export const MERGE_FIELDS: readonly string[] = [
  "base",
  "baseRefName",
  "checkout",
  "ciRun",
  "closedIssues",
  "commit",
  "conflicts",
  "createdAt",
  "failedStep",
  "id",
  "landed",
  "patchId",
  "patchSha256",
  "pr",
  "record",
  "resolved",
  "verdict",
];
