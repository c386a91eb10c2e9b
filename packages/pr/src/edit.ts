import {
  checkDefined,
  checkTitle,
  currentAuthor,
  editList,
  expandMe,
  formatTimestamp,
  PR,
  PRS,
  recordEdit,
  storedBody,
  UsageError,
  updateEntity,
  type PrJson,
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
import { closingNumbers } from "./_closes.js";
import { checkBranch } from "./_git.js";
import { JSON_FLAGS, jsonRequest, listArg, Prs, readBody, wanted, type Want, writtenRender } from "./_shared.js";

/** Options of `forge-pr edit`. */
export interface EditPrOptions {
  ref: string;
  title?: string;
  body?: string;
  /** A new base branch; the patch is remade against it by `update`. */
  base?: string;
  addLabels: string[];
  removeLabels: string[];
  addAssignees: string[];
  removeAssignees: string[];
  milestone?: string;
  removeMilestone: boolean;
}

/**
 * argv → options.
 * @throws UsageError when nothing would change, flags clash, or the title or base is bad
 */
export async function parseEditOptions(ctx: Ctx, args: Parsed): Promise<EditPrOptions> {
  const ref = args.ref as string;
  const base = args.base as string | undefined;
  const o: EditPrOptions = {
    ref,
    title: args.title as string | undefined,
    body: await readBody(ctx, args, ref === "-"),
    base: base === undefined ? undefined : await checkBranch(ctx.io.cwd, base),
    addLabels: listArg(args, "add-label"),
    removeLabels: listArg(args, "remove-label"),
    addAssignees: listArg(args, "add-assignee"),
    removeAssignees: listArg(args, "remove-assignee"),
    milestone: args.milestone as string | undefined,
    removeMilestone: args["remove-milestone"] === true,
  };
  if (o.title !== undefined) checkTitle(o.title);
  if (o.milestone !== undefined && o.removeMilestone)
    throw new UsageError("specify only one of --milestone and --remove-milestone");
  const changes =
    [o.title, o.body, o.base, o.milestone].filter((x) => x !== undefined).length +
    o.addLabels.length +
    o.removeLabels.length +
    o.addAssignees.length +
    o.removeAssignees.length +
    (o.removeMilestone ? 1 : 0);
  if (changes === 0) throw new UsageError("nothing to edit");
  return o;
}

/** Apply the edit to each PR; only pr.md's changed lines move. */
export async function* editPrs(ctx: Ctx, o: EditPrOptions, batch: Batch, want: Want): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  // Who edits (an edit record names them) and what @me means.
  const me = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const add = checkDefined(await prs.defs(), o.addLabels, o.milestone);
  yield* writeEach(ctx, prs, o.ref, batch, "Edited", async (pr, number) => {
    const links = o.body === undefined ? undefined : await bodyLinks(ctx, prs, pr.body, o.body);
    const updated = updateEntity(PR, pr, (d) => {
      const kept = (d.closes as string[]).filter((id) => !links?.dropped.includes(id));
      if (links) d.closes = [...new Set([...kept, ...links.added])];
      if (o.title !== undefined) d.title = o.title;
      if (o.base !== undefined) d.baseRefName = o.base;
      d.labels = editList(d.labels as string[], add, o.removeLabels);
      d.assignees = editList(d.assignees as string[], expandMe(o.addAssignees, me), expandMe(o.removeAssignees, me));
      if (o.milestone !== undefined) d.milestone = o.milestone;
      if (o.removeMilestone) delete d.milestone;
      return { body: o.body === undefined ? undefined : storedBody(o.body) };
    });
    // The edit moves updatedAt through a record of its own, not a line of pr.md (spec/schema.md "updatedAt").
    const fields = [
      ...(o.title !== undefined ? ["title"] : []),
      ...(o.body !== undefined ? ["body"] : []),
      ...(o.base !== undefined ? ["baseRefName"] : []),
      ...(o.addLabels.length + o.removeLabels.length > 0 ? ["labels"] : []),
      ...(o.addAssignees.length + o.removeAssignees.length > 0 ? ["assignees"] : []),
      ...(o.milestone !== undefined || o.removeMilestone ? ["milestone"] : []),
    ];
    recordEdit(prs.store, PRS, updated, { author: me, now: formatTimestamp(), fields });
    return prs.json(updated, number, want);
  });
}

/**
 * What a new body does to the PR's links, as GitHub does on every body
 * change: issues its closing keywords name are linked, and those only the old
 * body's keywords named are unlinked (links made with `create --issue` stay).
 */
async function bodyLinks(
  ctx: Ctx,
  prs: Prs,
  oldBody: string,
  newBody: string
): Promise<{ added: string[]; dropped: string[] }> {
  const ids = async (body: string, warn: boolean): Promise<string[]> => {
    const out: string[] = [];
    for (const n of closingNumbers(body)) {
      const id = await prs.issueByNumber(n);
      if (id !== undefined) out.push(id);
      else if (warn) ctx.log.warn(`no issue #${n} to close (not linked)`);
    }
    return out;
  };
  const added = await ids(newBody, true);
  const dropped = (await ids(oldBody, false)).filter((id) => !added.includes(id));
  return { added, dropped };
}

export default defineCommand({
  meta: {
    name: "edit",
    description: "Edit pull requests",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: ['forge-pr edit 4 -t "Fix the drain (v2)"', "forge-pr edit 4 --add-label ready -B release-1.2"],
    },
  },
  args: {
    ...REF_ARG,
    title: { type: "string", alias: "t", description: "the new title" },
    ...BODY_FLAGS,
    base: { type: "string", alias: "B", description: "move the PR to another base branch" },
    "add-label": { type: "string", multiple: true, description: "add labels (repeatable, or a comma list)" },
    "remove-label": { type: "string", multiple: true, description: "remove labels" },
    "add-assignee": { type: "string", multiple: true, description: "add assignees (@me: you)" },
    "remove-assignee": { type: "string", multiple: true, description: "remove assignees" },
    milestone: { type: "string", alias: "m", description: "move it to this milestone (by title)" },
    "remove-milestone": { type: "boolean", description: "take it out of its milestone" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = await parseEditOptions(ctx, args);
    return emitBatch(ctx, (batch) => editPrs(ctx, opts, batch, wanted(req, false)), writtenRender(args, req));
  },
});
