/**
 * Issues: the gh-shaped JSON model and the operations on
 * `.forge/issues/<id>/`. Returns data, never prints.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import { createDirAtomic } from "../store/create_dir.js";
import { commentsDir, displayPath, entityDir, ISSUES, type Store } from "../store/store.js";
import type { LabelDef, MilestoneDef } from "./defs.js";
import { archiveEntity, loadRecords } from "./folder_entity.js";
import { laterRecordId } from "./later_id.js";
import { lastActivity } from "./activity.js";
import { type LoadedEntity, rewriteFile } from "./load.js";
import { COMMENT, ISSUE } from "./schema.js";
import { checkedText, writeChecked } from "./write.js";

/** A comment in gh's JSON shape. */
export interface CommentJson {
  author: { login: string };
  body: string;
  createdAt: string;
  id: string;
}

/** An issue in gh's `issue list/view --json` shape (keys sorted, as gh prints them). */
export interface IssueJson {
  assignees: Array<{ login: string }>;
  author: { login: string };
  body: string;
  closed: boolean;
  closedAt: string | null;
  comments?: CommentJson[];
  createdAt: string;
  id: string;
  isArchived: boolean;
  isPinned: boolean;
  labels: LabelDef[];
  /** gh's shape; `number` is 0 for a title `milestones.md` does not define. */
  milestone: { number: number; title: string; description: string; dueOn: string | null } | null;
  number: number;
  state: "OPEN" | "CLOSED";
  stateReason: "COMPLETED" | "NOT_PLANNED" | "DUPLICATE" | "REOPENED" | "";
  title: string;
  updatedAt: string;
  url: string;
}

/** Every `--json` field of an issue. */
export const ISSUE_FIELDS: readonly string[] = [
  "assignees",
  "author",
  "body",
  "closed",
  "closedAt",
  "comments",
  "createdAt",
  "id",
  "isArchived",
  "isPinned",
  "labels",
  "milestone",
  "number",
  "state",
  "stateReason",
  "title",
  "updatedAt",
  "url",
];

/** What an issue needs besides its own file to become JSON. */
export interface IssueContext {
  labels: Map<string, LabelDef>;
  milestones: Map<string, MilestoneDef>;
  /** The web address `url` is built from (`repoWebUrl`); `""` leaves it relative. */
  baseUrl?: string;
}

/**
 * gh's `stateReason`: the stored reason of a closed issue (`COMPLETED` when
 * none was given, as GitHub records a plain close), `REOPENED` for a
 * reopened open issue, `""` for one never closed.
 */
export function stateReasonOf(d: Record<string, unknown>): IssueJson["stateReason"] {
  if (d.state === "closed")
    return d.stateReason === "not_planned" ? "NOT_PLANNED" : d.stateReason === "duplicate" ? "DUPLICATE" : "COMPLETED";
  return d.reopenedAt ? "REOPENED" : "";
}

/**
 * The body as gh shows it: the stored body without its final newline.
 * @example bodyOf("hi\n") // "hi"
 */
export function bodyOf(stored: string): string {
  return stored.endsWith("\n") ? stored.slice(0, -1) : stored;
}

/** Store a body: text plus one final newline (none when empty). */
export function storedBody(text: string): string {
  return text === "" || text.endsWith("\n") ? text : text + "\n";
}

/**
 * An issue as gh-shaped JSON. `updatedAt` is derived: the latest of
 * `createdAt`, `closedAt`, `reopenedAt`, `editedAt` (an import's) and its last
 * comment or edit record (`lastActivity`).
 * @param e the loaded issue
 * @param number its derived number
 * @param ctx label and milestone definitions
 * @param comments included when given
 */
export function issueToJson(e: LoadedEntity, number: number, ctx: IssueContext, comments?: CommentJson[]): IssueJson {
  const d = e.data;
  const closedAt = (d.closedAt as string | undefined) ?? null;
  const created = d.createdAt as string;
  let updated = created;
  for (const t of [closedAt, d.reopenedAt as string | undefined, d.editedAt as string | undefined, lastActivity(e)])
    if (t && t > updated) updated = t;
  const ms = d.milestone as string | undefined;
  const msDef = ms === undefined ? undefined : ctx.milestones.get(ms);
  const out: IssueJson = {
    assignees: (d.assignees as string[]).map((login) => ({ login })),
    author: { login: d.author as string },
    body: bodyOf(e.body),
    closed: d.state === "closed",
    closedAt: d.state === "closed" ? closedAt : null,
    createdAt: created,
    id: e.ref.id,
    isArchived: e.ref.archived,
    isPinned: d.isPinned === true,
    labels: (d.labels as string[]).map((name) => ctx.labels.get(name) ?? { name, color: "", description: "" }),
    milestone:
      ms === undefined
        ? null
        : { number: msDef?.number ?? 0, title: ms, description: msDef?.description ?? "", dueOn: msDef?.dueOn ?? null },
    number,
    state: d.state === "closed" ? "CLOSED" : "OPEN",
    stateReason: stateReasonOf(d),
    title: d.title as string,
    updatedAt: updated,
    url: `${ctx.baseUrl ?? ""}/issues/${number}`,
  };
  if (comments) return pick(out, comments);
  return out;
}

