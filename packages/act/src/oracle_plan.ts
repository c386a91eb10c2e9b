/**
 * Oracle plans: the kernel's six oracles (never a local copy) over the
 * scope's fold of imports, read through the evidence package's public
 * queries. The answer is kept whole in the act result, so the next
 * observation sees that a refutation was tried and what it found.
 */
import { readImportLog, readScope } from "@forge/evidence";
import {
  causalRefuter, compile, conservative, deltaParity, exactBounded, minimalPerturbation, schedule, temporalReplay, type KernelConfig,
} from "@forge/kernel";
import type { ActContext } from "./context.js";
import { intParam, listParam, param, type Plan } from "./plan.js";

/** The outcome of an oracle plan. */
export interface OracleOutcome {
  oracle: Record<string, unknown>;
  outcome_signature: string;
  /** Delta parity failed: the store disagrees with itself. */
  parity_violation: boolean;
}

/**
 * Run an oracle plan.
 * @throws PlanError for a bad parameter
 */
export function runOracle(ctx: ActContext, plan: Plan, config: Partial<KernelConfig> = {}): OracleOutcome {
  const records = readImportLog(ctx.store);
  const state = readScope(ctx.store, plan.scope, { records, episodes: false });
  const compiled = () => compile(state.kernel, config);
  switch (plan.plan_kind) {
    case "OracleExactBounded": {
      const c = compiled();
      const a = exactBounded(c, param(plan, "target_node_id"), { scheduled: schedule(c) });
      return done(a, `exact_bounded:${a.refused ?? a.exact_micros}`);
    }
    case "OracleConservative": {
      const c = compiled();
      const a = conservative(c, { scheduled: schedule(c) });
      return done(a, `conservative:${a.refused ?? a.nodes.length}`);
    }
    case "OracleTemporalReplay": {
      const cutoff = plan.params.cutoff_recorded_at;
      const a = temporalReplay(state.kernel, typeof cutoff === "string" ? cutoff : null, config);
      return done(a, `temporal_replay:${a.refused ?? a.beliefs.length}`);
    }
    case "OracleCausalRefuter": {
      const c = compiled();
      const a = causalRefuter(c, param(plan, "target_node_id"), { scheduled: schedule(c), max_supports: intParam(plan, "max_removed_nodes", c.config.max_supports) });
      return done(a, `causal_refuter:${a.refused ?? a.flips.length}`);
    }
    case "OracleMinimalPerturbation": {
      const c = compiled();
      const a = minimalPerturbation(c, param(plan, "target_node_id"), { scheduled: schedule(c), max_removed_nodes: intParam(plan, "max_removed_nodes", c.config.max_removed_nodes) });
      return done(a, `minimal_perturbation:${a.refused ?? (a.found ? `found:${a.removed.length}` : "none")}`);
    }
    case "OracleDeltaParity":
      return parity(ctx, plan, records, config);
    default:
      throw new Error(`not an oracle plan: ${plan.plan_kind}`);
  }
}

/**
 * Delta parity over the scope's last `max_iterations` imports: each one,
 * applied incrementally to the fold before it, must give the beliefs a full
 * recomputation gives. `changed_node_ids` are reported beside the answer.
 */
function parity(ctx: ActContext, plan: Plan, records: ReturnType<typeof readImportLog>, config: Partial<KernelConfig>): OracleOutcome {
  const n = intParam(plan, "max_iterations", 4);
  const mine = records.filter((r) => r.batch.scope === plan.scope);
  const checks: Array<Record<string, unknown>> = [];
  let ok = true;
  for (let i = Math.max(0, mine.length - n); i < mine.length; i++) {
    const before = readScope(ctx.store, plan.scope, { records: mine.slice(0, i), episodes: false });
    const delta = readScope(ctx.store, plan.scope, { records: [mine[i]!], episodes: false });
    const a = deltaParity(before.kernel, delta.kernel, config);
    if (a.parity === false) ok = false;
    checks.push({ batch_id: mine[i]!.batch.batch_id, parity: a.parity, refused: a.refused, mismatches: a.mismatches.slice(0, 20) });
  }
  const oracle = { oracle: "delta_parity", parity: ok, iterations: checks.length, checks, changed_node_ids: listParam(plan, "changed_node_ids"), bound_reached: false };
  return { oracle, outcome_signature: `delta_parity:${ok}`, parity_violation: !ok };
}

function done(a: object, sig: string): OracleOutcome {
  return { oracle: a as Record<string, unknown>, outcome_signature: sig, parity_violation: false };
}
