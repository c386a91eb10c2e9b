/**
 * A plan line (spec/loop.md §2) as forge-act reads it: checked field by
 * field, so a bad line is one error naming the field, before anything runs.
 */
import { ForgeError } from "@forge/core";

/** The plan kinds forge-act executes. */
export const PLAN_KINDS = [
  "CheckRerun", "PairedPatch", "OracleExactBounded", "OracleConservative", "OracleDeltaParity", "OracleTemporalReplay", "OracleCausalRefuter",
  "OracleMinimalPerturbation", "Advisory",
] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

/** A plan. */
export interface Plan {
  plan_id: string;
  plan_kind: PlanKind;
  target_key: string;
  target_kind: string;
  scope: string;
  params: Record<string, unknown>;
  budget: { max_runs: number | null; deadline_ms: number | null };
  advisory: boolean;
  description: string;
  rationale: string;
  check_hints: string[];
}

/** A plan line that breaks the contract (exit 1 for the batch, the line named by the caller). */
export class PlanError extends ForgeError {
  constructor(field: string, why: string) {
    super(`field '${field}': ${why}`, "E_INVALID_PLAN", 1);
    this.name = "PlanError";
  }
}

/**
 * Check a `kind: "plan"` line.
 * @throws PlanError naming the field
 */
export function parsePlan(v: Record<string, unknown>): Plan {
  const s = (k: string): string => {
    if (typeof v[k] !== "string" || v[k] === "") throw new PlanError(k, "expected a non-empty string");
    return v[k] as string;
  };
  const kind = s("plan_kind");
  if (!(PLAN_KINDS as readonly string[]).includes(kind)) throw new PlanError("plan_kind", `expected ${PLAN_KINDS.join("|")}`);
  const params = v.params ?? {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw new PlanError("params", "expected an object");
  const b = (v.budget ?? {}) as Record<string, unknown>;
  const optInt = (o: Record<string, unknown>, k: string, f: string): number | null => {
    if (o[k] === undefined || o[k] === null) return null;
    if (typeof o[k] !== "number" || !Number.isSafeInteger(o[k]) || (o[k] as number) < 0) throw new PlanError(f, "expected an integer ≥ 0 or null");
    return o[k] as number;
  };
  const hints = v.check_hints ?? [];
  if (!Array.isArray(hints) || !hints.every((h) => typeof h === "string")) throw new PlanError("check_hints", "expected a list of strings");
  return {
    plan_id: s("plan_id"), plan_kind: kind as PlanKind, target_key: s("target_key"), target_kind: typeof v.target_kind === "string" ? v.target_kind : "",
    scope: typeof v.scope === "string" && v.scope !== "" ? v.scope : "default", params: params as Record<string, unknown>,
    budget: { max_runs: optInt(b, "max_runs", "budget.max_runs"), deadline_ms: optInt(b, "deadline_ms", "budget.deadline_ms") },
    advisory: v.advisory === true || kind === "Advisory", description: typeof v.description === "string" ? v.description : "",
    rationale: typeof v.rationale === "string" ? v.rationale : "", check_hints: hints as string[],
  };
}

/** A string parameter. @throws PlanError */
export function param(p: Plan, k: string, re?: RegExp, what = "a non-empty string"): string {
  const v = p.params[k];
  if (typeof v !== "string" || v === "" || (re && !re.test(v))) throw new PlanError(`params.${k}`, `expected ${what}`);
  return v;
}

/** An optional string parameter (null when absent). @throws PlanError */
export function optParam(p: Plan, k: string, re?: RegExp, what = "a string or null"): string | null {
  const v = p.params[k];
  if (v === undefined || v === null) return null;
  return param(p, k, re, what);
}

/** A positive integer parameter with a default. @throws PlanError */
export function intParam(p: Plan, k: string, dflt: number, min = 1): number {
  const v = p.params[k];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) throw new PlanError(`params.${k}`, `expected an integer ≥ ${min}`);
  return v;
}

/** A list-of-strings parameter. @throws PlanError */
export function listParam(p: Plan, k: string): string[] {
  const v = p.params[k] ?? [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw new PlanError(`params.${k}`, "expected a list of strings");
  return v as string[];
}

/** The `pr` parameter ({id, number}) or null. @throws PlanError */
export function prParam(p: Plan, required: boolean): { id: string; number: number | null } | null {
  const v = p.params.pr;
  if (v === undefined || v === null) {
    if (required) throw new PlanError("params.pr", "expected {id, number}");
    return null;
  }
  const o = v as Record<string, unknown>;
  if (typeof o !== "object" || typeof o.id !== "string" || o.id === "") throw new PlanError("params.pr", "expected {id, number}");
  return { id: o.id, number: typeof o.number === "number" ? o.number : null };
}

export const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
export const SHA256 = /^[0-9a-f]{64}$/;
