/**
 * causalRefuter: drop one support at a time — one support relation of a
 * derived node, or one trial of a trial-based node — and see whether the
 * verdict (belief ≥ the fragile threshold) flips. At most `max_supports`
 * are tried, in id order.
 */
import type { Compiled } from "../compile.js";
import { schedule, type Scheduled } from "../schedule.js";
import { coneBelief, coneOf, supportIds } from "./_cone.js";
import { holds, type OracleHead } from "./oracle.js";

/** The answer of causalRefuter. */
export interface RefutationAssessment extends OracleHead {
  oracle: "causal_refuter";
  target: string;
  belief_micros: number | null;
  holds: boolean;
  /** Supports whose removal alone flips the verdict, with the belief without each. */
  flips: Array<{ removed: string; belief_micros: number | null }>;
  /** Supports tried. */
  examined: number;
}

/**
 * The direct supports of a node: its trial ids (trial-based) or its support relation ids (derived), sorted.
 * @example directSupports(compiled, "x") // ["a>x", "b>x"]
 */
export function directSupports(compiled: Compiled, target: string): string[] {
  const n = compiled.index.get(target);
  return n ? supportIds(n).sort() : [];
}

/**
 * Try removing each direct support of `target`.
 * @param opts `max_supports` (default config.max_supports)
 * @example causalRefuter(compiled, "x").flips // [{removed: "a>x", belief_micros: …}]
 */
export function causalRefuter(
  compiled: Compiled,
  target: string,
  opts: { max_supports?: number; scheduled?: Scheduled } = {}
): RefutationAssessment {
  const limit = opts.max_supports ?? compiled.config.max_supports;
  const thr = compiled.config.fragile_threshold_micros;
  if (!compiled.index.has(target)) {
    return {
      oracle: "causal_refuter",
      bound: { name: "max_supports", limit, used: 0 },
      bound_reached: false,
      refused: "unknown_node",
      target,
      belief_micros: null,
      holds: false,
      flips: [],
      examined: 0,
    };
  }
  const cone = coneOf(compiled, opts.scheduled ?? schedule(compiled), target);
  const b0 = coneBelief(compiled, cone, target, new Set());
  const supports = directSupports(compiled, target);
  const tried = supports.slice(0, limit);
  const flips: RefutationAssessment["flips"] = [];
  for (const s of tried) {
    const b = coneBelief(compiled, cone, target, new Set([s]));
    if (holds(b, thr) !== holds(b0, thr)) flips.push({ removed: s, belief_micros: b });
  }
  return {
    oracle: "causal_refuter",
    bound: { name: "max_supports", limit, used: tried.length },
    bound_reached: supports.length > limit,
    refused: null,
    target,
    belief_micros: b0,
    holds: holds(b0, thr),
    flips,
    examined: tried.length,
  };
}
