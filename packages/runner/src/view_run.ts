import type { CiRunJson } from "./record.js";
import { Runs, type RunCtx } from "./runs.js";

/** One run, by number, id or prefix (its summary's warnings go to `ctx.log.warn`). */
export async function viewRun(ctx: RunCtx, ref: string): Promise<CiRunJson> {
  const runs = new Runs(ctx.io);
  const { run, number } = await runs.get(ref);
  for (const w of run.warnings) ctx.log.warn(w);
  return runs.json(run, number);
}
