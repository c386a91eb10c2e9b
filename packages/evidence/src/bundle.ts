/**
 * The EvidenceBundle: what one action observed, before it enters the lane.
 * Carries the claims and relations it states, the verification (trials and
 * a typed diff) or refutation artifacts, its receipts, and the ids that
 * place it (candidate, eval, version, trace, attempt, scope). Promotion is
 * never decided here: `promotion_state` is always null.
 */
import { ForgeError, isTimestamp } from "@forge/core";
import {
  type ClaimVersion,
  isInvalid,
  type Relation,
  type Trial,
  validateClaim,
  validateRelation,
  validateTrial,
} from "@forge/kernel";

/** The schema tag of a bundle. */
export const BUNDLE_SCHEMA = "forge-evidence-bundle/v1";

/** How strong a bundle's claims are. `advisory` never counts as verification. */
export const CLAIM_STRENGTHS = ["observed", "verified", "refuted", "claimed", "advisory"] as const;
/** A claim strength. */
export type ClaimStrength = (typeof CLAIM_STRENGTHS)[number];

/** A command that ran: what, how it ended, how long, and a digest of its log. */
export interface Receipt {
  argv: string[];
  exit_code: number | null;
  duration_ms: number;
  log_digest: string | null;
}

/** One check's paired outcome (loop-anchors §6.4 categories). */
export interface TypedDiffEntry {
  check: string;
  category: string;
  baseline: { pass: number; fail: number };
  patched: { pass: number; fail: number };
}

/** Something that refutes a claim: which claim, and the artifact that shows it. */
export interface RefutationArtifact {
  claim_id: string;
  kind: string;
  ref: string;
}

/** An observed event that is not a trial (a merge, an advisory step). */
export interface Episode {
  episode_id: string;
  kind: string;
  claim_id: string | null;
  outcome: string;
  recorded_at: string;
  detail: Record<string, string | number | boolean | null>;
}

/** Another name for a claim, e.g. `check:10-test@<sha12>`. */
export interface Alias {
  alias: string;
  claim_id: string;
}

/** Where a receipt lives. */
export interface EvidenceRef {
  ref_id: string;
  kind: string;
  path: string | null;
  digest: string | null;
}

/** The bundle. */
export interface EvidenceBundle {
  schema_version: string;
  bundle_id: string;
  candidate_id: string;
  eval_id: string;
  version_id: string;
  trace_id: string;
  attempt_id: string | null;
  bundle_scope: string;
  created_at: string;
  claims: ClaimVersion[];
  relations: Relation[];
  verification: { trials: Trial[]; typed_diff: TypedDiffEntry[] } | null;
  refutation: { artifacts: RefutationArtifact[] } | null;
  claim_strength: ClaimStrength;
  known_threats: string[];
  promotion_state: null;
  receipts: Receipt[];
  supersedes_claim_version_id: string | null;
  episodes: Episode[];
  aliases: Alias[];
  evidence_refs: EvidenceRef[];
}

/** A bundle that breaks the schema. */
export class InvalidBundleError extends ForgeError {
  constructor(field: string, why: string) {
    super(`invalid bundle: field '${field}': ${why}`, "E_INVALID_BUNDLE", 1);
    this.name = "InvalidBundleError";
  }
}

const SCOPE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Whether `s` is a valid scope key (`[A-Za-z0-9._:-]{1,128}`), for a bundle's `bundle_scope` and a batch's `scope`.
 * @example isScope("default") // true
 */
export function isScope(s: unknown): boolean {
  return typeof s === "string" && SCOPE.test(s);
}

/**
 * Check a bundle strictly (its claims, trials and relations with the
 * kernel's validators).
 * @throws InvalidBundleError naming the first bad field
 * @example validateBundle({...bundle, promotion_state: "promoted"}) // throws: promotion_state must be null
 */
export function validateBundle(v: unknown): EvidenceBundle {
  const b = v as Record<string, unknown>;
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw new InvalidBundleError("(bundle)", "not an object");
  if (b.schema_version !== BUNDLE_SCHEMA) throw new InvalidBundleError("schema_version", `expected ${BUNDLE_SCHEMA}`);
  for (const k of ["bundle_id", "candidate_id", "eval_id", "version_id", "trace_id", "bundle_scope"]) {
    if (typeof b[k] !== "string" || b[k] === "") throw new InvalidBundleError(k, "expected a non-empty string");
  }
  if (!isScope(b.bundle_scope)) throw new InvalidBundleError("bundle_scope", "expected [A-Za-z0-9._:-]{1,128}");
  if (b.attempt_id !== null && typeof b.attempt_id !== "string")
    throw new InvalidBundleError("attempt_id", "expected a string or null");
  if (!isTimestamp(b.created_at)) throw new InvalidBundleError("created_at", "expected an RFC 3339 UTC timestamp");
  if (b.promotion_state !== null) throw new InvalidBundleError("promotion_state", "must be null");
  if (!CLAIM_STRENGTHS.includes(b.claim_strength as ClaimStrength))
    throw new InvalidBundleError("claim_strength", CLAIM_STRENGTHS.join("|"));
  if (b.supersedes_claim_version_id !== null && typeof b.supersedes_claim_version_id !== "string") {
    throw new InvalidBundleError("supersedes_claim_version_id", "expected a string or null");
  }
  if (!Array.isArray(b.known_threats) || !b.known_threats.every((x) => typeof x === "string"))
    throw new InvalidBundleError("known_threats", "expected strings");
  each(b, "claims", validateClaim);
  each(b, "relations", validateRelation);
  if (b.verification !== null) {
    const ver = b.verification as Record<string, unknown>;
    if (typeof ver !== "object" || !Array.isArray(ver.trials) || !Array.isArray(ver.typed_diff))
      throw new InvalidBundleError("verification", "expected {trials, typed_diff} or null");
    each(ver, "trials", validateTrial, "verification.");
  }
  if (
    b.refutation !== null &&
    (typeof b.refutation !== "object" || !Array.isArray((b.refutation as Record<string, unknown>).artifacts))
  ) {
    throw new InvalidBundleError("refutation", "expected {artifacts} or null");
  }
  if (
    b.verification === null &&
    b.refutation === null &&
    b.claim_strength !== "advisory" &&
    (b.claims as unknown[]).length > 0
  ) {
    throw new InvalidBundleError("verification", "claims need verification or refutation artifacts");
  }
  for (const k of ["receipts", "episodes", "aliases", "evidence_refs"])
    if (!Array.isArray(b[k])) throw new InvalidBundleError(k, "expected a list");
  for (const [i, r] of (b.receipts as Receipt[]).entries()) {
    if (
      !Array.isArray(r?.argv) ||
      typeof r.duration_ms !== "number" ||
      (r.exit_code !== null && typeof r.exit_code !== "number")
    ) {
      throw new InvalidBundleError(`receipts[${i}]`, "expected {argv, exit_code, duration_ms, log_digest}");
    }
  }
  return v as EvidenceBundle;
}

function each(o: Record<string, unknown>, k: string, check: (v: unknown) => object, prefix = ""): void {
  if (!Array.isArray(o[k])) throw new InvalidBundleError(prefix + k, "expected a list");
  for (const [i, x] of (o[k] as unknown[]).entries()) {
    const r = check(x);
    if (isInvalid(r)) throw new InvalidBundleError(`${prefix}${k}[${i}].${r.invalid}`, "missing or invalid");
  }
}
