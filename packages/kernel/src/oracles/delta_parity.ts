/**
 * deltaParity: apply a delta (more claims, trials, relations) to a batch
 * incrementally — recompute only the nodes the delta touches and what they
 * feed, keep every other belief — and check that the result equals a full
 * recomputation of the merged batch (rustc's verify-ich, as an oracle).
 */
import { type Beliefs, evaluate } from "../beliefs.js";
import { cmp } from "../cmp.js";
import { compile, type Compiled } from "../compile.js";
import type { KernelConfig } from "../model.js";
import { schedule } from "../schedule.js";
import type { OracleHead } from "./oracle.js";

/** The answer of deltaParity. */
export interface ParityAssessment extends OracleHead {
  oracle: "delta_parity";
  /** Incremental equals full; null when refused. */
  parity: boolean | null;
  /** Nodes recomputed incrementally, sorted. */
  dirty: string[];
  mismatches: Array<{ id: string; incremental: number | null; full: number | null }>;
}

type Rec = Record<string, unknown>;

/**
 * `base` with `delta`'s records appended (arrays concatenated).
 * @example mergeBatches(base, {trials: [t]}) // base with t appended
 */
export function mergeBatches(base: unknown, delta: unknown): unknown {
  const b = (base ?? {}) as Rec;
  const d = (delta ?? {}) as Rec;
  const cat = (k: string): unknown =>
    Array.isArray(b[k]) || Array.isArray(d[k]) ? [...arr(b[k]), ...arr(d[k])] : b[k];
  return { ...b, claims: cat("claims"), trials: cat("trials"), relations: cat("relations") };
}

/**
 * Check incremental against full recomputation for `base` + `delta`.
 * @param config kernel config; `max_dirty_nodes` bounds the incremental set
 * @example deltaParity(batch, {trials: [newTrial]}).parity // true
 */
export function deltaParity(base: unknown, delta: unknown, config: Partial<KernelConfig> = {}): ParityAssessment {
  const before = compile(base, config);
  const prev = evaluate(before, schedule(before));
  const merged = compile(mergeBatches(base, delta), config);
  const sch = schedule(merged);
  const dirty = dirtySet(before, merged, delta);
  const limit = merged.config.max_dirty_nodes;
  const head = { oracle: "delta_parity" as const, bound: { name: "max_dirty_nodes", limit, used: dirty.size } };
  if (dirty.size > limit)
    return { ...head, bound_reached: true, refused: "bound", parity: null, dirty: [], mismatches: [] };
  const inc = evaluate(merged, sch, { previous: prev, dirty });
  const full = evaluate(merged, sch);
  const mismatches = compare(inc, full);
  return {
    ...head,
    bound_reached: false,
    refused: null,
    parity: mismatches.length === 0,
    dirty: [...dirty].sort(cmp),
    mismatches,
  };
}

// --- internal ---

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown, k: string): string | undefined {
  const x = (v as Rec | null)?.[k];
  return typeof x === "string" ? x : undefined;
}

/**
 * The nodes whose own inputs the delta may change: claims it states or
 * re-versions, the claims of its trials, the targets of its relations,
 * every claim with a trial in a run it adds to (infrastructure status is
 * per run), the owners of records whose ids it reuses, and the dependents
 * of all of those in the old graph (a dropped node leaves no trace to follow).
 */
function dirtySet(before: Compiled, merged: Compiled, delta: unknown): Set<string> {
  const d = (delta ?? {}) as Rec;
  const dirty = new Set<string>();
  const runs = new Set<string>();
  const ids = new Set<string>();
  for (const c of arr(d.claims)) {
    const id = str(c, "claim_id");
    if (id !== undefined) dirty.add(id);
    const vid = str(c, "claim_version_id");
    if (vid !== undefined) ids.add(vid);
  }
  for (const t of arr(d.trials)) {
    const id = str(t, "claim_id");
    if (id !== undefined) dirty.add(id);
    const run = str(t, "run_id");
    if (run !== undefined) runs.add(run);
    const tid = str(t, "trial_id");
    if (tid !== undefined) ids.add(tid);
  }
  for (const r of arr(d.relations)) {
    const to = str(r, "to");
    if (to !== undefined) dirty.add(to);
    const rid = str(r, "relation_id");
    if (rid !== undefined) ids.add(rid);
  }
  for (const g of [before, merged]) {
    for (const n of g.nodes) {
      if (n.versions.some((v) => ids.has(v))) dirty.add(n.id);
      for (const t of n.trials) if ((t.run_id !== null && runs.has(t.run_id)) || ids.has(t.trial_id)) dirty.add(n.id);
    }
    for (const r of g.relations) if (ids.has(r.relation_id)) dirty.add(r.to);
  }
  for (const id of [...dirty]) for (const dep of before.index.get(id)?.dependents ?? []) dirty.add(dep);
  return dirty;
}

function compare(a: Beliefs, b: Beliefs): ParityAssessment["mismatches"] {
  const out: ParityAssessment["mismatches"] = [];
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort(cmp);
  for (const k of keys) {
    const x = a.get(k) ?? null;
    const y = b.get(k) ?? null;
    if (x !== y) out.push({ id: k, incremental: x, full: y });
  }
  return out;
}
