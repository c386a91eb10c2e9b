/**
 * conservative: a lower bound on every belief that holds whatever the
 * dependence between supports. Leaves: the Wilson score lower bound (95%,
 * z = 1.96) on the pass rate, never above the posterior mean. Derived
 * nodes: Fréchet bounds, max(0, Σ members − (k−1)) for a joint group and
 * the best term for the node.
 */
import { type Beliefs, evaluate, trialStats } from "../beliefs.js";
import type { Compiled, CompiledNode } from "../compile.js";
import { MICROS } from "../model.js";
import { schedule, type Scheduled } from "../schedule.js";
import type { OracleHead } from "./oracle.js";

/** One node's bound. */
export interface LowerBound {
  id: string;
  lower_micros: number | null;
  belief_micros: number | null;
}

/** The answer of conservative. */
export interface ConservativeAssessment extends OracleHead {
  oracle: "conservative";
  nodes: LowerBound[];
}

const Z = 1.96;

/**
 * The Wilson score lower bound of s passes in n, in micros (0 when n = 0).
 * @example wilsonLowerMicros(10, 10) // 722459
 */
export function wilsonLowerMicros(s: number, n: number): number {
  if (n === 0) return 0;
  const p = s / n;
  const z2 = Z * Z;
  const lo = (p + z2 / (2 * n) - Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return Math.max(0, Math.floor(lo * MICROS));
}

/**
 * One node's lower bound, from its belief and its supporters' bounds.
 * @param get a supporter's bound (null: none)
 * @example lowerBound(node, compiled, beliefs.get(node.id) ?? null, (id) => lower.get(id) ?? null)
 */
export function lowerBound(
  n: CompiledNode,
  compiled: Compiled,
  belief: number | null,
  get: (id: string) => number | null
): number | null {
  if (belief === null) return null;
  if (n.mode === "trials") {
    const st = trialStats(n, compiled);
    return Math.min(belief, wilsonLowerMicros(st.s, st.n));
  }
  let best = 0;
  for (const t of n.terms) {
    let sum = 0;
    for (const m of t.members) sum += get(m.from) ?? 0;
    best = Math.max(best, sum - (t.members.length - 1) * MICROS);
  }
  return Math.min(belief, best);
}

/**
 * Lower bounds for every node, in schedule order.
 * @param opts `max_nodes` (default config.max_trials); refuses above it
 * @example conservative(compiled).nodes.find((n) => n.id === "x")!.lower_micros
 */
export function conservative(
  compiled: Compiled,
  opts: { max_nodes?: number; scheduled?: Scheduled; beliefs?: Beliefs } = {}
): ConservativeAssessment {
  const limit = opts.max_nodes ?? compiled.config.max_trials;
  const used = compiled.nodes.length;
  if (used > limit)
    return {
      oracle: "conservative",
      bound: { name: "max_nodes", limit, used },
      bound_reached: true,
      refused: "bound",
      nodes: [],
    };
  const sch = opts.scheduled ?? schedule(compiled);
  const beliefs = opts.beliefs ?? evaluate(compiled, sch);
  const lower = new Map<string, number | null>();
  const get = (id: string): number | null => lower.get(id) ?? null;
  for (const id of sch.order)
    lower.set(id, lowerBound(compiled.index.get(id)!, compiled, beliefs.get(id) ?? null, get));
  const nodes = compiled.nodes.map((n) => ({
    id: n.id,
    lower_micros: lower.get(n.id) ?? null,
    belief_micros: beliefs.get(n.id) ?? null,
  }));
  return {
    oracle: "conservative",
    bound: { name: "max_nodes", limit, used },
    bound_reached: false,
    refused: null,
    nodes,
  };
}
