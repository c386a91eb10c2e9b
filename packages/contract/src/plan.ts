/**
 * The `plan` line (spec/loop.md §2): one type per plan kind with its typed
 * `params`, and the parser forge-act reads a line with. It checks field by
 * field, the kind's parameters included, so a bad line is one error naming
 * the field, before anything runs. A parameter a kind may leave out is null
 * here (the executor's default applies); free text that forge-act does not
 * read (`why`, `base_ref`) is kept only when it is a string.
 */
import { ForgeError } from "@forge/core";
import { type Rec, SHA1_OR_256, SHA256 } from "./fields.js";
import { PLAN_KINDS, type PlanKind } from "./plan_kind.js";
import type { PLAN_SCHEMA } from "./schema.js";

/** A plan line that breaks the contract (exit 1 for the batch, the line named by the caller). */
export class PlanError extends ForgeError {
  constructor(field: string, why: string) {
    super(`field '${field}': ${why}`, "E_INVALID_PLAN", 1);
    this.name = "PlanError";
  }
}

/** A pull request as a plan names it. */
export interface PrRef {
  id: string;
  number: number | null;
}

/** CheckRerun: one check, rerun at a node's commit (plus the PR's patch when there is one). */
export interface CheckRerunParams {
  step: string;
  /**
   * The test of `step` to rerun (a check `<step> › <test>`, from its reports); absent: the whole step.
   * forge-act hands the step `FORGE_TESTS` and `FORGE_TESTS_PATTERN` for it.
   */
  test?: string;
  /** The commit to run. */
  head_sha: string;
  /** The code tree the evidence is keyed by. */
  tree: string | null;
  /** The PR's patch on head_sha, or null. */
  patch_sha256: string | null;
  /**
   * The PR: checked ({id, number}) when there is a patch; without one it
   * only names the candidate, read as forge-act always read it (an object
   * with an id, whatever the id's type).
   */
  pr: PrRef | null;
  /** The most trials (null: forge-act's default). */
  repetitions: number | null;
  /** The widest flake-rate interval that decides (null: forge-act's default). */
  precision_micros: number | null;
  /** Why the planner chose it (free text). */
  why?: string;
}

/** PairedPatch: the PR's base and that plus the PR's patch, side by side. */
export interface PairedPatchParams {
  pr: PrRef;
  patch_sha256: string;
  base_ref?: string;
  base_sha: string;
  /** The steps compared. */
  checks: string[];
  /** Repetitions per side (null: forge-act's default). */
  repetitions: number | null;
  /** The issues the PR closes. */
  closes: string[];
  /** Those `checks` flaky at the base (no PASS_TO_PASS checks). */
  flaky_at_base: string[];
}

/** An oracle asked about one node. */
export interface TargetNodeParams {
  target_node_id: string;
}

/** An oracle that removes supports of one node, at most `max_removed_nodes` (null: the kernel's default). */
export interface RemovalParams extends TargetNodeParams {
  max_removed_nodes: number | null;
}

/** Delta parity over the scope's last `max_iterations` imports (null: forge-act's default). */
export interface DeltaParityParams {
  changed_node_ids: string[];
  max_iterations: number | null;
}

/** Temporal replay up to a cutoff (null: none; anything but a string is none). */
export interface TemporalReplayParams {
  cutoff_recorded_at: string | null;
}

/** An advisory plan's text (null: its description; anything but a string is none). */
export interface AdvisoryParams {
  text: string | null;
}

/** The params of each plan kind: a kind missing here is a compile error in `Plan` and in the parser. */
export interface PlanParams {
  CheckRerun: CheckRerunParams;
  PairedPatch: PairedPatchParams;
  OracleExactBounded: TargetNodeParams;
  OracleConservative: Record<string, never>;
  OracleDeltaParity: DeltaParityParams;
  OracleTemporalReplay: TemporalReplayParams;
  OracleCausalRefuter: RemovalParams;
  OracleMinimalPerturbation: RemovalParams;
  Advisory: AdvisoryParams;
}

