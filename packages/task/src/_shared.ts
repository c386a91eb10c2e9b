/**
 * What every task verb shares: opening the store, resolving task and issue
 * refs, the JSON model, the flags and the renderers.
 */
import {
  entityOrder,
  ISSUE,
  ISSUES,
  resolveRef,
  TASK,
  TASK_FIELDS,
  taskToJson,
  TASKS,
  type LoadedEntity,
  type Order,
  type TaskJson,
} from "@forge/core";
import {
  confirmWrite,
  NounStore,
  paint,
  writtenRenderOf,
  type Ctx,
  type FlagDef,
  type Io,
  type JsonRequest,
  type Parsed,
  type RenderOptions,
  jsonFlags,
  jsonRequestOf,
} from "@forge/cli";

/** The task store: the shared noun layer plus issue numbers and task JSON. */
export class Tasks extends NounStore {
  #issues: Order | undefined;
  #issueNumbers: Map<string, number> | undefined;
  constructor(io: Io) {
    super(io, TASKS, TASK, "task");
  }
  /** Resolve a task ref and load the task. */
  async get(ref: string): Promise<{ task: LoadedEntity; number: number }> {
    const { entity, number } = await this.resolve(ref);
    return { task: entity, number };
  }
  async #issueOrder(): Promise<Order> {
    return (this.#issues ??= await entityOrder(this.store, ISSUES, ISSUE));
  }
  /** Issue id → number, to show a task's issue. */
  async issueNumbers(): Promise<Map<string, number>> {
    if (this.#issueNumbers) return this.#issueNumbers;
    const m = new Map<string, number>();
    (await this.#issueOrder()).entries.forEach((e, i) => m.set(e.ref.id, i + 1));
    return (this.#issueNumbers = m);
  }
  /** The id of the issue a ref names (number, #number, id or prefix). */
  async issueId(ref: string): Promise<string> {
    const order = await this.#issueOrder();
    return resolveRef(order, ref, "issue", order.errors).ref.id;
  }
  /** The JSON of a loaded task. */
  async json(task: LoadedEntity, number: number): Promise<TaskJson> {
    return taskToJson(task, number, task.data.issue === undefined ? new Map() : await this.issueNumbers());
  }
}

/** `--json [fields]` and `--jq`, as gh spells them. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(TASK_FIELDS);

/** The JSON request from `--json`/`--jq` (`--jq` alone means every field). */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, TASK_FIELDS);
}

/** A task's issue as text: `#12`, or the id when this store has no such issue. */
export function issueText(t: TaskJson): string {
  if (!t.issue) return "";
  return t.issue.number === null ? t.issue.id : `#${t.issue.number}`;
}

/** A row: `#3 title assignees issue` on a TTY, `3 status title assignees issue` off it. */
export function taskRow(t: TaskJson, tty: boolean, color = false): string[] {
  const who = t.assignees.map((a) => a.login).join(", ");
  if (!tty) return [String(t.number), t.status, t.title, who, issueText(t)];
  return [paint(`#${t.number}`, t.status === "done" ? 35 : 32, color), t.title, who, issueText(t)];
}

/** Render options for commands that print task records. */
export function taskRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<TaskJson> {
  return {
    json: req,
    jq: args.jq as string | undefined,
    single,
    row: taskRow,
    header: ["ID", "TITLE", "ASSIGNEES", "ISSUE"],
  };
}

/** Render options for a verb that writes: records only with --json/--jq (the confirmation goes to stderr). */
export function writtenRender(args: Parsed, req: JsonRequest | null): RenderOptions<TaskJson> {
  return writtenRenderOf(taskRender(args, req, args.ref !== "-"));
}

/** A confirmation line for stderr: `Moved task #3 (title) to doing`. */
export function confirm(ctx: Ctx, verb: string, t: TaskJson, tail = ""): void {
  confirmWrite(ctx, verb, "task", t, tail);
}

/** The body from `--body` or `--body-file` (shared with every noun). */
export { listArg, readBody } from "@forge/cli";
