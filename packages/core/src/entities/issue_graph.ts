/**
 * The links of every issue, read from the owning files (archived ones too:
 * a link may name one), as an `IssueGraph`.
 */
import { ISSUES, type Store } from "../store/store.js";
import { IssueGraph, linkNodeOf, type LinkNode } from "./issue_links.js";
import { loadEntity, loadEntityFast } from "./load.js";
import type { Order } from "./order.js";
import { ISSUE } from "./schema.js";

/**
 * Read every ranked issue's links.
 * @param order the issues' ranked order (`entityOrder`)
 * @param onError told of each issue that cannot be read (it is left out of the graph)
 */
export async function loadIssueGraph(
  store: Store,
  order: Order,
  onError: (err: unknown) => void = () => undefined
): Promise<IssueGraph> {
  const nodes: LinkNode[] = [];
  for (let i = 0; i < order.length; i++) {
    const ref = order.at(i)!.ref;
    try {
      const e = loadEntityFast(store, ISSUES, ISSUE, ref) ?? (await loadEntity(store, ISSUES, ISSUE, ref));
      nodes.push(linkNodeOf(e.data, i + 1, ref.archived));
    } catch (err) {
      onError(err);
    }
  }
  return new IssueGraph(nodes);
}
