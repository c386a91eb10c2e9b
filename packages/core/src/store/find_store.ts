import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
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
    if (isDir(join(dir, ".forge")))
      throw new NotFoundError(
        `FORGE_DIR ${env.FORGE_DIR} is not a forge store but holds one (did you mean ${join(env.FORGE_DIR, ".forge")}?)`
      );
    if (!looksLikeStore(dir))
      throw new NotFoundError(
        `FORGE_DIR ${env.FORGE_DIR} is not a forge store (no issues/, prs/, labels.md …, no forge .gitignore; it ` +
          `names the .forge folder itself)`
      );
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

/** What only a store holds (`forge init` writes `.gitignore` with `ci/runs/`). */
const STORE_ENTRIES = new Set(["issues", "prs", "labels.md", "milestones.md", "merges"]);

/**
 * Whether a folder given as FORGE_DIR can be a store: named `.forge`, or
 * empty (a new store), or holding an entry only a store has, or forge's
 * `.gitignore`. A repository root or a random folder is none of these.
 */
function looksLikeStore(dir: string): boolean {
  if (basename(dir) === ".forge") return true;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return true; // unreadable: let the read that follows say so
  }
  if (names.length === 0 || names.some((n) => STORE_ENTRIES.has(n))) return true;
  try {
    return readFileSync(join(dir, ".gitignore"), "utf8").split("\n").includes("ci/runs/");
  } catch {
    return false;
  }
}
