import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isCiStepName, NotFoundError, UsageError } from "@forge/core";
import { runPaths } from "./run_steps.js";
import { Runs, type RunIo } from "./runs.js";

/**
 * A run's logs: one step's log as it was written, or every step's log
 * with each line prefixed by the step's name and a tab (gh `run view --log`
 * style, for `grep` and `cut`).
 * @throws UsageError for a name that is not a step's; NotFoundError when the step has no log (it did not run)
 */
export async function* runLogs(ctx: { io: RunIo }, ref: string, step?: string): AsyncGenerator<string | Buffer> {
  if (step !== undefined && !isCiStepName(step)) throw new UsageError(`invalid step '${step.slice(0, 40)}' (NN-name)`);
  const runs = new Runs(ctx.io);
  const { run, number } = await runs.get(ref);
  const dir = runPaths(runs.store, run.ref.id).logs;
  const steps = (run.data.steps as { name: string; outcome: string }[]).map((s) => s.name);
  if (step !== undefined) {
    const bytes = readLog(join(dir, `${step}.log`));
    if (!bytes) throw new NotFoundError(`run ${number} has no log for step '${step}'`);
    yield bytes;
    return;
  }
  for (const name of steps) {
    const bytes = readLog(join(dir, `${name}.log`));
    if (!bytes || bytes.length === 0) continue;
    const text = bytes.toString("utf8");
    const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
    yield lines.map((l) => `${name}\t${l}\n`).join("");
  }
}

/** A log's bytes, or undefined when there is none (a symlink is never followed). */
function readLog(path: string): Buffer | undefined {
  try {
    if (!lstatSync(path).isFile()) return undefined;
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
