import { UsageError } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { listRuns, Runs } from "@forge/runner";
import { JSON_FLAGS, jsonRequest, runRender, RunShaper, type RunJson } from "./_shared.js";

/** gh's `run list --status` values (a status or a conclusion). */
export const STATUSES = [
  "queued",
  "in_progress",
  "completed",
  "requested",
  "waiting",
  "pending",
  "success",
  "failure",
  "cancelled",
  "timed_out",
  "action_required",
  "neutral",
  "skipped",
  "stale",
  "startup_failure",
];

/** Options of `forge-run list`. */
export interface RunListOptions {
  branch?: string;
  workflow?: string;
  status?: string;
  event?: string;
  commit?: string;
  limit: number;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit or --status
 */
export function parseRunListOptions(args: Parsed): RunListOptions {
  const raw = (args.limit as string | undefined) ?? "20";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  const status = args.status as string | undefined;
  if (status !== undefined && !STATUSES.includes(status))
    throw new UsageError(
      `invalid argument "${status.slice(0, 20)}" for "-s, --status" flag: valid values are {${STATUSES.join("|")}}`
    );
  return {
    branch: args.branch as string | undefined,
    workflow: args.workflow as string | undefined,
    status,
    event: args.event as string | undefined,
    commit: args.commit as string | undefined,
    limit: Number(raw),
  };
}

/** The runs that match, newest first, at most `limit` (gh's filters). */
export async function* listGhRuns(ctx: Ctx, o: RunListOptions, batch: { failed: number }): AsyncGenerator<RunJson> {
  const shaper = new RunShaper(new Runs(ctx.io).store);
  let n = 0;
  for await (const r of listRuns(ctx, { limit: Number.MAX_SAFE_INTEGER }, batch)) {
    if (n >= o.limit) break;
    const g = await shaper.shape(r);
    if (o.branch !== undefined && g.headBranch !== o.branch) continue;
    if (o.workflow !== undefined && g.workflowName !== o.workflow && g.name !== o.workflow) continue;
    if (o.status !== undefined && g.status !== o.status && g.conclusion !== o.status) continue;
    if (o.event !== undefined && g.event !== o.event) continue;
    if (o.commit !== undefined && !g.headSha.startsWith(o.commit)) continue;
    n++;
    yield g;
  }
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List CI runs, newest first (gh's run fields)",
    help: {
      reads: [[".forge/ci/runs/<id>/", "run records and step logs (machine state, gitignored)"]],
      examples: [
        "forge-run list",
        "forge-run list -s failure -L 5",
        "forge-run list -b fix/drain --json databaseId,conclusion",
      ],
    },
  },
  args: {
    branch: { type: "string", alias: "b", description: "runs of this PR head branch" },
    workflow: { type: "string", alias: "w", description: "runs of this workflow (forge has one: ci)" },
    status: { type: "string", alias: "s", description: "a status or a conclusion" },
    limit: { type: "string", alias: "L", description: "at most (20)" },
    event: { type: "string", alias: "e", description: "pull_request or manual" },
    commit: { type: "string", alias: "c", description: "runs of this commit (a prefix)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const batch = { failed: 0 };
    await emit(
      ctx.io,
      ctx.out,
      listGhRuns(ctx, parseRunListOptions(args), batch),
      runRender(args, jsonRequest(args), false)
    );
    return batch.failed ? 1 : 0;
  },
});
