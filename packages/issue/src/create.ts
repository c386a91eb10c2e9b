import {
  checkDefined,
  createIssue,
  currentAuthor,
  expandMe,
  formatTimestamp,
  ISSUE,
  ISSUES,
  laterId,
  loadEntity,
  recordCreated,
  withKindLock,
  type IssueJson,
} from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { confirm, Issues, issueRender, JSON_FLAGS, jsonRequest, listArg, readBody } from "./_shared.js";

/** Options of `forge-issue create`. */
export interface CreateIssueOptions {
  title: string;
  body: string;
  labels: string[];
  assignees: string[];
  milestone?: string;
}

/** argv → options. */
export function parseCreateOptions(args: Parsed, body: string | undefined): CreateIssueOptions {
  return {
    title: (args.title as string | undefined) ?? "",
    body: body ?? "",
    labels: listArg(args, "label"),
    assignees: listArg(args, "assignee"),
    milestone: args.milestone as string | undefined,
  };
}

/**
 * Create an issue and return it as JSON.
 * @throws UsageError for an empty or multi-line title
 */
export async function createIssues(ctx: Ctx, opts: CreateIssueOptions): Promise<IssueJson> {
  const issues = new Issues(ctx.io);
  const labels = checkDefined(await issues.defs(), opts.labels, opts.milestone);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  // The order as of just before the new folder appears, plus the new issue:
  // the same snapshot a listing right after would give (unless another
  // process creates in between, which a listing could not rule out either).
  // Under the kind's lock, so no other create of this clone slips in between.
  return withKindLock(issues.store, ISSUES, async () => {
    const before = await issues.ranked();
    const now = formatTimestamp();
    const id = createIssue(issues.store, {
      title: opts.title,
      body: opts.body,
      author,
      labels,
      assignees: expandMe(opts.assignees, author),
      milestone: opts.milestone,
      now,
      id: laterId(before, now),
    });
    recordCreated(issues.store, ISSUES, before, { createdAt: now, ref: { id, archived: false } });
    const issue = await loadEntity(issues.store, ISSUES, ISSUE, { id, archived: false });
    return issues.json(issue, before.rankOf(now, id) + 1, false);
  });
}

export default defineCommand({
  meta: {
    name: "create",
    description: "Create an issue",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: [
        'forge-issue create -t "Drain hangs" -b "steps: …" -l bug',
        'forge-issue create -t "Docs" -F body.md -a @me -m v1.2',
        'forge-issue create -t "x" --json number,id',
      ],
    },
  },
  args: {
    title: { type: "string", alias: "t", required: true, description: "title" },
    body: { type: "string", alias: "b", description: "body" },
    "body-file": { type: "string", alias: "F", description: "body from file (- for stdin)" },
    label: { type: "string", alias: "l", multiple: true, description: "add a label (repeatable, or a comma list)" },
    assignee: { type: "string", alias: "a", multiple: true, description: "assign a login (@me: you; repeatable)" },
    milestone: { type: "string", alias: "m", description: "put it in this milestone (by title)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const rec = await createIssues(ctx, parseCreateOptions(args, await readBody(ctx, args)));
    if (req) return void (await emit(ctx.io, ctx.out, [rec], issueRender(args, req, true)));
    // gh: the new issue's URL on stdout (`url=$(gh issue create …)`); the confirmation on stderr.
    confirm(ctx, "Created", rec);
    await ctx.out.write(`${rec.url}\n`);
  },
});
