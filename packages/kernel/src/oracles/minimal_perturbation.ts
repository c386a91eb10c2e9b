/**
 * minimalPerturbation: bounded search for a smallest set of supports and
 * trials in a node's cone whose removal flips its verdict. Sets are tried
 * by size (1, 2, … up to `max_removed_nodes`) and in id order within a
 * size, so the first set found has the least possible size: removing any
 * one element of it leaves a smaller set, already tried and not flipping
 * (1-minimal). `max_evaluations` caps the work; when it runs out the answer
 * says so and claims no minimality (loop-anchors §6.5).
 */
import type { Compiled } from "../compile.js";
import { schedule, type Scheduled } from "../schedule.js";
import { coneBelief, coneOf, supportIds } from "./_cone.js";
import { holds, type OracleHead } from "./oracle.js";

/** The answer of minimalPerturbation. */
export interface PerturbationAssessment extends OracleHead {
  oracle: "minimal_perturbation";
  target: string;
  belief_micros: number | null;
  holds: boolean;
  /** A set was found within the bounds. */
  found: boolean;
  /** The set (relation and trial ids, sorted); empty when none was found. */
  removed: string[];
  belief_after_micros: number | null;
  /** True only when a set was found after every smaller set was tried. */
  minimal: boolean;
  /** Elements in the cone (candidates for removal). */
  candidates: number;
  evaluations: number;
  max_evaluations: number;
}

/**
 * Find a smallest flipping set for `target`.
 * @param opts `max_removed_nodes`, `max_evaluations` (defaults from config)
 * @example minimalPerturbation(compiled, "a").removed // ["bad"]: without that failed trial the check clears 0.9
 */
export function minimalPerturbation(
  compiled: Compiled,
  target: string,
  opts: { max_removed_nodes?: number; max_evaluations?: number; scheduled?: Scheduled } = {}
): PerturbationAssessment {
  const k = opts.max_removed_nodes ?? compiled.config.max_removed_nodes;
  const budget = opts.max_evaluations ?? compiled.config.max_evaluations;
  const thr = compiled.config.fragile_threshold_micros;
  const base = {
    oracle: "minimal_perturbation" as const,
    target,
    found: false,
    removed: [] as string[],
    belief_after_micros: null,
    minimal: false,
    max_evaluations: budget,
  };
  if (!compiled.index.has(target)) {
    return {
      ...base,
      bound: { name: "max_removed_nodes", limit: k, used: 0 },
      bound_reached: false,
      refused: "unknown_node",
      belief_micros: null,
      holds: false,
      candidates: 0,
      evaluations: 0,
    };
  }
  const cone = coneOf(compiled, opts.scheduled ?? schedule(compiled), target);
  const elems = cone.flatMap(supportIds).sort();
  const b0 = coneBelief(compiled, cone, target, new Set());
  const v0 = holds(b0, thr);
  let evaluations = 0;
  for (let size = 1; size <= Math.min(k, elems.length); size++) {
    const idx = Array.from({ length: size }, (_, i) => i);
    for (;;) {
      if (evaluations >= budget) {
        return {
          ...base,
          bound: { name: "max_removed_nodes", limit: k, used: size },
          bound_reached: true,
          refused: null,
          belief_micros: b0,
          holds: v0,
          candidates: elems.length,
          evaluations,
        };
      }
      const set = idx.map((i) => elems[i]!);
      const b = coneBelief(compiled, cone, target, new Set(set));
      evaluations++;
      if (holds(b, thr) !== v0) {
        return {
          ...base,
          bound: { name: "max_removed_nodes", limit: k, used: size },
          bound_reached: false,
          refused: null,
          belief_micros: b0,
          holds: v0,
          found: true,
          removed: set,
          belief_after_micros: b,
          minimal: true,
          candidates: elems.length,
          evaluations,
        };
      }
      if (!nextCombination(idx, elems.length)) break;
    }
  }
  return {
    ...base,
    bound: { name: "max_removed_nodes", limit: k, used: Math.min(k, elems.length) },
    bound_reached: false,
    refused: null,
    belief_micros: b0,
    holds: v0,
    candidates: elems.length,
    evaluations,
  };
}

/** Advance `idx` (strictly increasing indices into n items) to the next combination; false after the last. */
function nextCombination(idx: number[], n: number): boolean {
  const k = idx.length;
  let i = k - 1;
  while (i >= 0 && idx[i] === n - k + i) i--;
  if (i < 0) return false;
  idx[i]!++;
  for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1]! + 1;
  return true;
}
