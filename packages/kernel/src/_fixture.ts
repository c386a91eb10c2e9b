/** Test support: terse builders for kernel records (not a test file). */
import { type ClaimVersion, KERNEL_SCHEMA, type KernelBatch, type Relation, type Trial } from "./model.js";

/** A claim version (`<id>@1`, recorded at the epoch of the tests). */
export function claim(id: string, kind = "check", extra: Partial<ClaimVersion> = {}): ClaimVersion {
  return {
    claim_id: id,
    claim_version_id: `${id}@1`,
    kind,
    subject: {},
    statement: "",
    recorded_at: "2026-01-01T00:00:00Z",
    supersedes_claim_version_id: null,
    ...extra,
  };
}

let n = 0;
/** A trial of `claimId` (ids are unique per process unless given). */
export function trial(claimId: string, outcome: "pass" | "fail" | "error", extra: Partial<Trial> = {}): Trial {
  return {
    trial_id: `t${++n}`,
    claim_id: claimId,
    outcome,
    duration_ms: 5,
    signature: outcome === "fail" ? "sig-v1:" + "0".repeat(32) : null,
    recorded_at: "2026-01-02T00:00:00Z",
    env_fingerprint: null,
    receipt_ref: null,
    run_id: null,
    retry_of: null,
    ...extra,
  };
}

/** A `supports` relation from → to (optionally in a joint group). */
export function supports(from: string, to: string, group: string | null = null, id = `${from}>${to}`): Relation {
  return { relation_id: id, kind: "supports", from, to, group, recorded_at: "2026-01-01T00:00:00Z" };
}

/** A batch of these records. */
export function batch(claims: ClaimVersion[], trials: Trial[] = [], relations: Relation[] = []): KernelBatch {
  return { schema_version: KERNEL_SCHEMA, claims, trials, relations };
}

/** `k` trials of one outcome. */
export function trials(claimId: string, outcome: "pass" | "fail", k: number, extra: Partial<Trial> = {}): Trial[] {
  return Array.from({ length: k }, () => trial(claimId, outcome, extra));
}
