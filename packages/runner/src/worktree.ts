/**
 * A worktree kept open across several runs (`openTree`): what an act's
 * trials share, so the steps before a target run once per worktree.
 */
import type { WorktreeOptions } from "@forge/core";
import { withTree } from "./tree.js";

/** A worktree kept open until `close()`. */
export interface OpenTree {
  dir: string;
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
  let closing: Promise<void> | undefined;
  return {
    dir,
    close: () => {
      release();
      closing ??= whole;
      return closing;
    },
  };
}
