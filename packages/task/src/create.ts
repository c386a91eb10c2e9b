import {
  createTask,
  currentAuthor,
  expandMe,
  formatTimestamp,
  laterId,
  loadEntity,
  recordCreated,
  TASK,
  TASKS,
  withKindLock,
  type TaskJson,
} from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed, BODY_FLAGS } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, listArg, readBody, taskRender, Tasks } from "./_shared.js";

/** Options of `forge-task create`. */
export interface CreateTaskOptions {
  title: string;
  body: string;
  assignees: string[];
  /** A ref to the issue the task serves. */
  issue?: string;
}

/** argv → options. */
export function parseCreateOptions(args: Parsed, body: string | undefined): CreateTaskOptions {
  return {
    title: (args.title as string | undefined) ?? "",
    body: body ?? "",
    assignees: listArg(args, "assignee"),
    issue: args.issue as string | undefined,
  };
}

/**
 * Create a task in the `todo` column and return it as JSON. The issue ref is
 * resolved first, so a bad one writes nothing.
 * @throws UsageError for a bad title; NotFoundError for an unknown issue
 */
export async function createTasks(ctx: Ctx, opts: CreateTaskOptions): Promise<TaskJson> {
  const tasks = new Tasks(ctx.io);
  const issue = opts.issue === undefined ? undefined : await tasks.issueId(opts.issue);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  // Ranked against the order from just before the new folder appears (as forge-issue create does).
  return withKindLock(tasks.store, TASKS, async () => {
    const before = await tasks.ranked();
    const now = formatTimestamp();
    const id = createTask(tasks.store, {
      title: opts.title,
      body: opts.body,
      author,
      assignees: expandMe(opts.assignees, author),
      issue,
      now,
      id: laterId(before, now),
    });
    recordCreated(tasks.store, TASKS, before, { createdAt: now, ref: { id, archived: false } });
    return tasks.json(await loadEntity(tasks.store, TASKS, TASK, { id, archived: false }), before.rankOf(now, id) + 1);
  });
}

export default defineCommand({
  meta: {
    name: "create",
    description: "Create a task (in todo)",
    help: {
      reads: [[".forge/tasks/<id>/task.md", "the task (status: todo doing blocked done)"]],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: [
        'forge-task create -t "Write the docs"',
        'forge-task create -t "Fix it" --issue 12 -a @me --json number',
      ],
    },
  },
  args: {
    title: { type: "string", alias: "t", required: true, description: "the task's title" },
    ...BODY_FLAGS,
    assignee: { type: "string", alias: "a", multiple: true, description: "assign a login (@me: you; repeatable)" },
    issue: { type: "string", description: "the issue it serves" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const rec = await createTasks(ctx, parseCreateOptions(args, await readBody(ctx, args)));
    await emit(ctx.io, ctx.out, [rec], taskRender(args, req, true));
  },
});
