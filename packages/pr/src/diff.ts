import { ForgeError, gitBytes, readPatch, UsageError, type LoadedEntity } from "@forge/core";
import { defineCommand, eachRef, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { gitError, hasCommit, storePath, withoutStore, withPatchApplied } from "./_git.js";
import { Prs } from "./_shared.js";

/** Options of `forge-pr diff`. */
export interface DiffPrOptions {
  ref: string;
  /** Only the names of the changed files. */
  nameOnly: boolean;
  /** The stored patch itself (`patch.diff`), as gh's `--patch`. */
  patch: boolean;
}

/**
 * argv → options.
 * @throws UsageError for --name-only with --patch
 */
export function parseDiffOptions(args: Parsed): DiffPrOptions {
  const o = { ref: args.ref as string, nameOnly: args["name-only"] === true, patch: args.patch === true };
  if (o.nameOnly && o.patch) throw new UsageError("specify only one of --name-only and --patch");
  return o;
}

/** The committer of the throw-away commits `git am` makes to rebuild a diff. */
const SCRATCH_COMMITTER = { GIT_COMMITTER_NAME: "forge", GIT_COMMITTER_EMAIL: "forge@localhost" };

/**
 * A PR's diff, exactly as `git diff <baseSha> <headSha> -- :/ :(exclude,top).forge` prints it. When
 * either commit is not in this repository (a clone without the branch), the
 * head is rebuilt from `patch.diff` with `git am` on `baseSha` in a
 * disposable worktree (its new objects in a temp object store) and the diff
 * is taken there.
 * @throws ForgeError when the base commit is missing or the patch does not apply
 */
export async function prDiff(ctx: Ctx, prs: Prs, pr: LoadedEntity, o: Omit<DiffPrOptions, "ref">): Promise<Buffer> {
  if (o.patch) return readPatch(prs.store, pr);
  const cwd = ctx.io.cwd;
  const base = pr.data.baseSha as string | undefined;
  const head = pr.data.headSha as string | undefined;
  const args = o.nameOnly ? ["diff", "--name-only"] : ["diff"];
  // As the patch: the store (forge's own writes) is left out, whatever the head's commits carry.
  const only = withoutStore(await storePath(cwd, prs.store.real));
  const diff = async (dir: string, to: string, env?: NodeJS.ProcessEnv): Promise<Buffer> => {
    const r = await gitBytes([...args, base!, to, ...only], { cwd: dir, env });
    if (r.code !== 0) throw gitError("git diff", r.stderr);
    return r.stdout;
  };
  if (!(await hasCommit(cwd, base))) {
    throw new ForgeError(
      `base commit ${(base ?? "(none)").slice(0, 12)} is not in this repository (fetch ` +
        `${pr.data.baseRefName as string})`,
      "E_NO_BASE",
      1
    );
  }
  if (await hasCommit(cwd, head)) return diff(cwd, head!);
  const patch = readPatch(prs.store, pr);
  // keep = false: the rebuilt commits live in a temp object store, so diff writes nothing to the repository.
  return withPatchApplied(cwd, { ...ctx.io.env, ...SCRATCH_COMMITTER }, base!, patch, false, (dir, rebuilt, env) =>
    diff(dir, rebuilt, env)
  );
}

export default defineCommand({
  meta: {
    name: "diff",
    description: "Show a pull request's diff (base..head)",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      examples: ["forge-pr diff 4", "forge-pr diff 4 --name-only", "forge-pr diff 4 --patch > 4.patch"],
    },
  },
  args: {
    ...REF_ARG,
    "name-only": { type: "boolean", description: "print only the names of the changed files" },
    patch: { type: "boolean", description: "print the stored patch (patch.diff) itself" },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const o = parseDiffOptions(args);
    const prs = new Prs(ctx.io);
    const batch = { failed: 0 };
    const diffs = eachRef(ctx, o.ref, batch, async (ref) => {
      const { pr } = await prs.get(ref);
      return prDiff(ctx, prs, pr, o);
    });
    for await (const d of diffs) {
      if (ctx.out.closed) break;
      await ctx.out.writeBytes(d);
    }
    return batch.failed ? 1 : 0;
  },
});
