import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { NotFoundError } from "../errors.js";

/** Options for `findStore`. */
export interface FindStoreOptions {
  /** Start here (default: the working directory). */
  cwd?: string;
  /** The environment (default: `process.env`); `FORGE_DIR` overrides the walk. */
  env?: Record<string, string | undefined>;
}

/**
 * Find the `.forge/` folder: `FORGE_DIR` if set, else walk up from `cwd`
 * like git does.
 * @returns the absolute path of the `.forge` folder
 * @throws NotFoundError when there is none
 * @example findStore({ env: { FORGE_DIR: "/r/.forge" } }) // "/r/.forge" (if it exists)
 */
export function findStore(opts: FindStoreOptions = {}): string {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  if (env.FORGE_DIR) {
    const dir = resolve(cwd, env.FORGE_DIR);
    if (!isDir(dir)) throw new NotFoundError(`FORGE_DIR ${env.FORGE_DIR} is not a folder`);
    return dir;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const cand = join(dir, ".forge");
    if (isDir(cand)) return cand;
    if (dirname(dir) === dir) break;
  }
  throw new NotFoundError("not in a forge store (no .forge/ here or above; run 'forge init')");
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
