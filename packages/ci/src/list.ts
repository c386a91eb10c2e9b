import { UsageError } from "@forge/core";
import { defineCommand, emitBatch, type Ctx, type Parsed } from "@forge/cli";
import { listRuns, STATUSES, type ListRunOptions } from "@forge/runner";
import { JSON_FLAGS, RUNS_READ, jsonRequest, runRender } from "./_shared.js";

/**
 * argv → options.
 * @throws UsageError for a bad --limit, --status or --commit
 */
export function parseListOptions(args: Parsed): ListRunOptions {
  const raw = (args.limit as string | undefined) ?? "20";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  const status = args.status as string | undefined;
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
    throw new UsageError(`invalid status '${status.slice(0, 20)}' (${STATUSES.join(", ")})`);
  const commit = args.commit as string | undefined;
  if (commit !== undefined && !/^[0-9a-f]{4,64}$/.test(commit))
    throw new UsageError(`invalid commit '${commit.slice(0, 20)}' (4 to 64 hex digits)`);
  return { status: status as ListRunOptions["status"], commit, limit: Number(raw) };
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List CI runs, newest first",
    help: {
      reads: RUNS_READ,
      examples: [
        "forge-ci list",
        "forge-ci list -s failure --json databaseId,headSha,steps",
        "forge-ci list --json | forge-export",
      ],
    },
  },
  args: {
    status: {
      type: "string",
      alias: "s",
      valueHint: "status",
      description: `only runs with this status or conclusion (${STATUSES.join(", ")})`,
    },
    commit: {
      type: "string",
      alias: "c",
      valueHint: "sha",
      description: "only runs of this commit (a prefix of 4+ hex digits)",
    },
    limit: { type: "string", alias: "L", valueHint: "n", default: "20", description: "list at most n runs" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    return emitBatch(
      ctx,
      (batch) => listRuns(ctx, parseListOptions(args), batch),
      runRender(args, jsonRequest(args), false)
    );
  },
});
