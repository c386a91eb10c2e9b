/**
 * Where git finds the repository from a folder, in the plain case only:
 * the first `.git` folder up the physical path. Readers that answer from
 * the repository's files instead of running git (origin_cache.ts,
 * git_head.ts) start here, and leave git anything this cannot follow: a
 * `GIT_*` variable that moves where git looks (`GIT_DIR`, `GIT_CONFIG_*`,
 * …), a `.git` that is a file (a linked worktree, a submodule), a bare
 * repository (or a `HEAD`) on the way up, a folder on another filesystem.
 */
import { lstatSync, realpathSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";

/** A repository found the way git finds it. */
export interface FoundGitDir {
  /** The folder asked about, as its physical path. */
  cwd: string;
  /** Its `.git` folder. */
  gitDir: string;
  /** Whether this user owns the `.git` folder and the folder holding it (else git's safe.directory decides). */
  owned: boolean;
}

/** The variables that change which repository git finds or which config it reads. */
export const GIT_MOVES = /^GIT_(DIR|WORK_TREE|COMMON_DIR|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|CONFIG.*)$/;

/**
 * The repository git finds from `cwd`, or undefined where only git can tell (see the module's note).
 * @example findGitDir(process.cwd())?.gitDir // "/src/app/.git"
 */
export function findGitDir(cwd: string, env: NodeJS.ProcessEnv = process.env): FoundGitDir | undefined {
  for (const k of Object.keys(env)) if (GIT_MOVES.test(k)) return undefined;
  let dir: string;
  try {
    dir = realpathSync.native(cwd);
  } catch {
    return undefined;
  }
  const start = dir;
  let dev: number | undefined;
  for (;;) {
    const here = lstat(dir);
    if (here === undefined || !here.isDirectory() || (dev !== undefined && here.dev !== dev)) return undefined;
    dev = here.dev;
    const dotGit = lstat(join(dir, ".git"));
    if (dotGit !== undefined) {
      if (!dotGit.isDirectory()) return undefined;
      const uid = process.getuid?.();
      return { cwd: start, gitDir: join(dir, ".git"), owned: here.uid === uid && dotGit.uid === uid };
    }
    // A bare repository (or a .git folder itself) on the way up: git would take it.
    if (lstat(join(dir, "HEAD")) !== undefined) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function lstat(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
