/**
 * `forge-issue edit`'s link flags: blocked by / blocking, the parent, and
 * sub-issues. Every edge lives in one file: a block in the blocked issue's,
 * a parent in the child's (so `--add-sub-issue` writes each child's file);
 * a cycle is refused naming its path, before anything is written.
 */
import {
  ConflictError,
  cyclePath,
  editList,
  IssueGraph,
  loadIssueGraph,
  updateIssue,
  UsageError,
  type LinkNode,
  type LoadedEntity,
} from "@forge/core";
import type { Issues } from "./_shared.js";

/** The link changes of one edit (refs as given). */
export interface LinkEdit {
  addBlockedBy: string[];
  removeBlockedBy: string[];
  addBlocking: string[];
  removeBlocking: string[];
  setParent?: string;
  removeParent: boolean;
  /** Issues to make sub-issues of this one (each child's `parent`; an existing parent is replaced, as gh does). */
  addSubIssues: string[];
  /** Sub-issues of this one to make top-level again. */
  removeSubIssues: string[];
}

/** Whether the edit changes any link. */
export function hasLinkEdit(l: LinkEdit): boolean {
  return (
    l.addBlockedBy.length +
      l.removeBlockedBy.length +
      l.addBlocking.length +
      l.removeBlocking.length +
      l.addSubIssues.length +
      l.removeSubIssues.length >
      0 ||
    l.setParent !== undefined ||
    l.removeParent
  );
}

/** What changes in one other issue's file. */
interface OtherChange {
  e: LoadedEntity;
  addBy: string[];
  removeBy: string[];
  parent?: "set" | "remove";
}

/**
 * Apply the link changes around `issue`: its own file (blocked by, parent)
 * and the files of the issues it starts or stops blocking and of its
 * sub-issues added or removed (one write per file).
 * @returns the issue as written, and the graph after the change (for --json)
 * @throws UsageError for a link to itself or an issue both added and removed; ConflictError for a cycle, or for
 *   removing a sub-issue that is not one of this issue
 */
export async function applyLinkEdit(
  issues: Issues,
  issue: LoadedEntity,
  l: LinkEdit
): Promise<{ issue: LoadedEntity; graph: IssueGraph }> {
  const self = issue.ref.id;
  const ids = async (refs: string[]): Promise<Array<{ id: string; e: LoadedEntity }>> => {
    const out: Array<{ id: string; e: LoadedEntity }> = [];
    for (const r of refs) {
      const { issue: e } = await issues.get(r);
      if (e.ref.id === self)
        throw new UsageError(`issue ${r.slice(0, 40)} is this issue: an issue cannot link to itself`);
      out.push({ id: e.ref.id, e });
    }
    return out;
  };
  const addBy = await ids(l.addBlockedBy);
  const removeBy = await ids(l.removeBlockedBy);
  const addBlocking = await ids(l.addBlocking);
  const removeBlocking = await ids(l.removeBlocking);
  const addSubs = await ids(l.addSubIssues);
  const removeSubs = await ids(l.removeSubIssues);
  const parent = l.setParent !== undefined ? (await ids([l.setParent]))[0]! : undefined;
  const graph = await loadIssueGraph(issues.store, await issues.ranked());
  const num = (id: string): string => `#${graph.node(id)?.number ?? id.slice(0, 8)}`;
  for (const [a, r, flag] of [
    [addBy, removeBy, "blocked-by"],
    [addBlocking, removeBlocking, "blocking"],
    [addSubs, removeSubs, "sub-issue"],
  ] as const) {
    const both = a.find((x) => r.some((y) => y.id === x.id));
    if (both) throw new UsageError(`--add-${flag} and --remove-${flag} both name issue ${num(both.id)}`);
  }
  for (const s of removeSubs)
    if (graph.node(s.id)?.parent !== self)
      throw new ConflictError(`issue ${num(s.id)} is not a sub-issue of ${num(self)}: nothing to remove`);
  // Each new edge checked on the graph with the edges before it added, so two new edges cannot close a cycle either.
  const edges = new Edges(graph);
  for (const b of addBy) edges.add("blockedBy", self, b.id);
  for (const t of addBlocking) edges.add("blockedBy", t.id, self);
  if (parent) edges.add("parent", self, parent.id);
  for (const c of addSubs) edges.add("parent", c.id, self);
  // Everything is checked: now the writes, this issue's file first.
  let out = issue;
  if (addBy.length + removeBy.length > 0 || parent || l.removeParent)
    out = updateIssue(issue, (d) => {
      setBlockedBy(
        d,
        addBy.map((x) => x.id),
        removeBy.map((x) => x.id)
      );
      if (parent) d.parent = parent.id;
      if (l.removeParent) delete d.parent;
    });
  const others = new Map<string, OtherChange>();
  const other = (x: { id: string; e: LoadedEntity }): OtherChange => {
    let c = others.get(x.id);
    if (!c) others.set(x.id, (c = { e: x.e, addBy: [], removeBy: [] }));
    return c;
  };
  for (const t of addBlocking) other(t).addBy.push(self);
  for (const t of removeBlocking) other(t).removeBy.push(self);
  for (const c of addSubs) other(c).parent = "set";
  for (const c of removeSubs) other(c).parent = "remove";
  for (const c of others.values())
    updateIssue(c.e, (d) => {
      setBlockedBy(d, c.addBy, c.removeBy);
      if (c.parent === "set") d.parent = self;
      // Only when it is still this issue's sub-issue (another writer may have moved it since).
      else if (c.parent === "remove" && d.parent === self) delete d.parent;
    });
  return { issue: out, graph: await loadIssueGraph(issues.store, await issues.ranked()) };
}

function setBlockedBy(d: Record<string, unknown>, add: string[], remove: string[]): void {
  const by = editList((d.blockedBy as string[] | undefined) ?? [], add, remove);
  if (by.length > 0) d.blockedBy = by;
  else delete d.blockedBy;
}

/** The graph as read plus the edges of this edit, each refused when it would close a cycle. */
class Edges {
  #g: IssueGraph;
  constructor(g: IssueGraph) {
    this.#g = g;
  }

  /** `blockedBy`: `from` becomes blocked by `to`; `parent`: `to` becomes `from`'s parent. */
  add(kind: "blockedBy" | "parent", from: string, to: string): void {
    const path = this.#g.cycle(kind, from, to);
    if (path)
      throw new ConflictError(
        `cycle refused: ${cyclePath(this.#g, path)} (each waits for the next: blocked by it, or its sub-issue)`
      );
    const n = this.#g.node(from);
    if (!n) return;
    const next: LinkNode = kind === "blockedBy" ? { ...n, blockedBy: [...n.blockedBy, to] } : { ...n, parent: to };
    this.#g = new IssueGraph([...this.#g.nodes].map((x) => (x.id === from ? next : x)));
  }
}
