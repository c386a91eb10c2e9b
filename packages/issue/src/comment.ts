
import { addComment, currentAuthor, formatTimestamp, UsageError, type IssueJson } from "@forge/core";
import { defineCommand, emitBatch, eachRef, type Batch, type Ctx, type Parsed } from "@forge/cli";
import { confirm, Issues, JSON_FLAGS, jsonRequest, readBody, writtenRender } from "./_shared.js";

/** Options of `forge-issue comment`. */
export interface CommentIssueOptions {
  ref: string;
  body: string;
}

/**
 * argv → options.
 * @throws UsageError without a body
 */
export async function parseCommentOptions(ctx: Ctx, args: Parsed): Promise<CommentIssueOptions> {
  const ref = args.ref as string;
  const body = await readBody(ctx, args, ref === "-");
  if (body === undefined) throw new UsageError("a comment needs --body or --body-file");
  return { ref, body };
}

/** Add a comment (a new file) to each issue; yield the issues with their comments. */
export async function* commentIssues(ctx: Ctx, opts: CommentIssueOptions, batch: Batch): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  yield* eachRef(ctx, opts.ref, batch, async (ref) => {
    const { issue, number } = await issues.get(ref);
    addComment(issues.store, issue, { body: opts.body, author, now: formatTimestamp() });
    const rec = await issues.json(issue, number, true);
    confirm(ctx, "Commented on", rec);
    return rec;
  });
}

export default defineCommand({
  meta: { name: "comment", description: "Add a comment to issues" },
  args: {
    ref: { type: "positional", required: true, valueHint: "ref|-" },
    body: { type: "string", alias: "b" },
    "body-file": { type: "string", alias: "F" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = await parseCommentOptions(ctx, args);
    return emitBatch(ctx, (batch) => commentIssues(ctx, opts, batch), writtenRender(args, req));
  },
});
