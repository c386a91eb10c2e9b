/**
 * A worktree kept open across several runs (`openTree`): what an act's
 * trials share, so the steps before a target run once per worktree, and
 * what a paired experiment's side reuses, reset between its trials.
 */
import { existsSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ForgeError, git, gitMessage, type WorktreeOptions } from "@forge/core";
import { withTree } from "./tree.js";

/** How deep `reset` follows submodules of submodules (as submodules.ts initialises them). */
const MAX_RESET_DEPTH = 8;

/** A worktree kept open until `close()`. */
export interface OpenTree {
  dir: string;
  /** The commit it was made of. */
  commit: string;
  /** The tree it was made with (the commit's, the patch staged): what `reset` puts back. */
  tree: string;
  /**
   * Put the worktree back as `openTree` made it (the commit, the patch staged, its submodules at their commits):
   * HEAD, index and files reset, every untracked and ignored file removed (`git clean -ffdx`), in each submodule
   * too. Only this worktree is touched.
   * @throws ForgeError (E_WORKTREE) when git cannot
   */
  reset(): Promise<void>;
  /** Remove the worktree and its scratch folder (once; later calls wait for the first). */
  close(): Promise<void>;
}

/**
 * A disposable worktree of `commit` with `patch` applied, kept until
 * `close()` (withTree's, held open: the same checkout, patch and clean-up).
 * @throws ForgeError when the worktree cannot be made or the patch does not apply
 */
export async function openTree(
  top: string,
  commit: string,
  patch: Uint8Array | null,
  opts: WorktreeOptions = {}
): Promise<OpenTree> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let ready!: (dir: string) => void;
  const got = new Promise<string>((r) => (ready = r));
  const whole = withTree(
    top,
    commit,
    patch,
    async (dir) => {
      ready(dir);
      await released;
    },
    opts
  );
  const dir = await Promise.race([got, whole.then(() => "")]);
  // The tree as made: the commit's with the patch staged (`git apply --index`), what a reset puts back.
  const made = await git(["write-tree"], { cwd: dir });
  const tree = made.stdout.trim();
  let closing: Promise<void> | undefined;
  return {
    dir,
    commit,
    tree,
    reset: async () => {
      if (made.code !== 0 || tree === "") throw resetError(commit, gitMessage(made.stderr));
      await resetRepo(dir, commit, tree, commit, 0);
    },
    close: () => {
      release();
      closing ??= whole;
      return closing;
    },
  };
}

/**
 * A worktree another process made with `openTree` and kept (kept_trees.ts), taken over: `close()` removes it
 * and its scratch folder (the worktree's parent, `forge-*`).
 */
export function adoptTree(top: string, dir: string, commit: string, tree: string): OpenTree {
  let closing: Promise<void> | undefined;
  return {
    dir,
    commit,
    tree,
    reset: () => resetRepo(dir, commit, tree, commit, 0),
    close: () => (closing ??= removeTree(top, dir)),
  };
}

/** Remove a worktree `openTree` made (as withWorktree removes it): the worktree, its scratch folder, git's record. */
export async function removeTree(top: string, dir: string): Promise<void> {
  await git(["worktree", "remove", "--force", "--force", dir], { cwd: top }).catch(() => undefined);
  const tmp = dirname(dir);
  if (basename(tmp) === basename(dir) && basename(tmp).startsWith("forge-"))
    rmSync(tmp, { recursive: true, force: true });
  await git(["worktree", "prune"], { cwd: top }).catch(() => undefined);
}

function resetError(commit: string, why: string): ForgeError {
  return new ForgeError(`cannot reset the worktree of ${commit.slice(0, 12)}: ${why}`, "E_WORKTREE", 1);
}

/** HEAD at `commit`, index and files at `tree`, nothing untracked; then each checked-out submodule at its commit. */
async function resetRepo(dir: string, commit: string, tree: string, named: string, depth: number): Promise<void> {
  for (const args of [
    // Detached first: a branch a step checked out here is left where it is (it is the main clone's).
    ["checkout", "--quiet", "--force", "--detach", commit],
    ["read-tree", "--reset", "-u", tree],
    ["clean", "-ffdxq"],
  ]) {
    const r = await git(args, { cwd: dir });
    if (r.code !== 0) throw resetError(named, gitMessage(r.stderr));
  }
  if (depth >= MAX_RESET_DEPTH || !existsSync(join(dir, ".gitmodules"))) return;
  const staged = await git(["ls-files", "-z", "--stage"], { cwd: dir });
  if (staged.code !== 0) throw resetError(named, gitMessage(staged.stderr));
  for (const entry of staged.stdout.split("\0")) {
    // `<mode> <object> <stage>\t<path>`: a gitlink (160000) is a submodule, reset when it is checked out here.
    const m = /^160000 ([0-9a-f]+) \d\t(.+)$/s.exec(entry);
    if (!m || !existsSync(join(dir, m[2]!, ".git"))) continue;
    await resetRepo(join(dir, m[2]!), m[1]!, `${m[1]!}^{tree}`, named, depth + 1);
  }
}
