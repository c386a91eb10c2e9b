import { addComment, currentAuthor, formatTimestamp, withActivity, type IssueJson } from "@forge/core";
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
import { Issues, JSON_FLAGS, jsonRequest, writtenRender } from "./_shared.js";

/** Add a comment (a new file) to each issue; yield the issues with their comments. */
export async function* commentIssues(
  ctx: Ctx,
  opts: { ref: string; body: string },
  batch: Batch
): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  yield* writeEach(ctx, issues, opts.ref, batch, "Commented on", async (issue, number) => {
    const now = formatTimestamp();
    addComment(issues.store, issue, { body: opts.body, author, now });
    return issues.json(withActivity(issue, now), number, true);
  });
}

export default defineCommand({
  meta: {
    name: "comment",
    description: "Add a comment to issues",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: [
        'forge-issue comment 12 -b "seen it too"',
        "forge-issue comment 12 -F notes.md",
        'forge-issue list -l stale --json | forge-issue comment - -b "still wanted?"',
      ],
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
    return emitBatch(ctx, (batch) => commentIssues(ctx, opts, batch), writtenRender(args, req));
  },
});
