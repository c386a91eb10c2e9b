/**
 * The links of every issue, as an `IssueGraph`: from the list's record cache
 * where an issue's line is still good (its file's lstat unchanged: the line
 * carries the issue's links, state and title), else from its owning file
 * (archived ones too: a link may name one). The cache only saves time: a
 * line that is missing, stale or not in the shape expected is read from the
 * file, and this walk never writes the cache.
 */
import { entityFile, ISSUES, type Store } from "../store/store.js";
import { loadLabelDefs, loadMilestoneDefs } from "./defs.js";
import { ISSUE_RECORD_LAYOUT } from "./issue_list_cache.js";
import { IssueGraph, linkNodeOf, type LinkNode } from "./issue_links.js";
import { loadEntity, loadEntityFast } from "./load.js";
import type { Order } from "./order.js";
import { openRecordCache, recordContext, type RecordCache } from "./record_cache.js";
import { ISSUE } from "./schema.js";

/**
 * Read every ranked issue's links.
 * @param order the issues' ranked order (`entityOrder`)
 * @param onError told of each issue that cannot be read (it is left out of the graph)
 * @param opts.files every issue from its file, never the cache (`forge fsck` checks the files themselves)
 */
export async function loadIssueGraph(
  store: Store,
  order: Order,
  onError: (err: unknown) => void = () => undefined,
  opts: { files?: boolean } = {}
): Promise<IssueGraph> {
  const nodes: LinkNode[] = [];
  const cache = opts.files === true ? undefined : await openLinksCache(store);
  // Newest first: the cache file is in that order, so it is read front to back.
  try {
    for (let i = order.length - 1; i >= 0; i--) {
      const { ref, createdAt } = order.at(i)!;
      const cached =
        cache && !ref.archived && !ref.escapes
          ? cachedNode(cache, `${createdAt} ${ref.id}`, entityFile(store, ISSUES, ref.id), ref.id, i + 1)
          : undefined;
      if (cached) {
        nodes.push(cached);
        continue;
      }
      try {
        const e = loadEntityFast(store, ISSUES, ISSUE, ref) ?? (await loadEntity(store, ISSUES, ISSUE, ref));
        nodes.push(linkNodeOf(e.data, i + 1, ref.archived));
      } catch (err) {
        onError(err);
      }
    }
  } finally {
    cache?.close(false);
  }
  return new IssueGraph(nodes.reverse());
}

// --- internal ---

/** The list's record cache, for reading (its context: the label and milestone definitions, as the list makes it). */
async function openLinksCache(store: Store): Promise<RecordCache | undefined> {
  try {
    const context = recordContext([[...(await loadLabelDefs(store))], [...(await loadMilestoneDefs(store))]]);
    return openRecordCache(store, ISSUES, { layout: ISSUE_RECORD_LAYOUT, context, write: false });
  } catch {
    // Definitions that cannot be read: every issue from its file (the verb reports the definitions itself).
    return undefined;
  }
}

/**
 * A node from an issue's cached line: `<fields before number> U+001F <fields
 * after it> U+001F <parent>|<blocker>,…`; undefined when there is no good line
 * or it is not in that shape.
 */
function cachedNode(cache: RecordCache, key: string, file: string, id: string, number: number): LinkNode | undefined {
  // Links, state and title are the owning file's: the record folders' stamps on the line do not matter here.
  const hit = cache.get(key, file, undefined, false);
  if (!hit) return undefined;
  const sep = hit.buf.indexOf(0x1f, hit.start);
  const end = hit.buf.lastIndexOf(0x1f, hit.end - 1);
  if (!(sep > hit.start && end > sep && sep < hit.end)) return undefined;
  let after: { state?: unknown; title?: unknown };
  try {
    after = JSON.parse(`{${hit.buf.toString("utf8", sep + 1, end)}}`) as typeof after;
  } catch {
    return undefined;
  }
  if ((after.state !== "OPEN" && after.state !== "CLOSED") || typeof after.title !== "string") return undefined;
  const links = hit.buf.toString("latin1", end + 1, hit.end);
  const bar = links.indexOf("|");
  if (bar < 0) return undefined;
  const rest = links.slice(bar + 1);
  return {
    archived: false,
    id,
    number,
    title: after.title,
    open: after.state === "OPEN",
    blockedBy: rest === "" ? [] : rest.split(","),
    parent: bar > 0 ? links.slice(0, bar) : undefined,
  };
}
