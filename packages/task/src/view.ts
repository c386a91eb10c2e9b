import type { TaskJson } from "@forge/core";
import { defineCommand, eachRef, emit, type Batch, type Ctx, type Parsed, formatFields, REF_ARG } from "@forge/cli";
import { issueText, JSON_FLAGS, jsonRequest, Tasks } from "./_shared.js";

/** A task as text (`key:\tvalue` lines, then `--` and the body; `key: value` on a TTY). */
export function formatTask(t: TaskJson, tty: boolean): string {
  const lines = [
    `title:\t${t.title}`,
    `status:\t${t.status}`,
    `author:\t${t.author.login}`,
    `assignees:\t${t.assignees.map((a) => a.login).join(", ")}`,
    `issue:\t${issueText(t)}`,
    `number:\t${t.number}`,
    `id:\t${t.id}`,
    "--",
    t.body,
  ];
  return formatFields(lines, tty);
}

/** Load one task (or each ref on stdin). */
export function viewTasks(ctx: Ctx, ref: string, batch: Batch): AsyncGenerator<TaskJson> {
  const tasks = new Tasks(ctx.io);
  return eachRef(ctx, ref, batch, async (r) => {
    const { task, number } = await tasks.get(r);
    for (const w of task.warnings) ctx.log.warn(w);
    return tasks.json(task, number);
  });
}

export default defineCommand({
  meta: {
    name: "view",
    description: "Show a task",
    help: {
      reads: [[".forge/tasks/<id>/task.md", "the task (status: todo doing blocked done)"]],
      examples: ["forge-task view 3", "forge-task view 3 --json title,status"],
    },
  },
  args: {
    ...REF_ARG,
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const batch = { failed: 0 };
    const ref = args.ref as string;
    await emit(ctx.io, ctx.out, viewTasks(ctx, ref, batch), {
      json: req,
      jq: args.jq as string | undefined,
      single: ref !== "-",
      text: formatTask,
    });
    return batch.failed ? 1 : 0;
  },
});
