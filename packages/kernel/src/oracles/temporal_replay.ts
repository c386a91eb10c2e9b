/**
 * temporalReplay: the beliefs as they stood at a cutoff, from the claims,
 * trials and relations recorded strictly before it. A null cutoff is +∞:
 * the current beliefs.
 */
import { evaluate } from "../beliefs.js";
import { compile } from "../compile.js";
import type { KernelConfig } from "../model.js";
import { schedule } from "../schedule.js";
import type { OracleHead } from "./oracle.js";

/** The answer of temporalReplay. */
export interface ReplayAssessment extends OracleHead {
  oracle: "temporal_replay";
  cutoff: string | null;
  /** Every node that existed before the cutoff, sorted by id. */
  beliefs: Array<{ id: string; belief_micros: number | null }>;
}

/**
 * Replay `batch` as of `cutoff` (RFC 3339 UTC; null = +∞).
 * @param config kernel config; `max_trials` bounds the trials replayed
 * @example temporalReplay(batch, null).beliefs // the current beliefs
 */
export function temporalReplay(
  batch: unknown,
  cutoff: string | null,
  config: Partial<KernelConfig> = {}
): ReplayAssessment {
  const b = (batch !== null && typeof batch === "object" ? batch : {}) as Record<string, unknown>;
  const before = (k: string): unknown => {
    const xs = b[k];
    if (!Array.isArray(xs) || cutoff === null) return xs;
    return xs.filter((x) => {
      const at = (x as { recorded_at?: unknown } | null)?.recorded_at;
      // an undated record stays in, to be refused by compile as it would be now
      return typeof at !== "string" || at < cutoff;
    });
  };
  const cut =
    batch !== null && typeof batch === "object"
      ? { ...b, claims: before("claims"), trials: before("trials"), relations: before("relations") }
      : batch;
  const compiled = compile(cut, config);
  const limit = compiled.config.max_trials;
  const used = compiled.nodes.reduce((k, n) => k + n.trials.length, 0);
  const head = { oracle: "temporal_replay" as const, bound: { name: "max_trials", limit, used }, cutoff };
  if (used > limit) return { ...head, bound_reached: true, refused: "bound", beliefs: [] };
  const beliefs = evaluate(compiled, schedule(compiled));
  return {
    ...head,
    bound_reached: false,
    refused: null,
    beliefs: compiled.nodes.map((n) => ({ id: n.id, belief_micros: beliefs.get(n.id) ?? null })),
  };
}
