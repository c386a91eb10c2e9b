/**
 * @module
 * forge's canonical evidence lane and the only writer of `.forge/evidence/`:
 * EvidenceBundle → exportBundle() → transformEnvelopeV3() →
 * importProjectionBatch(), and the public queries over the import log.
 * Never prints, never exits.
 */
export {
  type Alias,
  BUNDLE_SCHEMA,
  CLAIM_STRENGTHS,
  type ClaimStrength,
  type Episode,
  type EvidenceBundle,
  type EvidenceRef,
  InvalidBundleError,
  isScope,
  type Receipt,
  type RefutationArtifact,
  type TypedDiffEntry,
  validateBundle,
} from "./bundle.js";
export { checkEnvelope, ENVELOPE_SCHEMA, type Envelope, exportBundle, type Producer } from "./envelope.js";
export {
  BATCH_SCHEMA,
  type BatchSource,
  InvalidBatchError,
  type ProjectionClaimVersion,
  type ProjectionImportBatchV3,
  type ProjectionRelationVersion,
  checkBatchShape,
  sealBatch,
  validateBatch,
} from "./batch.js";
export { transformEnvelopeV3 } from "./transform_v3.js";
export {
  foldCompiled,
  importForeignRecord,
  importProjectionBatch,
  type ImportOptions,
  primeFold,
} from "./import_batch.js";
export {
  type BatchHere,
  batchesHere,
  checkImportPack,
  checkImportRecord,
  importIds,
  IMPORT_SCHEMA,
  type ImportLogEntry,
  type ImportRecord,
  packedBatchIds,
  packNames,
  PACK_SCHEMA,
  readImportFile,
  readImportLog,
  readPackFile,
} from "./import_log.js";
export { packImports, type PackResult } from "./pack.js";
export {
  type CachedLogOptions,
  digestOf,
  hasRecords,
  importDigest,
  type LoggedImport,
  readImportLogCached,
  readImportLogStamped,
  withPayloads,
} from "./import_log_cache.js";
export {
  type KeptView,
  keptView,
  kernelView,
  type KernelNode,
  type KernelView,
  viewConfig,
  viewExtended,
  viewFor,
  viewKey,
  viewOf,
  writeKernelView,
} from "./kernel_view.js";
export { PAYLOAD_MARKERS, readScope, type ReadScopeOptions, type ScopeState } from "./scope.js";
export { trialEpisode } from "./trial_episode.js";
export {
  claimVersions,
  compileScope,
  episodes,
  evidenceRefs,
  latestImport,
  listImports,
  relationVersions,
  scopeHealth,
  type ScopeHealthSummary,
} from "./queries.js";
export { contentSha256, sha256Hex } from "./hash.js";
export { BREAKS_PASS_TO_PASS, breaksPassToPass, fixesRuleHolds } from "./fixes_rule.js";
