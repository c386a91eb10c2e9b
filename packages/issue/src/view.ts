import { loadIssueGraph, type IssueGraph, type IssueJson } from "@forge/core";
import {
  defineCommand,
  emitBatch,
  eachRef,
  type Batch,
  type Ctx,
  type Parsed,
  formatFields,
  commentLines,
  REF_ARG,
} from "@forge/cli";
import { Issues, JSON_FLAGS, jsonRequest, wantsComments, wantsLinks, withLinks } from "./_shared.js";

/** Options of `forge-issue view`. */
export interface ViewIssueOptions {
  ref: string;
  withComments: boolean;
  /** Add the link fields (blockedBy, blocking, parent, subIssues, subIssuesSummary). */
  withLinks?: boolean;
}

/** An issue and its comments as text (gh's raw, non-TTY layout). */
export function formatIssue(i: IssueJson, tty: boolean): string {
  const lines = [
    `title:\t${i.title}`,
    `state:\t${i.state}`,
    `author:\t${i.author.login}`,
    `labels:\t${i.labels.map((l) => l.name).join(", ")}`,
    `comments:\t${i.comments?.length ?? 0}`,
    `assignees:\t${i.assignees.map((a) => a.login).join(", ")}`,
    `milestone:\t${i.milestone?.title ?? ""}`,
    `number:\t${i.number}`,
    `id:\t${i.id}`,
    "--",
    i.body,
  ];
  lines.push(...commentLines(i.comments ?? []));
  return formatFields(lines, tty);
}

/**
 * `view --comments` off a TTY, as gh prints it: per comment, oldest first,
 * `author`, `association`, `edited`, `status` lines, then the body between `--` lines.
 */
export function formatComments(i: IssueJson): string {
  return (i.comments ?? [])
    .map((c) => `author:\t${c.author.login}\nassociation:\tnone\nedited:\tfalse\nstatus:\tnone\n--\n${c.body}\n--\n`)
    .join("");
}

/** Load one issue (or each ref on stdin) with its comments. */
export function viewIssues(ctx: Ctx, opts: ViewIssueOptions, batch: Batch): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  let graph: IssueGraph | undefined;
  return eachRef(ctx, opts.ref, batch, async (ref) => {
    const { issue, number } = await issues.get(ref);
    for (const w of issue.warnings) ctx.log.warn(w);
    const json = await issues.json(issue, number, opts.withComments);
    if (!opts.withLinks) return json;
    graph ??= await loadIssueGraph(issues.store, await issues.ranked());
    return withLinks(json, graph, (await issues.defs()).baseUrl);
  });
}

export default defineCommand({
  meta: {
    name: "view",
    description: "Show an issue with its comments",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      examples: [
        "forge-issue view 12",
        "forge-issue view 12 --comments",
        "forge-issue view 12 --json title,body,comments --jq .comments[-1].body",
      ],
    },
  },
  args: {
    ...REF_ARG,
    comments: { type: "boolean", alias: "c", description: "show the comments (gh's layout)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const ref = args.ref as string;
    return emitBatch(
      ctx,
      (batch) =>
        viewIssues(
          ctx,
          { ref, withComments: req ? wantsComments(req, true) : true, withLinks: wantsLinks(req) },
          batch
        ),
      {
        json: req,
        jq: args.jq as string | undefined,
        single: ref !== "-",
        text: args.comments === true ? formatComments : formatIssue,
      }
    );
  },
});
