/**
 * The evidence model: claims (with versions), trials (observed outcomes) and
 * relations, as a batch states them. Field names are snake_case because
 * these records travel inside `kernel_payload_json` (spec/evidence.md).
 */

/** The schema tag of a kernel batch. */
export const KERNEL_SCHEMA = "forge-kernel/v1";

/** Claim kinds the kernel knows. A claim of another kind degrades (`unknown_kind`). */
export const CLAIM_KINDS = ["check", "patch_effect", "fixes", "criterion"] as const;
/** A claim kind. */
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/** Relation kinds. Only `supports` feeds beliefs; the others are kept as stated. */
export const RELATION_KINDS = ["supports", "supersedes", "derived_from"] as const;
/** A relation kind. */
export type RelationKind = (typeof RELATION_KINDS)[number];

/** Observed outcomes. `error` is the harness failing, never evidence about the claim. */
export const OUTCOMES = ["pass", "fail", "error"] as const;
/** A trial outcome. */
export type Outcome = (typeof OUTCOMES)[number];

/**
 * One version of a claim. The claim is its stable `claim_id`; a batch may
 * hold several versions, the latest `recorded_at` (then version id) is current.
 */
export interface ClaimVersion {
  claim_id: string;
  claim_version_id: string;
  kind: string;
  /** What the claim is about, e.g. `{step, head_sha, patch_sha256}` for a check. */
  subject: Record<string, string | null>;
  statement: string;
  recorded_at: string;
  supersedes_claim_version_id: string | null;
}

/** One observed outcome of a claim (a check run once). */
export interface Trial {
  trial_id: string;
  claim_id: string;
  outcome: Outcome;
  duration_ms: number;
  /** `sig-v1:<32 hex>` for a failure, else null. */
  signature: string | null;
  recorded_at: string;
  /** sha256 of the environment the trial ran in. */
  env_fingerprint: string | null;
  /** Where the receipt lives, e.g. `ci-run:<uuid>`. */
  receipt_ref: string | null;
  /** The run this trial belongs to (for infrastructure detection). */
  run_id: string | null;
  /** The run this run retried: a pass here after a fail there is flaky, not a pass. */
  retry_of: string | null;
}

/** A stated link between two claims. `supports`: `from` supports `to`. */
export interface Relation {
  relation_id: string;
  kind: RelationKind;
  from: string;
  to: string;
  /** Joint group: all supports of `to` with one group hold jointly ("all of these"). */
  group: string | null;
  recorded_at: string;
}

/** What a kernel payload holds. */
export interface KernelBatch {
  schema_version: string;
  claims: ClaimVersion[];
  trials: Trial[];
  relations: Relation[];
}

/** The knobs; every number is an integer (micros for fractions). */
export interface KernelConfig {
  /** A node below this belief is fragile (forge-pilot: 900_000). */
  fragile_threshold_micros: number;
  /** Fewer trials than this is a calibration caveat (abstain). */
  min_trials: number;
  /** A run with at least this many trials… */
  infra_min_trials: number;
  /** …and at least this share failing is infrastructure, not evidence (Trunk: 80%). */
  infra_fail_micros: number;
  /** exactBounded: most leaves enumerated (2^n assignments). */
  exact_max_leaves: number;
  /** minimalPerturbation / causalRefuter: most elements removed at once. */
  max_removed_nodes: number;
  /** minimalPerturbation: most re-evaluations. */
  max_evaluations: number;
  /** causalRefuter: most supports tried one by one. */
  max_supports: number;
  /** deltaParity: most nodes recomputed incrementally. */
  max_dirty_nodes: number;
  /** temporalReplay / conservative: most trials or nodes considered. */
  max_trials: number;
}

/** The defaults (forge-pilot reference values where it has them). */
export const DEFAULT_CONFIG: Readonly<KernelConfig> = Object.freeze({
  fragile_threshold_micros: 900_000,
  min_trials: 3,
  infra_min_trials: 3,
  infra_fail_micros: 800_000,
  exact_max_leaves: 12,
  max_removed_nodes: 2,
  max_evaluations: 4096,
  max_supports: 64,
  max_dirty_nodes: 100_000,
  max_trials: 1_000_000,
});

/** One million: belief 1.0 in micros. */
export const MICROS = 1_000_000;
