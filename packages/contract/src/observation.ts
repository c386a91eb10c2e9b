/**
 * forge-observe's lines (spec/loop.md §1, with §6's additions), one
 * interface per `kind`, as forge-observe writes them: `ObservationLine` is
 * their union on `kind`, `Observation` the lines grouped by kind (what
 * forge-plan reads). Field comments say what is not plain from the name.
 */
import type { OBSERVATION_SCHEMA } from "./schema.js";

/** A PR (or an issue) as a line names it: id and number. */
export interface NumberedRef {
  id: string;
  number: number;
}

/** A flaky check's failure rate with its Wilson 95 % interval (micros). */
export interface FlakeRateLine {
  rate_micros: number;
  low_micros: number;
  high_micros: number;
  /** The interval is no wider than the precision. */
  decided: boolean;
}

/**
 * The bound a check's verdict carries (kernel `verdictBound`): `passing` the
 * fail rate's and `failing` the pass rate's one-sided 95 % Clopper–Pearson
 * upper bound (`low_micros` 0); `flaky` and `unknown` the fail rate's Wilson
 * 95 % interval. `decided`: within the precision; an undecided verdict is
 * said "— unresolved".
 */
export interface VerdictBoundLine {
  decided: boolean;
  low_micros: number;
  method: "clopper-pearson" | "wilson";
  /** Which rate `low_micros`..`upper_micros` bounds. */
  rate: "fail" | "pass";
  upper_micros: number;
}

/** The header's `health` (seed §5.3). */
export interface ObservationHealth {
  total_claim_versions: number;
  total_relation_versions: number;
  total_episodes: number;
  /** Current undecided flaky checks. */
  fragile_node_count: number;
  /** Active syndromes. */
  syndrome_count: number;
  degradation_count: number;
  unverified_claim_count: number;
  /** Open PRs with a replaced patch plus claim versions that supersede. */
  supersession_candidate_count: number;
  last_import_at: string | null;
}

/** The header's `counts`. */
export interface ObservationCounts {
  imports: number;
  claims: number;
  current_claims: number;
  trials: number;
  syndromes: number;
  active_syndromes: number;
  runs: number;
  unexported_runs: number;
  prs: number;
  open_prs: number;
  closed_issues: number;
  merges: number;
}

/** The first line of an observation. */
export interface ObservationHeader {
  kind: "observation";
  schema_version: typeof OBSERVATION_SCHEMA;
  scope: string;
  base_ref: string;
  base_sha: string | null;
  /** The code tree of the base tip (spec/loop.md §4). */
  base_tree: string | null;
  health: ObservationHealth;
  /** The current degradation markers, sorted. */
  markers: string[];
  counts: ObservationCounts;
  config: { precision_micros: number; fragile_threshold_micros: number; min_trials: number; fixed_labels: string[] };
  oracles: { conservative: { bound_reached: boolean; refused: string | null } };
}

/** One claim of the scope's fold (keys in sorted order, as forge-observe builds it). */
export interface NodeLine {
  belief_micros: number | null;
  /** Checks: the verdict's bound (every check node has one); other claims: null. */
  bound: VerdictBoundLine | null;
  caveat: boolean;
  claim_id: string;
  claim_kind: string;
  claim_version_id: string;
  /** At the base tip's code tree, or an open PR's current patch (§6). */
  current: boolean;
  /** The median duration of its counted trials. */
  duration_ms: number | null;
  env_fingerprints: string[];
  errors: number;
  fails: number;
  flake_rate: FlakeRateLine | null;
  flaky: number;
  fragile_reasons: string[];
  /** The latest commit a CI run ran this tree and patch at (the base tip for the base tree); null: cannot be rerun. */
  head_sha: string | null;
  infra: number;
  kind: "node";
  /** The conservative oracle's bound. */
  lower_micros: number | null;
  passes: number;
  patch_sha256: string | null;
  /** The open PR whose current patch it is. */
  pr: NumberedRef | null;
  signatures: string[];
  /** The claim's subject (a check's: `step`, `tree`, `patch_sha256`). */
  subject: Record<string, unknown>;
  superseded_by: string[];
  support_members: number;
  tree: string | null;
  trials: number;
  /**
   * Checks: `passing|failing|flaky|unknown`; patch effects: the typed-diff category;
   * other claims: `verified|contradicted|unavailable|unverified`.
   */
  verdict: string;
}

