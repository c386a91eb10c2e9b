/** A node's support cone: itself and everything that feeds its belief, in evaluation order. */
import { nodeBelief, type Removed } from "../beliefs.js";
import type { Compiled, CompiledNode } from "../compile.js";
import type { Scheduled } from "../schedule.js";

/** The cone of `target`, supporters first (the schedule's order restricted to the cone). */
export function coneOf(compiled: Compiled, scheduled: Scheduled, target: string): CompiledNode[] {
  const seen = new Set<string>([target]);
  const todo = [target];
  while (todo.length > 0) {
    const n = compiled.index.get(todo.pop()!)!;
    for (const t of n.terms)
      for (const m of t.members)
        if (!seen.has(m.from)) {
          seen.add(m.from);
          todo.push(m.from);
        }
  }
  const blocked = scheduled.blocked.filter((id) => seen.has(id));
  return [...scheduled.order.filter((id) => seen.has(id)), ...blocked].map((id) => compiled.index.get(id)!);
}

/**
 * What a node's belief rests on directly, and what the refuters remove: its trial ids (trial-based) or its support
 * relation ids (derived).
 */
export function supportIds(n: CompiledNode): string[] {
  return n.mode === "trials"
    ? n.trials.map((t) => t.trial_id)
    : n.terms.flatMap((t) => t.members.map((m) => m.relation_id));
}

/** The target's belief with `removed` left out, evaluating only the cone. */
export function coneBelief(
  compiled: Compiled,
  cone: readonly CompiledNode[],
  target: string,
  removed: Removed
): number | null {
  const vals = new Map<string, number | null>();
  const get = (id: string): number | null => vals.get(id) ?? null;
  for (const n of cone) vals.set(n.id, nodeBelief(n, compiled, get, removed));
  return vals.get(target) ?? null;
}
