/** Support cycles by Tarjan's strongly connected components (iterative: no stack limit on deep graphs). */
import { cmp } from "./cmp.js";
import type { CompiledNode } from "./compile.js";

/**
 * The support cycles among `nodes` (edges: supporter → dependent): every
 * strongly connected component of two or more nodes, and every self-loop.
 * Each cycle's ids are sorted; cycles are sorted by their first id.
 */
export function supportCycles(nodes: readonly CompiledNode[], index: ReadonlyMap<string, CompiledNode>): string[][] {
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (idx.has(root.id)) continue;
    const work: Array<{ id: string; i: number }> = [{ id: root.id, i: 0 }];
    idx.set(root.id, counter);
    low.set(root.id, counter++);
    stack.push(root.id);
    onStack.add(root.id);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const deps = index.get(top.id)!.dependents;
      if (top.i < deps.length) {
        const w = deps[top.i++]!;
        if (!idx.has(w)) {
          idx.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ id: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.id, Math.min(low.get(top.id)!, idx.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.id;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.id)!));
      }
      if (low.get(top.id) === idx.get(top.id)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== top.id);
        if (comp.length > 1 || index.get(top.id)!.dependents.includes(top.id)) out.push(comp.sort());
      }
    }
  }
  return out.sort((a, b) => cmp(a[0]!, b[0]!));
}
