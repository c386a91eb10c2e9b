/**
 * The report (`forge-pilot-report/v1`, spec/loop.md §8) and the human
 * renderings of the report, the observation, the plan and the ranked targets.
 * The JSON's key order is the contract: `newReport` fixes it.
 */
import { type HaltReason, REPORT_SCHEMA } from "@forge/contract";
import type { Decision, ObservationHead, ObservationLine, Target } from "./_lines.js";
import { keyWithLabel, targetLabel } from "./labels.js";
import type { Recovered } from "./recover.js";

/** The program's name, the prefix of its stderr lines. */
export const PROG = "forge-pilot";

/** What the loop did and why it stopped. */
export interface Report {
  kind: "report";
  schema_version: typeof REPORT_SCHEMA;
  iterations: number;
  actions_executed: number;
  exports: number;
  imports: number;
  halt_reason: HaltReason | null;
  halt_detail: string;
  targets_investigated: string[];
  degraded_iterations: number;
  elapsed_seconds: number;
  advisory_steps: number;
  deadline_overruns: Array<{ iteration: number; target_key: string | null; overrun_ms: number }>;
  refinements_discarded: Array<{ iteration: number; why: string }>;
  act_errors: Array<{ iteration: number; target_key: string; why: string }>;
  recovered: Recovered | null;
  findings: string[];
  config: Record<string, number | string | boolean | null>;
}

/** A report before the loop ran, its keys in the contract's order. */
export function newReport(config: Report["config"]): Report {
  return {
    kind: "report",
    schema_version: REPORT_SCHEMA,
    iterations: 0,
    actions_executed: 0,
    exports: 0,
    imports: 0,
    halt_reason: null,
    halt_detail: "",
    targets_investigated: [],
    degraded_iterations: 0,
    elapsed_seconds: 0,
    advisory_steps: 0,
    deadline_overruns: [],
    refinements_discarded: [],
    act_errors: [],
    recovered: null,
    findings: [],
    config,
  };
}

/** The report for people. */
export function formatReport(r: Report): string {
  const l = [
    r.halt_reason === "missing_kernel_payload"
      ? `${PROG}: nothing to work on yet (missing_kernel_payload): ${r.halt_detail}`
      : `${PROG}: halted: ${r.halt_reason}${r.halt_detail ? ` (${r.halt_detail})` : ""}`,
    `iterations ${r.iterations}, actions ${r.actions_executed} (advisory ${r.advisory_steps}), exports ${r.exports}, ` +
      `imports ${r.imports}, degraded ${r.degraded_iterations}, ${r.elapsed_seconds} s`,
  ];
  if (r.targets_investigated.length) l.push(`targets investigated: ${r.targets_investigated.length}`);
  for (const o of r.deadline_overruns) {
    l.push(`deadline overrun: ${o.overrun_ms} ms${o.target_key ? ` (${o.target_key})` : ""}`);
  }
  for (const d of r.refinements_discarded) l.push(`${d.why} (iteration ${d.iteration})`);
  for (const e of r.act_errors) l.push(`act error: ${e.target_key}: ${e.why}`);
  if (r.findings.length) l.push("findings:", ...r.findings.map((f) => `  ${f}`));
  return l.join("\n") + "\n";
}

/**
 * The ranked targets, each with what it is about (step, PR, issue), and
 * the plan or halt with why (`explain`).
 */
export function formatExplain(
  targets: readonly Target[],
  decision: Decision,
  obs: readonly ObservationLine[] = []
): string {
  const l = targets.map((t, i) => {
    const urgency = (t.urgency_micros / 1e6).toFixed(3);
    const exhausted = t.exhausted ? `, exhausted: ${t.exhausted_why ?? ""}` : "";
    const attempts = t.attempts ? `, ${t.attempts} attempts` : "";
    const about = targetLabel(t, obs);
    return (
      `${i + 1}. ${urgency} ${t.key}${about ? ` [${about}]` : ""} (${t.target_kind}) → ${t.plan_kind ?? "-"}` +
      `${exhausted}${attempts}`
    );
  });
  if (decision.kind === "plan") {
    const chosen = targets.find((t) => t.key === decision.target_key) ?? { key: decision.target_key };
    l.push(
      `plan: ${decision.plan_kind} on ${keyWithLabel(chosen, obs)}${decision.advisory ? " (advisory)" : ""}`,
      `  ${decision.description ?? ""}`,
      `  why: ${decision.rationale ?? ""}`
    );
  } else l.push(`halt: ${decision.reason}${decision.detail ? ` (${decision.detail})` : ""}`);
  return l.join("\n") + "\n";
}

/** The plan, or the halt, in one line (`plan`). */
export function formatPlan(decision: Decision): string {
  if (decision.kind === "halt") return `halt: ${decision.reason}\n`;
  return `${decision.plan_kind} ${decision.target_key}: ${decision.description ?? ""}\n`;
}

/**
 * The observation in one line: its scope and commit, how many lines of each
 * kind, its degradation markers (`observe`).
 */
export function formatObservation(obs: readonly ObservationLine[], scope: string): string {
  const h = (obs.find((o) => o.kind === "observation") ?? {}) as Partial<ObservationHead>;
  const kinds: Record<string, number> = {};
  for (const o of obs) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
  const counts = Object.entries(kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
  const markers = h.markers ?? [];
  const degraded = markers.length ? `; degraded: ${markers.join(" ")}` : "";
  return `scope ${h.scope ?? scope} at ${String(h.base_sha ?? "").slice(0, 12)}: ${counts}${degraded}\n`;
}
