import { readdirSync, readFileSync } from "node:fs";
import {
  atomicWrite,
  CI_RUN,
  formatTimestamp,
  loadEntity,
  CI_RUNS,
  rewriteFile,
  type LoadedEntity,
  type Store,
} from "@forge/core";
import { summaryBody, type CiRunJson } from "./record.js";
import { runPaths, setPrVerdict } from "./run_steps.js";
import { Runs, type RunIo } from "./runs.js";

/** How long `cancel` waits for the runner to finish the record. */
export const CANCEL_WAIT_MS = 15_000;

/**
 * Cancel a running run: ask its runner (a `cancel` file, then SIGUSR2),
 * which kills the running step's process group, marks the rest skipped and
 * records `cancelled`. When the runner is gone (killed, crashed), kill what
 * is left of the run's processes and finish the record here. A run already
 * completed is left as it is (a second cancel is a no-op).
 * @returns the run, and whether it had already completed
 */
export async function cancelRun(ctx: { io: RunIo }, ref: string): Promise<{ rec: CiRunJson; already: boolean }> {
  const runs = new Runs(ctx.io);
  const { run, number } = await runs.get(ref);
  if (run.data.status === "completed") return { rec: await runs.json(run, number), already: true };
  const paths = runPaths(runs.store, run.ref.id);
  atomicWrite(paths.cancel, `${formatTimestamp()}\n`);
  const pid = run.data.pid as number | undefined;
  if (pid !== undefined && isRunner(pid)) {
    try {
      process.kill(pid, "SIGUSR2");
    } catch {
      // Gone between the check and the signal: finished below.
    }
    const deadline = Date.now() + CANCEL_WAIT_MS;
    while (Date.now() < deadline && isRunner(pid)) {
      const now = await reload(runs.store, run);
      if (now.data.status === "completed") return { rec: await runs.json(now, number), already: false };
      await new Promise((r) => setTimeout(r, 50));
    }
    const now = await reload(runs.store, run);
    if (now.data.status === "completed") return { rec: await runs.json(now, number), already: false };
  }
  // No runner to do it: stop the run's processes and finish the record.
  killRunProcesses(run.ref.id);
  // Under the record's lock, on the record as it is now: a runner that finished meanwhile keeps its record.
  let finished = false;
  const d = rewriteFile(CI_RUN, run, (now) => {
    if (now.status === "completed") return;
    finished = true;
    delete now.pid;
    const completedAt = formatTimestamp();
    Object.assign(now, { status: "completed", conclusion: "cancelled", verdict: "cancelled", completedAt });
    return { body: summaryBody([], "cancelled") };
  }).data;
  if (finished) {
    const patchSha256 = (d.patchSha256 as string | undefined) ?? null;
    const req = { pr: d.pr ? { id: d.pr as string } : null, patchSha256 };
    await setPrVerdict(runs.store, req, "cancelled");
  }
  return { rec: await runs.json(await reload(runs.store, run), number), already: false };
}

function reload(store: Store, run: LoadedEntity): Promise<LoadedEntity> {
  return loadEntity(store, CI_RUNS, CI_RUN, run.ref);
}

/** Whether `pid` is alive and (where /proc tells) a forge process. */
function isRunner(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("forge");
  } catch {
    return true;
  }
}

/** Kill (process group and all) every process whose environment names this run (Linux: /proc). */
function killRunProcesses(id: string): void {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^[0-9]+$/.test(p));
  } catch {
    return;
  }
  const mark = `\0FORGE_CI_RUN=${id}\0`;
  for (const p of pids) {
    try {
      if (!`\0${readFileSync(`/proc/${p}/environ`, "latin1")}`.includes(mark)) continue;
      const pid = Number(p);
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        process.kill(pid, "SIGKILL");
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
}
