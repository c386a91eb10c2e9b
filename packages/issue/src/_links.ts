/**
 * `forge-issue edit`'s link flags: blocked by / blocking and the parent.
 * Every edge lives in one file: a block in the blocked issue's, a parent in
 * the child's; a cycle is refused naming its path, before anything is written.
 */
import {
  ConflictError,
  cyclePath,
  editList,
  loadIssueGraph,
  updateIssue,
  UsageError,
  type IssueGraph,
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
}

/** Whether the edit changes any link. */
export function hasLinkEdit(l: LinkEdit): boolean {
  return (
    l.addBlockedBy.length + l.removeBlockedBy.length + l.addBlocking.length + l.removeBlocking.length > 0 ||
    l.setParent !== undefined ||
    l.removeParent
  );
}

/**
 * Apply the link changes around `issue`: its own file (blocked by, parent)
 * and the files of the issues it starts or stops blocking.
 * @returns the issue as written, and the graph after the change (for --json)
 * @throws UsageError for a link to itself; ConflictError for a cycle
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
  const parent = l.setParent !== undefined ? (await ids([l.setParent]))[0]! : undefined;
  const graph = await loadIssueGraph(issues.store, await issues.ranked());
  // Checked on the graph as read, each new edge on its own (the other new edges can only add to a path).
  for (const b of addBy) refuseCycle(graph, "blockedBy", self, b.id);
  for (const t of addBlocking) refuseCycle(graph, "blockedBy", t.id, self);
  if (parent) refuseCycle(graph, "parent", self, parent.id);
  let out = issue;
  if (addBy.length + removeBy.length > 0 || parent || l.removeParent)
    out = updateIssue(issue, (d) => {
      const by = editList(
        (d.blockedBy as string[] | undefined) ?? [],
        addBy.map((x) => x.id),
        removeBy.map((x) => x.id)
      );
      if (by.length > 0) d.blockedBy = by;
      else delete d.blockedBy;
      if (parent) d.parent = parent.id;
      if (l.removeParent) delete d.parent;
    });
  for (const [list, add] of [
    [addBlocking, true],
    [removeBlocking, false],
  ] as const)
    for (const t of list)
      updateIssue(t.e, (d) => {
        const by = editList((d.blockedBy as string[] | undefined) ?? [], add ? [self] : [], add ? [] : [self]);
        if (by.length > 0) d.blockedBy = by;
        else delete d.blockedBy;
      });
  return { issue: out, graph: await loadIssueGraph(issues.store, await issues.ranked()) };
}

function refuseCycle(g: IssueGraph, kind: "blockedBy" | "parent", from: string, to: string): void {
  const path = g.cycle(kind, from, to);
  if (path)
    throw new ConflictError(
      `cycle refused: ${cyclePath(g, path)} (each waits for the next: blocked by it, or its sub-issue)`
    );
}
