import { ConflictError, ForgeError, git, readPatch } from "@forge/core";
import { defineCommand, eachRef, type Batch, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { checkBranch, gitError, hasCommit, withPatchApplied } from "./_git.js";
import { Prs, shown } from "./_shared.js";

/** Options of `forge-pr checkout`. */
export interface CheckoutPrOptions {
  ref: string;
  /** The local branch to make (default: the PR's head branch name). */
  branch?: string;
  /** Reset an existing branch of that name to the PR. */
  force: boolean;
}

/** argv → options. */
export function parseCheckoutOptions(args: Parsed): CheckoutPrOptions {
  return { ref: args.ref as string, branch: args.branch as string | undefined, force: args.force === true };
}

/** What `checkout` did, for one PR. */
export interface CheckedOut {
  number: number;
  branch: string;
  commit: string;
}

/**
 * Make a local branch holding the PR's patch: `git am` of `patch.diff` on
 * `baseSha` in a disposable worktree (so a patch that does not apply
 * changes nothing), then `git checkout -B <branch> <commit>` here. A branch
 * that exists is checked out, as gh does: fast-forwarded to the PR's head
 * commit when it is behind it, left as it is when it holds the PR's tree;
 * never moved otherwise without `force`.
 * @throws ConflictError when the branch exists and has diverged; ForgeError when the base is missing or
 *   the patch does not apply
 */
export async function* checkoutPrs(ctx: Ctx, o: CheckoutPrOptions, batch: Batch): AsyncGenerator<CheckedOut> {
  const prs = new Prs(ctx.io);
  const cwd = ctx.io.cwd;
  yield* eachRef(ctx, o.ref, batch, async (ref) => {
    const { pr, number } = await prs.get(ref);
    const branch = await checkBranch(cwd, o.branch ?? (pr.data.headRefName as string));
    const exists = (await git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { cwd })).code === 0;
    const head = pr.data.headSha as string | undefined;
    if (exists && !o.force && head !== undefined && (await hasCommit(cwd, head))) {
      // gh: `git checkout BRANCH && git merge --ff-only <the PR's head>`.
      const ff = await git(["merge-base", "--is-ancestor", `refs/heads/${branch}`, head], { cwd });
      if (ff.code === 0) return switchTo(ctx, branch, number, pr.data.title as string, head);
    }
    const base = pr.data.baseSha as string | undefined;
    if (!(await hasCommit(cwd, base))) {
      throw new ForgeError(
        `base commit ${(base ?? "(none)").slice(0, 12)} is not in this repository (fetch ` +
          `${pr.data.baseRefName as string})`,
        "E_NO_BASE",
        1
      );
    }
    const patch = readPatch(prs.store, pr);
    const commit = await withPatchApplied(
      cwd,
      ctx.io.env as NodeJS.ProcessEnv,
      base!,
      patch,
      true,
      async (_dir, head) => head
    );
    if (exists && !o.force) {
      const same = await git(["diff", "--quiet", `refs/heads/${branch}`, commit, "--"], { cwd });
      if (same.code !== 0) {
        throw new ConflictError(
          `branch '${shown(branch)}' has diverged from pull request #${number} (--force resets it to the PR)`
        );
      }
      return switchTo(ctx, branch, number, pr.data.title as string);
    }
    const r = await git(["checkout", "--quiet", "-B", branch, commit, "--"], { cwd });
    if (r.code !== 0) throw gitError("git checkout", r.stderr);
    ctx.io.stderr.write(`Checked out pull request #${number} (${pr.data.title as string}) on branch ${branch}\n`);
    return { number, branch, commit };
  });
}

/** Check out an existing branch, fast-forwarding it to `to` when given. */
async function switchTo(ctx: Ctx, branch: string, number: number, title: string, to?: string): Promise<CheckedOut> {
  const cwd = ctx.io.cwd;
  // `to` is a descendant of the branch: `-B` moves it forward, as `merge --ff-only` would.
  const argv =
    to === undefined ? ["checkout", "--quiet", branch, "--"] : ["checkout", "--quiet", "-B", branch, to, "--"];
  const r = await git(argv, { cwd });
  if (r.code !== 0) throw gitError("git checkout", r.stderr);
  const commit = (await git(["rev-parse", "HEAD"], { cwd })).stdout.trim();
  ctx.io.stderr.write(`Checked out pull request #${number} (${title}) on branch ${branch}\n`);
  return { number, branch, commit };
}

export default defineCommand({
  meta: {
    name: "checkout",
    description: "Check out a pull request: its patch on its base, as a branch",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      examples: ["forge-pr checkout 4", "forge-pr checkout 4 -b review-4 --force"],
    },
  },
  args: {
    ...REF_ARG,
    branch: { type: "string", alias: "b", description: "local branch name" },
    force: { type: "boolean", alias: "f", description: "reset an existing branch" },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const batch = { failed: 0 };
    for await (const _ of checkoutPrs(ctx, parseCheckoutOptions(args), batch));
    return batch.failed ? 1 : 0;
  },
});
