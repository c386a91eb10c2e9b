/**
 * Tasks: the JSON model and the writes on `.forge/tasks/<id>/`. A kanban with
 * no board file: the columns are derived from each task's `status`.
 * Returns data, never prints.
 */
import { randomUUID } from "node:crypto";
import { UsageError } from "../errors.js";
import { TASKS, createEntity, updateEntity } from "./folder_entity.js";
import { bodyOf, checkTitle, storedBody } from "./issue.js";
import type { LoadedEntity } from "./load.js";
import { TASK } from "./schema.js";
import type { Store } from "../store/store.js";

/** The kanban columns, in board order. */
export const TASK_STATUSES = ["todo", "doing", "blocked", "done"] as const;

/** A task's status. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task as JSON (no gh equivalent; keys sorted like every gh-shaped record). */
export interface TaskJson {
  assignees: Array<{ login: string }>;
  author: { login: string };
  body: string;
  closedAt: string | null;
  createdAt: string;
  id: string;
  isArchived: boolean;
  /** The linked issue: its id and its number (`null` when no issue has that id here). */
  issue: { id: string; number: number | null } | null;
  number: number;
  status: TaskStatus;
  title: string;
  updatedAt: string;
}

/** Every `--json` field of a task. */
export const TASK_FIELDS: readonly string[] = [
  "assignees",
  "author",
  "body",
  "closedAt",
  "createdAt",
  "id",
  "isArchived",
  "issue",
  "number",
  "status",
  "title",
  "updatedAt",
];

/**
 * Whether `s` is a task status.
 * @example isTaskStatus("doing") // true
 */
export function isTaskStatus(s: unknown): s is TaskStatus {
  return typeof s === "string" && (TASK_STATUSES as readonly string[]).includes(s);
}

/**
 * A task as JSON. `updatedAt` is derived like an issue's: the later of
 * `createdAt` and `closedAt` (no stamp that every move rewrites).
 * @param e the loaded task
 * @param number its derived number
 * @param issueNumbers issue id → number, to name the linked issue
 * @example taskToJson(e, 1, new Map()).status // "todo"
 */
export function taskToJson(e: LoadedEntity, number: number, issueNumbers: ReadonlyMap<string, number>): TaskJson {
  const d = e.data;
  const closedAt = (d.closedAt as string | undefined) ?? null;
  const created = d.createdAt as string;
  const issue = d.issue as string | undefined;
  return {
    assignees: (d.assignees as string[]).map((login) => ({ login })),
    author: { login: d.author as string },
    body: bodyOf(e.body),
    closedAt,
    createdAt: created,
    id: e.ref.id,
    isArchived: e.ref.archived,
    issue: issue === undefined ? null : { id: issue, number: issueNumbers.get(issue) ?? null },
    number,
    status: d.status as TaskStatus,
    title: d.title as string,
    updatedAt: closedAt !== null && closedAt > created ? closedAt : created,
  };
}

/** Input for `createTask`. */
export interface NewTask {
  title: string;
  body: string;
  author: string;
  assignees: string[];
  /** The linked issue's id. */
  issue?: string;
  /** Clock and id generator, injectable for tests. */
  now: string;
  id?: string;
}

/**
 * Create a task (status `todo`): a new folder with `task.md`, made atomically.
 * @returns the new task's id
 * @throws UsageError for a bad title; ConflictError on an id clash
 */
export function createTask(store: Store, input: NewTask): string {
  const id = input.id ?? randomUUID();
  checkTitle(input.title);
  const data = {
    title: input.title,
    id,
    status: "todo",
    author: input.author,
    issue: input.issue,
    createdAt: input.now,
    assignees: [...new Set(input.assignees)],
  };
  createEntity(store, TASKS, TASK, data, storedBody(input.body));
  return id;
}

/**
 * Move a task to a column: rewrites the `status` line; moving to `done`
 * sets `closedAt` (kept if it was done already), moving out of `done`
 * removes it.
 * @returns the task as written, or the same entity when it is already there
 */
export function moveTask(e: LoadedEntity, to: TaskStatus, now: string): LoadedEntity {
  if (e.data.status === to) return e;
  return updateEntity(TASK, e, (d) => {
    d.status = to;
    if (to === "done") d.closedAt = now;
    else delete d.closedAt;
  });
}

/** A change to a task's fields; may return a new body (stored with one final newline). */
export type TaskChange = (data: Record<string, unknown>) => { body?: string } | void;

/**
 * Rewrite a task's owning file with `change` applied, atomically.
 * @throws UsageError when the change leaves a bad title
 */
export function updateTask(e: LoadedEntity, change: TaskChange): LoadedEntity {
  return updateEntity(TASK, e, (d) => {
    const r = change(d);
    if (typeof d.title === "string") checkTitle(d.title);
    if (!isTaskStatus(d.status)) throw new UsageError(`invalid status '${String(d.status).slice(0, 20)}'`);
    return r && r.body !== undefined ? { body: storedBody(r.body) } : undefined;
  });
}