function pick(out: IssueJson, comments: CommentJson[]): IssueJson {
  // Keep gh's alphabetical key order with `comments` in its place.
  const { assignees, author, body, closed, closedAt, ...rest } = out;
  return { assignees, author, body, closed, closedAt, comments, ...rest };
}

/** Input for `createIssue`. */
export interface NewIssue {
  title: string;
  body: string;
  author: string;
  labels: string[];
  assignees: string[];
  milestone?: string;
  /** Clock and id generator, injectable for tests. */
  now: string;
  id?: string;
}

/**
 * Create an issue: a new folder with `issue.md`, made atomically.
 * @returns the new issue's id
 * @throws UsageError for a bad title; ConflictError on an id clash
 */
export function createIssue(store: Store, input: NewIssue): string {
  const id = input.id ?? randomUUID();
  checkTitle(input.title);
  const data = {
    title: input.title,
    id,
    state: "open",
    author: input.author,
    milestone: input.milestone,
    createdAt: input.now,
    labels: uniq(input.labels),
    assignees: uniq(input.assignees),
  };
  const dir = entityDir(store, ISSUES, id);
  // Checked as the reader will read it, before a byte is written (an oversized body leaves nothing).
  const text = checkedText(ISSUE, displayPath(store, join(dir, ISSUES.file)), {
    data,
    extra: {},
    body: storedBody(input.body),
  });
  createDirAtomic(dir, { [ISSUES.file]: text });
  return id;
}

/** Reject titles that cannot be stored on one line. */
export function checkTitle(title: string): void {
  if (title.trim() === "") throw new UsageError("title must not be empty");
  if (/[\r\n]/.test(title)) throw new UsageError("title must be one line");
}

/** A change to apply to an issue's owning file. */
export type IssueChange = (data: Record<string, unknown>) => { body?: string } | void;

/**
 * Rewrite an issue's owning file with `change` applied, atomically; known
 * fields in schema order, unknown fields kept.
 * @returns the issue as reloaded from the new bytes
 */
export function updateIssue(e: LoadedEntity, change: IssueChange): LoadedEntity {
  // Under the file's lock, on the fields as they are now: a parallel edit of another field is kept.
  return rewriteFile(ISSUE, e, (data) => {
    const r = change(data);
    if (typeof data.title === "string") checkTitle(data.title);
    return r && r.body !== undefined ? { body: storedBody(r.body) } : undefined;
  });
}

/**
 * Append a comment: a new file `comments/<id>.md`, never an edit.
 * @returns the comment as JSON
 */
export function addComment(
  store: Store,
  e: LoadedEntity,
  input: { body: string; author: string; now: string; id?: string }
): CommentJson {
  if (input.body.trim() === "") throw new UsageError("comment body must not be empty");
  const dirs = [
    commentsDir(store, ISSUES, e.ref.id, e.ref.archived),
    ...(e.ref.archived ? [commentsDir(store, ISSUES, e.ref.id, false)] : []),
  ];
  const id = input.id ?? laterRecordId(dirs, input.now);
  const path = join(dirs[0]!, `${id}.md`);
  writeChecked(
    COMMENT,
    path,
    displayPath(store, path),
    { data: { id, author: input.author, createdAt: input.now }, extra: {}, body: storedBody(input.body) },
    { exclusive: true }
  );
  return { author: { login: input.author }, body: bodyOf(storedBody(input.body)), createdAt: input.now, id };
}

/**
 * Read an issue's comments, oldest first (by `(createdAt, id)`).
 * @throws InvalidFileError for a bad comment file
 */
export async function loadComments(store: Store, e: LoadedEntity): Promise<CommentJson[]> {
  const files = await loadRecords(store, ISSUES, e.ref, "comments", COMMENT);
  return files.map((f) => ({
    author: { login: f.data.author as string },
    body: bodyOf(f.body),
    createdAt: f.data.createdAt as string,
    id: f.data.id as string,
  }));
}

/**
 * Move an issue's folder to `.forge/archive/issues/<id>/`. Its number, and
 * every other number, stays the same (archived issues are still ranked).
 * @throws ConflictError if it is already archived
 */
export function archiveIssue(store: Store, e: LoadedEntity): LoadedEntity {
  return archiveEntity(store, ISSUES, e);
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}
