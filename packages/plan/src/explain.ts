/** `forge-plan explain <key>`: base, modifiers, history, final score, and why this plan kind. */
import { canonicalJson } from "@forge/kernel";
import { ForgeError } from "@forge/core";
import type { PlanConfig } from "./config.js";
import { type Line, type Planned, targetLine } from "./decide.js";
import type { Target } from "./targets.js";

const pct = (m: number): string => `${(m / 10_000).toFixed(1)}%`;

/**
 * The explanation of one target, as a record.
 * @throws ForgeError (exit 1) when the observation has no such target
 */
export function explainRecord(p: Planned, key: string, cfg: PlanConfig): Line {
  const i = p.targets.findIndex((t) => t.key === key);
  if (i < 0)
    throw new ForgeError(
      `no target '${key.slice(0, 120)}' in this observation (forge-plan lists them)`,
      "E_NOT_FOUND",
      1
    );
  const t = p.targets[i]!;
  return {
    ...targetLine(t, i + 1),
    kind: "explain",
    of: p.targets.length,
    threshold_micros: cfg.halt_threshold_micros,
    plan_why: t.plan_why,
    chosen: p.chosen?.key === t.key,
    history: t.history,
    plan: t.draft ? { plan_kind: t.draft.plan_kind, params: t.draft.params, max_runs: t.draft.max_runs } : null,
  };
}

/** The explanation as text. */
export function explainText(r: Line): string {
  const t = r as unknown as Target & {
    rank: number;
    of: number;
    threshold_micros: number;
    chosen: boolean;
    plan: { plan_kind: string; params: unknown } | null;
  };
  const out = [
    `${t.key}`,
    `  kind ${t.target_kind}, rank ${t.rank} of ${t.of}${t.chosen ? " (chosen)" : ""}`,
    `  base ${pct(t.base_micros)}`,
  ];
  for (const m of t.modifiers) {
    if (m.factor_micros !== undefined) out.push(`  ${m.name} × ${pct(m.factor_micros)} (0.5^${t.attempts})`);
    else out.push(`  ${m.name} ${m.delta_micros! >= 0 ? "+" : ""}${pct(m.delta_micros!)}`);
  }
  out.push(`  urgency ${pct(t.urgency_micros)} (threshold ${pct(t.threshold_micros)})`);
  out.push(`  history: ${t.history.length} attempt(s)`);
  for (const h of t.history) out.push(`    ${h.recorded_at} ${h.plan_kind} ${h.plan_id} → ${h.outcome_signature}`);
  out.push(`  exhausted: ${t.exhausted ? `yes (${t.exhausted_why}); unresolved` : "no"}`);
  out.push(`  plan: ${t.plan ? `${t.plan.plan_kind} ${canonicalJson(t.plan.params)}` : "none executable"}`);
  out.push(`  why: ${(r.plan_why as string) ?? ""}`);
  if (t.refs.length) out.push(`  refs: ${t.refs.join(" ")}`);
  return out.join("\n") + "\n";
}
