/**
 * schedule(compiled): a deterministic evaluation order. Supporters come
 * before what they support; among ready nodes the smallest id goes first
 * (Kahn's algorithm with a min-heap), so every machine gets the same order.
 */
import { cmp, type Compiled } from "./compile.js";

/** The evaluation order and what cannot be evaluated. */
export interface Scheduled {
  /** Node ids, supporters first. */
  order: string[];
  /** Nodes in or downstream of a support cycle: no order exists for them, so no belief. */
  blocked: string[];
}

/**
 * Order the graph for evaluation.
 * @example schedule(compile(batch)).order
 */
export function schedule(compiled: Compiled): Scheduled {
  const indeg = new Map<string, number>();
  for (const n of compiled.nodes) indeg.set(n.id, 0);
  for (const n of compiled.nodes) for (const d of n.dependents) indeg.set(d, indeg.get(d)! + 1);
  const heap: string[] = [];
  for (const n of compiled.nodes) if (indeg.get(n.id) === 0) push(heap, n.id);
  const order: string[] = [];
  while (heap.length > 0) {
    const id = pop(heap);
    order.push(id);
    for (const d of compiled.index.get(id)!.dependents) {
      const k = indeg.get(d)! - 1;
      indeg.set(d, k);
      if (k === 0) push(heap, d);
    }
  }
  const done = new Set(order);
  return { order, blocked: compiled.nodes.filter((n) => !done.has(n.id)).map((n) => n.id) };
}

// --- internal: a binary min-heap of strings ---

function push(h: string[], v: string): void {
  h.push(v);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (cmp(h[p]!, h[i]!) <= 0) break;
    [h[p], h[i]] = [h[i]!, h[p]!];
    i = p;
  }
}

function pop(h: string[]): string {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && cmp(h[l]!, h[m]!) < 0) m = l;
      if (r < h.length && cmp(h[r]!, h[m]!) < 0) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i]!, h[m]!];
      i = m;
    }
  }
  return top;
}
