/**
 * ProjectionImportBatchV3: what the import writes. The projection rows
 * (claim versions, relation versions, episodes, aliases, evidence refs)
 * plus `kernel_payload_json`, the kernel batch as canonical JSON text.
 * The batch id is the sha256 of the batch's own content (without the id),
 * so the same content always has the same id: imports are idempotent.
 */
import { ForgeError, isTimestamp } from "@forge/core";
import { type Alias, type ClaimStrength, type EvidenceRef, type Episode, isScope } from "./bundle.js";
import type { Producer } from "./envelope.js";
import { contentSha256 } from "./hash.js";

/** The schema tag of a batch. */
export const BATCH_SCHEMA = "projection-import-batch/v3";

/** A claim version as a projection row. */
export interface ProjectionClaimVersion {
  claim_id: string;
  claim_version_id: string;
  kind: string;
  subject: Record<string, string | null>;
  statement: string;
  strength: ClaimStrength;
  bundle_id: string;
  recorded_at: string;
  supersedes_claim_version_id: string | null;
}

/** A relation version as a projection row. */
export interface ProjectionRelationVersion {
  relation_id: string;
  kind: string;
  from: string;
  to: string;
  group: string | null;
  recorded_at: string;
}

/** Where a batch came from. */
export interface BatchSource {
  bundle_id: string;
  candidate_id: string;
  eval_id: string;
  version_id: string;
  trace_id: string;
  attempt_id: string | null;
  claim_strength: ClaimStrength;
  known_threats: string[];
  promotion_state: null;
  supersedes_claim_version_id: string | null;
  producer: Producer;
}

/** The batch. */
export interface ProjectionImportBatchV3 {
  schema_version: string;
  batch_id: string;
  scope: string;
  recorded_at: string;
  source: BatchSource;
  claim_versions: ProjectionClaimVersion[];
  relation_versions: ProjectionRelationVersion[];
  episodes: Episode[];
  aliases: Alias[];
  evidence_refs: EvidenceRef[];
  /** The kernel batch (canonical JSON), or null when the producer had none. */
  kernel_payload_json: string | null;
}

/**
 * Set a batch's id to the hash of its content.
 * @example sealBatch({...fields}).batch_id // 64 hex
 */
export function sealBatch(
  b: Omit<ProjectionImportBatchV3, "batch_id"> & { batch_id?: string }
): ProjectionImportBatchV3 {
  const { batch_id: _ignored, ...rest } = b;
  return { ...rest, batch_id: contentSha256(rest) } as ProjectionImportBatchV3;
}

/** A batch that breaks the schema. */
export class InvalidBatchError extends ForgeError {
  readonly field: string;
  readonly why: string;
  constructor(field: string, why: string) {
    super(`invalid batch: field '${field}': ${why}`, "E_INVALID_BATCH", 1);
    this.name = "InvalidBatchError";
    this.field = field;
    this.why = why;
  }
}

/**
 * Check a batch's shape and that its id is its content hash. The kernel
 * payload is not checked here: a missing or bad payload degrades the
 * import, it does not refuse it.
 * @throws InvalidBatchError
 * @example validateBatch({...batch, scope: "changed"}) // throws: batch_id does not match
 */
export function validateBatch(v: unknown): ProjectionImportBatchV3 {
  const b = checkBatchShape(v) as unknown as Record<string, unknown>;
  const { batch_id, ...rest } = b;
  if (contentSha256(rest) !== batch_id) throw new InvalidBatchError("batch_id", "does not match the batch's content");
  return v as ProjectionImportBatchV3;
}

/**
 * `validateBatch` without the content hash: the shape of a batch as an
 * import record stores it (only what it added to its scope, so no longer
 * of the content its id hashes).
 * @throws InvalidBatchError
 */
export function checkBatchShape(v: unknown): ProjectionImportBatchV3 {
  const b = v as Record<string, unknown>;
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new InvalidBatchError("(batch)", "not an object");
  if (b.schema_version !== BATCH_SCHEMA) throw new InvalidBatchError("schema_version", `expected ${BATCH_SCHEMA}`);
  if (typeof b.batch_id !== "string" || !/^[0-9a-f]{64}$/.test(b.batch_id))
    throw new InvalidBatchError("batch_id", "expected 64 hex");
  if (!isScope(b.scope)) throw new InvalidBatchError("scope", "expected [A-Za-z0-9._:-]{1,128}");
  if (!isTimestamp(b.recorded_at)) throw new InvalidBatchError("recorded_at", "expected an RFC 3339 UTC timestamp");
  if (b.source === null || typeof b.source !== "object") throw new InvalidBatchError("source", "expected an object");
  if ((b.source as Record<string, unknown>).promotion_state !== null)
    throw new InvalidBatchError("source.promotion_state", "must be null");
  for (const k of ["claim_versions", "relation_versions", "episodes", "aliases", "evidence_refs"]) {
    if (!Array.isArray(b[k])) throw new InvalidBatchError(k, "expected a list");
    for (const [i, x] of (b[k] as unknown[]).entries())
      if (x === null || typeof x !== "object") throw new InvalidBatchError(`${k}[${i}]`, "expected an object");
  }
  for (const [i, r] of (b.relation_versions as Array<Record<string, unknown>>).entries()) {
    for (const k of ["relation_id", "from", "to"])
      if (typeof r[k] !== "string") throw new InvalidBatchError(`relation_versions[${i}].${k}`, "expected a string");
  }
  for (const [i, c] of (b.claim_versions as Array<Record<string, unknown>>).entries()) {
    for (const k of ["claim_id", "claim_version_id"])
      if (typeof c[k] !== "string") throw new InvalidBatchError(`claim_versions[${i}].${k}`, "expected a string");
  }
  if (
    b.kernel_payload_json !== null &&
    b.kernel_payload_json !== undefined &&
    typeof b.kernel_payload_json !== "string"
  ) {
    throw new InvalidBatchError("kernel_payload_json", "expected a string or null");
  }
  return v as ProjectionImportBatchV3;
}
