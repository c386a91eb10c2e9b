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

/** Options of `forge-milestone create`. */
export interface CreateMilestoneOptions {
  title: string;
  dueOn?: string;
  description: string;
}

/**
 * argv → options.
 * @throws UsageError for a bad title, due date or description
 */
export function parseCreateOptions(args: Parsed): CreateMilestoneOptions {
  return {
    title: checkTitle(args.title as string),
    dueOn: parseDue((args.due as string | undefined) ?? ""),
    description: checkDescription((args.description as string | undefined) ?? ""),
  };
}

/**
 * Append an open milestone to `milestones.md` (its number: the new length).
 * @throws ConflictError when the title is taken (ignoring case)
 */
export async function createMilestone(
  ctx: Ctx,
  o: CreateMilestoneOptions,
  req: JsonRequest | null
): Promise<{ rec: MilestoneJson; failed: number }> {
  const f = await MilestoneFile.open(ctx);
  f.checkFree(o.title);
  f.items.push({ title: o.title, dueOn: o.dueOn, state: "open", description: o.description || undefined });
  f.save();
  const r = await recordOf(ctx, f, f.items.length - 1, req);
  confirm(ctx, "Created", r.rec);
  return r;
}

export default defineCommand({
  meta: {
    name: "create",
    description: "Create a milestone (open)",
    help: {
      reads: [[".forge/milestones.md", "the milestone definitions"]],
      examples: [
        "forge-milestone create v1.2 --due 2026-12-31",
        'forge-milestone create "Q1 cleanup" -d "the backlog"',
      ],
    },
  },
  args: {
    title: { type: "positional", required: true, description: "the new milestone's title (unique ignoring case)" },
    due: { type: "string", description: "YYYY-MM-DD" },
    description: { type: "string", alias: "d", description: "a one-line description" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const { rec, failed } = await createMilestone(ctx, parseCreateOptions(args), req);
    await emit(ctx.io, ctx.out, [rec], milestoneRender(args, req, true));
    return failed ? 1 : 0;
  },
});
