/**
 * Targets: what in an observation most needs verifying, each with a stable
 * key, a base urgency, its modifiers, the retry decay and exhaustion from
 * the loop-local history, and the plan that would verify it (seed §6, §8,
 * §9, §13 with the corrections of spec/evidence.md §8). Only what the
 * observation's lines show can become a target; every target names the
 * refs that justify it.
 */
import { cmp, MICROS, trialsToDecide } from "@forge/kernel";
import type { HistoryEntry } from "./history.js";
import type { ObservationData, Line } from "./read.js";

/** Target kinds (seed §6.1), in tie-break priority order (seed §8.3). */
export const TARGET_KINDS = [
  "ActiveSyndrome", "FragileNode", "ThinExport", "UnverifiedClaimVersion", "RefutationGap", "SupersessionVerification", "ComparabilityDrift",
  "CalibrationCaveat", "ScopeStale",
] as const;
/** A target kind. */
export type TargetKind = (typeof TARGET_KINDS)[number];

/** Plan kinds (spec/loop.md §2). */
export type PlanKind =
  | "CheckRerun" | "PairedPatch" | "OracleExactBounded" | "OracleConservative" | "OracleDeltaParity" | "OracleTemporalReplay" | "OracleCausalRefuter"
  | "OracleMinimalPerturbation" | "Advisory";

/** The knobs of planning. */
export interface PlanConfig {
  /** Pick nothing below this urgency (forge-pilot: 0.25). */
  halt_threshold_micros: number;
  /** A target tried this often is exhausted (forge-pilot: 2). */
  max_retries_per_target: number;
  /** A scope whose last import is older than this is stale (seconds). */
  stale_after_s: number;
  /** Repetitions per side of a paired patch experiment. */
  paired_repetitions: number;
  /** forge-pilot's minimal_perturbation_budget. */
  max_removed_nodes: number;
  /** forge-pilot's oracle_max_iterations (delta parity). */
  oracle_max_iterations: number;
  /** Emit a visibly advisory plan when nothing executable is left. */
  allow_advisory_only: boolean;
}

/** The defaults (forge-pilot's LoopConfig where it has one). */
export const DEFAULT_PLAN_CONFIG: Readonly<PlanConfig> = Object.freeze({
  halt_threshold_micros: 250_000, max_retries_per_target: 2, stale_after_s: 7 * 86_400, paired_repetitions: 3, max_removed_nodes: 2,
  oracle_max_iterations: 4, allow_advisory_only: false,
});

/** The base urgencies (seed §8.1; FragileNode corrected, spec/evidence.md §8). */
export const BASE_MICROS: Readonly<Record<TargetKind, number>> = Object.freeze({
  ActiveSyndrome: 950_000, FragileNode: 800_000, ThinExport: 850_000, UnverifiedClaimVersion: 750_000, RefutationGap: 720_000,
  SupersessionVerification: 680_000, ComparabilityDrift: 600_000, CalibrationCaveat: 500_000, ScopeStale: 250_000,
});

/** A modifier: a named, deterministic change of the base urgency. */
export interface Modifier {
  name: string;
  delta_micros?: number;
  factor_micros?: number;
}

/** What a target's plan would be (no id yet; `decide` seals it). */
export interface PlanDraft {
  plan_kind: PlanKind;
  params: Record<string, unknown>;
  max_runs: number;
  description: string;
  why: string;
}

/** One target. */
export interface Target {
  key: string;
  target_kind: TargetKind;
  base_micros: number;
  modifiers: Modifier[];
  attempts: number;
  /** Base plus modifiers, clamped, before the retry decay. */
  score_micros: number;
  urgency_micros: number;
  exhausted: boolean;
  exhausted_why: string | null;
  /** null: no executable plan (only an advisory one, behind --allow-advisory-only). */
  plan_kind: PlanKind | null;
  refs: string[];
  /** Why there is no executable plan, or why this one. */
  plan_why: string;
  /** The plan, or null. */
  draft: PlanDraft | null;
  /** The history lines of this key, oldest first (for explain). */
  history: HistoryEntry[];
}

