import { addPrComment, currentAuthor, formatTimestamp, withActivity, type PrJson } from "@forge/core";
import {
  defineCommand,
  emitBatch,
  writeEach,
  type Batch,
  type Ctx,
  type Parsed,
  BODY_FLAGS,
  parseCommentOptions,
  REF_ARG,
} from "@forge/cli";
import { JSON_FLAGS, jsonRequest, Prs, wanted, type Want, writtenRender } from "./_shared.js";

/** Add a comment (a new file) to each PR; yield the PRs with their comments. */
export async function* commentPrs(
  ctx: Ctx,
  opts: { ref: string; body: string },
  batch: Batch,
  want: Want
): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  yield* writeEach(ctx, prs, opts.ref, batch, "Commented on", async (pr, number) => {
    const now = formatTimestamp();
    addPrComment(prs.store, pr, { body: opts.body, author, now });
    return prs.json(withActivity(pr, now), number, { ...want, comments: true });
  });
}

export default defineCommand({
  meta: {
    name: "comment",
    description: "Add a comment to pull requests",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: ['forge-pr comment 4 -b "looks good"', "forge-pr comment 4 -F review.md"],
    },
  },
  args: {
    ...REF_ARG,
    ...BODY_FLAGS,
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = await parseCommentOptions(ctx, args);
    return emitBatch(ctx, (batch) => commentPrs(ctx, opts, batch, wanted(req, true)), writtenRender(args, req));
  },
});
