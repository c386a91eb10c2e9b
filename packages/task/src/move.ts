import {
  formatTimestamp,
  isTaskStatus,
  moveTask,
  TASK_STATUSES,
  UsageError,
  type TaskJson,
  type TaskStatus,
} from "@forge/core";
import { defineCommand, eachRef, emitBatch, type Batch, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { confirm, JSON_FLAGS, jsonRequest, Tasks, writtenRender } from "./_shared.js";

/** Options of `move` and `done`. */
export interface MoveTaskOptions {
  ref: string;
  status: TaskStatus;
}

/**
 * argv → options.
 * @throws UsageError for a status that is not a column
 */
export function parseMoveOptions(args: Parsed): MoveTaskOptions {
  const status = args.status as string;
  if (!isTaskStatus(status))
    throw new UsageError(`invalid status '${status.slice(0, 40)}' (one of ${TASK_STATUSES.join("|")})`);
  return { ref: args.ref as string, status };
}

/**
 * Move each task to the column. A task already there is left as it is (its
 * `closedAt` too), with a note on stderr.
 */
export async function* moveTasks(ctx: Ctx, opts: MoveTaskOptions, batch: Batch): AsyncGenerator<TaskJson> {
  const tasks = new Tasks(ctx.io);
  yield* eachRef(ctx, opts.ref, batch, async (ref) => {
    const { task, number } = await tasks.get(ref);
    if (task.data.status === opts.status) {
      const rec = await tasks.json(task, number);
      ctx.io.stderr.write(`! Task #${number} (${rec.title}) is already ${opts.status}\n`);
      return rec;
    }
    const rec = await tasks.json(moveTask(task, opts.status, formatTimestamp()), number);
    confirm(ctx, "Moved", rec, ` to ${opts.status}`);
    return rec;
  });
}

/** The whole `run` of move and done. */
export async function runMove(ctx: Ctx, args: Parsed, opts: MoveTaskOptions): Promise<number> {
  const req = jsonRequest(args);
  return emitBatch(ctx, (batch) => moveTasks(ctx, opts, batch), writtenRender(args, req));
}

export default defineCommand({
  meta: {
    name: "move",
    description: "Move tasks to a column",
    help: {
      reads: [[".forge/tasks/<id>/task.md", "the task (status: todo doing blocked done)"]],
      examples: ["forge-task move 3 doing", "forge-task list -s todo --json | forge-task move - blocked"],
    },
  },
  args: {
    ...REF_ARG,
    status: {
      type: "positional",
      required: true,
      valueHint: TASK_STATUSES.join("|"),
      description: "the column to move it to",
    },
    ...JSON_FLAGS,
  },
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runMove(data, args, parseMoveOptions(args)),
});
