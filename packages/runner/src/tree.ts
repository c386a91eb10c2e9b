/**
 * The tree a run happens in: core's disposable worktree of a commit, with a
 * patch applied commit by commit (`git apply --check` first, then
 * `git apply --index`; SEC-05), and its submodules initialised from the
 * main clone's objects (submodules.ts). The live checkout is never touched.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ForgeError, git, gitMessage, splitPatchSeries, withWorktree, type WorktreeOptions } from "@forge/core";
import { initSubmodules } from "./submodules.js";

/**
 * Run `fn` in a fresh worktree of `commit` with `patch` applied.
 * @param top any folder of the repository
 * @param commit a full commit id
 * @param patch `git format-patch` or `git diff` output, or null
 * @param opts `mark`: called with the scratch folder before the worktree is added
 * @throws ForgeError when the worktree cannot be made or the patch does not apply (nothing ran)
 */
export function withTree<T>(
  top: string,
  commit: string,
  patch: Uint8Array | null,
  fn: (dir: string) => Promise<T>,
  opts: WorktreeOptions = {}
): Promise<T> {
  return withWorktree(
    top,
    commit,
    undefined,
    async (dir, tmp) => {
      if (patch && patch.length > 0) {
        const file = join(tmp, "patch.diff");
        writeFileSync(file, patch);
        for (const part of await splitPatchSeries(file, join(tmp, "parts"), dir)) {
          for (const args of [
            ["apply", "--check", "--index", part],
            ["apply", "--index", part],
          ]) {
            const r = await git(args, { cwd: dir });
            if (r.code !== 0) {
              const why = gitMessage(r.stderr);
              throw new ForgeError(`the patch does not apply on ${commit.slice(0, 12)}: ${why}`, "E_PATCH_FAILED", 1);
            }
          }
        }
      }
      await initSubmodules(dir);
      return fn(dir);
    },
    opts
  );
}