/** The limits a plan gives its act. */
export interface PlanBudget {
  max_runs: number | null;
  /** An absolute epoch-ms deadline (the pilot's), or null. */
  deadline_ms: number | null;
}

/** The fields every plan has. */
export interface PlanBase {
  plan_id: string;
  target_key: string;
  target_kind: string;
  scope: string;
  budget: PlanBudget;
  advisory: boolean;
  description: string;
  rationale: string;
  check_hints: string[];
}

/** The plan of one kind. */
export type PlanOf<K extends PlanKind> = PlanBase & { plan_kind: K; params: PlanParams[K] };

/** A plan: a union discriminated by `plan_kind`. */
export type Plan = { [K in PlanKind]: PlanOf<K> }[PlanKind];

/** A plan as its line carries it (what forge-plan writes). */
export type PlanLine = Plan & { kind: "plan"; schema_version: typeof PLAN_SCHEMA };

export type CheckRerunPlan = PlanOf<"CheckRerun">;
export type PairedPatchPlan = PlanOf<"PairedPatch">;
export type AdvisoryPlan = PlanOf<"Advisory">;

/**
 * Check a `kind: "plan"` line: the common fields, then the kind's params.
 * @throws PlanError naming the field
 * @example parsePlan({plan_id: "p", plan_kind: "OracleConservative", target_key: "t"}).scope // "default"
 */
export function parsePlan(line: unknown): Plan {
  if (line === null || typeof line !== "object" || Array.isArray(line)) {
    throw new PlanError("kind", "expected a plan object");
  }
  const v = line as Rec;
  const s = (k: string): string => {
    if (typeof v[k] !== "string" || v[k] === "") throw new PlanError(k, "expected a non-empty string");
    return v[k] as string;
  };
  const kind = s("plan_kind");
  if (!(PLAN_KINDS as readonly string[]).includes(kind)) {
    throw new PlanError("plan_kind", `expected ${PLAN_KINDS.join("|")}`);
  }
  const params = v.params ?? {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new PlanError("params", "expected an object");
  }
  const b = (v.budget ?? {}) as Rec;
  const optInt = (o: Rec, k: string, f: string): number | null => {
    if (o[k] === undefined || o[k] === null) return null;
    if (typeof o[k] !== "number" || !Number.isSafeInteger(o[k]) || (o[k] as number) < 0) {
      throw new PlanError(f, "expected an integer ≥ 0 or null");
    }
    return o[k] as number;
  };
  const hints = v.check_hints ?? [];
  if (!Array.isArray(hints) || !hints.every((h) => typeof h === "string")) {
    throw new PlanError("check_hints", "expected a list of strings");
  }
  const planId = s("plan_id");
  const targetKey = s("target_key");
  const maxRuns = optInt(b, "max_runs", "budget.max_runs");
  const budget = { max_runs: maxRuns, deadline_ms: optInt(b, "deadline_ms", "budget.deadline_ms") };
  const base: PlanBase = {
    plan_id: planId,
    target_key: targetKey,
    target_kind: typeof v.target_kind === "string" ? v.target_kind : "",
    scope: typeof v.scope === "string" && v.scope !== "" ? v.scope : "default",
    budget,
    advisory: v.advisory === true || kind === "Advisory",
    description: typeof v.description === "string" ? v.description : "",
    rationale: typeof v.rationale === "string" ? v.rationale : "",
    check_hints: hints as string[],
  };
  const k = kind as PlanKind;
  // PARAMS[k] gives the params of k: the pair is one member of the union (the compiler cannot tell).
  return { ...base, plan_kind: k, params: PARAMS[k](params as Rec) } as Plan;
}

/**
 * Each kind's parameters, checked in the order forge-act has always
 * checked them (the first bad one is the error).
 */
