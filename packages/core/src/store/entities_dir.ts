import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { isUuid } from "../time.js";
import { archiveDir, isInside, kindDir, type KindLayout, type Store } from "./store.js";

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
 * is returned flagged `escapes` so the loader reports it.
 * @example listEntityRefs(store, ISSUES) // [{id: "…", archived: false}, …]
 */
export function listEntityRefs(store: Store, kind: KindLayout): EntityRef[] {
  const out: EntityRef[] = [];
  for (const archived of [false, true]) {
    const dir = archived ? archiveDir(store, kind) : kindDir(store, kind);
    if (!dirInside(store, dir)) continue;
    let ents;
    try {
      ents = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw err;
    }
    for (const e of ents) {
      if (!isUuid(e.name)) continue;
      if (e.isDirectory()) out.push({ id: e.name, archived });
      else if (e.isSymbolicLink()) {
        out.push(dirInside(store, join(dir, e.name)) ? { id: e.name, archived } : { id: e.name, archived, escapes: true });
      }
    }
  }
  return out;
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
