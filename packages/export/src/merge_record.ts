/**
 * A merge record (`forge-merge --json`, `.forge/merges/<id>.md`) as an
 * evidence bundle. A merge is a receipt, not a belief: it becomes one
 * `merge` episode (outcome = the verdict) and an evidence ref, and states
 * no claim and no trial. The CI run that gated the merge is evidence
 * through its own CI run record.
 */
import { isUuid } from "@forge/core";
import { BUNDLE_SCHEMA, type EvidenceBundle } from "@forge/evidence";
import { match, oneOf, optStr, SHA256, str, strings, ts } from "@forge/contract";

/** The fields of a merge record this mapping reads. */
export interface MergeRecord {
  id: string;
  pr: string;
  patchSha256: string;
  patchId: string | null;
  commit: string | null;
  baseRefName: string;
  verdict: "merged" | "conflict" | "ci-failed" | "already-merged";
  failedStep: string | null;
  createdAt: string;
  conflicts: string[];
  resolved: string[];
}

const VERDICTS = ["merged", "conflict", "ci-failed", "already-merged"] as const;

/** Whether a JSON line looks like a merge record. */
export function isMergeRecord(v: Record<string, unknown>): boolean {
  return "patchSha256" in v && "verdict" in v && "baseRefName" in v && !("steps" in v);
}

/**
 * Check a merge record.
 * @throws RecordError naming the field
 */
export function parseMergeRecord(v: Record<string, unknown>): MergeRecord {
  // `forge-merge --json` names the PR as {number, id}; the record file as its id.
  const pr =
    typeof v.pr === "object" && v.pr !== null
      ? match(v.pr as Record<string, unknown>, "id", isUuid, "a uuid")
      : match(v, "pr", isUuid, "a uuid");
  return {
    id: match(v, "id", isUuid, "a uuid"),
    pr,
    patchSha256: match(v, "patchSha256", SHA256, "64 hex"),
    patchId: optStr(v, "patchId"),
    commit: optStr(v, "commit"),
    baseRefName: str(v, "baseRefName"),
    verdict: oneOf(v, "verdict", VERDICTS),
    failedStep: optStr(v, "failedStep"),
    createdAt: ts(v, "createdAt"),
    conflicts: strings(v, "conflicts"),
    resolved: strings(v, "resolved"),
  };
}

/** A `forge-merge --json` line that wrote no record (an already-merged refusal): nothing to export. */
export function unrecordedMerge(v: Record<string, unknown>): { skip: string } | undefined {
  return v.id === null
    ? { skip: `merge of a patch that was ${String(v.verdict).slice(0, 20)} wrote no record: skipped, not evidence` }
    : undefined;
}

/** The bundle of a merge record. */
export function mergeBundle(m: MergeRecord, scope: string): EvidenceBundle {
  return {
    schema_version: BUNDLE_SCHEMA,
    bundle_id: `merge:${m.id}`,
    candidate_id: `pr:${m.pr}`,
    eval_id: "merge",
    version_id: m.patchSha256,
    trace_id: m.id,
    attempt_id: null,
    bundle_scope: scope,
    created_at: m.createdAt,
    claims: [],
    relations: [],
    verification: null,
    refutation: null,
    claim_strength: "observed",
    known_threats: [],
    promotion_state: null,
    receipts: [],
    supersedes_claim_version_id: null,
    episodes: [
      {
        episode_id: `merge:${m.id}`,
        kind: "merge",
        claim_id: null,
        outcome: m.verdict,
        recorded_at: m.createdAt,
        detail: {
          pr: m.pr,
          patch_sha256: m.patchSha256,
          patch_id: m.patchId,
          commit: m.commit,
          base_ref_name: m.baseRefName,
          failed_step: m.failedStep,
          conflicts: m.conflicts.length,
          resolved: m.resolved.length,
        },
      },
    ],
    aliases: [],
    evidence_refs: [{ ref_id: `merge:${m.id}`, kind: "merge-record", path: `.forge/merges/${m.id}.md`, digest: null }],
  };
}
