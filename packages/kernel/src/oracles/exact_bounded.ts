/**
 * exactBounded: the exact belief of a node by enumerating every true/false
 * assignment of the trial-based nodes (leaves) in its cone, in exact
 * rational arithmetic (BigInt). Unlike `evaluate` it does not assume that
 * support terms are independent, so a shared supporter counts once. Refuses
 * when the cone has more leaves than the bound (2^leaves assignments).
 */
import { trialStats } from "../beliefs.js";
import type { Compiled } from "../compile.js";
import { schedule, type Scheduled } from "../schedule.js";
import { coneBelief, coneOf } from "./_cone.js";
import type { OracleHead } from "./oracle.js";

/** The answer of exactBounded. */
export interface ExactAssessment extends OracleHead {
  oracle: "exact_bounded";
  target: string;
  /** The exact belief, rounded down; null when refused. */
  exact_micros: number | null;
  /** The belief under the independence assumption, for comparison. */
  propagated_micros: number | null;
  leaves: string[];
}

/**
 * Exact belief of `target` by enumeration, if its cone has at most `max_leaves` leaves.
 * @param opts `max_leaves` (default: config.exact_max_leaves)
 * @example exactBounded(compiled, "x").exact_micros // 703125 for a ∧ (b ∨ c) at 3/4 each
 */
export function exactBounded(
  compiled: Compiled,
  target: string,
  opts: { max_leaves?: number; scheduled?: Scheduled } = {}
): ExactAssessment {
  const limit = opts.max_leaves ?? compiled.config.exact_max_leaves;
  const head = (used: number, refused: string | null, reached = false): ExactAssessment => ({
    oracle: "exact_bounded",
    bound: { name: "max_leaves", limit, used },
    bound_reached: reached,
    refused,
    target,
    exact_micros: null,
    propagated_micros: null,
    leaves: [],
  });
  if (!compiled.index.has(target)) return head(0, "unknown_node");
  const cone = coneOf(compiled, opts.scheduled ?? schedule(compiled), target);
  if (cone.some((n) => n.cyclic || n.mode === "none")) return head(0, "no_belief");
  const leaves = cone.filter((n) => n.mode === "trials");
  if (leaves.length > limit) return { ...head(leaves.length, "bound", true), leaves: leaves.map((n) => n.id) };
  // Leaf i holds with probability a_i / d_i = (s+1)/(n+2).
  const a: bigint[] = [];
  const d: bigint[] = [];
  for (const n of leaves) {
    const st = trialStats(n, compiled);
    a.push(BigInt(st.s + 1));
    d.push(BigInt(st.n + 2));
  }
  const leafIndex = new Map(leaves.map((n, i) => [n.id, i]));
  let num = 0n;
  const truth = new Map<string, boolean>();
  for (let mask = 0; mask < 1 << leaves.length; mask++) {
    let w = 1n;
    for (let i = 0; i < leaves.length; i++) w *= mask & (1 << i) ? a[i]! : d[i]! - a[i]!;
    for (const n of cone) {
      const li = leafIndex.get(n.id);
      truth.set(
        n.id,
        li !== undefined
          ? (mask & (1 << li)) !== 0
          : n.terms.some((t) => t.members.every((m) => truth.get(m.from) === true))
      );
    }
    if (truth.get(target)) num += w;
  }
  const den = d.reduce((x, y) => x * y, 1n);
  return {
    ...head(leaves.length, null),
    exact_micros: Number((num * 1_000_000n) / den),
    propagated_micros: coneBelief(compiled, cone, target, new Set()),
    leaves: leaves.map((n) => n.id),
  };
}
