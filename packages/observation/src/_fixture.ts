/** Test support: observation inputs built by hand (not a test file). */
import type { ImportLogEntry, ScopeState } from "@forge/evidence";
import { type ClaimVersion, KERNEL_SCHEMA, type KernelBatch, type Trial } from "@forge/kernel";
import type { IssueInput, ObserveInputs, PrInput, RunInput } from "./inputs.js";

export const TREE = "a".repeat(40);
export const OLD_TREE = "b".repeat(40);
export const BASE_SHA = "c".repeat(40);
export const ENV = "e".repeat(64);
export const SIG = "sig-v1:" + "1".repeat(32);
export const SIG2 = "sig-v1:" + "2".repeat(32);

/** A check claim at a tree (and patch). */
export function check(id: string, step: string, tree = TREE, patch: string | null = null): ClaimVersion {
  return {
    claim_id: id,
    claim_version_id: `${id}@1`,
    kind: "check",
    subject: { step, tree, patch_sha256: patch },
    statement: `${step} passes`,
    recorded_at: "2026-11-30T02:00:00Z",
    supersedes_claim_version_id: null,
  };
}

let n = 0;
/** A trial of a claim in run `run`. */
export function trialOf(
  claim: string,
  outcome: "pass" | "fail" | "error",
  run = `r${++n}`,
  over: Partial<Trial> = {}
): Trial {
  return {
    trial_id: `${run}:${claim}`,
    claim_id: claim,
    outcome,
    duration_ms: 10,
    signature: outcome === "fail" ? SIG : null,
    recorded_at: "2026-11-30T02:00:00Z",
    env_fingerprint: ENV,
    receipt_ref: `ci-run:${run}`,
    run_id: run,
    retry_of: null,
    ...over,
  };
}

/** A folded scope holding `kernel` (one import unless `imports` says otherwise). */
export function scope(kernel: KernelBatch | null, imports: Array<Partial<ImportLogEntry>> = [{}]): ScopeState {
  return {
    scope: "default",
    imports: imports.map(
      (i, k) =>
        ({
          batch_id: `${k}`.padStart(64, "0"),
          imported_at: "2026-11-30T03:00:00Z",
          markers: [],
          ...i,
        }) as ImportLogEntry
    ),
    claim_versions: [],
    relation_versions: [],
    episodes: [],
    episode_count: 0,
    aliases: [],
    evidence_refs: [],
    kernel: kernel ?? { schema_version: KERNEL_SCHEMA, claims: [], trials: [], relations: [] },
    markers: [],
  };
}

export function kernel(claims: ClaimVersion[], trials: Trial[]): KernelBatch {
  return { schema_version: KERNEL_SCHEMA, claims, trials, relations: [] };
}

export function runOf(id: string, over: Partial<RunInput> = {}): RunInput {
  return {
    id,
    status: "completed",
    headSha: BASE_SHA,
    codeTree: TREE,
    patchSha256: null,
    pr: null,
    envSha256: ENV,
    createdAt: "2026-11-30T02:00:00Z",
    completedAt: "2026-11-30T02:00:01Z",
    steps: [{ name: "10-unit", outcome: "pass", logSha256: "f".repeat(64), log: true }],
    ...over,
  };
}

export function prOf(id: string, number: number, over: Partial<PrInput> = {}): PrInput {
  return {
    id,
    number,
    state: "open",
    baseRefName: "main",
    baseSha: BASE_SHA,
    headSha: "d".repeat(40),
    patchSha256: String(number).repeat(64).slice(0, 64),
    previousPatchSha256: [],
    closes: [],
    ci: null,
    createdAt: "2026-11-30T01:00:00Z",
    ...over,
  };
}

export function issueOf(id: string, number: number, state = "closed", labels = ["bug"]): IssueInput {
  return { id, number, state, closedAt: state === "closed" ? "2026-11-30T04:00:00Z" : null, labels };
}

/** Inputs with a base at TREE. */
export function inputs(over: Partial<ObserveInputs> = {}): ObserveInputs {
  return {
    scope: "default",
    base: { ref: "main", sha: BASE_SHA, tree: TREE },
    state: scope(null),
    runs: [],
    prs: [],
    issues: [],
    merges: [],
    unreadable: [],
    ...over,
  };
}
