import { archiveEntity, TASKS, type TaskJson } from "@forge/core";
import { defineCommand, writeEach, emitBatch, type Batch, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, Tasks, writtenRender } from "./_shared.js";

/**
 * Move each task's folder to `.forge/archive/tasks/`. Nothing is deleted
 * and no number changes (archived tasks stay in the order).
 */
export async function* archiveTasks(ctx: Ctx, ref: string, batch: Batch): AsyncGenerator<TaskJson> {
  const tasks = new Tasks(ctx.io);
  yield* writeEach(ctx, tasks, ref, batch, "Archived", (task, number) =>
    tasks.json(archiveEntity(tasks.store, TASKS, task), number)
  );
}

export default defineCommand({
  meta: {
    name: "archive",
    description: "Archive tasks (moved, never deleted)",
    help: {
      reads: [[".forge/tasks/<id>/task.md", "the task (status: todo doing blocked done)"]],
      examples: ["forge-task archive 3", "forge-task list -s done --json | forge-task archive -"],
    },
  },
  args: {
    ...REF_ARG,
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    return emitBatch(ctx, (batch) => archiveTasks(ctx, args.ref as string, batch), writtenRender(args, req));
  },
});
