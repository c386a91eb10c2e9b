/** What every oracle returns besides its answer: the bound it ran under and whether it hit it. */

/** A limit an oracle respects: its name, its value, and how much was used. */
export interface OracleBound {
  name: string;
  limit: number;
  used: number;
}

/** The common head of every oracle assessment. */
export interface OracleHead {
  oracle:
    "exact_bounded" | "conservative" | "delta_parity" | "temporal_replay" | "causal_refuter" | "minimal_perturbation";
  bound: OracleBound;
  /** The bound stopped the oracle: its answer is a refusal or incomplete, never a guess. */
  bound_reached: boolean;
  /** Why there is no answer (`bound`, `unknown_node`, `no_belief`), else null. */
  refused: string | null;
}

/**
 * The verdict the refuters flip: the belief clears the fragile threshold.
 * @example holds(900_000, 900_000) // true
 */
export function holds(belief: number | null, threshold: number): boolean {
  return belief !== null && belief >= threshold;
}
