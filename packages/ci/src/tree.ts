/**
 * A disposable tree to run in: a detached worktree of a commit under the
 * OS temp dir, with a patch applied commit by commit (`git apply --check`
 * first, then `git apply --index`; SEC-05), removed whatever happens. The live
 * checkout is never touched.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ForgeError, git, splitPatchSeries } from "@forge/core";

/**
 * Run `fn` in a fresh worktree of `commit` with `patch` applied.
 * @param top any folder of the repository
 * @param commit a full commit id
 * @param patch `git format-patch` or `git diff` output, or null
 * @throws ForgeError when the worktree cannot be made or the patch does not apply (nothing ran)
 */
export async function withTree<T>(top: string, commit: string, patch: Uint8Array | null, fn: (dir: string) => Promise<T>): Promise<T> {
  const tmp = mkdtempSync(join(tmpdir(), "forge-ci-"));
  const dir = join(tmp, "tree");
  let added = false;
  try {
    let wt = await git(["worktree", "add", "--detach", "--quiet", dir, commit], { cwd: top });
    // Two worktrees added at once can race on git's own files: one retry.
    if (wt.code !== 0) wt = await git(["worktree", "add", "--detach", "--quiet", dir, commit], { cwd: top });
    if (wt.code !== 0) throw new ForgeError(`cannot check out ${commit.slice(0, 12)} in a worktree: ${firstLine(wt.stderr)}`, "E_WORKTREE", 1);
    added = true;
    if (patch && patch.length > 0) {
      const file = join(tmp, "patch.diff");
      writeFileSync(file, patch);
      // One commit of the series at a time, each checked before it is applied.
      for (const part of await splitPatchSeries(file, join(tmp, "parts"), dir)) {
        for (const args of [["apply", "--check", "--index", part], ["apply", "--index", part]]) {
          const r = await git(args, { cwd: dir });
          if (r.code !== 0) throw new ForgeError(`the patch does not apply on ${commit.slice(0, 12)}: ${firstLine(r.stderr)}`, "E_PATCH_FAILED", 1);
        }
      }
    }
    return await fn(dir);
  } finally {
    if (added) await git(["worktree", "remove", "--force", dir], { cwd: top }).catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
    if (added) await git(["worktree", "prune"], { cwd: top }).catch(() => undefined);
  }
}

function firstLine(s: string): string {
  return (s.trim().split("\n")[0] ?? "").slice(0, 200);
}
