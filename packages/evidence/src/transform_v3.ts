/**
 * transformEnvelopeV3(): the second step of the lane. Checks the envelope,
 * then projects the bundle into a ProjectionImportBatchV3: one row per
 * claim version and relation, one episode per trial (plus the bundle's own
 * episodes), the aliases, the receipts as evidence refs, and the kernel
 * payload. An advisory bundle contributes no kernel content: advice never
 * counts as verification. Every list is sorted by id and deduplicated, so
 * the same content in any order gives the same batch (and batch id).
 */
import { canonicalJson, cmp, KERNEL_SCHEMA, type KernelBatch } from "@forge/kernel";
import { BATCH_SCHEMA, type ProjectionImportBatchV3, sealBatch } from "./batch.js";
import type { Episode, EvidenceRef } from "./bundle.js";
import { checkEnvelope } from "./envelope.js";
import { contentSha256 } from "./hash.js";
import { trialEpisode } from "./trial_episode.js";

/**
 * Project a sealed bundle into an import batch.
 * @throws ForgeError when the envelope was altered
 * @example importProjectionBatch(store, transformEnvelopeV3(exportBundle(bundle, producer)))
 */
export function transformEnvelopeV3(envelope: unknown): ProjectionImportBatchV3 {
  const env = checkEnvelope(envelope);
  const b = env.bundle;
  const advisory = b.claim_strength === "advisory";
  const trials = advisory ? [] : (b.verification?.trials ?? []);
  const trialEpisodes: Episode[] = trials.map(trialEpisode);
  const receiptRefs: EvidenceRef[] = b.receipts.map((r) => ({
    ref_id: `receipt:${contentSha256(r).slice(0, 32)}`,
    kind: "receipt",
    path: null,
    digest: r.log_digest,
  }));
  const kernel: KernelBatch = {
    schema_version: KERNEL_SCHEMA,
    claims: byId(advisory ? [] : b.claims, (c) => c.claim_version_id),
    trials: byId(trials, (t) => t.trial_id),
    relations: byId(advisory ? [] : b.relations, (r) => r.relation_id),
  };
  return sealBatch({
    schema_version: BATCH_SCHEMA,
    scope: b.bundle_scope,
    recorded_at: b.created_at,
    source: {
      bundle_id: b.bundle_id,
      candidate_id: b.candidate_id,
      eval_id: b.eval_id,
      version_id: b.version_id,
      trace_id: b.trace_id,
      attempt_id: b.attempt_id,
      claim_strength: b.claim_strength,
      known_threats: [...b.known_threats].sort(),
      promotion_state: null,
      supersedes_claim_version_id: b.supersedes_claim_version_id,
      producer: env.producer,
    },
    claim_versions: byId(
      b.claims.map((c) => ({
        claim_id: c.claim_id,
        claim_version_id: c.claim_version_id,
        kind: c.kind,
        subject: c.subject,
        statement: c.statement,
        strength: b.claim_strength,
        bundle_id: b.bundle_id,
        recorded_at: c.recorded_at,
        supersedes_claim_version_id: c.supersedes_claim_version_id,
      })),
      (c) => c.claim_version_id
    ),
    relation_versions: byId(
      b.relations.map((r) => ({
        relation_id: r.relation_id,
        kind: r.kind,
        from: r.from,
        to: r.to,
        group: r.group,
        recorded_at: r.recorded_at,
      })),
      (r) => r.relation_id
    ),
    episodes: byId([...trialEpisodes, ...b.episodes], (e) => e.episode_id),
    aliases: byId(b.aliases, (a) => `${a.alias}\u0000${a.claim_id}`),
    evidence_refs: byId([...b.evidence_refs, ...receiptRefs], (r) => r.ref_id),
    kernel_payload_json: canonicalJson(kernel),
  });
}

/**
 * Sorted by key; exact duplicates (same key and content) kept once. Same key, other content: both kept, for the kernel
 * to mark.
 */
function byId<T>(xs: readonly T[], key: (x: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = groups.get(k);
    if (!g) groups.set(k, [x]);
    // Content is compared only when ids collide (rare), never for every row.
    else if (!g.some((y) => canonicalJson(y) === canonicalJson(x))) g.push(x);
  }
  const out: T[] = [];
  for (const k of [...groups.keys()].sort(cmp)) {
    const g = groups.get(k)!;
    if (g.length > 1) g.sort((a, b) => cmp(canonicalJson(a), canonicalJson(b)));
    out.push(...g);
  }
  return out;
}
