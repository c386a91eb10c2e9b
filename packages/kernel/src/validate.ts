/**
 * Shape checks for the three record types of a kernel batch. Each returns
 * the typed record or a short reason; nothing is repaired or guessed
 * (absent optional fields read as null, wrong types are refused).
 */
import {
  type ClaimVersion,
  type Outcome,
  RELATION_KINDS,
  type Relation,
  type RelationKind,
  type Trial,
} from "./model.js";

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MAX_ID = 512;

/** A record that failed its shape check: the field and why. */
export interface Invalid {
  invalid: string;
}

type Rec = Record<string, unknown>;

function isRec(v: unknown): v is Rec {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
function id(v: unknown): v is string {
  return typeof v === "string" && v !== "" && v.length <= MAX_ID;
}
function optStr(v: unknown): v is string | null | undefined {
  return v === undefined || v === null || typeof v === "string";
}

/**
 * Check one claim version.
 * @example validateClaim({claim_id: "c", claim_version_id: "c@1", kind: "check", recorded_at: "2026-01-01T00:00:00Z"})
 */
export function validateClaim(v: unknown): ClaimVersion | Invalid {
  if (!isRec(v)) return { invalid: "not an object" };
  if (!id(v.claim_id)) return { invalid: "claim_id" };
  if (!id(v.claim_version_id)) return { invalid: "claim_version_id" };
  if (!id(v.kind)) return { invalid: "kind" };
  if (typeof v.recorded_at !== "string" || !TS.test(v.recorded_at)) return { invalid: "recorded_at" };
  if (v.statement !== undefined && typeof v.statement !== "string") return { invalid: "statement" };
  if (!optStr(v.supersedes_claim_version_id)) return { invalid: "supersedes_claim_version_id" };
  if (v.subject !== undefined && !isRec(v.subject)) return { invalid: "subject" };
  const subj = (v.subject ?? {}) as Rec;
  const keys = Object.keys(subj);
  for (let i = 0; i < keys.length; i++) {
    const x = subj[keys[i]!];
    if (x !== null && typeof x !== "string") return { invalid: `subject.${keys[i]!}` };
  }
  // Already in normal form: no copy (a fold checks every claim version of the scope).
  if (v.subject !== undefined && typeof v.statement === "string" && v.supersedes_claim_version_id !== undefined)
    return v as unknown as ClaimVersion;
  return {
    claim_id: v.claim_id,
    claim_version_id: v.claim_version_id,
    kind: v.kind,
    subject: { ...(subj as Record<string, string | null>) },
    statement: (v.statement as string | undefined) ?? "",
    recorded_at: v.recorded_at,
    supersedes_claim_version_id: (v.supersedes_claim_version_id as string | null | undefined) ?? null,
  };
}

const TRIAL_OPTIONAL = ["signature", "env_fingerprint", "receipt_ref", "run_id", "retry_of"];

/**
 * Check one trial.
 * @example validateTrial({trial_id: "t", claim_id: "a", outcome: "maybe", duration_ms: 1, recorded_at: "…"}) //
 * {invalid: "outcome"}
 */
export function validateTrial(v: unknown): Trial | Invalid {
  if (!isRec(v)) return { invalid: "not an object" };
  if (!id(v.trial_id)) return { invalid: "trial_id" };
  if (!id(v.claim_id)) return { invalid: "claim_id" };
  if (v.outcome !== "pass" && v.outcome !== "fail" && v.outcome !== "error") return { invalid: "outcome" };
  if (typeof v.duration_ms !== "number" || !Number.isSafeInteger(v.duration_ms) || v.duration_ms < 0)
    return { invalid: "duration_ms" };
  if (typeof v.recorded_at !== "string" || !TS.test(v.recorded_at)) return { invalid: "recorded_at" };
  let complete = true;
  // An indexed loop: a fold runs this once per trial, mostly before the JIT has warmed up.
  for (let i = 0; i < TRIAL_OPTIONAL.length; i++) {
    const k = TRIAL_OPTIONAL[i]!;
    const x = v[k];
    if (x === undefined) complete = false;
    else if (x !== null && typeof x !== "string") return { invalid: k };
  }
  // Already in normal form (every field present): no copy (a fold checks 10,000 of these).
  if (complete) return v as unknown as Trial;
  const n = (k: string): string | null => (v[k] as string | null | undefined) ?? null;
  return {
    trial_id: v.trial_id,
    claim_id: v.claim_id,
    outcome: v.outcome as Outcome,
    duration_ms: v.duration_ms,
    signature: n("signature"),
    recorded_at: v.recorded_at,
    env_fingerprint: n("env_fingerprint"),
    receipt_ref: n("receipt_ref"),
    run_id: n("run_id"),
    retry_of: n("retry_of"),
  };
}

/**
 * Check one relation.
 * @example
 * validateRelation({relation_id: "r", kind: "supports", from: "a", to: "x", recorded_at: "2026-01-01T00:00:00Z"}).group
 * // null
 */
export function validateRelation(v: unknown): Relation | Invalid {
  if (!isRec(v)) return { invalid: "not an object" };
  if (!id(v.relation_id)) return { invalid: "relation_id" };
  if (!RELATION_KINDS.includes(v.kind as RelationKind)) return { invalid: "kind" };
  if (!id(v.from)) return { invalid: "from" };
  if (!id(v.to)) return { invalid: "to" };
  if (v.group !== undefined && v.group !== null && !id(v.group)) return { invalid: "group" };
  if (typeof v.recorded_at !== "string" || !TS.test(v.recorded_at)) return { invalid: "recorded_at" };
  return {
    relation_id: v.relation_id,
    kind: v.kind as RelationKind,
    from: v.from,
    to: v.to,
    group: (v.group as string | null | undefined) ?? null,
    recorded_at: v.recorded_at,
  };
}

/**
 * Whether a check result is a refusal.
 * @example isInvalid(validateTrial(null)) // true
 */
export function isInvalid(v: object): v is Invalid {
  return "invalid" in v;
}
