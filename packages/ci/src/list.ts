import { CI_RUN, CI_RUNS, loadEntity, loadEntityFast, UsageError } from "@forge/core";
import { defineCommand, emitBatch, type Ctx, type Parsed } from "@forge/cli";
import type { CiRunJson } from "./record.js";
import { JSON_FLAGS, RUNS_READ, jsonRequest, runRender, Runs } from "./_shared.js";

/** gh's `run list --status` values: a status or a conclusion. */
export const STATUSES = ["queued", "in_progress", "completed", "success", "failure", "cancelled", "timed_out"] as const;

/** Options of `forge-ci list`. */
export interface ListRunOptions {
  status?: (typeof STATUSES)[number];
  /** A commit id or a prefix of one (the run's headSha). */
  commit?: string;
  limit: number;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit, --status or --commit
 */
export function parseListOptions(args: Parsed): ListRunOptions {
  const raw = (args.limit as string | undefined) ?? "20";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  const status = args.status as string | undefined;
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new UsageError(`invalid status '${status.slice(0, 20)}' (${STATUSES.join(", ")})`);
  const commit = args.commit as string | undefined;
  if (commit !== undefined && !/^[0-9a-f]{4,64}$/.test(commit)) throw new UsageError(`invalid commit '${commit.slice(0, 20)}' (4 to 64 hex digits)`);
  return { status: status as ListRunOptions["status"], commit, limit: Number(raw) };
}

/**
 * The runs that match, newest first, at most `limit`; each unreadable
 * summary is reported on stderr (exit 1) without stopping.
 */
export async function* listRuns(ctx: Ctx, opts: ListRunOptions, batch: { failed: number }): AsyncGenerator<CiRunJson> {
  const runs = new Runs(ctx.io);
  const order = await runs.ranked();
  for (const u of order.errors) {
    batch.failed++;
    ctx.log.error(u.error);
  }
  let n = 0;
  for (let i = order.length - 1; i >= 0 && n < opts.limit; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    try {
      const e = loadEntityFast(runs.store, CI_RUNS, CI_RUN, ref) ?? (await loadEntity(runs.store, CI_RUNS, CI_RUN, ref));
      const d = e.data;
      if (opts.status && d.status !== opts.status && d.conclusion !== opts.status) continue;
      if (opts.commit && !(d.headSha as string).startsWith(opts.commit)) continue;
      n++;
      yield await runs.json(e, i + 1);
    } catch (err) {
      batch.failed++;
      ctx.log.error((err as Error).message);
    }
  }
}

export default defineCommand({
  meta: {
    name: "list", description: "List CI runs, newest first",
    help: { reads: RUNS_READ, examples: ["forge-ci list", "forge-ci list -s failure --json databaseId,headSha,steps", "forge-ci list --json | forge-export"] },
  },
  args: {
    status: { type: "string", alias: "s", valueHint: "status", description: `only runs with this status or conclusion (${STATUSES.join(", ")})` },
    commit: { type: "string", alias: "c", valueHint: "sha", description: "only runs of this commit (a prefix of 4+ hex digits)" },
    limit: { type: "string", alias: "L", valueHint: "n", default: "20", description: "list at most n runs" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    return emitBatch(ctx, (batch) => listRuns(ctx, parseListOptions(args), batch), runRender(args, jsonRequest(args), false));
  },
});
