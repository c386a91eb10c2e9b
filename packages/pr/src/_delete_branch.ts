/**
 * `-d/--delete-branch` of merge and close: delete the PR's local head branch,
 * first switching to the base when it is checked out (gh switches to the
 * default branch; forge to the PR's base). forge has no remote to delete from.
 */
import { ForgeError, git } from "@forge/core";
import { useColor, type Ctx } from "@forge/cli";
import { checkBranch } from "./_git.js";
import { shown } from "./_shared.js";

/**
 * Delete `head` (`git branch -D`), switching to `base` first if on it; a
 * missing branch is skipped without a word, as gh does.
 * @param done gh's confirmation: merge says `Deleted local branch`, close `Deleted branch`
 * @throws ForgeError when the switch to `base` fails
 */
export async function deleteHead(ctx: Ctx, head: string, base: string, done: string): Promise<void> {
  const cwd = ctx.io.cwd;
  await checkBranch(cwd, head);
  if ((await git(["rev-parse", "--verify", "--quiet", `refs/heads/${head}`], { cwd })).code !== 0) return;
  const cur = await git(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd });
  let switched = "";
  if (cur.code === 0 && cur.stdout.trim() === head) {
    const sw = await git(["switch", "--quiet", "--end-of-options", base], { cwd });
    if (sw.code !== 0) throw new ForgeError(`cannot switch to ${shown(base)} to delete ${shown(head)}`, "E_GIT", 1);
    switched = ` and switched to branch ${base}`;
  }
  const d = await git(["branch", "-D", "--end-of-options", head], { cwd });
  if (d.code !== 0) {
    ctx.log.warn(`could not delete local branch ${shown(head)}`);
    return;
  }
  const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
  ctx.io.stderr.write(`${tick}${done} ${shown(head)}${switched}\n`);
}
