/**
 * The live checkout and the base branch: is it safe to advance, and how.
 * "Clean" means: no staged or unstaged change to a tracked file outside the
 * store (`.forge/` is edited in place by every forge command, so its
 * changes do not count; untracked files do not count either, and git still
 * refuses to overwrite one).
 */
import { realpathSync } from "node:fs";
import { relative } from "node:path";
import { ConflictError, ForgeError, git, gitMessage, type Store } from "@forge/core";

/** Where the live checkout stands relative to the base branch. */
export interface Live {
  /** HEAD is the base branch. */
  onBase: boolean;
}

/**
 * Check the live checkout before any work: when HEAD is the base branch it
 * must be clean; no other worktree may have the base checked out (moving
 * its ref would make that worktree show the merge reverted).
 * @throws ConflictError saying what to do; nothing has been changed
 */
export async function checkLive(top: string, store: Store, base: string, env: NodeJS.ProcessEnv): Promise<Live> {
  const head = await git(["symbolic-ref", "--quiet", "HEAD"], { cwd: top, env });
  const onBase = head.code === 0 && head.stdout.trim() === `refs/heads/${base}`;
  const list = await git(["worktree", "list", "--porcelain"], { cwd: top, env });
  if (list.code === 0) {
    const me = realpathSync(top);
    for (const block of list.stdout.split("\n\n")) {
      const path = /^worktree (.+)$/m.exec(block)?.[1];
      const branch = /^branch (.+)$/m.exec(block)?.[1];
      if (!path || branch !== `refs/heads/${base}`) continue;
      let real = path;
      try {
        real = realpathSync(path);
      } catch {
        continue; // a stale entry: git prunes it
      }
      if (real !== me) {
        const then = "check out another branch there first (nothing was done)";
        throw new ConflictError(`${base} is checked out in another worktree; ${then}`);
      }
    }
  }
  if (onBase && (await dirtyOutsideStore(top, store, env)).length > 0) {
    const then = "commit or stash them, or check out another branch (nothing was done)";
    throw new ConflictError(`the checkout is on ${base} with uncommitted changes outside .forge/; ${then}`);
  }
  return { onBase };
}

/**
 * Move the base from `old` to `next` (a fast-forward). On the base, the
 * working tree is updated with `git merge --ff-only` (hooks off); else only
 * the ref moves, with a compare-and-swap on `old`.
 * @returns "updated" or "ref-only"
 * @throws ConflictError when the base moved meanwhile or git refuses (the base is then unchanged)
 */
export async function advanceBase(
  top: string,
  base: string,
  old: string,
  next: string,
  live: Live,
  message: string,
  env: NodeJS.ProcessEnv
): Promise<"updated" | "ref-only"> {
  const ref = `refs/heads/${base}`;
  const again = "nothing was merged, run forge-merge again";
  if (live.onBase) {
    const now = await git(["rev-parse", "--verify", "--quiet", ref], { cwd: top, env });
    if (now.stdout.trim() !== old) {
      throw new ConflictError(`${base} moved while merging (now ${now.stdout.trim().slice(0, 12)}); ${again}`);
    }
    const m = await git(["merge", "--ff-only", "--no-verify", "--quiet", next], {
      cwd: top,
      env: { ...env, GIT_REFLOG_ACTION: message },
    });
    if (m.code !== 0) {
      throw new ConflictError(`cannot update the checkout of ${base}: ${gitMessage(m.stderr)}; nothing was merged`);
    }
    return "updated";
  }
  const u = await git(["update-ref", "-m", message, ref, next, old], { cwd: top, env });
  if (u.code !== 0) throw new ConflictError(`${base} moved while merging: ${gitMessage(u.stderr)}; ${again}`);
  return "ref-only";
}

/** Tracked files changed (staged or not) outside the store. */
async function dirtyOutsideStore(top: string, store: Store, env: NodeJS.ProcessEnv): Promise<string[]> {
  const rel = relative(realpathSync(top), store.real);
  const spec = rel === "" || rel.startsWith("..") ? ["."] : [".", `:(exclude,top)${rel}`];
  const status = ["status", "--porcelain=v1", "-z", "--untracked-files=no", "--ignore-submodules=all", "--", ...spec];
  const r = await git(status, { cwd: top, env });
  if (r.code !== 0) throw new ForgeError(`git status failed: ${gitMessage(r.stderr)}`, "E_GIT", 1);
  return r.stdout.split("\0").filter((x) => x !== "");
}
