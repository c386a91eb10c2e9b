/**
 * Oracle plans: the kernel's six oracles (never a local copy) over the
 * scope's fold of imports, read through the evidence package's public
 * queries. The answer is kept whole in the act result, so the next
 * observation sees that a refutation was tried and what it found. One
 * function per oracle kind (ORACLES): a new `Oracle…` plan kind is a
 * compile error here until it has one.
 */
import type { OraclePart, PlanKind, PlanOf } from "@forge/contract";
import { readImportLog, readScope } from "@forge/evidence";
import {
  causalRefuter,
  compile,
  conservative,
  deltaParity,
  exactBounded,
  minimalPerturbation,
  schedule,
  temporalReplay,
  type KernelConfig,
} from "@forge/kernel";
import type { ActContext } from "./context.js";

/** The oracle plan kinds. */
export type OracleKind = Extract<PlanKind, `Oracle${string}`>;

/** An oracle plan's run: the kernel's answer, its signature, and whether parity broke. */
export type Oracle<K extends OracleKind> = (
  ctx: ActContext,
  plan: PlanOf<K>,
  config?: Partial<KernelConfig>
) => OraclePart;

/** The default number of imports delta parity checks. */
export const DEFAULT_PARITY_ITERATIONS = 4;

/** One function per oracle kind. */
export const ORACLES: { [K in OracleKind]: Oracle<K> } = {
  OracleExactBounded: (ctx, plan, config = {}) => {
    const f = fold(ctx, plan.scope);
    const c = compile(f.state.kernel, config);
    const a = exactBounded(c, plan.params.target_node_id, { scheduled: schedule(c) });
    return done(a, `exact_bounded:${a.refused ?? a.exact_micros}`, f.unreadable);
  },
  OracleConservative: (ctx, plan, config = {}) => {
    const f = fold(ctx, plan.scope);
    const c = compile(f.state.kernel, config);
    const a = conservative(c, { scheduled: schedule(c) });
    return done(a, `conservative:${a.refused ?? a.nodes.length}`, f.unreadable);
  },
  OracleTemporalReplay: (ctx, plan, config = {}) => {
    const f = fold(ctx, plan.scope);
    const a = temporalReplay(f.state.kernel, plan.params.cutoff_recorded_at, config);
    return done(a, `temporal_replay:${a.refused ?? a.beliefs.length}`, f.unreadable);
  },
  OracleCausalRefuter: (ctx, plan, config = {}) => {
    const f = fold(ctx, plan.scope);
    const c = compile(f.state.kernel, config);
    const max = plan.params.max_removed_nodes ?? c.config.max_supports;
    const a = causalRefuter(c, plan.params.target_node_id, { scheduled: schedule(c), max_supports: max });
    return done(a, `causal_refuter:${a.refused ?? a.flips.length}`, f.unreadable);
  },
  OracleMinimalPerturbation: (ctx, plan, config = {}) => {
    const f = fold(ctx, plan.scope);
    const c = compile(f.state.kernel, config);
    const max = plan.params.max_removed_nodes ?? c.config.max_removed_nodes;
    const a = minimalPerturbation(c, plan.params.target_node_id, { scheduled: schedule(c), max_removed_nodes: max });
    const sig = `minimal_perturbation:${a.refused ?? (a.found ? `found:${a.removed.length}` : "none")}`;
    return done(a, sig, f.unreadable);
  },
  OracleDeltaParity: (ctx, plan, config = {}) => {
    const f = fold(ctx, plan.scope);
    const p = parity(ctx, plan, f.records, config);
    return f.unreadable.length ? { ...p, oracle: { ...p.oracle, unreadable: f.unreadable } } : p;
  },
};

type ImportLog = ReturnType<typeof readImportLog>;

/**
 * The store's import log and the scope's fold of it. The degradation law: an import file that is not a record (or
 * was edited) is left out and named in `unreadable` (`import:<id>`), which the oracle's answer carries.
 */
function fold(
  ctx: ActContext,
  scope: string
): { records: ImportLog; state: ReturnType<typeof readScope>; unreadable: string[] } {
  const unreadable: string[] = [];
  const records = readImportLog(ctx.store, unreadable);
  return { records, state: readScope(ctx.store, scope, { records, episodes: false }), unreadable };
}

/**
 * Delta parity over the scope's last `max_iterations` imports: each one,
 * applied incrementally to the fold before it, must give the beliefs a full
 * recomputation gives. `changed_node_ids` are reported beside the answer.
 */
function parity(
  ctx: ActContext,
  plan: PlanOf<"OracleDeltaParity">,
  records: ImportLog,
  config: Partial<KernelConfig>
): OraclePart {
  const n = plan.params.max_iterations ?? DEFAULT_PARITY_ITERATIONS;
  const mine = records.filter((r) => r.batch.scope === plan.scope);
  const checks: Array<Record<string, unknown>> = [];
  let ok = true;
  for (let i = Math.max(0, mine.length - n); i < mine.length; i++) {
    const before = readScope(ctx.store, plan.scope, { records: mine.slice(0, i), episodes: false });
    const delta = readScope(ctx.store, plan.scope, { records: [mine[i]!], episodes: false });
    const a = deltaParity(before.kernel, delta.kernel, config);
    if (a.parity === false) ok = false;
    checks.push({
      batch_id: mine[i]!.batch.batch_id,
      parity: a.parity,
      refused: a.refused,
      mismatches: a.mismatches.slice(0, 20),
    });
  }
  const oracle = {
    oracle: "delta_parity",
    parity: ok,
    iterations: checks.length,
    checks,
    changed_node_ids: plan.params.changed_node_ids,
    bound_reached: false,
  };
  return { oracle, outcome_signature: `delta_parity:${ok}`, parity_violation: !ok };
}

function done(a: object, sig: string, unreadable: readonly string[]): OraclePart {
  const oracle = unreadable.length ? { ...a, unreadable } : a;
  return { oracle: oracle as Record<string, unknown>, outcome_signature: sig, parity_violation: false };
}
