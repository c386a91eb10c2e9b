import { CI_RUN, CI_RUNS, loadEntity, loadEntityFast, printable } from "@forge/core";
import type { CiRunJson } from "./record.js";
import { Runs, type RunCtx } from "./runs.js";

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
 * The runs that match, newest first, at most `limit`; each unreadable
 * summary is one warning `unreadable:run:<id>: <why>` on `ctx.log` (the
 * marker forge-observe gives it) and the rest is listed: a damaged record
 * is not a failure of the listing (`batch` is left as it is).
 */
export async function* listRuns(
  ctx: RunCtx,
  opts: ListRunOptions,
  _batch: { failed: number }
): AsyncGenerator<CiRunJson> {
  const runs = new Runs(ctx.io);
  const order = await runs.ranked();
  // The degradation law: a damaged record is one named line, the rest is listed (exit 0: a pilot reads on).
  for (const u of order.errors) ctx.log.warn(unreadable(u.ref.id, u.error));
  let n = 0;
  for (let i = order.length - 1; i >= 0 && n < opts.limit; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    try {
      const e =
        loadEntityFast(runs.store, CI_RUNS, CI_RUN, ref) ?? (await loadEntity(runs.store, CI_RUNS, CI_RUN, ref));
      const d = e.data;
      if (opts.status && d.status !== opts.status && d.conclusion !== opts.status) continue;
      if (opts.commit && !(d.headSha as string).startsWith(opts.commit)) continue;
      n++;
      yield await runs.json(e, i + 1);
    } catch (err) {
      ctx.log.warn(unreadable(ref.id, err));
    }
  }
}

/** The warning for a run record that cannot be read. */
function unreadable(id: string, err: unknown): string {
  return `unreadable:run:${id}: ${printable(err instanceof Error ? err.message : String(err), 300)}`;
}
