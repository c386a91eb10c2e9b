/**
 * `forge fsck`'s check of issue links (spec/schema.md "Dependencies"):
 * every `blockedBy` and `parent` names an issue of this store, never the
 * issue itself, never twice; and the links hold no cycle (an issue waits for
 * its blockers and its parent). Reads only; one problem per finding.
 */
import {
  cyclePath,
  displayPath,
  entityFile,
  entityOrder,
  isUuid,
  ISSUE,
  ISSUES,
  loadIssueGraph,
  type Store,
} from "@forge/core";
import type { Problem } from "./_fsck_store.js";

/** The link problems of the store's issues, by file. */
export async function* issueLinks(store: Store): AsyncGenerator<Problem> {
  let order;
  try {
    order = await entityOrder(store, ISSUES, ISSUE);
  } catch {
    return; // the entity checks have named what cannot be read
  }
  // From the files themselves, not the list's cache: fsck checks what is committed.
  const g = await loadIssueGraph(store, order, () => undefined, { files: true });
  const fileOf = new Map<string, string>();
  for (const e of order.entries)
    fileOf.set(e.ref.id, displayPath(store, entityFile(store, ISSUES, e.ref.id, e.ref.archived)));
  const reported = new Set<string>();
  for (const n of [...g.nodes].sort((a, b) => a.number - b.number)) {
    const file = fileOf.get(n.id) ?? n.id;
    const seen = new Set<string>();
    for (const b of n.blockedBy) {
      if (!isUuid(b)) yield { file, problem: `field 'blockedBy': '${String(b).slice(0, 40)}' is not an issue id` };
      else if (b === n.id) yield { file, problem: "field 'blockedBy': the issue blocks itself" };
      else if (!g.node(b)) yield { file, problem: `field 'blockedBy': no issue ${b}` };
      if (seen.has(b)) yield { file, problem: `field 'blockedBy': ${b.slice(0, 36)} listed twice` };
      seen.add(b);
    }
    if (n.parent !== undefined) {
      if (n.parent === n.id) yield { file, problem: "field 'parent': the issue is its own parent" };
      else if (!g.node(n.parent)) yield { file, problem: `field 'parent': no issue ${n.parent}` };
    }
    // A cycle through this issue (each named once, at its lowest-numbered issue).
    if (reported.has(n.id)) continue;
    for (const to of n.parent === undefined ? n.blockedBy : [...n.blockedBy, n.parent]) {
      if (to === n.id || !g.node(to)) continue;
      const path = g.cycle("blockedBy", n.id, to);
      if (path) {
        for (const id of path) reported.add(id);
        yield { file, problem: `link cycle: ${cyclePath(g, path)} (each waits for the next)` };
        break;
      }
    }
  }
}
