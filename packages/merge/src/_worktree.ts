/**
 * A disposable worktree (SEC-05): made detached at a commit under the OS
 * temp dir, hooks off (core's `git()`), removed whatever happens, so the
 * live checkout never sees an unchecked patch.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ForgeError, git } from "@forge/core";

/**
 * Run `fn` in a fresh worktree of `top`'s repository checked out (detached)
 * at `sha`; `tmp` is a scratch folder beside it. Both are removed after.
 * @throws ForgeError when the worktree cannot be made
 */
export async function withWorktree<T>(top: string, sha: string, env: NodeJS.ProcessEnv, fn: (dir: string, tmp: string) => Promise<T>): Promise<T> {
  const tmp = mkdtempSync(join(tmpdir(), "forge-merge-"));
  const dir = join(tmp, "worktree");
  let added = false;
  try {
    const wt = await git(["worktree", "add", "--detach", "--quiet", dir, sha], { cwd: top, env });
    if (wt.code !== 0) throw new ForgeError(`git worktree add failed: ${firstLine(wt.stderr)}`, "E_GIT", 1);
    added = true;
    return await fn(dir, tmp);
  } finally {
    if (added) await git(["worktree", "remove", "--force", dir], { cwd: top, env }).catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
    if (added) await git(["worktree", "prune"], { cwd: top, env }).catch(() => undefined);
  }
}

/** git's first meaningful stderr line, without `fatal:`/`error:`, control characters shown as `?`. */
export function firstLine(s: string): string {
  const line = s.split("\n").map((l) => l.trim()).find((l) => l !== "" && !l.startsWith("hint:")) ?? "no message";
  // eslint-disable-next-line no-control-regex
  return line.replace(/^(?:fatal|error): /, "").slice(0, 200).replace(/[\x00-\x1f\x7f]/g, "?");
}
