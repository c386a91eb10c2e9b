import {
  checkDefined,
  currentAuthor,
  editList,
  expandMe,
  formatTimestamp,
  ISSUES,
  loadIssueGraph,
  recordEdit,
  UsageError,
  updateIssue,
  type IssueJson,
} from "@forge/core";
import {
  defineCommand,
  writeEach,
  emitBatch,
  type Batch,
  type Ctx,
  type Parsed,
  BODY_FLAGS,
  REF_ARG,
} from "@forge/cli";
import { Issues, JSON_FLAGS, jsonRequest, listArg, readBody, wantsLinks, withLinks, writtenRender } from "./_shared.js";
import { applyLinkEdit, hasLinkEdit, type LinkEdit } from "./_links.js";

/** Options of `forge-issue edit`. */
export interface EditIssueOptions {
  ref: string;
  title?: string;
  body?: string;
  addLabels: string[];
  removeLabels: string[];
  addAssignees: string[];
  removeAssignees: string[];
  milestone?: string;
  removeMilestone: boolean;
  /** Dependencies and the parent (spec/schema.md "Dependencies"). */
  links: LinkEdit;
  /** Add the link fields to --json output. */
  jsonLinks?: boolean;
}

/**
 * argv → options.
 * @throws UsageError when nothing would change or flags clash
 */
export async function parseEditOptions(ctx: Ctx, args: Parsed): Promise<EditIssueOptions> {
  const ref = args.ref as string;
  const o: EditIssueOptions = {
    ref,
    title: args.title as string | undefined,
    body: await readBody(ctx, args, ref === "-"),
    addLabels: listArg(args, "add-label"),
    removeLabels: listArg(args, "remove-label"),
    addAssignees: listArg(args, "add-assignee"),
    removeAssignees: listArg(args, "remove-assignee"),
    milestone: args.milestone as string | undefined,
    removeMilestone: args["remove-milestone"] === true,
    links: {
      addBlockedBy: listArg(args, "add-blocked-by"),
      removeBlockedBy: listArg(args, "remove-blocked-by"),
      addBlocking: listArg(args, "add-blocking"),
      removeBlocking: listArg(args, "remove-blocking"),
      setParent: (args["set-parent"] ?? args.parent) as string | undefined,
      removeParent: args["remove-parent"] === true,
      addSubIssues: listArg(args, "add-sub-issue"),
      removeSubIssues: listArg(args, "remove-sub-issue"),
    },
  };
  if (o.milestone !== undefined && o.removeMilestone)
    throw new UsageError("specify only one of --milestone and --remove-milestone");
  if (args["set-parent"] !== undefined && args.parent !== undefined)
    throw new UsageError("specify only one of --set-parent and --parent");
  if (o.links.setParent !== undefined && o.links.removeParent)
    throw new UsageError("specify only one of --set-parent and --remove-parent");
  if (o.links.setParent === "") throw new UsageError("--set-parent needs an issue");
  const changes =
    [o.title, o.body, o.milestone].filter((x) => x !== undefined).length +
    o.addLabels.length +
    o.removeLabels.length +
    o.addAssignees.length +
    o.removeAssignees.length +
    (o.removeMilestone ? 1 : 0) +
    (hasLinkEdit(o.links) ? 1 : 0);
  if (changes === 0) throw new UsageError("nothing to edit");
  return o;
}

