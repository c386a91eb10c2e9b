/**
 * The lane's fold, and its part in the kernel view forge-observe keeps
 * (`.forge/.cache/kernel.observed`, evidence's kernel_view.ts). The lane
 * reads the import log with what vouches for each file; one that reads it
 * before its first record comes (forge-pilot's, opened for the run, does it
 * while the pick-up runs) compiles its scope's fold then too, so that an
 * import of new trials only puts them in. A lane that
 * reads it on its first record leaves the compile to the first import that
 * needs it (a merge record or an oracle's result needs none). After its
 * imports, when a view of its scope made with the kernel's defaults is
 * kept, the lane replaces it with the view of the fold it compiled (at the
 * kept view's precision), so the next observation compiles nothing. A lane
 * that read ahead reads the kept view then too, when its key holds for the
 * log read: after imports of new trials only, it makes again only the
 * nodes they change (viewExtended).
 */
import { type Store } from "@forge/core";
import {
  digestOf,
  foldCompiled,
  type ImportRecord,
  type KernelView,
  type KeptView,
  keptView,
  type LoggedImport,
  packNames,
  primeFold,
  readImportLogStamped,
  readScope,
  viewConfig,
  viewExtended,
  viewFor,
  viewKey,
  viewOf,
  writeKernelView,
} from "@forge/evidence";
import { canonicalJson, type Compiled, compile } from "@forge/kernel";

/**
 * The log a lane imports with: the records (kept current by each import) and what vouched for each file when read (or
 * for its own, the bytes it wrote).
 */
export interface LaneLog {
  records: ImportRecord[];
  read: Map<string, LoggedImport>;
  /** What the view kept when the log was read was made with, if one of this scope was (with the kernel's defaults). */
  madeWith?: string;
  /** The scope's fold as read, compiled (when the lane had the time). */
  fold?: Compiled;
  /** The view kept of that fold, when the one kept is (its key holds for the log as read). */
  view?: KernelView;
  /** The packs there were when the log was read. */
  packs: ReadonlySet<string>;
}

/**
 * The import log read for a lane into `scope`, and with `ahead` (read before any record came) its scope's fold
 * compiled:
 * the lane's imports start from it.
 * @throws InvalidFileError for a file that is not an import record (as readImportLog)
 */
export function laneLog(store: Store, scope: string, ahead: boolean): LaneLog {
  // Listed before the log is read: a pack made since is one the lane has not read.
  const packs = new Set(packNames(store));
  const log = readImportLogStamped(store);
  const records = log.map((l) => l.record);
  const kernel = ahead ? readScope(store, scope, { records, episodes: false, entries: false }).kernel : undefined;
  const fold = kernel && compile(kernel);
  if (fold) primeFold(records, scope, fold, undefined, kernel);
  const kept = keptView(store);
  const madeWith = madeWithOf(kept, scope);
  // The view of the fold read, which the lane's new trials then only change (viewExtended).
  const view = fold && madeWith !== undefined ? viewFor(store, kept, log, scope, madeWith) : undefined;
  return { records, read: new Map(log.map((l) => [l.record.batch_id, l])), madeWith, fold, view, packs };
}

/**
 * After the lane's imports: the view of the fold they made, kept in place
 * of the one kept (once the lane's answer is out, or with `now`, now),
 * when one is kept, made with the kernel's defaults, and the lane's last
 * compile is of the fold as its records hold it now. An import the lane
 * wrote is vouched for by the digest of the bytes it wrote. The lane's
 * fold and view are then these: a lane kept open extends them with its
 * next imports.
 */
export function keepLaneView(store: Store, scope: string, lane: LaneLog, now = false): void {
  const compiled = foldCompiled(lane.records, scope);
  // The fold the lane's imports made (none of them changed it: the view kept is as good as any).
  if (!compiled || compiled === lane.fold) return;
  // A view observe made while the lane waited counts too.
  const madeWith = lane.madeWith ?? madeWithOf(keptView(store), scope);
  if (madeWith === undefined) return;
  const log = lane.records.map((record) => {
    let l = lane.read.get(record.batch_id);
    if (!l)
      lane.read.set(
        record.batch_id,
        (l = { record, elided: false, stamp: null, digest: digestOf(canonicalJson(record) + "\n") })
      );
    return l;
  });
  const key = viewKey(log, scope, madeWith);
  if (key === null) return;
  const precision = precisionOf(madeWith)!;
  const extended =
    lane.view && lane.fold && lane.madeWith === madeWith
      ? viewExtended(lane.view, lane.fold, compiled, precision, {})
      : undefined;
  const view = extended ?? viewOf(compiled, precision, {});
  writeKernelView(store, key, view, now);
  lane.fold = compiled;
  lane.view = view;
  lane.madeWith = madeWith;
}

/** What a kept view of `scope` made with the kernel's defaults was made with, or undefined. */
function madeWithOf(kept: KeptView | undefined, scope: string): string | undefined {
  return kept && kept.scope === scope && precisionOf(kept.made_with) !== null ? kept.made_with : undefined;
}

/** The precision of a view made with the kernel's defaults, or null. */
function precisionOf(madeWith: string): number | null {
  try {
    const p = (JSON.parse(madeWith) as { precision_micros?: unknown }).precision_micros;
    return typeof p === "number" && viewConfig(p, {}) === madeWith ? p : null;
  } catch {
    return null;
  }
}
