/**
 * schedule(compiled): a deterministic evaluation order. Supporters come
 * before what they support; among ready nodes the smallest id goes first
 * (Kahn's algorithm with a min-heap), so every machine gets the same order.
 */
import type { Compiled } from "./compile.js";

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
  // compiled.nodes is sorted by id, so a node's index orders it like its id: the heap compares numbers.
  const nodes = compiled.nodes;
  const pos = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) pos.set(nodes[i]!.id, i);
  const indeg = new Int32Array(nodes.length);
  const deps: number[][] = [];
  for (let i = 0; i < nodes.length; i++) {
    const d = nodes[i]!.dependents;
    const ix: number[] = [];
    for (let j = 0; j < d.length; j++) {
      const k = pos.get(d[j]!)!;
      ix.push(k);
      indeg[k]!++;
    }
    deps.push(ix);
  }
  const heap: number[] = [];
  for (let i = 0; i < nodes.length; i++) if (indeg[i] === 0) heap.push(i); // ascending: already a heap
  const order: string[] = [];
  const done = new Uint8Array(nodes.length);
  while (heap.length > 0) {
    const i = pop(heap);
    order.push(nodes[i]!.id);
    done[i] = 1;
    const d = deps[i]!;
    for (let j = 0; j < d.length; j++) if (--indeg[d[j]!]! === 0) push(heap, d[j]!);
  }
  const blocked: string[] = [];
  for (let i = 0; i < nodes.length; i++) if (!done[i]) blocked.push(nodes[i]!.id);
  return { order, blocked };
}

// --- internal: a binary min-heap of numbers ---

function push(h: number[], v: number): void {
  h.push(v);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p]! <= h[i]!) break;
    const t = h[p]!;
    h[p] = h[i]!;
    h[i] = t;
    i = p;
  }
}

function pop(h: number[]): number {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && h[l]! < h[m]!) m = l;
      if (r < h.length && h[r]! < h[m]!) m = r;
      if (m === i) break;
      const t = h[m]!;
      h[m] = h[i]!;
      h[i] = t;
      i = m;
    }
  }
  return top;
}