/**
 * Every target of an observation, ranked (urgency desc, kind priority, key asc).
 * @param now epoch seconds (for ScopeStale)
 */
export function extractTargets(o: ObservationData, history: readonly HistoryEntry[], cfg: PlanConfig, now: number): Target[] {
  const out: Target[] = [];
  const h = o.header;
  const minTrials = Number((h.config as Record<string, unknown> | undefined)?.min_trials ?? 3);
  const precision = Number((h.config as Record<string, unknown> | undefined)?.precision_micros ?? 300_000);
  const baseSha = (h.base_sha as string | null) ?? null;
  const baseRef = (h.base_ref as string | null) ?? "main";
  const nodeById = new Map(o.nodes.map((n) => [n.claim_id as string, n]));
  const step = (n: Line): string | null => {
    const s = (n.subject as Record<string, unknown> | null)?.step;
    return typeof s === "string" ? s : null;
  };
  const baseChecks = o.nodes.filter((n) => n.current && n.claim_kind === "check" && n.patch_sha256 === null && step(n) !== null);
  const baseSteps = [...new Set(baseChecks.map((n) => step(n)!))].sort(cmp);
  const baseByStep = new Map(baseChecks.map((n) => [step(n)!, n]));
  const prById = new Map(o.prs.map((p) => [p.id as string, p]));
  const add = (t: Omit<Target, "modifiers" | "attempts" | "score_micros" | "urgency_micros" | "exhausted" | "exhausted_why" | "history" | "plan_kind"> & { modifiers?: Modifier[] }): void => {
    // Spelled out, not spread: a spread of the seven shapes the callers pass is a slow, megamorphic copy (~7 µs a target).
    out.push({
      key: t.key, target_kind: t.target_kind, base_micros: t.base_micros, modifiers: t.modifiers ?? [], attempts: 0, score_micros: 0, urgency_micros: 0,
      exhausted: false, exhausted_why: null, plan_kind: t.draft?.plan_kind ?? null, refs: t.refs, plan_why: t.plan_why, draft: t.draft, history: [],
    });
  };
  const paired = (pr: Line, why: string, checks: string[]): PlanDraft => ({
    plan_kind: "PairedPatch",
    params: {
      pr: { id: pr.id, number: pr.number }, patch_sha256: pr.patch_sha256, base_ref: pr.base_ref ?? baseRef, base_sha: pr.state === "open" ? baseSha : pr.base_sha,
      checks, repetitions: cfg.paired_repetitions, closes: pr.closes ?? [],
      // Checks flaky at the base are no PASS_TO_PASS checks (SWE-bench keeps only tests that pass reliably before).
      flaky_at_base: checks.filter((c) => baseByStep.get(c)?.verdict === "flaky"),
    },
    max_runs: 2 * cfg.paired_repetitions, description: `paired baseline-vs-patched run of PR #${pr.number as number}`, why,
  });
  const rerun = (n: Line, reps: number, why: string): PlanDraft | null => {
    const s = step(n);
    if (s === null || n.head_sha === null || n.tree === null) return null;
    const r = Math.max(1, Math.min(reps, maxRepetitions(n.duration_ms as number | null)));
    return {
      plan_kind: "CheckRerun",
      params: { step: s, head_sha: n.head_sha, tree: n.tree, patch_sha256: n.patch_sha256, pr: n.pr ?? null, repetitions: r, precision_micros: precision, why },
      max_runs: r, description: `rerun ${s} at ${String(n.tree).slice(0, 12)}${n.patch_sha256 ? `+${String(n.patch_sha256).slice(0, 12)}` : ""} up to ${r}×`, why,
    };
  };

  // ActiveSyndrome: a current check fails with one signature and no pass.
  for (const s of o.syndromes) {
    if (!s.active) continue;
    const stable = (s.failing_claim_ids as string[]).map((id) => nodeById.get(id)!).filter((n) => n && (n.signatures as string[]).length === 1);
    if (stable.length === 0) continue;
    const atBase = stable.filter((n) => n.patch_sha256 === null);
    const atPr = stable.filter((n) => n.patch_sha256 !== null && n.pr !== null);
    let draft: PlanDraft;
    let why: string;
    if (atBase.length > 0) {
      const steps = new Set(atBase.map(step));
      // An open PR whose current patch makes the failing step pass: verify it as the fix (FAIL_TO_PASS, PASS_TO_PASS).
      const fixer = o.prs.filter((p) => p.state === "open").sort((a, b) => (a.number as number) - (b.number as number)).find((p) =>
        o.nodes.some((n) => n.patch_sha256 === p.patch_sha256 && n.claim_kind === "check" && steps.has(step(n)) && (n.passes as number) > 0 && (n.fails as number) === 0));
      if (fixer) {
        why = `open PR #${fixer.number as number} passes the failing step at its patch`;
        draft = paired(fixer, why, baseSteps);
      } else {
        why = "no PR passes the failing step: bound the failing claim exactly";
        draft = { plan_kind: "OracleExactBounded", params: { target_node_id: atBase[0]!.claim_id }, max_runs: 0, description: `exact belief of ${atBase[0]!.claim_id}`, why };
      }
    } else if (atPr.length > 0) {
      const pr = prById.get((atPr[0]!.pr as { id: string }).id)!;
      why = `the failure is stable at PR #${pr.number as number}'s patch: type the diff against the base`;
      draft = paired(pr, why, [...new Set([...baseSteps, ...atPr.map((n) => step(n)!)])].sort(cmp));
    } else continue;
    add({ key: `syndrome:${s.signature as string}`, target_kind: "ActiveSyndrome", base_micros: BASE_MICROS.ActiveSyndrome, refs: stable.map((n) => n.claim_id as string).sort(cmp), plan_why: why, draft });
  }

  for (const n of o.nodes) {
    if (!n.current) continue;
    const id = n.claim_id as string;
    if (n.claim_kind === "check") {
      const trials = n.trials as number;
      const fr = n.flake_rate as { rate_micros: number; decided: boolean } | null;
      // FragileNode: mixed outcomes, urgent (≥ 0.80) until the flake rate is decided; then resolved as flaky(rate, interval).
      if (n.verdict === "flaky" && fr && !fr.decided) {
        const need = trialsToDecide(n.fails as number, trials, precision) - trials;
        const draft = rerun(n, need, "flake rate undecided");
        add({
          key: `fragile:${id}`, target_kind: "FragileNode", base_micros: Math.max(BASE_MICROS.FragileNode, MICROS - ((n.belief_micros as number | null) ?? 0)),
          refs: [id], plan_why: draft ? `${need} more trials pin the flake rate to ${precision / 10_000}%` : "no commit known for its tree", draft,
        });
        continue;
      }
      if ((n.env_fingerprints as string[]).length > 1) {
        const draft = rerun(n, minTrials, "comparability drift");
        add({ key: `drift:${id}`, target_kind: "ComparabilityDrift", base_micros: BASE_MICROS.ComparabilityDrift, refs: [id], plan_why: draft ? "rerun in one environment" : "no commit known for its tree", draft });
        continue;
      }
      // CalibrationCaveat: fewer than min_trials counted trials.
      if (n.verdict === "unknown" && trials < minTrials) {
        const mods: Modifier[] = [];
        const s = step(n);
        const atBase = s !== null && n.patch_sha256 !== null ? baseByStep.get(s) : undefined;
        if (atBase && atBase.verdict === "passing" && (n.fails as number) > 0) mods.push({ delta_micros: 100_000, name: "regression_candidate" });
        const draft = rerun(n, minTrials - trials, "calibration caveat");
        add({
          key: `caveat:${id}`, target_kind: "CalibrationCaveat", base_micros: BASE_MICROS.CalibrationCaveat, modifiers: mods, refs: atBase ? [id, atBase.claim_id as string] : [id],
          plan_why: draft ? `${minTrials - trials} more trials reach min_trials` : "no commit known for its tree", draft,
        });
      }
      continue;
    }
    if (n.claim_kind === "patch_effect" || n.claim_kind === "fixes") continue;
    // Derived claims: below the threshold → fragile (minimal perturbation); verified on one support → refutation gap.
    if (n.belief_micros !== null && n.verdict !== "verified" && n.verdict !== "contradicted") {
      add({
        key: `fragile:${id}`, target_kind: "FragileNode", base_micros: MICROS - (n.belief_micros as number), refs: [id], plan_why: "smallest support set that flips the verdict",
        draft: { plan_kind: "OracleMinimalPerturbation", params: { target_node_id: id, max_removed_nodes: cfg.max_removed_nodes }, max_runs: 0, description: `minimal perturbation of ${id}`, why: "below threshold" },
      });
    } else if (n.verdict === "verified" && (n.support_members as number) === 1) {
      add({
        key: `refutation_gap:${id}`, target_kind: "RefutationGap", base_micros: BASE_MICROS.RefutationGap, refs: [id], plan_why: "verified on a single support",
        draft: { plan_kind: "OracleCausalRefuter", params: { target_node_id: id, max_removed_nodes: cfg.max_removed_nodes }, max_runs: 0, description: `causal refuter of ${id}`, why: "one support" },
      });
    }
  }

  // ThinExport: a current degradation marker (ScopeStale for a scope never imported).
  for (const d of o.degradations) {
    const m = d.marker as string;
    const detail = d.detail as Record<string, unknown> | null;
    if (m === "no_imports") continue;
    let draft: PlanDraft | null = null;
    let why = "needs a human or forge-export, not a verification";
    if (m.startsWith("missing_log:") && detail && typeof detail.step === "string" && detail.tree && detail.head_sha) {
      why = "rerun the step once at the run's tree to record a receipt again";
      draft = {
        plan_kind: "CheckRerun",
        params: {
          step: detail.step, head_sha: detail.head_sha, tree: detail.tree, patch_sha256: detail.patch_sha256 ?? null, pr: detail.pr ?? null, repetitions: 1,
          precision_micros: precision, why: "missing log",
        },
        max_runs: 1, description: `rerun ${detail.step} once: run ${String(detail.run_id).slice(0, 8)} lost its log`, why: "missing log",
      };
    } else {
      // A kernel marker naming claims of the graph (a dangling or duplicate record, a cycle, missing semantics):
      // check that the fold stays consistent around them (incremental update = full recomputation).
      const named = (d.refs as string[]).filter((r) => nodeById.has(r)).sort(cmp);
      if (named.length > 0) {
        why = "the marker names claims of the graph: delta parity over them";
        draft = {
          plan_kind: "OracleDeltaParity", params: { changed_node_ids: named, max_iterations: cfg.oracle_max_iterations }, max_runs: 0,
          description: `delta parity over ${named.length} claim(s) named by ${m}`, why: "kernel marker",
        };
      }
    }
    add({ key: `thin_export:${m}`, target_kind: "ThinExport", base_micros: BASE_MICROS.ThinExport, modifiers: [{ delta_micros: 50_000, name: "thin_export_active" }], refs: d.refs as string[], plan_why: why, draft });
  }

  // UnverifiedClaimVersion: an issue closed as fixed with no evidence that a patch fixed it; a claim with no verification.
  const issueByClaim = new Map(o.issues.map((i) => [`issue:${i.id as string}`, i]));
  for (const u of o.unverified) {
    const cid = u.claim_id as string;
    if (cid.startsWith("issue:")) {
      const issue = issueByClaim.get(cid);
      const closing = ((issue?.closing_prs as Array<{ id: string }> | undefined) ?? []).map((p) => prById.get(p.id)).filter((p): p is Line => p !== undefined);
      const merged = closing.find((p) => p.state === "merged") ?? closing[0];
      const why = merged ? `PR #${merged.number as number} closes it: FAIL_TO_PASS and PASS_TO_PASS on its patch` : "closed with no PR, merge or check to verify it by";
      add({
        key: `unverified:${cid}`, target_kind: "UnverifiedClaimVersion", base_micros: BASE_MICROS.UnverifiedClaimVersion,
        refs: [cid, ...(merged ? [`pr:${merged.id as string}`] : [])], plan_why: why, draft: merged ? paired(merged, why, baseSteps) : null,
      });
    } else if (u.why === "no_belief") {
      add({ key: `unverified:${cid}`, target_kind: "UnverifiedClaimVersion", base_micros: BASE_MICROS.UnverifiedClaimVersion, refs: [cid], plan_why: "no support and no trial: nothing to verify it with", draft: null });
    }
  }

  // SupersessionVerification: an open PR whose patch was replaced and has no evidence at its new patch yet.
  for (const p of o.prs) {
    const prev = p.previous_patch_sha256 as string[];
    if (p.state !== "open" || prev.length === 0 || (p.checks as string[]).length > 0) continue;
    const why = "its new patch has no evidence: run it against the base";
    add({
      key: `supersession:${p.patch_sha256 as string}:${prev[prev.length - 1]!}`, target_kind: "SupersessionVerification", base_micros: BASE_MICROS.SupersessionVerification,
      refs: [`pr:${p.id as string}`], plan_why: why, draft: paired(p, why, baseSteps),
    });
  }

  // ScopeStale.
  const health = h.health as Record<string, unknown>;
  const last = health.last_import_at as string | null;
  const scope = h.scope as string;
  if (last === null) add({ key: `stale:${scope}`, target_kind: "ScopeStale", base_micros: 400_000, refs: [], plan_why: "never imported: export evidence first", draft: null });
  else if (now - Date.parse(last) / 1000 > cfg.stale_after_s) add({ key: `stale:${scope}`, target_kind: "ScopeStale", base_micros: BASE_MICROS.ScopeStale, refs: [], plan_why: `last import ${last}`, draft: null });

  // History: attempts, decay, exhaustion.
  const byKey = new Map<string, HistoryEntry[]>();
  for (const e of history) {
    const hs = byKey.get(e.target_key);
    if (hs) hs.push(e);
    else byKey.set(e.target_key, [e]);
  }
  for (const t of out) {
    const hs = byKey.get(t.key) ?? [];
    t.history = hs;
    t.attempts = hs.length;
    let u = t.base_micros;
    for (const m of t.modifiers) u += m.delta_micros ?? 0;
    u = clamp(u);
    t.score_micros = u;
    const factor = Math.floor(MICROS / 2 ** t.attempts);
    t.modifiers.push({ factor_micros: factor, name: "retry_decay" }); // keys in sorted order (see targetLine)
    t.urgency_micros = clamp(Math.floor((u * factor) / MICROS));
    if (t.attempts >= cfg.max_retries_per_target) {
      t.exhausted = true;
      t.exhausted_why = "max_retries";
    } else if (hs.length >= 2 && hs[hs.length - 1]!.outcome_signature === hs[hs.length - 2]!.outcome_signature) {
      t.exhausted = true;
      t.exhausted_why = "repeated_outcome";
    }
  }
  const prio = (k: TargetKind): number => TARGET_KINDS.indexOf(k);
  return out.sort((a, b) => b.urgency_micros - a.urgency_micros || prio(a.target_kind) - prio(b.target_kind) || cmp(a.key, b.key));
}

/** The most repetitions a rerun may ask for, shrinking with the check's duration (Datadog EFD's tiers, doubled for a decision). */
export function maxRepetitions(durationMs: number | null): number {
  const d = durationMs ?? 0;
  return d <= 5_000 ? 40 : d <= 10_000 ? 20 : d <= 30_000 ? 10 : d <= 300_000 ? 3 : 1;
}

function clamp(u: number): number {
  return Math.max(0, Math.min(MICROS, u));
}
