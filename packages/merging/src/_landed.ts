/**
 * SEC-08: has this patch landed already? Every `merged` record in
 * `merges/` is compared by `patchSha256` (the same bytes) and by `patchId`
 * (the same change, re-described or rebased). Other verdicts never count.
 */
import { readdirSync } from "node:fs";
import { isUuid, loadFile, MERGE_RECORD, mergeFile, mergesDir, type Store } from "@forge/core";

/** A merged record that matches. */
export interface Landed {
  /** The record's id. */
  record: string;
  /** The PR it merged. */
  pr: string;
  commit: string | null;
  /** What matched: the bytes, or only the change. */
  by: "patchSha256" | "patchId";
}

/**
 * The first `merged` record (oldest first) whose patch matches.
 * @param sha256 the patch's sha256
 * @param id the patch's patchId, if it has one
 * @throws InvalidFileError for an invalid record (a record that cannot be read cannot be ruled out)
 */
export async function findLanded(store: Store, sha256: string, id: string | null): Promise<Landed | null> {
  let names: string[];
  try {
    names = readdirSync(mergesDir(store)).filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3)));
  } catch {
    return null;
  }
  const hits: Array<Landed & { at: string }> = [];
  for (const n of names) {
    const f = await loadFile(store, MERGE_RECORD, mergeFile(store, n.slice(0, -3)));
    const d = f.data;
    if (d.verdict !== "merged") continue;
    const by = d.patchSha256 === sha256 ? "patchSha256" : id !== null && d.patchId === id ? "patchId" : null;
    if (by) {
      const commit = (d.commit as string | undefined) ?? null;
      hits.push({ record: d.id as string, pr: d.pr as string, commit, by, at: d.createdAt as string });
    }
  }
  hits.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.record < b.record ? -1 : 1));
  const first = hits[0];
  return first ? { record: first.record, pr: first.pr, commit: first.commit, by: first.by } : null;
}
