import { archiveIssue, type IssueJson } from "@forge/core";
import { defineCommand, emitBatch, writeEach, type Batch, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { Issues, JSON_FLAGS, jsonRequest, writtenRender } from "./_shared.js";

/**
 * Move each issue's folder to `.forge/archive/issues/`. Nothing is deleted
 * and no number changes (archived issues stay in the order).
 */
export async function* archiveIssues(ctx: Ctx, ref: string, batch: Batch): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  yield* writeEach(ctx, issues, ref, batch, "Archived", (issue, number) =>
    issues.json(archiveIssue(issues.store, issue), number, false)
  );
}

export default defineCommand({
  meta: {
    name: "archive",
    description: "Archive issues (moved, never deleted)",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      examples: ["forge-issue archive 12", "forge-issue list -s closed --json | forge-issue archive -"],
    },
  },
  args: {
    ...REF_ARG,
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    return emitBatch(ctx, (batch) => archiveIssues(ctx, args.ref as string, batch), writtenRender(args, req));
  },
});