const PARAMS: { [K in PlanKind]: (p: Rec) => PlanParams[K] } = {
  CheckRerun: (p) => {
    const step = param(p, "step");
    const head_sha = param(p, "head_sha", SHA1_OR_256, "a full commit id");
    const patch_sha256 = optParam(p, "patch_sha256", SHA256, "64 hex or null");
    const precision_micros = intParam(p, "precision_micros");
    const repetitions = intParam(p, "repetitions");
    const pr = patch_sha256 !== null ? prParam(p, true) : namedPr(p.pr);
    const tree = optParam(p, "tree");
    const test = p.test === undefined || p.test === null ? {} : { test: param(p, "test") };
    return { step, ...test, head_sha, tree, patch_sha256, pr, repetitions, precision_micros, ...text(p, "why") };
  },
  PairedPatch: (p) => {
    const pr = prParam(p, true)!;
    const patch_sha256 = param(p, "patch_sha256", SHA256, "64 hex");
    const base_sha = param(p, "base_sha", SHA1_OR_256, "a full commit id");
    const checks = listParam(p, "checks");
    const closes = listParam(p, "closes");
    const flaky_at_base = listParam(p, "flaky_at_base");
    const repetitions = intParam(p, "repetitions");
    return { pr, patch_sha256, ...text(p, "base_ref"), base_sha, checks, repetitions, closes, flaky_at_base };
  },
  OracleExactBounded: (p) => ({ target_node_id: param(p, "target_node_id") }),
  OracleConservative: () => ({}),
  OracleDeltaParity: (p) => {
    const max_iterations = intParam(p, "max_iterations");
    return { changed_node_ids: listParam(p, "changed_node_ids"), max_iterations };
  },
  OracleTemporalReplay: (p) => {
    const cutoff = p.cutoff_recorded_at;
    return { cutoff_recorded_at: typeof cutoff === "string" ? cutoff : null };
  },
  OracleCausalRefuter: (p) => removal(p),
  OracleMinimalPerturbation: (p) => removal(p),
  Advisory: (p) => ({ text: typeof p.text === "string" ? p.text : null }),
};

function removal(p: Rec): RemovalParams {
  const target_node_id = param(p, "target_node_id");
  return { target_node_id, max_removed_nodes: intParam(p, "max_removed_nodes") };
}

/** A string parameter. @throws PlanError */
function param(p: Rec, k: string, re?: RegExp, what = "a non-empty string"): string {
  const v = p[k];
  if (typeof v !== "string" || v === "" || (re && !re.test(v))) {
    throw new PlanError(`params.${k}`, `expected ${what}`);
  }
  return v;
}

/** An optional string parameter (null when absent). @throws PlanError */
function optParam(p: Rec, k: string, re?: RegExp, what = "a string or null"): string | null {
  const v = p[k];
  if (v === undefined || v === null) return null;
  return param(p, k, re, what);
}

/** An integer parameter ≥ `min`, or null when absent (the executor's default). @throws PlanError */
function intParam(p: Rec, k: string, min = 1): number | null {
  const v = p[k];
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) {
    throw new PlanError(`params.${k}`, `expected an integer ≥ ${min}`);
  }
  return v;
}

/** A list-of-strings parameter ([] when absent). @throws PlanError */
function listParam(p: Rec, k: string): string[] {
  const v = p[k] ?? [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
    throw new PlanError(`params.${k}`, "expected a list of strings");
  }
  return v as string[];
}

/** The `pr` parameter ({id, number}) or null. @throws PlanError */
function prParam(p: Rec, required: boolean): PrRef | null {
  const v = p.pr;
  if (v === undefined || v === null) {
    if (required) throw new PlanError("params.pr", "expected {id, number}");
    return null;
  }
  const o = v as Rec;
  if (typeof o !== "object" || typeof o.id !== "string" || o.id === "") {
    throw new PlanError("params.pr", "expected {id, number}");
  }
  return { id: o.id, number: typeof o.number === "number" ? o.number : null };
}

/** A PR that only names a candidate: anything with an id, never refused. */
function namedPr(v: unknown): PrRef | null {
  const o = v as Rec | null | undefined;
  if (!o?.id) return null;
  return { id: String(o.id), number: typeof o.number === "number" ? o.number : null };
}

/** A free-text parameter, kept when it is a string. */
function text<K extends string>(p: Rec, k: K): { [P in K]?: string } {
  return typeof p[k] === "string" ? ({ [k]: p[k] } as { [P in K]?: string }) : {};
}
