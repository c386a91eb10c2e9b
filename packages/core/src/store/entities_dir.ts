import { existsSync, lstatSync, opendirSync, realpathSync, type Dir, type Dirent } from "node:fs";
import { join } from "node:path";
import { isUuid } from "../time.js";
import { archiveDir, entityFile, isInside, kindDir, type KindLayout, type Store } from "./store.js";

/** One entity folder found on disk. */
export interface EntityRef {
  /** The folder name: the entity's uuid. */
  readonly id: string;
  /** Under `.forge/archive/<kind>/`. */
  readonly archived: boolean;
  /** Set when the folder is a symlink that leaves `.forge/` (SEC-02): never read. */
  readonly escapes?: true;
}

/**
 * The entity folders of a kind, live and archived, in directory order.
 * Names that are not a uuid (temp folders, dot files) are skipped. A
 * symlinked folder is kept only if it resolves inside the store; otherwise it
 * is returned flagged `escapes` so the loader reports it. The folders are
 * read as a stream (no array of 100,000 directory entries at once).
 * @param onName told every name seen, uuid or not (what a listing saw)
 * @example listEntityRefs(store, ISSUES) // [{id: "…", archived: false}, …]
 */
export function listEntityRefs(
  store: Store,
  kind: KindLayout,
  onName?: (name: string, archived: boolean) => void
): EntityRef[] {
  const out: EntityRef[] = [];
  for (const archived of [false, true]) {
    const dir = archived ? archiveDir(store, kind) : kindDir(store, kind);
    if (!dirInside(store, dir)) continue;
    eachEntry(dir, (e) => {
      onName?.(e.name, archived);
      if (!isUuid(e.name)) return;
      if (e.isDirectory()) out.push({ id: e.name, archived });
      else if (e.isSymbolicLink()) {
        out.push(
          dirInside(store, join(dir, e.name)) ? { id: e.name, archived } : { id: e.name, archived, escapes: true }
        );
      }
    });
  }
  return oneRefPerId(store, kind, out);
}

/**
 * Each entry of a folder, read as a stream; none when it is missing.
 * @throws the filesystem's error, except a missing folder
 */
function eachEntry(dir: string, fn: (e: Dirent) => void): void {
  let d: Dir;
  try {
    d = opendirSync(dir, { bufferSize: 1024 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) fn(e);
  } finally {
    d.closeSync();
  }
}

/**
 * Each name in a kind's folders, without file types (a plain directory
 * read of each, skipping a folder that is a symlink out of the store, as
 * `listEntityRefs` does), streamed: the cheap half of a listing, to check
 * whether anything changed, with no array of 100,000 names.
 * @throws the filesystem's error, except a missing folder
 */
export function eachFolderName(store: Store, kind: KindLayout, fn: (name: string, archived: boolean) => void): void {
  for (const archived of [false, true]) {
    const dir = archived ? archiveDir(store, kind) : kindDir(store, kind);
    if (dirInside(store, dir)) eachEntry(dir, (e) => fn(e.name, archived));
  }
}

/**
 * One ref per id. A merge can leave an id in both places: one clone archived
 * the entity while the other added a comment, so git moved the owning file
 * to the archive and left `comments/<id>.md` in the live folder. Counting
 * both would shift every later number. The folder that holds the owning file
 * wins (the archived one when both do); the live folder's comments are still
 * read (`loadComments`).
 */
function oneRefPerId(store: Store, kind: KindLayout, refs: EntityRef[]): EntityRef[] {
  const archived = new Set(refs.filter((r) => r.archived).map((r) => r.id));
  if (archived.size === 0) return refs;
  const drop = new Set<EntityRef>();
  for (const r of refs) {
    if (r.archived || !archived.has(r.id)) continue;
    const keepLive = existsSync(entityFile(store, kind, r.id)) && !existsSync(entityFile(store, kind, r.id, true));
    drop.add(keepLive ? refs.find((x) => x.archived && x.id === r.id)! : r);
  }
  return drop.size ? refs.filter((r) => !drop.has(r)) : refs;
}

/** A folder that exists, is not a symlink out of the store. */
function dirInside(store: Store, dir: string): boolean {
  try {
    if (!lstatSync(dir).isSymbolicLink()) return true;
    return isInside(store, realpathSync(dir));
  } catch {
    return false;
  }
}
