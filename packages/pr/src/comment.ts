import { addPrComment, currentAuthor, formatTimestamp, UsageError, type PrJson } from "@forge/core";
import { defineCommand, emitBatch, eachRef, type Batch, type Ctx, type Parsed } from "@forge/cli";
import { confirm, JSON_FLAGS, jsonRequest, Prs, readBody, wanted, type Want, writtenRender } from "./_shared.js";

/** Options of `forge-pr comment`. */
export interface CommentPrOptions {
  ref: string;
  body: string;
}

/**
 * argv → options.
 * @throws UsageError without a body
 */
export async function parseCommentOptions(ctx: Ctx, args: Parsed): Promise<CommentPrOptions> {
  const ref = args.ref as string;
  const body = await readBody(ctx, args, ref === "-");
  if (body === undefined) throw new UsageError("a comment needs --body or --body-file");
  return { ref, body };
}

/** Add a comment (a new file) to each PR; yield the PRs with their comments. */
export async function* commentPrs(ctx: Ctx, opts: CommentPrOptions, batch: Batch, want: Want): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  yield* eachRef(ctx, opts.ref, batch, async (ref) => {
    const { pr, number } = await prs.get(ref);
    addPrComment(prs.store, pr, { body: opts.body, author, now: formatTimestamp() });
    const rec = await prs.json(pr, number, { ...want, comments: true });
    confirm(ctx, "Commented on", rec);
    return rec;
  });
}

export default defineCommand({
  meta: { name: "comment", description: "Add a comment to pull requests" },
  args: {
    ref: { type: "positional", required: true, valueHint: "ref|-" },
    body: { type: "string", alias: "b" },
    "body-file": { type: "string", alias: "F" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = await parseCommentOptions(ctx, args);
    return emitBatch(ctx, (batch) => commentPrs(ctx, opts, batch, wanted(req, true)), writtenRender(args, req));
  },
});