/** Apply the edit to each issue; only the owning file's changed lines move. */
export async function* editIssues(ctx: Ctx, o: EditIssueOptions, batch: Batch): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  // Who edits (an edit record names them) and what @me means.
  const me = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const add = checkDefined(await issues.defs(), o.addLabels, o.milestone);
  yield* writeEach(ctx, issues, o.ref, batch, "Edited", async (issue, number) => {
    // The links first: a refused cycle leaves every other field as it was too.
    const linked = hasLinkEdit(o.links) ? await applyLinkEdit(issues, issue, o.links) : undefined;
    if (linked) issue = linked.issue;
    const updated = updateIssue(issue, (d) => {
      if (o.title !== undefined) d.title = o.title;
      d.labels = editList(d.labels as string[], add, o.removeLabels);
      d.assignees = editList(d.assignees as string[], expandMe(o.addAssignees, me), expandMe(o.removeAssignees, me));
      if (o.milestone !== undefined) d.milestone = o.milestone;
      if (o.removeMilestone) delete d.milestone;
      return { body: o.body };
    });
    // The edit moves updatedAt through a record of its own, not a line of issue.md (spec/schema.md "updatedAt").
    recordEdit(issues.store, ISSUES, updated, { author: me, now: formatTimestamp(), fields: editedFields(o) });
    const json = await issues.json(updated, number, false);
    if (!o.jsonLinks) return json;
    const g = linked?.graph ?? (await loadIssueGraph(issues.store, await issues.ranked()));
    return withLinks(json, g, (await issues.defs()).baseUrl);
  });
}

/** The `--json` names of the fields an edit changes. */
function editedFields(o: EditIssueOptions): string[] {
  const out: string[] = [];
  if (o.title !== undefined) out.push("title");
  if (o.body !== undefined) out.push("body");
  if (o.addLabels.length + o.removeLabels.length > 0) out.push("labels");
  if (o.addAssignees.length + o.removeAssignees.length > 0) out.push("assignees");
  if (o.milestone !== undefined || o.removeMilestone) out.push("milestone");
  const l = o.links;
  if (l.addBlockedBy.length + l.removeBlockedBy.length + l.addBlocking.length + l.removeBlocking.length > 0)
    out.push("blockedBy");
  if (l.setParent !== undefined || l.removeParent) out.push("parent");
  return out;
}

export default defineCommand({
  meta: {
    name: "edit",
    description: "Edit issues",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: [
        "forge-issue edit 12 --add-label bug --remove-label triage",
        'forge-issue edit 12 -t "A better title" -m v1.2',
        "forge-issue list -l triage --json | forge-issue edit - --add-assignee @me",
        "forge-issue edit 12 --add-blocked-by 7,9 --set-parent 3",
        "forge-issue edit 3 --add-sub-issue 12,13",
      ],
    },
  },
  args: {
    ...REF_ARG,
    title: { type: "string", alias: "t", description: "the new title" },
    ...BODY_FLAGS,
    "add-label": { type: "string", multiple: true, description: "add labels (repeatable, or a comma list)" },
    "remove-label": { type: "string", multiple: true, description: "remove labels" },
    "add-assignee": { type: "string", multiple: true, description: "add assignees (@me: you)" },
    "remove-assignee": { type: "string", multiple: true, description: "remove assignees" },
    milestone: { type: "string", alias: "m", description: "move it to this milestone (by title)" },
    "remove-milestone": { type: "boolean", description: "take it out of its milestone" },
    "add-blocked-by": { type: "string", multiple: true, description: "issues that block this one (a comma list)" },
    "remove-blocked-by": { type: "string", multiple: true, description: "issues that no longer block it" },
    "add-blocking": { type: "string", multiple: true, description: "issues this one blocks" },
    "remove-blocking": { type: "string", multiple: true, description: "issues it no longer blocks" },
    "set-parent": { type: "string", description: "make it a sub-issue of this issue (replacing its parent)" },
    parent: { type: "string", description: "the same as --set-parent (gh create's name)" },
    "remove-parent": { type: "boolean", description: "make it a top-level issue again" },
    "add-sub-issue": { type: "string", multiple: true, description: "make these issues its sub-issues (a comma list)" },
    "remove-sub-issue": { type: "string", multiple: true, description: "make these sub-issues top-level again" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = await parseEditOptions(ctx, args);
    opts.jsonLinks = wantsLinks(req);
    return emitBatch(ctx, (batch) => editIssues(ctx, opts, batch), writtenRender(args, req));
  },
});
