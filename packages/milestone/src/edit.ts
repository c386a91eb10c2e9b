import { UsageError } from "@forge/core";
import { defineCommand, emit, type Ctx, type JsonRequest, type Parsed } from "@forge/cli";
import {
  checkDescription,
  checkTitle,
  confirm,
  JSON_FLAGS,
  jsonRequest,
  MilestoneFile,
  milestoneRender,
  parseDue,
  recordOf,
  type MilestoneJson,
} from "./_shared.js";

/** Options of `forge-milestone edit`. */
export interface EditMilestoneOptions {
  ref: string;
  title?: string;
  /** `null`: remove the due date. */
  dueOn?: string | null;
  /** `""` removes the description. */
  description?: string;
}

/**
 * argv → options.
 * @throws UsageError when nothing would change or a value is bad
 */
export function parseEditOptions(args: Parsed): EditMilestoneOptions {
  const o: EditMilestoneOptions = {
    ref: args.milestone as string,
    title: args.title === undefined ? undefined : checkTitle(args.title as string),
    dueOn: args.due === undefined ? undefined : (parseDue(args.due as string) ?? null),
    description: args.description === undefined ? undefined : checkDescription(args.description as string),
  };
  if (o.title === undefined && o.dueOn === undefined && o.description === undefined) {
    throw new UsageError("specify at least one of --title, --due, or --description");
  }
  return o;
}

/**
 * Change a milestone's definition. A new title moves every issue and PR
 * that named the old one to it, as in gh (they belong to the milestone,
 * not to its title).
 * @throws NotFoundError; ConflictError when the new title is taken
 */
export async function editMilestone(
  ctx: Ctx,
  o: EditMilestoneOptions,
  req: JsonRequest | null
): Promise<{ rec: MilestoneJson; failed: number }> {
  const f = await MilestoneFile.open(ctx);
  const i = f.get(o.ref);
  if (o.title !== undefined) f.checkFree(o.title, i);
  const m = { ...f.items[i]! };
  if (o.title !== undefined) m.title = o.title;
  if (o.dueOn !== undefined) m.dueOn = o.dueOn ?? undefined;
  if (o.description !== undefined) m.description = o.description || undefined;
  const before = f.items[i]!.title as string;
  f.items[i] = m;
  f.save();
  if (o.title !== undefined && o.title !== before) {
    const { moveMilestoneEverywhere } = await import("./_move.js");
    await moveMilestoneEverywhere(f.store, before, o.title);
  }
  const r = await recordOf(ctx, f, i, req);
  confirm(ctx, "Edited", r.rec);
  return r;
}

export default defineCommand({
  meta: {
    name: "edit",
    description: "Edit a milestone (a new title moves its issues and PRs with it, as in gh)",
    help: {
      reads: [[".forge/milestones.md", "the milestone definitions"]],
      examples: ["forge-milestone edit v1.2 --due 2027-01-15", "forge-milestone edit 2 --title v1.3"],
    },
  },
  args: {
    milestone: {
      type: "positional",
      required: true,
      valueHint: "title|number",
      description: "a milestone: its title (exact, else any case) or number (2 or #2)",
    },
    title: { type: "string", alias: "t", description: "new title" },
    due: { type: "string", description: "YYYY-MM-DD, '' for none" },
    description: { type: "string", alias: "d", description: "the new description" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const { rec, failed } = await editMilestone(ctx, parseEditOptions(args), req);
    await emit(ctx.io, ctx.out, [rec], milestoneRender(args, req, true));
    return failed ? 1 : 0;
  },
});
