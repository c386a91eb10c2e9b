import test from "ava";
import { rng } from "@forge/kernel/testing";
import { IssueGraph, type LinkNode } from "./issue_links.js";

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A random graph: blockers anywhere (cycles too), parents only older (a forest, as writes keep it). */
function randomGraph(rnd: () => number, n: number, edges: number): LinkNode[] {
  const nodes: LinkNode[] = [];
  for (let i = 1; i <= n; i++) {
    const by = new Set<string>();
    for (let k = 0; k < edges; k++) if (rnd() < 0.5) by.add(id(1 + Math.floor(rnd() * n)));
    by.delete(id(i));
    const parent = i > 1 && rnd() < 0.4 ? id(1 + Math.floor(rnd() * (i - 1))) : undefined;
    nodes.push({ id: id(i), number: i, title: `t${i}`, open: rnd() < 0.6, blockedBy: [...by], parent });
  }
  return nodes;
}

/** The property, read off the definition: open, no open blocker, and no ancestor with an open blocker. */
function readyByDefinition(nodes: LinkNode[], x: LinkNode): boolean {
  const by = new Map(nodes.map((n) => [n.id, n]));
  const openBlocker = (n: LinkNode): boolean => n.blockedBy.some((b) => by.get(b)?.open === true);
  if (!x.open || openBlocker(x)) return false;
  for (let p = x.parent; p !== undefined; p = by.get(p)?.parent) if (openBlocker(by.get(p)!)) return false;
  return true;
}

test("property: ready ⇔ open and no open blocker and no blocked ancestor (2,000 random graphs)", (t) => {
  const rnd = rng(29);
  let ready = 0;
  let checked = 0;
  for (let g = 0; g < 2000; g++) {
    const nodes = randomGraph(rnd, 1 + Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 3));
    const graph = new IssueGraph(nodes);
    for (const x of nodes) {
      const want = readyByDefinition(nodes, x);
      if (graph.ready(x.id) !== want) {
        t.fail(`graph ${g}: #${x.number}: ready ${graph.ready(x.id)}, expected ${want}: ${JSON.stringify(nodes)}`);
        return;
      }
      checked++;
      if (want) ready++;
    }
  }
  // Both answers occur often enough for the property to mean something.
  t.true(ready > checked / 10 && ready < (checked * 9) / 10, `${ready} of ${checked}`);
});

test("blocked() memo: a second question in another order gives the same answers", (t) => {
  const rnd = rng(7);
  for (let g = 0; g < 200; g++) {
    const nodes = randomGraph(rnd, 10, 2);
    const a = new IssueGraph(nodes);
    const b = new IssueGraph(nodes);
    const forward = nodes.map((n) => a.blocked(n.id));
    const backward = [...nodes]
      .reverse()
      .map((n) => b.blocked(n.id))
      .reverse();
    t.deepEqual(forward, backward);
  }
});

test("cycle() names the path a new edge would close, through blockers and parents", (t) => {
  const n = (i: number, by: number[], parent?: number): LinkNode => ({
    id: id(i),
    number: i,
    title: "",
    open: true,
    blockedBy: by.map(id),
    parent: parent === undefined ? undefined : id(parent),
  });
  // 2 is blocked by 1; 3 is a sub-issue of 2.
  const g = new IssueGraph([n(1, []), n(2, [1]), n(3, [], 2)]);
  t.deepEqual(g.cycle("blockedBy", id(1), id(2)), [id(1), id(2), id(1)]);
  t.deepEqual(g.cycle("blockedBy", id(1), id(3)), [id(1), id(3), id(2), id(1)]);
  t.deepEqual(g.cycle("parent", id(2), id(3)), [id(2), id(3), id(2)]);
  t.deepEqual(g.cycle("blockedBy", id(1), id(1)), [id(1), id(1)]);
  t.is(g.cycle("blockedBy", id(3), id(1)), undefined);
  t.is(g.cycle("parent", id(3), id(1)), undefined);
  // 1 under 3 would wait for 3, which waits (as 2's sub-issue) for 2, which waits for 1.
  t.deepEqual(g.cycle("parent", id(1), id(3)), [id(1), id(3), id(2), id(1)]);
});

test("json(): GraphQL's shapes, sub-issue summary counted", (t) => {
  const nodes: LinkNode[] = [
    { id: id(1), number: 1, title: "epic", open: true, blockedBy: [] },
    { id: id(2), number: 2, title: "a", open: false, blockedBy: [], parent: id(1) },
    { id: id(3), number: 3, title: "b", open: true, blockedBy: [id(2), id(9)], parent: id(1) },
  ];
  const g = new IssueGraph(nodes);
  t.deepEqual(g.json(id(1), "https://x"), {
    blockedBy: { nodes: [], totalCount: 0 },
    blocking: { nodes: [], totalCount: 0 },
    parent: null,
    subIssues: {
      nodes: [
        { id: id(2), number: 2, state: "CLOSED", title: "a", url: "https://x/issues/2" },
        { id: id(3), number: 3, state: "OPEN", title: "b", url: "https://x/issues/3" },
      ],
      totalCount: 2,
    },
    subIssuesSummary: { completed: 1, percentCompleted: 50, total: 2 },
  });
  // A link to an issue this store lacks is left out (fsck names it).
  t.is(g.json(id(3)).blockedBy.totalCount, 1);
  t.deepEqual(g.json(id(3)).parent, { id: id(1), number: 1, state: "OPEN", title: "epic", url: "/issues/1" });
  t.deepEqual(
    g.json(id(2)).blocking.nodes.map((x) => x.number),
    [3]
  );
});
