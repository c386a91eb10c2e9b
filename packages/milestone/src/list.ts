import { UsageError } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import {
  countIssues,
  JSON_FLAGS,
  jsonRequest,
  MilestoneFile,
  milestoneJson,
  milestoneRender,
  wantsCounts,
  type MilestoneJson,
} from "./_shared.js";

/** Options of `forge-milestone list`. */
export interface ListMilestoneOptions {
  state: "open" | "closed" | "all";
  limit: number;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit
 */
export function parseListOptions(args: Parsed): ListMilestoneOptions {
  const raw = (args.limit as string | undefined) ?? "30";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  return { state: ((args.state as string | undefined) ?? "open") as ListMilestoneOptions["state"], limit: Number(raw) };
}

/**
 * The milestones in file order (their numbers), at most `limit`; with the
 * issue counts when `withCounts` (one read of every live issue).
 */
export async function listMilestones(
  ctx: Ctx,
  opts: ListMilestoneOptions,
  withCounts: boolean
): Promise<{ records: MilestoneJson[]; failed: number }> {
  const f = await MilestoneFile.open(ctx);
  const { counts, failed } = withCounts ? await countIssues(ctx, f.store) : { counts: undefined, failed: 0 };
  const records = f.items
    .map((m, i) => milestoneJson(m, i, counts))
    .filter((m) => opts.state === "all" || m.state === opts.state.toUpperCase())
    .slice(0, opts.limit);
  return { records, failed };
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List milestones",
    help: {
      reads: [[".forge/milestones.md", "the milestone definitions"]],
      examples: ["forge-milestone list", "forge-milestone list -s all --json title,state,dueOn"],
    },
  },
  args: {
    state: {
      type: "enum",
      alias: "s",
      options: ["open", "closed", "all"],
      default: "open",
      description: "only milestones in this state",
    },
    limit: { type: "string", alias: "L", description: "max (30)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const { records, failed } = await listMilestones(ctx, parseListOptions(args), wantsCounts(req));
    await emit(ctx.io, ctx.out, records, milestoneRender(args, req, false, true));
    return failed ? 1 : 0;
  },
});
