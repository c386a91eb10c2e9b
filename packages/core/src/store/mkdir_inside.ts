import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { relative, sep } from "node:path";
import { InvalidFileError } from "../errors.js";
import { displayPath, isInside, type Store } from "./store.js";

/**
 * Make the folder `dir` under the store (and its missing parents) one
 * component at a time, refusing to go through anything that leaves the
 * store (SEC-02): every existing component must be a folder, or a symlink
 * whose target is a folder inside `.forge/`, and `dir` itself must resolve
 * inside `within` (a realpath; the store by default). `mkdir -p` would
 * follow a symlink anywhere.
 * @param store the store
 * @param dir an absolute folder path under `store.dir`
 * @param within the realpath `dir` must end up inside
 * @returns the realpath of `dir`
 * @throws InvalidFileError naming the offending component
 * @example mkdirInside(store, wikiDir(store) + "/docs", realWiki)
 */
export function mkdirInside(store: Store, dir: string, within: string = store.real): string {
  const rel = relative(store.dir, dir);
  if (rel.startsWith("..") || rel.startsWith(sep))
    throw new InvalidFileError(displayPath(store, dir), "not under .forge/ (refused)");
  let cur = store.dir;
  for (const seg of rel === "" ? [] : rel.split(sep)) {
    cur = cur + sep + seg;
    let st = lstatOrNull(cur);
    if (!st) {
      try {
        mkdirSync(cur);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      st = lstatSync(cur);
    }
    if (st.isSymbolicLink()) {
      let real: string;
      try {
        real = realpathSync(cur);
      } catch {
        throw new InvalidFileError(displayPath(store, cur), "dangling symlink (refused)");
      }
      if (!isInside(store, real))
        throw new InvalidFileError(displayPath(store, cur), "symlink points outside .forge/ (refused)");
      if (!lstatSync(real).isDirectory()) throw new InvalidFileError(displayPath(store, cur), "not a folder");
    } else if (!st.isDirectory()) {
      throw new InvalidFileError(displayPath(store, cur), "not a folder");
    }
  }
  const real = realpathSync(dir);
  if (real !== within && !real.startsWith(within + sep))
    throw new InvalidFileError(displayPath(store, dir), "resolves outside its folder (refused)");
  return real;
}

function lstatOrNull(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
