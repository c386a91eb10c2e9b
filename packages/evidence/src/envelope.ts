/**
 * exportBundle(): the first step of the lane. Validates the bundle and
 * wraps it in an envelope that names the producer and carries the
 * bundle's content hash, so the next step can prove it was not altered.
 */
import { ForgeError } from "@forge/core";
import { type EvidenceBundle, validateBundle } from "./bundle.js";
import { contentSha256 } from "./hash.js";

/** The schema tag of an envelope. */
export const ENVELOPE_SCHEMA = "forge-evidence-envelope/v1";

/** Who produced a bundle. */
export interface Producer {
  name: string;
  version: string;
}

/** A bundle, sealed. */
export interface Envelope {
  schema_version: string;
  producer: Producer;
  /** sha256 of the bundle's canonical JSON. */
  content_sha256: string;
  bundle: EvidenceBundle;
}

/**
 * Validate and seal a bundle.
 * @throws InvalidBundleError for a bundle that breaks the schema
 * @example exportBundle(bundle, {name: "forge-export", version: "0.1.0"}).content_sha256
 */
export function exportBundle(bundle: unknown, producer: Producer): Envelope {
  const b = validateBundle(bundle);
  return {
    schema_version: ENVELOPE_SCHEMA,
    producer: { name: producer.name, version: producer.version },
    content_sha256: contentSha256(b),
    bundle: b,
  };
}

/**
 * Check an envelope's schema and hash.
 * @throws ForgeError (E_INVALID_ENVELOPE) when it was altered or is not an envelope
 * @example checkEnvelope(exportBundle(bundle, producer)) // the envelope, unchanged
 */
export function checkEnvelope(env: unknown): Envelope {
  const e = env as Envelope;
  if (env === null || typeof env !== "object" || e.schema_version !== ENVELOPE_SCHEMA)
    throw new ForgeError("invalid envelope: field 'schema_version'", "E_INVALID_ENVELOPE");
  if (typeof e.producer?.name !== "string" || typeof e.producer?.version !== "string")
    throw new ForgeError("invalid envelope: field 'producer'", "E_INVALID_ENVELOPE");
  validateBundle(e.bundle);
  if (contentSha256(e.bundle) !== e.content_sha256)
    throw new ForgeError("invalid envelope: content_sha256 does not match the bundle", "E_INVALID_ENVELOPE");
  return e;
}
