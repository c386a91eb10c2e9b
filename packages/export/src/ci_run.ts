/**
 * A CI run record (`forge-ci list|view --json`) as an evidence bundle: each
 * step that ran becomes a trial of the `check` claim "step S passes at tree
 * T" (T = the code tree of headSha + patchSha256; headSha for a record
 * made before code trees). pass → pass; fail and timeout → fail
 * (with the step's signature); cancelled → error (the harness stopped, not
 * evidence about the step); skipped → no trial. A run that has not
 * completed is not evidence: it is skipped with a note.
 *
 * A step that wrote test reports (`steps[].tests` not empty) is its tests:
 * each test case is a trial of the check `<step> › <test id>` (pass → pass;
 * fail and error → fail with the test's signature; skip → no trial), and
 * the step beyond its tests is the check `<step> › (outside tests)`: it
 * fails when the step failed with no failing test, or timed out (a crash,
 * a broken report, a hang), and passes otherwise. So a flaky test makes
 * only that test flaky, and nothing is counted twice.
 */
import { isUuid } from "@forge/core";
import { BUNDLE_SCHEMA, type EvidenceBundle, type Receipt } from "@forge/evidence";
import type { ClaimVersion, Outcome, Trial } from "@forge/kernel";
import {
  int,
  list,
  match,
  RecordError,
  oneOf,
  optInt,
  optMatch,
  optStr,
  optTs,
  SHA1_OR_256,
  SHA256,
  SIGNATURE,
  str,
  ts,
} from "@forge/contract";
import { checkName } from "@forge/contract";
import { checkClaim, type Tree, treeLabel } from "./claim_ids.js";
import { stepName } from "./provenance.js";

/** The check of a step with test reports beyond its test cases. */
export const OUTSIDE_TESTS = "(outside tests)";

const TEST_OUTCOMES = ["pass", "fail", "skip", "error"] as const;

/** One test case of a step, as a CI run record carries it. */
export interface CiTestCase {
  id: string;
  outcome: (typeof TEST_OUTCOMES)[number];
  durationMs: number;
  signature: string | null;
}

/** The fields of a CI run record this mapping reads (spec/evidence.md §CI run). */
export interface CiRunRecord {
  id: string;
  status: "queued" | "in_progress" | "completed";
  name: string;
  event: string | null;
  headSha: string;
  /** The code tree of headSha (null: a record from before code trees). */
  codeTree: string | null;
  patchSha256: string | null;
  envSha256: string;
  runner: string;
  pr: { number: number; id: string } | null;
  createdAt: string;
  completedAt: string | null;
  rerunOf: string | null;
  steps: Array<{
    name: string;
    outcome: "pass" | "fail" | "timeout" | "cancelled" | "skipped";
    exitCode: number | null;
    durationMs: number;
    signature: string | null;
    logSha256: string | null;
    /** Its test cases ([] when it wrote no reports, or a record from before them). */
    tests: CiTestCase[];
  }>;
}

const STEP_OUTCOMES = ["pass", "fail", "timeout", "cancelled", "skipped"] as const;

/** Whether a JSON line looks like a CI run record. */
export function isCiRun(v: Record<string, unknown>): boolean {
  return "databaseId" in v && "steps" in v && "headSha" in v;
}

/**
 * Check a CI run record.
 * @throws RecordError naming the field
 */
export function parseCiRun(v: Record<string, unknown>): CiRunRecord {
  const steps = list(v, "steps").map((s, i) => {
    const p = `steps[${i}].`;
    const step = {
      name: str(s, "name", p),
      outcome: oneOf(s, "outcome", STEP_OUTCOMES, p),
      exitCode: optInt(s, "exitCode", p),
      durationMs: int(s, "durationMs", p),
      signature: optMatch(s, "signature", SIGNATURE, "sig-v1:<32 hex> or null", p),
      logSha256: optMatch(s, "logSha256", SHA256, "64 hex or null", p),
      tests:
        s.tests === undefined || s.tests === null
          ? []
          : list(s, "tests", p).map((c, j) => testCase(c, `${p}tests[${j}].`)),
    };
    // A step's name names its claim, its trial and its argv: a step's name (NN-name), never a path.
    stepName(step.name, `${p}name`);
    return step;
  });
  const pr = v.pr === null || v.pr === undefined ? null : (v.pr as Record<string, unknown>);
  if (pr !== null && (typeof pr !== "object" || typeof pr.id !== "string"))
    throw new RecordError("pr", "expected {number, id} or null");
  return {
    id: match(v, "id", isUuid, "a uuid"),
    status: oneOf(v, "status", ["queued", "in_progress", "completed"] as const),
    name: str(v, "name"),
    event: optStr(v, "event"),
    headSha: match(v, "headSha", SHA1_OR_256, "a 40-hex commit"),
    codeTree: optMatch(v, "codeTree", SHA1_OR_256, "a 40-hex tree or null"),
    patchSha256: optMatch(v, "patchSha256", SHA256, "64 hex or null"),
    envSha256: match(v, "envSha256", SHA256, "64 hex"),
    runner: str(v, "runner"),
    pr: pr as CiRunRecord["pr"],
    createdAt: ts(v, "createdAt"),
    completedAt: optTs(v, "completedAt"),
    rerunOf: optMatch(v, "rerunOf", isUuid, "a uuid or null"),
    steps,
  };
}

