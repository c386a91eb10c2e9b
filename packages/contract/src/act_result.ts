/**
 * The `act_result` line (spec/evidence.md §6.3, spec/loop.md §3 and §7):
 * what forge-act writes (`ActResult`, one shape per plan kind) and what
 * forge-export reads of it (`ActResultRecord`, through `parseActResult`).
 * The reader is looser than the writer: an act result may come from
 * elsewhere than forge-act (with `trials` of its own, without `stats` or
 * `receipts`), and a field the bundle does not use is not checked.
 */
import type { FlakeRate } from "@forge/kernel";
import {
  int,
  list,
  match,
  oneOf,
  optInt,
  optMatch,
  optStr,
  type Rec,
  RecordError,
  SHA1_OR_256,
  SHA256,
  SIGNATURE,
  str,
  strings,
  ts,
} from "./fields.js";
import type { PrRef } from "./plan.js";
import type { PlanKind } from "./plan_kind.js";
import { ACT_RESULT_SCHEMA } from "./schema.js";

/** A trial's outcome. */
export const TRIAL_OUTCOMES = ["pass", "fail", "timeout", "error", "skipped"] as const;
export type TrialOutcome = (typeof TRIAL_OUTCOMES)[number];

/** The twelve typed-diff categories (loop-anchors §3 Crater `compare`; DESIGN §8). */
export const CATEGORIES = [
  "fixed",
  "regressed",
  "still_passing",
  "still_failing",
  "failure_changed",
  "flaky_baseline",
  "flaky_patched",
  "spurious_fixed",
  "spurious_regressed",
  "inconclusive",
  "skipped",
  "error",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** A trial that is a CI run, as the act result references it (`trial_refs`). */
export interface TrialRef {
  run_id: string | null;
  step: string;
  side: "baseline" | "patched" | null;
  outcome: TrialOutcome;
  head_sha: string;
  patch_sha256: string | null;
  /** The code tree the trial ran on (the commit's tree without `.forge`; the patch is keyed by patch_sha256). */
  code_tree: string | null;
  duration_ms: number;
  signature: string | null;
  env_sha256: string | null;
  recorded_at: string;
  /** Why a trial is `error` (a setup step failed, the tree could not be made). */
  why: string | null;
}

/** One receipt: a step that ran. */
export interface ActReceipt {
  run_id: string;
  argv: string[];
  exit_code: number | null;
  duration_ms: number;
  log_digest: string | null;
}

/** A trial carried in the act result itself (`trials`: forge-act leaves it empty; other producers may not). */
export interface ActTrial {
  step: string;
  head_sha: string;
  patch_sha256: string | null;
  code_tree: string | null;
  outcome: TrialOutcome;
  recorded_at: string;
  argv: string[];
  duration_ms: number;
  exit_code: number | null;
  log_digest: string | null;
  /** The failure's signature: read (and checked) for a `fail` or `timeout` only, null otherwise. */
  signature: string | null;
  /** The next three are read (and checked) for a trial that is not `skipped`, null otherwise. */
  env_sha256: string | null;
  run_id: string | null;
  retry_of: string | null;
}

/** A typed-diff entry as forge-export reads it. */
export interface TypedDiffRecord {
  check: string;
  /** A category (not checked against CATEGORIES: the lane keeps what it is given). */
  category: string;
  base_sha: string;
  patch_sha256: string;
  code_tree: string | null;
  baseline: { pass: number; fail: number };
  patched: { pass: number; fail: number };
}

/** What one side of a paired experiment counted for one check. */
export interface SideCounts {
  pass: number;
  fail: number;
  error: number;
}

/** One check's entry of forge-act's typed diff. */
export interface DiffEntry extends TypedDiffRecord {
  category: Category;
  /** The base's code tree (the patched tree is it plus patch_sha256). */
  code_tree: string;
  baseline: SideCounts;
  patched: SideCounts;
}

/** A PR's `fixes` verdict for one issue it closes. */
export interface FixesVerdict {
  issue: string;
  pr: PrRef;
  patch_sha256: string;
  base_sha: string;
  holds: boolean;
  fail_to_pass: string[];
  pass_to_pass: string[];
  /** Checks that break PASS_TO_PASS or leave it unknown. */
  broken: string[];
  /** Checks flaky at the base, not counted as PASS_TO_PASS. */
  flaky_at_base: string[];
}

/** What a rerun learnt. */
export interface RerunStats {
  step: string;
  /** The test of `step` rerun (its check `<step> › <test>`), when the check is a test. */
  test?: string;
  head_sha: string;
  patch_sha256: string | null;
  tree: string | null;
  /** Counted trials (pass + fail). */
  trials: number;
  passes: number;
  fails: number;
  errors: number;
  flake_rate: FlakeRate;
  verdict: "passing" | "failing" | "flaky" | "unknown";
  /** Why it stopped: `decided`, `budget`, `deadline`, `interrupted`, `setup_error`. */
  stop: string;
  /** The most trials it would have run. */
  budget: number;
}

/** The fields of every act result, as forge-act sets them before the plan runs. */
export interface ActResultBase {
  kind: "act_result";
  schema_version: typeof ACT_RESULT_SCHEMA;
  id: string;
  plan_id: string;
  target_key: string;
  target_kind: string;
  plan_kind: PlanKind;
  scope: string;
  advisory: boolean;
  started_at: string;
  completed_at: string;
  candidate_id: string | null;
  version_id: string | null;
  trace_id: string;
  attempt_id: string;
  supersedes_claim_version_id: string | null;
  known_threats: string[];
  trials: ActTrial[];
  trial_refs: TrialRef[];
  typed_diff: DiffEntry[] | null;
  fixes: FixesVerdict[];
  stats: RerunStats | null;
  oracle: Record<string, unknown> | null;
  receipts: ActReceipt[];
  /** A short deterministic string of what was learnt (the pilot's exhaustion rule compares it). */
  outcome_signature: string;
  parity_violation: boolean;
  deadline_ms: number | null;
  deadline_overrun_ms: number;
  stop: string;
}

/** What a CheckRerun sets. */
export interface CheckRerunPart {
  stats: RerunStats;
  trial_refs: TrialRef[];
  receipts: ActReceipt[];
  known_threats: string[];
  outcome_signature: string;
  stop: string;
  candidate_id: string | null;
  version_id: string;
}

/**
 * What a PairedPatch sets, with the plan's `pr`, `closes` and
 * `flaky_at_base` (from which forge-export states the `fixes` claims).
 */
export interface PairedPatchPart {
  typed_diff: DiffEntry[];
  fixes: FixesVerdict[];
  trial_refs: TrialRef[];
  receipts: ActReceipt[];
  known_threats: string[];
  outcome_signature: string;
  /** Repetitions done per side, and why each side stopped. */
  sides: { baseline: { reps: number; stop: string }; patched: { reps: number; stop: string } };
  /** Wall time of each side and of the whole experiment (the parallel overhead is their ratio). */
  wall_ms: { baseline: number; patched: number; total: number };
  stop: string;
  pr: PrRef;
  closes: string[];
  flaky_at_base: string[];
  candidate_id: string;
  version_id: string;
}

/** What an oracle plan sets: the kernel's assessment as returned. */
export interface OraclePart {
  oracle: Record<string, unknown>;
  outcome_signature: string;
  /** Delta parity failed: the store disagrees with itself. */
  parity_violation: boolean;
}

/** What an advisory plan sets. */
export interface AdvisoryPart {
  advisory: true;
  outcome_signature: string;
  advisory_text: string;
}

/** What each plan kind adds to the base: a kind missing here is a compile error in `ActResult` and in forge-act. */
export interface ActResultParts {
  CheckRerun: CheckRerunPart;
  PairedPatch: PairedPatchPart;
  OracleExactBounded: OraclePart;
  OracleConservative: OraclePart;
  OracleDeltaParity: OraclePart;
  OracleTemporalReplay: OraclePart;
  OracleCausalRefuter: OraclePart;
  OracleMinimalPerturbation: OraclePart;
  Advisory: AdvisoryPart;
}

/** The act result of one plan kind. */
export type ActResultOf<K extends PlanKind> = Omit<ActResultBase, keyof ActResultParts[K] | "plan_kind"> &
  ActResultParts[K] & { plan_kind: K };

/** An act result line as forge-act writes it: a union discriminated by `plan_kind`. */
export type ActResult = { [K in PlanKind]: ActResultOf<K> }[PlanKind];

/** An act result as forge-export reads it (`parseActResult`). */
export interface ActResultRecord {
  id: string;
  advisory: boolean;
  completed_at: string;
  trials: ActTrial[];
  typed_diff: TypedDiffRecord[] | null;
  closes: string[];
  /** [] when there is no typed diff (not read then, not checked). */
  flaky_at_base: string[];
  /**
   * The PR as given (an object, or null): its id is read, and checked,
   * only where a `fixes` claim names it.
   */
  pr: Rec | null;
  supersedes_claim_version_id: string | null;
  candidate_id: string | null;
  /** Read (and checked) when there is no candidate_id or there is an oracle; null otherwise. */
  target_key: string | null;
  plan_kind: string;
  version_id: string | null;
  trace_id: string | null;
  attempt_id: string | null;
  known_threats: string[];
  oracle: Rec | null;
}

/**
 * Check an act result record, field by field in the order forge-export
 * has always checked them (the first bad one is the error).
 * @throws RecordError naming the field
 */
export function parseActResult(v: Rec): ActResultRecord {
  if (v.schema_version !== ACT_RESULT_SCHEMA) throw new RecordError("schema_version", `expected ${ACT_RESULT_SCHEMA}`);
  const id = str(v, "id");
  const completedAt = ts(v, "completed_at");
  const trials = list(v, "trials").map((t, i) => actTrial(t, `trials[${i}].`));
  const diff =
    v.typed_diff === null || v.typed_diff === undefined
      ? null
      : list(v, "typed_diff").map((d, i) => diffEntry(d, `typed_diff[${i}].`));
  const closes = strings(v, "closes");
  const flakyAtBase = diff !== null && diff.length > 0 ? strings(v, "flaky_at_base") : [];
  const supersedes = optStr(v, "supersedes_claim_version_id");
  const candidate = optStr(v, "candidate_id");
  let targetKey = candidate === null ? str(v, "target_key") : null;
  const planKind = str(v, "plan_kind");
  const versionId = optStr(v, "version_id");
  const traceId = optStr(v, "trace_id");
  const attemptId = optStr(v, "attempt_id");
  const threats = strings(v, "known_threats");
  const oracle = v.oracle && typeof v.oracle === "object" ? (v.oracle as Rec) : null;
  if (oracle !== null) targetKey ??= str(v, "target_key");
  return {
    id,
    advisory: v.advisory === true,
    completed_at: completedAt,
    trials,
    typed_diff: diff,
    closes,
    flaky_at_base: flakyAtBase,
    pr: v.pr && typeof v.pr === "object" ? (v.pr as Rec) : null,
    supersedes_claim_version_id: supersedes,
    candidate_id: candidate,
    target_key: targetKey,
    plan_kind: planKind,
    version_id: versionId,
    trace_id: traceId,
    attempt_id: attemptId,
    known_threats: threats,
    oracle,
  };
}

function actTrial(t: Rec, p: string): ActTrial {
  const outcome = oneOf(t, "outcome", TRIAL_OUTCOMES, p);
  const headSha = match(t, "head_sha", SHA1_OR_256, "a commit", p);
  const patchSha = optMatch(t, "patch_sha256", SHA256, "64 hex or null", p);
  const codeTree = optMatch(t, "code_tree", SHA1_OR_256, "a 40-hex tree or null", p);
  const at = ts(t, "recorded_at", p);
  const step = str(t, "step", p);
  const argv = strings(t, "argv", p);
  const duration = int(t, "duration_ms", p);
  const exitCode = optInt(t, "exit_code", p);
  const logDigest = optStr(t, "log_digest", p);
  const trial: ActTrial = {
    step,
    head_sha: headSha,
    patch_sha256: patchSha,
    code_tree: codeTree,
    outcome,
    recorded_at: at,
    argv,
    duration_ms: duration,
    exit_code: exitCode,
    log_digest: logDigest,
    signature: null,
    env_sha256: null,
    run_id: null,
    retry_of: null,
  };
  if (outcome === "skipped") return trial;
  if (outcome === "fail" || outcome === "timeout") {
    trial.signature = optMatch(t, "signature", SIGNATURE, "sig-v1:<32 hex> or null", p);
  }
  trial.env_sha256 = optMatch(t, "env_sha256", SHA256, "64 hex or null", p);
  trial.run_id = optStr(t, "run_id", p);
  trial.retry_of = optStr(t, "retry_of", p);
  return trial;
}

function diffEntry(d: Rec, p: string): TypedDiffRecord {
  const check = str(d, "check", p);
  const category = str(d, "category", p);
  // A side that is not an object counts nothing: its `pass` is the error.
  const counts = (k: string) => {
    const c = (d[k] ?? {}) as Rec;
    return { pass: int(c, "pass", `${p}${k}.`), fail: int(c, "fail", `${p}${k}.`) };
  };
  const baseline = counts("baseline");
  const patched = counts("patched");
  const baseSha = match(d, "base_sha", SHA1_OR_256, "a commit", p);
  const patchSha = match(d, "patch_sha256", SHA256, "64 hex", p);
  const codeTree = optMatch(d, "code_tree", SHA1_OR_256, "a 40-hex tree or null", p);
  return { check, category, base_sha: baseSha, patch_sha256: patchSha, code_tree: codeTree, baseline, patched };
}
