/**
 * decide(): the one plan (or the one halt) for a ranked target list (seed
 * §9): filter exhausted targets, take the highest above the halt
 * threshold that has an executable plan (a kernel oracle only when no plan
 * that runs checks is left: it adds no trial); an advisory plan only with
 * `allow_advisory_only`, and visibly so. No randomness: the plan id is
 * the hash of the plan's canonical JSON.
 */
import { canonicalJson } from "@forge/kernel";
import { sha256Hex } from "@forge/evidence";
import {
  type HaltLine,
  type Observation,
  PLAN_SCHEMA,
  type PlanHaltReason,
  type PlanLine,
  type TargetLine,
} from "@forge/contract";
import type { PlanConfig } from "./config.js";
import type { HistoryEntry } from "./history.js";
import { extractTargets, type Target } from "./targets.js";

/** A line as written, of no kind the contract types (forge-plan explain's). */
export type Line = Record<string, unknown>;

/** The result of planning: the ranked targets and exactly one plan or halt line. */
export interface Planned {
  targets: Target[];
  /** The plan line, or the halt line. */
  decision: PlanLine | HaltLine;
  /** The chosen target, or null on a halt. */
  chosen: Target | null;
}

/**
 * Plan.
 * @param now epoch seconds
 * @example plan(readObservation(text), [], DEFAULT_PLAN_CONFIG, Date.now() / 1000).decision.kind // "plan" | "halt"
 */
export function plan(o: Observation, history: readonly HistoryEntry[], cfg: PlanConfig, now: number): Planned {
  const targets = extractTargets(o, history, cfg, now);
  const scope = String(o.header.scope ?? "default");
  const above = targets.filter((t) => t.urgency_micros >= cfg.halt_threshold_micros);
  const live = above.filter((t) => !t.exhausted);
  const executable = live.filter((t) => t.draft !== null);
  // An oracle adds no trial: it waits while a target whose plan runs checks is live (spec/loop.md §8).
  const first = executable[0];
  const trial = executable.find((t) => !waits(t));
  const chosen = trial ?? first ?? (cfg.allow_advisory_only ? live[0] : undefined);
  if (chosen) {
    const note =
      first && chosen !== first
        ? `; ${first.key} (${first.plan_kind}, urgency ${first.urgency_micros / 10_000}%) waits: an oracle adds no ` +
          "trial while a check has too few"
        : "";
    return { targets, decision: planLine(chosen, scope, note), chosen };
  }
  // A hand-written header may lack counts and markers.
  const counts = o.header.counts as Partial<Observation["header"]["counts"]> | undefined;
  const markers = o.header.markers ?? [];
  let reason: PlanHaltReason;
  let detail: string;
  if (
    (counts?.claims ?? 0) === 0 &&
    markers.some(
      (m) => m === "no_imports" || m.startsWith("missing_kernel_payload:") || m.startsWith("malformed_kernel_payload:")
    )
  ) {
    reason = "missing_kernel_payload";
    detail = "the scope has no usable kernel payload: nothing to compile, nothing invented";
  } else if (live.length > 0 && live[0]!.target_kind === "ThinExport") {
    reason = "thin_export_blocked_execution";
    detail =
      `${live.length} target(s) above the threshold, none executable; the first is ${live[0]!.key} ` +
      `(${live[0]!.plan_why})`;
  } else if (live.length > 0) {
    reason = "nothing_worth_investigating";
    detail =
      `${live.length} target(s) above the threshold have no executable plan (advisory plans need ` +
      `--allow-advisory-only)`;
  } else if (targets.some((t) => t.exhausted && t.score_micros >= cfg.halt_threshold_micros)) {
    const n = targets.filter((t) => t.exhausted && t.score_micros >= cfg.halt_threshold_micros).length;
    reason = "all_targets_exhausted";
    detail = `${n} target(s) worth investigating, all exhausted (retries or repeated outcomes): unresolved, not fixed`;
  } else {
    reason = "nothing_worth_investigating";
    detail = targets.length === 0 ? "no target" : `no target reaches ${cfg.halt_threshold_micros / 10_000}%`;
  }
  const halt: HaltLine = { kind: "halt", reason, detail };
  return { targets, decision: halt, chosen: null };
}

/**
 * Whether a target's plan waits for the targets whose plans run checks: a
 * kernel oracle over the graph as it is (minimal perturbation, causal
 * refuter, exact bound, temporal replay) adds no trial and cannot change a
 * check's verdict; delta parity (a thin export: the store may disagree with
 * itself, and every verdict with it) does not wait.
 */
function waits(t: Target): boolean {
  const k = t.draft?.plan_kind ?? "";
  return k.startsWith("Oracle") && k !== "OracleDeltaParity";
}

/** The plan line of a target: its draft, or (advisory only) a visibly advisory plan. */
function planLine(t: Target, scope: string, note = ""): PlanLine {
  const d = t.draft;
  const body = {
    kind: "plan",
    schema_version: PLAN_SCHEMA,
    plan_kind: d ? d.plan_kind : "Advisory",
    target_key: t.key,
    target_kind: t.target_kind,
    scope,
    params: d ? d.params : { text: `${t.target_kind} ${t.key}: ${t.plan_why}` },
    budget: { max_runs: d ? d.max_runs : 0, deadline_ms: null },
    advisory: d === null,
    description: d ? d.description : `advisory only: ${t.plan_why}`,
    rationale: `${t.target_kind} at ${t.urgency_micros / 10_000}%: ${t.plan_why}${note}`,
    check_hints: [],
  };
  // The draft's kind and params go together (PlanDraft); the advisory one is Advisory's.
  return { ...body, plan_id: sha256Hex(canonicalJson(body)).slice(0, 16) } as PlanLine;
}

/** A target as its `target` line. */
export function targetLine(t: Target, rank: number): TargetLine {
  // Keys in sorted order: canonicalLine writes such a line without a sorted copy.
  return {
    attempts: t.attempts,
    base_micros: t.base_micros,
    exhausted: t.exhausted,
    exhausted_why: t.exhausted_why,
    key: t.key,
    kind: "target",
    modifiers: t.modifiers,
    plan_kind: t.plan_kind,
    rank,
    refs: t.refs,
    target_kind: t.target_kind,
    urgency_micros: t.urgency_micros,
  };
}
