/**
 * Beliefs in integer micros. A node with trials: the posterior mean of a
 * Beta(1,1) prior, (s+1)/(n+2), counting a pass on retry as flaky (in n,
 * never in s) and leaving out harness errors and infrastructure runs. A
 * derived node: each support term is the product of its members' beliefs
 * (a joint group holds only if all hold), and the node holds if any term
 * does (noisy-OR over terms, assuming independence; exactBounded drops that
 * assumption).
 */
import type { Compiled, CompiledNode } from "./compile.js";
import { MICROS } from "./model.js";
import type { Scheduled } from "./schedule.js";

/** Beliefs by node id; null when the node has none (cycle, missing semantics, unknown support). */
export type Beliefs = Map<string, number | null>;

/** The counts behind a trial-based belief. `n = s + f + flaky`. */
export interface TrialStats {
  n: number;
  s: number;
  f: number;
  flaky: number;
  errors: number;
  infra: number;
}

/** Things taken out of the graph for a what-if evaluation (relation ids and trial ids). */
export type Removed = ReadonlySet<string>;

const NONE: Removed = new Set();

/**
 * Each graph's counts of its nodes' trials with nothing removed, as first
 * made: a graph is not changed once compiled, and evaluate, assess and a
 * check's verdict each count every node.
 */
const COUNTED = new WeakMap<Compiled, WeakMap<CompiledNode, TrialStats>>();

/**
 * Count a node's trials.
 * @param removed trial ids to leave out
 * @example trialStats(compiled.index.get("a")!, compiled) // {n: 2, s: 2, f: 0, flaky: 0, errors: 1, infra: 0}
 */
export function trialStats(node: CompiledNode, compiled: Compiled, removed: Removed = NONE): TrialStats {
  if (removed.size > 0) return count(node, compiled, removed);
  let counted = COUNTED.get(compiled);
  if (!counted) COUNTED.set(compiled, (counted = new WeakMap()));
  let st = counted.get(node);
  if (!st) counted.set(node, (st = count(node, compiled, removed)));
  // A copy: a caller may keep or change what it is given.
  return { ...st };
}

function count(node: CompiledNode, compiled: Compiled, removed: Removed): TrialStats {
  const st: TrialStats = { n: 0, s: 0, f: 0, flaky: 0, errors: 0, infra: 0 };
  for (const t of node.trials) {
    if (removed.size > 0 && removed.has(t.trial_id)) continue;
    if (t.outcome === "error") st.errors++;
    else if (compiled.infra_trials.has(t.trial_id)) st.infra++;
    else if (t.outcome === "fail") st.f++;
    else if (compiled.flaky_trials.has(t.trial_id)) st.flaky++;
    else st.s++;
  }
  st.n = st.s + st.f + st.flaky;
  return st;
}

/**
 * The posterior mean (s+1)/(n+2) in micros, rounded down.
 * @example betaMeanMicros(2, 2) // 750000
 */
export function betaMeanMicros(s: number, n: number): number {
  return Math.floor(((s + 1) * MICROS) / (n + 2));
}

/**
 * a × b in micros, rounded down.
 * @example mulMicros(500_000, 500_000) // 250000
 */
export function mulMicros(a: number, b: number): number {
  return Math.floor((a * b) / MICROS);
}

/**
 * One node's belief from its trials or from its supporters' beliefs.
 * @param get a supporter's belief
 * @param removed relation and trial ids to leave out
 * @example nodeBelief(node, compiled, (id) => beliefs.get(id) ?? null)
 */
export function nodeBelief(
  node: CompiledNode,
  compiled: Compiled,
  get: (id: string) => number | null,
  removed: Removed = NONE
): number | null {
  if (node.cyclic || node.mode === "none") return null;
  if (node.mode === "trials") {
    const st = trialStats(node, compiled, removed);
    return betaMeanMicros(st.s, st.n);
  }
  let none = MICROS; // Π (1 − term)
  let terms = 0;
  for (const term of node.terms) {
    let p = MICROS;
    let members = 0;
    for (const m of term.members) {
      if (removed.size > 0 && removed.has(m.relation_id)) continue;
      const b = get(m.from);
      if (b === null) return null;
      p = mulMicros(p, b);
      members++;
    }
    if (members === 0) continue;
    terms++;
    none = mulMicros(none, MICROS - p);
  }
  return terms === 0 ? null : MICROS - none;
}

/** Options of `evaluate`. */
export interface EvaluateOptions {
  /** Beliefs from before a change: nodes not dirty (and not downstream of a change) keep theirs. */
  previous?: Beliefs;
  /** Nodes whose own inputs changed. */
  dirty?: ReadonlySet<string>;
  /** Relation and trial ids to leave out. */
  removed?: Removed;
}

/**
 * Every node's belief, in schedule order. With `previous` and `dirty`, only
 * the dirty nodes and what they feed are recomputed (deltaParity checks
 * that this equals a full evaluation).
 * @returns beliefs for every node, null for blocked ones
 * @example evaluate(c, schedule(c)).get("a") // 750000 after two passes
 */
export function evaluate(compiled: Compiled, scheduled: Scheduled, opts: EvaluateOptions = {}): Beliefs {
  const out: Beliefs = new Map();
  const changed = new Set<string>();
  const get = (id: string): number | null => out.get(id) ?? null;
  const incremental = opts.previous !== undefined && opts.dirty !== undefined;
  for (const id of scheduled.order) {
    const node = compiled.index.get(id)!;
    if (
      incremental &&
      !opts.dirty!.has(id) &&
      !node.terms.some((t) => t.members.some((m) => changed.has(m.from))) &&
      opts.previous!.has(id)
    ) {
      out.set(id, opts.previous!.get(id)!);
      continue;
    }
    const b = nodeBelief(node, compiled, get, opts.removed);
    out.set(id, b);
    if (!incremental || opts.previous!.get(id) !== b) changed.add(id);
  }
  for (const id of scheduled.blocked) out.set(id, null);
  return out;
}