function testCase(c: Record<string, unknown>, p: string): CiTestCase {
  const id = str(c, "id", p);
  if (id === "") throw new RecordError(`${p}id`, "expected a non-empty string");
  const outcome = oneOf(c, "outcome", TEST_OUTCOMES, p);
  return {
    id,
    outcome,
    durationMs: int(c, "durationMs", p),
    signature: optMatch(c, "signature", SIGNATURE, "sig-v1:<32 hex> or null", p),
  };
}

/** What a step outcome counts as (null: no trial). */
export function stepTrialOutcome(o: CiRunRecord["steps"][number]["outcome"]): Outcome | null {
  return o === "pass" ? "pass" : o === "fail" || o === "timeout" ? "fail" : o === "cancelled" ? "error" : null;
}

/**
 * The bundle of a completed run, or a note saying why the run is not evidence.
 * @param scope the bundle scope
 */
export function ciRunBundle(run: CiRunRecord, scope: string): EvidenceBundle | { skip: string } {
  if (run.status !== "completed" || run.completedAt === null)
    return { skip: `run ${run.id} is ${run.status}: skipped, not evidence` };
  const tree: Tree = { headSha: run.headSha, patchSha256: run.patchSha256, codeTree: run.codeTree };
  const claims: ClaimVersion[] = [];
  const trials: Trial[] = [];
  const receipts: Receipt[] = [];
  const aliases: Array<{ alias: string; claim_id: string }> = [];
  const at = run.completedAt;
  const trial = (check: string, outcome: Outcome, durationMs: number, signature: string | null): void => {
    const claim = checkClaim(check, tree, at);
    claims.push(claim);
    trials.push({
      trial_id: `${run.id}:${check}`,
      claim_id: claim.claim_id,
      outcome,
      duration_ms: durationMs,
      signature: outcome === "fail" ? signature : null,
      recorded_at: at,
      env_fingerprint: run.envSha256,
      receipt_ref: `ci-run:${run.id}`,
      run_id: run.id,
      retry_of: run.rerunOf,
    });
    aliases.push({ alias: `ci-step:${check}@${treeLabel(tree)}`, claim_id: claim.claim_id });
  };
  for (const s of run.steps) {
    const outcome = stepTrialOutcome(s.outcome);
    if (outcome === null) continue;
    if (s.tests.length > 0 && outcome !== "error") {
      const seen = new Set<string>();
      let failed = false;
      for (const c of s.tests) {
        // A record with a repeated id states it once (forge-ci never writes one).
        if (c.outcome === "skip" || seen.has(c.id)) continue;
        seen.add(c.id);
        const o: Outcome = c.outcome === "pass" ? "pass" : "fail";
        failed ||= o === "fail";
        trial(checkName(s.name, c.id), o, c.durationMs, c.signature);
      }
      const outside = s.outcome === "timeout" || (outcome === "fail" && !failed) ? "fail" : "pass";
      trial(checkName(s.name, OUTSIDE_TESTS), outside, s.durationMs, s.signature);
    } else trial(s.name, outcome, s.durationMs, s.signature);
    receipts.push({
      argv: [`.forge/ci/steps/${s.name}`],
      exit_code: s.exitCode,
      duration_ms: s.durationMs,
      log_digest: s.logSha256 ? `sha256:${s.logSha256}` : null,
    });
  }
  return {
    schema_version: BUNDLE_SCHEMA,
    bundle_id: `ci-run:${run.id}`,
    candidate_id: run.pr ? `pr:${run.pr.id}` : `tree:${treeLabel(tree)}`,
    eval_id: `ci:${run.name}`,
    version_id: `${run.headSha}:${run.patchSha256 ?? "-"}`,
    trace_id: run.id,
    attempt_id: run.id,
    bundle_scope: scope,
    created_at: run.completedAt,
    claims,
    relations: [],
    verification: { trials, typed_diff: [] },
    refutation: null,
    claim_strength: "observed",
    known_threats: run.runner === "docker" ? [] : ["unisolated_runner"],
    promotion_state: null,
    receipts,
    supersedes_claim_version_id: null,
    episodes: [],
    aliases,
    evidence_refs: [
      { ref_id: `ci-run:${run.id}`, kind: "ci-run", path: `.forge/ci/runs/${run.id}/summary.md`, digest: null },
    ],
  };
}
