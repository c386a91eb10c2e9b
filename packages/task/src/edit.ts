import { currentAuthor, editList, expandMe, updateTask, UsageError, type TaskJson } from "@forge/core";
import {
  defineCommand,
  writeEach,
  emitBatch,
  type Batch,
  type Ctx,
  type Parsed,
  BODY_FLAGS,
  REF_ARG,
} from "@forge/cli";
import { JSON_FLAGS, jsonRequest, listArg, readBody, Tasks, writtenRender } from "./_shared.js";

/** Options of `forge-task edit`. */
export interface EditTaskOptions {
  ref: string;
  title?: string;
  body?: string;
  addAssignees: string[];
  removeAssignees: string[];
  /** A ref to the issue the task serves from now on. */
  issue?: string;
  removeIssue: boolean;
}

/**
 * argv → options.
 * @throws UsageError when nothing would change or flags clash
 */
export async function parseEditOptions(ctx: Ctx, args: Parsed): Promise<EditTaskOptions> {
  const ref = args.ref as string;
  const o: EditTaskOptions = {
    ref,
    title: args.title as string | undefined,
    body: await readBody(ctx, args, ref === "-"),
    addAssignees: listArg(args, "add-assignee"),
    removeAssignees: listArg(args, "remove-assignee"),
    issue: args.issue as string | undefined,
    removeIssue: args["remove-issue"] === true,
  };
  if (o.issue !== undefined && o.removeIssue) throw new UsageError("specify only one of --issue and --remove-issue");
  const changes =
    [o.title, o.body, o.issue].filter((x) => x !== undefined).length +
    o.addAssignees.length +
    o.removeAssignees.length +
    (o.removeIssue ? 1 : 0);
  if (changes === 0) throw new UsageError("nothing to edit");
  return o;
}

/** Apply the edit to each task; the issue ref is resolved once, before any write. */
export async function* editTasks(ctx: Ctx, o: EditTaskOptions, batch: Batch): AsyncGenerator<TaskJson> {
  const tasks = new Tasks(ctx.io);
  const issue = o.issue === undefined ? undefined : await tasks.issueId(o.issue);
  const needMe = [...o.addAssignees, ...o.removeAssignees].includes("@me");
  const me = needMe ? await currentAuthor(ctx.io.env, ctx.io.cwd) : "";
  const add = expandMe(o.addAssignees, me);
  const remove = expandMe(o.removeAssignees, me);
  yield* writeEach(ctx, tasks, o.ref, batch, "Edited", async (task, number) => {
    const updated = updateTask(task, (d) => {
      if (o.title !== undefined) d.title = o.title;
      d.assignees = editList(d.assignees as string[], add, remove);
      if (issue !== undefined) d.issue = issue;
      if (o.removeIssue) delete d.issue;
      return { body: o.body };
    });
    return tasks.json(updated, number);
  });
}

export default defineCommand({
  meta: {
    name: "edit",
    description: "Edit tasks",
    help: {
      reads: [[".forge/tasks/<id>/task.md", "the task (status: todo doing blocked done)"]],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: ['forge-task edit 3 -t "Write the setup docs"', "forge-task edit 3 --add-assignee @me --issue 12"],
    },
  },
  args: {
    ...REF_ARG,
    title: { type: "string", alias: "t", description: "the new title" },
    ...BODY_FLAGS,
    "add-assignee": { type: "string", multiple: true, description: "add assignees (@me: you)" },
    "remove-assignee": { type: "string", multiple: true, description: "remove assignees" },
    issue: { type: "string", description: "link the issue it serves (a ref)" },
    "remove-issue": { type: "boolean", description: "unlink its issue" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = await parseEditOptions(ctx, args);
    return emitBatch(ctx, (batch) => editTasks(ctx, opts, batch), writtenRender(args, req));
  },
});
