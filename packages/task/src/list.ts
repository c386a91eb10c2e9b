import {
  currentAuthor,
  entityOrder,
  ISSUE,
  ISSUES,
  loadIssueGraph,
  loadEntity,
  loadEntityFast,
  sameName,
  TASK,
  TASK_STATUSES,
  TASKS,
  UsageError,
  type LoadedEntity,
  type TaskJson,
  type TaskStatus,
} from "@forge/core";
import { defineCommand, emit, formatTable, paint, useColor, type Ctx, type Parsed } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, listArg, taskRender, taskRow, Tasks } from "./_shared.js";

/** Options of `forge-task list`. */
export interface ListTaskOptions {
  /** The columns to show, in board order; every column when none is asked for. */
  statuses: TaskStatus[];
  assignee?: string;
  /** At most this many tasks per column. */
  limit: number;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit
 */
export function parseListOptions(args: Parsed): ListTaskOptions {
  const raw = (args.limit as string | undefined) ?? "30";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  const asked = listArg(args, "status");
  return {
    statuses: TASK_STATUSES.filter((s) => asked.length === 0 || asked.includes(s)),
    assignee: args.assignee as string | undefined,
    limit: Number(raw),
  };
}

/**
 * The board: live tasks grouped by column in board order (todo, doing,
 * blocked, done), oldest first within a column, at most `limit` per column
 * (so a long backlog never hides the work in progress). Reads every live
 * task once and reports each unreadable file on stderr (exit 1) without
 * stopping.
 */
export async function listTasks(
  ctx: Ctx,
  opts: ListTaskOptions
): Promise<{ records: TaskJson[]; failed: number; blocked: Map<string, number[]> }> {
  const tasks = new Tasks(ctx.io);
  const store = tasks.store;
  const assignee = opts.assignee === "@me" ? await currentAuthor(ctx.io.env, ctx.io.cwd) : opts.assignee;
  const order = await tasks.ranked();
  let failed = 0;
  for (const u of order.errors) {
    failed++;
    ctx.log.error(u.error);
  }
  const columns = new Map<TaskStatus, TaskJson[]>(opts.statuses.map((s) => [s, []]));
  for (let i = 0; i < order.length; i++) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    let e: LoadedEntity;
    try {
      e = loadEntityFast(store, TASKS, TASK, ref) ?? (await loadEntity(store, TASKS, TASK, ref));
    } catch (err) {
      failed++;
      ctx.log.error(err);
      continue;
    }
    for (const w of e.warnings) ctx.log.warn(w);
    const col = columns.get(e.data.status as TaskStatus);
    if (!col || col.length >= opts.limit) continue;
    if (assignee !== undefined && !(e.data.assignees as string[]).some((a) => sameName(a, assignee))) continue;
    col.push(await tasks.json(e, i + 1));
  }
  const records = [...columns.values()].flat();
  return { records, failed, blocked: await blockedCards(tasks.store, records) };
}

/**
 * The cards whose issue is blocked (spec/schema.md "Dependencies"): task id →
 * the open issues that block it (or its nearest blocked parent). Done cards
 * are never blocked; the issues are read only when a card names one.
 */
export async function blockedCards(
  store: Tasks["store"],
  records: readonly TaskJson[]
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const linked = records.filter((r) => r.issue !== null && r.status !== "done");
  if (linked.length === 0) return out;
  const g = await loadIssueGraph(store, await entityOrder(store, ISSUES, ISSUE));
  for (const r of linked) {
    const by = g.node(r.issue!.id)?.open ? g.blockedBy(r.issue!.id) : [];
    if (by.length > 0)
      out.set(
        r.id,
        by.map((b) => b.number)
      );
  }
  return out;
}

/** A row, with `blocked by #3, #5` after the issue of a blocked card. */
export function boardRow(
  blocked: ReadonlyMap<string, number[]>
): (t: TaskJson, tty: boolean, color?: boolean) => string[] {
  return (t, tty, color = false) => {
    const row = taskRow(t, tty, color);
    const by = blocked.get(t.id);
    if (by) row[row.length - 1] += ` ${paint(`blocked by ${by.map((n) => `#${n}`).join(", ")}`, 31, color)}`;
    return row;
  };
}

/**
 * The board for a terminal: a heading per column (`TODO (2)`), its tasks
 * under it, columns aligned across the board, a blank line between columns.
 * @param statuses the columns to show, empty ones included
 */
export function formatBoard(
  records: readonly TaskJson[],
  statuses: readonly TaskStatus[],
  color: boolean,
  blocked: ReadonlyMap<string, number[]> = new Map()
): string {
  const row = boardRow(blocked);
  const lines = formatTable(records.map((r) => row(r, true, color))).split("\n");
  const blocks: string[] = [];
  let k = 0;
  for (const s of statuses) {
    const n = records.filter((r) => r.status === s).length;
    blocks.push([paint(`${s.toUpperCase()} (${n})`, 1, color), ...lines.slice(k, k + n)].join("\n") + "\n");
    k += n;
  }
  return blocks.join("\n");
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List tasks by column: todo doing blocked done",
    help: {
      reads: [
        [".forge/tasks/<id>/task.md", "the task (status: todo doing blocked done)"],
        [".forge/issues/<id>/issue.md", "a card's issue: 'blocked by #n' when an open issue blocks it"],
      ],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: [
        "forge-task list",
        "forge-task list -s todo -s doing -a @me",
        "forge-task list --json number,title,status",
        "forge-task list --html > board.html",
      ],
    },
  },
  args: {
    status: {
      type: "enum",
      alias: "s",
      options: [...TASK_STATUSES],
      multiple: true,
      default: "every column",
      description: "only these columns (repeatable)",
    },
    assignee: { type: "string", alias: "a", description: "only tasks assigned to this login (@me: you)" },
    limit: { type: "string", alias: "L", description: "max per column (30)" },
    html: { type: "boolean", description: "the board as one static HTML page" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    if (req && args.html === true) throw new UsageError("--json and --html: choose one");
    const opts = parseListOptions(args);
    const { records, failed, blocked } = await listTasks(ctx, opts);
    if (args.html === true) {
      const { taskBoardHtml } = await import("./board_html.js");
      await ctx.out.write(taskBoardHtml(records, opts.statuses));
    } else if (!req && ctx.io.stdout.isTTY === true) {
      if (records.length) await ctx.out.write(formatBoard(records, opts.statuses, useColor(ctx.io), blocked));
    } else await emit(ctx.io, ctx.out, records, { ...taskRender(args, req, false), row: boardRow(blocked) });
    return failed ? 1 : 0;
  },
});
