/**
 * What every target extractor reads besides its own line: the facts of the
 * observation it needs (indexes built once per observation), the config,
 * the clock, and the two plan drafts several kinds propose (a paired patch
 * experiment, a check rerun).
 */
import {
  splitCheck,
  subjectCheck,
  type IssueLine,
  type Modifier,
  type NodeLine,
  type Observation,
  type PlanKind,
  type PlanParams,
  type PrLine,
} from "@forge/contract";
import { cmp } from "@forge/kernel";
import type { PlanConfig } from "../config.js";

/** What a target's plan of kind K would be (no id yet; `decide` seals it): the contract's params for K. */
export interface PlanDraftOf<K extends PlanKind> {
  plan_kind: K;
  params: PlanParams[K];
  max_runs: number;
  description: string;
  why: string;
}

/** What a target's plan would be, of any kind. */
export type PlanDraft = { [K in PlanKind]: PlanDraftOf<K> }[PlanKind];

/** What an extractor finds: a target but for its kind (the extractor table's key) and what history adds. */
export interface Found {
  key: string;
  base_micros: number;
  modifiers?: Modifier[];
  refs: string[];
  plan_why: string;
  /** The plan, or null (no executable plan). */
  draft: PlanDraft | null;
}

/** The observation's facts the extractors share. */
export interface TargetContext {
  o: Observation;
  cfg: PlanConfig;
  /** epoch seconds (for ScopeStale) */
  now: number;
  minTrials: number;
  precision: number;
  baseSha: string | null;
  baseRef: string;
  nodeById: Map<string, NodeLine>;
  /** The steps of current checks at the base tree, sorted. */
  baseSteps: string[];
  /** The current check at the base tree of each step. */
  baseByStep: Map<string, NodeLine>;
  prById: Map<string, PrLine>;
  /** Issue lines by their unverified claim id (`issue:<id>`). */
  issueByClaim: Map<string, IssueLine>;
}

/**
 * The shared facts of an observation.
 * @param now epoch seconds
 */
export function targetContext(o: Observation, cfg: PlanConfig, now: number): TargetContext {
  const h = o.header;
  // A hand-written observation may lack what forge-observe always writes: the defaults stand in.
  const minTrials = Number(h.config?.min_trials ?? 3);
  const precision = Number(h.config?.precision_micros ?? 300_000);
  const nodeById = new Map(o.nodes.map((n) => [n.claim_id, n]));
  const baseChecks = o.nodes.filter(
    (n) => n.current && n.claim_kind === "check" && n.patch_sha256 === null && stepOf(n) !== null
  );
  return {
    o,
    cfg,
    now,
    minTrials,
    precision,
    baseSha: h.base_sha ?? null,
    baseRef: h.base_ref ?? "main",
    nodeById,
    baseSteps: [...new Set(baseChecks.map((n) => stepOf(n)!))].sort(cmp),
    baseByStep: new Map(baseChecks.map((n) => [stepOf(n)!, n])),
    prById: new Map(o.prs.map((p) => [p.id, p])),
    issueByClaim: new Map(o.issues.map((i) => [`issue:${i.id}`, i])),
  };
}

/** A check node's check name (its step, or `<step> › <test>` for a test), or null. */
export function stepOf(n: NodeLine): string | null {
  return subjectCheck(n.subject);
}

/** A paired baseline-vs-patched experiment on a PR's patch over `checks`. */
export function pairedDraft(c: TargetContext, pr: PrLine, why: string, checks: string[]): PlanDraftOf<"PairedPatch"> {
  const reps = c.cfg.paired_repetitions;
  return {
    plan_kind: "PairedPatch",
    params: {
      pr: { id: pr.id, number: pr.number },
      patch_sha256: pr.patch_sha256,
      base_ref: pr.base_ref ?? c.baseRef,
      // A base with no commit yet (null) makes a plan forge-act refuses by name: typed as the act reads it.
      base_sha: (pr.state === "open" ? c.baseSha : pr.base_sha) as string,
      checks,
      repetitions: reps,
      closes: pr.closes ?? [],
      // Checks flaky at the base are no PASS_TO_PASS checks (SWE-bench keeps only tests that pass reliably before).
      flaky_at_base: checks.filter((s) => c.baseByStep.get(s)?.verdict === "flaky"),
    },
    max_runs: 2 * reps,
    description: `paired baseline-vs-patched run of PR #${pr.number}`,
    why,
  };
}

/** A rerun of a check node at its tree (and patch), up to `reps` times; null when no commit is known for its tree. */
export function rerunDraft(c: TargetContext, n: NodeLine, reps: number, why: string): PlanDraftOf<"CheckRerun"> | null {
  const s = stepOf(n);
  if (s === null || n.head_sha === null || n.tree === null) return null;
  const r = Math.max(1, Math.min(reps, maxRepetitions(n.duration_ms)));
  const at = `${String(n.tree).slice(0, 12)}${n.patch_sha256 ? `+${String(n.patch_sha256).slice(0, 12)}` : ""}`;
  const { step, test } = splitCheck(s);
  return {
    plan_kind: "CheckRerun",
    params: {
      step,
      ...(test !== null ? { test } : {}),
      head_sha: n.head_sha,
      tree: n.tree,
      patch_sha256: n.patch_sha256,
      pr: n.pr ?? null,
      repetitions: r,
      precision_micros: c.precision,
      why,
    },
    max_runs: r,
    description: `rerun ${s} at ${at} up to ${r}×`,
    why,
  };
}

/**
 * The most repetitions a rerun may ask for, shrinking with the check's
 * duration (Datadog EFD's tiers, doubled for a decision).
 */
export function maxRepetitions(durationMs: number | null): number {
  const d = durationMs ?? 0;
  return d <= 5_000 ? 40 : d <= 10_000 ? 20 : d <= 30_000 ? 10 : d <= 300_000 ? 3 : 1;
}