/** A failure signature. */
export interface SyndromeLine {
  /** A current claim fails with it. */
  active: boolean;
  active_claim_ids: string[];
  claim_ids: string[];
  /** Those active claims whose verdict is `failing`. */
  failing_claim_ids: string[];
  kind: "syndrome";
  signature: string;
  /** The first active claim's tree. */
  tree: string | null;
  trials: number;
}

/** A PR. */
export interface PrLine {
  base_ref: string;
  /** The recorded base tip. */
  base_sha: string | null;
  /** The steps with evidence at the current patch. */
  checks: string[];
  ci: string | null;
  /** Issue ids. */
  closes: string[];
  /** Known typed-diff categories per check, from evidence. */
  effects: Record<string, string>;
  head_sha: string | null;
  id: string;
  kind: "pr";
  number: number;
  patch_sha256: string;
  previous_patch_sha256: string[];
  /** CI runs at its current patch. */
  runs: string[];
  state: string;
}

/** An issue closed as fixed (closed as completed, with a fix label, or closed by a PR). */
export interface IssueLine {
  closed_at: string | null;
  /** `merge:<id>`, or null. */
  closed_by: string | null;
  closing_prs: Array<NumberedRef & { state: string }>;
  /** Claim ids of `fixes` claims. */
  fix_evidence: string[];
  id: string;
  kind: "issue";
  labels: string[];
  number: number;
  state: string;
  /** gh's stateReason when stored (`forge-issue close --reason`): `COMPLETED`, `NOT_PLANNED`, else null. */
  state_reason: "COMPLETED" | "NOT_PLANNED" | null;
}

/** What a rerun needs, on `missing_log:` and `unexported_run:` markers. */
export interface DegradationDetail {
  run_id: string;
  head_sha: string;
  tree: string | null;
  patch_sha256: string | null;
  pr: NumberedRef | null;
  /** `missing_log:` only. */
  step?: string;
}

/** A degradation marker of the current state. */
export interface DegradationLine {
  kind: "degradation";
  marker: string;
  refs: string[];
  detail: DegradationDetail | null;
}

/** Why an issue closed as fixed is unverified. */
export type IssueUnverifiedWhy = "fix_evidence_unverified" | "merged_without_fix_evidence" | "closed_without_evidence";
/** Why a claim is unverified. */
export type ClaimUnverifiedWhy = "no_belief" | "below_threshold";

/** A claim with no verification: a derived claim, or (`claim_id: "issue:<id>"`) an issue closed as fixed. */
export interface UnverifiedLine {
  claim_id: string;
  claim_kind: string;
  /** Issues only. */
  fix_evidence?: string[];
  /** Issues only. */
  issue?: NumberedRef;
  kind: "unverified";
  why: IssueUnverifiedWhy | ClaimUnverifiedWhy;
}

/** One line of an observation. */
export type ObservationLine =
  ObservationHeader | NodeLine | SyndromeLine | PrLine | IssueLine | DegradationLine | UnverifiedLine;

/** An observation's lines by kind. */
export interface Observation {
  header: ObservationHeader;
  nodes: NodeLine[];
  syndromes: SyndromeLine[];
  prs: PrLine[];
  issues: IssueLine[];
  degradations: DegradationLine[];
  unverified: UnverifiedLine[];
}

/** The group of each line kind after the header, in stream order. */
export const OBSERVATION_GROUPS = {
  node: "nodes",
  syndrome: "syndromes",
  pr: "prs",
  issue: "issues",
  degradation: "degradations",
  unverified: "unverified",
} as const satisfies { [K in Exclude<ObservationLine["kind"], "observation">]: Exclude<keyof Observation, "header"> };
