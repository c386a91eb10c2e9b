import { ForgeError, isDraftPr, UsageError } from "@forge/core";
import { MERGE_FIELDS } from "@forge/merging/fields";
import { defineCommand, emit, jsonFlags, jsonRequestOf, readBody, type Ctx, type Parsed } from "@forge/cli";
import { deleteHead } from "./_delete_branch.js";
import { confirm, prOrCurrent, Prs, refWithRepo } from "./_shared.js";

/** Options of `forge-pr merge` (gh's flags). */
export interface MergePrOptions {
  ref?: string;
  method: "squash" | "rebase" | "merge";
  deleteBranch: boolean;
  subject?: string;
  body?: string;
}

/**
 * argv → options.
 * @throws UsageError for two methods at once
 */
export async function parseMergeOptions(ctx: Ctx, args: Parsed): Promise<MergePrOptions> {
  const methods = (["squash", "rebase", "merge"] as const).filter((m) => args[m] === true);
  if (methods.length > 1) throw new UsageError("only one of --merge, --rebase, or --squash can be enabled");
  return {
    ref: args.ref as string | undefined,
    method: methods[0] ?? "squash",
    deleteBranch: args["delete-branch"] === true,
    subject: args.subject as string | undefined,
    body: await readBody(ctx, args),
  };
}

/**
 * gh's `pr merge` through forge-merge's ritual (worktree, CI, fast-forward,
 * record). A draft is refused until `pr ready`. With `-d` the local head
 * branch is deleted after the merge (the checkout moves to the base first
 * if it was on the head, as gh does).
 * @returns the merge outcome and the exit code (1 unless merged or already merged)
 */
export async function mergePullRequest(
  ctx: Ctx,
  o: MergePrOptions
): Promise<{ rec: Record<string, unknown>; code: number }> {
  const prs = new Prs(ctx.io);
  const ref = await prOrCurrent(prs, o.ref);
  const { pr, number } = await prs.get(ref);
  if (isDraftPr(pr) && pr.data.state === "open") {
    throw new ForgeError(
      `Pull request #${number} is still a draft; mark it ready first: forge pr ready ${number}`,
      "E_DRAFT",
      1
    );
  }
  const { mergePr, formatMerge, mergeJson } = await import("@forge/merging");
  const r = await mergePr(
    { cwd: ctx.io.cwd, env: ctx.io.env },
    { ref: pr.ref.id, method: o.method, subject: o.subject, body: o.body }
  );
  if (r.verdict === "merged") {
    const verb =
      o.method === "rebase" ? "Rebased and merged" : o.method === "squash" ? "Squashed and merged" : "Merged";
    confirm(ctx, verb, { number, title: pr.data.title as string });
  } else if (r.verdict === "already-merged") ctx.io.stderr.write(`! Pull request #${number} was already merged\n`);
  else ctx.io.stderr.write(`${ctx.prog}: ${formatMerge(r)}\n`);
  const ok = r.verdict === "merged" || r.verdict === "already-merged";
  if (ok && o.deleteBranch)
    await deleteHead(ctx, pr.data.headRefName as string, pr.data.baseRefName as string, "Deleted local branch");
  return { rec: mergeJson(r), code: ok ? 0 : 1 };
}

/** Every `--json` field of a merge outcome (forge-merge's line). */
const FIELDS = MERGE_FIELDS;

export default defineCommand({
  meta: {
    name: "merge",
    description: "Merge a PR (forge-merge's ritual: worktree, CI, fast-forward)",
    help: {
      reads: [
        [".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"],
        [".forge/ci/ci.env, .forge/ci/steps/", "the CI run on the merge commit"],
      ],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: [
        "forge-pr merge 4",
        "forge-pr merge 4 --rebase -d",
        'forge-pr merge --squash --subject "Fix the drain (#4)"',
      ],
    },
  },
  args: {
    ref: {
      type: "positional",
      valueHint: "pr",
      description: "number, id or prefix (default: the current branch's PR)",
    },
    squash: { type: "boolean", alias: "s", description: "land one commit (the default)" },
    rebase: { type: "boolean", alias: "r", description: "land the series' commits as they are" },
    merge: { type: "boolean", alias: "m", description: "land one commit with a merge message" },
    "delete-branch": { type: "boolean", alias: "d", description: "delete the local head branch after" },
    auto: { type: "boolean", description: "merge when ready (forge merges now: CI runs inline)" },
    subject: { type: "string", alias: "t", description: "the commit's subject" },
    body: { type: "string", alias: "b", description: "the commit's body" },
    "body-file": { type: "string", alias: "F", description: "the commit's body from a file (- for stdin)" },
    ...jsonFlags(FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    refWithRepo(args);
    const req = jsonRequestOf(args, FIELDS);
    const { rec, code } = await mergePullRequest(ctx, await parseMergeOptions(ctx, args));
    await emit(ctx.io, ctx.out, req ? [rec] : [], { json: req, jq: args.jq as string | undefined, single: true });
    return code;
  },
});
