/**
 * The loop's own bounds on an oracle plan (forge-plan has no flags for
 * them): delta parity checks at most `--oracle-max-iterations` imports, the
 * refuters remove at most `--minimal-perturbation-budget` supports.
 */
import type { Plan } from "./_lines.js";
import type { LoopConfig } from "./flags.js";

/**
 * The plan with the loop's bounds on its params.
 * @example bounded(c, { ...p, plan_kind: "OracleDeltaParity" }).params.max_iterations // ≤ c.oracleMaxIterations
 */
export function bounded(c: LoopConfig, p: Plan): Plan {
  // Number(): another process's line, read as it came (a bound that is not a number leaves NaN, as it always did).
  if (p.plan_kind === "OracleDeltaParity") {
    const max = Math.min(Number(p.params.max_iterations ?? Infinity), c.oracleMaxIterations);
    return { ...p, params: { ...p.params, max_iterations: max } };
  }
  if (p.plan_kind === "OracleCausalRefuter" || p.plan_kind === "OracleMinimalPerturbation") {
    const max = Math.min(Number(p.params.max_removed_nodes ?? Infinity), c.minimalPerturbationBudget);
    return { ...p, params: { ...p.params, max_removed_nodes: max } };
  }
  return p;
}
