/**
 * Code trees (spec/loop.md §4): the git tree of the code without the
 * top-level `.forge` entry, so committing forge's own state never splits a
 * check's evidence. The workspace's tree is computed through a temporary
 * index (the real index and the files are never touched).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function gitOut(cwd: string, args: string[], env: NodeJS.ProcessEnv): string | null {
  try {
    return execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 }).trim();
  } catch {
    return null;
  }
}

/** HEAD's commit id, or null outside git or before the first commit. */
export function headSha(cwd: string, env: Record<string, string | undefined>): string | null {
  const out = gitOut(cwd, ["rev-parse", "--verify", "-q", "HEAD"], env as NodeJS.ProcessEnv);
  return out && /^[0-9a-f]{40,64}$/.test(out) ? out : null;
}

/**
 * The code tree of the workspace as it is now (tracked and untracked,
 * not ignored files), or of `commit` when given.
 * @returns the tree id, or null outside git
 */
export function codeTree(cwd: string, env: Record<string, string | undefined>, commit?: string): string | null {
  const tmp = mkdtempSync(join(tmpdir(), "forge-loop-tree-"));
  try {
    const e = { ...env, GIT_INDEX_FILE: join(tmp, "index") } as NodeJS.ProcessEnv;
    const base = commit ?? headSha(cwd, env);
    // The workspace's tree starts from a copy of the real index: its stat cache spares hashing unchanged files
    // (`add -A` then makes the copy match the files, whatever is staged).
    const real = commit ? null : gitOut(cwd, ["rev-parse", "--path-format=absolute", "--git-path", "index"], env as NodeJS.ProcessEnv);
    if (real && existsSync(real)) copyFileSync(real, join(tmp, "index"));
    else if (base) {
      if (gitOut(cwd, ["read-tree", base], e) === null) return null;
    } else if (gitOut(cwd, ["read-tree", "--empty"], e) === null) return null;
    if (!commit && gitOut(cwd, ["add", "-A", "--", ".", ":(exclude).forge"], e) === null) return null;
    if (gitOut(cwd, ["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", ".forge"], e) === null) return null;
    const tree = gitOut(cwd, ["write-tree"], e);
    return tree && /^[0-9a-f]{40,64}$/.test(tree) ? tree : null;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
