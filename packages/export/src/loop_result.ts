/**
 * A loop result record (what `forge-loop` emits after a round, spec/
 * evidence.md §loop) as an evidence bundle. Each success criterion is a
 * `criterion` claim. When the runtime re-ran its check, the check is a
 * `check` claim supporting the criterion, with one trial: verified → pass,
 * contradicted → fail. `unavailable` adds no trial. A criterion with no
 * check has no support: the kernel marks it (missing semantics) and it
 * stays unverified — an agent's word is never evidence by itself.
 */
import { isUuid } from "@forge/core";
import { BUNDLE_SCHEMA, type EvidenceBundle, type Receipt, sha256Hex } from "@forge/evidence";
import { canonicalJson, type ClaimVersion, type Relation, type Trial } from "@forge/kernel";
import {
  int,
  list,
  match,
  oneOf,
  optInt,
  optMatch,
  optStr,
  RecordError,
  SHA1_OR_256,
  strings,
  ts,
} from "@forge/contract";
import { criterionClaimId } from "./claim_ids.js";

/** The loop result schema tag. */
export const LOOP_RESULT_SCHEMA = "forge-loop-result/v1";

/**
 * The bundle of a loop result record.
 * @throws RecordError naming the field
 */
export function loopResultBundle(v: Record<string, unknown>, scope: string): EvidenceBundle {
  if (v.schema_version !== LOOP_RESULT_SCHEMA)
    throw new RecordError("schema_version", `expected ${LOOP_RESULT_SCHEMA}`);
  const loopId = match(v, "loop_id", isUuid, "a uuid");
  const round = int(v, "round", "", 1);
  const at = ts(v, "recorded_at");
  const head = optMatch(v, "head_sha", SHA1_OR_256, "a commit or null");
  // Additive (forge-loop): the attempt of a retried round, and the workspace's code tree the checks ran on.
  const attempt = v.attempt === undefined || v.attempt === null ? 1 : int(v, "attempt", "", 1);
  const tree = optMatch(v, "code_tree", SHA1_OR_256, "a tree id or null");
  const tag = attempt > 1 ? `${round}.${attempt}` : `${round}`;
  const claims: ClaimVersion[] = [];
  const trials: Trial[] = [];
  const relations: Relation[] = [];
  const receipts: Receipt[] = [];
  for (const [i, c] of list(v, "criteria").entries()) {
    const p = `criteria[${i}].`;
    const crId = match(c, "criterion_id", /^cr-[0-9a-f]{8}$/, "cr-<8 hex>", p);
    const status = oneOf(c, "status", ["verified", "contradicted", "unavailable"] as const, p);
    const cid = criterionClaimId(loopId, crId);
    claims.push({
      claim_id: cid,
      claim_version_id: `${cid}@1`,
      kind: "criterion",
      subject: { loop_id: loopId, criterion_id: crId },
      statement: optStr(c, "text", p) ?? crId,
      recorded_at: at,
      supersedes_claim_version_id: null,
    });
    if (c.check === null || c.check === undefined) continue;
    if (typeof c.check !== "object") throw new RecordError(`${p}check`, "expected an object or null");
    const chk = c.check as Record<string, unknown>;
    const argv = strings(chk, "argv", `${p}check.`);
    if (argv.length === 0) throw new RecordError(`${p}check.argv`, "expected a non-empty list");
    const checkId =
      "check:" + sha256Hex(`loop-check\n${canonicalJson(argv)}\n${tree ? `tree:${tree}` : (head ?? "-")}`).slice(0, 32);
    claims.push({
      claim_id: checkId,
      claim_version_id: `${checkId}@1`,
      kind: "check",
      subject: tree ? { argv: argv.join(" "), tree } : { argv: argv.join(" "), head_sha: head },
      statement: `${argv.join(" ")} exits 0`,
      recorded_at: at,
      supersedes_claim_version_id: null,
    });
    relations.push({
      relation_id: `${checkId}>${cid}`,
      kind: "supports",
      from: checkId,
      to: cid,
      group: null,
      recorded_at: at,
    });
    const duration = int(chk, "duration_ms", `${p}check.`);
    receipts.push({
      argv,
      exit_code: optInt(chk, "exit_code", `${p}check.`),
      duration_ms: duration,
      log_digest: optStr(chk, "log_digest", `${p}check.`),
    });
    if (status === "unavailable") continue;
    trials.push({
      trial_id: `loop:${loopId}:${tag}:${crId}`,
      claim_id: checkId,
      outcome: status === "verified" ? "pass" : "fail",
      duration_ms: duration,
      signature: null,
      recorded_at: at,
      env_fingerprint: null,
      receipt_ref: `loop:${loopId}:${tag}`,
      run_id: null,
      retry_of: null,
    });
  }
  return {
    schema_version: BUNDLE_SCHEMA,
    bundle_id: `loop:${loopId}:${tag}`,
    candidate_id: `loop:${loopId}`,
    eval_id: "loop-round",
    version_id: head ?? `round-${round}`,
    trace_id: loopId,
    attempt_id: tag,
    bundle_scope: scope,
    created_at: at,
    claims,
    relations,
    verification: { trials, typed_diff: [] },
    refutation: null,
    claim_strength: "claimed",
    known_threats: ["agent_reported"],
    promotion_state: null,
    receipts,
    supersedes_claim_version_id: null,
    episodes: [],
    aliases: [],
    evidence_refs: [
      {
        ref_id: `loop:${loopId}:${tag}`,
        kind: "loop-round",
        path: `.forge/loops/${loopId}/events.jsonl`,
        digest: null,
      },
    ],
  };
}
